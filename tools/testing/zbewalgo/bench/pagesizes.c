// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo_pagesizes: every page's size, for the pcodec anchor
 * (anchors.py, `make anchors`).
 *
 *   zbewalgo_pagesizes [-l LEVEL] FILE...
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
 * at least the threshold of the header line.  Uses the public API only.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <linux/zbewalgo.h>
#include <linux/zstd.h>	/* the shim's: zstd as the kernel calls it */

#include "../load_pages.h"

#define PAGE	4096
#define CAP	(2 * PAGE + 64)

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
};

/* Prints the sizes of one file's pages; false on a round-trip mismatch. */
static bool one_file(struct coders *c, const char *path)
{
	static unsigned char out[CAP], back[PAGE];
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

		slen = zstd_compress_cctx(c->cctx, out, CAP, p, PAGE, &c->zp);
		if (zstd_is_error(slen))
			slen = 0;
		if (slen && (ZSTD_decompressDCtx(c->dctx, back, PAGE, out,
						 slen) != PAGE ||
			     memcmp(back, p, PAGE))) {
			fprintf(stderr, "%s: page %zu: zstd round trip failed\n",
				path, i);
			ok = false;
		}
		printf("%zu k %zu %d %zu\n", i, zlen, stored, slen);
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
	if (i >= argc || (level && !zbewalgo_preset_table(level)) ||
	    !c.zc || !c.zd || !c.cctx || !c.dctx) {
		fprintf(stderr, "usage: zbewalgo_pagesizes [-l LEVEL] FILE...\n");
		return 2;
	}
	/* as bench's zbewalgo: results at or above zram's threshold fail */
	zbewalgo_default_params(&params, PAGE);
	zbewalgo_ctx_set_params(c.zc, &params);
	if (level) {
		zbewalgo_ctx_set_level(c.zc, level);
		zbewalgo_ctx_set_table(c.zc, zbewalgo_preset_table(level));
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
