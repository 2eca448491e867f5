// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo tune - recommend a combination table for a workload
 *
 * Reads pages as zram would see them (files, block devices such as a zram
 * device, or the memory of a running process), takes a deterministic
 * sample and looks for the combination table and thresholds with the best
 * zram ratio within a compression speed budget.  Only the public API of
 * include/linux/zbewalgo.h is used.
 *
 * The search has three stages.
 *  1. Beam search over chains on a small screening subset of the sample.
 *     Chains grow one step at a time.  A transform (bwt, mtf, the byte
 *     shuffles) compresses nothing on its own, so a chain is ranked by the
 *     best of itself and its completions with huffman and rle, and the
 *     beam keeps the chains that cover the pages best (greedy set cover).
 *  2. The most useful chains, and every prefix of them, are measured page
 *     by page on the whole sample through the real engine with a one-chain
 *     table: size, compression and decompression time.
 *  3. Tables are built greedily for several early_abort_size values: add
 *     the chain that lowers the total zram size most while the table stays
 *     within the budget, then drop chains that hardly help.  A table's size
 *     and time come from a replay of the engine's search over the per-chain
 *     measurements (last winner first, tolerance shortcut, early abort,
 *     prefixes); the replayed sizes are exact, the times are the sum of
 *     the chains' own times.
 * The recommendation, the default table, the presets, lz4 and zstd-3 are
 * then measured for real on the sample and on a hold-out set of other
 * pages.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <lz4.h>
#include <zstd.h>

#include <linux/zbewalgo.h>

#include "zbewalgo_tool.h"
#include "../../lib/zbewalgo/zbewalgo_internal.h"

#ifndef ZBEWALGO_TUNE_PLOT
#define ZBEWALGO_TUNE_PLOT "tools/zbewalgo/tune-plot.py"
#endif

/*
 * The sample is taken in runs of consecutive pages so that the engine's
 * memory of the last winner sees neighbours as it would in zram.
 */
#define RUN_PAGES	16
#define NO_RESULT	UINT32_MAX
#define SCREEN		0
#define TRAIN		1
#define MAX_TABLE	32
/* Adding a chain must save this share of the bytes; dropping may lose. */
#define MIN_GAIN	0.001
#define DROP_LOSS	0.0005
/* A preset within this share of the recommendation's bytes is as good. */
#define PRESET_SLACK	0.005
/* Chains slower than this many times the budget are not extended. */
#define SLOW_FACTOR	4.0
#define POOL_COVER	24
#define POOL_TOP	24

/* ---- inputs ---------------------------------------------------------- */

struct extent {
	unsigned long long off;		/* byte offset of the first page */
	size_t first, n;		/* source pages [first, first + n) */
};

struct source {
	const char *name;
	char pidname[32];
	int fd;				/* -1: @data holds the input */
	unsigned char *data;
	unsigned long long len;		/* bytes; file tails are zero-padded */
	bool mem;			/* process memory: reads may fail */
	struct extent *ext;
	size_t next, cap, npages;
};

struct pageset {
	unsigned char *data;
	size_t n, cap;
	/*
	 * Pages the engine stores at once, without trying a chain, and the
	 * time that took when first seen (the same for every table).
	 */
	bool *prestored;
	float *precost;
	/* each page's class (zbw_page_class()) */
	uint8_t *cls;
};

/* ---- the search ---------------------------------------------------------- */

/* One chain measured page by page on one page set. */
struct chainres {
	uint32_t *size;		/* engine output, or NO_RESULT when stored */
	float *ct, *dt;		/* seconds */
	double zb, tc, td;	/* sums: zram bytes, seconds */
};

struct cand {
	struct zbewalgo_combination comb;
	int prefix[ZBEWALGO_MAX_STEPS];	/* candidate of each prefix, self last */
	struct chainres r[2];		/* SCREEN, TRAIN */
	bool pool;
};

struct simres {
	double zb, tc, td, tried;
};

struct tsel {
	int idx[MAX_TABLE];
	int n;
	uint32_t ea, maxout;
	struct simres r;
	bool ok;
};

struct meas {
	double orig, zram, tc, td;
	size_t stored;
	bool ok;
};

enum kind { K_ZBW, K_LZ4, K_ZSTD };

/* A table or algorithm in the report. */
struct entry {
	const char *name;
	enum kind kind;
	struct zbewalgo_table *table;	/* owned */
	struct zbewalgo_params params;
	int level;			/* preset level, 0 otherwise */
	struct tsel model;		/* zbewalgo: the replayed figures */
	bool have_model;
	struct meas m[2];		/* sample, hold-out */
};

#define NR_EAS	6

struct tuner {
	size_t page, threshold, stored_size;
	struct pageset set[2], hold;
	bool same_sets;
	struct cand *cands;
	size_t ncands, capcands;
	int steps[256], nsteps, huffman, rle;
	struct zbewalgo_ctx *ctx;
	struct zbewalgo_table *one;
	unsigned char *dst, *out;
	struct zbewalgo_ctx *dctx;	/* decompresses, like a zram stream */
	double tcopy;			/* memcpy of one page, seconds */
	double tick;			/* cost of reading the clock */
	uint32_t tol;			/* the default tolerance_shift */
	double budget, dbudget;		/* seconds per page, model */
	int max_table, max_steps, beam, reps;
	bool verbose;
	size_t screened;
	/* greedy history, for the plot */
	struct tsel *hist;
	size_t nhist, caphist;
	uint32_t eas[NR_EAS];
};

/*
 * Compression times are CPU time of this thread: on a busy machine the
 * time the tool waits for a CPU would otherwise land on whichever page
 * was being compressed.
 */
static double cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The cost of one cpu_now() pair, taken off every per-page time. */
static double cpu_now_cost(void)
{
	double t0 = cpu_now(), t1 = t0;
	int i;

	for (i = 0; i < 1000; i++)
		t1 = cpu_now();
	return (t1 - t0) / 1000;
}

static void *xgrow(void *p, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : 16;
	void *np;

	if (need <= *cap)
		return p;
	while (c < need)
		c *= 2;
	np = realloc(p, c * elem);
	if (!np)
		return NULL;
	*cap = c;
	return np;
}

/* ---- reading pages ------------------------------------------------------- */

static int add_extent(struct source *s, unsigned long long off, size_t n)
{
	struct extent *e;

	e = xgrow(s->ext, &s->cap, s->next + 1, sizeof(*e));
	if (!e)
		return -1;
	s->ext = e;
	e[s->next].off = off;
	e[s->next].first = s->npages;
	e[s->next].n = n;
	s->next++;
	s->npages += n;
	return 0;
}

static int open_path(struct source *s, const char *path, size_t page)
{
	struct stat st;
	FILE *f;

	s->fd = -1;
	s->name = strcmp(path, "-") ? path : "stdin";
	if (strcmp(path, "-")) {
		s->fd = open(path, O_RDONLY);
		if (s->fd < 0) {
			fprintf(stderr, "zbewalgo: %s: %s\n", path,
				strerror(errno));
			return -1;
		}
		if (!fstat(s->fd, &st) &&
		    (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) {
			off_t end = lseek(s->fd, 0, SEEK_END);

			if (end < 0) {
				fprintf(stderr, "zbewalgo: %s: %s\n", path,
					strerror(errno));
				return -1;
			}
			s->len = end;
			return add_extent(s, 0, (s->len + page - 1) / page);
		}
	}
	/* A pipe or character device: read it whole. */
	f = s->fd >= 0 ? fdopen(s->fd, "rb") : stdin;
	if (!f) {
		fprintf(stderr, "zbewalgo: %s: %s\n", path, strerror(errno));
		return -1;
	}
	{
		size_t len;
		int err = tool_read_all(f, &s->data, &len);

		if (f != stdin)
			fclose(f);
		s->fd = -1;
		if (err)
			return -1;
		s->len = len;
	}
	return add_extent(s, 0, (s->len + page - 1) / page);
}

/* Mappings whose pages can end up in zram (swap): anonymous memory. */
static bool swappable(const char *perms, const char *path)
{
	static const char *const special[] = {
		"[vvar]", "[vvar_vclock]", "[vdso]", "[vsyscall]",
	};
	static const char *const shmem[] = {
		"/dev/zero", "/SYSV", "/memfd:", "/dev/shm/",
	};
	size_t i;

	if (perms[0] != 'r')
		return false;
	for (i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		if (!strcmp(path, special[i]))
			return false;
	if (!*path || path[0] == '[')
		return true;		/* anonymous, [heap], [stack], [anon:] */
	if (perms[3] == 's') {		/* shared: only shmem is swapped */
		for (i = 0; i < sizeof(shmem) / sizeof(shmem[0]); i++)
			if (!strncmp(path, shmem[i], strlen(shmem[i])))
				return true;
		return false;
	}
	/* private file mapping: written pages (data, bss) are anonymous */
	return perms[1] == 'w';
}

/*
 * Process memory, the way gcore reads it: the mappings of /proc/PID/maps
 * through /proc/PID/mem.  Only pages that are resident or swapped out
 * (/proc/PID/pagemap) are taken: untouched pages never reach zram.
 */
static int open_pid(struct source *s, const char *pidstr, size_t page)
{
	long sys = sysconf(_SC_PAGESIZE);
	char path[64], line[4096];
	int pm = -1, ret = -1;
	uint64_t *ent = NULL;
	FILE *maps;

	s->fd = -1;
	s->mem = true;
	snprintf(s->pidname, sizeof(s->pidname), "pid %s", pidstr);
	s->name = s->pidname;
	snprintf(path, sizeof(path), "/proc/%s/maps", pidstr);
	maps = fopen(path, "r");
	if (maps) {
		snprintf(path, sizeof(path), "/proc/%s/mem", pidstr);
		s->fd = open(path, O_RDONLY);
	}
	if (!maps || s->fd < 0) {
		fprintf(stderr, "zbewalgo: %s: %s\n", path, strerror(errno));
		goto out;
	}
	if (sys > 0 && (size_t)sys == page) {
		snprintf(path, sizeof(path), "/proc/%s/pagemap", pidstr);
		pm = open(path, O_RDONLY);
		ent = malloc(4096 * sizeof(*ent));
		if (!ent)
			goto out;
	}
	while (fgets(line, sizeof(line), maps)) {
		unsigned long long lo, hi, a;
		char perms[8] = "", *p;
		int n = 0;

		if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %n", &lo, &hi, perms,
			   &n) < 3)
			continue;
		p = n ? line + n : line + strlen(line);
		p[strcspn(p, "\n")] = '\0';
		if (strlen(perms) < 4 || !swappable(perms, p))
			continue;
		lo = (lo + page - 1) / page * page;
		hi = hi / page * page;
		if (pm < 0) {
			if (hi > lo && add_extent(s, lo, (hi - lo) / page))
				goto out;
			continue;
		}
		for (a = lo; a < hi;) {
			size_t want = (hi - a) / page, i, run = 0;
			ssize_t got;

			if (want > 4096)
				want = 4096;
			got = pread(pm, ent, want * sizeof(*ent),
				    a / page * sizeof(*ent));
			if (got <= 0)
				break;
			want = got / sizeof(*ent);
			/* bit 63: present, bit 62: swapped */
			for (i = 0; i <= want; i++) {
				if (i < want && (ent[i] >> 62)) {
					run++;
					continue;
				}
				if (run && add_extent(s, a + (i - run) * page,
						      run))
					goto out;
				run = 0;
			}
			a += want * page;
		}
	}
	ret = 0;
out:
	free(ent);
	if (pm >= 0)
		close(pm);
	if (maps)
		fclose(maps);
	return ret;
}

/* Reads page @idx of @s into @buf; -1 when it cannot be read. */
static int read_page(const struct source *s, size_t idx, size_t page,
		     unsigned char *buf)
{
	size_t lo = 0, hi = s->next, want, done = 0;
	unsigned long long off;
	const struct extent *e;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (s->ext[mid].first <= idx)
			lo = mid;
		else
			hi = mid;
	}
	e = &s->ext[lo];
	off = e->off + (unsigned long long)(idx - e->first) * page;
	want = page;
	if (!s->mem)
		want = s->len - off < page ? s->len - off : page;
	memset(buf + want, 0, page - want);
	if (s->data) {
		memcpy(buf, s->data + off, want);
		return 0;
	}
	while (done < want) {
		ssize_t r = pread(s->fd, buf + done, want - done, off + done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		done += r;
	}
	return 0;
}

struct sampler {
	struct source *src;
	size_t nsrc, *start, total, page;
	bool drop;
	/*
	 * Duplicate detection over both sets: a slot holds 1 + the page's
	 * index, plus HOLD_BIT for the hold-out set (the sets' buffers grow,
	 * so no pointers), 0 when free.
	 */
	struct pageset *sets[2];
	uint64_t *slot;
	size_t nslots;
	size_t same, dups, unreadable;
	size_t same_kept;		/* same-filled pages kept without -d */
};

#define HOLD_BIT	(1ull << 62)

static const unsigned char *slot_page(const struct sampler *sp, uint64_t v)
{
	const struct pageset *ps = sp->sets[!!(v & HOLD_BIT)];

	return ps->data + ((v & ~HOLD_BIT) - 1) * sp->page;
}

static int take_page(struct sampler *sp, size_t g, struct pageset *ps)
{
	size_t i = 0, k = 0, page = sp->page;
	unsigned char *dst, *d;

	while (i + 1 < sp->nsrc && sp->start[i + 1] <= g)
		i++;
	d = xgrow(ps->data, &ps->cap, ps->n + 1, page);
	if (!d)
		return -1;
	ps->data = d;
	dst = d + ps->n * page;
	if (read_page(&sp->src[i], g - sp->start[i], page, dst)) {
		sp->unreadable++;
		return 0;
	}
	if (tool_same_filled(dst, page)) {
		if (sp->drop) {
			sp->same++;
			return 0;
		}
		sp->same_kept++;
	}
	if (sp->drop) {
		k = tool_page_hash(dst, page) & (sp->nslots - 1);
		while (sp->slot[k] &&
		       memcmp(slot_page(sp, sp->slot[k]), dst, page))
			k = (k + 1) & (sp->nslots - 1);
		if (sp->slot[k]) {
			sp->dups++;
			return 0;
		}
	}
	ps->n++;
	if (sp->drop)
		sp->slot[k] = ps->n | (ps == sp->sets[1] ? HOLD_BIT : 0);
	return 0;
}

/*
 * Runs of RUN_PAGES pages: @want_t / RUN_PAGES runs evenly spread for the
 * sample, the hold-out runs in between (all other runs when there are not
 * enough).  Deterministic: the same input gives the same sample.
 */
static int sample_pages(struct sampler *sp, size_t want_t, size_t want_h,
			struct pageset *train, struct pageset *hold)
{
	size_t q = (sp->total + RUN_PAGES - 1) / RUN_PAGES;
	size_t nt = (want_t + RUN_PAGES - 1) / RUN_PAGES;
	size_t nh = (want_h + RUN_PAGES - 1) / RUN_PAGES;
	unsigned char *used = calloc(q / 8 + 1, 1);
	size_t j, r, p;
	int ret = -1;

	if (!used)
		return -1;
	if (!q) {
		free(used);
		return 0;
	}
	sp->sets[0] = train;
	sp->sets[1] = hold;
	if (sp->drop) {
		sp->nslots = 1;
		while (sp->nslots < 2 * (nt + nh) * RUN_PAGES + 2)
			sp->nslots <<= 1;
		sp->slot = calloc(sp->nslots, sizeof(*sp->slot));
		if (!sp->slot)
			goto out;
	}
	/* Too few pages for both: share them in proportion. */
	if (nt + nh > q) {
		nt = nh ? (size_t)((double)q * nt / (nt + nh)) : q;
		if (!nt)
			nt = 1;
	}
	for (j = 0; j < nt; j++) {
		r = (size_t)((double)j * q / nt);
		used[r / 8] |= 1 << r % 8;
	}
	if (nh > q - nt)
		nh = q - nt;
	for (j = 0; j < nh; j++) {
		r = (size_t)((2.0 * j + 1) * q / (2.0 * nh)) % q;
		while (used[r / 8] & (1 << r % 8))
			r = (r + 1) % q;
		used[r / 8] |= 1 << r % 8;
	}
	/*
	 * In page order: the sample's runs are at j * q / nt, every other
	 * marked run is hold-out.
	 */
	for (j = 0, r = 0; r < q; r++) {
		bool is_train;

		if (!(used[r / 8] & (1 << r % 8)))
			continue;
		is_train = j < nt && r == (size_t)((double)j * q / nt);
		if (is_train)
			j++;
		for (p = r * RUN_PAGES; p < (r + 1) * RUN_PAGES &&
					p < sp->total; p++)
			if (take_page(sp, p, is_train ? train : hold))
				goto out;
	}
	ret = 0;
out:
	free(used);
	return ret;
}

/* ---- measuring one chain --------------------------------------------------- */

static double zsize(const struct tuner *t, uint32_t s)
{
	return s < t->threshold ? s : t->page;
}

static int eval_chain(struct tuner *t, int ci, int set)
{
	struct pageset *ps = &t->set[set];
	struct cand *c = &t->cands[ci];
	struct chainres *r = &c->r[set];
	struct zbewalgo_params p;
	size_t i, n = ps->n, page = t->page;

	r->size = malloc((n + 1) * sizeof(*r->size));
	r->ct = malloc((n + 1) * sizeof(*r->ct));
	r->dt = malloc((n + 1) * sizeof(*r->dt));
	if (!r->size || !r->ct || !r->dt)
		return -1;
	if (!ps->prestored) {
		ps->prestored = calloc(n + 1, sizeof(*ps->prestored));
		ps->precost = calloc(n + 1, sizeof(*ps->precost));
		if (!ps->prestored || !ps->precost)
			return -1;
		for (i = 0; i < n; i++)
			ps->precost[i] = -1;
	}
	if (!ps->cls) {
		static u8 scratch[ZBW_CHECK_SCRATCH] __aligned(8);
		struct zbw_sample sample;

		ps->cls = calloc(n + 1, 1);
		if (!ps->cls)
			return -1;
		for (i = 0; i < n; i++)
			ps->cls[i] = zbw_page_class(ps->data + i * page, page,
						    scratch, &sample);
	}
	zbewalgo_default_params(&p, page);
	/*
	 * The whole chain on every page, every prefix result below zram's
	 * threshold kept; as with a table (max_output_size below the page
	 * size) the engine stores random-looking pages without a try.
	 */
	p.early_abort_size = 0;
	p.max_output_size = t->threshold;
	p.tolerance_shift = 0;
	t->one->nr = 1;
	t->one->comb[0] = c->comb;
	zbewalgo_ctx_set_table(t->ctx, t->one);
	zbewalgo_ctx_set_params(t->ctx, &p);
	r->zb = 0;
	r->tc = 0;
	r->td = 0;
	for (i = 0; i < n; i++) {
		const unsigned char *src = ps->data + i * page;
		size_t dlen = ZBEWALGO_STORED_SIZE(page), olen = page;
		double t0, t1, t2;
		int err;

		t0 = cpu_now();
		err = zbewalgo_compress(t->ctx, src, page, t->dst, &dlen);
		t1 = cpu_now();
		if (err) {
			fprintf(stderr, "zbewalgo: compress failed: %s\n",
				strerror(-err));
			return -1;
		}
		r->ct[i] = t1 - t0 > t->tick ? t1 - t0 - t->tick : 0;
		r->dt[i] = 0;
		r->size[i] = NO_RESULT;
		ps->prestored[i] = !zbewalgo_ctx_last_result(t->ctx)->tried;
		if (ps->prestored[i] && ps->precost[i] < 0)
			ps->precost[i] = r->ct[i];
		if (!zbewalgo_ctx_last_result(t->ctx)->stored) {
			r->size[i] = dlen;
			t1 = cpu_now();
			err = zbewalgo_ctx_decompress(t->dctx, t->dst, dlen,
						      t->out, &olen);
			t2 = cpu_now();
			if (err || olen != page || memcmp(t->out, src, page)) {
				char name[128];

				zbewalgo_combination_format(&c->comb, name,
							    sizeof(name));
				fprintf(stderr, "zbewalgo: %s: ROUND TRIP FAILED\n",
					name);
				return -1;
			}
			r->dt[i] = t2 - t1 > t->tick ? t2 - t1 - t->tick : 0;
		}
		r->zb += zsize(t, r->size[i]);
		r->tc += r->ct[i];
		r->td += r->size[i] < t->threshold ? r->dt[i] : t->tcopy;
	}
	t->screened++;
	return 0;
}

static int find_cand(const struct tuner *t,
		     const struct zbewalgo_combination *comb)
{
	size_t i;

	for (i = 0; i < t->ncands; i++)
		if (t->cands[i].comb.nr_steps == comb->nr_steps &&
		    !memcmp(t->cands[i].comb.ids, comb->ids, comb->nr_steps))
			return i;
	return -1;
}

/*
 * The candidate for @combp, measured on @set with all its prefixes.
 * @combp may point into t->cands, which this can move: copy it first.
 */
static int get_cand(struct tuner *t, const struct zbewalgo_combination *combp,
		    int set)
{
	struct zbewalgo_combination cb = *combp, *comb = &cb;
	int ci = find_cand(t, comb), k;

	if (t->same_sets)
		set = TRAIN;
	if (ci < 0) {
		struct cand *nc = xgrow(t->cands, &t->capcands, t->ncands + 1,
					sizeof(*nc));

		if (!nc)
			return -1;
		t->cands = nc;
		ci = t->ncands++;
		memset(&nc[ci], 0, sizeof(nc[ci]));
		nc[ci].comb = *comb;
		nc[ci].prefix[comb->nr_steps - 1] = ci;
		for (k = 0; k + 1 < comb->nr_steps; k++) {
			struct zbewalgo_combination pc = { .nr_steps = k + 1 };
			int pi;

			memcpy(pc.ids, comb->ids, k + 1);
			pi = get_cand(t, &pc, set);
			if (pi < 0)
				return -1;
			t->cands[ci].prefix[k] = pi;
		}
	}
	for (k = 0; k + 1 < comb->nr_steps; k++)
		if (!t->cands[t->cands[ci].prefix[k]].r[set].size &&
		    get_cand(t, &t->cands[t->cands[ci].prefix[k]].comb, set) < 0)
			return -1;
	if (!t->cands[ci].r[set].size && eval_chain(t, ci, set))
		return -1;
	return ci;
}

static const struct chainres *res_of(const struct tuner *t, int ci, int set)
{
	return &t->cands[ci].r[t->same_sets ? TRAIN : set];
}

/* ---- replaying the engine -------------------------------------------------- */

/*
 * The engine's search (lib/zbewalgo/engine.c, zbewalgo_compress()) over
 * the per-chain measurements, with the engine's own per-class policy
 * (zbw_class_enter(), zbw_class_shortcut(), zbw_class_searched()): the
 * class's last winner first, then the table in order; after every step
 * the best result so far is compared with early_abort_size.  A chain's
 * result after step k is the one-chain result of its k-step prefix,
 * which is the engine's best-of-prefixes.
 */
static void sim(const struct tuner *t, int set, const int *tab, int n,
		uint32_t ea, uint32_t maxout, struct simres *out)
{
	const struct pageset *ps = &t->set[set];
	uint32_t limit = maxout < t->stored_size ? maxout : t->stored_size;
	struct zbw_class_memory class[ZBW_NR_CLASSES] = { 0 };
	unsigned int recent = 0;
	int i, k;
	size_t p;

	memset(out, 0, sizeof(*out));
	for (p = 0; p < ps->n; p++) {
		/* the table position of the class's last winner */
		unsigned int c = n > 1 || maxout < t->page ? ps->cls[p] : 0;
		struct zbw_class_memory *mem =
			zbw_class_enter(class, &recent, c);
		uint32_t best = limit;
		size_t first_size = SIZE_MAX;
		int first = mem->have_last ? mem->last_index : n;
		int win = -1, wpre = -1;
		double cost = 0;

		/* stored at once: the check's cost, no try */
		if (ps->prestored[p] && maxout < t->page && n) {
			mem->stored = true;
			out->tc += ps->precost[p] + t->tcopy;
			out->zb += t->page;
			out->td += t->tcopy;
			continue;
		}

		for (i = 0; i <= n; i++) {
			int ci = i == 0 ? first : i - 1;
			const struct cand *c;

			if (ci >= n || (i > 0 && ci == first))
				continue;
			c = &t->cands[tab[ci]];
			out->tried++;
			for (k = 0; k < c->comb.nr_steps; k++) {
				const struct chainres *r =
					res_of(t, c->prefix[k], set);

				if (r->size[p] < best) {
					best = r->size[p];
					win = ci;
					wpre = c->prefix[k];
				}
				if (best < ea) {
					cost += r->ct[p];
					goto done;
				}
			}
			cost += res_of(t, tab[ci], set)->ct[p];
			if (ci != first)
				continue;
			first_size = best;
			if (win == first &&
			    zbw_class_shortcut(mem, best, t->tol))
				goto shortcut;
		}
done:
		if (win >= 0)
			zbw_class_searched(mem, best, win == first ? best :
						     first_size);
shortcut:
		mem->stored = win < 0;
		if (win >= 0) {
			mem->last_index = win;
			mem->have_last = true;
		}
		/* and zram's copy of the result (or the page) into its store */
		if (win >= 0 && best < t->threshold) {
			out->zb += best;
			out->tc += cost + t->tcopy * best / t->page;
			out->td += res_of(t, wpre, set)->dt[p];
		} else {
			out->zb += t->page;
			out->tc += cost + t->tcopy;
			out->td += t->tcopy;
		}
	}
}

static bool within(const struct tuner *t, const struct simres *r, size_t n)
{
	return r->tc / n <= t->budget * (1 + 1e-9) &&
	       r->td / n <= t->dbudget * (1 + 1e-9);
}

static void run_sim(const struct tuner *t, struct tsel *s)
{
	sim(t, TRAIN, s->idx, s->n, s->ea, s->maxout, &s->r);
	s->ok = within(t, &s->r, t->set[TRAIN].n);
}

/*
 * Fewer bytes; about equal bytes: clearly faster (timing noise must not
 * move the choice away from the settings tried first, the defaults).
 */
static bool better(const struct tsel *a, const struct tsel *b)
{
	if (!b || !b->n)
		return true;
	if (a->r.zb < b->r.zb * (1 - 1e-4))
		return true;
	return a->r.zb <= b->r.zb * (1 + 1e-4) && a->r.tc < b->r.tc * 0.98;
}

static void remember(struct tuner *t, const struct tsel *s)
{
	struct tsel *h = xgrow(t->hist, &t->caphist, t->nhist + 1,
			       sizeof(*h));

	if (!h)
		return;
	t->hist = h;
	h[t->nhist++] = *s;
}

static bool in_table(const struct tsel *s, int ci)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->idx[i] == ci)
			return true;
	return false;
}

/*
 * Greedy set cover from @start within the budget, then pruning; pruning
 * keeps the bytes at or below @cap.
 */
static void greedy(struct tuner *t, const struct tsel *start, double cap,
		   struct tsel *res)
{
	struct tsel cur = *start, best = { 0 }, try;
	bool found;
	size_t i;
	int j;

	if (cur.n)
		run_sim(t, &cur);
	while (cur.n < t->max_table) {
		found = false;
		for (i = 0; i < t->ncands; i++) {
			if (!t->cands[i].pool || in_table(&cur, i))
				continue;
			try = cur;
			try.idx[try.n++] = i;
			run_sim(t, &try);
			if (try.ok && (!found || better(&try, &best))) {
				best = try;
				found = true;
			}
		}
		if (!found || (cur.n && best.r.zb > cur.r.zb * (1 - MIN_GAIN)))
			break;
		cur = best;
		remember(t, &cur);
	}
	/* Drop chains that hardly help: fewer tries per page. */
	for (j = cur.n - 1; j >= 0 && cur.n > 1; j--) {
		try = cur;
		memmove(&try.idx[j], &try.idx[j + 1],
			(try.n - j - 1) * sizeof(try.idx[0]));
		try.n--;
		run_sim(t, &try);
		if (try.ok && try.r.zb <= cur.r.zb * (1 + DROP_LOSS) &&
		    try.r.zb <= cap) {
			cur = try;
			remember(t, &cur);
		}
	}
	*res = cur;
}

/* ---- stage 1: beam search on the screening set ---------------------------- */

/*
 * Picks up to @k of the @n candidates in @list by greedy set cover of the
 * per-page values @val (row per candidate), then fills up by the lowest
 * totals.  Candidates with @skip set are not picked.
 */
static int cover_select(const struct tuner *t, const int *list, size_t n,
			const uint32_t *val, size_t np, const bool *skip,
			size_t k, int *out)
{
	double *cur = malloc(np * sizeof(*cur));
	bool *taken = calloc(n + 1, 1), gain = true;
	size_t i, p, got = 0;

	if (!cur || !taken) {
		free(cur);
		free(taken);
		return 0;
	}
	for (p = 0; p < np; p++)
		cur[p] = t->page;
	while (got < k) {
		/* the most bytes saved; with no gain left, the lowest total */
		double best = gain ? 0 : -INFINITY;
		size_t bi = n;

		for (i = 0; i < n; i++) {
			double score = 0;

			if (taken[i] || skip[i])
				continue;
			for (p = 0; p < np; p++) {
				double z = zsize(t, val[i * np + p]);

				if (!gain)
					score -= z;
				else if (z < cur[p])
					score += cur[p] - z;
			}
			if (score > best) {
				best = score;
				bi = i;
			}
		}
		if (bi == n && gain) {
			gain = false;
			continue;
		}
		if (bi == n)
			break;
		taken[bi] = true;
		out[got++] = list[bi];
		for (p = 0; p < np && gain; p++)
			if (zsize(t, val[bi * np + p]) < cur[p])
				cur[p] = zsize(t, val[bi * np + p]);
	}
	free(taken);
	free(cur);
	return got;
}

static struct zbewalgo_combination extend(const struct zbewalgo_combination *c,
					  int step)
{
	struct zbewalgo_combination r = *c;

	r.ids[r.nr_steps++] = step;
	return r;
}

static bool slow(const struct tuner *t, int ci, int set)
{
	return res_of(t, ci, set)->tc / t->set[set].n >
	       SLOW_FACTOR * t->budget;
}

static int beam_search(struct tuner *t)
{
	size_t np = t->set[SCREEN].n, nl = 0, i, p;
	int *level = NULL, *beam = malloc(t->beam * sizeof(int)), level_no;
	uint32_t *pot = NULL;
	bool *skip = NULL;
	int ret = -1, nb = 0, s;

	if (!beam)
		return -1;
	for (level_no = 1; level_no <= t->max_steps; level_no++) {
		size_t want = level_no == 1 ? t->nsteps : nb * t->nsteps;
		int *nlv = realloc(level, (want + 1) * sizeof(int));

		if (!nlv)
			goto out;
		level = nlv;
		nl = 0;
		for (i = 0; i < (level_no == 1 ? 1 : (size_t)nb); i++) {
			for (s = 0; s < t->nsteps; s++) {
				struct zbewalgo_combination c = { 0 };
				int ci, id = t->steps[s];

				if (level_no > 1) {
					const struct zbewalgo_combination *b =
						&t->cands[beam[i]].comb;

					/* no repeats; nothing after huffman */
					if (b->ids[b->nr_steps - 1] == id ||
					    b->ids[b->nr_steps - 1] ==
						t->huffman)
						continue;
					c = *b;
				}
				c = extend(&c, id);
				ci = get_cand(t, &c, SCREEN);
				if (ci < 0)
					goto out;
				level[nl++] = ci;
			}
		}
		if (t->verbose)
			fprintf(stderr, "tune: %d-step chains: %zu (%zu screened so far)\n",
				level_no, nl, t->screened);
		if (level_no == t->max_steps)
			break;
		/* Promise: the chain or its completion with huffman or rle. */
		free(pot);
		free(skip);
		pot = malloc((nl * np + 1) * sizeof(*pot));
		skip = calloc(nl + 1, 1);
		if (!pot || !skip)
			goto out;
		for (i = 0; i < nl; i++) {
			/* a copy: get_cand() may move t->cands */
			const struct zbewalgo_combination cc =
				t->cands[level[i]].comb;
			int fin[2] = { t->huffman, t->rle }, f;
			int tail = cc.ids[cc.nr_steps - 1];
			const struct chainres *r = res_of(t, level[i], SCREEN);

			for (p = 0; p < np; p++)
				pot[i * np + p] = r->size[p];
			skip[i] = slow(t, level[i], SCREEN);
			for (f = 0; f < 2 && !skip[i]; f++) {
				struct zbewalgo_combination e;
				int ei;

				if (fin[f] < 0 || tail == fin[f] ||
				    tail == t->huffman)
					continue;
				e = extend(&cc, fin[f]);
				ei = get_cand(t, &e, SCREEN);
				if (ei < 0)
					goto out;
				r = res_of(t, ei, SCREEN);
				for (p = 0; p < np; p++)
					if (r->size[p] < pot[i * np + p])
						pot[i * np + p] = r->size[p];
			}
			/* huffman ends a chain: nothing to extend */
			if (tail == t->huffman)
				skip[i] = true;
		}
		nb = cover_select(t, level, nl, pot, np, skip, t->beam, beam);
		if (t->verbose) {
			fprintf(stderr, "tune: beam:");
			for (i = 0; i < (size_t)nb; i++) {
				char name[128];

				zbewalgo_combination_format(&t->cands[beam[i]].comb,
							    name, sizeof(name));
				fprintf(stderr, " %s", name);
			}
			fputc('\n', stderr);
		}
		if (!nb)
			break;
	}
	ret = 0;
out:
	free(skip);
	free(pot);
	free(level);
	free(beam);
	return ret;
}

/* Stage 2: the chains worth a full measurement, with their prefixes. */
static int pick_pool(struct tuner *t, const struct zbewalgo_table **seeds,
		     int nseeds)
{
	size_t n = t->ncands, np = t->set[SCREEN].n, i, p;
	int *list = malloc((n + 1) * sizeof(int));
	int *out = malloc((POOL_COVER + POOL_TOP + 1) * sizeof(int));
	uint32_t *val = malloc((n * np + 1) * sizeof(*val));
	bool *skip = calloc(n + 1, 1);
	int got, k, ret = -1, s;
	unsigned int j;

	if (!list || !out || !val || !skip)
		goto out;
	for (i = 0; i < n; i++) {
		list[i] = i;
		skip[i] = !res_of(t, i, SCREEN)->size || slow(t, i, SCREEN);
		for (p = 0; p < np && !skip[i]; p++)
			val[i * np + p] = res_of(t, i, SCREEN)->size[p];
	}
	got = cover_select(t, list, n, val, np, skip, POOL_COVER, out);
	for (k = 0; k < got; k++)
		skip[out[k]] = true;
	{
		/* and the lowest totals among the rest */
		int extra = 0;

		while (extra < POOL_TOP) {
			double besttot = INFINITY;
			int bi = -1;

			for (i = 0; i < n; i++)
				if (!skip[i] &&
				    res_of(t, i, SCREEN)->zb < besttot) {
					besttot = res_of(t, i, SCREEN)->zb;
					bi = i;
				}
			if (bi < 0)
				break;
			skip[bi] = true;
			out[got + extra++] = bi;
		}
		got += extra;
	}
	for (k = 0; k < got; k++) {
		int ci = get_cand(t, &t->cands[out[k]].comb, TRAIN);

		if (ci < 0)
			goto out;
		for (s = 0; s < t->cands[ci].comb.nr_steps; s++)
			t->cands[t->cands[ci].prefix[s]].pool = true;
	}
	for (k = 0; k < nseeds; k++)
		for (j = 0; j < seeds[k]->nr; j++) {
			int ci = get_cand(t, &seeds[k]->comb[j], TRAIN);

			if (ci < 0)
				goto out;
			for (s = 0; s < t->cands[ci].comb.nr_steps; s++)
				t->cands[t->cands[ci].prefix[s]].pool = true;
		}
	ret = 0;
out:
	free(skip);
	free(val);
	free(out);
	free(list);
	return ret;
}

/* A table of candidates for a zbewalgo table; -1 when not all are known. */
static int tsel_of(struct tuner *t, const struct zbewalgo_table *tab, int set,
		   struct tsel *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < tab->nr && i < MAX_TABLE; i++) {
		int ci = get_cand(t, &tab->comb[i], set);

		if (ci < 0)
			return -1;
		s->idx[s->n++] = ci;
	}
	return tab->nr <= MAX_TABLE ? 0 : -1;
}

/*
 * A default or preset table with the default early_abort_size and zram's
 * threshold, replayed on the sample.
 */
static int replay_seed(struct tuner *t, const struct zbewalgo_table *tab,
		       struct tsel *s)
{
	struct zbewalgo_params dp;

	if (tsel_of(t, tab, TRAIN, s))
		return -1;
	zbewalgo_default_params(&dp, t->page);
	s->ea = dp.early_abort_size;
	s->maxout = t->threshold;
	run_sim(t, s);
	return 0;
}

static void table_of(const struct tuner *t, const struct tsel *s,
		     struct zbewalgo_table *tab)
{
	int i;

	memset(tab, 0, sizeof(*tab));
	for (i = 0; i < s->n; i++)
		tab->comb[tab->nr++] = t->cands[s->idx[i]].comb;
}

/* ---- real measurements ------------------------------------------------------ */

static int measure(struct tuner *t, const struct pageset *ps, struct entry *e,
		   struct meas *m)
{
	size_t n = ps->n, page = t->page, cap = 2 * page + 64, i, pos;
	unsigned char *store = malloc(n * page + 1), *out = malloc(n * page + 1);
	unsigned char *tmp = malloc(cap);
	size_t *clen = calloc(n + 1, sizeof(*clen));
	size_t *off = calloc(n + 1, sizeof(*off));
	double *tc = calloc(2 * t->reps, sizeof(double)), *td = tc + t->reps;
	void *lz4 = malloc(LZ4_sizeofState());
	ZSTD_CCtx *zc = ZSTD_createCCtx();
	ZSTD_DCtx *zd = ZSTD_createDCtx();
	struct zbewalgo_ctx *ctx = NULL;
	int r, ret = -1;
	double t0;

	memset(m, 0, sizeof(*m));
	m->ok = true;
	if (!store || !out || !tmp || !clen || !off || !tc || !lz4 || !zc ||
	    !zd)
		goto out;
	for (r = 0; r < t->reps; r++) {
		if (e->kind == K_ZBW) {
			/* a fresh context: every repetition searches alike */
			zbewalgo_ctx_destroy(ctx);
			ctx = zbewalgo_ctx_create(page);
			if (!ctx)
				goto out;
			zbewalgo_ctx_set_table(ctx, e->table);
			zbewalgo_ctx_set_params(ctx, &e->params);
		}
		t0 = cpu_now();
		for (i = 0, pos = 0; i < n; i++) {
			const unsigned char *src = ps->data + i * page;
			size_t c = cap;

			if (e->kind == K_ZBW) {
				if (zbewalgo_compress(ctx, src, page, tmp, &c))
					c = 0;
			} else if (e->kind == K_LZ4) {
				c = tool_lz4_compress(lz4, src, page, tmp,
						      cap, 1);
			} else {
				c = tool_zstd_compress(zc, src, page, tmp,
						       cap, 3);
			}
			off[i] = pos;
			clen[i] = tool_zram_store(store, &pos, src, tmp, c,
						  page, t->threshold);
		}
		tc[r] = cpu_now() - t0;
	}
	for (r = 0; r < t->reps; r++) {
		memset(out, r & 1 ? 0x00 : 0xff, n * page);
		t0 = cpu_now();
		for (i = 0; i < n; i++) {
			unsigned char *d = out + i * page;
			size_t got = page;

			if (!clen[i]) {
				memcpy(d, store + off[i], page);
				continue;
			}
			if (e->kind == K_ZBW) {
				if (zbewalgo_ctx_decompress(t->dctx,
							    store + off[i],
							    clen[i], d, &got))
					got = 0;
			} else if (e->kind == K_LZ4) {
				got = tool_lz4_decompress(store + off[i],
							  clen[i], d, page);
			} else {
				got = tool_zstd_decompress(zd, store + off[i],
							   clen[i], d, page);
			}
			if (got != page)
				m->ok = false;
		}
		td[r] = cpu_now() - t0;
		if (memcmp(out, ps->data, n * page))
			m->ok = false;
	}
	m->orig = (double)n * page;
	for (i = 0; i < n; i++) {
		m->zram += clen[i] ? clen[i] : page;
		m->stored += !clen[i];
	}
	m->tc = tool_median(tc, t->reps);
	m->td = tool_median(td, t->reps);
	ret = 0;
out:
	zbewalgo_ctx_destroy(ctx);
	ZSTD_freeCCtx(zc);
	ZSTD_freeDCtx(zd);
	free(lz4);
	free(tc);
	free(off);
	free(clen);
	free(tmp);
	free(out);
	free(store);
	return ret;
}

/* ---- output ----------------------------------------------------------------- */

static double ratio(const struct meas *m)
{
	return m->zram ? m->orig / m->zram : NAN;
}

/* The table as one line, combinations separated by spaces. */
static void table_line(const struct zbewalgo_table *tab, char *buf,
		       size_t size)
{
	char *p;

	zbewalgo_table_format(tab, buf, size);
	for (p = buf; *p; p++)
		if (*p == '\n')
			*p = p[1] ? ' ' : '\0';
}

static void json_num(FILE *f, const char *key, double v, bool comma)
{
	fprintf(f, "\"%s\": ", key);
	tool_put_num(f, v, "%.6g", "null");
	if (comma)
		fputs(", ", f);
}

static void json_meas(FILE *f, const char *key, const struct meas *m,
		      const struct meas *lz4, bool comma)
{
	fprintf(f, "\"%s\": ", key);
	if (!m->orig) {
		fputs("null", f);
	} else {
		fputs("{", f);
		json_num(f, "ratio", ratio(m), true);
		json_num(f, "compress_mibps", tool_mibps(m->orig, m->tc), true);
		json_num(f, "decompress_mibps", tool_mibps(m->orig, m->td), true);
		json_num(f, "compress_vs_lz4", lz4->tc / m->tc, true);
		json_num(f, "decompress_vs_lz4", lz4->td / m->td, true);
		json_num(f, "stored_pages", m->stored, true);
		fprintf(f, "\"roundtrip_ok\": %s}", m->ok ? "true" : "false");
	}
	if (comma)
		fputs(", ", f);
}

static void json_model(FILE *f, const struct tuner *t, const struct tsel *s,
		       const struct meas *lz4)
{
	size_t n = t->set[TRAIN].n;

	fputs("{", f);
	json_num(f, "ratio", n * (double)t->page / s->r.zb, true);
	json_num(f, "compress_vs_lz4", lz4->tc / s->r.tc, true);
	json_num(f, "decompress_vs_lz4", lz4->td / s->r.td, true);
	json_num(f, "us_per_page", s->r.tc / n * 1e6, true);
	json_num(f, "tries_per_page", s->r.tried / n, true);
	json_num(f, "early_abort_size", s->ea, true);
	json_num(f, "max_output_size", s->maxout, true);
	fprintf(f, "\"within_budget\": %s}", s->ok ? "true" : "false");
}

struct report {
	const struct tuner *t;
	struct source *src;
	size_t nsrc, total;
	struct sampler *sp;
	const char *budget_kind;
	double budget_value;
	struct entry *ent;
	int nent, rec, lz4, preset_match;
	struct tsel *sweep;
	int nsweep;
	double search_s;
	bool budget_met;
	int retries;
	double model_vs_real;
};

/* The sysfs writes that apply the recommendation, one per line or string. */
static void write_commands(FILE *f, const struct report *rp, bool json)
{
	const struct entry *e = &rp->ent[rp->rec];
	static char line[32768], cmd[3][32768 + 64];
	int i;

	table_line(e->table, line, sizeof(line));
	snprintf(cmd[0], sizeof(cmd[0]),
		 "echo 'set %s' > /sys/kernel/zbewalgo/combinations", line);
	snprintf(cmd[1], sizeof(cmd[1]),
		 "echo %u > /sys/kernel/zbewalgo/early_abort_size",
		 e->params.early_abort_size);
	snprintf(cmd[2], sizeof(cmd[2]),
		 "echo %u > /sys/kernel/zbewalgo/max_output_size",
		 e->params.max_output_size);
	for (i = 0; i < 3; i++) {
		if (json) {
			fputs(i ? ", " : "", f);
			tool_json_string(f, cmd[i]);
		} else {
			fprintf(f, "  %s\n", cmd[i]);
		}
	}
}

static void write_json(FILE *f, const void *arg)
{
	const struct report *rp = arg;
	const struct tuner *t = rp->t;
	const struct meas *lz4 = &rp->ent[rp->lz4].m[0];
	const struct meas *lz4h = &rp->ent[rp->lz4].m[1];
	const struct entry *rec = &rp->ent[rp->rec];
	char line[32768];
	size_t i;
	int k;

	fputs("{\n  \"inputs\": [", f);
	for (i = 0; i < rp->nsrc; i++) {
		fputs(i ? ", " : "", f);
		tool_json_string(f, rp->src[i].name);
	}
	fprintf(f, "],\n  \"page_size\": %zu, \"threshold\": %zu, \"pages\": %zu,\n",
		t->page, t->threshold, rp->total);
	fprintf(f, "  \"sample_pages\": %zu, \"holdout_pages\": %zu, \"screen_pages\": %zu,\n",
		t->set[TRAIN].n, t->hold.n, t->set[SCREEN].n);
	fprintf(f, "  \"same_filled_dropped\": %zu, \"duplicates_dropped\": %zu, \"same_filled_kept\": %zu, \"unreadable\": %zu,\n",
		rp->sp->same, rp->sp->dups, rp->sp->same_kept, rp->sp->unreadable);
	fputs("  \"budget\": {\"kind\": ", f);
	tool_json_string(f, rp->budget_kind);
	fputs(", ", f);
	json_num(f, "value", rp->budget_value, true);
	json_num(f, "us_per_page", t->budget * 1e6, true);
	json_num(f, "decompress_us_per_page", t->dbudget * 1e6, true);
	fprintf(f, "\"met\": %s, \"retries\": %d},\n",
		rp->budget_met ? "true" : "false", rp->retries);
	fprintf(f, "  \"chains_screened\": %zu, \"search_s\": %.3f,\n",
		t->screened, rp->search_s);
	fputs("  \"results\": [", f);
	for (k = 0; k < rp->nent; k++) {
		const struct entry *e = &rp->ent[k];

		fputs(k ? ",\n    {" : "\n    {", f);
		fputs("\"name\": ", f);
		tool_json_string(f, e->name);
		fputs(", ", f);
		if (e->kind == K_ZBW) {
			table_line(e->table, line, sizeof(line));
			fputs("\"table\": ", f);
			tool_json_string(f, line);
			fprintf(f, ", \"chains\": %u, \"early_abort_size\": %u, \"max_output_size\": %u, ",
				e->table->nr, e->params.early_abort_size,
				e->params.max_output_size);
			if (e->level)
				fprintf(f, "\"level\": %d, ", e->level);
		}
		if (e->have_model) {
			fputs("\"model\": ", f);
			json_model(f, t, &e->model, lz4);
			fputs(", ", f);
		}
		json_meas(f, "sample", &e->m[0], lz4, true);
		json_meas(f, "holdout", &e->m[1], lz4h, false);
		fputs("}", f);
	}
	fputs("\n  ],\n  \"candidates\": [", f);
	for (i = 0, k = 0; i < t->ncands; i++) {
		const struct cand *c = &t->cands[i];
		int set = c->r[TRAIN].size ? TRAIN : SCREEN;
		const struct chainres *r = res_of(t, i, set);
		size_t n = t->set[set].n;

		if (!r->size)
			continue;
		zbewalgo_combination_format(&c->comb, line, sizeof(line));
		fputs(k++ ? ",\n    {" : "\n    {", f);
		fputs("\"chain\": ", f);
		tool_json_string(f, line);
		fprintf(f, ", \"set\": \"%s\", ",
			set == TRAIN ? "sample" : "screen");
		json_num(f, "ratio", n * (double)t->page / r->zb, true);
		json_num(f, "compress_vs_lz4",
			 lz4->tc / t->set[TRAIN].n * n / r->tc, true);
		json_num(f, "decompress_vs_lz4",
			 lz4->td / t->set[TRAIN].n * n / r->td, true);
		fprintf(f, "\"pool\": %s}", c->pool ? "true" : "false");
	}
	fputs("\n  ],\n  \"tables\": [", f);
	for (i = 0; i < t->nhist; i++) {
		struct zbewalgo_table tab;

		table_of(t, &t->hist[i], &tab);
		table_line(&tab, line, sizeof(line));
		fputs(i ? ",\n    {" : "\n    {", f);
		fputs("\"table\": ", f);
		tool_json_string(f, line);
		fputs(", \"model\": ", f);
		json_model(f, t, &t->hist[i], lz4);
		fputs("}", f);
	}
	fputs("\n  ],\n  \"thresholds\": [", f);
	for (k = 0; k < rp->nsweep; k++) {
		fputs(k ? ",\n    " : "\n    ", f);
		json_model(f, t, &rp->sweep[k], lz4);
	}
	table_line(rec->table, line, sizeof(line));
	fputs("\n  ],\n  \"recommendation\": {\"table\": ", f);
	tool_json_string(f, line);
	fprintf(f, ", \"early_abort_size\": %u, \"max_output_size\": %u, ",
		rec->params.early_abort_size, rec->params.max_output_size);
	if (rp->preset_match)
		fprintf(f, "\"preset_level\": %d, ", rp->preset_match);
	else
		fputs("\"preset_level\": null, ", f);
	fputs("\"commands\": [", f);
	write_commands(f, rp, true);
	fputs("]}\n}\n", f);
}

static void text_row(FILE *f, const struct entry *e, const struct entry *lz4)
{
	const struct meas *m = &e->m[0], *h = &e->m[1];

	fprintf(f, "%-13s ", e->name);
	if (e->kind == K_ZBW)
		fprintf(f, "%6u ", e->table->nr);
	else
		fprintf(f, "%6s ", "-");
	fprintf(f, "%7.3f ", ratio(m));
	tool_put_num(f, tool_mibps(m->orig, m->tc), "%9.1f ", "        - ");
	fprintf(f, "%6.3f ", lz4->m[0].tc / m->tc);
	tool_put_num(f, tool_mibps(m->orig, m->td), "%9.1f ", "        - ");
	fprintf(f, "%6.3f ", lz4->m[0].td / m->td);
	if (h->orig) {
		fprintf(f, "%7.3f %6.3f %6.3f ", ratio(h),
			lz4->m[1].tc / h->tc, lz4->m[1].td / h->td);
	} else {
		fprintf(f, "%7s %6s %6s ", "-", "-", "-");
	}
	fprintf(f, "%s\n", m->ok && (!h->orig || h->ok) ? "ok" : "FAILED");
}

static void write_text(FILE *f, const struct tuner *t, const struct report *rp)
{
	const struct entry *rec = &rp->ent[rp->rec], *lz4 = &rp->ent[rp->lz4];
	const struct entry *def = NULL;
	double hold_rel, samp_rel;
	char line[32768];
	size_t n = t->set[TRAIN].n;
	int k;

	for (k = 0; k < rp->nent; k++)
		if (!strcmp(rp->ent[k].name, "default"))
			def = &rp->ent[k];
	fprintf(f, "# zbewalgo tune: %zu input%s, %zu pages of %zu bytes, zram threshold %zu\n",
		rp->nsrc, rp->nsrc == 1 ? "" : "s", rp->total, t->page,
		t->threshold);
	fprintf(f, "# sample %zu pages in runs of %d, hold-out %zu other pages, screening %zu",
		n, RUN_PAGES, t->hold.n, t->set[SCREEN].n);
	if (rp->sp->unreadable)
		fprintf(f, "; %zu unreadable skipped", rp->sp->unreadable);
	fputc('\n', f);
	if (rp->sp->drop)
		fprintf(f, "# dropped %zu same-filled and %zu duplicate pages (zram stores same-filled pages\n#   as one word without compressing them)\n",
			rp->sp->same, rp->sp->dups);
	else if (rp->sp->same_kept)
		fprintf(f, "# %zu sampled pages are same-filled: zram stores those as one word without\n#   compressing them; -d leaves them out\n",
			rp->sp->same_kept);
	fprintf(f, "# budget: %s", rp->budget_kind);
	if (rp->budget_value > 0 &&
	    strcmp(rp->budget_kind, "as fast as the default table"))
		fprintf(f, " %g", rp->budget_value);
	if (isfinite(t->budget))
		fprintf(f, ", %.1f us/page in the model", t->budget * 1e6);
	if (rp->retries)
		fprintf(f, " (%d correction%s: the first choice measured slower than the model)",
			rp->retries, rp->retries > 1 ? "s" : "");
	fprintf(f, "%s\n", rp->budget_met ? "" : " -- NOT MET, see below");
	fprintf(f, "# search: %zu chains screened (up to %d steps, beam %d), %.1f s\n",
		t->screened, t->max_steps, t->beam, rp->search_s);
	fprintf(f, "\n%-13s %6s %7s %9s %6s %9s %6s %7s %6s %6s\n", "",
		"", "", "-- sample", "", "", "", "-- hold-out", "", "");
	fprintf(f, "%-13s %6s %7s %9s %6s %9s %6s %7s %6s %6s %s\n", "name",
		"chains", "ratio", "comp_MiB/s", "c/lz4", "dec_MiB/s",
		"d/lz4", "ratio", "c/lz4", "d/lz4", "roundtrip");
	for (k = 0; k < rp->nent; k++)
		text_row(f, &rp->ent[k], lz4);

	fprintf(f, "\nRecommended table (early_abort_size %u, max_output_size %u",
		rec->params.early_abort_size, rec->params.max_output_size);
	fprintf(f, "; model: %.2f tries/page, %.1f us/page):\n",
		rec->model.r.tried / n, rec->model.r.tc / n * 1e6);
	zbewalgo_table_format(rec->table, line, sizeof(line));
	for (k = 0; line[k]; k++) {
		if (!k || line[k - 1] == '\n')
			fputs("  ", f);
		fputc(line[k], f);
	}
	if (def)
		fprintf(f, "vs the default table on the sample: ratio %+.1f%%, compression speed x%.2f\n",
			100.0 * (ratio(&rec->m[0]) / ratio(&def->m[0]) - 1),
			def->m[0].tc / rec->m[0].tc);
	/*
	 * Behind the default on other pages though not (or less) on the
	 * sample: gains shrinking on a hold-out are normal, losses are not.
	 */
	hold_rel = rec->m[1].orig && def ? ratio(&rec->m[1]) /
					   ratio(&def->m[1]) : 1;
	samp_rel = def ? ratio(&rec->m[0]) / ratio(&def->m[0]) : 1;
	if (hold_rel < (samp_rel < 1 ? samp_rel : 1) * (1 - 2 * PRESET_SLACK))
		fprintf(f, "WARNING: on the hold-out pages it falls behind the default table (ratio %.3f vs %.3f)\n"
			"more than on the sample: the sample may not represent the input; try a larger --sample.\n",
			ratio(&rec->m[1]), ratio(&def->m[1]));
	fputs("\nThresholds for this table (model on the sample; * over budget):\n", f);
	fprintf(f, "  %-17s", "early_abort_size");
	for (k = 0; k < rp->nsweep && rp->sweep[k].ea == rp->sweep[0].ea; k++)
		fprintf(f, "  max_output_size %-5u", rp->sweep[k].maxout);
	fputs("\n", f);
	for (k = 0; k < rp->nsweep; k++) {
		const struct tsel *s = &rp->sweep[k];

		if (!k || s->ea != s[-1].ea)
			fprintf(f, "%s  %-17u", k ? "\n" : "", s->ea);
		fprintf(f, "  ratio %.3f %5.0fus%s", n * (double)t->page / s->r.zb,
			s->r.tc / n * 1e6, s->ok ? " " : "*");
	}
	fputc('\n', f);
	fputs("\nApply it (as root; global: every zbewalgo stream not created with an\n"
	      "algorithm_params level uses it from its next page):\n", f);
	write_commands(f, rp, false);
	if (rp->preset_match == 2) {
		fputs("The default table is as good: `echo reset > /sys/kernel/zbewalgo/combinations`\n"
		      "and no algorithm_params level are enough.\n", f);
	} else if (rp->preset_match) {
		fprintf(f, "Preset level %d is as good (6.12+ zram; before disksize is set):\n"
			"  echo zbewalgo > /sys/block/zram0/comp_algorithm\n"
			"  echo 'algo=zbewalgo level=%d' > /sys/block/zram0/algorithm_params\n"
			"(the early_abort_size and max_output_size above apply to it too)\n",
			rp->preset_match, rp->preset_match);
	}
	table_line(rec->table, line, sizeof(line));
	fprintf(f, "Check it on the whole input: zbewalgo bench -c '%s'", line);
	if (rec->params.early_abort_size != t->page / 8)
		fprintf(f, " -e %u", rec->params.early_abort_size);
	fputs(" FILE...\n", f);
}

/* ---- command line -------------------------------------------------------------- */

static void tune_usage(FILE *f)
{
	fprintf(f,
"usage: zbewalgo tune [options] [INPUT...] [--pid PID]\n"
"Recommends a combination table and thresholds for the pages of the\n"
"inputs: files, '-' (stdin), block devices (e.g. /dev/zram0, read page by\n"
"page) or the memory of a process.  Prints ratio and speed of the\n"
"recommendation, the default table, the presets, lz4 and zstd-3 on the\n"
"sample and on hold-out pages, and the sysfs commands that apply it.\n"
"  -P, --pid PID             read the process's swappable memory like gcore\n"
"                            (/proc/PID/maps and /proc/PID/mem; resident and\n"
"                            swapped-out pages only; needs ptrace access)\n"
"  -n, --sample N            pages in the sample (default 2048), taken\n"
"                            deterministically in runs of %d pages\n"
"      --holdout N           other pages for a hold-out check (default: as\n"
"                            many as the sample; 0: none)\n"
"      --screen N            sample pages the chain search screens on\n"
"                            (default 256)\n"
"  -d, --drop-same           drop same-filled pages (zram stores them as one\n"
"                            word without compressing) and repeated pages\n"
"                            (zram compresses every copy of those)\n"
"      --min-speed X         compression at least X times lz4's speed, both\n"
"                            measured on the sample in this run\n"
"      --max-us-per-page T   compression at most T microseconds per page\n"
"      --min-dspeed X        decompression at least X times lz4's\n"
"                            (default budget: as fast as the default table;\n"
"                            --min-speed 0: no limit)\n"
"  -k, --max-chains K        at most K combinations (default 6, max %d)\n"
"  -L, --max-steps N         search chains of up to N steps (default 4, max\n"
"                            %d); the chains of the default and preset\n"
"                            tables are always candidates\n"
"  -b, --beam N              chains kept per search level (default 8)\n"
"  -t, --threshold N         zram's huge-class size: results >= N bytes count\n"
"                            as a whole page (default 3264 for 4 KiB pages)\n"
"  -p, --page-size N         page size (default 4096)\n"
"  -r, --reps N              repetitions of the final measurements (median;\n"
"                            default 3)\n"
"      --json[=FILE]         results as JSON (to stdout without FILE or with -)\n"
"      --plot=FILE           PNG: ratio against compression speed of the\n"
"                            candidates, tables, default and recommendation\n"
"  -v, --verbose             progress on stderr\n"
"Times are CPU time of the tool's thread (a busy machine disturbs them less\n"
"than wall-clock time); speeds are relative to lz4 measured the same way.\n",
		RUN_PAGES, MAX_TABLE, ZBEWALGO_MAX_STEPS);
}

enum {
	OPT_HOLDOUT = 256, OPT_SCREEN, OPT_MIN_SPEED, OPT_MAX_US,
	OPT_MIN_DSPEED, OPT_JSON, OPT_PLOT,
};

static int parse_int(const char *s, double lo, double hi, size_t *out)
{
	double v;

	if (tool_parse_num(s, lo, hi, &v))
		return -1;
	if (v != (size_t)v) {
		fprintf(stderr, "zbewalgo: '%s' is not a whole number\n", s);
		return -1;
	}
	*out = v;
	return 0;
}

/* An option that takes a number: its limits and where the value goes. */
struct num_opt {
	int opt;
	double lo, hi;
	double *real;		/* any number in [lo, hi], or */
	size_t *size;		/* a whole one, or */
	int *num;		/* a whole one that fits an int */
};

/*
 * Sets option @c from @arg, looked up in @o (ended by opt 0): 0 done, -1 a
 * bad value, 1 not such an option.
 */
static int set_num_opt(const struct num_opt *o, int c, const char *arg)
{
	size_t v;

	while (o->opt && o->opt != c)
		o++;
	if (!o->opt)
		return 1;
	if (o->real)
		return tool_parse_num(arg, o->lo, o->hi, o->real);
	if (parse_int(arg, o->lo, o->hi, &v))
		return -1;
	if (o->size)
		*o->size = v;
	else
		*o->num = v;
	return 0;
}

static struct entry *add_entry(struct entry *ent, int *n, const char *name,
			       enum kind kind)
{
	struct entry *e = &ent[(*n)++];

	memset(e, 0, sizeof(*e));
	e->name = name;
	e->kind = kind;
	return e;
}

/* Steps known to the library, by stable id. */
static void find_steps(struct tuner *t)
{
	unsigned int id;

	t->nsteps = 0;
	for (id = 1; id < 256; id++)
		if (zbewalgo_step_name(id))
			t->steps[t->nsteps++] = id;
	t->huffman = zbewalgo_step_id("huffman", 7);
	t->rle = zbewalgo_step_id("rle", 3);
}

/* The screening set: evenly spread runs of the sample. */
static int make_screen(struct tuner *t, size_t want)
{
	struct pageset *tr = &t->set[TRAIN], *sc = &t->set[SCREEN];
	size_t runs = (tr->n + RUN_PAGES - 1) / RUN_PAGES;
	size_t nr = (want + RUN_PAGES - 1) / RUN_PAGES, j, p;

	if (want >= tr->n || nr >= runs) {
		t->same_sets = true;
		*sc = *tr;
		sc->cap = 0;
		return 0;
	}
	sc->data = malloc(nr * RUN_PAGES * t->page);
	if (!sc->data)
		return -1;
	sc->n = 0;
	for (j = 0; j < nr; j++) {
		size_t r = (size_t)((double)j * runs / nr);

		for (p = r * RUN_PAGES; p < (r + 1) * RUN_PAGES && p < tr->n;
		     p++)
			memcpy(sc->data + sc->n++ * t->page,
			       tr->data + p * t->page, t->page);
	}
	return 0;
}

int tune_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "pid", required_argument, NULL, 'P' },
		{ "sample", required_argument, NULL, 'n' },
		{ "holdout", required_argument, NULL, OPT_HOLDOUT },
		{ "screen", required_argument, NULL, OPT_SCREEN },
		{ "drop-same", no_argument, NULL, 'd' },
		{ "min-speed", required_argument, NULL, OPT_MIN_SPEED },
		{ "max-us-per-page", required_argument, NULL, OPT_MAX_US },
		{ "min-dspeed", required_argument, NULL, OPT_MIN_DSPEED },
		{ "max-chains", required_argument, NULL, 'k' },
		{ "max-steps", required_argument, NULL, 'L' },
		{ "beam", required_argument, NULL, 'b' },
		{ "threshold", required_argument, NULL, 't' },
		{ "page-size", required_argument, NULL, 'p' },
		{ "reps", required_argument, NULL, 'r' },
		{ "json", optional_argument, NULL, OPT_JSON },
		{ "plot", required_argument, NULL, OPT_PLOT },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct tuner tt = {
		.page = 4096, .max_table = 6, .max_steps = 4, .beam = 8,
		.reps = 3, .huffman = -1, .rle = -1,
	}, *t = &tt;
	size_t want_t = 2048, want_h = (size_t)-1, want_s = 256, i;
	double min_speed = NAN, max_us = NAN, min_dspeed = NAN;
	const char **pids = NULL;
	struct tool_output o = {
		.name = "tune", .plot_env = "ZBEWALGO_TUNE_PLOT",
		.plot_script = ZBEWALGO_TUNE_PLOT,
	};
	size_t npids = 0, cappids = 0, nsrc = 0;
	struct source *src = NULL;
	struct sampler sp = { 0 };
	struct entry ent[8];
	struct report rp = { 0 };
	struct tsel best = { 0 }, start, res, sweep[NR_EAS * 3];
	const struct zbewalgo_table *seeds[3];
	int c, ret = 2, nent = 0, k, e, retry;
	double t_search;
	const struct num_opt nums[] = {
		{ 'n', 1, 1 << 24, .size = &want_t },
		{ OPT_HOLDOUT, 0, 1 << 24, .size = &want_h },
		{ OPT_SCREEN, 1, 1 << 24, .size = &want_s },
		{ OPT_MIN_SPEED, 0, 1e6, .real = &min_speed },
		{ OPT_MAX_US, 1e-3, 1e12, .real = &max_us },
		{ OPT_MIN_DSPEED, 0, 1e6, .real = &min_dspeed },
		{ 'k', 1, MAX_TABLE, .num = &t->max_table },
		{ 'L', 1, ZBEWALGO_MAX_STEPS, .num = &t->max_steps },
		{ 'b', 1, 256, .num = &t->beam },
		{ 't', 1, ZBEWALGO_MAX_INPUT, .size = &t->threshold },
		{ 'p', 64, ZBEWALGO_MAX_INPUT, .size = &t->page },
		{ 'r', 1, 1001, .num = &t->reps },
		{ }
	};

	memset(ent, 0, sizeof(ent));
	optind = 1;
	while ((c = getopt_long(argc, argv, "P:n:dk:L:b:t:p:r:vh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'P': {
			const char **np;
			char *end;

			errno = 0;
			if (strtol(optarg, &end, 10) <= 0 || *end || errno) {
				fprintf(stderr, "zbewalgo: bad pid '%s'\n",
					optarg);
				goto out;
			}
			np = xgrow(pids, &cappids, npids + 1, sizeof(*np));
			if (!np)
				goto out;
			pids = np;
			pids[npids++] = optarg;
			break;
		}
		case 'd':
			sp.drop = true;
			break;
		case OPT_JSON:
			o.json = true;
			o.json_path = tool_out_path(optarg);
			break;
		case OPT_PLOT:
			o.plot_path = optarg;
			break;
		case 'v':
			t->verbose = true;
			break;
		case 'h':
			tune_usage(stdout);
			ret = 0;
			goto out;
		default:
			k = set_num_opt(nums, c, optarg);
			if (k < 0)
				goto out;
			if (k > 0) {
				tune_usage(stderr);
				goto out;
			}
			break;
		}
	}
	if (optind >= argc && !npids) {
		fprintf(stderr, "zbewalgo: tune: no input (files, devices or --pid)\n");
		tune_usage(stderr);
		goto out;
	}
	if (tool_plot_ready(&o))
		goto out;
	if (isfinite(min_speed) && isfinite(max_us)) {
		fprintf(stderr, "zbewalgo: --min-speed and --max-us-per-page exclude each other\n");
		goto out;
	}
	if (!t->threshold)
		t->threshold = t->page - t->page * 13 / 64;
	if (t->threshold > t->page) {
		fprintf(stderr, "zbewalgo: the threshold must not exceed the page size\n");
		goto out;
	}
	if (want_h == (size_t)-1)
		want_h = want_t;
	ret = 1;

	/* inputs */
	src = calloc(argc - optind + npids + 1, sizeof(*src));
	sp.start = calloc(argc - optind + npids + 1, sizeof(*sp.start));
	if (!src || !sp.start)
		goto out;
	for (k = optind; k < argc; k++) {
		if (open_path(&src[nsrc], argv[k], t->page))
			goto out;
		nsrc++;
	}
	for (i = 0; i < npids; i++) {
		if (open_pid(&src[nsrc], pids[i], t->page))
			goto out;
		nsrc++;
	}
	for (i = 0; i < nsrc; i++) {
		sp.start[i] = sp.total;
		sp.total += src[i].npages;
	}
	sp.src = src;
	sp.nsrc = nsrc;
	sp.page = t->page;
	if (t->verbose)
		fprintf(stderr, "tune: %zu pages in %zu inputs\n", sp.total,
			nsrc);
	if (sample_pages(&sp, want_t, want_h, &t->set[TRAIN], &t->hold)) {
		fprintf(stderr, "zbewalgo: out of memory\n");
		goto out;
	}
	if (!t->set[TRAIN].n) {
		fprintf(stderr, "zbewalgo: no pages to tune on (%zu pages, %zu same-filled and %zu duplicates dropped, %zu unreadable)\n",
			sp.total, sp.same, sp.dups, sp.unreadable);
		goto out;
	}
	if (make_screen(t, want_s))
		goto out;

	/* the engine's working memory */
	t->stored_size = 1 + (t->page < 128 ? 1 : t->page < 16384 ? 2 : 3) +
			 t->page;
	t->ctx = zbewalgo_ctx_create(t->page);
	t->one = calloc(1, sizeof(*t->one));
	t->dst = malloc(ZBEWALGO_STORED_SIZE(t->page) + 64);
	t->out = malloc(t->page);
	t->dctx = zbewalgo_ctx_create(t->page);
	if (!t->ctx || !t->one || !t->dst || !t->out || !t->dctx)
		goto out;
	find_steps(t);
	{
		struct zbewalgo_params dp;

		zbewalgo_default_params(&dp, t->page);
		t->tol = dp.tolerance_shift;
	}
	{
		double t0;
		size_t n = t->set[TRAIN].n;

		t->tick = cpu_now_cost();
		t0 = cpu_now();

		for (i = 0; i < n; i++)
			memcpy(t->out, t->set[TRAIN].data + i * t->page,
			       t->page);
		t->tcopy = (cpu_now() - t0) / n;
	}

	/* references: lz4 sets the scale of every speed */
	{
		struct entry *e1 = add_entry(ent, &nent, "lz4", K_LZ4);

		rp.lz4 = nent - 1;
		if (measure(t, &t->set[TRAIN], e1, &e1->m[0]))
			goto out;
	}
	seeds[0] = zbewalgo_table_default();
	seeds[1] = zbewalgo_preset_table(1);
	seeds[2] = zbewalgo_preset_table(3);
	t->budget = INFINITY;
	t->dbudget = INFINITY;
	if (isfinite(min_dspeed) && min_dspeed > 0)
		t->dbudget = ent[rp.lz4].m[0].td / t->set[TRAIN].n /
			     min_dspeed;
	t_search = tool_now();
	/*
	 * The default budget is the default table's own replayed time on
	 * the sample, so the comparison with it is model against model.
	 */
	for (retry = 0; retry < 3; retry++) {
		struct zbewalgo_params dp;
		double want_tc, cap;
		bool explicit;

		zbewalgo_default_params(&dp, t->page);
		if (isfinite(max_us)) {
			rp.budget_kind = "compression time per page";
			rp.budget_value = max_us;
			t->budget = max_us * 1e-6;
		} else if (isfinite(min_speed) && min_speed > 0) {
			rp.budget_kind = "compression speed relative to lz4";
			rp.budget_value = min_speed;
			t->budget = ent[rp.lz4].m[0].tc / t->set[TRAIN].n /
				    min_speed;
		} else if (isfinite(min_speed)) {
			rp.budget_kind = "none";
			rp.budget_value = 0;
			t->budget = INFINITY;
		} else {
			struct tsel d;

			if (replay_seed(t, seeds[0], &d))
				goto out;
			rp.budget_kind = "as fast as the default table";
			rp.budget_value = 1;
			t->budget = d.r.tc / t->set[TRAIN].n;
		}
		/*
		 * An explicit budget is checked against the measurement
		 * below; when the model was too optimistic, its times are
		 * scaled by what the measurement showed and tables chosen
		 * again.
		 */
		explicit = isfinite(t->budget) && rp.budget_value > 0 &&
			   strcmp(rp.budget_kind, "as fast as the default table");
		want_tc = t->budget;
		if (retry)
			t->budget *= rp.model_vs_real;
		if (!retry) {
			/* seeds on the screening set, then the search */
			for (k = 0; k < 3; k++) {
				struct tsel d;

				if (tsel_of(t, seeds[k], SCREEN, &d))
					goto out;
			}
			if (beam_search(t) || pick_pool(t, seeds, 3))
				goto out;
		}
		t->nhist = 0;
		/* the default first: it wins ties */
		t->eas[0] = dp.early_abort_size;
		t->eas[1] = 0;
		t->eas[2] = t->page / 16;
		t->eas[3] = t->page * 3 / 16;
		t->eas[4] = t->page / 4;
		t->eas[5] = t->page * 3 / 8;
		memset(&best, 0, sizeof(best));
		/*
		 * Never worse than the default table on the sample when that
		 * is within the budget: greedy from the default start only
		 * adds bytes by pruning, which respects the cap.
		 */
		{
			struct tsel d;

			if (replay_seed(t, seeds[0], &d))
				goto out;
			cap = d.ok && d.n <= t->max_table ? d.r.zb : INFINITY;
		}
		for (e = 0; e < NR_EAS; e++) {
			for (k = 0; k < 3; k++) {
				if (tsel_of(t, k == 2 ? seeds[1] : seeds[0],
					    TRAIN, &start))
					goto out;
				if (k == 0)
					start.n = 0;
				if (start.n > t->max_table)
					continue;
				start.ea = t->eas[e];
				start.maxout = t->threshold;
				if (start.n) {
					run_sim(t, &start);
					if (!start.ok)
						continue;
				}
				greedy(t, &start, cap, &res);
				if (res.n && res.ok && res.r.zb <= cap &&
				    better(&res, &best))
					best = res;
			}
		}
		rp.budget_met = best.n;
		if (!best.n) {
			/* nothing fits: the fastest single chain */
			for (i = 0; i < t->ncands; i++) {
				struct tsel s = { .n = 1, .idx = { i },
						  .ea = t->eas[0],
						  .maxout = t->threshold };

				if (!t->cands[i].pool)
					continue;
				run_sim(t, &s);
				if (!best.n || s.r.tc < best.r.tc)
					best = s;
			}
		}
		/* thresholds of the chosen table */
		rp.nsweep = 0;
		for (e = 0; e < NR_EAS; e++) {
			uint32_t mo[3] = { t->threshold, t->page * 5 / 8,
					   t->page / 2 };
			int m;

			for (m = 0; m < 3; m++) {
				struct tsel s = best;

				if (m && mo[m] >= t->threshold)
					continue;
				s.ea = t->eas[e];
				s.maxout = mo[m];
				run_sim(t, &s);
				sweep[rp.nsweep++] = s;
				if (s.ok && s.r.zb <= cap && better(&s, &best))
					best = s;
			}
		}
		/*
		 * Keep the defaults unless the search gained something: 0.1%
		 * of the bytes or a tenth of the time.
		 */
		{
			struct tsel d;

			if (replay_seed(t, seeds[0], &d))
				goto out;
			if (d.ok && d.n <= t->max_table &&
			    best.r.zb > d.r.zb * (1 - MIN_GAIN) &&
			    best.r.tc > d.r.tc * 0.9)
				best = d;
		}
		rp.search_s = tool_now() - t_search;

		/* real measurements */
		for (k = 1; k < nent; k++)
			free(ent[k].table);
		nent = 1;
		{
			struct entry *r = add_entry(ent, &nent, "recommended",
						    K_ZBW);

			rp.rec = nent - 1;
			r->table = calloc(1, sizeof(*r->table));
			if (!r->table)
				goto out;
			table_of(t, &best, r->table);
			zbewalgo_default_params(&r->params, t->page);
			r->params.early_abort_size = best.ea;
			r->params.max_output_size = best.maxout;
			r->model = best;
			r->have_model = true;
		}
		for (k = 0; k < 3; k++) {
			static const char *const names[] = {
				"default", "level=1", "level=3"
			};
			struct entry *d = add_entry(ent, &nent, names[k],
						    K_ZBW);

			d->table = malloc(sizeof(*d->table));
			if (!d->table)
				goto out;
			*d->table = *seeds[k];
			d->level = k == 0 ? 2 : k == 1 ? 1 : 3;
			zbewalgo_default_params(&d->params, t->page);
			d->params.max_output_size = t->threshold;
			d->have_model = !replay_seed(t, seeds[k], &d->model);
		}
		add_entry(ent, &nent, "zstd-3", K_ZSTD);
		for (k = 1; k < nent; k++) {
			if (t->verbose)
				fprintf(stderr, "tune: measuring %s\n",
					ent[k].name);
			if (measure(t, &t->set[TRAIN], &ent[k], &ent[k].m[0]))
				goto out;
		}
		/* compare the replay with the engine: sizes must agree */
		{
			struct entry *r = &ent[rp.rec];

			if (fabs(r->m[0].zram - best.r.zb) > 0.5)
				fprintf(stderr, "zbewalgo: warning: the replay predicted %.0f bytes, the engine gave %.0f\n",
					best.r.zb, r->m[0].zram);
			rp.model_vs_real = best.r.tc / r->m[0].tc;
		}
		if (!explicit || ent[rp.rec].m[0].tc / t->set[TRAIN].n <=
				 want_tc * 1.03)
			break;
		/* the model was too optimistic: scale it and choose again */
		rp.retries++;
		if (t->verbose)
			fprintf(stderr, "tune: measured speed below the budget; model/real %.2f, retrying\n",
				rp.model_vs_real);
	}
	if (retry == 3)
		rp.budget_met = false;
	if (!ent[rp.rec].m[0].ok) {
		fprintf(stderr, "zbewalgo: the recommended table failed its round trip\n");
		goto out;
	}
	/* hold-out check */
	for (k = 0; k < nent && t->hold.n; k++)
		if (measure(t, &t->hold, &ent[k], &ent[k].m[1]))
			goto out;
	/* a preset that is as good (within the slack, and the budget) */
	for (k = 0; k < nent; k++) {
		const struct entry *d = &ent[k];

		if (!d->level || !d->have_model || !d->model.ok)
			continue;
		if (d->model.r.zb <= best.r.zb * (1 + PRESET_SLACK) &&
		    (!rp.preset_match || d->level == 2))
			rp.preset_match = d->level;
	}
	rp.t = t;
	rp.src = src;
	rp.nsrc = nsrc;
	rp.total = sp.total;
	rp.sp = &sp;
	rp.ent = ent;
	rp.nent = nent;
	rp.sweep = sweep;

	ret = 0;
	if (!o.json || o.json_path)
		write_text(stdout, t, &rp);
	if (tool_write_json(&o, write_json, &rp))
		ret = 1;
	if (fflush(stdout) || ferror(stdout))
		ret = 1;
out:
	for (k = 0; k < nent; k++)
		free(ent[k].table);
	for (i = 0; i < t->ncands; i++)
		for (k = 0; k < 2; k++) {
			free(t->cands[i].r[k].size);
			free(t->cands[i].r[k].ct);
			free(t->cands[i].r[k].dt);
		}
	free(t->cands);
	free(t->hist);
	if (!t->same_sets) {
		free(t->set[SCREEN].data);
		free(t->set[SCREEN].prestored);
		free(t->set[SCREEN].precost);
		free(t->set[SCREEN].cls);
	}
	free(t->set[TRAIN].prestored);
	free(t->set[TRAIN].precost);
	free(t->set[TRAIN].cls);
	free(t->set[TRAIN].data);
	free(t->hold.data);
	zbewalgo_ctx_destroy(t->ctx);
	free(t->one);
	free(t->dst);
	free(t->out);
	zbewalgo_ctx_destroy(t->dctx);
	for (i = 0; i < nsrc; i++) {
		if (src[i].fd >= 0)
			close(src[i].fd);
		free(src[i].data);
		free(src[i].ext);
	}
	free(src);
	free(sp.start);
	free(sp.slot);
	free(pids);
	return ret;
}
