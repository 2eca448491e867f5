// SPDX-License-Identifier: GPL-2.0-only
/*
 * The encoder of the num2, num4 and num8 steps (num.c has their format)
 * and the probe's estimate of them: one pass over the page for its byte
 * order, shift, common factor and smallest values; nine views measured
 * on numbers spread over it; the chosen view's values counted over the
 * whole page, the bins' resolution and code chosen; two bit streams.
 */

#include <linux/math64.h>

#include "num.h"
#include "search.h"

/* Numbers looked at for their byte order */
#define NUM_ORDER_LOOK		64u

/*
 * The candidates the encoder measures: the integer values (the page's
 * common factor taken out when it has one) at each order, the signed
 * view at order 0 (where it differs), the float view at each order.
 */
enum {
	NUM_C_INT0, NUM_C_SINT0, NUM_C_INT1, NUM_C_INT2, NUM_C_INT3,
	NUM_C_FLT0, NUM_C_FLT1, NUM_C_FLT2, NUM_C_FLT3,
	NUM_NR_CAND,
};

/* Each candidate's view and order of differences */
static const u8 num_cand_view[NUM_NR_CAND] = {
	[NUM_C_SINT0] = NUM_SIGNED, [NUM_C_FLT0] = NUM_FLOAT,
	[NUM_C_FLT1] = NUM_FLOAT, [NUM_C_FLT2] = NUM_FLOAT,
	[NUM_C_FLT3] = NUM_FLOAT,
};

static const u8 num_cand_order[NUM_NR_CAND] = {
	[NUM_C_INT1] = 1, [NUM_C_INT2] = 2, [NUM_C_INT3] = 3,
	[NUM_C_FLT1] = 1, [NUM_C_FLT2] = 2, [NUM_C_FLT3] = 3,
};

/*
 * Greatest common divisor of @a and @b, both nonzero (the kernel's gcd()
 * is of unsigned long): Euclid's, whose first step brings a large @b
 * down to below a small @a at once.
 */
static u64 num_gcd(u64 a, u64 b)
{
	u64 r;

	while (b) {
		div64_u64_rem(a, b, &r);
		a = b;
		b = r;
	}
	return a;
}

/* @y / @g, @g >= 2: a shift for powers of 2, the common case */
static __always_inline u64 num_divide(u64 y, u64 g)
{
	return g & (g - 1) ? div64_u64(y, g) : y >> __ffs64(g);
}

/*
 * Whether the numbers at @src look big-endian: the bits of the least
 * significant byte of neighbouring numbers differ more than those of the
 * most significant one (sign, exponent, high bits), unless that byte is
 * zero or nearly so (quantized numbers): two bits or more in a number.
 */
static noinline_for_stack bool num_big_endian(const u8 *src, unsigned int m,
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

/**
 * struct num_scan - what a pass over a page tells of its numbers
 * @low: smallest value of each view at order 0 (the float view shifted)
 * @factor: common factor of the signed view's values counted from its
 *	smallest, 0 or 1 for none
 * @shift: low bits all numbers have zero, up to the float mantissa's
 */
struct num_scan {
	u64 low[3];
	u64 factor;
	unsigned int shift;
};

static __always_inline void num_scan(const u8 *src, unsigned int m,
				     unsigned int w, struct num_scan *sc)
{
	unsigned int bits = 8 * w, i;
	u64 lu = ~0ULL, ls = ~0ULL, lf = ~0ULL, or = 0, dor = 0, xf = 0, g = 0;
	u64 x, y, s0 = num_to_view(zbw_get_word(src, 0, w), NUM_SIGNED, bits);

	for (i = 0; i < m; i++) {
		x = zbw_get_word(src, i, w);
		or |= x;
		lu = min(lu, x);
		y = num_to_view(x, NUM_SIGNED, bits);
		ls = min(ls, y);
		/*
		 * The factor divides every difference of two values, so
		 * those from the first: its power of 2 from their low bits,
		 * the rest from their odd parts, where most pages show
		 * within a few numbers that there is none.
		 */
		y = y >= s0 ? y - s0 : s0 - y;
		dor |= y;
		if (y && g != 1)
			g = g ? num_gcd(g, y >> __ffs64(y)) : y >> __ffs64(y);
		y = num_to_view(x, NUM_FLOAT, bits);
		if (y < lf) {
			lf = y;
			xf = x;
		}
	}
	sc->shift = or ? min_t(unsigned int, __ffs64(or), num_mantissa[w]) :
		    num_mantissa[w];
	/* dropping low zero bits keeps the order: the same number is least */
	sc->low[NUM_FLOAT] = num_to_view(xf >> sc->shift, NUM_FLOAT,
					 bits - sc->shift);
	sc->low[NUM_UNSIGNED] = lu;
	sc->low[NUM_SIGNED] = ls;
	sc->factor = dor ? g << __ffs64(dor) : 0;
}

/* num_scan() for the probe, in a frame of its own */
static noinline_for_stack void num_scan_sample(const u8 *src, unsigned int m,
					       unsigned int w,
					       struct num_scan *sc)
{
	num_scan(src, m, w, sc);
}

/* The integer value number @x stands for: the factor taken out or as is */
static __always_inline u64 num_int(u64 x, const struct num_scan *sc,
				   unsigned int bits)
{
	if (sc->factor < 2)
		return x;
	return num_divide(num_to_view(x, NUM_SIGNED, bits) -
			  sc->low[NUM_SIGNED], sc->factor);
}

/* Bins at @q of values of @w bytes */
static __always_inline unsigned int num_bins(unsigned int w, unsigned int q)
{
	return (8 * w - q + 1) << q;
}

/* The bin of @r at NUM_PICK_Q */
static __always_inline unsigned int num_bin2(u64 r)
{
	unsigned int ob;

	return num_bin(r, NUM_PICK_Q, &ob);
}

/*
 * Adds the differences of orders 1 to NUM_ORDER_MAX at number @i of value
 * @y, of @bits bits, to the histograms @h[0..]; @prev holds
 * the value and the differences at the number before.
 */
static __always_inline void num_count_diffs(u64 y, u64 *prev, unsigned int i,
					    unsigned int bits,
					    u16 (*h)[NUM_BINS2])
{
	unsigned int j;
	u64 d;

	for (j = 0; j < NUM_ORDER_MAX; j++) {
		d = (y - prev[j]) & num_mask(bits);
		prev[j] = y;
		if (i > j)
			h[j][num_bin2(num_zigzag(d, bits))]++;
		y = d;
	}
}

/*
 * Adds the values of each candidate @c for the @m numbers of @w bytes at
 * @src to its histogram at NUM_PICK_Q, @h[@c] (the signed view's only
 * without a common factor); the first numbers, which a candidate stores
 * raw, are not counted.
 */
static noinline_for_stack void num_count(const u8 *src, unsigned int m,
					 unsigned int w,
					 const struct num_scan *sc,
					 u16 (*h)[NUM_BINS2])
{
	unsigned int bits = 8 * w, i;
	u64 ip[NUM_ORDER_MAX] = { 0 }, x, k;
	u64 ilow = sc->factor < 2 ? sc->low[NUM_UNSIGNED] : 0;

	for (i = 0; i < m; i++) {
		x = zbw_get_word(src, i, w);
		k = num_int(x, sc, bits);
		h[NUM_C_INT0][num_bin2(k - ilow)]++;
		if (sc->factor < 2)
			h[NUM_C_SINT0][num_bin2(num_to_view(x, NUM_SIGNED, bits) -
						sc->low[NUM_SIGNED])]++;
		num_count_diffs(k, ip, i, bits, &h[NUM_C_INT1]);
	}
}

/* num_count() for the float view's candidates, a pass (and frame) apart */
static noinline_for_stack void num_count_float(const u8 *src, unsigned int m,
					       unsigned int w,
					       const struct num_scan *sc,
					       u16 (*h)[NUM_BINS2])
{
	unsigned int fbits = 8 * w - sc->shift, i;
	u64 fp[NUM_ORDER_MAX] = { 0 }, f;

	for (i = 0; i < m; i++) {
		f = num_to_view(zbw_get_word(src, i, w) >> sc->shift,
				NUM_FLOAT, fbits);
		h[NUM_C_FLT0][num_bin2(f - sc->low[NUM_FLOAT])]++;
		num_count_diffs(f, fp, i, fbits, &h[NUM_C_FLT1]);
	}
}

/* The bin at @q of the values of bin @b at @hq >= @q, and their offset bits */
static __always_inline unsigned int num_merge(unsigned int b, unsigned int hq,
					      unsigned int q,
					      unsigned int *obits)
{
	unsigned int e;

	if (b < (1u << hq))
		return num_bin(b, q, obits);
	e = (b >> hq) - 1 + hq;
	*obits = e - q;
	return (e - q + 1) << q | (b & ((1u << hq) - 1)) >> (hq - q);
}

/*
 * Estimated bits (in 1/256 bits) of the values of histogram @h3 (at
 * @hq) at @q <= @hq, whose bins are all within @first3..@last3: their entropy, offsets and
 * code lengths; U32_MAX when the bins span more than NUM_SYMS.  The
 * counts of the bins go to @freq, the first bin to *@lo, their number to
 * *@nsym.
 */
static __always_inline u32 num_cost(const u16 *h3, unsigned int hq,
				    unsigned int first3, unsigned int last3,
				    unsigned int q, u32 *freq,
				    unsigned int *lo, unsigned int *nsym)
{
	unsigned int b3, b, ob, first, i;
	u32 n = 0, c, log_n;
	u64 bits = 0;

	first = num_merge(first3, hq, q, &ob);
	*lo = first;
	*nsym = num_merge(last3, hq, q, &ob) - first + 1;
	if (*nsym > NUM_SYMS)
		return U32_MAX;
	memset(freq, 0, *nsym * sizeof(*freq));
	for (b3 = first3; b3 <= last3; b3++) {
		c = h3[b3];
		b = num_merge(b3, hq, q, &ob);
		freq[b - first] += c;
		bits += (u64)c * ob * 256;
		n += c;
	}
	/* one bin: no codes; else a prefix code spends a bit or more */
	if (!n || *nsym == 1)
		return min_t(u64, bits, U32_MAX - 1);
	log_n = zbw_log2_q8(n);
	for (i = 0; i < *nsym; i++) {
		c = freq[i];
		if (c)
			bits += (u64)c * max_t(u32, log_n - zbw_log2_q8(c), 256);
	}
	return min_t(u64, bits + *nsym * 4 * 256, U32_MAX - 1);
}

/* The used bins of @h3 (@nb of them): false when there is none */
static bool num_used(const u16 *h3, unsigned int nb, unsigned int *first3,
		     unsigned int *last3)
{
	unsigned int b;

	for (b = 0; b < nb && !h3[b]; b++)
		;
	if (b == nb)
		return false;
	*first3 = b;
	for (b = nb - 1; !h3[b]; b--)
		;
	*last3 = b;
	return true;
}

/*
 * The fewest estimated bits of histogram @h3 at any q, the q in *@q; 0
 * for an empty one (nothing but raw numbers).
 */
static u32 num_best_q(const u16 *h3, unsigned int nb, u32 *freq,
		      unsigned int *q)
{
	unsigned int first3, last3, qq, lo, nsym;
	u32 best = U32_MAX, cost;

	*q = 0;
	if (!num_used(h3, nb, &first3, &last3))
		return 0;
	for (qq = 0; qq <= NUM_Q_MAX; qq++) {
		cost = num_cost(h3, NUM_Q_MAX, first3, last3, qq, freq, &lo,
				&nsym);
		if (cost < best) {
			best = cost;
			*q = qq;
		}
	}
	return best;
}

/* The candidates' histograms at NUM_PICK_Q, in the probe's room too */
struct num_hist {
	u32 freq[NUM_SYMS];
	u16 h2[NUM_NR_CAND][NUM_BINS2];
};

/* Numbers of a page the encoder picks its candidate on, in NUM_WINDOWS */
#define NUM_PICK	128
#define NUM_WINDOWS	4

/*
 * The candidate of the fewest estimated bits for @windows windows of @per
 * numbers of @w bytes, @stride numbers apart from @src, scanned in @sc,
 * counted in @h; with @table, the code's lengths are counted too (a
 * sample leaves them out: the page pays them once).  Returns the bits,
 * U32_MAX when none can code them, and the candidate in *@cand.
 */
static noinline_for_stack u32 num_pick(const u8 *src, unsigned int per,
				       unsigned int windows,
				       unsigned int stride, unsigned int w,
				       const struct num_scan *sc,
				       struct num_hist *h,
				       unsigned int *cand, bool table)
{
	unsigned int nb = num_bins(w, NUM_PICK_Q), c, k, first, last, lo;
	unsigned int nsym;
	u32 best = U32_MAX, cost;

	for (c = 0; c < NUM_NR_CAND; c++)
		memset(h->h2[c], 0, nb * sizeof(u16));
	/* windows apart: differences across their gaps mean nothing */
	for (k = 0; k < windows; k++) {
		num_count(src + k * stride * w, per, w, sc, h->h2);
		num_count_float(src + k * stride * w, per, w, sc, h->h2);
	}
	*cand = NUM_C_INT0;
	for (c = 0; c < NUM_NR_CAND; c++) {
		if (c == NUM_C_SINT0 && sc->factor >= 2)
			continue;
		cost = 0;
		if (num_used(h->h2[c], nb, &first, &last)) {
			cost = num_cost(h->h2[c], NUM_PICK_Q, first, last,
					NUM_PICK_Q, h->freq, &lo, &nsym);
			if (!table && cost != U32_MAX && nsym > 1)
				cost -= nsym * 4 * 256;
			/*
			 * per number: a window's first ones are not counted,
			 * more of them the more differences
			 */
			if (cost != U32_MAX)
				cost = div_u64((u64)cost * per,
					       per - num_cand_order[c]);
		}
		if (cost < best) {
			best = cost;
			*cand = c;
		}
	}
	return best;
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
};

/*
 * struct num_enc, then the values of @max_len bytes, their bins (as
 * many bytes: two for every two or more) and the two bit streams, each
 * at most as long as the room for the step's output
 * (zbewalgo_stage_cap(), which @max_len already is)
 */
size_t zbw_num_enc_size(unsigned int max_len)
{
	return ALIGN(sizeof(struct num_enc), 8) + 4 * max_len;
}

static void num_view_of(unsigned int cand, unsigned int w,
			const struct num_scan *sc, struct num_view *v)
{
	v->w = w;
	v->view = num_cand_view[cand];
	v->order = num_cand_order[cand];
	v->shift = v->view == NUM_FLOAT ? sc->shift : 0;
	v->bits = 8 * w - v->shift;
	v->factor = 0;
	v->base = 0;
	v->low = 0;
	if (v->view != NUM_FLOAT && sc->factor >= 2) {
		/* the factor is counted in the signed view */
		v->view = NUM_SIGNED;
		v->factor = sc->factor;
		v->base = sc->low[NUM_SIGNED];
	} else if (!v->order) {
		v->low = sc->low[v->view];
	}
}

/* Value @k of number @x in view @v */
static __always_inline u64 num_value(u64 x, const struct num_view *v)
{
	u64 y = num_to_view(x >> v->shift, v->view, v->bits);

	return v->factor ? num_divide(y - v->base, v->factor) : y;
}

/*
 * The values of view @v of the @m numbers at @src, as @w-byte words at
 * @r: the raw ones first, then the others, whose bins at NUM_Q_MAX go to
 * @b3 and are counted in @h3.
 */
static __always_inline void num_values(const u8 *src, unsigned int m,
				       unsigned int w,
				       const struct num_view *v, u8 *r,
				       u16 *b3, u16 *h3)
{
	unsigned int bits = v->bits, i, j;
	u64 t[NUM_ORDER_MAX + 1], prev[NUM_ORDER_MAX] = { 0 }, x;

	for (i = 0; i < m; i++) {
		/* t[j]: the j-th difference at number i */
		t[0] = num_value(zbw_get_word(src, i, w), v);
		for (j = 1; j <= v->order; j++) {
			t[j] = (t[j - 1] - prev[j - 1]) & num_mask(bits);
			prev[j - 1] = t[j - 1];
		}
		/* the first numbers: the differences they have, raw */
		if (!v->order)
			x = t[0] - v->low;
		else if (i >= v->order)
			x = num_zigzag(t[v->order], bits);
		else
			x = t[i];
		zbw_put_word(x, r, i, w);
		if (i >= v->order) {
			b3[i] = num_bin3(x);
			h3[b3[i]]++;
		}
	}
}

static int num_put_word(u8 **p, const u8 *end, u64 x, unsigned int w)
{
	if (end - *p < w)
		return -ENOSPC;
	zbw_put_word(x, *p, 0, w);
	*p += w;
	return 0;
}

/* The header of view @v up to the bins (format above); -ENOSPC */
static int num_put_head(const struct num_view *v, unsigned int slen,
			const u8 *r, unsigned int m, u8 **p, const u8 *end)
{
	u8 mode = v->view | v->order << NUM_MODE_ORDER_SHIFT;
	unsigned int i;
	int n;

	if (v->factor)
		mode |= NUM_MODE_FACTOR;
	if (v->shift)
		mode |= NUM_MODE_SHIFT;
	if (*p >= end)
		return -ENOSPC;
	*(*p)++ = mode;
	n = zbw_put_size(*p, end, slen);
	if (n < 0)
		return n;
	*p += n;
	if (v->shift) {
		if (*p >= end)
			return -ENOSPC;
		*(*p)++ = v->shift;
	}
	if (v->factor && (num_put_word(p, end, v->base, v->w) ||
			  num_put_word(p, end, v->factor, v->w)))
		return -ENOSPC;
	if (!v->order && !v->factor &&
	    num_put_word(p, end, v->low, v->w))
		return -ENOSPC;
	for (i = 0; i < v->order && i < m; i++)
		if (num_put_word(p, end, zbw_get_word(r, i, v->w), v->w))
			return -ENOSPC;
	return 0;
}

/* The bit stream of values @order.. of the @m at @r, at @q, codes @code */
/*
 * A value, in the bin of code @code (its length in bits 16-20, the
 * offset's length in bits 24-29), into @bw
 */
static __always_inline int num_put_value(struct zbw_bitw *bw, u64 x,
					 u32 code, unsigned int w)
{
	unsigned int ob = code >> 24;

	zbw_bitw_flush(bw);
	if (unlikely(bw->nb >= 8))
		return -ENOSPC;
	zbw_bitw_put(bw, code & 0xffff, (code >> 16) & 0x1f);
	x &= num_mask(ob);
	if (w == 8 && ob > 32) {
		zbw_bitw_put(bw, x & 0xffffffff, 32);
		zbw_bitw_flush(bw);
		if (bw->nb >= 8)
			return -ENOSPC;
		x >>= 32;
		ob -= 32;
	}
	zbw_bitw_put(bw, x, ob);
	return 0;
}

/*
 * The bit streams of values @order.. of the @m at @r, in bins @b3 at
 * NUM_Q_MAX, codes @code3 by those bins: A for every other one from
 * @order, B for those between.
 */
static __always_inline int num_put_values(const u8 *r, const u16 *b3,
					  unsigned int m, unsigned int w,
					  unsigned int order,
					  const u32 *code3,
					  struct zbw_bitw *bw)
{
	unsigned int i;

	for (i = order; i < m; i++)
		if (num_put_value(&bw[(i - order) & 1], zbw_get_word(r, i, w),
				  code3[b3[i]], w))
			return -ENOSPC;
	return zbw_bitw_close(&bw[0]) && zbw_bitw_close(&bw[1]) ? 0 :
	       -ENOSPC;
}

static __always_inline int num_encode(const u8 *src, unsigned int slen,
				      u8 *dst, unsigned int dcap,
				      void *scratch, unsigned int w)
{
	unsigned int m = slen / w, nb = num_bins(w, NUM_Q_MAX), cand, q, lo;
	unsigned int nsym, i;
	unsigned int first3, last3, used = 0, per, tail = slen - m * w;
	u8 *p = dst, *end = dst + dcap;
	struct num_enc *e = scratch;
	/* the larger state in the scratch: the frame stays small */
	struct num_scan *sc = &e->sc, *sc_be = &e->sc_be;
	struct zbw_bitw *bw = e->bw;
	struct num_view *v = &e->v;
	u32 *next = e->next;
	unsigned int cand_be;
	const u8 *num = src;
	u32 best;
	bool be;
	unsigned int alen, blen, n, ob;
	u8 *sa;
	u16 *h3;
	int err;

	if (m < 2)
		return -EINVAL;
	e->r = (u8 *)scratch + zbw_num_enc_size(0);
	e->b3 = (u16 *)(e->r + ALIGN(slen, 2));
	sa = (u8 *)(e->b3 + m);
	per = min_t(unsigned int, m, NUM_PICK) / NUM_WINDOWS;
	num_scan(src, m, w, sc);
	best = num_pick(src, per, NUM_WINDOWS, m / NUM_WINDOWS, w, sc, &e->h,
			&cand, true);
	be = num_big_endian(src, m, w);
	if (be) {
		/* the values replace the numbers there as they are made */
		zbw_num_swap(e->r, src, m, w);
		num_scan(e->r, m, w, sc_be);
		be = num_pick(e->r, per, NUM_WINDOWS, m / NUM_WINDOWS, w, sc_be,
			      &e->h, &cand_be, true) < best;
	}
	if (be) {
		num = e->r;
		*sc = *sc_be;
		cand = cand_be;
	} else if (best == U32_MAX) {
		return -EINVAL;
	}
	num_view_of(cand, w, sc, v);
	h3 = e->h3;
	memset(h3, 0, nb * sizeof(*h3));
	num_values(num, m, w, v, e->r, e->b3, h3);
	num_best_q(h3, nb, e->h.freq, &q);
	if (!num_used(h3, nb, &first3, &last3)) {
		first3 = 0;
		last3 = 0;
	}
	if (num_cost(h3, NUM_Q_MAX, first3, last3, q, e->h.freq, &lo,
		     &nsym) == U32_MAX)
		return -EINVAL;
	for (i = 0; i < nsym; i++)
		used += !!e->h.freq[i];

	err = num_put_head(v, slen, e->r, m, &p, end);
	if (err)
		return err;
	if (used <= 1)
		dst[0] |= NUM_MODE_ONE;
	if (be)
		dst[0] |= NUM_MODE_BIG_ENDIAN;
	if (end - p < 2 + ZBW_LEN_BYTES_MAX + (nsym + 1) / 2 + tail)
		return -ENOSPC;
	*p++ = q;
	p += zbw_put_len(p, end, lo);
	*p++ = nsym - 1;
	memset(e->code, 0, nsym * sizeof(*e->code));
	if (used > 1) {
		zbw_huf_lengths(e->h.freq, nsym, NUM_CODE_BITS, e->len, e->buf);
		for (i = 0; i < nsym; i += 2)
			*p++ = e->len[i] | (i + 1 < nsym ? e->len[i + 1] << 4 : 0);
		zbw_huf_canon(e->len, nsym, NUM_CODE_BITS, next, NULL);
		for (i = 0; i < nsym; i++)
			if (e->len[i])
				e->code[i] = zbw_huf_rev(next[e->len[i]]++,
							 e->len[i]) |
					     e->len[i] << 16;
	}
	/* code and offset length by bin at NUM_Q_MAX, for the values */
	for (i = first3; i <= last3; i++) {
		unsigned int b = num_merge(i, NUM_Q_MAX, q, &ob) - lo;

		e->code3[i] = e->code[b] | ob << 24;
	}
	memcpy(p, src + m * w, tail);
	p += tail;
	/* both streams in the scratch, then their lengths are known */
	zbw_bitw_init(&bw[0], sa, sa + dcap);
	zbw_bitw_init(&bw[1], sa + dcap, sa + 2 * dcap);
	err = num_put_values(e->r, e->b3, m, w, v->order, e->code3, bw);
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

#define NUM_ENCODER(w)							\
int zbw_num##w##_encode(const u8 *src, unsigned int slen, u8 *dst,	\
			unsigned int dcap, void *scratch)		\
{									\
	return num_encode(src, slen, dst, dcap, scratch, w);		\
}

NUM_ENCODER(2)
NUM_ENCODER(4)
NUM_ENCODER(8)

/**
 * zbw_num_estimate() - what a num step is expected to make of a page
 * @sample: windows of the page, each a whole number of words
 * @n: bytes of the sample
 * @windows: how many windows @sample has, each @n / @windows bytes
 * @w: the step's word size, 2, 4 or 8
 * @scratch: at least ZBW_NUM_EST_SCRATCH bytes, 8-byte aligned
 *
 * Return: the estimated bits of the sample's numbers, in 1/256 bits,
 * without the page's header and code lengths; U32_MAX when the step
 * cannot code them.
 */
u32 zbw_num_estimate(const u8 *sample, unsigned int n, unsigned int windows,
		     unsigned int w, void *scratch)
{
	struct num_hist *h = scratch +
			     BUILD_BUG_ON_ZERO(sizeof(struct num_hist) +
					       ZBW_PROBE_BYTES +
					       sizeof(struct num_scan) >
					       ZBW_NUM_EST_SCRATCH);
	/* after the histograms the sample byte-reversed, then the scan */
	u8 *swapped = (u8 *)(h + 1);
	struct num_scan *sc = (struct num_scan *)(swapped + ZBW_PROBE_BYTES);
	unsigned int per = n / windows / w, cand;
	u32 best;

	num_scan_sample(sample, n / w, w, sc);
	best = num_pick(sample, per, windows, per, w, sc, h, &cand, false);
	if (num_big_endian(sample, n / w, w)) {
		zbw_num_swap(swapped, sample, n / w, w);
		num_scan_sample(swapped, n / w, w, sc);
		best = min(best, num_pick(swapped, per, windows, per, w, sc, h,
					  &cand, false));
	}
	return best;
}
