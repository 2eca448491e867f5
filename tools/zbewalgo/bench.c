// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo bench - page-wise comparison with the compressors zram offers
 *
 * Every input is cut into independent pages exactly as zram sees them (the
 * last page zero-padded), optionally without same-filled and duplicate
 * pages, and every algorithm compresses every page on its own.  Times are
 * the median of several repetitions, the algorithms taking turns; every
 * repetition's round trip is verified against the input.  The user's guide, with the definitions of
 * all figures, is tools/testing/zbewalgo/bench/README.md.
 *
 * What one compression repetition does per page is what zram's write path
 * does: compress into a scratch buffer, then copy the result (or, when it
 * is not below the huge-class threshold, the original page) into the
 * store.  Decompression is zram's read path: decompress stored results,
 * memcpy pages that were stored as they are.
 */
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#ifndef ZBEWALGO_BENCH_PLOT
#define ZBEWALGO_BENCH_PLOT "tools/zbewalgo/bench-plot.py"
#endif

/* ---- pages as zram sees them ------------------------------------------- */

/*
 * Cuts @len bytes into pages, the last one zero-padded.  With @drop,
 * same-filled pages (zram stores them as one word, without compressing)
 * and repeats of an earlier page of the same input are left out, as the
 * seed report did before measuring.
 */
static int make_pages(const unsigned char *in, size_t len, size_t page,
		      bool drop, struct pageset *ps)
{
	size_t n = (len + page - 1) / page, i, k, slots = 1, *slot = NULL;

	memset(ps, 0, sizeof(*ps));
	ps->data = calloc(n ? n : 1, page);
	if (!ps->data)
		return -1;
	if (drop) {
		while (slots < 2 * n)
			slots <<= 1;
		slot = malloc(slots * sizeof(*slot));
		if (!slot)
			return -1;
		for (i = 0; i < slots; i++)
			slot[i] = SIZE_MAX;
	}
	for (i = 0; i < n; i++) {
		unsigned char *dst = ps->data + ps->npages * page;

		memcpy(dst, in + i * page,
		       len - i * page < page ? len - i * page : page);
		if (drop && tool_same_filled(dst, page)) {
			ps->same++;
			memset(dst, 0, page);
			continue;
		}
		if (drop) {
			k = tool_page_hash(dst, page) & (slots - 1);
			while (slot[k] != SIZE_MAX &&
			       memcmp(ps->data + slot[k] * page, dst, page))
				k = (k + 1) & (slots - 1);
			if (slot[k] != SIZE_MAX) {
				ps->dups++;
				memset(dst, 0, page);
				continue;
			}
			slot[k] = ps->npages;
		}
		ps->npages++;
	}
	free(slot);
	return 0;
}

/* Reads file @path ("-": stdin) into @ps as make_pages() cuts it. */
int bench_load_pages(const char *path, size_t page, bool drop,
		     struct pageset *ps)
{
	unsigned char *data;
	struct stat st;
	size_t len;
	FILE *in = tool_open_in(path, &st);
	int err;

	memset(ps, 0, sizeof(*ps));
	if (!in)
		return -1;
	err = tool_read_named(in, tool_name(path), &data, &len);
	if (in != stdin)
		fclose(in);
	if (err)
		return -1;
	if (make_pages(data, len, page, drop, ps)) {
		fprintf(stderr, "zbewalgo: out of memory\n");
		free(data);
		free(ps->data);
		return -1;
	}
	free(data);
	return 0;
}

/* ---- measuring ------------------------------------------------------------ */

/*
 * One algorithm's measurement of one file: its buffers, then its times,
 * repetition by repetition.  measure_algos() runs the repetitions of all
 * algorithms in turn, so that the machine's load at any moment falls on
 * every algorithm alike, not on all repetitions of one.
 */
struct meas {
	unsigned char *store, *tmp;
	size_t *clen, *csz, *off;
	double *tc, *td, *tdc, *tdr;
	bool ready;
};

static void meas_free(struct algo *a, struct meas *m)
{
	void *bufs[] = { m->tc, m->off, m->csz, m->clen, m->tmp, m->store };
	size_t i;

	if (m->ready && a->fini)
		a->fini(a);
	for (i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
		free(bufs[i]);
	memset(m, 0, sizeof(*m));
}

/* The buffers and state of algorithm @a for the pages @ps: -1 on failure */
static int meas_start(struct algo *a, const struct pageset *ps, size_t page,
		      int reps, struct result *res, struct meas *m)
{
	size_t n = ps->npages;

	memset(m, 0, sizeof(*m));
	res->roundtrip_ok = true;
	res->sizes = NULL;
	res->worse = NAN;
	res->tried = bench_is_zbewalgo(a) ? 0 : NAN;
	m->store = malloc(n * page + 1);
	m->tmp = malloc(bench_cap(page));
	m->clen = calloc(n + 1, sizeof(*m->clen));
	m->csz = calloc(n + 1, sizeof(*m->csz));
	m->off = calloc(n + 1, sizeof(*m->off));
	m->tc = calloc(reps, sizeof(double) * 4);
	if (!m->store || !m->tmp || !m->clen || !m->csz || !m->off || !m->tc)
		return -1;
	m->td = m->tc + reps;
	m->tdc = m->td + reps;
	m->tdr = m->tdc + reps;
	/* fini() undoes what a failed init() did too */
	m->ready = true;
	return a->init && a->init(a, page) ? -1 : 0;
}

/*
 * Decompresses the @n pages that @m stores compressed into @out, as
 * algorithm @a: whether each came out a whole page
 */
static bool meas_decode(struct algo *a, size_t n, size_t page,
			const struct meas *m, unsigned char *out)
{
	bool ok = true;
	size_t i;

	for (i = 0; i < n; i++)
		if (m->clen[i] &&
		    a->decomp(a, m->store + m->off[i], m->clen[i],
			      out + i * page, page) != page)
			ok = false;
	return ok;
}

/*
 * Algorithm @a once over the pages, untimed, right before a timed
 * repetition, so that it is timed after itself, with its code, tables
 * and branch history warm.  Timed after the others in turn, zram-zstd-3
 * followed zstd-1, zstd-3 and zram-zstd-1, the same decoder on the same
 * pages: this pass narrows what that is worth, measure_algos()'s moving
 * start does the rest.  @decomp: the decompression pass (after the
 * compression repetitions) into @out, else the compression pass.
 */
static void meas_warm(struct algo *a, const struct pageset *ps, size_t page,
		      struct meas *m, bool decomp, unsigned char *out)
{
	size_t i;

	if (a->raw_only)
		return;
	if (decomp) {
		meas_decode(a, ps->npages, page, m, out);
		return;
	}
	for (i = 0; i < ps->npages; i++)
		a->comp(a, ps->data + i * page, page, m->tmp, bench_cap(page));
}

/* Compression repetition @r of algorithm @a: zram's write path */
static void meas_comp(struct algo *a, const struct pageset *ps, size_t page,
		      int r, struct result *res, struct meas *m)
{
	size_t n = ps->npages, cap = bench_cap(page), i, pos;
	double t0;

	meas_warm(a, ps, page, m, false, NULL);
	t0 = tool_now();

	for (i = 0, pos = 0; i < n; i++) {
		const unsigned char *src = ps->data + i * page;
		size_t c = a->raw_only ? page :
			   a->comp(a, src, page, m->tmp, cap);

		/* the engine's choice is the same in every rep */
		if (!r && bench_is_zbewalgo(a))
			res->tried += zbewalgo_ctx_last_result(a->cstate)->tried;
		m->off[i] = pos;
		m->csz[i] = c ? c : page;
		m->clen[i] = tool_zram_store(m->store, &pos, src, m->tmp,
					     a->raw_only ? 0 : c, page,
					     res->threshold);
	}
	m->tc[r] = tool_now() - t0;
}

/*
 * Decompression repetition @r of algorithm @a, into @out (the pages' room,
 * which all algorithms share): zram's read path
 */
static void meas_decomp(struct algo *a, const struct pageset *ps,
			size_t page, int r, struct result *res,
			struct meas *m, unsigned char *out)
{
	size_t n = ps->npages, i;
	double t0, t1;

	meas_warm(a, ps, page, m, true, out);
	/* Poison the output so a decoder that writes nothing fails. */
	memset(out, r & 1 ? 0x00 : 0xff, n * page);
	t0 = tool_now();
	if (!meas_decode(a, n, page, m, out))
		res->roundtrip_ok = false;
	t1 = tool_now();
	for (i = 0; i < n; i++)
		if (!m->clen[i])
			memcpy(out + i * page, m->store + m->off[i], page);
	m->tdr[r] = tool_now() - t1;
	m->tdc[r] = t1 - t0;
	m->td[r] = m->tdc[r] + m->tdr[r];
	if (memcmp(out, ps->data, n * page))
		res->roundtrip_ok = false;
}

/* The sizes and median times of algorithm @a, into @res */
static void meas_end(const struct pageset *ps, size_t page, int reps,
		     struct result *res, struct meas *m)
{
	size_t n = ps->npages, i;

	res->orig = (double)n * page;
	res->zram = res->plain = res->comp = 0;
	res->raw_pages = 0;
	for (i = 0; i < n; i++) {
		res->plain += m->csz[i];
		res->zram += m->clen[i] ? m->clen[i] : page;
		res->comp += m->clen[i];
		res->raw_pages += !m->clen[i];
		/* the compressed lengths become the bytes in zram */
		m->clen[i] = m->clen[i] ? m->clen[i] : page;
	}
	res->sizes = m->clen;
	m->clen = NULL;
	res->tc = tool_median(m->tc, reps);
	res->td = tool_median(m->td, reps);
	res->tdc = tool_median(m->tdc, reps);
	res->tdr = tool_median(m->tdr, reps);
}

/*
 * The seed report's effective speed (its "⊙" columns, section 4).
 * Assumptions, per input file: zram's disksize holds all of it; its
 * mem_limit is exactly what the algorithm with the best ratio (highest
 * ratio_zram in this run) needs for its compressed pages, s_cmin; every
 * page stored as it is (incompressible) goes to the backing device; when
 * an algorithm's compressed pages exceed the limit, the overflow goes to
 * the backing device too, uncompressed.  With
 *   s_o  original bytes,            s_u  bytes of incompressible pages,
 *   s_c  compressed bytes of the other pages,   r = (s_o - s_u) / s_c,
 *   t_c  compression time,          t_dc decompression time of the
 *                                        compressed pages,
 *   W, R backing device write and read speed (--backing-mibps,
 *        --backing-read-mibps; the seed's HDD: 134.7 and 156.62 MiB/s):
 *   backing = s_u + max(0, s_c - s_cmin) * r             (seed's formula)
 *   eff_compress   = s_o / (t_c + backing / W)           (seed's formula)
 *   eff_decompress = s_o / (t_dc * min(1, s_cmin / s_c) + backing / R)
 * The read side is the seed's by analogy: pages in memory are decompressed,
 * the rest are read from the device (the seed's numbers, e.g. 156.62 MiB/s
 * for random data, fit this).
 */
static void effective_speeds(struct result *res, size_t nr, double wmibps,
			     double rmibps)
{
	size_t i, best = 0;
	double s_cmin;

	for (i = 1; i < nr; i++)
		if (res[i].orig / res[i].zram > res[best].orig / res[best].zram)
			best = i;
	s_cmin = res[best].comp;
	for (i = 0; i < nr; i++) {
		struct result *x = &res[i];
		double s_u = (double)x->raw_pages * x->page;
		double r = x->comp ? (x->orig - s_u) / x->comp : 0;
		double over = x->comp > s_cmin ? x->comp - s_cmin : 0;
		double in_mem = x->comp > s_cmin ? s_cmin / x->comp : 1;

		x->backing = s_u + over * r;
		x->wmibps = wmibps;
		x->rmibps = rmibps;
		x->eff_c = x->orig / MIB /
			   (x->tc + x->backing / MIB / wmibps);
		x->eff_d = x->orig / MIB /
			   (x->tdc * in_mem + x->backing / MIB / rmibps);
	}
}

/*
 * The per-page sizes of the records @fr of one file: every zbewalgo's
 * pages over zstd-3's, when zstd-3 ran; then they are freed.
 */
static void compare_pages(struct result *fr, size_t n)
{
	const struct result *zstd = NULL;
	size_t i, k;

	for (i = 0; i < n; i++)
		if (!strcmp(fr[i].algo->name, "zstd-3"))
			zstd = &fr[i];
	for (i = 0; zstd && i < n; i++) {
		if (strncmp(fr[i].algo->name, "zbewalgo", 8) ||
		    !fr[i].sizes || !zstd->sizes)
			continue;
		fr[i].worse = 0;
		for (k = 0; k < fr[i].pages; k++)
			fr[i].worse += fr[i].sizes[k] > zstd->sizes[k] + ZSTD_SLACK;
	}
	for (i = 0; i < n; i++) {
		free(fr[i].sizes);
		fr[i].sizes = NULL;
	}
}

/* ---- command line ---------------------------------------------------------- */

static void bench_usage(FILE *f)
{
	size_t i;

	fprintf(f,
"usage: zbewalgo bench [options] FILE...      ('-' reads stdin)\n"
"  -a, --algorithms LIST     comma-separated subset of:\n"
"                           ");
	for (i = 0; i < BENCH_NR_TEMPLATES; i++)
		fprintf(f, " %s", bench_templates[i].name);
	fprintf(f, "\n"
"                            (default: all but zbewalgo-2 when it equals\n"
"                            the default table, zbewalgo-custom only with -c,\n"
"                            zstd-8 only when named, +dict only with --dict)\n"
"  -c, --combinations TABLE  zbewalgo table for zbewalgo-custom\n"
"      --dict FILE           a dictionary as zram's dict= takes it; adds\n"
"                            zstd-1+dict, zstd-3+dict and zstd-8+dict, as\n"
"                            zram's zstd backend compresses with it, and\n"
"                            zbewalgo+dict, zbewalgo-1+dict, zbewalgo-3+dict\n"
"  -e, --early-abort N       early_abort_size of zbewalgo-custom (default:\n"
"                            an eighth of the page, as for the others)\n"
"  -d, --drop-same           drop same-filled pages (zram stores them\n"
"                            without compressing) and repeated pages (zram\n"
"                            compresses every copy: ratios differ from it)\n"
"  -r, --reps N              repetitions per measurement (median; default 5)\n"
"  -t, --threshold N         zram's huge-class size: results >= N bytes are\n"
"                            stored as whole pages (default zsmalloc's since\n"
"                            Linux 6.3, 3625 for 4 KiB pages; 3264 before)\n"
"  -p, --page-size N         page size (default 4096)\n"
"      --backing-mibps W     backing device write speed for the effective\n"
"                            speeds (default 134.7, the seed's HDD)\n"
"      --backing-read-mibps R  its read speed (default 156.62)\n"
"      --csv[=FILE]          CSV records (to stdout without FILE or with -)\n"
"      --json[=FILE]         JSON array of records (stdout: no FILE or -)\n"
"      --plot=FILE           PNG: ratio against compression speed\n"
"  -v, --verbose             progress on stderr\n"
"      --recompress[=LIST]   the recompress view instead: the pages each\n"
"                            primary in LIST (default lz4,zstd-3) stores\n"
"                            whole, and what each zbewalgo variant of -a\n"
"                            (default zbewalgo,zbewalgo-1,zbewalgo-3) makes\n"
"                            of them as zram's secondary algorithm\n"
"      --recompress-threshold N  also try pages the primary stores in N\n"
"                            bytes or more (zram's threshold=N)\n"
"Without --csv/--json to stdout, a table goes to stdout.\n"
"Figures are defined in tools/testing/zbewalgo/bench/README.md.\n");
}

enum {
	OPT_BACKING = 256, OPT_BACKING_READ, OPT_CSV, OPT_RECOMP, OPT_DICT,
	OPT_RECOMP_THR,
};

/*
 * --dict FILE: a dictionary as zram's dict= takes it (zstd --train or
 * zbewalgo train-dict), for the zstd-N+dict and zbewalgo+dict algorithms;
 * read once the page size is known, and refused unless the library
 * takes it (as compress -D does).
 */
static int bench_read_dict(const char *path, size_t page)
{
	unsigned char *data;
	size_t len;

	if (tool_read_dict(path, page, &data, &len))
		return -1;
	free((void *)bench_dict);
	bench_dict = data;
	bench_dict_len = len;
	return 0;
}

/*
 * The options that take a number: 0 done, -1 a bad value (reported), 1
 * not such an option.
 */
static int bench_num_opt(struct bench_args *a, int c, const char *arg)
{
	double v;

	switch (c) {
	case 'e':
		if (tool_parse_num(arg, 0,
				   ZBEWALGO_STORED_SIZE(ZBEWALGO_MAX_INPUT),
				   &v) || v != (long)v)
			return -1;
		a->early_abort = v;
		return 0;
	case 'r':
		if (tool_parse_num(arg, 1, 1001, &v) || v != (int)v) {
			fprintf(stderr, "zbewalgo: reps must be 1..1001\n");
			return -1;
		}
		a->reps = v;
		return 0;
	case 't':
		if (tool_parse_num(arg, 1, 1 << 20, &v))
			return -1;
		a->threshold = v;
		return 0;
	case 'p':
		if (tool_parse_num(arg, 1, ZBEWALGO_MAX_INPUT, &v) ||
		    v != (size_t)v) {
			fprintf(stderr, "zbewalgo: bad page size\n");
			return -1;
		}
		a->page = v;
		return 0;
	case OPT_BACKING:
	case OPT_BACKING_READ:
		if (tool_parse_num(arg, 1e-6, 1e12, &v))
			return -1;
		*(c == OPT_BACKING ? &a->wmibps : &a->rmibps) = v;
		return 0;
	case OPT_RECOMP_THR:
		if (tool_parse_num(arg, 1, 1 << 20, &v) || v != (size_t)v)
			return -1;
		a->rthr = v;
		return 0;
	}
	return 1;
}

/* What no single option tells: files, one stdout, the threshold. */
static int check_args(struct bench_args *a)
{
	if (!a->nfiles) {
		bench_usage(stderr);
		return -1;
	}
	if (tool_plot_ready(&a->o))
		return -1;
	if ((a->csv && !a->csv_path) + (a->o.json && !a->o.json_path) > 1) {
		fprintf(stderr, "zbewalgo: only one of --csv and --json can use stdout\n");
		return -1;
	}
	return tool_threshold(&a->threshold, a->page);
}

/*
 * The command line into @a: 0 to go on, 1 when -h printed the usage, -1
 * after a message about a bad option.
 */
static int bench_parse(int argc, char **argv, struct bench_args *a)
{
	static const struct option longopts[] = {
		{ "algorithms", required_argument, NULL, 'a' },
		{ "combinations", required_argument, NULL, 'c' },
		{ "early-abort", required_argument, NULL, 'e' },
		{ "drop-same", no_argument, NULL, 'd' },
		{ "reps", required_argument, NULL, 'r' },
		{ "threshold", required_argument, NULL, 't' },
		{ "page-size", required_argument, NULL, 'p' },
		{ "backing-mibps", required_argument, NULL, OPT_BACKING },
		{ "backing-read-mibps", required_argument, NULL,
		  OPT_BACKING_READ },
		{ "csv", optional_argument, NULL, OPT_CSV },
		TOOL_OUTPUT_LONGOPTS,
		{ "recompress", optional_argument, NULL, OPT_RECOMP },
		{ "dict", required_argument, NULL, OPT_DICT },
		{ "recompress-threshold", required_argument, NULL,
		  OPT_RECOMP_THR },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int c, k;

	optind = 1;
	while ((c = getopt_long(argc, argv, "a:c:e:dr:t:p:vh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'a':
			a->alist = optarg;
			break;
		case 'c':
			free(a->table);
			a->table = calloc(1, sizeof(*a->table));
			if (!a->table ||
			    zbewalgo_table_parse(a->table, optarg)) {
				fprintf(stderr, "zbewalgo: bad combination table '%s'\n",
					optarg);
				return -1;
			}
			break;
		case 'd':
			a->drop = true;
			break;
		case OPT_CSV:
			a->csv = true;	/* no FILE or '-': stdout */
			a->csv_path = tool_out_path(optarg);
			break;
		case OPT_RECOMP:
			a->recomp = optarg ? optarg : "lz4,zstd-3";
			break;
		case OPT_DICT:
			a->dict_path = optarg;
			break;
		case 'v':
			a->verbose = true;
			break;
		case 'h':
			bench_usage(stdout);
			return 1;
		default:
			k = bench_num_opt(a, c, optarg);
			if (k < 0)
				return -1;
			if (k > 0 && !tool_output_opt(&a->o, c, optarg)) {
				bench_usage(stderr);
				return -1;
			}
			break;
		}
	}
	a->files = argv + optind;
	a->nfiles = argc - optind;
	return check_args(a);
}

/* Whether template @t is in this run: in -a's list, or by default. */
static bool wanted(const struct bench_args *a, const struct algo *t)
{
	const char *p = a->alist;
	bool want = false;

	if (t->uses_dict && !bench_dict)
		return false;
	if (!p) {
		if (t->opt_in)
			return false;
		if (bench_is_zbewalgo(t) && t->level == -1)
			return a->table;
		if (bench_is_zbewalgo(t) && t->level == 2)
			return memcmp(zbewalgo_preset_table(2),
				      zbewalgo_table_default(),
				      sizeof(struct zbewalgo_table));
		return true;
	}
	while (*p) {
		size_t len = strcspn(p, ",");

		if (len == strlen(t->name) && !strncmp(p, t->name, len))
			want = true;
		p += len + !!p[len];
	}
	return want;
}

/* Every name in -a's list @p must be an algorithm's. */
static int check_alist(const char *p)
{
	while (*p) {
		size_t len = strcspn(p, ",");

		if (!bench_find_template(p, len)) {
			fprintf(stderr, "zbewalgo: unknown algorithm '%.*s'\n",
				(int)len, p);
			return -1;
		}
		p += len + !!p[len];
	}
	return 0;
}

/* The algorithms of this run, in table order, set up for its pages. */
static int select_algos(const struct bench_args *a, struct bench_algos *al)
{
	size_t i;

	for (i = 0; i < BENCH_NR_TEMPLATES; i++) {
		const struct algo *t = &bench_templates[i];
		struct algo *x = &al->algos[al->nalgos];

		if (!wanted(a, t))
			continue;
		*x = *t;
		x->threshold = a->threshold;
		x->early_abort = bench_is_zbewalgo(t) && t->level == -1 ?
				 a->early_abort : -1;
		if (bench_is_zbewalgo(t)) {
			x->table = t->level > 0 ?
				   zbewalgo_preset_table(t->level) :
				   t->level ? a->table :
				   zbewalgo_table_default();
			if (!x->table) {
				fprintf(stderr, "zbewalgo: zbewalgo-custom needs -c TABLE\n");
				return -1;
			}
		}
		bench_describe(x);
		if (!strcmp(t->name, "lz4"))
			al->lz4_idx = al->nalgos;
		al->nalgos++;
	}
	if (a->alist && check_alist(a->alist))
		return -1;
	if (!al->nalgos) {
		fprintf(stderr, "zbewalgo: no algorithm selected\n");
		return -1;
	}
	return 0;
}

/* Input @path's name in messages and records. */
const char *bench_file_name(const char *path)
{
	return strcmp(path, "-") ? path : "stdin";
}

/* The algorithm of @al that runs @k-th in repetition @r of @reps */
static size_t bench_turn(const struct bench_algos *al, int reps, int r,
			 size_t k)
{
	return (k + (size_t)r * al->nalgos / reps) % al->nalgos;
}

/*
 * Every algorithm on the pages @ps of file @name, into the records @fr:
 * each compression repetition of every algorithm in turn, then each
 * decompression repetition.  Returns -1 when an algorithm cannot be set
 * up.
 */
static int measure_algos(const struct bench_args *a, struct bench_algos *al,
			 struct bench_run *run, const char *name,
			 const struct pageset *ps, struct result *fr)
{
	struct meas *m = calloc(al->nalgos, sizeof(*m));
	unsigned char *out = malloc(ps->npages * a->page + 1);
	size_t i, k;
	int r, ret = -1;

	if (!m || !out) {
		free(out);
		free(m);
		return -1;
	}
	for (i = 0; i < al->nalgos; i++) {
		struct result *x = &fr[i];

		x->file = name;
		x->algo = &al->algos[i];
		x->pages = ps->npages;
		x->same = ps->same;
		x->dups = ps->dups;
		x->page = a->page;
		x->threshold = a->threshold;
		run->lz4_of[run->nres + i] = al->lz4_idx >= 0 ?
			(int)run->nres + al->lz4_idx : -1;
		if (meas_start(&al->algos[i], ps, a->page, a->reps, x,
			       &m[i])) {
			fprintf(stderr, "zbewalgo: %s: cannot set up %s\n",
				name, al->algos[i].name);
			goto out;
		}
	}
	/*
	 * Each repetition starts further down the list: where an algorithm
	 * stands, and what ran before it, moves its speed (meas_warm()), and
	 * the median is then over places as well as over time
	 */
	for (r = 0; r < a->reps; r++)
		for (k = 0; k < al->nalgos; k++) {
			i = bench_turn(al, a->reps, r, k);
			meas_comp(&al->algos[i], ps, a->page, r, &fr[i], &m[i]);
		}
	for (r = 0; r < a->reps; r++)
		for (k = 0; k < al->nalgos; k++) {
			i = bench_turn(al, a->reps, r, k);
			meas_decomp(&al->algos[i], ps, a->page, r, &fr[i],
				    &m[i], out);
		}
	for (i = 0; i < al->nalgos; i++) {
		meas_end(ps, a->page, a->reps, &fr[i], &m[i]);
		if (!fr[i].roundtrip_ok) {
			fprintf(stderr, "zbewalgo: %s: %s: ROUND TRIP FAILED\n",
				name, al->algos[i].name);
			run->ret = 1;
		}
	}
	ret = 0;
out:
	for (i = 0; i < al->nalgos; i++) {
		meas_free(&al->algos[i], &m[i]);
		/* on failure, only the records' sizes to free */
		if (ret) {
			free(fr[i].sizes);
			fr[i].sizes = NULL;
		}
	}
	free(m);
	free(out);
	return ret;
}

/*
 * One file: its records and its table.  A file that cannot be read, or
 * has no pages, adds none.  Returns -1 when the run must end.
 */
static int bench_file(const struct bench_args *a, struct bench_algos *al,
		      struct bench_run *run, const char *path)
{
	const char *name = bench_file_name(path);
	struct result *fr = &run->res[run->nres];
	struct pageset ps;

	if (bench_load_pages(path, a->page, a->drop, &ps)) {
		run->ret = 1;
		return 0;
	}
	if (!ps.npages) {
		fprintf(stderr, "zbewalgo: %s: no pages to measure (%zu same-filled, %zu duplicates dropped)\n",
			name, ps.same, ps.dups);
		free(ps.data);
		return 0;
	}
	if (a->verbose)
		fprintf(stderr, "bench: %s: %zu pages\n", name, ps.npages);
	if (measure_algos(a, al, run, name, &ps, fr)) {
		free(ps.data);
		return -1;
	}
	compare_pages(fr, al->nalgos);
	free(ps.data);
	effective_speeds(fr, al->nalgos, a->wmibps, a->rmibps);
	if (run->table_out)
		bench_file_table(run->table_out, a, al, name, &ps, fr);
	run->nres += al->nalgos;
	run->nfiles++;
	return 0;
}

/*
 * Every algorithm on every file, with a table per file and their sum,
 * then the CSV, JSON and plot.  Returns the exit status.
 */
static int bench_files(struct bench_args *a, struct bench_algos *al)
{
	struct bench_run run = { .table_out = stdout };
	size_t n = a->nfiles * al->nalgos, f;

	if ((a->csv && !a->csv_path) || (a->o.json && !a->o.json_path))
		run.table_out = NULL;
	run.res = calloc(n, sizeof(*run.res));
	run.lz4_of = calloc(n, sizeof(*run.lz4_of));
	if (!run.res || !run.lz4_of) {
		run.ret = 1;
		goto out;
	}
	if (run.table_out)
		bench_table_intro(run.table_out, a);
	for (f = 0; f < a->nfiles; f++) {
		if (bench_file(a, al, &run, a->files[f])) {
			run.ret = 1;
			goto out;
		}
	}
	if (!run.nfiles) {
		fprintf(stderr, "zbewalgo: bench: nothing measured\n");
		run.ret = 1;
	}
	if (run.table_out && run.nfiles > 1)
		bench_table_summary(run.table_out, run.res, run.nres,
				    al->algos, al->nalgos, al->lz4_idx,
				    run.nfiles);
	bench_output(a, &run);
out:
	free(run.lz4_of);
	free(run.res);
	return run.ret;
}

int bench_main(int argc, char **argv)
{
	struct bench_args a = {
		.early_abort = -1, .reps = 5, .page = 4096,
		.wmibps = 134.7, .rmibps = 156.62,
		.o = {
			.name = "bench", .plot_env = "ZBEWALGO_BENCH_PLOT",
			.plot_script = ZBEWALGO_BENCH_PLOT,
		},
	};
	struct bench_algos al = { .lz4_idx = -1 };
	int ret;

	ret = bench_parse(argc, argv, &a);
	if (ret) {
		ret = ret > 0 ? 0 : 2;	/* after -h, or a bad option */
		goto out;
	}
	if (a.dict_path && bench_read_dict(a.dict_path, a.page)) {
		ret = 1;
		goto out;
	}
	ret = 2;	/* for settings that do not fit together */
	if ((a.recomp && bench_recompress_setup(&a, &al)) ||
	    select_algos(&a, &al))
		goto out;
	if (a.recomp)
		ret = bench_recompress_files(&a, &al);
	else
		ret = bench_files(&a, &al);
out:
	free(a.table);
	return ret;
}
