// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo step "rle": byte run-length coding.  The encoder turns every
 * run of 3 or more equal bytes into repeat runs of at most 130 bytes (a
 * remainder of 1 or 2 bytes joins the following literals) and packs the
 * bytes in between into literal runs of at most 128 bytes.
 */

/**
 * DOC: rle step format
 *
 * No header: a sequence of runs ending exactly at the end of the input.
 * Each run starts with a control byte ``c``.  If ``c < 128``, the next
 * ``c + 1`` bytes (1..128) are copied to the output.  If ``c >= 128``, one
 * byte follows that is written ``c - 125`` times (3..130).  An empty input
 * encodes to an empty output.  Any sequence of such runs is a valid
 * encoding; a run cut short by the end of the input is invalid.
 */

#include "../core/zbewalgo_internal.h"

#define RLE_LIT_MAX	128u
#define RLE_REP_MIN	3u
#define RLE_REP_MAX	130u
/* Writes @len literal bytes from @src in runs; returns new @out or 0. */
static __always_inline unsigned int rle_literals(const u8 *src,
						 unsigned int len, u8 *dst,
						 unsigned int out,
						 unsigned int dcap)
{
	while (len) {
		unsigned int l = min(len, RLE_LIT_MAX);

		if (l >= dcap - out)
			return 0;
		dst[out] = l - 1;
		memcpy(dst + out + 1, src, l);
		out += l + 1;
		src += l;
		len -= l;
	}
	return out;
}

static int rle_encode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	unsigned int i = 0, lit = 0, out = 0;

	while (i + 2 < slen) {
		unsigned int j, lim;
		u64 pat, x, y;
		u8 b;

		/* Skip 8 positions at a time where no 3 equal bytes start. */
		if (i + 10 <= slen) {
			x = get_unaligned((const u64 *)(src + i + 1));
			y = zbw_zero_bytes(get_unaligned((const u64 *)(src + i)) ^ x) &
			    zbw_zero_bytes(get_unaligned((const u64 *)(src + i + 2)) ^ x);
			if (!y) {
				i += 8;
				continue;
			}
		}
		b = src[i];
		if (src[i + 1] != b || src[i + 2] != b) {
			i++;
			continue;
		}
		lim = min(slen, i + RLE_REP_MAX);
		j = i + RLE_REP_MIN;
		pat = b * ZBW_ONES;
		while (j + 8 <= lim && get_unaligned((const u64 *)(src + j)) == pat)
			j += 8;
		while (j < lim && src[j] == b)
			j++;
		if (i > lit) {
			out = rle_literals(src + lit, i - lit, dst, out, dcap);
			if (!out)
				return -ENOSPC;
		}
		if (dcap - out < 2)
			return -ENOSPC;
		dst[out] = j - i - RLE_REP_MIN + 128;
		dst[out + 1] = b;
		out += 2;
		i = j;
		lit = j;
	}
	if (slen > lit) {
		out = rle_literals(src + lit, slen - lit, dst, out, dcap);
		if (!out)
			return -ENOSPC;
	}
	return out;
}

static int rle_decode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	unsigned int i = 0, out = 0, len;

	while (i < slen) {
		u8 c = src[i++];

		if (c < 128) {
			len = c + 1;
			if (len > slen - i || len > dcap - out)
				return -EINVAL;
			/* short runs: two words when both buffers have room */
			if (len <= 16 && slen - i >= 16 && dcap - out >= 16)
				memcpy(dst + out, src + i, 16);
			else
				memcpy(dst + out, src + i, len);
			i += len;
		} else {
			len = c - 128 + RLE_REP_MIN;
			if (i >= slen || len > dcap - out)
				return -EINVAL;
			if (len <= 16 && dcap - out >= 16) {
				put_unaligned(src[i] * ZBW_ONES, (u64 *)(dst + out));
				put_unaligned(src[i] * ZBW_ONES, (u64 *)(dst + out + 8));
			} else {
				memset(dst + out, src[i], len);
			}
			i++;
		}
		out += len;
	}
	return out;
}

const struct zbewalgo_step zbewalgo_step_RLE = {
	.encode		= rle_encode,
	.decode		= rle_decode,
	.scratch_size	= NULL,
};
