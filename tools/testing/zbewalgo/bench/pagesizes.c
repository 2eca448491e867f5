// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo_pagesizes: every page's size, for the pcodec anchor
 * (anchors.py, `make anchors`), and with -t its decoding time, for the
 * numeric pages' decompression (numdec.py, `make numdec`).
 *
 *   zbewalgo_pagesizes [-l LEVEL] [-t] FILE...
 *
 * Cuts each FILE into 4 KiB pages as `zbewalgo bench --drop-same` does
 * (the last page zero-padded; same-filled pages and repeats of an earlier
 * page of the same file marked, not compressed) and compresses every
 * other page on its own with zbewalgo (the library's default table and
 * level, or LEVEL's preset) and with zstd-3 as zram calls it
 * (zstd_get_params(3, page size), then zstd_compress_cctx() per page,
 * through the tool's stand-in for <linux/zstd.h>).  Both are given zram's
 * huge-class threshold as bench gives it.  Every result is decoded and
 * compared with its page; a mismatch exits 1.  Prints, per file, a line
 * "file PAGES PATH", then a line per page:
 *
 *   INDEX KIND ZBW STORED ZSTD
 *
 * KIND is k (compressed), s (same-filled) or d (a repeat); ZBW and ZSTD
 * are the bytes each produced (0: no result), STORED is 1 when zbewalgo
 * wrote the stored form.  zram keeps a page whole when its result is 0 or
 * at least the threshold of the header line.  With -t each line goes on
 *
 *   STEP ZBW_NS ZSTD_NS
 *
 * STEP being the first step of the chain zbewalgo's result used ("-" for
 * the stored form), ZBW_NS and ZSTD_NS the fastest of TIME_REPS decodes
 * of each result, in nanoseconds (0: no result).  Uses the public API
 * only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <linux/zbewalgo.h>
#include <linux/zstd.h>	/* the shim's: zstd as the kernel calls it */

#include "../load_pages.h"

#define PAGE	4096
#define CAP	(2 * PAGE + 64)
/* decodes of a page timed, the fastest kept: one is too noisy */
#define TIME_REPS	5

/* zram's page_same_filled(): every word equal to the first */
static bool same_filled(const unsigned char *p)
{
	size_t i;

	for (i = sizeof(unsigned long); i < PAGE; i += sizeof(unsigned long))
		if (memcmp(p, p + i, sizeof(unsigned long)))
			return false;
	return true;
}

static uint64_t page_hash(const unsigned char *p)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a, as bench's */
	size_t i;

	for (i = 0; i < PAGE; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

struct coders {
	struct zbewalgo_ctx *zc, *zd;
	ZSTD_CCtx *cctx;
	ZSTD_DCtx *dctx;
	zstd_parameters zp;
	const struct zbewalgo_table *table;
	bool timed;
};

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + t.tv_nsec;
}

/* The fastest of TIME_REPS decodes of @len bytes at @in, in ns; 0 for none */
static uint64_t decode_ns(struct coders *c, bool zstd, const unsigned char *in,
			  size_t len)
{
	static unsigned char back[PAGE];
	uint64_t best = UINT64_MAX, t;
	size_t dlen;
	int r;

	if (!len)
		return 0;
	for (r = 0; r < TIME_REPS; r++) {
		dlen = PAGE;
		t = now_ns();
		if (zstd)
			ZSTD_decompressDCtx(c->dctx, back, PAGE, in, len);
		else
			zbewalgo_ctx_decompress(c->zd, in, len, back, &dlen);
		t = now_ns() - t;
		if (t < best)
			best = t;
	}
	return best;
}

/* The first step of the chain of zbewalgo's last result, "-" when stored */
static const char *first_step(const struct coders *c)
{
	const struct zbewalgo_result *r = zbewalgo_ctx_last_result(c->zc);
	const char *name;

	if (r->stored || r->comb < 0)
		return "-";
	name = zbewalgo_step_name(c->table->comb[r->comb].ids[0]);
	return name ? name : "?";
}

/* Prints the sizes of one file's pages; false on a round-trip mismatch. */
static bool one_file(struct coders *c, const char *path)
{
	static unsigned char out[CAP], zout[CAP], back[PAGE];
	size_t n, i, k, slots = 1, *slot;
	unsigned char *data = load_pages(path, PAGE, true, &n);
	bool ok = true;

	while (slots < 2 * n)
		slots <<= 1;
	slot = malloc(slots * sizeof(*slot));
	if (!slot)
		exit(2);
	for (i = 0; i < slots; i++)
		slot[i] = SIZE_MAX;
	printf("file %zu %s\n", n, path);
	for (i = 0; i < n; i++) {
		const unsigned char *p = data + i * PAGE;
		size_t zlen = CAP, slen, dlen;
		int stored;

		if (same_filled(p)) {
			printf("%zu s 0 0 0\n", i);
			continue;
		}
		k = page_hash(p) & (slots - 1);
		while (slot[k] != SIZE_MAX && memcmp(data + slot[k] * PAGE, p, PAGE))
			k = (k + 1) & (slots - 1);
		if (slot[k] != SIZE_MAX) {
			printf("%zu d 0 0 0\n", i);
			continue;
		}
		slot[k] = i;

		if (zbewalgo_compress(c->zc, p, PAGE, out, &zlen))
			zlen = 0;
		stored = zlen && zbewalgo_ctx_last_result(c->zc)->stored;
		dlen = PAGE;
		if (zlen && (zbewalgo_ctx_decompress(c->zd, out, zlen, back,
						     &dlen) ||
			     dlen != PAGE || memcmp(back, p, PAGE))) {
			fprintf(stderr, "%s: page %zu: zbewalgo round trip failed\n",
				path, i);
			ok = false;
		}

		slen = zstd_compress_cctx(c->cctx, zout, CAP, p, PAGE, &c->zp);
		if (zstd_is_error(slen))
			slen = 0;
		if (slen && (ZSTD_decompressDCtx(c->dctx, back, PAGE, zout,
						 slen) != PAGE ||
			     memcmp(back, p, PAGE))) {
			fprintf(stderr, "%s: page %zu: zstd round trip failed\n",
				path, i);
			ok = false;
		}
		printf("%zu k %zu %d %zu", i, zlen, stored, slen);
		if (c->timed)
			printf(" %s %llu %llu", zlen ? first_step(c) : "-",
			       (unsigned long long)decode_ns(c, false, out, zlen),
			       (unsigned long long)decode_ns(c, true, zout,
							     slen));
		putchar('\n');
	}
	free(slot);
	free(data);
	return ok;
}

int main(int argc, char **argv)
{
	struct coders c = {
		.zc = zbewalgo_ctx_create(PAGE),
		.zd = zbewalgo_ctx_create(PAGE),
		.cctx = ZSTD_createCCtx(),
		.dctx = ZSTD_createDCtx(),
		.zp = zstd_get_params(3, PAGE),
	};
	struct zbewalgo_params params;
	int level = 0, i = 1;
	bool ok = true;

	if (argc > 2 && !strcmp(argv[1], "-l")) {
		level = atoi(argv[2]);
		i = 3;
	}
	if (i < argc && !strcmp(argv[i], "-t")) {
		c.timed = true;
		i++;
	}
	if (i >= argc || (level && !zbewalgo_preset_table(level)) ||
	    !c.zc || !c.zd || !c.cctx || !c.dctx) {
		fprintf(stderr, "usage: zbewalgo_pagesizes [-l LEVEL] [-t] FILE...\n");
		return 2;
	}
	/* as bench's zbewalgo: results at or above zram's threshold fail */
	zbewalgo_default_params(&params, PAGE);
	zbewalgo_ctx_set_params(c.zc, &params);
	c.table = level ? zbewalgo_preset_table(level) :
			  zbewalgo_table_default();
	if (level) {
		zbewalgo_ctx_set_level(c.zc, level);
		zbewalgo_ctx_set_table(c.zc, c.table);
	}
	printf("# zbewalgo_pagesizes: %d-byte pages, threshold %u, zbewalgo %s%d, zstd-3 as zram (libzstd %s)\n",
	       PAGE, params.max_output_size, level ? "level " :
	       "default table, level ", level ? level : ZBEWALGO_DEFAULT_LEVEL,
	       ZSTD_versionString());
	for (; i < argc; i++)
		ok &= one_file(&c, argv[i]);
	zbewalgo_ctx_destroy(c.zc);
	zbewalgo_ctx_destroy(c.zd);
	ZSTD_freeCCtx(c.cctx);
	ZSTD_freeDCtx(c.dctx);
	return ok ? 0 : 1;
}
