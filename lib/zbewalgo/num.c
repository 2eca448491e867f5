// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo steps "num2", "num4" and "num8": a page read as an array of 2-,
 * 4- or 8-byte numbers and coded number by number.
 *
 * Byte coders see a float array as bytes whose planes differ in entropy;
 * a number coder sees the numbers.  Each number is mapped to an unsigned
 * value that orders like it (an integer as it is or with its sign bit
 * flipped, an IEEE float by sign and magnitude), optionally divided by
 * the page's common factor or stripped of the low mantissa bits every
 * number has zero, then differenced up to twice.  What is left is split
 * into a bin (about its logarithm: the top bit and the q bits under it),
 * coded with a canonical prefix code fitted to the page, and the offset
 * in the bin, written as plain bits.  The encoder picks the view, the
 * differences and q that it estimates to take the fewest bits.
 */

/**
 * DOC: num2, num4 and num8 step format
 *
 * For a word size ``w`` (2, 4 or 8) and ``B = 8w``, the output is:
 *
 * - ``mode``, one byte: bits 0-1 the view (0: unsigned, 1: signed, its
 *   sign bit flipped; 2: IEEE float, ``y = x | sign`` for a clear sign
 *   bit, ``~x`` for a set one; 3 is invalid), bits 2-3 the order ``d`` of
 *   differences (0 to 3), bit 4 a common factor (views 0 and 1), bit 5 a
 *   shift (view 2), bit 6 one bin for all values (no code lengths), bit 7
 *   big-endian numbers (each number's bytes are reversed before the view
 *   and after decoding); bits 4 and 5 with the other view, and both
 *   together, are invalid;
 * - the input length ``n``, a varint (zbw_put_len()); ``m = n / w``
 *   numbers;
 * - with bit 5, one byte ``t`` (1..mantissa bits: 10, 23 or 52): every
 *   number's low ``t`` bits are zero and are dropped, and the view works on
 *   the ``W = B - t`` bits left, its sign bit at ``W - 1``; else ``W = B``;
 * - with bit 4, ``base`` and ``g`` (``g`` >= 2), ``w`` bytes each,
 *   little-endian: the viewed values are ``y = base + g * k``;
 *   otherwise ``k = y``;
 * - with ``d = 0`` and no factor, ``low``, ``w`` bytes: ``k = low + r``;
 * - ``min(d, m)`` raw values, ``w`` bytes each, little-endian: for
 *   ``i < d`` the ``i``-th difference at number ``i`` (``k[0]``, then
 *   ``k[1] - k[0]``, then ``k[2] - 2k[1] + k[0]``), modulo ``2^W``;
 * - one byte ``q`` (0..3), then ``lo`` as a varint and one byte
 *   ``nsym - 1``: the bins ``lo .. lo + nsym - 1`` (every bin below 2^21);
 * - without bit 6, ``nsym`` code lengths of 4 bits each (0: bin unused,
 *   at most 11), two to a byte, low nibble first: a complete canonical
 *   prefix code, codes of equal length in bin order;
 * - the last ``n % w`` input bytes;
 * - the length of stream A in bytes, a varint, stream A, then stream B
 *   to the end of the output: two LSB-first bit streams (0..7 zero bits
 *   pad the last byte of each), A for the remaining numbers
 *   ``d, d + 2, ...``, B for ``d + 1, d + 3, ...`` (two streams decode
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
 * ``y`` from ``k``, undoes the view and the shift, and stores each number
 * little-endian, then the tail bytes.
 */

#include <linux/swab.h>

#include "num.h"

/* The first value of bin @b at @q and its offset bits; false past @bits */
static bool num_bin_range(unsigned int b, unsigned int q, unsigned int bits,
			  u64 *lower, u8 *obits)
{
	unsigned int e;

	if (b < (1u << q)) {
		*lower = b;
		*obits = 0;
		return b < 2 || fls(b) <= bits;
	}
	e = (b >> q) - 1 + q;
	if (e >= bits)
		return false;
	*lower = (u64)((1u << q) | (b & ((1u << q) - 1))) << (e - q);
	*obits = e - q;
	return true;
}

/* The @m words of @w bytes at @src, byte-reversed, to @dst (may be @src) */
void zbw_num_swap(u8 *dst, const u8 *src, unsigned int m, unsigned int w)
{
	unsigned int i;
	u64 x;

	for (i = 0; i < m; i++) {
		x = zbw_get_word(src, i, w);
		x = w == 8 ? swab64(x) : w == 4 ? swab32(x) : swab16(x);
		zbw_put_word(x, dst, i, w);
	}
}

struct num_dec {
	u16 tab[1u << NUM_CODE_BITS];
	u64 lower[NUM_SYMS];
	u8 obits[NUM_SYMS];
	u8 order[NUM_SYMS];
	u8 len[NUM_SYMS];
};

static int num_get_word(const u8 **p, const u8 *end, unsigned int w, u64 *x)
{
	if (end - *p < w)
		return -EINVAL;
	*x = zbw_get_word(*p, 0, w);
	*p += w;
	return 0;
}

/* Take @n (<= 57 after a refill) bits */
static __always_inline u64 num_bits(struct zbw_bitr *r, unsigned int n)
{
	u64 v = r->buf & ((1ULL << n) - 1);

	r->buf >>= n;
	r->cnt -= n;
	return v;
}

/* Number @i's value, from the bit stream of @br, in the bins of @d */
static __always_inline void num_get_value(struct zbw_bitr *br, u8 *dst,
					  unsigned int i, unsigned int w,
					  bool one, const struct num_dec *d)
{
	unsigned int sym = 0, ob;
	u64 x;

	zbw_bitr_refill(br);
	if (!one) {
		u16 t = d->tab[br->buf & ((1u << NUM_CODE_BITS) - 1)];

		sym = t >> 8;
		num_bits(br, t & 0xff);
	}
	ob = d->obits[sym];
	if (w == 8 && ob > 32) {
		x = num_bits(br, 32);
		zbw_bitr_refill(br);
		x |= num_bits(br, ob - 32) << 32;
	} else {
		x = num_bits(br, ob);
	}
	zbw_put_word(x + d->lower[sym], dst, i, w);
}

/*
 * The values @from.. of the @m numbers of @w bytes as words at @dst, from
 * the bit streams of @br (A, B), in the bins of @d (the one bin 0 when
 * @one).
 */
static __always_inline void num_get_values(struct zbw_bitr *br, u8 *dst,
					   unsigned int from, unsigned int m,
					   unsigned int w, bool one,
					   const struct num_dec *d)
{
	unsigned int i;

	for (i = from; i + 1 < m; i += 2) {
		num_get_value(&br[0], dst, i, w, one, d);
		num_get_value(&br[1], dst, i + 1, w, one, d);
	}
	if (i < m)
		num_get_value(&br[0], dst, i, w, one, d);
}

/*
 * Number @i from its value @k in view @v, stored at @dst; @view is
 * v->view, or NUM_NR_VIEWS for a view with a factor, a constant in the
 * loops of num_undo().
 */
#define NUM_NR_VIEWS	3
static __always_inline void num_put_number(u8 *dst, unsigned int i, u64 k,
					   const struct num_view *v,
					   unsigned int view)
{
	u64 y;

	if (view == NUM_NR_VIEWS)
		y = num_from_view(v->base + k * v->factor, NUM_SIGNED,
				  v->bits);
	else
		y = num_from_view(k & num_mask(v->bits), view,
				  v->bits) << v->shift;
	zbw_put_word(y, dst, i, v->w);
}

/* Turns the @m values at @dst into the numbers of view @v, in place */
static __always_inline void num_undo_view(u8 *dst, unsigned int m,
					  unsigned int w,
					  const struct num_view *v,
					  unsigned int view)
{
	u64 mask = num_mask(v->bits), c[NUM_ORDER_MAX] = { 0 };
	unsigned int i, j;

	if (!v->order) {
		for (i = 0; i < m; i++)
			num_put_number(dst, i, zbw_get_word(dst, i, w) + v->low,
				       v, view);
		return;
	}
	/*
	 * c[j]: the j-th difference at the number before; each number
	 * brings its highest one (raw for the first ones), and the sums
	 * down to c[0] make the value.
	 */
	for (i = 0; i < m && i < v->order; i++) {
		c[i] = zbw_get_word(dst, i, w);
		for (j = i; j-- > 0;)
			c[j] = (c[j] + c[j + 1]) & mask;
		num_put_number(dst, i, c[0], v, view);
	}
	/* then each number brings its highest: the same sums, in registers */
	if (v->order == 1) {
		for (; i < m; i++) {
			c[0] = (c[0] + num_unzigzag(zbw_get_word(dst, i, w))) &
			       mask;
			num_put_number(dst, i, c[0], v, view);
		}
	} else if (v->order == 2) {
		u64 a = c[0], b = c[1];

		for (; i < m; i++) {
			b = (b + num_unzigzag(zbw_get_word(dst, i, w))) & mask;
			a = (a + b) & mask;
			num_put_number(dst, i, a, v, view);
		}
	} else {
		/* the mode's two bits: NUM_ORDER_MAX is 3 */
		u64 a = c[0], b = c[1], d = c[2];

		for (; i < m; i++) {
			d = (d + num_unzigzag(zbw_get_word(dst, i, w))) & mask;
			b = (b + d) & mask;
			a = (a + b) & mask;
			num_put_number(dst, i, a, v, view);
		}
	}
}

static __always_inline void num_undo(u8 *dst, unsigned int m, unsigned int w,
				     const struct num_view *v)
{
	if (v->factor)
		num_undo_view(dst, m, w, v, NUM_NR_VIEWS);
	else if (v->view == NUM_FLOAT)
		num_undo_view(dst, m, w, v, NUM_FLOAT);
	else if (v->view == NUM_SIGNED)
		num_undo_view(dst, m, w, v, NUM_SIGNED);
	else
		num_undo_view(dst, m, w, v, NUM_UNSIGNED);
}

static __always_inline int num_decode(const u8 *src, unsigned int slen,
				      u8 *dst, unsigned int dcap,
				      void *scratch, unsigned int w)
{
	const u8 *p = src, *end = src + slen;
	struct num_dec *dd = scratch;
	struct num_view v = { .w = w };
	unsigned int q, lo, nsym, i, m, tail;
	struct zbw_bitr br[2];
	u32 n, lo32, alen;
	bool one;
	u64 x;
	u8 mode;
	int len;

	if (p >= end)
		return -EINVAL;
	mode = *p++;
	v.view = mode & NUM_MODE_VIEW;
	v.order = (mode & NUM_MODE_ORDER) >> NUM_MODE_ORDER_SHIFT;
	one = mode & NUM_MODE_ONE;
	if (v.view > NUM_FLOAT ||
	    ((mode & NUM_MODE_FACTOR) && v.view == NUM_FLOAT) ||
	    ((mode & NUM_MODE_SHIFT) && v.view != NUM_FLOAT))
		return -EINVAL;
	len = zbw_get_size(p, end, dcap, &n);
	if (len < 0)
		return len;
	p += len;
	m = n / w;
	tail = n - m * w;
	if (mode & NUM_MODE_SHIFT) {
		if (p >= end || !*p || *p > num_mantissa[w])
			return -EINVAL;
		v.shift = *p++;
	}
	v.bits = 8 * w - v.shift;
	if ((mode & NUM_MODE_FACTOR) &&
	    (num_get_word(&p, end, w, &v.base) ||
	     num_get_word(&p, end, w, &v.factor) || v.factor < 2))
		return -EINVAL;
	if (!v.order && !v.factor && num_get_word(&p, end, w, &v.low))
		return -EINVAL;
	for (i = 0; i < v.order && i < m; i++) {
		if (num_get_word(&p, end, w, &x) || x > num_mask(v.bits))
			return -EINVAL;
		zbw_put_word(x, dst, i, w);
	}
	if (end - p < 3 || *p > NUM_Q_MAX)
		return -EINVAL;
	q = *p++;
	len = zbw_get_len(p, end, &lo32);
	if (!len || end - p - len < 1)
		return -EINVAL;
	p += len;
	lo = lo32;
	nsym = *p++ + 1;
	for (i = 0; i < nsym; i++)
		if (!num_bin_range(lo + i, q, v.bits, &dd->lower[i],
				   &dd->obits[i]))
			return -EINVAL;
	if (!one) {
		if (end - p < (nsym + 1) / 2)
			return -EINVAL;
		for (i = 0; i < nsym; i++) {
			dd->len[i] = (p[i / 2] >> (i & 1 ? 4 : 0)) & 15;
			if (dd->len[i] > NUM_CODE_BITS)
				return -EINVAL;
		}
		if ((nsym & 1) && (p[nsym / 2] >> 4))
			return -EINVAL;
		p += (nsym + 1) / 2;
		if (zbw_huf_table(dd->len, nsym, NUM_CODE_BITS, dd->tab,
				  dd->order))
			return -EINVAL;
	} else if (nsym != 1) {
		return -EINVAL;
	}
	if (end - p < tail)
		return -EINVAL;
	memcpy(dst + m * w, p, tail);
	p += tail;

	len = zbw_get_len(p, end, &alen);
	if (!len || end - p - len < alen)
		return -EINVAL;
	p += len;
	zbw_bitr_init(&br[0], p, p + alen);
	zbw_bitr_init(&br[1], p + alen, end);
	if (one)
		num_get_values(br, dst, v.order, m, w, true, dd);
	else
		num_get_values(br, dst, v.order, m, w, false, dd);
	if (!zbw_bitr_done(&br[0]) || !zbw_bitr_done(&br[1]))
		return -EINVAL;
	num_undo(dst, m, w, &v);
	if (mode & NUM_MODE_BIG_ENDIAN)
		zbw_num_swap(dst, dst, m, w);
	return n;
}

static size_t num_scratch_size(unsigned int max_len)
{
	return max(zbw_num_enc_size(max_len), sizeof(struct num_dec));
}

#define NUM_STEP(step, w)						\
static const unsigned int step##_width = (w);				\
static int step##_decode(const u8 *src, unsigned int slen, u8 *dst,	\
			 unsigned int dcap, void *scratch)		\
{									\
	return num_decode(src, slen, dst, dcap, scratch, step##_width);	\
}									\
const struct zbewalgo_step step = {					\
	.encode		= zbw_num##w##_encode,				\
	.decode		= step##_decode,				\
	.scratch_size	= num_scratch_size,				\
}

NUM_STEP(zbewalgo_step_NUM2, 2);
NUM_STEP(zbewalgo_step_NUM4, 4);
NUM_STEP(zbewalgo_step_NUM8, 8);
