// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo step "huffman4": the four quarters of the input, each with its
 * own Huffman code.
 *
 * After bitshuffle4 the quarters are the byte planes of 4-byte words.
 * Those of float32 values differ: mantissa bytes are nearly random and
 * cost 8 bits each whatever the code, the sign and exponent byte takes
 * few values.  One code over all planes averages them and codes neither
 * well; a code per plane stores the random ones and spends about a bit on
 * each exponent byte.
 */

/**
 * DOC: huffman4 step format
 *
 * A varint ``n``, then four sections, one for each quarter of the decoded
 * output: quarters 0, 1 and 2 are ``n / 4`` bytes long, quarter 3 the
 * remaining ``n - 3 * (n / 4)``.  A section is a varint ``v`` followed by
 * ``v >> 1`` bytes: when ``v`` is even these bytes are the quarter itself
 * and ``v >> 1`` must equal its length; when ``v`` is odd they are a
 * complete ``huffman`` (6) encoding whose decoded length must equal the
 * quarter's.  The last section ends at the end of the input.  (This is the
 * section format of ``lz``, with the lengths fixed by ``n``.)
 */

#include "../core/zbewalgo_internal.h"

#define HUF4_QUARTERS	4

static unsigned int huffman4_quarter(unsigned int n, unsigned int q)
{
	return q < HUF4_QUARTERS - 1 ? n / HUF4_QUARTERS :
				       n - (HUF4_QUARTERS - 1) * (n / HUF4_QUARTERS);
}

static int huffman4_encode(const u8 *src, unsigned int slen, u8 *dst,
			   unsigned int dcap, void *scratch)
{
	unsigned int q, pos, len;
	int ret;

	ret = zbw_put_size(dst, dst + dcap, slen);
	if (ret < 0)
		return ret;
	pos = ret;
	for (q = 0; q < HUF4_QUARTERS; q++) {
		len = huffman4_quarter(slen, q);
		ret = zbw_put_section(src, len, dst + pos, dcap - pos,
				      scratch);
		if (ret < 0)
			return ret;
		src += len;
		pos += ret;
	}
	return pos;
}

static int huffman4_decode(const u8 *src, unsigned int slen, u8 *dst,
			   unsigned int dcap, void *scratch)
{
	const u8 *end = src + slen, *p = src, *sec;
	unsigned int q, len;
	u32 n;
	int ret;

	ret = zbw_get_size(p, end, dcap, &n);
	if (ret < 0)
		return ret;
	p += ret;
	for (q = 0; q < HUF4_QUARTERS; q++) {
		len = huffman4_quarter(n, q);
		/* a coded quarter is decoded in place, with no room to spare */
		if (zbw_get_section(&p, end, dst, len, &sec, scratch) !=
		    (int)len)
			return -EINVAL;
		if (sec != dst)
			memcpy(dst, sec, len);
		dst += len;
	}
	return p == end ? n : -EINVAL;
}

static size_t huffman4_scratch_size(unsigned int max_len)
{
	return zbewalgo_step_HUFFMAN.scratch_size(max_len);
}

const struct zbewalgo_step zbewalgo_step_HUFFMAN4 = {
	.encode		= huffman4_encode,
	.decode		= huffman4_decode,
	.scratch_size	= huffman4_scratch_size,
};
