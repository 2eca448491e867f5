// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo steps "delta2", "delta4" and "delta8": differences of 2-, 4- or
 * 8-byte words.
 *
 * Neighbouring elements of a smooth float64 field share sign, exponent and
 * the top of the mantissa: their difference as integers has zero high
 * bytes where the values themselves have none, which the byte-plane steps
 * that follow can then remove.
 */

/**
 * DOC: delta2, delta4 and delta8 step format
 *
 * No header; output length equals input length; every input is valid.
 * For a word size ``w`` (2, 4 or 8) an input of ``n`` bytes holds
 * ``m = n / w`` whole words ``y[0..m-1]``, each ``w`` bytes little-endian.
 * Decoding gives ``x[0] = y[0]`` and ``x[i] = x[i - 1] + y[i]`` modulo
 * ``2^(8w)``, stored little-endian, then the last ``n % w`` input bytes
 * unchanged.  (The encoder writes ``y[i] = x[i] - x[i - 1]``.)
 */

#include "zbewalgo_internal.h"

/* Word @i of @src minus @prev to @dst; returns word @i */
static __always_inline u64 delta_put(const u8 *src, u8 *dst, unsigned int i,
				     u64 prev, unsigned int w)
{
	u64 x = zbw_get_word(src, i, w);

	zbw_put_word(x - prev, dst, i, w);
	return x;
}

/* @x plus word @i of @src to @dst; returns the sum */
static __always_inline u64 delta_add(const u8 *src, u8 *dst, unsigned int i,
				     u64 x, unsigned int w)
{
	x += zbw_get_word(src, i, w);
	zbw_put_word(x, dst, i, w);
	return x;
}

static __always_inline int delta_encode(const u8 *src, unsigned int slen,
					u8 *dst, unsigned int dcap,
					unsigned int w)
{
	unsigned int m = slen / w, i;
	u64 prev = 0;

	if (slen > dcap)
		return -ENOSPC;
	/* four words a step: the loop's own work is as much as a word's */
	for (i = 0; i + 4 <= m; i += 4) {
		prev = delta_put(src, dst, i, prev, w);
		prev = delta_put(src, dst, i + 1, prev, w);
		prev = delta_put(src, dst, i + 2, prev, w);
		prev = delta_put(src, dst, i + 3, prev, w);
	}
	for (; i < m; i++)
		prev = delta_put(src, dst, i, prev, w);
	memcpy(dst + m * w, src + m * w, slen - m * w);
	return slen;
}

static __always_inline int delta_decode(const u8 *src, unsigned int slen,
					u8 *dst, unsigned int dcap,
					unsigned int w)
{
	unsigned int m = slen / w, i;
	u64 x = 0;

	if (slen > dcap)
		return -EINVAL;
	for (i = 0; i + 4 <= m; i += 4) {
		x = delta_add(src, dst, i, x, w);
		x = delta_add(src, dst, i + 1, x, w);
		x = delta_add(src, dst, i + 2, x, w);
		x = delta_add(src, dst, i + 3, x, w);
	}
	for (; i < m; i++)
		x = delta_add(src, dst, i, x, w);
	memcpy(dst + m * w, src + m * w, slen - m * w);
	return slen;
}

ZBW_WORD_STEP(zbewalgo_step_DELTA2, delta, 2);
ZBW_WORD_STEP(zbewalgo_step_DELTA4, delta, 4);
ZBW_WORD_STEP(zbewalgo_step_DELTA8, delta, 8);
