// SPDX-License-Identifier: GPL-2.0-only
/*
 * The probe of the combination engine's search (search.h): what each
 * chain of a table is expected to make of a page, from a sample of it,
 * and the order the search tries the chains in.
 *
 * Like the search's other decisions it depends on the page, the table
 * and the thresholds only, never on pages compressed before.
 */

#include "search.h"

/*
 * The cost of a repeated byte to the coders after the layout, in 1/256
 * bytes: a match of zstd or lz covers a repeat for about a tenth of a
 * byte per byte.
 */
#define ZBW_PROBE_MATCH_Q8	26

/* Whether the probe runs step @id on its sample: a layout step */
static bool zbw_probe_layout(unsigned int id)
{
	const struct zbewalgo_step *step = zbewalgo_step_get(id);

	return step && step->layout;
}

/* Leading steps of @comb the probe applies */
static unsigned int zbw_probe_steps(const struct zbewalgo_combination *comb)
{
	unsigned int k = 0;

	while (k < comb->nr_steps && k < ZBW_PROBE_STEPS &&
	       zbw_probe_layout(comb->ids[k]))
		k++;
	return k;
}

/*
 * zbw_log2_q8(i) for the counts a byte value mostly has in the probe's
 * sample, and 0 for i = 0, whose term is 0 anyway.
 */
static const u16 zbw_log2_q8_small[64] = {
	0, 0, 256, 406, 512, 594, 662, 719, 768, 812, 850, 886, 918, 947, 975,
	1000, 1024, 1046, 1068, 1087, 1106, 1124, 1142, 1158, 1174, 1189,
	1203, 1217, 1231, 1244, 1256, 1268, 1280, 1291, 1302, 1313, 1324,
	1334, 1343, 1353, 1362, 1372, 1380, 1389, 1398, 1406, 1414, 1422,
	1430, 1437, 1445, 1452, 1459, 1466, 1473, 1480, 1487, 1493, 1500,
	1506, 1512, 1518, 1524, 1530,
};

/*
 * @c * log2(@c), 0 for 0.  No test for empty counts, which no CPU
 * predicts: a table look-up for all small ones, the computed log2 for the
 * rare large ones.
 */
static __always_inline u32 zbw_probe_clog(u32 c)
{
	return c * (c < ARRAY_SIZE(zbw_log2_q8_small) ?
		    zbw_log2_q8_small[c] : zbw_log2_q8(c));
}

/*
 * Bits of entropy of the @n bytes of @b, in 1/256 bits: the sum of
 * count * log2(n / count) over their byte values, which is n * log2(n)
 * less the sum of count * log2(count).
 */
static u32 zbw_probe_bits(const u8 *b, unsigned int n, u16 *count)
{
	u32 clog = 0, lo, hi;
	unsigned int i;

	memset(count, 0, 256 * sizeof(*count));
	/*
	 * The bytes from two loads of 4 and one loop test per 8: in any
	 * byte order, which counts do not see
	 */
	for (i = 0; i + 8 <= n; i += 8) {
		lo = get_unaligned((const u32 *)(b + i));
		hi = get_unaligned((const u32 *)(b + i + 4));
		count[lo & 0xff]++;
		count[hi & 0xff]++;
		count[lo >> 8 & 0xff]++;
		count[hi >> 8 & 0xff]++;
		count[lo >> 16 & 0xff]++;
		count[hi >> 16 & 0xff]++;
		count[lo >> 24]++;
		count[hi >> 24]++;
	}
	for (; i < n; i++)
		count[b[i]]++;
	for (i = 0; i < 256; i += 4)
		clog += zbw_probe_clog(count[i]) + zbw_probe_clog(count[i + 1]) +
			zbw_probe_clog(count[i + 2]) +
			zbw_probe_clog(count[i + 3]);
	return n * zbw_log2_q8(n) - clog;
}

/*
 * Positions of @b (@n bytes) whose 4 bytes were seen at an earlier
 * position: what a match covers.  Every other position is looked at, which
 * halves the cost and finds runs and the repeats of words all the same;
 * only text loses the repeats at odd distances.  Each hash slot keeps the
 * last word that fell there; a collision only loses a match, and a slot's
 * initial word (all ones) is rare enough not to count.
 */
static u32 zbw_probe_matches(const u8 *b, unsigned int n, u32 *slot)
{
	u32 matched = 0;
	unsigned int i;

	memset(slot, 0xff, sizeof(*slot) << ZBW_PROBE_HASH_BITS);
	for (i = 0; i + 4 <= n; i += 2) {
		/* little-endian: collisions, so the result, as on any CPU */
		u32 w = get_unaligned_le32(b + i);
		u32 *p = &slot[zbw_check_hash(w, ZBW_PROBE_HASH_BITS)];

		matched += *p == w;
		*p = w;
	}
	return 2 * matched;
}

/*
 * The word size (2, 4 or 8) whose byte lanes the sample repeats, 0 for
 * none: arrays of numbers change their high bytes slowly and their low
 * ones fast, alike in every word.  The changes of each byte lane (offset
 * modulo 8) from one 8-byte word to the next, summed, repeat with the
 * period of the word size; those of text and code look alike in every
 * lane.  Only the num step of that size is estimated.
 */
static unsigned int zbw_probe_width(const u8 *b)
{
	u32 d[8] = { 0 }, total = 0, err;
	unsigned int i, p;
	const u8 *x;

	BUILD_BUG_ON(ZBW_PROBE_WINDOW % 8);
	for (i = 8; i < ZBW_PROBE_BYTES; i += 8) {
		/* a window's first word has none before it */
		if (i % ZBW_PROBE_WINDOW == 0)
			continue;
		x = b + i;
		d[0] += abs(x[0] - x[-8]);
		d[1] += abs(x[1] - x[-7]);
		d[2] += abs(x[2] - x[-6]);
		d[3] += abs(x[3] - x[-5]);
		d[4] += abs(x[4] - x[-4]);
		d[5] += abs(x[5] - x[-3]);
		d[6] += abs(x[6] - x[-2]);
		d[7] += abs(x[7] - x[-1]);
	}
	for (i = 0; i < 8; i++)
		total += d[i];
	for (p = 1; p < 8; p *= 2) {
		for (err = 0, i = p; i < 8; i++)
			err += abs((s32)d[i] - (s32)d[i % p]);
		if (8 * err < total)
			return p == 1 ? 0 : p;
	}
	return 8;
}

/**
 * zbw_probe_windows() - copy the windows of the probe's sample of a page
 * @src: the page, at least ZBW_CHECK_MIN bytes
 * @slen: its length
 * @sample: ZBW_PROBE_BYTES bytes, 8-byte aligned
 */
void zbw_probe_windows(const u8 *src, unsigned int slen, u8 *sample)
{
	unsigned int i, at, step = slen / ZBW_PROBE_WINDOWS & ~7u;

	for (i = 0; i < ZBW_PROBE_WINDOWS; i++) {
		/*
		 * A window of zeros moves on to the first block of its
		 * quarter that is not: on a page of sparse numbers the
		 * zeros alone promise every chain far too little.
		 */
		for (at = i * step;
		     at + 2 * ZBW_PROBE_WINDOW <= (i + 1) * step &&
		     !memchr_inv(src + at, 0, ZBW_PROBE_WINDOW);
		     at += ZBW_PROBE_WINDOW)
			;
		if (!memchr_inv(src + at, 0, ZBW_PROBE_WINDOW))
			at = i * step;
		memcpy(sample + i * ZBW_PROBE_WINDOW, src + at,
		       ZBW_PROBE_WINDOW);
	}
}

/**
 * zbw_probe_sample() - take the probe's sample of a page
 * @src: the page, at least ZBW_CHECK_MIN bytes
 * @slen: its length
 * @scratch: at least ZBW_PROBE_SCRATCH bytes, 8-byte aligned
 */
void zbw_probe_sample(const u8 *src, unsigned int slen, void *scratch)
{
	u8 *sample = scratch;
	u16 *count = (u16 *)(sample + 3 * ZBW_PROBE_STAGE) +
		     (2u << ZBW_PROBE_HASH_BITS);
	struct zbw_probe_facts *facts = zbw_probe_facts(scratch);

	zbw_probe_windows(src, slen, sample);
	facts->bits = zbw_probe_bits(sample, ZBW_PROBE_BYTES, count);
	facts->width = zbw_probe_width(sample);
	facts->est8 = 0;
}

/* zbw_probe_key() of a chain that starts with a num step */
#define ZBW_PROBE_KEY_NUM	U8_MAX

/* What the probe applies of @comb: its leading layout steps, or a num step */
static u8 zbw_probe_key(const struct zbewalgo_combination *comb)
{
	BUILD_BUG_ON(ZBW_PROBE_STEPS >= ZBW_PROBE_KEY_NUM);
	return zbw_num_width(comb->ids[0]) ? ZBW_PROBE_KEY_NUM :
					     zbw_probe_steps(comb);
}

/* zbw_probe_same_layout() of @a and @b, of zbw_probe_key()s @ka and @kb */
static bool zbw_probe_same(const struct zbewalgo_combination *a, u8 ka,
			   const struct zbewalgo_combination *b, u8 kb)
{
	/* a num step's estimate is its own */
	if (ka == ZBW_PROBE_KEY_NUM || kb == ZBW_PROBE_KEY_NUM)
		return a->ids[0] == b->ids[0];
	return ka == kb && !memcmp(a->ids, b->ids, ka);
}

/**
 * zbw_probe_same_layout() - whether two chains look alike to the probe
 * @a: a chain
 * @b: another
 *
 * Return: true when the probe applies the same steps of both.
 */
bool zbw_probe_same_layout(const struct zbewalgo_combination *a,
			   const struct zbewalgo_combination *b)
{
	return zbw_probe_same(a, zbw_probe_key(a), b, zbw_probe_key(b));
}

/*
 * Estimated cost of the @n bytes of @b to the coders, in 1/256 bytes:
 * the bytes a match covers cost ZBW_PROBE_MATCH_Q8 each, the others their
 * share of the entropy, @bits for all @n.
 */
static u32 zbw_probe_cost(const u8 *b, unsigned int n, u32 bits, u32 *slot)
{
	u32 matched;

	if (n < 4)
		return n * 256;
	matched = zbw_probe_matches(b, n, slot);
	return (u64)(n - matched) * bits / (8 * n) +
	       matched * ZBW_PROBE_MATCH_Q8;
}

/* Whether step @id only moves bytes: the entropy of its output is kept */
static bool zbw_probe_permutes(unsigned int id)
{
	return id == ZBEWALGO_STEP_BITSHUFFLE2 ||
	       id == ZBEWALGO_STEP_BITSHUFFLE4 ||
	       id == ZBEWALGO_STEP_BITSHUFFLE8;
}

/*
 * The estimate of a chain of byte steps (zbw_probe_estimate()): its
 * leading layout steps on the sample, then the coders' cost of what they
 * leave.  Out of line: the num steps' estimate, the probe's deepest
 * chain, does not carry this frame.
 */
static noinline_for_stack u32
zbw_probe_layouts(const struct zbewalgo_combination *comb, unsigned int slen,
		  void *scratch)
{
	u8 *buf[2] = { (u8 *)scratch + ZBW_PROBE_STAGE,
		       (u8 *)scratch + 2 * ZBW_PROBE_STAGE };
	u32 *slot = (u32 *)((u8 *)scratch + 3 * ZBW_PROBE_STAGE);
	u16 *count = (u16 *)(slot + (1u << ZBW_PROBE_HASH_BITS));
	unsigned int j, k = zbw_probe_steps(comb);
	const u8 *in = scratch;
	int n = ZBW_PROBE_BYTES;
	/* the sample's, until a step changes the bytes */
	u32 bits = zbw_probe_facts(scratch)->bits;

	for (j = 0; j < k; j++) {
		n = zbewalgo_step_get(comb->ids[j])->layout(in, n, buf[j & 1],
							    ZBW_PROBE_STAGE,
							    NULL);
		if (n < 0)
			return slen;
		in = buf[j & 1];
		if (!zbw_probe_permutes(comb->ids[j]))
			bits = U32_MAX;
	}
	if (bits == U32_MAX)
		bits = zbw_probe_bits(in, n, count);
	return DIV_ROUND_UP((u64)zbw_probe_cost(in, n, bits, slot) * slen,
			    256 * ZBW_PROBE_BYTES);
}

/**
 * zbw_probe_estimate() - what a chain is expected to make of a page
 * @comb: the chain
 * @src: the page (a num step's palette is counted on all of it)
 * @slen: the page's length
 * @scratch: as given to zbw_probe_sample() for the page
 * @unsure: set when the estimate is less sure than most (a num step's at
 *	a lag), else cleared
 * @hint: the pick of the num step estimated lowest so far, @hint->w 0 for
 *	none: replaced by a num step's of a lower estimate
 *
 * Return: the estimated compressed size of the page, in bytes.
 */
u32 zbw_probe_estimate(const struct zbewalgo_combination *comb,
		       const u8 *src, unsigned int slen, void *scratch,
		       bool *unsure, struct zbw_num_hint *hint)
{
	const struct zbw_probe_facts *facts = zbw_probe_facts(scratch);
	unsigned int w = zbw_num_width(comb->ids[0]);
	u32 est;

	*unsure = false;
	if (!w)
		return zbw_probe_layouts(comb, slen, scratch);
	est = zbw_num_probe(scratch, w, src, slen);
	if (est >= slen)
		return slen;
	/*
	 * An array of records is also one of repeats, which zstd's matches
	 * may take for less: the search looks further (search.c)
	 */
	*unsure = facts->lagged;
	/*
	 * The model is the coder's own and comes within a tenth of what it
	 * writes.  The other chains' estimates run about a fifth low on pages
	 * that compress less than 4:1 and high, up to twice, on those that
	 * compress more (they count a repeat at a tenth of a byte, where a
	 * long match costs less): scaled alike, the two kinds rank fairly.
	 */
	est = est >= slen / 4 ? est * 13 / 16 : est * 3 / 2;
	if (!hint->w || est < hint->est) {
		*hint = facts->pick;
		hint->est = est;
	}
	return est;
}

/**
 * zbw_probe_plain_chain() - whether a chain has no layout steps
 * @comb: the chain
 *
 * Return: true when the probe applies none of its steps to its sample.
 */
bool zbw_probe_plain_chain(const struct zbewalgo_combination *comb)
{
	return !zbw_probe_steps(comb) && !zbw_num_width(comb->ids[0]);
}

/**
 * zbw_probe_zstd_chain() - whether a chain is zstd alone
 * @comb: the chain
 *
 * Return: true for the chain zbw_search_zstd() may try last.
 */
bool zbw_probe_zstd_chain(const struct zbewalgo_combination *comb)
{
	return comb->nr_steps == 1 && comb->ids[0] == ZBEWALGO_STEP_ZSTD;
}

/**
 * zbw_probe_plain_estimate() - a chain's estimate for a plain page
 * @comb: the chain
 * @slen: the page's length
 *
 * A page zbw_sample_plain() calls plain is not sampled: the chains without
 * layout steps come first, in table order, and those with layout steps
 * after them, expected to do nothing.
 *
 * Return: 1 for a chain without layout steps, else @slen.
 */
u32 zbw_probe_plain_estimate(const struct zbewalgo_combination *comb,
			     unsigned int slen)
{
	return zbw_probe_plain_chain(comb) ? 1 : slen;
}

/**
 * zbw_probe_rank() - order the chains by their estimates
 * @p: @p->nr and @p->est set; @p->order filled in, smallest estimate
 *	first, ties in table order
 */
void zbw_probe_rank(struct zbw_probe *p)
{
	unsigned int i, j;

	for (i = 0; i < p->nr; i++) {
		for (j = i; j > 0 && p->est[p->order[j - 1]] > p->est[i]; j--)
			p->order[j] = p->order[j - 1];
		p->order[j] = i;
	}
}

/**
 * zbw_probe_rank_after() - rank the chains again after the first was tried
 * @p: @p->est set; @p->order[0] the chain tried, which stays first
 */
void zbw_probe_rank_after(struct zbw_probe *p)
{
	unsigned int first = p->order[0], i;

	zbw_probe_rank(p);
	for (i = 0; p->order[i] != first; i++)
		;
	memmove(p->order + 1, p->order, i);
	p->order[0] = first;
}

/**
 * zbw_probe_cut() - give the chains after an easy one its estimate
 * @p: the estimates of every chain, by table index
 * @easy: the search's early abort size, 0 for none
 *
 * The first chain in table order whose estimate is below @easy will most
 * likely end the search at once: zbw_probe() estimates no chain after it
 * but gives them its estimate, which comes first in ties (and is sure),
 * until it misses (zbw_probe_rest()).  This does the same to estimates
 * made for every chain, so that a caller that made them ranks the chains
 * as zbw_probe() does.
 */
void zbw_probe_cut(struct zbw_probe *p, u32 easy)
{
	unsigned int i, cut = p->nr;

	for (i = 0; i < p->nr; i++) {
		if (cut < p->nr) {
			p->est[i] = p->est[cut];
			p->unsure &= ~BIT_ULL(i);
		} else if (p->est[i] < easy) {
			cut = i;
		}
	}
	p->easy = cut;
}

/*
 * Estimates chains @from.. of @table for the page, whose sample is in
 * @scratch; the first whose estimate is below @easy gives the chains
 * after it its estimate.  Returns that chain's index, @p->nr for none.
 */
static __always_inline unsigned int
zbw_probe_chains(const u8 *src, unsigned int slen,
		 const struct zbewalgo_table *table, u32 easy,
		 unsigned int from, void *scratch, struct zbw_probe *p)
{
	unsigned int i, j, cut = p->nr;
	bool unsure;

	for (i = from; i < p->nr; i++) {
		if (cut < i) {
			p->est[i] = p->est[cut];
			continue;
		}
		/* a chain with the layout of an earlier one: the same */
		j = p->layout[i];
		unsure = j < i && (p->unsure & BIT_ULL(j));
		p->est[i] = j < i ? p->est[j] :
			    zbw_probe_estimate(&table->comb[i], src, slen,
					       scratch, &unsure, &p->num);
		if (unsure)
			p->unsure |= BIT_ULL(i);
		if (unsure && p->est[i] < slen / 8)
			p->loose |= BIT_ULL(i);
		else if (p->est[i] < easy)
			cut = i;
	}
	return cut;
}

/**
 * zbw_probe() - estimate what each chain of a table makes of a page
 * @src: the page
 * @slen: its length
 * @table: the chains
 * @easy: the search's early abort size, 0 for none (zbw_probe_cut())
 * @plain: the page looks like a stream of bytes (zbw_sample_plain())
 * @scratch: at least ZBW_PROBE_SCRATCH bytes, 8-byte aligned
 * @p: the estimates and the order to try the chains in, filled in
 *
 * Pages shorter than ZBW_CHECK_MIN are not probed: their estimates are 0
 * and the order is the table's.  Nor are plain pages when the table has a
 * chain without layout steps (zbw_probe_plain_estimate()).
 */
void zbw_probe(const u8 *src, unsigned int slen,
	       const struct zbewalgo_table *table, u32 easy, bool plain,
	       void *scratch, struct zbw_probe *p)
{
	bool probe = slen >= ZBW_CHECK_MIN && table->nr > 1;
	unsigned int i, j;

	p->nr = min_t(unsigned int, table->nr, ZBW_PROBE_MAX);
	p->unsure = 0;
	p->loose = 0;
	p->zstd = -1;
	p->num.page = src;
	p->num.w = 0;
	p->easy = p->nr;
	for (i = 0; i < p->nr; i++) {
		const struct zbewalgo_combination *c = &table->comb[i];

		if (zbw_probe_zstd_chain(c))
			p->zstd = i;
		/* each chain's key once: @p->order is filled in last */
		p->order[i] = zbw_probe_key(c);
		for (j = 0; j < i; j++)
			if (zbw_probe_same(&table->comb[j], p->order[j], c,
					   p->order[i]))
				break;
		p->layout[i] = j;
	}
	/* a key of 0 is a chain without layout steps */
	plain = plain && probe && memchr(p->order, 0, p->nr);
	for (i = 0; i < p->nr; i++)
		p->est[i] = !plain ? 0 : p->order[i] ? slen : 1;
	if (probe && !plain) {
		zbw_probe_sample(src, slen, scratch);
		p->easy = zbw_probe_chains(src, slen, table, easy, 0, scratch,
					   p);
	}
	zbw_probe_rank(p);
}

/**
 * zbw_probe_rest() - estimate the chains after an easy one that missed
 * @src: the page
 * @slen: its length
 * @table: the chains, as probed
 * @scratch: as for zbw_probe(); what the chain tried left there is lost
 * @p: the page's probe, whose first chain was tried
 *
 * When the easy chain (zbw_probe_cut()), tried first, leaves a result
 * that does not end the search, its estimate says nothing of the chains
 * after it: they get estimates of their own, and the order after it
 * follows them.
 */
void zbw_probe_rest(const u8 *src, unsigned int slen,
		    const struct zbewalgo_table *table, void *scratch,
		    struct zbw_probe *p)
{
	if (p->easy >= p->nr)
		return;
	zbw_probe_sample(src, slen, scratch);
	zbw_probe_chains(src, slen, table, 0, p->easy + 1, scratch, p);
	p->easy = p->nr;
	zbw_probe_rank_after(p);
}
