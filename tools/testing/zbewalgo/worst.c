// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo_worst: the longest a page takes to compress, for the preset
 * tables and the most expensive tables a user can write (`make worst`).
 *
 *   zbewalgo_worst [-r REPS] [TABLE...]
 *
 * Every table runs on pages built to be slow (random bytes, one byte,
 * periods that make the BWT sorters and LZ match finders work hardest,
 * text, floats with random mantissas) with every combination
 * tried (tolerance_shift 0), and on the same pages zstd-3 with the
 * parameters zram's zstd backend uses.  A page's time is the fastest of
 * REPS runs (default 9), to leave out the machine's noise; per table the
 * slowest page is reported, with its time over zstd-3's on that page and
 * over zstd-3's slowest page.  Table arguments replace the built-in list.
 * Then, when level 1's preset was among them, the line for zswap, which
 * compresses at that level with bottom halves off, against its bound.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <linux/zbewalgo.h>

#define PAGE	4096
#define CAP	ZBEWALGO_STORED_SIZE(PAGE)
/*
 * The level zswap compresses at, with bottom halves off: the crypto API
 * glue's ZBEWALGO_SCOMP_LEVEL without CONFIG_ZBEWALGO_TUNING
 * (crypto/zbewalgo.c), and the bound on its slowest page, in zstd-3's
 * slowest pages (issue 46).
 */
#define ZSWAP_LEVEL	1
#define ZSWAP_BOUND	4.0

/*
 * The presets, and the costliest tables of each kind that a user can
 * write (zbewalgo_table_cost() at most ZBEWALGO_MAX_TABLE_COST): two
 * BWTs and LZ, BWTs and move-to-front, LZ alone, zstd alone.
 */
static const char *const tables[] = {
	"level1", "level2", "level3",
	"bwt-bwt-lz-lz-lz-lz-lz rle-jbe-rle-jbe",
	"bwt-lz-lz-lz-lz bwt-mtf-huffman-rle",
	"bwt-mtf-mtf-mtf-mtf bwt-mtf-mtf-huffman",
	"lz-lz-lz-lz-lz-lz-lz lz-lz-lz-lz-lz-lz lz-lz-lz-lz-lz-lz-rle lz-rle",
	"zstd-zstd-zstd-zstd-zstd-zstd-zstd rle-zstd-zstd-zstd-zstd-zstd-zstd "
	"jbe-zstd-zstd-zstd-zstd-zstd-zstd delta4-zstd-zstd-zstd-zstd-zstd-zstd "
	"sieve4-zstd-zstd-zstd-zstd-zstd-zstd",
};

enum { RANDOM, ONE_BYTE, PERIOD2, PERIOD7, PERIOD255, PERIOD1021, RAMP,
	TEXT, FLOATS, NR_KINDS };
static const char *const kind_names[NR_KINDS] = {
	"random", "one-byte", "period-2", "period-7", "period-255",
	"period-1021", "ramp", "text", "floats",
};

static unsigned int seed = 12345;

static unsigned int rnd(void)
{
	seed = seed * 1103515245 + 12345;
	return seed >> 8;
}

static void fill(unsigned char *p, int kind)
{
	static const char words[] = "the page of a swap device holds memory ";
	size_t i;

	for (i = 0; i < PAGE; i++) {
		switch (kind) {
		case RANDOM:
			p[i] = rnd();
			break;
		case ONE_BYTE:
			p[i] = i == PAGE / 2;
			break;
		case PERIOD2:
			p[i] = i & 1 ? 'a' : 'b';
			break;
		case PERIOD7:
			p[i] = i < 7 ? rnd() : p[i - 7];
			break;
		case PERIOD255:
			p[i] = i < 255 ? rnd() : p[i - 255];
			break;
		case PERIOD1021:
			p[i] = i < 1021 ? rnd() : p[i - 1021];
			break;
		case RAMP:
			p[i] = i / 16;
			break;
		case TEXT:
			p[i] = rnd() % 5 ? words[i % (sizeof(words) - 1)] :
					   'a' + rnd() % 26;
			break;
		case FLOATS:
			if (i % 4 == 0) {
				unsigned int v = 0x3f800000 | (rnd() & 0x7fffff);

				memcpy(p + i, &v, 4);
			}
			break;
		}
	}
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* zstd-3 as zram's zstd backend calls it: parameters for a page. */
static double zstd_time(ZSTD_CCtx *cctx, const unsigned char *page,
			unsigned char *dst, int reps)
{
	ZSTD_parameters params = ZSTD_getParams(3, PAGE, 0);
	double best = 1e9;
	int r;

	for (r = 0; r < reps; r++) {
		double t = now();
		size_t n;

		ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
		ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog,
				       params.cParams.windowLog);
		n = ZSTD_compress2(cctx, dst, CAP * 2, page, PAGE);

		t = now() - t;
		if (ZSTD_isError(n)) {
			fprintf(stderr, "zbewalgo_worst: zstd failed\n");
			exit(2);
		}
		if (t < best)
			best = t;
	}
	return best;
}

/* The machine's load, which the times depend on. */
static void print_load(void)
{
	char line[128] = "unknown\n";
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			strcpy(line, "unknown\n");
		fclose(f);
	}
	printf("# load average: %s", line);
}

int main(int argc, char **argv)
{
	static unsigned char pages[NR_KINDS][PAGE], dst[CAP * 2];
	const char *const *list = tables;
	int nr = sizeof(tables) / sizeof(tables[0]), reps = 9, i, k, r;
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	double zt[NR_KINDS], zmax = 0, worst_all = 0, zswap = 0;
	struct zbewalgo_params params;

	if (argc > 2 && !strcmp(argv[1], "-r")) {
		reps = atoi(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc > 1) {
		list = (const char *const *)argv + 1;
		nr = argc - 1;
	}
	if (!ctx || !cctx || reps < 1) {
		fprintf(stderr, "usage: zbewalgo_worst [-r REPS] [TABLE...]\n");
		return 2;
	}
	zbewalgo_default_params(&params, PAGE);
	params.tolerance_shift = 0;
	for (k = 0; k < NR_KINDS; k++) {
		fill(pages[k], k);
		zt[k] = zstd_time(cctx, pages[k], dst, reps);
		if (zt[k] > zmax)
			zmax = zt[k];
	}
	printf("# zbewalgo_worst: %d-byte pages, every combination tried, fastest of %d runs a page\n",
	       PAGE, reps);
	print_load();
	printf("# zstd-3 (zram's parameters): slowest page %.1f us\n",
	       zmax * 1e6);
	printf("%-8s %6s %-12s %10s %10s %10s\n", "table", "steps",
	       "worst page", "us", "x zstd", "x zstd max");
	for (i = 0; i < nr; i++) {
		struct zbewalgo_table t;
		const struct zbewalgo_table *tp = &t;
		double worst = 0;
		int wk = 0, level = ZBEWALGO_DEFAULT_LEVEL, preset = 0;

		if (!strncmp(list[i], "level", 5)) {
			level = atoi(list[i] + 5);
			preset = level;
			tp = zbewalgo_preset_table(level);
		} else if (zbewalgo_table_parse(&t, list[i])) {
			fprintf(stderr, "zbewalgo_worst: table %d refused: %s\n",
				i, list[i]);
			return 2;
		}
		if (!tp)
			return 2;
		zbewalgo_ctx_set_level(ctx, level);
		zbewalgo_ctx_set_table(ctx, tp);
		zbewalgo_ctx_set_params(ctx, &params);
		for (k = 0; k < NR_KINDS; k++) {
			double best = 1e9;

			for (r = 0; r < reps; r++) {
				size_t len = CAP;
				double tm = now();

				if (zbewalgo_compress(ctx, pages[k], PAGE, dst,
						      &len)) {
					fprintf(stderr, "zbewalgo_worst: compress failed\n");
					return 2;
				}
				tm = now() - tm;
				if (tm < best)
					best = tm;
			}
			if (best > worst) {
				worst = best;
				wk = k;
			}
		}
		if (worst > worst_all)
			worst_all = worst;
		printf("%-8s %6u %-12s %10.1f %10.1f %10.1f\n",
		       i < 3 && list == tables ? list[i] : "custom",
		       zbewalgo_table_steps(tp), kind_names[wk], worst * 1e6,
		       worst / zt[wk], worst / zmax);
		if (list != tables || i >= 3)
			printf("#   %s\n", list[i]);
		if (preset == ZSWAP_LEVEL)
			zswap = worst / zmax;
	}
	if (zswap)
		printf("# zswap (crypto API, level %d's preset): slowest page %.1f x zstd-3's slowest, at most %.0f: %s\n",
		       ZSWAP_LEVEL, zswap, ZSWAP_BOUND,
		       zswap <= ZSWAP_BOUND ? "PASS" : "FAIL");
	printf("# slowest page of all: %.1f us, %.1f x zstd-3's slowest\n",
	       worst_all * 1e6, worst_all / zmax);
	zbewalgo_ctx_destroy(ctx);
	ZSTD_freeCCtx(cctx);
	return 0;
}
