// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo bench - page-wise comparison with other compressors
 *
 * Files are cut into independent pages exactly as zram sees them; every
 * algorithm compresses every page on its own, round trips are verified
 * while measuring, and times are the median of several repetitions.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lz4.h>
#include <zstd.h>

#include <linux/zbewalgo.h>

#include "zbewalgo_tool.h"

struct algo;

typedef size_t (*comp_fn)(struct algo *a, const void *src, size_t slen,
			  void *dst, size_t cap);
typedef size_t (*decomp_fn)(struct algo *a, const void *src, size_t slen,
			    void *dst, size_t cap);

struct algo {
	const char *name;
	comp_fn comp;
	decomp_fn decomp;
	int level;
	struct zbewalgo_ctx *zctx;
	ZSTD_CCtx *zcctx;
	ZSTD_DCtx *zdctx;
	void *scratch;
};

/* Each compressor returns 0 for "does not fit", which counts as stored. */
static size_t zbw_comp(struct algo *a, const void *src, size_t slen,
		       void *dst, size_t cap)
{
	return zbewalgo_compress(a->zctx, src, slen, dst, &cap) ? 0 : cap;
}

static size_t zbw_decomp(struct algo *a, const void *src, size_t slen,
			 void *dst, size_t cap)
{
	return zbewalgo_decompress(src, slen, dst, &cap, a->scratch) ? 0 : cap;
}

static size_t lz4_comp(struct algo *a, const void *src, size_t slen,
		       void *dst, size_t cap)
{
	return LZ4_compress_default(src, dst, slen, cap);
}

static size_t lz4_decomp(struct algo *a, const void *src, size_t slen,
			 void *dst, size_t cap)
{
	int n = LZ4_decompress_safe(src, dst, slen, cap);

	return n < 0 ? 0 : n;
}

static size_t zstd_comp(struct algo *a, const void *src, size_t slen,
			void *dst, size_t cap)
{
	size_t n = ZSTD_compressCCtx(a->zcctx, dst, cap, src, slen, a->level);

	return ZSTD_isError(n) ? 0 : n;
}

static size_t zstd_decomp(struct algo *a, const void *src, size_t slen,
			  void *dst, size_t cap)
{
	size_t n = ZSTD_decompressDCtx(a->zdctx, dst, cap, src, slen);

	return ZSTD_isError(n) ? 0 : n;
}

static size_t copy_comp(struct algo *a, const void *src, size_t slen,
			void *dst, size_t cap)
{
	memcpy(dst, src, slen);
	return slen;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct figures {
	double ratio_zram, ratio_plain, incompressible_pct;
	double comp_mibps, decomp_mibps;
	bool roundtrip_ok;
};

#define REPS_MAX 15

/*
 * Compresses all pages @reps times (median time), keeps the compressed
 * pages of the last repetition, decompresses them @reps times and
 * verifies every page.
 */
static void measure(struct algo *a, const unsigned char *data, size_t len,
		    size_t page, size_t threshold, int reps,
		    struct figures *fig)
{
	size_t npages = (len + page - 1) / page, cap = 2 * page + 64;
	unsigned char *comp = malloc(npages * cap), *out = malloc(page);
	size_t *clen = calloc(npages, sizeof(*clen));
	unsigned long long zram = 0, plain = 0, incompressible = 0;
	double tc[REPS_MAX], td[REPS_MAX], t;
	size_t i;
	int r;

	fig->roundtrip_ok = true;
	for (r = 0; r < reps; r++) {
		t = now();
		for (i = 0; i < npages; i++) {
			size_t n = len - i * page < page ? len - i * page : page;

			clen[i] = a->comp(a, data + i * page, n, comp + i * cap,
					  cap);
		}
		tc[r] = now() - t;
	}
	for (i = 0; i < npages; i++) {
		size_t n = len - i * page < page ? len - i * page : page;
		size_t c = clen[i] ? clen[i] : n;

		plain += c;
		if (!clen[i] || c >= threshold) {
			zram += page;
			incompressible++;
		} else {
			zram += c;
		}
	}
	for (r = 0; r < reps; r++) {
		t = now();
		for (i = 0; i < npages; i++) {
			size_t n = len - i * page < page ? len - i * page : page;

			if (!clen[i] || !a->decomp)
				continue;
			if (a->decomp(a, comp + i * cap, clen[i], out, page) != n ||
			    memcmp(out, data + i * page, n))
				fig->roundtrip_ok = false;
		}
		td[r] = now() - t;
	}
	qsort(tc, reps, sizeof(double), cmp_double);
	qsort(td, reps, sizeof(double), cmp_double);
	fig->ratio_zram = (double)npages * page / zram;
	fig->ratio_plain = (double)len / plain;
	fig->incompressible_pct = 100.0 * incompressible / npages;
	fig->comp_mibps = len / tc[reps / 2] / (1 << 20);
	fig->decomp_mibps = a->decomp ? len / td[reps / 2] / (1 << 20) : 0;
	free(clen);
	free(out);
	free(comp);
}

static void bench_usage(FILE *f)
{
	fprintf(f,
"usage: zbewalgo bench [options] FILE...\n"
"  -c, --combinations TABLE  zbewalgo combination table\n"
"  -r, --reps N              repetitions per measurement (median; default 5)\n"
"  -t, --threshold N         zram huge-class size: results >= N count as a\n"
"                            full page (default 3264)\n"
"  -p, --page-size N         page size (default 4096)\n");
}

int bench_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "combinations", required_argument, NULL, 'c' },
		{ "reps", required_argument, NULL, 'r' },
		{ "threshold", required_argument, NULL, 't' },
		{ "page-size", required_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	struct algo algos[] = {
		{ .name = "zbewalgo", .comp = zbw_comp, .decomp = zbw_decomp },
		{ .name = "lz4", .comp = lz4_comp, .decomp = lz4_decomp },
		{ .name = "zstd-1", .comp = zstd_comp, .decomp = zstd_decomp,
		  .level = 1 },
		{ .name = "zstd-3", .comp = zstd_comp, .decomp = zstd_decomp,
		  .level = 3 },
		{ .name = "memcpy", .comp = copy_comp },
	};
	size_t nalgos = sizeof(algos) / sizeof(algos[0]);
	size_t page = 4096, threshold = 3264, i;
	struct zbewalgo_table *table = NULL;
	int reps = 5, c, ret = 0, f;

	optind = 1;
	while ((c = getopt_long(argc, argv, "c:r:t:p:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			free(table);
			table = calloc(1, sizeof(*table));
			if (!table || zbewalgo_table_parse(table, optarg)) {
				fprintf(stderr, "zbewalgo: bad combination table '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'r':
			reps = atoi(optarg);
			if (reps < 1 || reps > REPS_MAX) {
				fprintf(stderr, "zbewalgo: reps must be 1..%d\n",
					REPS_MAX);
				return 2;
			}
			break;
		case 't':
			threshold = strtoul(optarg, NULL, 0);
			break;
		case 'p':
			page = strtoul(optarg, NULL, 0);
			if (!page || page > ZBEWALGO_MAX_INPUT) {
				fprintf(stderr, "zbewalgo: bad page size\n");
				return 2;
			}
			break;
		case 'h':
			bench_usage(stdout);
			return 0;
		default:
			bench_usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		bench_usage(stderr);
		return 2;
	}
	for (i = 0; i < nalgos; i++) {
		algos[i].zctx = zbewalgo_ctx_create(page);
		algos[i].scratch = malloc(zbewalgo_decompress_scratch_size(page));
		algos[i].zcctx = ZSTD_createCCtx();
		algos[i].zdctx = ZSTD_createDCtx();
		if (table)
			zbewalgo_ctx_set_table(algos[i].zctx, table);
	}
	printf("%-14s %-9s %6s %10s %10s %8s %10s %10s %6s %6s %s\n",
	       "file", "algorithm", "pages", "ratio_zram", "ratio_plain",
	       "incomp%", "comp_MiB/s", "dec_MiB/s", "c/lz4", "d/lz4",
	       "roundtrip");
	for (f = optind; f < argc; f++) {
		struct figures fig[sizeof(algos) / sizeof(algos[0])];
		const char *base = strrchr(argv[f], '/');
		unsigned char *data;
		size_t len;
		FILE *in = tool_open(argv[f], "rb");

		if (!in || tool_read_all(in, &data, &len)) {
			ret = 1;
			continue;
		}
		if (in != stdin)
			fclose(in);
		base = base ? base + 1 : argv[f];
		for (i = 0; i < nalgos; i++) {
			measure(&algos[i], data, len, page, threshold, reps,
				&fig[i]);
			if (!fig[i].roundtrip_ok)
				ret = 1;
		}
		for (i = 0; i < nalgos; i++)
			printf("%-14.14s %-9s %6zu %10.3f %10.3f %8.1f %10.1f %10.1f %6.3f %6.3f %s\n",
			       base, algos[i].name, (len + page - 1) / page,
			       fig[i].ratio_zram, fig[i].ratio_plain,
			       fig[i].incompressible_pct, fig[i].comp_mibps,
			       fig[i].decomp_mibps,
			       fig[i].comp_mibps / fig[1].comp_mibps,
			       fig[i].decomp_mibps / fig[1].decomp_mibps,
			       fig[i].roundtrip_ok ? "ok" : "FAILED");
		free(data);
	}
	for (i = 0; i < nalgos; i++) {
		zbewalgo_ctx_destroy(algos[i].zctx);
		free(algos[i].scratch);
		ZSTD_freeCCtx(algos[i].zcctx);
		ZSTD_freeDCtx(algos[i].zdctx);
	}
	free(table);
	return ret;
}
