// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the combination engine's search decides (engine.c): a page's
 * sample and the random-page test, and the search over the table
 * itself: which chain comes next, which result is kept and when the
 * search stops.  The probe that ranks the table's chains for the page
 * is probe.c.  The decisions are apart from the engine so that a caller
 * with sizes it measured before (a table tuner in user space) takes the
 * same ones.
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
 * layout step to bring out: text, code, tables of strings.  On such
 * pages the chains with layout steps almost never beat zstd alone.
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

/**
 * zbw_search_start() - begin the search of a page
 * @s: the search
 * @probe: the page's estimates (zbw_probe())
 * @limit: results must be smaller than this to be kept
 * @early_abort: a result below this ends the search, 0 for none
 * @tolerance_shift: struct zbewalgo_params.tolerance_shift
 */
void zbw_search_start(struct zbw_search *s, const struct zbw_probe *probe,
		      size_t limit, u32 early_abort,
		      unsigned int tolerance_shift)
{
	s->probe = probe;
	s->early_abort = early_abort;
	s->tolerance_shift = tolerance_shift;
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

/*
 * Whether the search tries the second chain although the best result
 * would end it: the first chain's result is the best, its estimate was
 * less sure (a num step's at a lag, struct zbw_probe) and the second
 * one's, its own and not an easy chain's copy, is within a quarter of
 * it.  On arrays of records that repeat, zstd's matches often take less
 * than the num steps' estimate makes out, and the estimates of both run
 * low on pages that compress well.
 */
static bool zbw_search_further(const struct zbw_search *s)
{
	const struct zbw_probe *p = s->probe;
	u32 e;

	if (p->nr < 2 || s->best_comb < 0 || s->best_comb != p->order[0] ||
	    !(p->unsure & BIT_ULL(s->best_comb)) || p->order[1] > p->easy)
		return false;
	e = p->est[s->best_comb];
	e += p->loose & BIT_ULL(s->best_comb) ? e >> 1 : e >> 2;
	return p->est[p->order[1]] <= e;
}

/**
 * zbw_search_stop() - whether the best result ends the search
 * @s: the search
 * @i: the turn being tried
 *
 * Return: true when a result, not just the limit, is below
 * early_abort_size, unless the second chain is to be tried
 * (zbw_search_further()) and is not done.
 */
bool zbw_search_stop(const struct zbw_search *s, unsigned int i)
{
	return s->best_comb >= 0 && s->best < s->early_abort &&
	       !(i <= 1 && zbw_search_further(s));
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
 * tell apart, and after a less sure first estimate's chain
 * (zbw_search_further()).  While no result is below the limit, it goes
 * on only with a chain whose estimate is: a page that nothing compresses
 * costs one chain, not the table.  Without a tolerance (or an estimate)
 * every chain is tried.
 *
 * Return: true when the search ends here.
 */
bool zbw_search_chain_done(const struct zbw_search *s, unsigned int i)
{
	const struct zbw_probe *p = s->probe;
	unsigned int next;
	u32 e;

	if (!s->tolerance_shift || i + 1 >= p->nr)
		return false;
	next = p->order[i + 1];
	/* nothing below the limit yet: only a chain expected below it */
	if (s->best_comb < 0)
		return p->est[next] && p->est[next] >= s->best;
	if (p->layout[next] == p->layout[s->best_comb])
		return false;
	if (!i && zbw_search_further(s))
		return false;
	e = p->est[s->best_comb];
	return p->est[next] > e + (e >> s->tolerance_shift) ||
	       s->best <= p->est[next] + (p->est[next] >> 1);
}

/**
 * zbw_search_zstd() - the chain of zstd alone, to try once the search ends
 * @s: the search, ended by zbw_search_chain_done() or the last chain
 * @turns: the turn it ended at (the probe's count when every chain ran)
 * @slen: the page's length
 *
 * The probe ranks chains by the entropy of byte lanes and words, which
 * misses what zstd's matches find on pages of records: repeats a few bytes
 * apart with a few bytes changed.  There a small result of another chain
 * can lose to zstd alone, which costs little on such a page.
 *
 * Return: the table index of the chain of zstd alone when the best result
 * is below half the page, that chain's estimate is within an eighth of
 * the best chain's and it has not run; else -1.
 */
int zbw_search_zstd(const struct zbw_search *s, unsigned int turns,
		    size_t slen)
{
	const struct zbw_probe *p = s->probe;
	int z = p->zstd;
	u32 e;
	unsigned int i;

	if (z < 0 || s->best_comb < 0 || z == s->best_comb ||
	    s->best >= slen / 2)
		return -1;
	e = p->est[s->best_comb];
	if (p->est[z] > e + (e >> 3))
		return -1;
	for (i = 0; i <= turns && i < p->nr; i++)
		if (p->order[i] == z)
			return -1;
	return z;
}
