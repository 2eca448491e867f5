// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the encoder of the num2, num4 and num8 steps measures before it
 * writes a page (num_enc.c): the lag of an array of records, nine views
 * on numbers spread over the page and two at the lag, each counted into
 * a histogram and costed, and the view of the fewest bits picked (a page
 * of few distinct numbers also has its palette, num_pal.c).  The probe's
 * estimate of a num step is the same pick on the probe's sample (the
 * lag's on the page), and the encoder takes it.
 */

#include "num_enc.h"

/* Each candidate's order of differences (its view: num_cand_view()) */
static const u8 num_cand_order[NUM_NR_CAND] = {
	[NUM_C_INT1] = 1, [NUM_C_INT2] = 2, [NUM_C_INT3] = 3,
	[NUM_C_FLT1] = 1, [NUM_C_FLT2] = 2, [NUM_C_FLT3] = 3,
	[NUM_C_LAG1] = 1, [NUM_C_LAG2] = 2, [NUM_C_PAL1] = 1,
};

/* Numbers in the middle of the page whose differences zbw_num_lag() sums */
#define NUM_LAG_LOOK		8u

/* zbw_num_lag() for a constant @w: loads of the word size */
static __always_inline unsigned int num_lag(const u8 *src, unsigned int m,
					    unsigned int w)
{
	unsigned int start = m / 2, sh = 64 - 8 * w, lag, i;
	u16 sum[NUM_LAG_MAX + 1];
	u32 best = U32_MAX;
	s64 d;

	if (start < NUM_LAG_MAX || start + NUM_LAG_LOOK > m)
		return 1;
	for (lag = 1; lag <= NUM_LAG_MAX; lag++) {
		sum[lag] = 0;
		for (i = start; i < start + NUM_LAG_LOOK; i++) {
			/* the difference, signed, and its bits but the sign */
			d = (s64)((zbw_get_word(src, i, w) -
				   zbw_get_word(src, i - lag, w)) << sh) >> sh;
			sum[lag] += fls64((d ^ (d >> 63)) | 1);
		}
		best = min_t(u32, best, sum[lag]);
	}
	for (lag = 1; sum[lag] > best + best / 8; lag++)
		;
	/* a lag that takes a quarter less than the number before, or none */
	return 4 * sum[lag] <= 3 * sum[1] ? lag : 1;
}

/**
 * zbw_num_lag() - the length of a page's records, in numbers
 * @src: the numbers
 * @m: how many
 * @w: bytes each
 *
 * In an array of records of L numbers a field changes little from one
 * record to the next (a counter, a pointer into an array of like
 * objects, a flag) where neighbouring numbers, other fields, differ
 * wildly: the differences at lag L are small, those at lag 1 are not.
 * The bits of the differences of NUM_LAG_LOOK numbers in the middle of
 * the page are summed at each lag up to NUM_LAG_MAX: the lag is the least
 * whose sum is within an eighth of the least sum (the record's multiples
 * do as well, and cost more raw numbers), if its sum is a quarter below
 * that of lag 1.  256 differences, a fraction of what the pick counts;
 * on programs' swapped pages 8 numbers found lags as good as 16 or 64.
 *
 * Return: the lag, 1 when the numbers before do about as well (no
 * records) or the page is too short to tell.
 */
unsigned int zbw_num_lag(const u8 *src, unsigned int m, unsigned int w)
{
	if (w == 2)
		return num_lag(src, m, 2);
	if (w == 4)
		return num_lag(src, m, 4);
	return num_lag(src, m, 8);
}

/* num_scan() for the probe, in a frame of its own */
static noinline_for_stack void num_scan_sample(const u8 *src, unsigned int m,
					       unsigned int w,
					       struct num_scan *sc)
{
	num_scan(src, m, w, sc, NUM_SCAN_ALL);
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
 * @y, of @bits bits, to the histograms @h[0..] (those the first numbers
 * have); @prev holds the value and the differences at the number before.
 */
static __always_inline void num_count_diffs(u64 y, u64 *prev, unsigned int i,
					    unsigned int bits,
					    u16 (*h)[NUM_BINS2])
{
	u64 mask = num_mask(bits);
	u64 d1 = (y - prev[0]) & mask;
	u64 d2 = (d1 - prev[1]) & mask;
	u64 d3 = (d2 - prev[2]) & mask;

	BUILD_BUG_ON(NUM_ORDER_MAX != 3);
	prev[0] = y;
	prev[1] = d1;
	prev[2] = d2;
	if (i > 0)
		h[0][num_bin2(num_zigzag(d1, bits))]++;
	if (i > 1)
		h[1][num_bin2(num_zigzag(d2, bits))]++;
	if (i > 2)
		h[2][num_bin2(num_zigzag(d3, bits))]++;
}

/*
 * Adds the values of each candidate @c for the @m numbers of @w bytes at
 * @src to its histogram at NUM_PICK_Q, @h[@c] (the signed view's only
 * without a common factor); the first numbers, which a candidate stores
 * raw, are not counted.  The float view's candidates with @flt, their
 * values @fbits bits wide.
 */
static __always_inline void num_count_w(const u8 *src, unsigned int m,
					unsigned int w, unsigned int fbits,
					const struct num_scan *sc, bool flt,
					u16 (*h)[NUM_BINS2])
{
	unsigned int bits = 8 * w, i;
	u64 ip[NUM_ORDER_MAX] = { 0 }, fp[NUM_ORDER_MAX] = { 0 }, x, k, f;
	u64 ilow = sc->factor < 2 ? sc->low[NUM_UNSIGNED] : 0;
	bool sint = num_sint(sc);

	for (i = 0; i < m; i++) {
		x = zbw_get_word(src, i, w);
		k = num_int(x, sc, bits);
		h[NUM_C_INT0][num_bin2(k - ilow)]++;
		if (sint)
			h[NUM_C_SINT0][num_bin2(num_to_view(x, NUM_SIGNED, bits) -
						sc->low[NUM_SIGNED])]++;
		num_count_diffs(k, ip, min(i, NUM_ORDER_MAX), bits,
				&h[NUM_C_INT1]);
		if (!flt)
			continue;
		f = num_to_view(x >> (bits - fbits), NUM_FLOAT, fbits);
		h[NUM_C_FLT0][num_bin2(f - sc->low[NUM_FLOAT])]++;
		num_count_diffs(f, fp, min(i, NUM_ORDER_MAX), fbits,
				&h[NUM_C_FLT1]);
	}
}

/* num_count_w() with the word size a constant */
static noinline_for_stack void num_count(const u8 *src, unsigned int m,
					 unsigned int w,
					 const struct num_scan *sc, bool flt,
					 u16 (*h)[NUM_BINS2])
{
	unsigned int fbits = 8 * w - sc->shift;

	if (w == 2)
		num_count_w(src, m, 2, fbits, sc, flt, h);
	else if (w == 4)
		num_count_w(src, m, 4, fbits, sc, flt, h);
	else
		num_count_w(src, m, 8, fbits, sc, flt, h);
}

/*
 * Adds the values of the lag candidates of @all numbers spread over the
 * page @page of @m numbers of @w bytes to @h[NUM_C_LAG1] and
 * @h[NUM_C_LAG2], with the numbers they are the differences with.  Not
 * the windows of the other candidates: an array of records is periodic
 * over a window more often than over the page (a sparse matrix's column
 * indices, which jump at the end of a row).  Each number is at a place
 * of its own in its stretch of the page, so that a stride that is a
 * multiple of the lag does not see one field only.  @sc's factor counts
 * when it is the page's (@sc of a sample does not know it: the numbers
 * are taken as they are).  The values counted at each order go to @n.
 */
static noinline_for_stack void num_count_lag(const u8 *page, unsigned int m,
					     unsigned int all, unsigned int w,
					     const struct num_scan *sc,
					     bool factor, u16 (*h)[NUM_BINS2],
					     unsigned int *n)
{
	unsigned int bits = 8 * w, lag = sc->lag, stride = m / all, j, p;
	u64 mask = num_mask(bits), a, b, d;

	for (j = 0; j < all && stride; j++) {
		p = j * stride + (j * 37 + 11) % stride;
		if (p < lag)
			continue;
		a = zbw_get_word(page, p, w);
		b = zbw_get_word(page, p - lag, w);
		if (factor) {
			a = num_int(a, sc, bits);
			b = num_int(b, sc, bits);
		}
		d = (a - b) & mask;
		h[NUM_C_LAG1][num_bin2(num_zigzag(d, bits))]++;
		n[0]++;
		if (p < 2 * lag)
			continue;
		a = zbw_get_word(page, p - 2 * lag, w);
		if (factor)
			a = num_int(a, sc, bits);
		h[NUM_C_LAG2][num_bin2(num_zigzag(d - b + a, bits))]++;
		n[1]++;
	}
}

/*
 * Estimated bits of the values counted in histogram @h2 (@nb bins) for
 * windows of @per numbers at @order, per number counted or not (a
 * window's first ones are not, more of them the more differences); the
 * code's lengths with @table.  num_cost() at the histogram's own q, where
 * each bin is a symbol of its own: nothing to merge.  One pass: the sum
 * of c * (log n - log c) is n log n less that of c log c, and only a bin
 * of more than half the numbers has a code shorter than the one bit a
 * prefix code spends at least.
 */
static u32 num_pick_cost(const u16 *h2, unsigned int nb, unsigned int per,
			 unsigned int order, bool table)
{
	unsigned int first, last, b, g, nsym;
	u32 n = 0, c, top = 0, log_n, log_top = 0;
	u64 bits = 0, clog = 0;

	if (!num_used(h2, nb, &first, &last))
		return 0;
	nsym = last - first + 1;
	if (nsym > NUM_SYMS)
		return U32_MAX;
	for (g = first & ~3u; g <= last; g += 4) {
		if (num_empty4(h2, g))
			continue;
		for (b = g; b < g + 4; b++) {
			c = h2[b];
			if (!c)
				continue;
			n += c;
			/* the offset bits of bin b (num_bin()) */
			if (b >> NUM_PICK_Q)
				bits += (u64)c * ((b >> NUM_PICK_Q) - 1) * 256;
			clog += (u64)c * zbw_log2_q8(c);
			top = max(top, c);
		}
	}
	/* one bin: no codes */
	if (nsym > 1) {
		log_n = zbw_log2_q8(n);
		bits += (u64)n * log_n - clog;
		if (2 * top > n) {
			log_top = log_n - zbw_log2_q8(top);
			if (log_top < 256)
				bits += (u64)top * (256 - log_top);
		}
		if (table)
			bits += nsym * 4 * 256;
	}
	bits = min_t(u64, bits, U32_MAX - 1);
	return div_u64(bits * per, per - order);
}

/*
 * The candidate of the fewest estimated bits for @windows windows of @per
 * numbers of @w bytes, @stride numbers apart from @src, scanned in @sc,
 * counted in @h; with @table, the code's lengths are counted too (a
 * sample leaves them out: the page pays them once).  The lag candidates
 * (when @sc has a lag) are counted on as many numbers of @page, of @m
 * numbers (num_count_lag(); @sc's factor only when @page is @src), and
 * pay for their raw numbers.
 * Returns the bits, U32_MAX when none can code them, and the candidate in
 * *@cand.  The palette's candidates are not among them
 * (zbw_num_pal_pick()).
 */
noinline_for_stack u32 zbw_num_pick(const u8 *src, unsigned int per,
				    unsigned int windows, unsigned int stride,
				    unsigned int w, const struct num_scan *sc,
				    const u8 *page, unsigned int m,
				    struct num_hist *h, unsigned int *cand,
				    bool table)
{
	unsigned int nb = num_bins(w, NUM_PICK_Q), all = windows * per, c, k;
	unsigned int n[2] = { 0, 0 }, order;
	u32 best = U32_MAX, cost;
	bool flt;
	u64 raw;

	for (c = 0; c < NUM_NR_HIST; c++)
		memset(h->h2[c], 0, nb * sizeof(u16));
	/* windows apart: differences across their gaps mean nothing */
	flt = num_float(sc);
	for (k = 0; k < windows; k++)
		num_count(src + k * stride * w, per, w, sc, flt, h->h2);
	*cand = NUM_C_INT0;
	for (c = 0; c < NUM_C_LAG1; c++) {
		if ((c == NUM_C_SINT0 && !num_sint(sc)) ||
		    (num_cand_view(c) == NUM_FLOAT && !flt))
			continue;
		cost = num_pick_cost(h->h2[c], nb, per, num_cand_order[c],
				     table);
		if (cost < best) {
			best = cost;
			*cand = c;
		}
	}
	if (sc->lag < 2 || !m)
		return best;
	num_count_lag(page, m, all, w, sc, page == src, h->h2, n);
	for (c = NUM_C_LAG1; c <= NUM_C_LAG2; c++) {
		order = num_cand_order[c];
		if (!n[order - 1])
			continue;
		cost = num_pick_cost(h->h2[c], nb, all, all - n[order - 1],
				     table);
		/* the page's raw numbers, the sample's share of them */
		raw = (u64)min(order * sc->lag, m) * w * 8 * 256 * all;
		cost = min_t(u64, (u64)cost + div_u64(raw, m), U32_MAX);
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
	v->view = num_cand_view(cand);
	v->order = num_cand_order[cand];
	v->lag = cand == NUM_C_LAG1 || cand == NUM_C_LAG2 ? sc->lag : 1;
	v->shift = v->view == NUM_FLOAT ? sc->shift : 0;
	v->bits = 8 * w - v->shift;
	v->factor = 0;
	v->base = 0;
	v->low = 0;
	if (v->view == NUM_PALETTE)
		return;
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
 * @page: the page
 * @slen: its length
 * @scratch: at least ZBW_NUM_EST_SCRATCH bytes, 8-byte aligned
 * @lagged: set when a lag candidate gave the estimate
 * @hint: the candidate and byte order picked and the page's lag, for the
 *	step's encoder (@hint->page is left to the caller); @hint->w is 0
 *	when none can code the numbers
 *
 * The lag candidates are counted on the page (its own byte order only).
 *
 * Return: the estimated bits of the sample's numbers, in 1/256 bits,
 * without the page's header and code lengths; U32_MAX when the step
 * cannot code them.
 */
u32 zbw_num_estimate(const u8 *sample, unsigned int n, unsigned int windows,
		     unsigned int w, const u8 *page, unsigned int slen,
		     void *scratch, bool *lagged, struct zbw_num_hint *hint)
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
	u32 best, be;

	num_scan_sample(sample, n / w, w, sc);
	sc->lag = zbw_num_lag(page, slen / w, w);
	hint->lag = sc->lag;
	best = zbw_num_pick(sample, per, windows, per, w, sc, page, slen / w,
			    h, &cand, false);
	*lagged = cand == NUM_C_LAG1 || cand == NUM_C_LAG2;
	hint->cand = cand;
	hint->be = false;
	hint->unit = sc->factor == 1;
	if (zbw_num_big_endian(sample, n / w, w)) {
		zbw_num_swap(swapped, sample, n / w, w);
		num_scan_sample(swapped, n / w, w, sc);
		be = zbw_num_pick(swapped, per, windows, per, w, sc, NULL, 0, h,
				  &cand, false);
		if (be < best) {
			best = be;
			*lagged = false;
			hint->cand = cand;
			hint->be = true;
			hint->unit = sc->factor == 1;
		}
	}
	hint->w = best == U32_MAX ? 0 : w;
	return best;
}

/**
 * zbw_num_hint_page() - the probe's pick for a num step, without the probe
 * @src: the page
 * @slen: its length
 * @w: the step's word size, 2, 4 or 8
 * @scratch: at least ZBW_PROBE_SCRATCH bytes, 8-byte aligned
 * @hint: the pick, as zbw_probe() leaves it when it estimates the step;
 *	none (@hint->w 0) for a page too short to probe
 *
 * The probe estimates a num step only where it expects it (not after an
 * easy chain, not for a word size the page's lanes do not show, not in a
 * table of one chain); this makes the same pick where it did not, so that
 * the step writes a page the same in any table.
 */
void zbw_num_hint_page(const u8 *src, unsigned int slen, unsigned int w,
		       void *scratch, struct zbw_num_hint *hint)
{
	bool lagged;

	hint->page = src;
	hint->w = 0;
	if (slen < ZBW_CHECK_MIN)
		return;
	zbw_probe_windows(src, slen, scratch);
	zbw_num_estimate(scratch, ZBW_PROBE_BYTES, ZBW_PROBE_WINDOWS, w, src,
			 slen, (u8 *)scratch + ZBW_PROBE_NUM_ROOM, &lagged,
			 hint);
}

/* Bytes of a num step's header and code lengths the sample leaves out */
#define ZBW_NUM_HEAD		16

/*
 * What the num step of word size @w is expected to write for the page
 * @src, from the sample at @scratch (zbw_probe_sample()), before
 * zbw_probe_estimate() scales it: @slen when it codes nothing.  @lagged
 * and @hint as zbw_num_estimate() leaves them.  Inline, as the helpers
 * below: zbw_num_probe() is one frame of the probe's deepest chain.
 */
static __always_inline u32 num_probe(void *scratch, unsigned int w,
				     const u8 *src, unsigned int slen,
				     bool *lagged, struct zbw_num_hint *hint)
{
	u8 *room = (u8 *)scratch + ZBW_PROBE_NUM_ROOM;
	u32 bits, est;

	hint->page = src;
	bits = zbw_num_estimate(scratch, ZBW_PROBE_BYTES, ZBW_PROBE_WINDOWS,
				w, src, slen, room, lagged, hint);
	est = bits == U32_MAX ? slen :
	      ZBW_NUM_HEAD + DIV_ROUND_UP((u64)bits * slen,
					  8 * 256 * ZBW_PROBE_BYTES);
	/*
	 * The palette's estimate is of the whole page, header and all,
	 * taken half as much again: the coder writes about an eighth more
	 * (the bins of the indices), and a chain ranked first that writes
	 * more than the next would have ends the search (search.c) all the
	 * same.  It takes a pass over the page: only where the views expect
	 * less than 2:1.
	 */
	bits = est < slen / 2 ? U32_MAX :
	       zbw_num_pal_estimate(src, slen, w, room);
	if (bits != U32_MAX && DIV_ROUND_UP(bits, 8 * 256) * 3 / 2 < est) {
		est = DIV_ROUND_UP(bits, 8 * 256) * 3 / 2;
		*lagged = false;
	}
	return min_t(u32, est, slen);
}

/* num_probe() of num8, made once per sample, its pick as the last */
static __always_inline u32 num_probe8(void *scratch, const u8 *src,
				      unsigned int slen)
{
	struct zbw_probe_facts *f = zbw_probe_facts(scratch);

	if (!f->est8)
		f->est8 = num_probe(scratch, 8, src, slen, &f->lagged8,
				    &f->hint8);
	f->lagged = f->lagged8;
	f->pick = f->hint8;
	return f->est8;
}

/*
 * Whether byte @at of the sample's 8-byte words takes at most a quarter
 * as many values as there are words
 */
static bool num_probe_few(const u8 *sample, unsigned int at)
{
	u64 seen[4] = { 0 };
	unsigned int i;

	for (i = at; i < ZBW_PROBE_BYTES; i += 8)
		seen[sample[i] >> 6] |= BIT_ULL(sample[i] & 63);
	return hweight64(seen[0]) + hweight64(seen[1]) + hweight64(seen[2]) +
	       hweight64(seen[3]) <= ZBW_PROBE_BYTES / 8 / 4;
}

/*
 * Whether the sample's 8-byte words look like pairs of 4-byte numbers:
 * the top byte of the first (little-endian) or second (big-endian) half
 * takes a few values (a float's sign and exponent, an index's high byte),
 * where that byte of an 8-byte float, in the middle of its mantissa,
 * takes nearly one per word.
 */
static bool num_probe_halves(const u8 *sample)
{
	return num_probe_few(sample, 3) || num_probe_few(sample, 4);
}

/*
 * num4's estimate of a page whose lanes repeat every 8 bytes: records of
 * 4-byte fields (a grid of float pairs, a sparse matrix's column indices
 * beside its values) do, as 8-byte numbers do.  Taken only where the
 * words' low halves look like numbers of their own, the page compresses
 * less than 4:1 and num4's estimate is a twelfth below num8's, the
 * models being closest to what the coders write there; else @slen.
 */
static __always_inline u32 num_probe_fields(void *scratch, const u8 *src,
					    unsigned int slen)
{
	struct zbw_probe_facts *f = zbw_probe_facts(scratch);
	u32 est4, est8;

	if (!num_probe_halves(scratch))
		return slen;
	est8 = num_probe8(scratch, src, slen);
	/* the two bounds below cannot both hold: spare num4's estimate */
	if (11 * est8 < 3 * slen)
		return slen;
	est4 = num_probe(scratch, 4, src, slen, &f->lagged, &f->pick);
	if (est4 >= slen || est4 < slen / 4 || 12 * est4 > 11 * est8)
		return slen;
	return est4;
}

/**
 * zbw_num_probe() - what a num step is expected to write, for the probe
 * @scratch: the probe's, with its sample of the page (zbw_probe_sample())
 * @w: the step's word size, 2, 4 or 8
 * @src: the page (the lag candidates and the palette are counted on it)
 * @slen: its length
 *
 * Only the step of the word size the sample's lanes show is estimated,
 * and num4 where they show 8 bytes (num_probe_fields()).  The step's pick
 * and whether a lag candidate gave the estimate are left in the probe's
 * facts (struct zbw_probe_facts).
 *
 * Return: the bytes, before zbw_probe_estimate() scales them; @slen when
 * the step codes nothing or is not estimated.
 */
u32 zbw_num_probe(void *scratch, unsigned int w, const u8 *src,
		  unsigned int slen)
{
	struct zbw_probe_facts *f = zbw_probe_facts(scratch);

	if (w == f->width && w == 8)
		return num_probe8(scratch, src, slen);
	if (w == f->width)
		return num_probe(scratch, w, src, slen, &f->lagged, &f->pick);
	if (w == 4 && f->width == 8)
		return num_probe_fields(scratch, src, slen);
	return slen;
}
