// SPDX-License-Identifier: GPL-2.0-only
/*
 * The num steps' page header (num.h has the format), read and checked
 * for the decoder in num.c: the bins and the prefix code of the values,
 * the palette, the low bits dropped and their exceptions.  Each runs once
 * a page, in a frame of its own: the page's decoder keeps its bit
 * streams.
 */

#include "num_dec.h"

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

/*
 * The bins from ``lo`` and, unless @one, the code lengths at *@pp (num.h
 * has the format) of values of @bits bits at @q, into @d; @one is 1 for
 * one bin (no code lengths), 0 for a code, -1 for one bin when ``nsym``
 * is 1.
 * Returns whether there is one bin, or -EINVAL.
 */
int zbw_num_get_code(const u8 **pp, const u8 *end, unsigned int q,
		     unsigned int bits, int one, struct num_dec *d)
{
	const u8 *p = *pp;
	unsigned int lo, nsym, i, bits_max = 0;
	u32 lo32;
	int len;

	len = zbw_get_len(p, end, &lo32);
	if (!len || end - p - len < 1)
		return -EINVAL;
	p += len;
	lo = lo32;
	nsym = *p++ + 1;
	if (one < 0)
		one = nsym == 1;
	for (i = 0; i < nsym; i++)
		if (!num_bin_range(lo + i, q, bits, &d->lower[i],
				   &d->obits[i]))
			return -EINVAL;
	if (!one) {
		if (end - p < (nsym + 1) / 2)
			return -EINVAL;
		for (i = 0; i < nsym; i++) {
			d->len[i] = (p[i / 2] >> (i & 1 ? 4 : 0)) & 15;
			if (d->len[i] > NUM_CODE_BITS)
				return -EINVAL;
			bits_max = max_t(unsigned int, bits_max, d->len[i]);
		}
		if ((nsym & 1) && (p[nsym / 2] >> 4))
			return -EINVAL;
		p += (nsym + 1) / 2;
		/*
		 * a table no wider than the longest code: less to fill; each
		 * entry with its bin's offset bits, taken in the same shift
		 */
		if (zbw_huf_table(d->len, nsym, bits_max, d->tab, d->order,
				  d->obits))
			return -EINVAL;
		d->tmask = BIT(bits_max) - 1;
	} else if (nsym != 1) {
		return -EINVAL;
	}
	*pp = p;
	return one;
}

/*
 * The palette at *@pp (num.h has the format) of numbers of @w bytes, into
 * @d->pal and @d->count: -EINVAL when it is not one.  A frame of its own:
 * the page's decoder keeps its bit streams.
 */
noinline_for_stack int zbw_num_get_palette(const u8 **pp, const u8 *end,
					   unsigned int w, struct num_dec *d)
{
	u64 mask = num_mask(8 * w), g = 0, t, r;
	const u8 *p = *pp;
	struct zbw_bitr br;
	unsigned int c, i;
	int one, len;
	u32 tlen;
	u8 k;

	len = zbw_get_len(p, end, &tlen);
	if (!len || tlen >= NUM_PAL_MAX)
		return -EINVAL;
	p += len;
	c = tlen + 1;
	if (num_get_word(&p, end, w, &d->pal[0]))
		return -EINVAL;
	if (c > 1) {
		if (p >= end || (*p & ~(NUM_PAL_Q | NUM_PAL_ORDER2)))
			return -EINVAL;
		k = *p++;
		one = zbw_num_get_code(&p, end, k & NUM_PAL_Q, 8 * w, -1, d);
		if (one < 0)
			return one;
		len = zbw_get_len(p, end, &tlen);
		if (!len || end - p - len < tlen)
			return -EINVAL;
		p += len;
		zbw_bitr_init(&br, p, p + tlen);
		t = d->pal[0];
		for (i = 1; i < c; i++) {
			r = one ? num_read(&br, w, true, d) :
				  num_read(&br, w, false, d);
			g = k & NUM_PAL_ORDER2 ? (g + num_unzigzag(r)) & mask : r;
			/* increasing: no number twice, none past 2^B */
			if (((t + g + 1) & mask) <= t)
				return -EINVAL;
			t = (t + g + 1) & mask;
			d->pal[i] = t;
		}
		if (!zbw_bitr_done(&br))
			return -EINVAL;
		p += tlen;
	}
	d->count = c;
	*pp = p;
	return 0;
}

/*
 * The @nexc exceptions at @p (num.h has the format) among @m numbers of @w
 * bytes whose low @shift bits were dropped: checked, and with @dst, their
 * low bits set there.  Returns where they end, NULL when not valid.
 */
const u8 *zbw_num_exc(const u8 *p, const u8 *end, unsigned int nexc,
		      unsigned int m, unsigned int w, unsigned int shift,
		      u8 *dst)
{
	unsigned int i, j, at = 0, lb = DIV_ROUND_UP(shift, 8);
	u32 gap;
	u64 low;
	int len;

	for (i = 0; i < nexc; i++) {
		len = zbw_get_len(p, end, &gap);
		if (!len || gap >= m - at || end - p - len < lb)
			return NULL;
		p += len;
		at += gap;
		for (low = 0, j = 0; j < lb; j++)
			low |= (u64)*p++ << 8 * j;
		if (!low || low > num_mask(shift))
			return NULL;
		if (dst)
			zbw_put_word(zbw_get_word(dst, at, w) | low, dst, at, w);
		at++;
	}
	return p;
}

/*
 * The shift byte at *@pp and its exceptions among @m numbers of @w bytes
 * (num.h has the format) into @d.  The exceptions are read again at the
 * end (zbw_num_exc()) rather than kept.  Returns the shift, the low bits
 * dropped, or -EINVAL when they are not valid.
 */
int zbw_num_get_shift(const u8 **pp, const u8 *end, unsigned int m,
		      unsigned int w, struct num_dec *d)
{
	const u8 *p = *pp;
	unsigned int shift;

	if (p >= end || !(*p & NUM_SHIFT_BITS) ||
	    (*p & NUM_SHIFT_BITS) > num_mantissa(w) ||
	    (*p & ~(NUM_SHIFT_BITS | NUM_SHIFT_EXC)))
		return -EINVAL;
	shift = *p & NUM_SHIFT_BITS;
	if (*p++ & NUM_SHIFT_EXC) {
		if (p >= end || *p >= NUM_EXC_MAX)
			return -EINVAL;
		d->nexc = *p++ + 1;
		d->exc = p;
		p = zbw_num_exc(p, end, d->nexc, m, w, shift, NULL);
		if (!p)
			return -EINVAL;
	}
	*pp = p;
	return shift;
}
