// SPDX-License-Identifier: GPL-2.0-only
/*
 * The encoder of the num2, num4 and num8 steps (num.h has their format):
 * one pass over the page for its byte order, shift, common factor and
 * smallest values, one for its palette until it has too many distinct
 * numbers; its lag, if it is an array of records; nine views, two at the
 * lag and the palette's indices measured on numbers spread over it
 * (num_pick.c); the chosen view's values counted over the whole page
 * (num_val.c), the bins' resolution and code chosen; two bit streams.
 */

#include "num_enc.h"

/* Numbers looked at for their byte order */
#define NUM_ORDER_LOOK		64u

/*
 * Whether the numbers at @src look big-endian: the bits of the least
 * significant byte of neighbouring numbers differ more than those of the
 * most significant one (sign, exponent, high bits), unless that byte is
 * zero or nearly so (quantized numbers): two bits or more in a number.
 */
noinline_for_stack bool zbw_num_big_endian(const u8 *src, unsigned int m,
					   unsigned int w)
{
	unsigned int i, first = 0, last = 0;

	m = min(m, NUM_ORDER_LOOK);
	for (i = 1; i < m; i++) {
		first += hweight8(src[i * w] ^ src[(i - 1) * w]);
		last += hweight8(src[i * w + w - 1] ^ src[(i - 1) * w + w - 1]);
	}
	return 2 * first < last && last >= 2 * m;
}

/* The encoder's scratch: the code, the histograms, then the values */
struct num_enc {
	struct num_scan sc, sc_be;
	struct num_view v;
	struct zbw_bitw bw[2];
	u32 next[NUM_CODE_BITS + 1];
	u32 buf[3 * 256];
	u8 len[NUM_SYMS];
	u32 code[NUM_SYMS];
	u32 code3[NUM_BINS3];
	u16 h3[NUM_BINS3];
	u8 *r;
	u16 *b3;
	struct num_hist h;
	struct num_pal pal;
	u64 xlow[NUM_EXC_MAX];
	u16 xidx[NUM_EXC_MAX];
	unsigned int nexc;
	/* what calls out of line fill in, out of num_encode()'s frame */
	unsigned int cand, cand_be, q;
};

/*
 * struct num_enc, then the values of @max_len bytes, their bins (as
 * many bytes: two for every two or more) and the two bit streams, each
 * at most as long as the room for the step's output
 * (zbewalgo_stage_cap(), which @max_len already is); the room of the
 * streams holds the palette's indices (two bytes a number) until the
 * values are made, then the palette's stream
 */
size_t zbw_num_enc_size(unsigned int max_len)
{
	return ALIGN(sizeof(struct num_enc), 8) + 4 * max_len;
}

/*
 * Bits of the header of view @v for @m numbers that another view may not
 * have, in 1/256 bits; @e's exceptions are @v's when it has a shift
 */
static u32 num_head_bits(const struct num_enc *e, const struct num_view *v,
			 unsigned int m)
{
	unsigned int bytes = min(v->order * v->lag, m) * v->w;

	if (v->lag > 1)
		bytes++;
	/* the shift, then its exceptions' count, gaps (a byte at least), bits */
	if (v->shift)
		bytes += 1 + (e->nexc ? 1 + e->nexc *
			      (1 + DIV_ROUND_UP(v->shift, 8)) : 0);
	if (v->factor)
		bytes += 2 * v->w;
	else if (!v->order)
		bytes += v->w;
	return bytes * 8 * 256;
}

/*
 * Whether the palette of the @m numbers of @w bytes at @num (found here
 * unless it is) takes fewer bits than @view, a view's bits over the whole
 * page, in 1/256 bits; its candidate in *@cand.  A view of half a bit a
 * number or less is not tried against: a palette's indices take more but
 * where they are one bin, and a view sees the same.
 */
static bool num_pal_wins(struct num_enc *e, const u8 *num, unsigned int m,
			 unsigned int w, u64 view, unsigned int *cand)
{
	if (view <= m * 128)
		return false;
	if (num != e->r)
		zbw_num_palette(num, m, w, view, &e->pal);
	return e->pal.count && zbw_num_pal_pick(&e->pal, w, cand) < view;
}

static int num_put_word(u8 **p, const u8 *end, u64 x, unsigned int w)
{
	if (end - *p < w)
		return -ENOSPC;
	zbw_put_word(x, *p, 0, w);
	*p += w;
	return 0;
}

/*
 * A value, in the bin of code @code (its length in bits 16-20, the
 * offset's length in bits 24-29), into @bw: the code and the offset in one
 * put, but for an offset over 32 bits
 */
static __always_inline int num_put_value(struct zbw_bitw *bw, u64 x,
					 u32 code, unsigned int w)
{
	unsigned int ob = code >> 24, n = (code >> 16) & 0x1f;
	u64 v = code & 0xffff;

	/* 7 bits pending at most, then the code and 32 bits */
	BUILD_BUG_ON(7 + NUM_CODE_BITS + 32 > 64);
	zbw_bitw_flush(bw);
	if (unlikely(bw->nb >= 8))
		return -ENOSPC;
	/* below the bin's bits: an offset has at most 63 */
	x &= ~(~0ULL << ob);
	if (w == 8 && ob > 32) {
		zbw_bitw_put(bw, v | (x & 0xffffffff) << n, n + 32);
		zbw_bitw_flush(bw);
		if (bw->nb >= 8)
			return -ENOSPC;
		zbw_bitw_put(bw, x >> 32, ob - 32);
		return 0;
	}
	zbw_bitw_put(bw, v | x << n, n + ob);
	return 0;
}

/*
 * The code of the @nsym bins of counts @freq (with @lens their lengths,
 * at *@p), and by bin at NUM_Q_MAX, @first3 to @last3, the code and
 * offset length of its values, in @e->code3: their bins at @q from @lo.
 * Inline: a call of its own under the palette's writer took the stack
 * past its bound.
 */
static __always_inline void num_put_code(struct num_enc *e,
					 const u32 *freq, unsigned int nsym,
					 bool lens, unsigned int q,
					 unsigned int lo, unsigned int first3,
					 unsigned int last3, u8 **p)
{
	unsigned int i, ob;

	memset(e->code, 0, nsym * sizeof(*e->code));
	if (lens) {
		zbw_huf_lengths(freq, nsym, NUM_CODE_BITS, e->len, e->buf);
		for (i = 0; i < nsym; i += 2)
			*(*p)++ = e->len[i] |
				  (i + 1 < nsym ? e->len[i + 1] << 4 : 0);
		zbw_huf_canon(e->len, nsym, NUM_CODE_BITS, e->next, NULL);
		for (i = 0; i < nsym; i++)
			if (e->len[i])
				e->code[i] = zbw_huf_rev(e->next[e->len[i]]++,
							 e->len[i]) |
					     e->len[i] << 16;
	}
	for (i = first3; i <= last3; i++)
		e->code3[i] = e->code[num_merge(i, NUM_Q_MAX, q, &ob) - lo] |
			      ob << 24;
}

/*
 * The palette @pal of numbers of @w bytes (num.h's format) at *@p, its
 * stream made at @room (@cap bytes) first, in the code's room of @e:
 * -ENOSPC
 */
static int num_put_palette(struct num_enc *e, struct num_pal *pal,
			   unsigned int w, u8 **p, const u8 *end, u8 *room,
			   unsigned int cap)
{
	unsigned int nb = num_bins(w, NUM_Q_MAX), c = pal->count, q;
	unsigned int first3, last3, lo, nsym, i, n;
	struct zbw_bitw bw;
	u16 *h3 = pal->h3;
	bool order2;
	u64 r;

	n = zbw_put_len(*p, end, c - 1);
	if (!n || end - *p - n < w)
		return -ENOSPC;
	*p += n;
	zbw_put_word(pal->val[0], *p, 0, w);
	*p += w;
	if (c == 1)
		return 0;
	q = pal->q;
	order2 = pal->order2;
	/* c >= 2: a gap or more, in bins that num_pal_cost() could code */
	if (!num_used(h3, nb, &first3, &last3) ||
	    num_cost(h3, NUM_Q_MAX, first3, last3, q, pal->freq, &lo,
		     &nsym) == U32_MAX)
		return -EINVAL;
	if (end - *p < 2 + ZBW_LEN_BYTES_MAX + (nsym + 1) / 2)
		return -ENOSPC;
	*(*p)++ = q | (order2 ? NUM_PAL_ORDER2 : 0);
	*p += zbw_put_len(*p, end, lo);
	*(*p)++ = nsym - 1;
	num_put_code(e, pal->freq, nsym, nsym > 1, q, lo, first3, last3, p);
	zbw_bitw_init(&bw, room, room + cap);
	for (i = 1; i < c; i++) {
		r = num_pal_gap(pal->val, i, order2, 8 * w);
		if (num_put_value(&bw, r, e->code3[num_bin3(r)], w))
			return -ENOSPC;
	}
	if (!zbw_bitw_close(&bw))
		return -ENOSPC;
	n = zbw_put_len(*p, end, bw.p - room);
	if (!n || end - *p - n < bw.p - room)
		return -ENOSPC;
	*p += n;
	memcpy(*p, room, bw.p - room);
	*p += bw.p - room;
	return 0;
}

/*
 * The exceptions to @e->sc's shift among the @m numbers of @w bytes at
 * @num, before the values take their place (which for big-endian numbers
 * is where they are)
 */
static __always_inline void num_exceptions(struct num_enc *e, const u8 *num,
					   unsigned int m, unsigned int w)
{
	u64 mask = num_mask(e->sc.shift), x;
	unsigned int i;

	e->nexc = 0;
	for (i = 0; i < m && e->nexc < e->sc.nexc; i++) {
		x = zbw_get_word(num, i, w) & mask;
		if (x) {
			e->xidx[e->nexc] = i;
			e->xlow[e->nexc++] = x;
		}
	}
}

/* The shift byte @t and its exceptions (format above): -ENOSPC */
static int num_put_shift(const struct num_enc *e, unsigned int t, u8 **p,
			 const u8 *end)
{
	unsigned int i, j, at = 0, lb = DIV_ROUND_UP(t, 8);
	int n;

	if (end - *p < (e->nexc ? 2 : 1))
		return -ENOSPC;
	*(*p)++ = t | (e->nexc ? NUM_SHIFT_EXC : 0);
	if (!e->nexc)
		return 0;
	*(*p)++ = e->nexc - 1;
	for (i = 0; i < e->nexc; i++) {
		n = zbw_put_len(*p, end, e->xidx[i] - at);
		if (!n || end - *p - n < lb)
			return -ENOSPC;
		*p += n;
		at = e->xidx[i] + 1;
		for (j = 0; j < lb; j++)
			*(*p)++ = e->xlow[i] >> 8 * j;
	}
	return 0;
}

/*
 * The header of view @v up to the bins (format above), the palette's
 * stream made at @room (@cap bytes) first: -ENOSPC
 */
static int num_put_head(struct num_enc *e, const struct num_view *v,
			unsigned int slen, const u8 *r, unsigned int m,
			u8 **p, const u8 *end, u8 *room, unsigned int cap)
{
	u8 mode = v->view | v->order << NUM_MODE_ORDER_SHIFT, lag = 0;
	unsigned int i;
	int n;

	if (v->lag > 1) {
		/* the factor and the shift go to the lag byte */
		mode |= NUM_MODE_LAG;
		lag = (v->lag - 1) | (v->factor ? NUM_LAG_FACTOR : 0) |
		      (v->shift ? NUM_LAG_SHIFT : 0);
	} else {
		if (v->factor)
			mode |= NUM_MODE_FACTOR;
		if (v->shift)
			mode |= NUM_MODE_SHIFT;
	}
	if (end - *p < 1 + !!lag)
		return -ENOSPC;
	*(*p)++ = mode;
	if (lag)
		*(*p)++ = lag;
	n = zbw_put_size(*p, end, slen);
	if (n < 0)
		return n;
	*p += n;
	if (v->view == NUM_PALETTE &&
	    num_put_palette(e, &e->pal, v->w, p, end, room, cap))
		return -ENOSPC;
	if (v->shift && num_put_shift(e, v->shift, p, end))
		return -ENOSPC;
	if (v->factor && (num_put_word(p, end, v->base, v->w) ||
			  num_put_word(p, end, v->factor, v->w)))
		return -ENOSPC;
	if (!v->order && !v->factor && v->view != NUM_PALETTE &&
	    num_put_word(p, end, v->low, v->w))
		return -ENOSPC;
	for (i = 0; i < v->order * v->lag && i < m; i++)
		if (num_put_word(p, end, zbw_get_word(r, i, v->w), v->w))
			return -ENOSPC;
	return 0;
}

/*
 * The bit streams of values @first.. of the @m at @r, in bins @b3 at
 * NUM_Q_MAX, codes @code3 by those bins: A for every other one from
 * @first, B for those between.
 */
static __always_inline int num_put_values(const u8 *r, const u16 *b3,
					  unsigned int m, unsigned int w,
					  unsigned int first,
					  const u32 *code3,
					  struct zbw_bitw *bw)
{
	/* the writers in locals: through @bw, each store would reload them */
	struct zbw_bitw a = bw[0], b = bw[1];
	unsigned int i;

	for (i = first; i + 1 < m; i += 2)
		if (num_put_value(&a, zbw_get_word(r, i, w), code3[b3[i]], w) ||
		    num_put_value(&b, zbw_get_word(r, i + 1, w),
				  code3[b3[i + 1]], w))
			return -ENOSPC;
	if (i < m &&
	    num_put_value(&a, zbw_get_word(r, i, w), code3[b3[i]], w))
		return -ENOSPC;
	bw[0] = a;
	bw[1] = b;
	return zbw_bitw_close(&bw[0]) && zbw_bitw_close(&bw[1]) ? 0 :
	       -ENOSPC;
}

/*
 * The candidate of the view for the @m numbers of @w bytes at @src, in
 * @e->cand and @e->sc: @hint's when it is for @src (and, at a lag, the
 * page has one), else (a page too short for the probe's sample) the one
 * of the fewest estimated bits in either byte order, on numbers spread
 * over the page.  Returns the numbers in the byte order picked (@e->r
 * when swapped), NULL when no candidate can code them.
 */
static __always_inline const u8 *
num_enc_pick(struct num_enc *e, const u8 *src, unsigned int m, unsigned int w,
	     const struct zbw_num_hint *hint)
{
	unsigned int per = min_t(unsigned int, m, NUM_PICK) / NUM_WINDOWS;
	struct num_scan *sc = &e->sc, *sc_be = &e->sc_be;
	const u8 *num = src;
	u32 best;
	bool be;

	if (hint && hint->page == src && hint->w == w &&
	    hint->cand < NUM_C_PAL0) {
		if (hint->be) {
			zbw_num_swap(e->r, src, m, w);
			num = e->r;
		}
		/*
		 * The view picked needs its own measures only, and none
		 * for differences of integers without a factor: a common
		 * factor of the page's numbers divides the sample's
		 */
		if (hint->unit && hint->cand != NUM_C_INT0 &&
		    hint->cand != NUM_C_SINT0 &&
		    num_cand_view(hint->cand) != NUM_FLOAT)
			memset(sc, 0, sizeof(*sc));
		else
			num_scan(num, m, w, sc,
				 num_cand_view(hint->cand) == NUM_FLOAT ?
				 NUM_SCAN_FLOAT : NUM_SCAN_INT);
		sc->lag = hint->be ? zbw_num_lag(num, m, w) : hint->lag;
		if (hint->cand < NUM_C_LAG1 || sc->lag >= 2) {
			e->cand = hint->cand;
			return num;
		}
	}
	num_scan(src, m, w, sc, NUM_SCAN_ALL);
	sc->lag = zbw_num_lag(src, m, w);
	best = zbw_num_pick(src, per, NUM_WINDOWS, m / NUM_WINDOWS, w, sc,
			    src, m, &e->h, &e->cand, true);
	be = zbw_num_big_endian(src, m, w);
	if (be) {
		/* the values replace the numbers there as they are made */
		zbw_num_swap(e->r, src, m, w);
		num_scan(e->r, m, w, sc_be, NUM_SCAN_ALL);
		sc_be->lag = zbw_num_lag(e->r, m, w);
		be = zbw_num_pick(e->r, per, NUM_WINDOWS, m / NUM_WINDOWS, w,
				  sc_be, e->r, m, &e->h, &e->cand_be, true) < best;
	}
	if (be) {
		*sc = *sc_be;
		e->cand = e->cand_be;
		return e->r;
	}
	return best == U32_MAX ? NULL : src;
}

static __always_inline int num_encode(const u8 *src, unsigned int slen,
				      u8 *dst, unsigned int dcap,
				      void *scratch, unsigned int w,
				      const struct zbw_num_hint *hint)
{
	unsigned int m = slen / w, nb = num_bins(w, NUM_Q_MAX), lo;
	unsigned int nsym, i;
	unsigned int first3, last3, used = 0, tail = slen - m * w;
	u8 *p = dst, *end = dst + dcap;
	struct num_enc *e = scratch;
	/* the larger state in the scratch: the frame stays small */
	struct num_scan *sc = &e->sc;
	struct zbw_bitw *bw = e->bw;
	struct num_view *v = &e->v;
	const u8 *num;
	u32 best;
	unsigned int alen, blen, n;
	u8 *sa;
	u16 *h3;
	int err;

	if (m < 2)
		return -EINVAL;
	e->r = (u8 *)scratch + zbw_num_enc_size(0);
	e->b3 = (u16 *)(e->r + ALIGN(slen, 2));
	sa = (u8 *)(e->b3 + m);
	e->pal.idx = (u16 *)sa;
	num = num_enc_pick(e, src, m, w, hint);
	if (!num)
		return -EINVAL;
	/* the palette of numbers that the values replace: before them */
	e->pal.count = 0;
	if (num == e->r)
		zbw_num_palette(num, m, w, U64_MAX, &e->pal);
	h3 = e->h3;
	/*
	 * The view's values, then, when the palette's indices counted on
	 * the whole page take fewer bits than they, the indices' (one call:
	 * one copy of the inlined loop in the frame)
	 */
	do {
		zbw_num_view_of(e->cand, w, sc, v);
		/* before the values: the exceptions to the shift */
		if (v->shift)
			num_exceptions(e, num, m, w);
		memset(h3, 0, nb * sizeof(*h3));
		zbw_num_values(num, e->pal.idx, m, w, v, e->r, e->b3, h3);
		best = num_best_q(h3, nb, e->h.freq, &e->q);
	} while (v->view != NUM_PALETTE &&
		 num_pal_wins(e, num, m, w, best + num_head_bits(e, v, m),
			      &e->cand));
	if (!num_used(h3, nb, &first3, &last3)) {
		first3 = 0;
		last3 = 0;
	}
	if (num_cost(h3, NUM_Q_MAX, first3, last3, e->q, e->h.freq, &lo,
		     &nsym) == U32_MAX)
		return -EINVAL;
	for (i = 0; i < nsym; i++)
		used += !!e->h.freq[i];

	if (v->view == NUM_PALETTE)
		zbw_num_pal_order(&e->pal, w);
	err = num_put_head(e, v, slen, e->r, m, &p, end, sa, dcap);
	if (err)
		return err;
	if (used <= 1)
		dst[0] |= NUM_MODE_ONE;
	if (num == e->r)
		dst[0] |= NUM_MODE_BIG_ENDIAN;
	if (end - p < 2 + ZBW_LEN_BYTES_MAX + (nsym + 1) / 2 + tail)
		return -ENOSPC;
	*p++ = e->q;
	p += zbw_put_len(p, end, lo);
	*p++ = nsym - 1;
	num_put_code(e, e->h.freq, nsym, used > 1, e->q, lo, first3, last3,
		     &p);
	memcpy(p, src + m * w, tail);
	p += tail;
	/* both streams in the scratch, then their lengths are known */
	zbw_bitw_init(&bw[0], sa, sa + dcap);
	zbw_bitw_init(&bw[1], sa + dcap, sa + 2 * dcap);
	err = num_put_values(e->r, e->b3, m, w, v->order * v->lag, e->code3,
			     bw);
	if (err)
		return err;
	alen = bw[0].p - sa;
	blen = bw[1].p - (sa + dcap);
	n = zbw_put_len(p, end, alen);
	if (!n || end - p - n < alen + blen)
		return -ENOSPC;
	p += n;
	memcpy(p, sa, alen);
	memcpy(p + alen, sa + dcap, blen);
	return p + alen + blen - dst;
}

/*
 * The page's own pick (zbw_num_hint_page()), then the encoder of word
 * size @w, out of line: num_encode() is written out once per word size.
 */
static int num_encode_page(const u8 *src, unsigned int slen, u8 *dst,
			   unsigned int dcap, void *scratch, unsigned int w)
{
	struct zbw_num_hint hint;

	/* the probe's room, in the scratch before the encoder uses it */
	BUILD_BUG_ON(sizeof(struct num_enc) < ZBW_PROBE_SCRATCH);
	zbw_num_hint_page(src, slen, w, scratch, &hint);
	return zbw_num_encode_hinted(w, src, slen, dst, dcap, scratch, &hint);
}

#define NUM_ENCODERS(w)							\
static const unsigned int num##w##_width = (w);				\
int zbw_num##w##_encode_hinted(const u8 *src, unsigned int slen, u8 *dst, \
			       unsigned int dcap, void *scratch,	\
			       const struct zbw_num_hint *hint)		\
{									\
	return num_encode(src, slen, dst, dcap, scratch, num##w##_width, \
			  hint);					\
}									\
int zbw_num##w##_encode(const u8 *src, unsigned int slen, u8 *dst,	\
			unsigned int dcap, void *scratch)		\
{									\
	return num_encode_page(src, slen, dst, dcap, scratch,		\
			       num##w##_width);				\
}

NUM_ENCODERS(2)
NUM_ENCODERS(4)
NUM_ENCODERS(8)
