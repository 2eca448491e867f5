// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo step "zstd": LZ77 and entropy coding by the kernel's zstd.
 *
 * The encoder writes zstd's default frame: the content size, no checksum,
 * no dictionary id.  zstd matches what the hand-made chains reach on text,
 * code and process memory, and after a byte-plane step on arrays of
 * numbers, at several times their speed.  Its contexts stay with the
 * zbewalgo context (the step's state): set up afresh for every page, zstd
 * spends more time clearing its tables and asking the CPU for its features
 * (cpuid, which traps to the hypervisor in a virtual machine) than
 * compressing.
 */

/**
 * DOC: zstd step format
 *
 * One Zstandard frame (RFC 8878) without its 4-byte magic number
 * ``28 b5 2f fd``, and nothing after it.  A decoder puts the magic number
 * back and decodes the frame as the kernel's zstd library does without a
 * dictionary; it rejects input that is not exactly one frame (a second
 * frame or a skippable frame after it included) and frames that decode to
 * more than the room the step has (at most the stage capacity).
 */

#include <linux/zstd.h>

#include "zbewalgo_internal.h"

/*
 * zstd's level for each zbewalgo level.  On the bench sets, level -1
 * takes 30% fewer instructions than 1 and loses 8% of the ratio; level 9
 * gains 2% over 3 (nothing on text) at two and a half times the time.
 */
static const int zbw_zstd_levels[ZBEWALGO_MAX_LEVEL] = { -1, 3, 3 };
#define ZBW_ZSTD_MAGIC_BYTES	4
static const u8 zbw_zstd_magic[ZBW_ZSTD_MAGIC_BYTES] = {
	0x28, 0xb5, 0x2f, 0xfd
};

/**
 * struct zbw_zstd_state - zstd's contexts, kept from page to page
 * @cctx: compression context
 * @dctx: decompression context
 * @params: the parameters of the current level
 * @max_len: largest page
 * @frame_size: bytes at the start of @mem for one frame with its magic
 *	number, as zstd writes it and as zstd reads it
 * @mem: that frame, then the workspaces of @cctx and of @dctx
 */
struct zbw_zstd_state {
	zstd_cctx *cctx;
	zstd_dctx *dctx;
	zstd_parameters params;
	unsigned int max_len;
	size_t frame_size;
	u8 mem[] __aligned(8);
};

/*
 * The compression parameters within zstd's parameters: they are its first
 * member (zstd_lib.h), which spares us zstd's mixed-case member names.
 */
static zstd_compression_parameters *zbw_zstd_cparams(zstd_parameters *params)
{
	return (zstd_compression_parameters *)params;
}

/* zstd's frame parameters are kept: a content size, no checksum. */
static zstd_parameters zbw_zstd_params(int level, unsigned int max_len)
{
	/* to zstd a size of 0 means unknown, which gets the largest tables */
	zstd_parameters params = zstd_get_params(zbw_zstd_levels[level - 1],
						 max_len ?: 1);
	zstd_compression_parameters *cp = zbw_zstd_cparams(&params);

	/*
	 * Hash tables no larger than the window: a quarter less memory for
	 * 4 KiB pages, the same ratio to 0.1% on the bench sets.
	 */
	cp->hashLog = min(cp->hashLog, cp->windowLog);
	cp->chainLog = min(cp->chainLog, cp->windowLog - 1);
	return params;
}

/* Frames of the stages of pages of up to @max_len bytes */
static size_t zbw_zstd_frame_size(unsigned int max_len)
{
	size_t cap = zbewalgo_stage_cap(max_len);

	return ALIGN(ZBW_ZSTD_MAGIC_BYTES + zstd_compress_bound(cap), 8);
}

/* A compression context for every level's parameters */
static size_t zbw_zstd_cctx_size(unsigned int max_len)
{
	size_t size = 0;
	int level;

	for (level = 1; level <= ZBEWALGO_MAX_LEVEL; level++) {
		zstd_parameters params = zbw_zstd_params(level, max_len);

		size = max(size,
			   zstd_cctx_workspace_bound(zbw_zstd_cparams(&params)));
	}
	return ALIGN(size, 8);
}

static size_t zstd_state_size(unsigned int max_len)
{
	return sizeof(struct zbw_zstd_state) + zbw_zstd_frame_size(max_len) +
	       zbw_zstd_cctx_size(max_len) + zstd_dctx_workspace_bound();
}

static void zstd_set_level(void *state, int level)
{
	struct zbw_zstd_state *st = state;

	st->params = zbw_zstd_params(level, st->max_len);
}

static int zstd_state_init(void *state, unsigned int max_len)
{
	struct zbw_zstd_state *st = state;
	size_t cctx_size = zbw_zstd_cctx_size(max_len);
	u8 *ws;

	st->max_len = max_len;
	zstd_set_level(st, ZBEWALGO_DEFAULT_LEVEL);
	st->frame_size = zbw_zstd_frame_size(max_len);
	ws = st->mem + st->frame_size;
	st->cctx = zstd_init_cctx(ws, cctx_size);
	st->dctx = zstd_init_dctx(ws + cctx_size, zstd_dctx_workspace_bound());
	/*
	 * zstd allocates nothing here: it refuses a workspace that is too
	 * small or misaligned, an invalid argument (as crypto/zstd.c says).
	 */
	return st->cctx && st->dctx ? 0 : -EINVAL;
}

static int zstd_encode(const u8 *src, unsigned int slen, u8 *dst,
		       unsigned int dcap, void *state)
{
	struct zbw_zstd_state *st = state;
	size_t n;

	n = zstd_compress_cctx(st->cctx, st->mem, st->frame_size, src, slen,
			       &st->params);
	if (zstd_is_error(n))
		return -EINVAL;
	n -= ZBW_ZSTD_MAGIC_BYTES;
	if (n > dcap)
		return -ENOSPC;
	memcpy(dst, st->mem + ZBW_ZSTD_MAGIC_BYTES, n);
	return n;
}

static int zstd_decode(const u8 *src, unsigned int slen, u8 *dst,
		       unsigned int dcap, void *state)
{
	struct zbw_zstd_state *st = state;
	size_t n, flen = ZBW_ZSTD_MAGIC_BYTES + slen;

	if (flen > st->frame_size)
		return -EINVAL;
	memcpy(st->mem, zbw_zstd_magic, ZBW_ZSTD_MAGIC_BYTES);
	memcpy(st->mem + ZBW_ZSTD_MAGIC_BYTES, src, slen);
	/* one frame, nothing after it: zstd would go on to the next */
	if (zstd_find_frame_compressed_size(st->mem, flen) != flen)
		return -EINVAL;
	n = zstd_decompress_dctx(st->dctx, dst, dcap, st->mem, flen);
	if (zstd_is_error(n))
		return -EINVAL;
	return n;
}

const struct zbewalgo_step zbewalgo_step_ZSTD = {
	.encode		= zstd_encode,
	.decode		= zstd_decode,
	.scratch_size	= NULL,
	.state_size	= zstd_state_size,
	.state_init	= zstd_state_init,
	.set_level	= zstd_set_level,
};
