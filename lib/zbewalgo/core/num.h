/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The num2, num4 and num8 steps: what their decoder (num.c, with the
 * format) and their encoder (num_pick.c, with the probe's estimate, and
 * num_enc.c) share.
 */
#ifndef __ZBEWALGO_NUM_H
#define __ZBEWALGO_NUM_H

#include <linux/bits.h>
#include <linux/swab.h>

#include "bitstream.h"
#include "huffman.h"

#define NUM_Q_MAX	3
/* bins at q = NUM_Q_MAX of a 64-bit value: 8 exact, then 61 octaves of 8 */
#define NUM_BINS3	((64 - NUM_Q_MAX + 1) << NUM_Q_MAX)
/* the candidates are told apart at a coarser q, in fewer bins */
#define NUM_PICK_Q	2
#define NUM_BINS2	((64 - NUM_PICK_Q + 1) << NUM_PICK_Q)
#define NUM_SYMS	256
/* differences taken at most */
#define NUM_ORDER_MAX	3
#define NUM_CODE_BITS	ZBW_HUF_MAX_BITS

#define NUM_MODE_VIEW		0x03
#define NUM_MODE_ORDER_SHIFT	2
#define NUM_MODE_ORDER		0x0c
#define NUM_MODE_FACTOR		0x10
#define NUM_MODE_SHIFT		0x20
#define NUM_MODE_ONE		0x40
#define NUM_MODE_BIG_ENDIAN	0x80
/* both at once: the lag byte follows the mode, with its own factor and shift */
#define NUM_MODE_LAG		(NUM_MODE_FACTOR | NUM_MODE_SHIFT)

/* the lag byte: the lag less one, then the factor and the shift */
#define NUM_LAG_MINUS1		0x1f
#define NUM_LAG_FACTOR		0x20
#define NUM_LAG_SHIFT		0x40
#define NUM_LAG_MAX		32

enum { NUM_UNSIGNED, NUM_SIGNED, NUM_FLOAT, NUM_PALETTE };

/*
 * Distinct numbers a palette holds at most (num.c's format), an index
 * having NUM_PAL_BITS bits: pages of 257 to 512 distinct numbers still
 * gain from one, of more hardly ever
 */
#define NUM_PAL_BITS		9
#define NUM_PAL_MAX		BIT(NUM_PAL_BITS)
/* the palette's second byte: q, and its gaps' second differences */
#define NUM_PAL_Q		0x03
#define NUM_PAL_ORDER2		0x04

/**
 * struct num_view - how the numbers of a page are turned into values
 * @w: bytes per number
 * @view: NUM_UNSIGNED, NUM_SIGNED, NUM_FLOAT or NUM_PALETTE
 * @order: differences taken, 0..NUM_ORDER_MAX
 * @lag: numbers between the two of a difference, 1..NUM_LAG_MAX
 * @shift: low zero bits dropped (floats), 0 for none
 * @bits: the width W the view works in, 8 * @w - @shift
 * @factor: common factor g, 0 for none
 * @base: what the factor is counted from
 * @low: for order 0 without a factor, the smallest value
 */
struct num_view {
	unsigned int w;
	unsigned int view;
	unsigned int order;
	unsigned int lag;
	unsigned int shift;
	unsigned int bits;
	u64 factor;
	u64 base;
	u64 low;
};

static __always_inline u64 num_mask(unsigned int bits)
{
	return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}

static __always_inline u64 num_zigzag(u64 v, unsigned int bits)
{
	s64 s = (s64)(v << (64 - bits)) >> (64 - bits);

	return ((u64)s << 1 ^ (u64)(s >> 63)) & num_mask(bits);
}

static __always_inline u64 num_unzigzag(u64 z)
{
	return (z >> 1) ^ -(z & 1);
}

/* The view's value of a number @x whose low zero bits are dropped */
static __always_inline u64 num_to_view(u64 x, unsigned int view,
				       unsigned int bits)
{
	u64 sign = 1ULL << (bits - 1);

	if (view == NUM_SIGNED)
		return x ^ sign;
	if (view == NUM_FLOAT)
		return (x & sign ? ~x : x | sign) & num_mask(bits);
	return x;
}

static __always_inline u64 num_from_view(u64 y, unsigned int view,
					 unsigned int bits)
{
	u64 sign = 1ULL << (bits - 1);

	if (view == NUM_SIGNED)
		return y ^ sign;
	if (view == NUM_FLOAT)
		return (y & sign ? y ^ sign : ~y) & num_mask(bits);
	return y;
}

/* The bin of @r at q = NUM_Q_MAX */
static __always_inline unsigned int num_bin3(u64 r)
{
	unsigned int e;

	if (r < (1u << NUM_Q_MAX))
		return r;
	e = fls64(r) - 1;
	return (e - NUM_Q_MAX + 1) << NUM_Q_MAX |
	       ((r >> (e - NUM_Q_MAX)) & ((1u << NUM_Q_MAX) - 1));
}

/* The bin of @r at @q, and its offset bits in *@obits */
static __always_inline unsigned int num_bin(u64 r, unsigned int q,
					    unsigned int *obits)
{
	unsigned int e;

	if (r < (1u << q)) {
		*obits = 0;
		return r;
	}
	e = fls64(r) - 1;
	*obits = e - q;
	return (e - q + 1) << q | ((r >> (e - q)) & ((1u << q) - 1));
}

static const u8 num_mantissa[9] = { [2] = 10, [4] = 23, [8] = 52 };

/* The @m words of @w bytes at @src, byte-reversed, to @dst (may be @src) */
static inline void zbw_num_swap(u8 *dst, const u8 *src, unsigned int m,
				unsigned int w)
{
	unsigned int i;
	u64 x;

	for (i = 0; i < m; i++) {
		x = zbw_get_word(src, i, w);
		x = w == 8 ? swab64(x) : w == 4 ? swab32(x) : swab16(x);
		zbw_put_word(x, dst, i, w);
	}
}

size_t zbw_num_enc_size(unsigned int max_len);
int zbw_num2_encode(const u8 *src, unsigned int slen, u8 *dst,
		    unsigned int dcap, void *scratch);
int zbw_num4_encode(const u8 *src, unsigned int slen, u8 *dst,
		    unsigned int dcap, void *scratch);
int zbw_num8_encode(const u8 *src, unsigned int slen, u8 *dst,
		    unsigned int dcap, void *scratch);

#endif /* __ZBEWALGO_NUM_H */
