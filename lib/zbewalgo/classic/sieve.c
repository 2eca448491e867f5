// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo step "sieve4": zero 4-byte words taken out, their places kept
 * as run lengths.
 *
 * Sparse float32 fields (cloud water, land cells of an ocean model) are
 * zero words with islands of values.  Byte planes of the whole page spend
 * at least a bit per zero byte on every plane; sieved, the planes hold
 * only the values, and all run lengths come first so that the words stay
 * in step for a byte-plane transpose.
 */

/**
 * DOC: sieve4 step format
 *
 * A varint ``n``; the run lengths; the non-zero words; the tail.  The input
 * holds ``m = n / 4`` words of 4 bytes.  The run lengths are varints giving
 * the lengths of the maximal runs of zero words and of non-zero words (a
 * word is zero when its 4 bytes are), alternating and starting with a run
 * of zero words.  Only that first run may have length 0 (when the first
 * word is not zero); the runs add up to exactly ``m``, and there are none
 * when ``m`` is 0.  Then come the non-zero words in input order, 4 bytes
 * each as in the input, then the last ``n % 4`` input bytes; nothing
 * follows.  A zero word among the non-zero words is invalid, so each input
 * has exactly one encoding.
 */

#include "../core/zbewalgo_internal.h"

static int sieve4_encode(const u8 *src, unsigned int slen, u8 *dst,
			 unsigned int dcap, void *scratch)
{
	unsigned int m = slen / 4, i = 0, j, k, pos, nz = 0;
	const u8 *end = dst + dcap;
	bool zero = true;
	int ret;

	ret = zbw_put_size(dst, end, slen);
	if (ret < 0)
		return ret;
	pos = ret;
	while (i < m) {
		for (j = i; j < m; j++)
			if (!get_unaligned((const u32 *)(src + 4 * j)) != zero)
				break;
		k = zbw_put_len(dst + pos, end, j - i);
		if (!k)
			return -ENOSPC;
		pos += k;
		if (!zero)
			nz += j - i;
		zero = !zero;
		i = j;
	}
	if (dcap - pos < 4 * nz + slen % 4)
		return -ENOSPC;
	for (i = 0; i < m; i++) {
		u32 w = get_unaligned((const u32 *)(src + 4 * i));

		if (w) {
			put_unaligned(w, (u32 *)(dst + pos));
			pos += 4;
		}
	}
	memcpy(dst + pos, src + 4 * m, slen % 4);
	return pos + slen % 4;
}

/* Reads the runs of m > 0 words at @p: their size, or 0 if malformed */
static unsigned int sieve4_runs(const u8 *p, const u8 *end, unsigned int m,
				unsigned int *nz)
{
	unsigned int i = 0, k, pos = 0;
	bool zero = true;
	u32 run;

	*nz = 0;
	while (i < m) {
		k = zbw_get_len(p + pos, end, &run);
		if (!k || run > m - i || (!run && pos))
			return 0;
		pos += k;
		if (!zero)
			*nz += run;
		zero = !zero;
		i += run;
	}
	return pos;
}

static int sieve4_decode(const u8 *src, unsigned int slen, u8 *dst,
			 unsigned int dcap, void *scratch)
{
	const u8 *end = src + slen, *p, *words;
	unsigned int m, i = 0, k, nz = 0;
	bool zero = true;
	u32 n, run = 0, w;
	int ret;

	ret = zbw_get_size(src, end, dcap, &n);
	if (ret < 0)
		return ret;
	p = src + ret;
	m = n / 4;
	k = m ? sieve4_runs(p, end, m, &nz) : 0;
	if (m && !k)
		return -EINVAL;
	words = p + k;
	if (end - words != 4 * nz + n % 4)
		return -EINVAL;
	/* The runs are known to be well formed now. */
	while (i < m) {
		p += zbw_get_len(p, end, &run);
		if (zero) {
			memset(dst + 4 * i, 0, 4 * run);
			i += run;
		} else {
			for (; run; run--, i++, words += 4) {
				w = get_unaligned((const u32 *)words);
				if (!w)
					return -EINVAL;
				put_unaligned(w, (u32 *)(dst + 4 * i));
			}
		}
		zero = !zero;
	}
	memcpy(dst + 4 * m, words, n % 4);
	return n;
}

const struct zbewalgo_step zbewalgo_step_SIEVE4 = {
	.encode		= sieve4_encode,
	.decode		= sieve4_decode,
	.scratch_size	= NULL,
	.layout		= sieve4_encode,
};
