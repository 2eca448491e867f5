// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo step "huffman4": the four quarters of the input, each with its
 * own Huffman code.
 *
 * Format: a varint n (the decoded length, see zbw_put_len()), then four
 * sections, as in the "lz" step: a varint v and v >> 1 bytes, which are a
 * "huffman" step encoding of the quarter when v is odd and the quarter
 * itself when v is even.  Quarters 0 to 2 are n / 4 bytes long, quarter 3
 * is the rest; each section must decode to exactly its quarter, and the
 * last one ends at the end of the input.
 *
 * After bitshuffle4 the quarters are the byte planes of 4-byte words.
 * Those of float32 values differ: mantissa bytes are nearly random and
 * cost 8 bits each whatever the code, the sign and exponent byte takes
 * few values.  One code over all planes averages them and codes neither
 * well; a code per plane stores the random ones and spends about a bit on
 * each exponent byte.
 */
#include "zbewalgo_internal.h"

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
