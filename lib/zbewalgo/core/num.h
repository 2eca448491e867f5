/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The num2, num4 and num8 steps: their format, and what their decoder
 * (num.c) and their encoder (num_pick.c, with the probe's estimate, and
 * num_enc.c) share.
 */
#ifndef __ZBEWALGO_NUM_H
#define __ZBEWALGO_NUM_H

#include <linux/bits.h>
#include <linux/swab.h>

#include "bitstream.h"
#include "huffman.h"

/**
 * DOC: num2, num4 and num8 step format
 *
 * For a word size ``w`` (2, 4 or 8) and ``B = 8w``, the output is:
 *
 * - ``mode``, one byte: bits 0-1 the view (0: unsigned, 1: signed, its
 *   sign bit flipped; 2: IEEE float, ``y = x | sign`` for a clear sign
 *   bit, ``~x`` for a set one; 3: palette, below), bits 2-3 the order
 *   ``d`` of differences (0 to 3), bit 4 a common factor (views 0 and 1),
 *   bit 5 a shift (view 2), bit 6 one bin for all values (no code
 *   lengths), bit 7 big-endian numbers (each number's bytes are reversed
 *   before the view and after decoding); bits 4 and 5 with another view
 *   are invalid; both together mean a lag byte, next;
 * - with bits 4 and 5 together, the lag byte: bits 0-4 ``L - 1`` (1 to
 *   31: the lag ``L`` is 2 to 32), bit 5 a common factor and bit 6 a
 *   shift (as bits 4 and 5 of the mode byte are without a lag, with the
 *   same views), bit 7 zero; ``d`` is at least 1.  Without it ``L = 1``
 *   and bits 4 and 5 of the mode byte are the factor and the shift;
 * - the input length ``n``, a varint (zbw_put_len()); ``m = n / w``
 *   numbers;
 * - with view 3, the palette: the ``c`` distinct numbers of the input,
 *   ``u[0] < u[1] < ... < u[c - 1]`` (after the byte reversal of bit 7):
 *   ``c - 1`` as a varint (``c`` at most 512), ``u[0]`` in ``w`` bytes;
 *   for ``c >= 2`` one byte (bits 0-1 a ``q``, bit 2 ``p``, bits 3-7
 *   zero), ``lo`` and ``nsym - 1`` and, unless ``nsym`` is 1, code
 *   lengths, all as for the numbers below; then the length of the
 *   palette's stream in bytes, a varint, and the stream, which holds for
 *   ``i = 1 .. c - 1`` the gap ``g[i] = u[i] - u[i - 1] - 1`` as a value
 *   (``p = 0``), or with ``g[0] = 0`` its difference ``g[i] - g[i - 1]``
 *   modulo ``2^B`` stored signed as below (``p = 1``): each as its bin's
 *   code (none for one bin) and offset, in bins of ``W = B`` bits.  Each
 *   ``u[i]``, summed modulo ``2^B``, must exceed ``u[i - 1]``.  Then
 *   ``W = B`` and the values ``k`` are indices into the palette: each
 *   must be below ``c`` and stands for ``u[k]``;
 * - with the shift, one byte: bits 0-5 ``t`` (1..mantissa bits: 10, 23
 *   or 52), bit 6 zero, bit 7 exceptions: every number's low ``t`` bits
 *   are dropped, and the view works on the ``W = B - t`` bits left, its
 *   sign bit at ``W - 1``; else ``W = B``.  Without bit 7 they are zero in
 *   every number.  With it, ``e - 1`` in one byte (``e`` at most 64), then
 *   the ``e`` numbers whose low bits are not, in increasing order, each as
 *   its index less the index after the one before (the first: its index),
 *   a varint, and its low ``t`` bits, not all zero, in ``ceil(t / 8)``
 *   bytes, little-endian; every index below ``m``;
 * - with the factor, ``base`` and ``g`` (``g`` >= 2), ``w`` bytes each,
 *   little-endian: the viewed values are ``y = base + g * k``;
 *   otherwise ``k = y``;
 * - with ``d = 0``, no factor and a view other than 3, ``low``, ``w``
 *   bytes: ``k = low + r`` (``k = r`` in view 3);
 * - ``min(dL, m)`` raw values, ``w`` bytes each, little-endian: for
 *   ``i < dL`` the ``j``-th difference at number ``i``, ``j = i / L``,
 *   modulo ``2^W`` (with ``L = 1``: ``k[0]``, then ``k[1] - k[0]``, then
 *   ``k[2] - 2k[1] + k[0]``); the ``j``-th difference at number
 *   ``i >= jL`` is ``k[i]`` for ``j = 0``, else the ``(j - 1)``-th at
 *   ``i`` less the ``(j - 1)``-th at ``i - L``;
 * - one byte ``q`` (0..3), then ``lo`` as a varint and one byte
 *   ``nsym - 1``: the bins ``lo .. lo + nsym - 1`` (every bin below 2^21);
 * - without bit 6, ``nsym`` code lengths of 4 bits each (0: bin unused,
 *   at most 11), two to a byte, low nibble first: a complete canonical
 *   prefix code, codes of equal length in bin order;
 * - the last ``n % w`` input bytes;
 * - the length of stream A in bytes, a varint, stream A, then stream B
 *   to the end of the output: two LSB-first bit streams (0..7 zero bits
 *   pad the last byte of each), A for the remaining numbers
 *   ``dL, dL + 2, ...``, B for ``dL + 1, dL + 3, ...`` (two streams decode
 *   side by side), each number as its bin's code (none with bit 6, where
 *   the bin is ``lo``) and then its offset in ``obits`` bits.
 *
 * Bin ``b`` covers, for ``b < 2^q``, the value ``b`` alone (``obits = 0``);
 * otherwise with ``e = (b >> q) - 1 + q`` and ``f = b & (2^q - 1)`` the
 * ``2^(e - q)`` values from ``(2^q + f) << (e - q)`` on (``obits = e - q``,
 * ``e < W``).  A value ``r`` is, for ``d = 0``, ``k - low`` (0 with a
 * factor) and otherwise the ``d``-th difference modulo ``2^W``, read as a
 * signed ``W``-bit number ``s`` and stored as ``2s`` (``s >= 0``) or
 * ``-2s - 1``.  Decoding sums the differences back modulo ``2^W``, forms
 * ``y`` from ``k`` (``u[k]`` in view 3), undoes the view and the shift,
 * sets the exceptions' low bits, and stores each number little-endian,
 * then the tail bytes.
 */

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

/*
 * The shift byte: the low zero bits dropped, and whether exceptions
 * follow, numbers whose dropped bits are not all zero (a few odd ones
 * must not cost the page its shift)
 */
#define NUM_SHIFT_BITS		0x3f
#define NUM_SHIFT_EXC		0x80
#define NUM_EXC_MAX		64
#define NUM_EXC_PER		8

enum { NUM_UNSIGNED, NUM_SIGNED, NUM_FLOAT, NUM_PALETTE };

/*
 * Distinct numbers a palette holds at most (the format above), an index
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

/*
 * The zigzag form of @v as a number of @bits bits: twice it, all bits
 * flipped when it is negative (its top bit, of @bits, is set)
 */
static __always_inline u64 num_zigzag(u64 v, unsigned int bits)
{
	return (v << 1 ^ -((v >> (bits - 1)) & 1)) & num_mask(bits);
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

/*
 * The mantissa bits of an IEEE float of @w bytes (2, 4 or 8).  A function,
 * not a table: a table in this header is unused in some of its includers.
 */
static __always_inline unsigned int num_mantissa(unsigned int w)
{
	return w == 2 ? 10 : w == 4 ? 23 : 52;
}

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
