/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space stand-in for <linux/zstd.h>: the part of the kernel's zstd
 * API zbewalgo uses, mapped onto libzstd the way the kernel's wrappers
 * (lib/zstd/zstd_{,de}compress_module.c) call it, so that both make the
 * same frames where the library versions agree.
 */
#ifndef ZBW_SHIM_LINUX_ZSTD_H
#define ZBW_SHIM_LINUX_ZSTD_H

#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <linux/compiler.h>

typedef ZSTD_CCtx zstd_cctx;
typedef ZSTD_DCtx zstd_dctx;
typedef ZSTD_parameters zstd_parameters;
typedef ZSTD_compressionParameters zstd_compression_parameters;

static inline unsigned int zstd_is_error(size_t code)
{
	return ZSTD_isError(code);
}

static inline zstd_parameters zstd_get_params(int level,
					      unsigned long long src_size)
{
	return ZSTD_getParams(level, src_size, 0);
}

static inline zstd_compression_parameters
zstd_get_cparams(int level, unsigned long long src_size, size_t dict_size)
{
	return ZSTD_getCParams(level, src_size, dict_size);
}

static inline size_t zstd_compress_bound(size_t src_size)
{
	return ZSTD_compressBound(src_size);
}

static inline size_t
zstd_cctx_workspace_bound(const zstd_compression_parameters *cparams)
{
	return ZSTD_estimateCCtxSize_usingCParams(*cparams);
}

static inline zstd_cctx *zstd_init_cctx(void *workspace, size_t size)
{
	return ZSTD_initStaticCCtx(workspace, size);
}

/* As the kernel does: every parameter set anew, the input size pledged */
static inline size_t zstd_compress_cctx(zstd_cctx *cctx, void *dst,
					size_t dst_capacity, const void *src,
					size_t src_size,
					const zstd_parameters *params)
{
	const ZSTD_compressionParameters *c = &params->cParams;
	const ZSTD_frameParameters *f = &params->fParams;
	const struct {
		ZSTD_cParameter p;
		int v;
	} set[] = {
		{ ZSTD_c_windowLog, c->windowLog },
		{ ZSTD_c_hashLog, c->hashLog },
		{ ZSTD_c_chainLog, c->chainLog },
		{ ZSTD_c_searchLog, c->searchLog },
		{ ZSTD_c_minMatch, c->minMatch },
		{ ZSTD_c_targetLength, c->targetLength },
		{ ZSTD_c_strategy, c->strategy },
		{ ZSTD_c_contentSizeFlag, f->contentSizeFlag },
		{ ZSTD_c_checksumFlag, f->checksumFlag },
		{ ZSTD_c_dictIDFlag, !f->noDictIDFlag },
	};
	size_t ret, i;

	ret = ZSTD_CCtx_reset(cctx, ZSTD_reset_session_and_parameters);
	if (!ZSTD_isError(ret))
		ret = ZSTD_CCtx_setPledgedSrcSize(cctx, src_size);
	for (i = 0; i < sizeof(set) / sizeof(set[0]) && !ZSTD_isError(ret);
	     i++)
		ret = ZSTD_CCtx_setParameter(cctx, set[i].p, set[i].v);
	if (ZSTD_isError(ret))
		return ret;
	return ZSTD_compress2(cctx, dst, dst_capacity, src, src_size);
}

static inline size_t zstd_dctx_workspace_bound(void)
{
	return ZSTD_estimateDCtxSize();
}

static inline zstd_dctx *zstd_init_dctx(void *workspace, size_t size)
{
	return ZSTD_initStaticDCtx(workspace, size);
}

static inline size_t zstd_decompress_dctx(zstd_dctx *dctx, void *dst,
					  size_t dst_capacity,
					  const void *src, size_t src_size)
{
	return ZSTD_decompressDCtx(dctx, dst, dst_capacity, src, src_size);
}

static inline size_t zstd_find_frame_compressed_size(const void *src,
						     size_t src_size)
{
	return ZSTD_findFrameCompressedSize(src, src_size);
}

/* Dictionaries, as lib/zstd/zstd_{,de}compress_module.c make and use them */
typedef ZSTD_CDict zstd_cdict;
typedef ZSTD_DDict zstd_ddict;
typedef ZSTD_customMem zstd_custom_mem;

static inline zstd_cdict *
zstd_create_cdict_byreference(const void *dict, size_t dict_size,
			      zstd_compression_parameters cparams,
			      zstd_custom_mem custom_mem)
{
	return ZSTD_createCDict_advanced(dict, dict_size, ZSTD_dlm_byRef,
					 ZSTD_dct_auto, cparams, custom_mem);
}

static inline size_t zstd_free_cdict(zstd_cdict *cdict)
{
	return ZSTD_freeCDict(cdict);
}

static inline size_t zstd_compress_using_cdict(zstd_cctx *cctx, void *dst,
					       size_t dst_capacity,
					       const void *src, size_t src_size,
					       const zstd_cdict *cdict)
{
	return ZSTD_compress_usingCDict(cctx, dst, dst_capacity, src, src_size,
					cdict);
}

static inline zstd_ddict *
zstd_create_ddict_byreference(const void *dict, size_t dict_size,
			      zstd_custom_mem custom_mem)
{
	return ZSTD_createDDict_advanced(dict, dict_size, ZSTD_dlm_byRef,
					 ZSTD_dct_auto, custom_mem);
}

static inline size_t zstd_free_ddict(zstd_ddict *ddict)
{
	return ZSTD_freeDDict(ddict);
}

static inline size_t zstd_decompress_using_ddict(zstd_dctx *dctx, void *dst,
						 size_t dst_capacity,
						 const void *src,
						 size_t src_size,
						 const zstd_ddict *ddict)
{
	return ZSTD_decompress_usingDDict(dctx, dst, dst_capacity, src,
					  src_size, ddict);
}

#endif
