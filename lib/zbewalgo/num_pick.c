// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the encoder of the num2, num4 and num8 steps measures before it
 * writes a page (num_enc.c): the byte order, nine views on numbers
 * spread over the page, each counted into a histogram and costed, and the
 * view of the fewest bits picked.  The probe's estimate of a num step is
 * the same pick on the probe's sample.
 */

#include "num_enc.h"

/* Numbers looked at for their byte order */
#define NUM_ORDER_LOOK		64u

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

/*
 * The candidate of the fewest estimated bits for @windows windows of @per
 * numbers of @w bytes, @stride numbers apart from @src, scanned in @sc,
 * counted in @h; with @table, the code's lengths are counted too (a
 * sample leaves them out: the page pays them once).  Returns the bits,
 * U32_MAX when none can code them, and the candidate in *@cand.
 */
noinline_for_stack u32 zbw_num_pick(const u8 *src, unsigned int per,
				    unsigned int windows, unsigned int stride,
				    unsigned int w, const struct num_scan *sc,
				    struct num_hist *h, unsigned int *cand,
				    bool table)
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

void zbw_num_view_of(unsigned int cand, unsigned int w,
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
	best = zbw_num_pick(sample, per, windows, per, w, sc, h, &cand, false);
	if (zbw_num_big_endian(sample, n / w, w)) {
		zbw_num_swap(swapped, sample, n / w, w);
		num_scan_sample(swapped, n / w, w, sc);
		best = min(best, zbw_num_pick(swapped, per, windows, per, w,
					      sc, h, &cand, false));
	}
	return best;
}
