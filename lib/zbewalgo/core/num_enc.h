/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the two halves of the num steps' encoder share: the measurement
 * of the candidates (num_pick.c, which the probe's estimate runs too) and
 * the writer of the page (num_enc.c).  The scan and the cost of a
 * histogram are inline: the writer runs them on the whole page, with the
 * word size known.
 */
#ifndef __ZBEWALGO_NUM_ENC_H
#define __ZBEWALGO_NUM_ENC_H

#include <linux/math64.h>

#include "num.h"
#include "search.h"

/*
 * The candidates the encoder measures: the integer values (the page's
 * common factor taken out when it has one) at each order, the signed
 * view at order 0 (where it differs), the float view at each order, the
 * integer values at orders 1 and 2 at the page's lag (an array of
 * records: zbw_num_lag()), all on a sample of the page; and for a page of
 * few distinct numbers their indices into its palette at orders 0 and 1,
 * on the whole page.
 */
enum {
	NUM_C_INT0, NUM_C_SINT0, NUM_C_INT1, NUM_C_INT2, NUM_C_INT3,
	NUM_C_FLT0, NUM_C_FLT1, NUM_C_FLT2, NUM_C_FLT3,
	NUM_C_LAG1, NUM_C_LAG2,
	NUM_NR_HIST,
	NUM_C_PAL0 = NUM_NR_HIST, NUM_C_PAL1,
	NUM_NR_CAND,
};

/*
 * Bins at NUM_Q_MAX of an index and its difference, which is below
 * 2^NUM_PAL_BITS, below 2^(NUM_PAL_BITS + 1) as stored
 */
#define NUM_PAL_BINS3	((NUM_PAL_BITS + 2 - NUM_Q_MAX) << NUM_Q_MAX)

/*
 * Greatest common divisor of @a and @b, both nonzero (the kernel's gcd()
 * is of unsigned long): Euclid's, whose first step brings a large @b
 * down to below a small @a at once.
 */
static inline u64 num_gcd(u64 a, u64 b)
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

/**
 * struct num_scan - what a pass over a page tells of its numbers
 * @low: smallest value of each view at order 0 (the float view shifted)
 * @factor: common factor of the signed view's values counted from its
 *	smallest, 0 or 1 for none
 * @shift: low bits all numbers but @nexc have zero, up to the float
 *	mantissa's
 * @nexc: numbers whose low @shift bits are not all zero, the exceptions
 * @lag: the page's lag, 1 for none (zbw_num_lag())
 * @tops: bit 0 set when a number's top bit is clear, bit 1 when one's is
 *	set (both bits unless both views are measured)
 * @ntz: numbers by their trailing zero bits, up to the mantissa's (52)
 */
struct num_scan {
	u64 low[3];
	u64 factor;
	unsigned int shift;
	unsigned int nexc;
	unsigned int lag;
	unsigned int tops;
	u16 ntz[53];
};

/*
 * The shift of the fewest bits for the @m numbers of @w bytes at @src,
 * @odd of them odd: each drops its low bits, each exception costs its
 * index and those bits (about: a byte of index gap, the count's byte), at
 * most NUM_EXC_MAX and one in NUM_EXC_PER: a sample's few must not
 * promise the page more.  With more odd numbers than that there is no
 * shift, and no pass to count their trailing zeros.
 */
static __always_inline void num_scan_shift(struct num_scan *sc,
					   const u8 *src, unsigned int m,
					   unsigned int w, unsigned int odd)
{
	unsigned int most = min(NUM_EXC_MAX, m / NUM_EXC_PER);
	unsigned int t, i, exc = 0, best = 0;
	s64 gain, top = 0;

	sc->nexc = 0;
	sc->shift = 0;
	if (odd > most)
		return;
	memset(sc->ntz, 0, sizeof(sc->ntz));
	for (i = 0; i < m; i++)
		sc->ntz[__ffs64(zbw_get_word(src, i, w) |
				BIT_ULL(num_mantissa(w)))]++;
	for (t = 1; t <= num_mantissa(w); t++) {
		exc += sc->ntz[t - 1];
		if (exc > most)
			break;
		gain = (s64)m * t - (s64)exc * (8 + 8 * DIV_ROUND_UP(t, 8)) -
		       (exc ? 8 : 0);
		if (gain > top) {
			top = gain;
			best = t;
			sc->nexc = exc;
		}
	}
	sc->shift = best;
}

/*
 * What num_scan() measures: the integer views' smallest values and
 * factor, the float view's smallest value and shift.  The encoder of a
 * page whose view is picked needs that view's only.
 */
#define NUM_SCAN_INT		1u
#define NUM_SCAN_FLOAT		2u
#define NUM_SCAN_ALL		(NUM_SCAN_INT | NUM_SCAN_FLOAT)

/* The view candidate @c reads its numbers in */
static __always_inline unsigned int num_cand_view(unsigned int c)
{
	static const u8 view[NUM_NR_CAND] = {
		[NUM_C_SINT0] = NUM_SIGNED, [NUM_C_FLT0] = NUM_FLOAT,
		[NUM_C_FLT1] = NUM_FLOAT, [NUM_C_FLT2] = NUM_FLOAT,
		[NUM_C_FLT3] = NUM_FLOAT, [NUM_C_PAL0] = NUM_PALETTE,
		[NUM_C_PAL1] = NUM_PALETTE,
	};

	return view[c];
}

/*
 * A pass over the @m numbers of @w bytes at @src, for what @need asks;
 * what it does not ask is left 0.
 */
static __always_inline void num_scan(const u8 *src, unsigned int m,
				     unsigned int w, struct num_scan *sc,
				     unsigned int need)
{
	unsigned int bits = 8 * w, i;
	u64 lu = 0, ls = 0, lf = ~0ULL, dor = 0, xf = 0, g = 0;
	/* unless both views are measured, the top bits count as mixed */
	u64 any = need == NUM_SCAN_ALL ? 0 : ~0ULL, all = ~any;
	u64 x, y, s0 = num_to_view(zbw_get_word(src, 0, w), NUM_SIGNED, bits);
	unsigned int odd = 0;

	if (need & NUM_SCAN_INT) {
		lu = ~0ULL;
		ls = ~0ULL;
	}
	for (i = 0; i < m; i++) {
		x = zbw_get_word(src, i, w);
		if (need == NUM_SCAN_ALL) {
			any |= x;
			all &= x;
		}
		if (need & NUM_SCAN_FLOAT) {
			odd += x & 1;
			y = num_to_view(x, NUM_FLOAT, bits);
			if (y < lf) {
				lf = y;
				xf = x;
			}
		}
		if (!(need & NUM_SCAN_INT))
			continue;
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
	}
	/* only the float view drops low zero bits */
	if (need & NUM_SCAN_FLOAT) {
		num_scan_shift(sc, src, m, w, odd);
		/* that keeps the order: the same number is least */
		sc->low[NUM_FLOAT] = num_to_view(xf >> sc->shift, NUM_FLOAT,
						 bits - sc->shift);
	} else {
		sc->shift = 0;
		sc->nexc = 0;
		sc->low[NUM_FLOAT] = 0;
	}
	sc->low[NUM_UNSIGNED] = lu;
	sc->low[NUM_SIGNED] = ls;
	sc->factor = dor ? g << __ffs64(dor) : 0;
	sc->lag = 1;
	sc->tops = (~all >> (bits - 1) & 1) | (any >> (bits - 1) & 1) << 1;
}

/*
 * Whether the signed view's values at order 0 differ from the unsigned
 * one's: with a factor it is the integer view; with every top bit the
 * same, both count from their smallest value alike.
 */
static __always_inline bool num_sint(const struct num_scan *sc)
{
	return sc->factor < 2 && sc->tops == 3;
}

/*
 * Whether the float view's values differ from the integer view's: with
 * every top bit clear, no low bits dropped and no factor, a float's view
 * is its number with the top bit set, whose values from the smallest and
 * whose differences are the integer view's, which wins the ties.
 */
static __always_inline bool num_float(const struct num_scan *sc)
{
	return sc->shift || sc->factor >= 2 || sc->tops != 1;
}

/* Bins at @q of values of @w bytes */
static __always_inline unsigned int num_bins(unsigned int w, unsigned int q)
{
	return (8 * w - q + 1) << q;
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
 * Whether bins @b to @b + 3 of @h are all empty: a histogram of a page's
 * (or a sample's) values leaves most of its bins empty, and 2^q bins
 * (q >= 2) an octave, so 4 a load never cross a histogram's end
 */
static __always_inline bool num_empty4(const u16 *h, unsigned int b)
{
	return !get_unaligned((const u64 *)(h + b));
}

/*
 * Estimated bits (in 1/256 bits) of the values of histogram @h3 (at
 * @hq) at @q <= @hq, whose bins are all within @first3..@last3: their
 * entropy, offsets and code lengths; U32_MAX when the bins span more than
 * NUM_SYMS.  The counts of the bins go to @freq, the first bin to *@lo,
 * their number to *@nsym.
 */
static __always_inline u32 num_cost(const u16 *h3, unsigned int hq,
				    unsigned int first3, unsigned int last3,
				    unsigned int q, u32 *freq,
				    unsigned int *lo, unsigned int *nsym)
{
	unsigned int b3, b, ob, first, i, g;
	u32 n = 0, c, log_n;
	u64 bits = 0;

	first = num_merge(first3, hq, q, &ob);
	*lo = first;
	*nsym = num_merge(last3, hq, q, &ob) - first + 1;
	if (*nsym > NUM_SYMS)
		return U32_MAX;
	memset(freq, 0, *nsym * sizeof(*freq));
	for (g = first3 & ~3u; g <= last3; g += 4) {
		if (num_empty4(h3, g))
			continue;
		for (b3 = g; b3 < g + 4; b3++) {
			c = h3[b3];
			if (!c)
				continue;
			b = num_merge(b3, hq, q, &ob);
			freq[b - first] += c;
			bits += (u64)c * ob * 256;
			n += c;
		}
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
static inline bool num_used(const u16 *h3, unsigned int nb,
			    unsigned int *first3, unsigned int *last3)
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
 * The fewest estimated bits of histogram @h3 (@nb bins at NUM_Q_MAX) at
 * any q, the q in *@q; 0 for an empty one (nothing but raw numbers).
 * @freq is room for the counts of the bins.  The bits fall with q, then
 * rise (finer bins save offset bits until their codes cost more): the
 * first rise ends the search, before the q of the most bins.
 */
static inline u32 num_best_q(const u16 *h3, unsigned int nb, u32 *freq,
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
		if (cost > best)
			break;
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
	u16 h2[NUM_NR_HIST][NUM_BINS2];
};

/* Slots of the palette's hash of numbers, at most a quarter of them used */
#define NUM_PAL_HASH_BITS	(NUM_PAL_BITS + 2)

/**
 * struct num_pal - a page's palette as the encoder finds it
 * @idx: each number's index into @val (in the encoder's scratch)
 * @count: distinct numbers, 0 for more than NUM_PAL_MAX
 * @m: numbers of the page
 * @bits: estimated bits of the palette, in 1/256 bits
 * @val: the distinct numbers, increasing
 * @seen: the same as first seen
 * @tmp: room for sorting
 * @slot: the hash of the numbers, each 1 + its place in @seen, 0 for none
 * @rank: the place in @val of each number of @seen
 * @h3: the gaps' histogram at NUM_Q_MAX
 * @freq: the counts of the gaps' bins
 * @hp: the histograms of the indices at orders 0 and 1, at NUM_Q_MAX
 * @q: the q of the gaps' code (num_pal_order() in num_enc.c)
 * @order2: the gaps are coded as their differences
 */
struct num_pal {
	u16 *idx;
	unsigned int count;
	unsigned int m;
	u32 bits;
	u64 val[NUM_PAL_MAX];
	u64 seen[NUM_PAL_MAX];
	u64 tmp[NUM_PAL_MAX];
	u16 slot[1u << NUM_PAL_HASH_BITS];
	u16 rank[NUM_PAL_MAX];
	u16 h3[NUM_BINS3];
	u32 freq[NUM_SYMS];
	u16 hp[2][NUM_PAL_BINS3];
	unsigned int q;
	bool order2;
};

/* Numbers of a page the encoder picks its candidate on, in NUM_WINDOWS */
#define NUM_PICK	128
#define NUM_WINDOWS	4

/*
 * The value of the palette's gap @i (1 .. count - 1) of the @bits-bit
 * numbers @val, at order @e of the format (num.h)
 */
static __always_inline u64 num_pal_gap(const u64 *val, unsigned int i,
				       bool e, unsigned int bits)
{
	u64 g = val[i] - val[i - 1] - 1;

	if (!e)
		return g;
	return num_zigzag(g - (i > 1 ? val[i - 1] - val[i - 2] - 1 : 0),
			  bits);
}

/*
 * The histogram at NUM_Q_MAX of the gaps of palette @p of @w-byte numbers
 * at order @e (the format's) to @p->h3; returns its number of bins
 */
static inline unsigned int num_pal_gap_hist(struct num_pal *p, unsigned int w,
					    bool e)
{
	unsigned int nb = num_bins(w, NUM_Q_MAX), i;

	memset(p->h3, 0, nb * sizeof(*p->h3));
	for (i = 1; i < p->count; i++)
		p->h3[num_bin3(num_pal_gap(p->val, i, e, 8 * w))]++;
	return nb;
}

/*
 * The bits of the gaps of palette @p of @w-byte numbers at order @e and
 * the best q, which goes to *@q; their histogram is left in @p->h3
 */
static inline u32 num_pal_cost(struct num_pal *p, unsigned int w, bool e,
			       unsigned int *q)
{
	unsigned int nb = num_pal_gap_hist(p, w, e);

	return num_best_q(p->h3, nb, p->freq, q);
}

void zbw_num_values(const u8 *src, const u16 *idx, unsigned int m,
		    unsigned int w, const struct num_view *v, u8 *r, u16 *b3,
		    u16 *h3);
bool zbw_num_big_endian(const u8 *src, unsigned int m, unsigned int w);
unsigned int zbw_num_lag(const u8 *src, unsigned int m, unsigned int w);
bool zbw_num_palette(const u8 *src, unsigned int m, unsigned int w,
		     u64 limit, struct num_pal *p);
u32 zbw_num_pal_pick(struct num_pal *p, unsigned int w, unsigned int *cand);
void zbw_num_pal_order(struct num_pal *pal, unsigned int w);
u32 zbw_num_pick(const u8 *src, unsigned int per, unsigned int windows,
		 unsigned int stride, unsigned int w, const struct num_scan *sc,
		 const u8 *page, unsigned int m, struct num_hist *h,
		 unsigned int *cand, bool table);
void zbw_num_view_of(unsigned int cand, unsigned int w,
		     const struct num_scan *sc, struct num_view *v);

#endif /* __ZBEWALGO_NUM_ENC_H */
