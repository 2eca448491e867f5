// SPDX-License-Identifier: GPL-2.0-only
/*
 * The values of the num steps' encoder (num_enc.c): the numbers of a page
 * in the view picked, differenced with the number before or at the
 * page's lag, zigzagged, and their bins.  Each word size and order gets
 * a loop of its own, which keeps the differences in registers, in a frame
 * of its own beside the encoder's.
 */

#include "num_enc.h"

/* Value @k of number @x in view @v */
static __always_inline u64 num_value(u64 x, const struct num_view *v)
{
	u64 y = num_to_view(x >> v->shift, v->view, v->bits);

	return v->factor ? num_divide(y - v->base, v->factor) : y;
}

/*
 * The values of view @v of the @m numbers at @src (their indices @idx in
 * the palette view), as @w-byte words at @r: the raw ones first, then
 * the others, whose bins at NUM_Q_MAX go to @b3 and are counted in @h3.
 * @order is @v's, a constant: each difference then stays in a register.
 */
static __always_inline void num_values(const u8 *src, const u16 *idx,
				       unsigned int m, unsigned int w,
				       const struct num_view *v,
				       unsigned int order, u8 *r, u16 *b3,
				       u16 *h3)
{
	u64 mask = num_mask(v->bits), t0, t1 = 0, t2 = 0, t3 = 0;
	u64 p0 = 0, p1 = 0, p2 = 0, x;
	unsigned int i;

	for (i = 0; i < m; i++) {
		/* tj: the j-th difference at number i */
		t0 = v->view == NUM_PALETTE ? idx[i] :
		     num_value(zbw_get_word(src, i, w), v);
		if (order >= 1) {
			t1 = (t0 - p0) & mask;
			p0 = t0;
		}
		if (order >= 2) {
			t2 = (t1 - p1) & mask;
			p1 = t1;
		}
		if (order >= 3) {
			t3 = (t2 - p2) & mask;
			p2 = t2;
		}
		/* the first numbers: the differences they have, raw */
		if (!order)
			x = t0 - v->low;
		else if (i >= order)
			x = num_zigzag(order == 1 ? t1 : order == 2 ? t2 : t3,
				       v->bits);
		else
			x = i == 0 ? t0 : i == 1 ? t1 : t2;
		zbw_put_word(x, r, i, w);
		if (i >= order) {
			b3[i] = num_bin3(x);
			h3[b3[i]]++;
		}
	}
}

/*
 * The values of view @v for a constant @w: at an order, num_values() with
 * it as a constant; at the view's lag (> 1), as num_values() makes them
 * but the view's values first, then the differences a pass for each
 * order, from the last number down (@r may be @src there)
 */
static __always_inline void num_values_w(const u8 *src, const u16 *idx,
					 unsigned int m, unsigned int w,
					 const struct num_view *view, u8 *r,
					 u16 *b3, u16 *h3)
{
	/* a copy: to the compiler, each store to @r could change *@view */
	const struct num_view vc = *view, *v = &vc;
	unsigned int lag = v->lag, first = min(v->order * lag, m), i, j;
	u64 mask = num_mask(v->bits), x;

	if (lag < 2) {
		if (v->order == 0)
			num_values(src, idx, m, w, v, 0, r, b3, h3);
		else if (v->order == 1)
			num_values(src, idx, m, w, v, 1, r, b3, h3);
		else if (v->order == 2)
			num_values(src, idx, m, w, v, 2, r, b3, h3);
		else
			num_values(src, idx, m, w, v, 3, r, b3, h3);
		return;
	}
	for (i = 0; i < m; i++)
		zbw_put_word(v->view == NUM_PALETTE ? idx[i] :
			     num_value(zbw_get_word(src, i, w), v), r, i, w);
	for (j = 1; j <= v->order; j++)
		for (i = m; i-- > j * lag;)
			zbw_put_word((zbw_get_word(r, i, w) -
				      zbw_get_word(r, i - lag, w)) & mask,
				     r, i, w);
	for (i = first; i < m; i++) {
		x = num_zigzag(zbw_get_word(r, i, w), v->bits);
		zbw_put_word(x, r, i, w);
		b3[i] = num_bin3(x);
		h3[b3[i]]++;
	}
}

/*
 * num_values_w() in a frame of its own for each word size: inlined, the
 * loops at a lag took the encoder's frame past 512 bytes on x86_64
 */
#define NUM_VALUES(w)							\
static noinline_for_stack void num_values##w(const u8 *src,		\
					     const u16 *idx,		\
					     unsigned int m,		\
					     const struct num_view *v,	\
					     u8 *r, u16 *b3, u16 *h3)	\
{									\
	num_values_w(src, idx, m, w, v, r, b3, h3);			\
}

NUM_VALUES(2)
NUM_VALUES(4)
NUM_VALUES(8)

/**
 * zbw_num_values() - the values of a page's numbers in a view
 * @src: the numbers
 * @idx: their indices into the page's palette, for the palette view
 * @m: how many numbers
 * @w: bytes each, 2, 4 or 8
 * @v: the view
 * @r: the values, as @m words of @w bytes; may be @src at a lag
 * @b3: the bins at NUM_Q_MAX of those after the raw ones
 * @h3: their histogram, added to
 */
noinline_for_stack void zbw_num_values(const u8 *src, const u16 *idx,
				       unsigned int m, unsigned int w,
				       const struct num_view *v, u8 *r,
				       u16 *b3, u16 *h3)
{
	/* direct calls: no indirect branch, and the stack's bound is known */
	if (w == 2)
		num_values2(src, idx, m, v, r, b3, h3);
	else if (w == 4)
		num_values4(src, idx, m, v, r, b3, h3);
	else
		num_values8(src, idx, m, v, r, b3, h3);
}
