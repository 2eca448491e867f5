/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space stand-in for <linux/zstd.h>: the part of the kernel's zstd
 * API zbewalgo uses, mapped onto libzstd's static-allocation API, which
 * the kernel's wrappers call too.
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

static inline size_t zstd_compress_cctx(zstd_cctx *cctx, void *dst,
					size_t dst_capacity, const void *src,
					size_t src_size,
					const zstd_parameters *params)
{
	size_t ret;

	/* deprecated in libzstd, but the call the kernel's wrapper makes */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	ret = ZSTD_compress_advanced(cctx, dst, dst_capacity, src, src_size,
				     NULL, 0, *params);
#pragma GCC diagnostic pop
	return ret;
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

#endif
