// SPDX-License-Identifier: GPL-2.0-only
/*
 * The palette view of the num2, num4 and num8 steps (num_enc.c): a page
 * of few distinct numbers as its palette, increasing, and each number's
 * index into it, at order 0 or 1.  The encoder finds the palette and
 * picks the indices' order; the probe counts the palette on the whole
 * page without sorting.
 */

#include "num_enc.h"

/* The slot of number @x in the palette's hash */
static __always_inline unsigned int num_pal_hash(u64 x)
{
	return (x * 0x9e3779b97f4a7c15ULL) >> (64 - NUM_PAL_HASH_BITS);
}

/*
 * The slot of number @x in a hash of 2^@bits slots @slot, which hold
 * indices (from 1) into @seen: the one that holds it, or the empty one
 * where it goes
 */
static __always_inline unsigned int num_pal_find(const u64 *seen,
						 const u16 *slot,
						 unsigned int bits, u64 x)
{
	unsigned int h = num_pal_hash(x) >> (NUM_PAL_HASH_BITS - bits);

	while (slot[h] && seen[slot[h] - 1] != x)
		h = (h + 1) & ((1u << bits) - 1);
	return h;
}

/* num_pal_find() in the hash of @p */
static __always_inline unsigned int num_pal_slot(const struct num_pal *p,
						 u64 x)
{
	return num_pal_find(p->seen, p->slot, NUM_PAL_HASH_BITS, x);
}

/*
 * Sorts the @n distinct numbers at @a, with room for as many at @tmp:
 * bottom-up merges, at most NUM_PAL_BITS passes and no recursion
 */
static void num_pal_sort(u64 *a, u64 *tmp, unsigned int n)
{
	unsigned int run, i, j, k, o, mid, end;
	u64 *from = a, *to = tmp, *t;

	for (run = 1; run < n; run *= 2) {
		for (i = 0; i < n; i += 2 * run) {
			mid = min(i + run, n);
			end = min(i + 2 * run, n);
			for (j = i, k = mid, o = i; j < mid && k < end; o++)
				to[o] = from[j] < from[k] ? from[j++] : from[k++];
			while (j < mid)
				to[o++] = from[j++];
			while (k < end)
				to[o++] = from[k++];
		}
		t = from;
		from = to;
		to = t;
	}
	if (from != a)
		memcpy(a, from, n * sizeof(*a));
}

/*
 * Bits of the palette's gaps at order @e (the format's), in 1/256 bits,
 * at q = NUM_PICK_Q: the writer costs them at every q (num_pal_cost()),
 * which is four times the work for a few bytes
 */
static u32 num_pal_gap_bits(struct num_pal *p, unsigned int w, bool e)
{
	unsigned int nb = num_pal_gap_hist(p, w, e), first3 = 0, last3 = 0;
	unsigned int lo, nsym;

	num_used(p->h3, nb, &first3, &last3);
	return num_cost(p->h3, NUM_Q_MAX, first3, last3, NUM_PICK_Q, p->freq,
			&lo, &nsym);
}

/*
 * Whether the numbers of @src (@m of @w bytes) that zbw_num_pick() looks
 * at, NUM_PICK in NUM_WINDOWS windows, are all distinct: in a hash of
 * 2^@bits slots @slot, which is left dirty, that holds indices into @seen
 */
static bool num_pal_spread(const u8 *src, unsigned int m, unsigned int w,
			   u64 *seen, u16 *slot, unsigned int bits)
{
	unsigned int per = min_t(unsigned int, m, NUM_PICK) / NUM_WINDOWS;
	unsigned int k, j, h, c = 0;
	u64 x;

	BUILD_BUG_ON(NUM_PICK > NUM_PAL_MAX);
	memset(slot, 0, sizeof(*slot) << bits);
	for (k = 0; k < NUM_WINDOWS; k++) {
		for (j = 0; j < per; j++) {
			x = zbw_get_word(src, k * (m / NUM_WINDOWS) + j, w);
			h = num_pal_find(seen, slot, bits, x);
			if (slot[h])
				return false;
			seen[c] = x;
			slot[h] = ++c;
		}
	}
	return true;
}

/**
 * zbw_num_palette() - the palette of a page's numbers
 * @src: the numbers
 * @m: how many
 * @w: bytes each
 * @limit: the bits (in 1/256 bits) of a view of the page, or U64_MAX
 * @p: @p->idx has room for @m indices; filled in
 *
 * The numbers the pick looked at are hashed first: all distinct, the page
 * gets no palette.  A page of more distinct numbers gives up at the first
 * one past NUM_PAL_MAX, which for numbers that rarely repeat is half a
 * page of 4-byte numbers, or less; so does a page of numbers all
 * distinct, and one whose palette is estimated far above @limit.
 *
 * Return: whether the page has a palette: at most NUM_PAL_MAX distinct
 * numbers, some of them more than once, that may take fewer bits than
 * @limit; @p->count is 0 when not.
 */
noinline_for_stack bool zbw_num_palette(const u8 *src, unsigned int m,
					unsigned int w, u64 limit,
					struct num_pal *p)
{
	unsigned int i, h, c = 0;
	u64 x, prev = 0, lo = ~0ULL, hi = 0, est;
	u32 log_m;

	p->count = 0;
	p->m = m;
	/*
	 * First the numbers the pick looked at: all distinct, the page has
	 * no palette that pays, most likely (on smooth data, two thirds of
	 * what looking for one cost)
	 */
	if (num_pal_spread(src, m, w, p->seen, p->slot, NUM_PAL_HASH_BITS))
		return false;
	memset(p->slot, 0, sizeof(p->slot));
	for (i = 0; i < m; i++) {
		x = zbw_get_word(src, i, w);
		/* runs of one number are common: no look-up */
		if (i && x == prev) {
			p->idx[i] = p->idx[i - 1];
			continue;
		}
		prev = x;
		h = num_pal_slot(p, x);
		if (!p->slot[h]) {
			if (c == NUM_PAL_MAX)
				return false;
			p->seen[c] = x;
			p->rank[c] = 0;
			p->slot[h] = ++c;
			lo = min(lo, x);
			hi = max(hi, x);
		}
		p->idx[i] = p->slot[h] - 1;
	}
	/*
	 * A page of numbers all distinct would gain only the order of its
	 * numbers, which its indices cost as much: smooth float pages, for
	 * which sorting was half the time the encoder took
	 */
	if (c == m)
		return false;
	/*
	 * Before the sort: the indices at order 0 by their entropy, a bit
	 * or more each, and the palette by the mean gap between its
	 * numbers.  Order 1 can take half of that, hardly less: a palette
	 * over twice @limit is not made.
	 */
	for (i = 0; i < m; i++)
		p->rank[p->idx[i]]++;
	log_m = zbw_log2_q8(m);
	est = (u64)(c - 1) * 256 * (fls64(hi - lo) - fls(c - 1) + 2);
	for (i = 0; i < c; i++)
		est += (u64)p->rank[i] *
		       max_t(u32, log_m - zbw_log2_q8(p->rank[i]), 256);
	if (est / 2 > limit)
		return false;
	memcpy(p->val, p->seen, c * sizeof(*p->val));
	num_pal_sort(p->val, p->tmp, c);
	for (i = 0; i < c; i++)
		p->rank[p->slot[num_pal_slot(p, p->val[i])] - 1] = i;
	for (i = 0; i < m; i++)
		p->idx[i] = p->rank[p->idx[i]];
	p->count = c;
	/* the count, t[0]; the mode, lo, nsym and the stream's length */
	p->bits = (1 + w) * 8 * 256;
	if (c > 1)
		p->bits += min(num_pal_gap_bits(p, w, false),
			       num_pal_gap_bits(p, w, true)) + 4 * 8 * 256;
	return true;
}

/*
 * The probe's palette: at most 256 distinct numbers (a page of more is
 * left to the encoder), in a hash of 512 slots, what its room holds
 */
#define NUM_EST_BITS		8
#define NUM_EST_MAX		BIT(NUM_EST_BITS)
#define NUM_EST_HASH_BITS	(NUM_EST_BITS + 1)

/**
 * zbw_num_pal_estimate() - what a page's palette is expected to take
 * @src: the page
 * @slen: its length
 * @w: the step's word size, 2, 4 or 8
 * @scratch: at least ZBW_NUM_PAL_EST_SCRATCH bytes, 8-byte aligned
 *
 * The views are judged on the probe's sample; a palette needs the whole
 * page: how many distinct numbers it has, how far apart and how often
 * each comes.  One pass counts them in a hash, without sorting the page:
 * the indices are estimated at order 0 by their entropy, a bit or more
 * each (the encoder may find a better order), and the table by the gaps
 * between the sorted distinct numbers.  A page whose numbers that
 * zbw_num_pick() looks at are all distinct gets no palette from the
 * encoder, nor an estimate; a page of numbers that rarely repeat gives up
 * at the first one past NUM_EST_MAX; so does a page where numbers come
 * after the same ones as before, which zstd takes as matches.
 *
 * Return: the estimated bits of the page's numbers in the palette view,
 * in 1/256 bits, with the palette and the header; U32_MAX when not
 * estimated.
 */
u32 zbw_num_pal_estimate(const u8 *src, unsigned int slen, unsigned int w,
			 void *scratch)
{
	/* a hash of numbers and their counts, the numbers sorted there */
	u64 *key = scratch + BUILD_BUG_ON_ZERO(ZBW_NUM_PAL_EST_SCRATCH <
					       (sizeof(u64) + 2 * sizeof(u16)) <<
					       NUM_EST_HASH_BITS), x, g, bits = 0;
	u16 *cnt = (u16 *)(key + (1u << NUM_EST_HASH_BITS));
	u16 *next = cnt + (1u << NUM_EST_HASH_BITS);
	unsigned int m = slen / w, i, h = 0, d = 0, prev = 0, seq = 0;
	u32 log_m;

	if (!m)
		return U32_MAX;
	/* where zbw_num_palette() makes none */
	if (num_pal_spread(src, m, w, key, cnt, NUM_EST_HASH_BITS))
		return U32_MAX;
	log_m = zbw_log2_q8(m);
	memset(cnt, 0, 2 * sizeof(*cnt) << NUM_EST_HASH_BITS);
	for (i = 0; i < m; i++) {
		x = zbw_get_word(src, i, w);
		/* slot h holds the number before: runs need no look-up */
		if (!i || x != key[h]) {
			h = num_pal_hash(x) >>
			    (NUM_PAL_HASH_BITS - NUM_EST_HASH_BITS);
			while (cnt[h] && key[h] != x)
				h = (h + 1) & ((1u << NUM_EST_HASH_BITS) - 1);
			if (!cnt[h]) {
				if (d++ == NUM_EST_MAX)
					return U32_MAX;
				key[h] = x;
			}
		}
		cnt[h]++;
		/* the number that came after the one before, last time */
		seq += next[prev] == h + 1;
		next[prev] = h + 1;
		prev = h;
	}
	/*
	 * Numbers that follow one another as they did before: runs and
	 * repeated records, which zstd's matches take for little more than
	 * their length and a palette codes number by number.  A page of
	 * many (over two in five) is left to the other chains.
	 */
	if (seq * 5 > m * 2)
		return U32_MAX;
	/* a code spends a bit or more on each (as num_cost() counts) */
	for (i = 0, d = 0; i < (1u << NUM_EST_HASH_BITS); i++) {
		if (!cnt[i])
			continue;
		bits += (u64)cnt[i] *
			max_t(u32, log_m - zbw_log2_q8(cnt[i]), 256);
		key[d++] = key[i];
	}
	/* the numbers packed at the front, the back is free for sorting */
	num_pal_sort(key, key + NUM_EST_MAX, d);
	/* a gap: its offset bits and about two of code */
	for (i = 1; i < d; i++) {
		g = key[i] - key[i - 1] - 1;
		bits += (g ? fls64(g) + 1 : 2) * 256;
	}
	/* the header, the table's and the code lengths */
	return min_t(u64, bits + (14 + w) * 8 * 256, U32_MAX - 1);
}

/* The zigzag form of a difference of indices */
static __always_inline u32 num_pal_zigzag(s32 d)
{
	return (u32)d << 1 ^ (u32)(d >> 31);
}

/*
 * Adds the @m indices at @idx and their differences to @hp[0] and @hp[1]:
 * small integers, no wrapping
 */
static noinline_for_stack void num_count_pal(const u16 *idx, unsigned int m,
					     u16 (*hp)[NUM_PAL_BINS3])
{
	unsigned int i;

	hp[0][num_bin3(idx[0])]++;
	for (i = 1; i < m; i++) {
		hp[0][num_bin3(idx[i])]++;
		hp[1][num_bin3(num_pal_zigzag(idx[i] - idx[i - 1]))]++;
	}
}

/**
 * zbw_num_pal_pick() - the palette's candidate of the fewest bits
 * @p: the page's palette (zbw_num_palette())
 * @w: bytes per number
 * @cand: its candidate, filled in
 *
 * The indices are counted on the whole page, as the writer counts the
 * chosen view's values: the two compare fairly.  Orders 0 and 1 only:
 * in a fifth of the eight programs' swap, the test data and the data
 * sets compressed by num2, num4 and num8 alone, orders 2 and 3 were the
 * palette's best on 99 of 80,648 palette pages.
 *
 * Return: the estimated bits of the page in the palette view, in 1/256
 * bits, with the palette and the first indices, which are raw.
 */
u32 zbw_num_pal_pick(struct num_pal *p, unsigned int w, unsigned int *cand)
{
	unsigned int o, q;
	u32 best = U32_MAX, cost;

	memset(p->hp, 0, sizeof(p->hp));
	num_count_pal(p->idx, p->m, p->hp);
	for (o = 0; o < ARRAY_SIZE(p->hp); o++) {
		cost = num_best_q(p->hp[o], NUM_PAL_BINS3, p->freq, &q);
		cost = min_t(u64, (u64)cost + min(o, p->m) * w * 8 * 256,
			     U32_MAX - 1);
		if (cost < best) {
			best = cost;
			*cand = NUM_C_PAL0 + o;
		}
	}
	return min_t(u64, (u64)best + p->bits, U32_MAX - 1);
}

/*
 * Whether the gaps of palette @pal of @w-byte numbers or their differences
 * take fewer bits, and their q, into @pal, their histogram in @pal->h3:
 * before the palette is written, out of the writer's deep frame.
 */
noinline_for_stack void zbw_num_pal_order(struct num_pal *pal, unsigned int w)
{
	unsigned int q2;
	u32 cost;

	if (pal->count < 2)
		return;
	cost = num_pal_cost(pal, w, false, &pal->q);
	pal->order2 = num_pal_cost(pal, w, true, &q2) < cost;
	if (pal->order2)
		pal->q = q2;
	else
		num_pal_cost(pal, w, false, &pal->q);
}
