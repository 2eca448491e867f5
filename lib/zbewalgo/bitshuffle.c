// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo steps "bitshuffle4" and "bitshuffle8": byte-plane transpose.
 *
 * Format: no header; the output is exactly as long as the input.  For a
 * word size w (4 or 8) an input of n bytes holds m = n / w whole words.
 * Plane j (0 <= j < w) is the m bytes src[i * w + j] for i = 0..m-1, i.e.
 * byte j of every word.  The output is plane 0, plane 1, ..., plane w-1,
 * followed by the last n % w input bytes unchanged.  Every byte string is
 * a valid encoding, so decoding only fails when the output does not fit.
 * Grouping the bytes of equal significance of 32 or 64 bit values makes
 * their similarities visible to the byte oriented steps that follow.
 */
#include "zbewalgo_internal.h"

static __always_inline int bs_encode(const u8 *src, unsigned int slen,
				     u8 *dst, unsigned int dcap,
				     unsigned int w)
{
	unsigned int m = slen / w, i, j;

	if (slen > dcap)
		return -ENOSPC;
	for (i = 0; i < m; i++)
		for (j = 0; j < w; j++)
			dst[j * m + i] = src[i * w + j];
	memcpy(dst + m * w, src + m * w, slen - m * w);
	return slen;
}

static __always_inline int bs_decode(const u8 *src, unsigned int slen,
				     u8 *dst, unsigned int dcap,
				     unsigned int w)
{
	unsigned int m = slen / w, i, j;

	if (slen > dcap)
		return -EINVAL;
	for (i = 0; i < m; i++)
		for (j = 0; j < w; j++)
			dst[i * w + j] = src[j * m + i];
	memcpy(dst + m * w, src + m * w, slen - m * w);
	return slen;
}

static int bs4_encode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	return bs_encode(src, slen, dst, dcap, 4);
}

static int bs4_decode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	return bs_decode(src, slen, dst, dcap, 4);
}

static int bs8_encode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	return bs_encode(src, slen, dst, dcap, 8);
}

static int bs8_decode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	return bs_decode(src, slen, dst, dcap, 8);
}

const struct zbewalgo_step zbewalgo_step_bitshuffle4 = {
	.name		= "bitshuffle4",
	.id		= ZBEWALGO_STEP_BITSHUFFLE4,
	.encode		= bs4_encode,
	.decode		= bs4_decode,
	.scratch_size	= NULL,
};

const struct zbewalgo_step zbewalgo_step_bitshuffle8 = {
	.name		= "bitshuffle8",
	.id		= ZBEWALGO_STEP_BITSHUFFLE8,
	.encode		= bs8_encode,
	.decode		= bs8_decode,
	.scratch_size	= NULL,
};
