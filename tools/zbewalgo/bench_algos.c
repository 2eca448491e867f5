// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo bench: the algorithms it measures, each set up as zram's
 * backend sets it up, and their list (see bench.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lz4.h>
#include <lz4hc.h>
#include <lzo/lzo1x.h>
#define ZSTD_STATIC_LINKING_ONLY	/* CDicts with a page's parameters */
#include <zstd.h>

#include <linux/zstd.h>	/* the shim's: zstd as the kernel calls it */

#include "bench.h"

/* The kernel's lib/lzo, vendored in lzo-rle/ and renamed at build time. */
int kernel_lzorle1x_1_compress(const unsigned char *src, size_t src_len,
			       unsigned char *dst, size_t *dst_len,
			       void *wrkmem);
int kernel_lzo1x_decompress_safe(const unsigned char *src, size_t src_len,
				 unsigned char *dst, size_t *dst_len);
#define KERNEL_LZO1X_MEM_COMPRESS	(8192 * sizeof(unsigned short))

/* ---- zbewalgo ----------------------------------------------------------- */

const void *bench_dict;
size_t bench_dict_len;

/*
 * zbewalgo with --dict's dictionary as zram's dict= gives it: loaded once
 * for the level, shared by the compressing and the decompressing stream.
 */
static int zbw_init_dict(struct algo *a, size_t page)
{
	int level = a->level > 0 ? a->level : ZBEWALGO_DEFAULT_LEVEL;

	if (zbewalgo_dict_create(bench_dict, bench_dict_len, level, page,
				 &a->dict))
		return -1;
	if (zbewalgo_ctx_set_dict(a->cstate, a->dict) ||
	    zbewalgo_ctx_set_dict(a->dstate, a->dict))
		return -1;
	return 0;
}

static int zbw_init(struct algo *a, size_t page)
{
	struct zbewalgo_params p;

	a->cstate = zbewalgo_ctx_create_for(page, NULL, 0, a->uses_dict);
	/* a stream of its own, as zram's per-CPU streams decompress */
	a->dstate = zbewalgo_ctx_create_for(page, NULL, 0, a->uses_dict);
	if (!a->cstate || !a->dstate)
		return -1;
	zbewalgo_default_params(&p, page);
	/* zram drops results at or above the threshold; so does zbewalgo. */
	p.max_output_size = a->threshold;
	if (a->early_abort >= 0)
		p.early_abort_size = a->early_abort;
	zbewalgo_ctx_set_params(a->cstate, &p);
	zbewalgo_ctx_set_table(a->cstate, a->table);
	if (a->level > 0)
		zbewalgo_ctx_set_level(a->cstate, a->level);
	return a->uses_dict ? zbw_init_dict(a, page) : 0;
}

static void zbw_fini(struct algo *a)
{
	zbewalgo_ctx_destroy(a->cstate);
	zbewalgo_ctx_destroy(a->dstate);
	zbewalgo_dict_destroy(a->dict);
	a->dict = NULL;
}

static size_t zbw_comp(struct algo *a, const void *src, size_t slen,
		       void *dst, size_t cap)
{
	return zbewalgo_compress(a->cstate, src, slen, dst, &cap) ? 0 : cap;
}

static size_t zbw_decomp(struct algo *a, const void *src, size_t slen,
			 void *dst, size_t cap)
{
	return zbewalgo_ctx_decompress(a->dstate, src, slen, dst, &cap) ?
	       0 : cap;
}

/* Whether @a is one of the zbewalgo algorithms (with or without --dict). */
bool bench_is_zbewalgo(const struct algo *a)
{
	return a->init == zbw_init;
}

/* ---- lz4, lz4hc: zram's backend_lz4{,hc}.c, one state per stream ------- */

static int lz4_init(struct algo *a, size_t page)
{
	a->cstate = malloc(LZ4_sizeofState());
	return a->cstate ? 0 : -1;
}

static int lz4hc_init(struct algo *a, size_t page)
{
	a->cstate = malloc(LZ4_sizeofStateHC());
	return a->cstate ? 0 : -1;
}

static void free_states(struct algo *a)
{
	free(a->cstate);
	free(a->dstate);
}

static size_t lz4_comp(struct algo *a, const void *src, size_t slen,
		       void *dst, size_t cap)
{
	return tool_lz4_compress(a->cstate, src, slen, dst, cap, a->level);
}

static size_t lz4hc_comp(struct algo *a, const void *src, size_t slen,
			 void *dst, size_t cap)
{
	int n = LZ4_compress_HC_extStateHC(a->cstate, src, dst, slen, cap,
					   a->level);

	return n > 0 ? n : 0;
}

static size_t lz4_decomp(struct algo *a, const void *src, size_t slen,
			 void *dst, size_t cap)
{
	return tool_lz4_decompress(src, slen, dst, cap);
}

/* ---- lzo1x-1 (liblzo2) and lzo-rle (the kernel's lib/lzo) --------------- */

static int lzo1x_init(struct algo *a, size_t page)
{
	if (lzo_init() != LZO_E_OK)
		return -1;
	a->cstate = malloc(LZO1X_1_MEM_COMPRESS);
	return a->cstate ? 0 : -1;
}

static size_t lzo_comp(struct algo *a, const void *src, size_t slen,
		       void *dst, size_t cap)
{
	lzo_uint n = cap;

	/* lzo1x-1 writes at most slen + slen / 16 + 67: cap is 2 pages. */
	if (lzo1x_1_compress(src, slen, dst, &n, a->cstate) != LZO_E_OK)
		return 0;
	return n <= cap ? n : 0;
}

static size_t lzo_decomp(struct algo *a, const void *src, size_t slen,
			 void *dst, size_t cap)
{
	lzo_uint n = cap;

	if (lzo1x_decompress_safe(src, slen, dst, &n, NULL) != LZO_E_OK)
		return 0;
	return n;
}

static int lzorle_init(struct algo *a, size_t page)
{
	a->cstate = malloc(KERNEL_LZO1X_MEM_COMPRESS);
	return a->cstate ? 0 : -1;
}

static size_t lzorle_comp(struct algo *a, const void *src, size_t slen,
			  void *dst, size_t cap)
{
	size_t n = cap;

	/* As zram: the unchecked compressor into a 2-page buffer. */
	if (kernel_lzorle1x_1_compress(src, slen, dst, &n, a->cstate))
		return 0;
	return n <= cap ? n : 0;
}

static size_t lzorle_decomp(struct algo *a, const void *src, size_t slen,
			    void *dst, size_t cap)
{
	size_t n = cap;

	if (kernel_lzo1x_decompress_safe(src, slen, dst, &n))
		return 0;
	return n;
}

/* ---- zstd: zram's backend_zstd.c uses the level's parameters for a page */

static int zstd_init(struct algo *a, size_t page)
{
	a->cstate = ZSTD_createCCtx();
	a->dstate = ZSTD_createDCtx();
	return a->cstate && a->dstate ? 0 : -1;
}

static void zstd_fini(struct algo *a)
{
	ZSTD_freeCCtx(a->cstate);
	ZSTD_freeDCtx(a->dstate);
}

static size_t zstd_comp(struct algo *a, const void *src, size_t slen,
			void *dst, size_t cap)
{
	return tool_zstd_compress(a->cstate, src, slen, dst, cap, a->level);
}

static size_t zstd_decomp(struct algo *a, const void *src, size_t slen,
			  void *dst, size_t cap)
{
	return tool_zstd_decompress(a->dstate, src, slen, dst, cap);
}

/*
 * ---- zstd as zram calls it: backend_zstd.c takes zstd_get_params(level,
 * PAGE_SIZE) once, then zstd_compress_cctx() for every page, which resets
 * the context and sets each parameter (the shim's, as the kernel's).
 * zstd-N derives the same parameters from each page's size in
 * ZSTD_compressCCtx(): the same bytes by another path.
 */
struct zram_zstd_state {
	zstd_cctx *cctx;
	zstd_parameters params;
};

static int zram_zstd_init(struct algo *a, size_t page)
{
	struct zram_zstd_state *z = calloc(1, sizeof(*z));

	a->cstate = z;
	a->dstate = ZSTD_createDCtx();
	if (!z || !a->dstate)
		return -1;
	z->cctx = ZSTD_createCCtx();
	z->params = zstd_get_params(a->level, page);
	return z->cctx ? 0 : -1;
}

static void zram_zstd_fini(struct algo *a)
{
	struct zram_zstd_state *z = a->cstate;

	if (z)
		ZSTD_freeCCtx(z->cctx);
	free(z);
	ZSTD_freeDCtx(a->dstate);
}

static size_t zram_zstd_comp(struct algo *a, const void *src, size_t slen,
			     void *dst, size_t cap)
{
	struct zram_zstd_state *z = a->cstate;
	size_t n = zstd_compress_cctx(z->cctx, dst, cap, src, slen, &z->params);

	return zstd_is_error(n) ? 0 : n;
}

/*
 * ---- zstd with zram's dict=: backend_zstd.c builds a CDict and a DDict
 * by reference, with the level's parameters for a page, once per device.
 * The dictionary is --dict's file; without it these are not run.
 */
struct zstd_dict_state {
	ZSTD_CCtx *cctx;
	ZSTD_DCtx *dctx;
	ZSTD_CDict *cdict;
	ZSTD_DDict *ddict;
};

static void zstd_dict_fini(struct algo *a)
{
	struct zstd_dict_state *z = a->cstate;

	if (!z)
		return;
	ZSTD_freeCCtx(z->cctx);
	ZSTD_freeDCtx(z->dctx);
	ZSTD_freeCDict(z->cdict);
	ZSTD_freeDDict(z->ddict);
	free(z);
	a->cstate = NULL;
}

static int zstd_dict_init(struct algo *a, size_t page)
{
	struct zstd_dict_state *z = calloc(1, sizeof(*z));
	ZSTD_compressionParameters cp;

	a->cstate = z;
	if (!z || !bench_dict)
		return -1;
	/* zram's backend_zstd: zstd_get_cparams(level, PAGE_SIZE, dict_sz) */
	cp = ZSTD_getCParams(a->level, page, bench_dict_len);
	z->cctx = ZSTD_createCCtx();
	z->dctx = ZSTD_createDCtx();
	z->cdict = ZSTD_createCDict_advanced(bench_dict, bench_dict_len,
					     ZSTD_dlm_byRef, ZSTD_dct_auto, cp,
					     ZSTD_defaultCMem);
	z->ddict = ZSTD_createDDict_byReference(bench_dict, bench_dict_len);
	if (!z->cctx || !z->dctx || !z->cdict || !z->ddict) {
		zstd_dict_fini(a);
		return -1;
	}
	return 0;
}

static size_t zstd_dict_comp(struct algo *a, const void *src, size_t slen,
			     void *dst, size_t cap)
{
	struct zstd_dict_state *z = a->cstate;
	size_t n = ZSTD_compress_usingCDict(z->cctx, dst, cap, src, slen,
					    z->cdict);

	return ZSTD_isError(n) ? 0 : n;
}

static size_t zstd_dict_decomp(struct algo *a, const void *src, size_t slen,
			       void *dst, size_t cap)
{
	struct zstd_dict_state *z = a->cstate;
	size_t n = ZSTD_decompress_usingDDict(z->dctx, dst, cap, src, slen,
					      z->ddict);

	return ZSTD_isError(n) ? 0 : n;
}

/*
 * ---- deflate: crypto/deflate.c and zram's backend_deflate.c ------------
 * Raw deflate (negative windowBits) with a 2 KiB window (11 bits),
 * memLevel MAX_MEM_LEVEL (9), Z_DEFAULT_COMPRESSION (level 6); streams are
 * reset, not re-created, for each page.
 */
#define DEFLATE_WINBITS	11

static int deflate_init(struct algo *a, size_t page)
{
	memset(&a->zc, 0, sizeof(a->zc));
	memset(&a->zd, 0, sizeof(a->zd));
	if (deflateInit2(&a->zc, a->level, Z_DEFLATED, -DEFLATE_WINBITS,
			 MAX_MEM_LEVEL, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	if (inflateInit2(&a->zd, -DEFLATE_WINBITS) != Z_OK) {
		deflateEnd(&a->zc);
		return -1;
	}
	return 0;
}

static void deflate_fini(struct algo *a)
{
	deflateEnd(&a->zc);
	inflateEnd(&a->zd);
}

static size_t deflate_comp(struct algo *a, const void *src, size_t slen,
			   void *dst, size_t cap)
{
	if (deflateReset(&a->zc) != Z_OK)
		return 0;
	a->zc.next_in = (unsigned char *)src;
	a->zc.avail_in = slen;
	a->zc.next_out = dst;
	a->zc.avail_out = cap;
	if (deflate(&a->zc, Z_FINISH) != Z_STREAM_END)
		return 0;
	return a->zc.total_out;
}

static size_t deflate_decomp(struct algo *a, const void *src, size_t slen,
			     void *dst, size_t cap)
{
	if (inflateReset(&a->zd) != Z_OK)
		return 0;
	a->zd.next_in = (unsigned char *)src;
	a->zd.avail_in = slen;
	a->zd.next_out = dst;
	a->zd.avail_out = cap;
	if (inflate(&a->zd, Z_FINISH) != Z_STREAM_END)
		return 0;
	return a->zd.total_out;
}

/* ---- memcpy: the physical limit; every page is stored as is ------------ */

static size_t copy_comp(struct algo *a, const void *src, size_t slen,
			void *dst, size_t cap)
{
	memcpy(dst, src, slen);
	return slen;
}

/* ---- the algorithm list -------------------------------------------------- */

#define ZBW(n, lvl) { .name = n, .init = zbw_init, .fini = zbw_fini, \
		      .comp = zbw_comp, .decomp = zbw_decomp, .level = lvl }

#define ZSTD_DICT(n, lvl) { .name = n, .init = zstd_dict_init, \
			    .fini = zstd_dict_fini, .comp = zstd_dict_comp, \
			    .decomp = zstd_dict_decomp, .level = lvl, \
			    .uses_dict = true }

#define ZBW_DICT(n, lvl) { .name = n, .init = zbw_init, .fini = zbw_fini, \
			   .comp = zbw_comp, .decomp = zbw_decomp, \
			   .level = lvl, .uses_dict = true }

/* Level -1: the -c table; 0: the default table; 1..3: presets. */
const struct algo bench_templates[] = {
	ZBW("zbewalgo", 0),
	ZBW("zbewalgo-1", 1),
	ZBW("zbewalgo-2", 2),
	ZBW("zbewalgo-3", 3),
	ZBW("zbewalgo-custom", -1),
	{ .name = "lz4", .init = lz4_init, .fini = free_states,
	  .comp = lz4_comp, .decomp = lz4_decomp, .level = 1 },
	{ .name = "lz4hc-9", .init = lz4hc_init, .fini = free_states,
	  .comp = lz4hc_comp, .decomp = lz4_decomp, .level = 9 },
	{ .name = "lzo1x-1", .init = lzo1x_init, .fini = free_states,
	  .comp = lzo_comp, .decomp = lzo_decomp },
	{ .name = "lzo-rle", .init = lzorle_init, .fini = free_states,
	  .comp = lzorle_comp, .decomp = lzorle_decomp },
	{ .name = "zstd-1", .init = zstd_init, .fini = zstd_fini,
	  .comp = zstd_comp, .decomp = zstd_decomp, .level = 1 },
	{ .name = "zstd-3", .init = zstd_init, .fini = zstd_fini,
	  .comp = zstd_comp, .decomp = zstd_decomp, .level = 3 },
	{ .name = "zram-zstd-1", .init = zram_zstd_init, .fini = zram_zstd_fini,
	  .comp = zram_zstd_comp, .decomp = zstd_decomp, .level = 1 },
	{ .name = "zram-zstd-3", .init = zram_zstd_init, .fini = zram_zstd_fini,
	  .comp = zram_zstd_comp, .decomp = zstd_decomp, .level = 3 },
	{ .name = "zstd-8", .init = zstd_init, .fini = zstd_fini,
	  .comp = zstd_comp, .decomp = zstd_decomp, .level = 8,
	  .opt_in = true },
	ZSTD_DICT("zstd-1+dict", 1),
	ZSTD_DICT("zstd-3+dict", 3),
	ZSTD_DICT("zstd-8+dict", 8),
	ZBW_DICT("zbewalgo+dict", 0),
	ZBW_DICT("zbewalgo-1+dict", 1),
	ZBW_DICT("zbewalgo-3+dict", 3),
	{ .name = "deflate", .init = deflate_init, .fini = deflate_fini,
	  .comp = deflate_comp, .decomp = deflate_decomp,
	  .level = Z_DEFAULT_COMPRESSION },
	{ .name = "memcpy", .comp = copy_comp, .raw_only = true },
};
_Static_assert(sizeof(bench_templates) / sizeof(bench_templates[0]) ==
	       BENCH_NR_TEMPLATES, "BENCH_NR_TEMPLATES counts bench_templates");

const struct algo *bench_find_template(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < BENCH_NR_TEMPLATES; i++)
		if (strlen(bench_templates[i].name) == len &&
		    !strncmp(bench_templates[i].name, name, len))
			return &bench_templates[i];
	return NULL;
}

void bench_describe(struct algo *a)
{
	const char *n = a->name;

	if (a->init == zbw_init) {
		char buf[sizeof(a->params) - 80], ea[48] = "";

		tool_table_line(a->table, ';', buf, sizeof(buf));
		if (a->early_abort >= 0)
			snprintf(ea, sizeof(ea), "; early_abort_size %ld",
				 a->early_abort);
		snprintf(a->params, sizeof(a->params), "%s table: %s%s",
			 a->level > 0 ? "preset" : a->level ? "-c" : "default",
			 buf, ea);
	} else if (!strcmp(n, "lz4")) {
		snprintf(a->params, sizeof(a->params),
			 "LZ4_compress_fast acceleration %d (liblz4 %s)",
			 a->level, LZ4_versionString());
	} else if (!strcmp(n, "lz4hc-9")) {
		snprintf(a->params, sizeof(a->params),
			 "LZ4_compress_HC level %d (liblz4 %s)", a->level,
			 LZ4_versionString());
	} else if (!strcmp(n, "lzo1x-1")) {
		snprintf(a->params, sizeof(a->params),
			 "lzo1x_1_compress (liblzo2 %s)", lzo_version_string());
	} else if (!strcmp(n, "lzo-rle")) {
		snprintf(a->params, sizeof(a->params),
			 "lzorle1x_1_compress (Linux 6.12 lib/lzo)");
	} else if (a->init == zstd_init) {
		snprintf(a->params, sizeof(a->params),
			 "level %d (libzstd %s)", a->level,
			 ZSTD_versionString());
	} else if (a->init == zram_zstd_init) {
		snprintf(a->params, sizeof(a->params),
			 "ZSTD_getParams(%d, page size), then per page as the kernel's zstd_compress_cctx() (libzstd %s)",
			 a->level, ZSTD_versionString());
	} else if (a->init == deflate_init) {
		snprintf(a->params, sizeof(a->params),
			 "raw deflate, windowBits -%d, memLevel %d, level %d (default 6) (zlib %s)",
			 DEFLATE_WINBITS, MAX_MEM_LEVEL, a->level,
			 zlibVersion());
	} else if (a->init == zstd_dict_init) {
		snprintf(a->params, sizeof(a->params),
			 "level %d with --dict's dictionary, ZSTD_getCParams(%d, page size, dictionary size) (libzstd %s)",
			 a->level, a->level, ZSTD_versionString());
	} else {
		snprintf(a->params, sizeof(a->params),
			 "pages stored as they are");
	}
}
