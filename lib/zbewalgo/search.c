// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the combination engine's search decides (engine.c): a page's
 * sample and the random-page test, the probe that ranks a table's chains
 * for the page, and the search over the table itself: which chain comes
 * next, which result is kept and when the search stops.  The decisions
 * are apart from the engine so that a caller with sizes it measured
 * before (a table tuner in user space) takes the same ones.
 *
 * Every decision depends on the page, the table and the thresholds only,
 * never on pages compressed before: a caller that compresses a page twice
 * (zram up to 6.14 does, when its first allocation fails) gets the same
 * result both times, on any context.
 */

#include "search.h"

/* H2 of a histogram from @pairs equal pairs of @n samples, in 1/256 bits */
static s32 zbw_h2(u32 pairs, unsigned int n)
{
	/* log2(all pairs / equal pairs); +1/2 avoids log(0) */
	return zbw_log2_q8(n * (n - 1)) - zbw_log2_q8(2 * pairs + 1);
}

static u32 zbw_check_hash(u32 word, unsigned int bits)
{
	return (word * 2654435761u) >> (32 - bits);
}

/*
 * Whether a 4-byte word of the last block occurs at a sampled position.
 * The table has at least twice as many slots as positions go in, so
 * probing ends at an empty one.
 */
static bool zbw_repeats(const u8 *src, unsigned int slen, u16 *slot)
{
	unsigned int end = slen - ZBW_CHECK_BLOCK - 3, o, i;
	unsigned int bits = min(fls(slen / ZBW_CHECK_BLOCK) + 1,
				ZBW_CHECK_SLOT_BITS);
	unsigned int mask = (1u << bits) - 1;

	memset(slot, 0, (mask + 1) * sizeof(*slot));
	for (o = 0; o < end; o += ZBW_CHECK_BLOCK) {
		i = zbw_check_hash(get_unaligned((const u32 *)(src + o)), bits);
		while (slot[i])
			i = (i + 1) & mask;
		slot[i] = o + 1;
	}
	for (o = end; o < end + ZBW_CHECK_BLOCK; o++) {
		u32 w = get_unaligned((const u32 *)(src + o));

		for (i = zbw_check_hash(w, bits); slot[i]; i = (i + 1) & mask)
			if (get_unaligned((const u32 *)(src + slot[i] - 1)) == w)
				return true;
	}
	return false;
}

/*
 * Adds word @word of every ZBW_CHECK_BLOCK bytes to @s, whose counts are
 * in @scratch; @word 0 starts a new sample.
 */
static void zbw_sample_word(const u8 *src, unsigned int slen,
			    unsigned int word, void *scratch,
			    struct zbw_sample *s)
{
	u16 (*h)[256] = scratch;
	u16 *hd = h[ZBW_CHECK_LANES], *hs = h[ZBW_CHECK_LANES + 1];
	u32 p0, p1, p2, p3, p4, p5, p6, p7, dp, sp = 0;
	unsigned int o;

	if (!word) {
		memset(h, 0, (ZBW_CHECK_LANES + 2) * sizeof(*h));
		memset(s, 0, sizeof(*s));
	}
	/*
	 * The sums in locals: the counters' stores could alias @s, which
	 * the loop would then store to and reload at every count.
	 */
	p0 = s->pairs[0];
	p1 = s->pairs[1];
	p2 = s->pairs[2];
	p3 = s->pairs[3];
	p4 = s->pairs[4];
	p5 = s->pairs[5];
	p6 = s->pairs[6];
	p7 = s->pairs[7];
	dp = s->dpairs;
	for (o = word * ZBW_CHECK_LANES; o + ZBW_CHECK_BLOCK <= slen;
	     o += ZBW_CHECK_BLOCK) {
		const u8 *p = src + o;

		p0 += h[0][p[0]]++;
		p1 += h[1][p[1]]++;
		p2 += h[2][p[2]]++;
		p3 += h[3][p[3]]++;
		p4 += h[4][p[4]]++;
		p5 += h[5][p[5]]++;
		p6 += h[6][p[6]]++;
		p7 += h[7][p[7]]++;
		dp += hd[(u8)(p[1] - p[0])]++;
		dp += hd[(u8)(p[5] - p[4])]++;
		if (!word && o)
			sp += hs[(u8)(p[0] - p[-ZBW_CHECK_BLOCK])]++;
	}
	if (!word)
		s->spairs = sp;
	s->pairs[0] = p0;
	s->pairs[1] = p1;
	s->pairs[2] = p2;
	s->pairs[3] = p3;
	s->pairs[4] = p4;
	s->pairs[5] = p5;
	s->pairs[6] = p6;
	s->pairs[7] = p7;
	s->dpairs = dp;
	s->words++;
}

/* Entropy of lane @j of @s, or of the differences for ZBW_CHECK_LANES */
static s32 zbw_sample_h2(const struct zbw_sample *s, unsigned int slen,
			 unsigned int j)
{
	unsigned int n = slen / ZBW_CHECK_BLOCK * s->words;

	if (j == ZBW_CHECK_LANES)
		return zbw_h2(s->dpairs, 2 * n);
	return zbw_h2(s->pairs[j], n);
}

/**
 * zbw_sample_page() - sample a page for zbw_looks_random()
 * @src: the page, at least ZBW_CHECK_MIN bytes
 * @slen: its length
 * @scratch: at least ZBW_CHECK_SCRATCH bytes; holds the sample's counts
 *	afterwards
 * @s: the sample, filled in
 */
void zbw_sample_page(const u8 *src, unsigned int slen, void *scratch,
		     struct zbw_sample *s)
{
	zbw_sample_word(src, slen, 0, scratch, s);
}

/*
 * A page whose byte lanes look alike, with no lane below 3 bits nor 2
 * bits under another, and whose words do not count up in steps (3 bits
 * or more in the steps between blocks), has no word structure for a
 * layout step to bring out: text, code, tables of strings.  On the
 * bench's pages, the chains with layout steps almost never beat zstd
 * alone on such pages.
 */
#define ZBW_PLAIN_MIN		(3 * 256)
#define ZBW_PLAIN_SPREAD	(2 * 256)

/**
 * zbw_sample_plain() - whether a page looks like a stream of bytes
 * @s: its sample (zbw_sample_page(), maybe zbw_looks_random())
 * @slen: its length
 *
 * Return: true when no byte lane of @s stands out and its words do not
 * count up (ZBW_PLAIN_MIN and ZBW_PLAIN_SPREAD).
 */
bool zbw_sample_plain(const struct zbw_sample *s, unsigned int slen)
{
	s32 lo = S32_MAX, hi = 0, h;
	unsigned int j;

	for (j = 0; j < ZBW_CHECK_LANES; j++) {
		h = zbw_sample_h2(s, slen, j);
		lo = min(lo, h);
		hi = max(hi, h);
	}
	return lo >= ZBW_PLAIN_MIN && hi - lo < ZBW_PLAIN_SPREAD &&
	       zbw_h2(s->spairs, slen / ZBW_CHECK_BLOCK - 1) >= ZBW_PLAIN_MIN;
}

/* Whether @s has at least @limit / 256 bits in its lanes and differences */
static bool zbw_sample_above(const struct zbw_sample *s, unsigned int slen,
			     s32 limit)
{
	s32 sum = 0;
	unsigned int j;

	for (j = 0; j < ZBW_CHECK_LANES; j++)
		sum += zbw_sample_h2(s, slen, j);
	return sum >= ZBW_CHECK_LANES * limit &&
	       zbw_sample_h2(s, slen, ZBW_CHECK_LANES) >= limit;
}

/*
 * Whether a page looks like random data: the mean entropy of its lanes,
 * sampled from a quarter of the page, is at least @limit / 256 bits per
 * byte.  Every chain of byte or word coders needs a lane with skewed byte
 * frequencies, repeated bytes or repeated strings to get a page below
 * zram's threshold; the first two lower this entropy.  Random pages
 * measure 7.74..8.0 bits, the most random-looking compressible pages seen
 * (gzip output of images) 7.15.  Uniform bytes in small steps (sorted,
 * say) and repeated blocks have random lanes but compress: the
 * differences of neighbouring bytes must look random too, and no repeat
 * may show.  @s is zbw_sample_page()'s sample, its counts still in
 * @scratch: a page a bit or more below @limit there needs no second look.
 */
bool zbw_looks_random(struct zbw_sample *s, const u8 *src,
		      unsigned int slen, u32 limit, void *scratch)
{
	if (!zbw_sample_above(s, slen, (s32)limit - 256))
		return false;
	zbw_sample_word(src, slen, 1, scratch, s);
	return zbw_sample_above(s, slen, limit) &&
	       !zbw_repeats(src, slen, scratch);
}

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
 * Bits of entropy of the @n bytes of @b, in 1/256 bits: the sum of
 * count * log2(n / count) over their byte values.
 */
static u32 zbw_probe_bits(const u8 *b, unsigned int n, u16 *count)
{
	u32 bits = 0, log_n = zbw_log2_q8(n), c;
	unsigned int i;

	memset(count, 0, 256 * sizeof(*count));
	for (i = 0; i < n; i++)
		count[b[i]]++;
	/*
	 * No test for empty counts, which no CPU predicts: a table look-up
	 * for all small ones, the computed log2 for the rare large ones.
	 */
	for (i = 0; i < 256; i++) {
		c = count[i];
		bits += c * (log_n - (c < ARRAY_SIZE(zbw_log2_q8_small) ?
				      zbw_log2_q8_small[c] : zbw_log2_q8(c)));
	}
	return bits;
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

	for (i = 8; i < ZBW_PROBE_BYTES; i++)
		if (i % ZBW_PROBE_WINDOW >= 8)
			d[i & 7] += abs(b[i] - b[i - 8]);
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
 * zbw_probe_sample() - take the probe's sample of a page
 * @src: the page, at least ZBW_CHECK_MIN bytes
 * @slen: its length
 * @scratch: at least ZBW_PROBE_SCRATCH bytes, 8-byte aligned
 */
void zbw_probe_sample(const u8 *src, unsigned int slen, void *scratch)
{
	unsigned int i, step = slen / ZBW_PROBE_WINDOWS & ~7u;
	u8 *sample = scratch;
	u16 *count = (u16 *)(sample + 3 * ZBW_PROBE_STAGE) +
		     (2u << ZBW_PROBE_HASH_BITS);

	for (i = 0; i < ZBW_PROBE_WINDOWS; i++)
		memcpy(sample + i * ZBW_PROBE_WINDOW, src + i * step,
		       ZBW_PROBE_WINDOW);
	/* kept after the counts for every chain whose layout permutes it */
	*(u32 *)(count + 256) = zbw_probe_bits(sample, ZBW_PROBE_BYTES, count);
	*((u32 *)(count + 256) + 1) = zbw_probe_width(sample);
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
	unsigned int k = zbw_probe_steps(a);

	/* a num step's estimate is its own */
	if (zbw_num_width(a->ids[0]) || zbw_num_width(b->ids[0]))
		return a->ids[0] == b->ids[0];
	return zbw_probe_steps(b) == k && !memcmp(a->ids, b->ids, k);
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

/* Bytes of a num step's header and code lengths the sample leaves out */
#define ZBW_NUM_HEAD		16

/**
 * zbw_probe_estimate() - what a chain is expected to make of a page
 * @comb: the chain
 * @slen: the page's length
 * @scratch: as given to zbw_probe_sample() for the page
 *
 * Return: the estimated compressed size of the page, in bytes.
 */
u32 zbw_probe_estimate(const struct zbewalgo_combination *comb,
		       unsigned int slen, void *scratch)
{
	u8 *buf[2] = { (u8 *)scratch + ZBW_PROBE_STAGE,
		       (u8 *)scratch + 2 * ZBW_PROBE_STAGE };
	u32 *slot = (u32 *)((u8 *)scratch + 3 * ZBW_PROBE_STAGE);
	u16 *count = (u16 *)(slot + (1u << ZBW_PROBE_HASH_BITS));
	unsigned int j, k = zbw_probe_steps(comb);
	const u8 *in = scratch;
	int n = ZBW_PROBE_BYTES;
	/* the sample's, until a step changes the bytes */
	u32 bits = *(u32 *)(count + 256), est;
	unsigned int w = zbw_num_width(comb->ids[0]);

	if (w) {
		if (w != *((u32 *)(count + 256) + 1))
			return slen;
		bits = zbw_num_estimate(in, n, ZBW_PROBE_WINDOWS, w,
					(u8 *)scratch + ZBW_PROBE_NUM_ROOM);
		if (bits == U32_MAX)
			return slen;
		/*
		 * The model is the coder's own and comes within a tenth of
		 * what it writes.  The other chains' estimates run about a
		 * fifth low on pages that compress less than 4:1 and high,
		 * up to twice, on those that compress more (they count a
		 * repeat at a tenth of a byte, where a long match costs
		 * less): scaled alike, the two kinds rank fairly.
		 */
		est = ZBW_NUM_HEAD + DIV_ROUND_UP((u64)bits * slen,
						  8 * 256 * ZBW_PROBE_BYTES);
		return est >= slen / 4 ? est * 13 / 16 : est * 3 / 2;
	}
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
 * zbw_probe_cut() - give the chains after an easy one its estimate
 * @p: the estimates of every chain, by table index
 * @easy: struct zbewalgo_params.early_abort_size
 *
 * The first chain in table order whose estimate is below @easy will most
 * likely end the search at once: zbw_probe() estimates no chain after it
 * but gives them its estimate, which comes first in ties.  This does the
 * same to estimates made for every chain, so that a caller that made
 * them ranks the chains as zbw_probe() does.
 */
void zbw_probe_cut(struct zbw_probe *p, u32 easy)
{
	unsigned int i, cut = p->nr;

	for (i = 0; i < p->nr; i++) {
		if (cut < p->nr)
			p->est[i] = p->est[cut];
		else if (p->est[i] < easy)
			cut = i;
	}
}

/**
 * zbw_probe() - estimate what each chain of a table makes of a page
 * @src: the page
 * @slen: its length
 * @table: the chains
 * @easy: struct zbewalgo_params.early_abort_size (zbw_probe_cut())
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
	unsigned int i, j, cut = ZBW_PROBE_MAX;

	p->nr = min_t(unsigned int, table->nr, ZBW_PROBE_MAX);
	for (i = 0; plain && i < p->nr; i++)
		if (zbw_probe_plain_chain(&table->comb[i]))
			break;
	plain = plain && probe && i < p->nr;
	if (probe && !plain)
		zbw_probe_sample(src, slen, scratch);
	for (i = 0; i < p->nr; i++) {
		const struct zbewalgo_combination *c = &table->comb[i];

		/* a chain with the layout of an earlier one: the same */
		for (j = 0; j < i; j++)
			if (zbw_probe_same_layout(&table->comb[j], c))
				break;
		p->layout[i] = j;
		if (!probe) {
			p->est[i] = 0;
		} else if (plain) {
			p->est[i] = zbw_probe_plain_estimate(c, slen);
		} else if (cut < i) {
			p->est[i] = p->est[cut];
		} else {
			p->est[i] = j < i ? p->est[j] :
				    zbw_probe_estimate(c, slen, scratch);
			if (p->est[i] < easy)
				cut = i;
		}
	}
	zbw_probe_rank(p);
}

/**
 * zbw_search_start() - begin the search of a page
 * @s: the search
 * @probe: the page's estimates (zbw_probe())
 * @limit: results must be smaller than this to be kept
 * @params: the thresholds
 */
void zbw_search_start(struct zbw_search *s, const struct zbw_probe *probe,
		      size_t limit, const struct zbewalgo_params *params)
{
	s->probe = probe;
	s->early_abort = params->early_abort_size;
	s->tolerance_shift = params->tolerance_shift;
	s->best = limit;
	s->best_comb = -1;
	s->best_steps = 0;
}

/**
 * zbw_search_chain() - the chain tried in turn @i
 * @s: the search
 * @i: 0 to the table's size - 1
 *
 * Return: its table index: the chains come smallest estimate first.
 */
int zbw_search_chain(const struct zbw_search *s, unsigned int i)
{
	return s->probe->order[i];
}

/**
 * zbw_search_result() - offer the result of a chain's first steps
 * @s: the search
 * @ci: table index of the chain
 * @steps: how many of its steps gave the result
 * @size: the page's compressed size with them
 *
 * Return: true when it is the best result so far, and kept.
 */
bool zbw_search_result(struct zbw_search *s, int ci, unsigned int steps,
		       size_t size)
{
	if (size >= s->best)
		return false;
	s->best = size;
	s->best_comb = ci;
	s->best_steps = steps;
	return true;
}

/**
 * zbw_search_stop() - whether the best result ends the search
 * @s: the search
 *
 * Return: true when a result, not just the limit, is below
 * early_abort_size.
 */
bool zbw_search_stop(const struct zbw_search *s)
{
	return s->best_comb >= 0 && s->best < s->early_abort;
}

/**
 * zbw_search_chain_done() - whether the search ends after turn @i
 * @s: the search
 * @i: the turn just tried
 *
 * The search goes on with the next chain when its estimate is within the
 * tolerance of the best chain's (at most e + e >> tolerance_shift) and the
 * best result is over one and a half times its estimate: the estimates
 * are good relative to each other more than in bytes.  It also goes on
 * with a chain of the best one's layout, whose coder the probe cannot
 * tell apart.  Without a tolerance (or an estimate) every chain is tried.
 *
 * Return: true when the search ends here.
 */
bool zbw_search_chain_done(const struct zbw_search *s, unsigned int i)
{
	const struct zbw_probe *p = s->probe;
	unsigned int next;
	u32 e;

	if (s->best_comb < 0 || !s->tolerance_shift || i + 1 >= p->nr)
		return false;
	next = p->order[i + 1];
	if (p->layout[next] == p->layout[s->best_comb])
		return false;
	e = p->est[s->best_comb];
	return p->est[next] > e + (e >> s->tolerance_shift) ||
	       s->best <= p->est[next] + (p->est[next] >> 1);
}
