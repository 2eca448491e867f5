// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo tune - recommend a combination table for a workload
 *
 * Reads pages as zram would see them (files, block devices such as a zram
 * device, or the memory of a running process), takes a deterministic
 * sample and looks for the combination table and thresholds with the best
 * zram ratio within a compression speed budget.  Besides the public API of
 * include/linux/zbewalgo.h it uses the engine's search (search.h) and the
 * list of steps (steps.h) of lib/zbewalgo/core.
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
 *     measurements (the probe's order, its tolerance, early abort,
 *     prefixes); the replayed sizes are exact, the times are the sum of
 *     the chains' own times.
 * The recommendation, the default table, the presets, lz4 and zstd-3 are
 * then measured for real on the sample and on a hold-out set of other
 * pages.  Unless told otherwise, the recommendation decompresses no slower
 * than the default table, in the model and then measured.
 */
#include <getopt.h>

#include "tune.h"

/* The tables the search starts from: the default, presets 1 and 3. */
#define NR_SEEDS	3

#ifndef ZBEWALGO_TUNE_PLOT
#define ZBEWALGO_TUNE_PLOT "tools/zbewalgo/tune-plot.py"
#endif

/*
 * Compression times are CPU time of this thread: on a busy machine the
 * time the tool waits for a CPU would otherwise land on whichever page
 * was being compressed.
 */
double tune_cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The cost of one tune_cpu_now() pair, taken off every per-page time. */
static double cpu_now_cost(void)
{
	double t0 = tune_cpu_now(), t1 = t0;
	int i;

	for (i = 0; i < 1000; i++)
		t1 = tune_cpu_now();
	return (t1 - t0) / 1000;
}

/* The set of each step in lib/zbewalgo/core/steps.h, "core" or "classic". */
static const char *const step_set[256] = {
#define ZBW_STEP(NAME, name, id, set) \
	[id] = #set,
#include "../../lib/zbewalgo/core/steps.h"
#undef ZBW_STEP
};

/*
 * Whether step @id is one of the 2018 design's, which a kernel builds
 * only with CONFIG_ZBEWALGO_CLASSIC_STEPS (off by default).
 */
bool tune_step_classic(unsigned int id)
{
	return id < 256 && step_set[id] && !strcmp(step_set[id], "classic");
}

void *tune_grow(void *p, size_t *cap, size_t need, size_t elem)
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

/* ---- command line -------------------------------------------------------------- */

static void tune_usage(FILE *f)
{
	fprintf(f,
"usage: zbewalgo tune [options] [INPUT...] [--pid PID]\n"
"Recommends a combination table and thresholds for the pages of the\n"
"inputs: files, '-' (stdin), block devices (e.g. /dev/zram0, read page by\n"
"page) or the memory of a process.  Prints ratio and speed of the\n"
"recommendation, the default table, the presets, lz4 and zstd-3 on the\n"
"sample and on hold-out pages, and the lines that apply it as they are:\n"
"sysfs, zramctl, zram-generator.conf, and a level when a preset is as good.\n"
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
"                            (default: as fast as the default table;\n"
"                            --min-speed 0: no limit)\n"
"      --min-dspeed X        decompression at least X times lz4's speed\n"
"                            (default: as fast as the default table,\n"
"                            measured; --min-dspeed 0: no limit)\n"
"      --lean                only the steps every kernel build has: none\n"
"                            that needs CONFIG_ZBEWALGO_CLASSIC_STEPS (off\n"
"                            by default; without --lean a table that names\n"
"                            one comes with a warning)\n"
"  -k, --max-chains K        at most K combinations (default 8, as many\n"
"                            as the default table has; max %d)\n"
"  -L, --max-steps N         search chains of up to N steps (default 4, max\n"
"                            %d); the chains of the default and preset\n"
"                            tables are always candidates\n"
"  -b, --beam N              chains kept per search level (default 8)\n"
"  -t, --threshold N         zram's huge-class size: results >= N bytes count\n"
"                            as a whole page (default 3625 for 4 KiB pages,\n"
"                            zsmalloc's since Linux 6.3)\n"
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
	OPT_MIN_DSPEED, OPT_LEAN,
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

static struct entry *add_entry(struct report *rp, const char *name,
			       enum kind kind)
{
	struct entry *e = &rp->ent[rp->nent++];

	memset(e, 0, sizeof(*e));
	e->name = name;
	e->kind = kind;
	return e;
}

/*
 * The steps the search may use, by stable id: those this build has, less
 * the classic ones with --lean.
 */
static void find_steps(struct tuner *t)
{
	unsigned int id;

	t->nsteps = 0;
	for (id = 1; id < 256; id++) {
		const char *name = zbewalgo_step_name(id);

		if (!name || zbewalgo_step_id(name, strlen(name)) < 0 ||
		    (t->lean && tune_step_classic(id)))
			continue;
		t->steps[t->nsteps++] = id;
	}
	t->huffman = t->lean ? -1 : zbewalgo_step_id("huffman", 7);
	t->rle = t->lean ? -1 : zbewalgo_step_id("rle", 3);
}

/*
 * @src without the combinations that name a classic step, as a kernel
 * without CONFIG_ZBEWALGO_CLASSIC_STEPS has level 3.
 */
static void lean_table(const struct zbewalgo_table *src,
		       struct zbewalgo_table *dst)
{
	unsigned int i;
	int k;

	memset(dst, 0, sizeof(*dst));
	for (i = 0; i < src->nr; i++) {
		const struct zbewalgo_combination *c = &src->comb[i];

		for (k = 0; k < c->nr_steps; k++)
			if (tune_step_classic(c->ids[k]))
				break;
		if (k == c->nr_steps)
			dst->comb[dst->nr++] = *c;
	}
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

/* The command line, but for the settings that go straight to the tuner. */
struct tune_args {
	size_t want_t, want_h, want_s;	/* pages: sample, hold-out, screen */
	double min_speed, max_us, min_dspeed;	/* the budget; NAN: none */
	const char **pids;		/* --pid, owned */
	size_t npids, cappids;
	char **paths;			/* the other inputs */
	size_t npaths;
	bool drop;
	struct tool_output o;
};

static int add_pid(struct tune_args *a, const char *arg)
{
	const char **np;
	char *end;

	errno = 0;
	if (strtol(arg, &end, 10) <= 0 || *end || errno) {
		fprintf(stderr, "zbewalgo: bad pid '%s'\n", arg);
		return -1;
	}
	np = tune_grow(a->pids, &a->cappids, a->npids + 1, sizeof(*np));
	if (!np)
		return -1;
	a->pids = np;
	a->pids[a->npids++] = arg;
	return 0;
}

/* What no single option tells: an input, one budget, the threshold. */
static int check_args(struct tune_args *a, struct tuner *t)
{
	if (!a->npaths && !a->npids) {
		fprintf(stderr, "zbewalgo: tune: no input (files, devices or --pid)\n");
		tune_usage(stderr);
		return -1;
	}
	if (tool_plot_ready(&a->o))
		return -1;
	if (isfinite(a->min_speed) && isfinite(a->max_us)) {
		fprintf(stderr, "zbewalgo: --min-speed and --max-us-per-page exclude each other\n");
		return -1;
	}
	if (tool_threshold(&t->threshold, t->page))
		return -1;
	if (a->want_h == (size_t)-1)
		a->want_h = a->want_t;
	return 0;
}

/*
 * The command line into @a and the tuner's settings: 0 to go on, 1 when
 * -h printed the usage, -1 after a message about a bad option.
 */
static int tune_parse(int argc, char **argv, struct tune_args *a,
		      struct tuner *t)
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
		{ "lean", no_argument, NULL, OPT_LEAN },
		{ "max-chains", required_argument, NULL, 'k' },
		{ "max-steps", required_argument, NULL, 'L' },
		{ "beam", required_argument, NULL, 'b' },
		{ "threshold", required_argument, NULL, 't' },
		{ "page-size", required_argument, NULL, 'p' },
		{ "reps", required_argument, NULL, 'r' },
		TOOL_OUTPUT_LONGOPTS,
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const struct num_opt nums[] = {
		{ 'n', 1, 1 << 24, .size = &a->want_t },
		{ OPT_HOLDOUT, 0, 1 << 24, .size = &a->want_h },
		{ OPT_SCREEN, 1, 1 << 24, .size = &a->want_s },
		{ OPT_MIN_SPEED, 0, 1e6, .real = &a->min_speed },
		{ OPT_MAX_US, 1e-3, 1e12, .real = &a->max_us },
		{ OPT_MIN_DSPEED, 0, 1e6, .real = &a->min_dspeed },
		{ 'k', 1, MAX_TABLE, .num = &t->max_table },
		{ 'L', 1, ZBEWALGO_MAX_STEPS, .num = &t->max_steps },
		{ 'b', 1, 256, .num = &t->beam },
		{ 't', 1, ZBEWALGO_MAX_INPUT, .size = &t->threshold },
		{ 'p', 64, ZBEWALGO_MAX_INPUT, .size = &t->page },
		{ 'r', 1, 1001, .num = &t->reps },
		{ }
	};
	int c, k;

	optind = 1;
	while ((c = getopt_long(argc, argv, "P:n:dk:L:b:t:p:r:vh",
				longopts, NULL)) != -1) {
		switch (c) {
		case 'P':
			if (add_pid(a, optarg))
				return -1;
			break;
		case 'd':
			a->drop = true;
			break;
		case 'v':
			t->verbose = true;
			break;
		case OPT_LEAN:
			t->lean = true;
			break;
		case 'h':
			tune_usage(stdout);
			return 1;
		default:
			if (tool_output_opt(&a->o, c, optarg))
				break;
			k = set_num_opt(nums, c, optarg);
			if (k > 0)
				tune_usage(stderr);
			if (k)
				return -1;
			break;
		}
	}
	a->paths = argv + optind;
	a->npaths = argc - optind;
	return check_args(a, t);
}

/* Opens the inputs for the sampler, the paths before the processes. */
static int open_inputs(const struct tune_args *a, size_t page,
		       struct sampler *sp)
{
	size_t n = a->npaths + a->npids + 1, i;

	sp->src = calloc(n, sizeof(*sp->src));
	sp->start = calloc(n, sizeof(*sp->start));
	if (!sp->src || !sp->start)
		return -1;
	for (i = 0; i < a->npaths; i++) {
		if (tune_open_path(&sp->src[sp->nsrc], a->paths[i], page))
			return -1;
		sp->nsrc++;
	}
	for (i = 0; i < a->npids; i++) {
		if (tune_open_pid(&sp->src[sp->nsrc], a->pids[i], page))
			return -1;
		sp->nsrc++;
	}
	for (i = 0; i < sp->nsrc; i++) {
		sp->start[i] = sp->total;
		sp->total += sp->src[i].npages;
	}
	sp->page = page;
	sp->drop = a->drop;
	return 0;
}

/* The sample, the hold-out pages and the screening set. */
static int take_sample(struct tuner *t, const struct tune_args *a,
		       struct sampler *sp)
{
	if (t->verbose)
		fprintf(stderr, "tune: %zu pages in %zu inputs\n", sp->total,
			sp->nsrc);
	if (tune_sample(sp, a->want_t, a->want_h, &t->set[TRAIN], &t->hold)) {
		fprintf(stderr, "zbewalgo: out of memory\n");
		return -1;
	}
	if (!t->set[TRAIN].n) {
		fprintf(stderr, "zbewalgo: no pages to tune on (%zu pages, %zu same-filled and %zu duplicates dropped, %zu unreadable)\n",
			sp->total, sp->same, sp->dups, sp->unreadable);
		return -1;
	}
	return make_screen(t, a->want_s);
}

/* The engine's working memory, the steps, and what the clock costs. */
static int setup_engine(struct tuner *t)
{
	struct zbewalgo_params dp;
	size_t n = t->set[TRAIN].n, i;
	double t0;

	t->stored_size = 1 + (t->page < 128 ? 1 : t->page < 16384 ? 2 : 3) +
			 t->page;
	t->ctx = zbewalgo_ctx_create(t->page);
	t->one = calloc(1, sizeof(*t->one));
	t->dst = malloc(ZBEWALGO_STORED_SIZE(t->page) + 64);
	t->out = malloc(t->page);
	t->dctx = zbewalgo_ctx_create(t->page);
	if (!t->ctx || !t->one || !t->dst || !t->out || !t->dctx)
		return -1;
	find_steps(t);
	zbewalgo_default_params(&dp, t->page);
	t->tol = dp.tolerance_shift;
	t->tick = cpu_now_cost();
	t0 = tune_cpu_now();
	for (i = 0; i < n; i++)
		memcpy(t->out, t->set[TRAIN].data + i * t->page, t->page);
	t->tcopy = (tune_cpu_now() - t0) / n;
	return 0;
}

/* lz4, which sets the scale of every speed; the budgets start unlimited. */
static int measure_lz4(struct tuner *t, const struct tune_args *a,
		       struct report *rp)
{
	struct entry *e = add_entry(rp, "lz4", K_LZ4);

	rp->lz4 = rp->nent - 1;
	if (tune_measure(t, &t->set[TRAIN], e, &e->m[0]))
		return -1;
	t->budget = INFINITY;
	t->dbudget = INFINITY;
	return 0;
}

/*
 * The decompression budget, in the tuner and described in @rp: by default
 * the default table's own replayed decompression time on the sample (the
 * measurement checks it again, check_decode()).
 */
static int set_dbudget(struct tuner *t, const struct tune_args *a,
		       struct report *rp, const struct zbewalgo_table *def)
{
	size_t n = t->set[TRAIN].n;
	struct tsel d;

	t->dbudget = INFINITY;
	if (isfinite(a->min_dspeed) && a->min_dspeed > 0) {
		rp->dbudget_kind = "decompression speed relative to lz4";
		rp->dbudget_value = a->min_dspeed;
		t->dbudget = rp->ent[rp->lz4].m[0].td / n / a->min_dspeed;
	} else if (isfinite(a->min_dspeed)) {
		rp->dbudget_kind = "none";
		rp->dbudget_value = 0;
	} else {
		if (tune_replay_seed(t, def, &d))
			return -1;
		rp->dbudget_kind = "as fast as the default table";
		rp->dbudget_value = 1;
		t->dbudget = d.r.td / n * (1 + DECODE_MODEL_SLACK);
	}
	return 0;
}

/*
 * The compression budget, in the tuner and described in @rp.  The default
 * budget is the default table @def's own replayed time on the sample, so
 * the comparison with it is model against model.
 */
static int set_budget(struct tuner *t, const struct tune_args *a,
		      struct report *rp, const struct zbewalgo_table *def)
{
	size_t n = t->set[TRAIN].n;
	struct tsel d;

	if (isfinite(a->max_us)) {
		rp->budget_kind = "compression time per page";
		rp->budget_value = a->max_us;
		t->budget = a->max_us * 1e-6;
	} else if (isfinite(a->min_speed) && a->min_speed > 0) {
		rp->budget_kind = "compression speed relative to lz4";
		rp->budget_value = a->min_speed;
		t->budget = rp->ent[rp->lz4].m[0].tc / n / a->min_speed;
	} else if (isfinite(a->min_speed)) {
		rp->budget_kind = "none";
		rp->budget_value = 0;
		t->budget = INFINITY;
	} else {
		if (tune_replay_seed(t, def, &d))
			return -1;
		rp->budget_kind = "as fast as the default table";
		rp->budget_value = 1;
		t->budget = d.r.tc / n;
	}
	return 0;
}

/* The seeds' chains on the screening set, then the search for others. */
static int search_chains(struct tuner *t, const struct zbewalgo_table **seeds)
{
	struct tsel d;
	int k;

	for (k = 0; k < NR_SEEDS; k++)
		if (tune_tsel_of(t, seeds[k], SCREEN, &d))
			return -1;
	if (tune_beam_search(t) || tune_pick_pool(t, seeds, NR_SEEDS))
		return -1;
	return 0;
}

/*
 * The best table of at most @cap bytes that the greedy search builds at
 * each early_abort_size from no chain, the default table and preset 1.
 */
static int greedy_best(struct tuner *t, const struct zbewalgo_table **seeds,
		       double cap, struct tsel *best)
{
	struct tsel start, res;
	int e, k;

	for (e = 0; e < NR_EAS; e++) {
		for (k = 0; k < 3; k++) {
			if (tune_tsel_of(t, k == 2 ? seeds[1] : seeds[0],
				    TRAIN, &start))
				return -1;
			if (k == 0)
				start.n = 0;
			if (start.n > t->max_table)
				continue;
			start.ea = t->eas[e];
			start.maxout = t->threshold;
			if (start.n) {
				tune_run_sim(t, &start);
				if (!start.ok)
					continue;
			}
			tune_greedy(t, &start, cap, &res);
			if (res.n && res.ok && res.r.zb <= cap &&
			    tune_better(&res, best))
				*best = res;
		}
	}
	return 0;
}

/* When nothing fits the budget: the fastest single chain of the pool. */
static void fastest_chain(const struct tuner *t, struct tsel *best)
{
	size_t i;

	for (i = 0; i < t->ncands; i++) {
		struct tsel s = { .n = 1, .idx = { i }, .ea = t->eas[0],
				  .maxout = t->threshold };

		if (!t->cands[i].pool)
			continue;
		tune_run_sim(t, &s);
		if (!best->n || s.r.tc < best->r.tc)
			*best = s;
	}
}

/*
 * The chosen table at each early_abort_size and threshold, kept in @rp
 * for the report; a better one of at most @cap bytes replaces it.
 */
static void sweep_thresholds(const struct tuner *t, struct report *rp,
			     double cap, struct tsel *best)
{
	uint32_t mo[3] = { t->threshold, t->page * 5 / 8, t->page / 2 };
	int e, m;

	rp->nsweep = 0;
	for (e = 0; e < NR_EAS; e++) {
		for (m = 0; m < 3; m++) {
			struct tsel s = *best;

			if (m && mo[m] >= t->threshold)
				continue;
			s.ea = t->eas[e];
			s.maxout = mo[m];
			tune_run_sim(t, &s);
			rp->sweep[rp->nsweep++] = s;
			if (s.ok && s.r.zb <= cap && tune_better(&s, best))
				*best = s;
		}
	}
}

/*
 * Keeps the default table @def unless the search gained something: 0.1%
 * of the bytes or a tenth of the time.
 */
static int keep_default(struct tuner *t, const struct zbewalgo_table *def,
			struct tsel *best)
{
	struct tsel d;

	if (tune_replay_seed(t, def, &d))
		return -1;
	if (d.ok && d.n <= t->max_table &&
	    best->r.zb > d.r.zb * (1 - MIN_GAIN) &&
	    best->r.tc > d.r.tc * 0.9)
		*best = d;
	return 0;
}

/*
 * The table for the budget, in @best: what the greedy search builds, at
 * its best thresholds, unless the default table is as good.
 */
static int choose_table(struct tuner *t, struct report *rp,
			const struct zbewalgo_table **seeds, struct tsel *best)
{
	struct zbewalgo_params dp;
	struct tsel d;
	double cap;

	zbewalgo_default_params(&dp, t->page);
	t->nhist = 0;
	/* the default first: it wins ties */
	t->eas[0] = dp.early_abort_size;
	t->eas[1] = 0;
	t->eas[2] = t->page / 16;
	t->eas[3] = t->page * 3 / 16;
	t->eas[4] = t->page / 4;
	t->eas[5] = t->page * 3 / 8;
	memset(best, 0, sizeof(*best));
	/*
	 * Never worse than the default table on the sample when that is
	 * within the budget: greedy from the default start only adds bytes
	 * by pruning, which respects the cap.
	 */
	if (tune_replay_seed(t, seeds[0], &d))
		return -1;
	cap = d.ok && d.n <= t->max_table ? d.r.zb : INFINITY;
	if (greedy_best(t, seeds, cap, best))
		return -1;
	rp->budget_met = best->n;
	if (!best->n)
		fastest_chain(t, best);
	sweep_thresholds(t, rp, cap, best);
	return keep_default(t, seeds[0], best);
}

/* The recommendation @best as the engine takes it, with its model. */
static int add_recommended(const struct tuner *t, struct report *rp,
			   const struct tsel *best)
{
	struct entry *r = add_entry(rp, "recommended", K_ZBW);

	rp->rec = rp->nent - 1;
	r->table = calloc(1, sizeof(*r->table));
	if (!r->table)
		return -1;
	tune_table_of(t, best, r->table);
	zbewalgo_default_params(&r->params, t->page);
	r->params.early_abort_size = best->ea;
	r->params.max_output_size = best->maxout;
	r->model = *best;
	r->have_model = true;
	return 0;
}

/* The default table and the presets, each with its replayed model. */
static int add_seeds(struct tuner *t, struct report *rp,
		     const struct zbewalgo_table **seeds)
{
	static const char *const names[NR_SEEDS] = {
		"default", "level=1", "level=3"
	};
	int k;

	for (k = 0; k < NR_SEEDS; k++) {
		struct entry *d = add_entry(rp, names[k], K_ZBW);

		if (!k)
			rp->def = rp->nent - 1;
		d->table = malloc(sizeof(*d->table));
		if (!d->table)
			return -1;
		*d->table = *seeds[k];
		d->level = k == 0 ? 2 : k == 1 ? 1 : 3;
		zbewalgo_default_params(&d->params, t->page);
		d->params.max_output_size = t->threshold;
		d->have_model = !tune_replay_seed(t, seeds[k], &d->model);
	}
	return 0;
}

/*
 * The real measurements on the sample, lz4's kept: the recommendation
 * @best, the default table, the presets and zstd-3.
 */
static int measure_entries(struct tuner *t, struct report *rp,
			   const struct zbewalgo_table **seeds,
			   const struct tsel *best)
{
	struct entry *r;
	int k;

	for (k = 1; k < rp->nent; k++)
		free(rp->ent[k].table);
	rp->nent = 1;
	if (add_recommended(t, rp, best) || add_seeds(t, rp, seeds))
		return -1;
	add_entry(rp, "zstd-3", K_ZSTD);
	for (k = 1; k < rp->nent; k++) {
		if (t->verbose)
			fprintf(stderr, "tune: measuring %s\n",
				rp->ent[k].name);
		if (tune_measure(t, &t->set[TRAIN], &rp->ent[k],
				 &rp->ent[k].m[0]))
			return -1;
	}
	/* compare the replay with the engine: sizes must agree */
	r = &rp->ent[rp->rec];
	if (fabs(r->m[0].zram - best->r.zb) > 0.5)
		fprintf(stderr, "zbewalgo: warning: the replay predicted %.0f bytes, the engine gave %.0f\n",
			best->r.zb, r->m[0].zram);
	rp->model_vs_real = best->r.tc / r->m[0].tc;
	return 0;
}

static bool same_table(const struct zbewalgo_table *a,
		       const struct zbewalgo_table *b)
{
	unsigned int i;

	if (a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++)
		if (a->comb[i].nr_steps != b->comb[i].nr_steps ||
		    memcmp(a->comb[i].ids, b->comb[i].ids, a->comb[i].nr_steps))
			return false;
	return true;
}

/*
 * The default decompression budget on the measurement: a table the model
 * put within it that still decodes measurably slower than the default
 * table gives way to the default table (the model's decompression times
 * are the chains' own, a table's may come out slower), provided the
 * default table is within the budgets; else the report warns.
 */
static int check_decode(struct tuner *t, struct report *rp,
			const struct zbewalgo_table **seeds, struct tsel *best)
{
	const struct entry *r = &rp->ent[rp->rec], *d = &rp->ent[rp->def];
	double slower = r->m[0].td / d->m[0].td;
	struct tsel dt;

	if (strcmp(rp->dbudget_kind, "as fast as the default table") ||
	    same_table(r->table, d->table) || slower <= 1 + DECODE_SLACK)
		return 0;
	if (tune_replay_seed(t, seeds[0], &dt))
		return -1;
	if (!dt.ok || dt.n > t->max_table) {
		rp->decode_slower = slower;	/* warned about */
		return 0;
	}
	if (t->verbose)
		fprintf(stderr, "tune: the table decompressed x%.2f slower than the default table: keeping the default table\n",
			slower);
	*best = dt;
	if (measure_entries(t, rp, seeds, best))
		return -1;
	rp->decode_fallback = slower;
	return 0;
}

/*
 * Chooses the table for the budget and measures it with the others.  An
 * explicit budget is checked against the measurement: when the model was
 * too optimistic, its times are scaled by what the measurement showed
 * and the table chosen again, three rounds at most.
 */
static int choose_and_measure(struct tuner *t, const struct tune_args *a,
			      struct report *rp,
			      const struct zbewalgo_table **seeds,
			      struct tsel *best)
{
	double t_search = tool_now(), want_tc;
	bool explicit;
	int retry;

	for (retry = 0; retry < 3; retry++) {
		if (set_budget(t, a, rp, seeds[0]) ||
		    set_dbudget(t, a, rp, seeds[0]))
			return -1;
		explicit = isfinite(t->budget) && rp->budget_value > 0 &&
			   strcmp(rp->budget_kind,
				  "as fast as the default table");
		want_tc = t->budget;
		if (retry)
			t->budget *= rp->model_vs_real;
		else if (search_chains(t, seeds))
			return -1;
		if (choose_table(t, rp, seeds, best))
			return -1;
		rp->search_s = tool_now() - t_search;
		if (measure_entries(t, rp, seeds, best))
			return -1;
		if (!explicit || rp->ent[rp->rec].m[0].tc / t->set[TRAIN].n <=
				 want_tc * 1.03)
			break;
		/* the model was too optimistic: scale it and choose again */
		rp->retries++;
		if (t->verbose)
			fprintf(stderr, "tune: measured speed below the budget; model/real %.2f, retrying\n",
				rp->model_vs_real);
	}
	if (retry == 3)
		rp->budget_met = false;
	if (check_decode(t, rp, seeds, best))
		return -1;
	if (!rp->ent[rp->rec].m[0].ok) {
		fprintf(stderr, "zbewalgo: the recommended table failed its round trip\n");
		return -1;
	}
	return 0;
}

/* The hold-out pages through every entry. */
static int measure_holdout(struct tuner *t, struct report *rp)
{
	int k;

	for (k = 0; k < rp->nent && t->hold.n; k++)
		if (tune_measure(t, &t->hold, &rp->ent[k], &rp->ent[k].m[1]))
			return -1;
	return 0;
}

/* A preset that is as good as @best (within the slack, and the budget). */
static void match_preset(struct report *rp, const struct tsel *best)
{
	int k;

	for (k = 0; k < rp->nent; k++) {
		const struct entry *d = &rp->ent[k];

		if (!d->level || !d->have_model || !d->model.ok)
			continue;
		if (d->model.r.zb <= best->r.zb * (1 + PRESET_SLACK) &&
		    (!rp->preset_match || d->level == 2))
			rp->preset_match = d->level;
	}
}

/*
 * Whether @f, which is @name, took everything written to it; if not, says
 * so with the file's name and the reason.
 */
static bool written(FILE *f, const char *name)
{
	int err = 0;

	/* a failed write before the last flush left its errno (see below) */
	if (fflush(f))
		err = errno;
	else if (ferror(f))
		err = errno ?: EIO;
	if (!err)
		return true;
	fprintf(stderr, "zbewalgo: tune: cannot write %s: %s\n", name,
		strerror(err));
	return false;
}

/* The JSON into the file @path, every error reported with its name. */
static int write_json_file(const char *path, const struct report *rp)
{
	FILE *f = fopen(path, "w");
	bool ok;

	if (!f) {
		fprintf(stderr, "zbewalgo: tune: cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	tune_write_json(f, rp);
	ok = written(f, path);
	if (fclose(f) && ok) {
		fprintf(stderr, "zbewalgo: tune: cannot write %s: %s\n", path,
			strerror(errno));
		ok = false;
	}
	return ok ? 0 : -1;
}

/*
 * The text unless the JSON goes to stdout, the JSON, the plot: 0, or 1
 * after a message when an output could not be written.
 */
static int tune_report(const struct tuner *t, const struct tune_args *a,
		       struct report *rp)
{
	struct tool_output o = a->o;

	rp->src = rp->sp->src;
	rp->nsrc = rp->sp->nsrc;
	rp->total = rp->sp->total;
	errno = 0;
	if (!a->o.json || a->o.json_path)
		tune_write_text(stdout, t, rp);
	if (a->o.json && a->o.json_path) {
		if (write_json_file(a->o.json_path, rp))
			return 1;
		/* written: the plot, if any, reads a copy of its own */
		o.json = false;
		o.json_path = NULL;
	}
	if (tool_write_json(&o, tune_write_json, rp))
		return 1;
	return written(stdout, "stdout") ? 0 : 1;
}

static void free_tuner(struct tuner *t)
{
	size_t i;
	int k;

	for (i = 0; i < t->ncands; i++)
		for (k = 0; k < 2; k++) {
			free(t->cands[i].r[k].size);
			free(t->cands[i].r[k].est);
			free(t->cands[i].r[k].ct);
			free(t->cands[i].r[k].dt);
		}
	free(t->cands);
	free(t->hist);
	if (!t->same_sets) {
		free(t->set[SCREEN].data);
		free(t->set[SCREEN].prestored);
		free(t->set[SCREEN].precost);
		free(t->set[SCREEN].plain);
	}
	free(t->set[TRAIN].prestored);
	free(t->set[TRAIN].precost);
	free(t->set[TRAIN].plain);
	free(t->set[TRAIN].data);
	free(t->hold.data);
	zbewalgo_ctx_destroy(t->ctx);
	free(t->one);
	free(t->dst);
	free(t->out);
	zbewalgo_ctx_destroy(t->dctx);
}

static void free_inputs(struct sampler *sp)
{
	size_t i;

	for (i = 0; i < sp->nsrc; i++) {
		if (sp->src[i].fd >= 0)
			close(sp->src[i].fd);
		free(sp->src[i].data);
		free(sp->src[i].ext);
	}
	free(sp->src);
	free(sp->start);
	free(sp->slot);
}

int tune_main(int argc, char **argv)
{
	struct tuner tt = {
		.page = 4096, .max_table = 8, .max_steps = 4, .beam = 8,
		.reps = 3, .huffman = -1, .rle = -1,
	}, *t = &tt;
	struct tune_args a = {
		.want_t = 2048, .want_h = (size_t)-1, .want_s = 256,
		.min_speed = NAN, .max_us = NAN, .min_dspeed = NAN,
		.o = {
			.name = "tune", .plot_env = "ZBEWALGO_TUNE_PLOT",
			.plot_script = ZBEWALGO_TUNE_PLOT,
		},
	};
	struct sampler sp = { 0 };
	struct entry ent[8];
	struct tsel best = { 0 }, sweep[NR_EAS * 3];
	struct report rp = { .t = t, .sp = &sp, .ent = ent, .sweep = sweep };
	const struct zbewalgo_table *seeds[NR_SEEDS] = {
		zbewalgo_table_default(), zbewalgo_preset_table(1),
		zbewalgo_preset_table(3),
	};
	static struct zbewalgo_table lean_seeds[NR_SEEDS];
	int ret, k;

	memset(ent, 0, sizeof(ent));
	ret = tune_parse(argc, argv, &a, t);
	if (ret) {
		ret = ret > 0 ? 0 : 2;	/* after -h, or a bad option */
		goto out;
	}
	/* a lean kernel's level 3, and the others as they are */
	for (k = 0; k < NR_SEEDS && t->lean; k++) {
		lean_table(seeds[k], &lean_seeds[k]);
		seeds[k] = &lean_seeds[k];
	}
	ret = 1;
	if (open_inputs(&a, t->page, &sp) || take_sample(t, &a, &sp) ||
	    setup_engine(t) || measure_lz4(t, &a, &rp))
		goto out;
	if (choose_and_measure(t, &a, &rp, seeds, &best) ||
	    measure_holdout(t, &rp))
		goto out;
	match_preset(&rp, &best);
	ret = tune_report(t, &a, &rp);
out:
	for (k = 0; k < rp.nent; k++)
		free(ent[k].table);
	free_tuner(t);
	free_inputs(&sp);
	free(a.pids);
	return ret;
}
