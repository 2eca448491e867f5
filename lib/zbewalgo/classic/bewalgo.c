// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo step "bewalgo": run/literal coding of 8-byte words.  The
 * encoder emits a repeat for every run of words equal to the previous word
 * and literals for the words in between, both split into pieces of at most
 * 128 words.
 */

/**
 * DOC: bewalgo step format
 *
 * A varint ``n``, then tokens describing the ``m = n / 8`` words of the
 * input, then its ``t = n % 8`` last bytes raw.  A token is one byte ``c``.
 * ``c < 0x80`` is a literal: ``c + 1`` words (8 bytes each, as in the input)
 * follow.  ``c >= 0x80`` repeats the previous word (the last word produced
 * so far, all zero before the first) ``(c & 0x7f) + 1`` times.  Tokens must
 * produce exactly ``m`` words, and no byte may follow the tail.
 */

#include "../core/zbewalgo_internal.h"

/* Most words one token covers. */
#define BEWALGO_MAX_RUN	128

static int bewalgo_encode(const u8 *src, unsigned int slen, u8 *dst,
			  unsigned int dcap, void *scratch)
{
	unsigned int m = slen / 8, t = slen % 8, i = 0, j;
	const u8 *end = dst + dcap;
	int h;
	u64 prev = 0, w;
	u8 *out;

	h = zbw_put_size(dst, end, slen);
	if (h < 0)
		return h;
	out = dst + h;
	while (i < m) {
		w = get_unaligned((const u64 *)(src + 8 * i));
		j = i + 1;
		if (w == prev) {
			while (j < m && j - i < BEWALGO_MAX_RUN &&
			       get_unaligned((const u64 *)(src + 8 * j)) == prev)
				j++;
			if (out >= end)
				return -ENOSPC;
			*out++ = 0x80 | (j - i - 1);
		} else {
			/* A literal ends where a word repeats its predecessor. */
			prev = w;
			while (j < m && j - i < BEWALGO_MAX_RUN) {
				w = get_unaligned((const u64 *)(src + 8 * j));
				if (w == prev)
					break;
				prev = w;
				j++;
			}
			if ((size_t)(end - out) < 1 + 8 * (size_t)(j - i))
				return -ENOSPC;
			*out++ = j - i - 1;
			memcpy(out, src + 8 * i, 8 * (j - i));
			out += 8 * (j - i);
		}
		i = j;
	}
	if ((size_t)(end - out) < t)
		return -ENOSPC;
	memcpy(out, src + 8 * m, t);
	return out + t - dst;
}

static int bewalgo_decode(const u8 *src, unsigned int slen, u8 *dst,
			  unsigned int dcap, void *scratch)
{
	const u8 *in, *end = src + slen;
	unsigned int m, t, o = 0, cnt, k;
	int h;
	u64 prev = 0;
	u32 n;
	u8 c;

	h = zbw_get_size(src, end, dcap, &n);
	if (h < 0)
		return h;
	in = src + h;
	m = n / 8;
	t = n % 8;
	while (o < m) {
		if (in >= end)
			return -EINVAL;
		c = *in++;
		cnt = (c & 0x7f) + 1;
		if (cnt > m - o)
			return -EINVAL;
		if (c & 0x80) {
			for (k = 0; k < cnt; k++)
				put_unaligned(prev, (u64 *)(dst + 8 * (o + k)));
		} else {
			if ((size_t)(end - in) < 8 * (size_t)cnt)
				return -EINVAL;
			memcpy(dst + 8 * o, in, 8 * cnt);
			in += 8 * cnt;
			prev = get_unaligned((const u64 *)(in - 8));
		}
		o += cnt;
	}
	if ((size_t)(end - in) != t)
		return -EINVAL;
	memcpy(dst + 8 * m, in, t);
	return n;
}

const struct zbewalgo_step zbewalgo_step_BEWALGO = {
	.encode		= bewalgo_encode,
	.decode		= bewalgo_decode,
	.scratch_size	= NULL,
};
