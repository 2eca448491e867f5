// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the combination engine's search decides (engine.c): a page's class
 * and sample, the memory of each class (its last winner, the tolerance
 * shortcut and its budget), the random-page test, and the search over a
 * table itself: which chain comes next, which result is kept, when the
 * search stops and what the class learns from it.  The tuner
 * (tools/zbewalgo/tune_search.c) runs the same search on measured sizes.
 */

#include "search.h"

/* Table index of the class's last winner, or table->nr when not there. */
unsigned int zbw_first_index(const struct zbewalgo_table *table,
			     const struct zbw_class_memory *mem)
{
	unsigned int i;

	if (!mem->have_last)
		return table->nr;
	if (mem->last_index < table->nr &&
	    zbw_comb_equal(&table->comb[mem->last_index], &mem->last))
		return mem->last_index;
	for (i = 0; i < table->nr; i++)
		if (zbw_comb_equal(&table->comb[i], &mem->last))
			return i;
	return table->nr;
}

/* 256 * log2(1 + i / 32), rounded */
static const u8 zbw_log2_frac[32] = {
	0, 11, 22, 33, 44, 54, 63, 73, 82, 92, 100, 109, 118, 126, 134, 142,
	150, 157, 165, 172, 179, 186, 193, 200, 207, 213, 220, 226, 232, 238,
	244, 250,
};

/* log2(@x) in 1/256 bits, @x >= 1; at most 0.05 bits too small */
static u32 zbw_log2_q8(u32 x)
{
	unsigned int e = fls(x) - 1;
	u32 m = e >= 5 ? x >> (e - 5) : x << (5 - e);

	return e * 256 + zbw_log2_frac[m - 32];
}

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
		i = zbw_check_hash(zbw_load32(src + o), bits);
		while (slot[i])
			i = (i + 1) & mask;
		slot[i] = o + 1;
	}
	for (o = end; o < end + ZBW_CHECK_BLOCK; o++) {
		u32 w = zbw_load32(src + o);

		for (i = zbw_check_hash(w, bits); slot[i]; i = (i + 1) & mask)
			if (zbw_load32(src + slot[i] - 1) == w)
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
	u16 *hd = h[ZBW_CHECK_LANES];
	u32 p0, p1, p2, p3, p4, p5, p6, p7, dp;
	unsigned int o;

	if (!word) {
		memset(h, 0, (ZBW_CHECK_LANES + 1) * sizeof(*h));
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
	}
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

/*
 * The class of a sampled page: 1-4 for pages whose lanes look alike
 * (text, code, random), 5-8 for lanes that repeat every 4 bytes (arrays
 * of 32-bit numbers), 9-12 for 8-byte words; within each, the mean lane
 * entropy in steps of 2 bits.  Lanes differ when their entropies are 2
 * bits or more apart (less is sampling noise), and an array of 4-byte
 * numbers has both halves of each 8-byte word alike.
 */
static unsigned int zbw_classify(const struct zbw_sample *s,
				 unsigned int slen)
{
	s32 h2[ZBW_CHECK_LANES], lo = S32_MAX, hi = 0, sum = 0, halves = 0;
	unsigned int j, level;

	for (j = 0; j < ZBW_CHECK_LANES; j++) {
		h2[j] = max(zbw_sample_h2(s, slen, j), 0);
		lo = min(lo, h2[j]);
		hi = max(hi, h2[j]);
		sum += h2[j];
	}
	for (j = 0; j < ZBW_CHECK_LANES / 2; j++)
		halves += abs(h2[j] - h2[j + ZBW_CHECK_LANES / 2]);
	level = min_t(unsigned int, sum / (ZBW_CHECK_LANES * 512), 3);
	if (hi - lo < 512)
		return 1 + level;
	if (halves < hi - lo)
		return 5 + level;
	return 9 + level;
}

/**
 * zbw_page_class() - sample a page and tell its class
 * @src: the page
 * @slen: its length
 * @scratch: at least ZBW_CHECK_SCRATCH bytes; holds the sample's counts
 *	afterwards, for zbw_looks_random()
 * @s: the sample, filled in
 *
 * Return: the class, 1..ZBW_NR_CLASSES - 1, or 0 for pages too short to
 * sample (@s is then not filled in).
 */
unsigned int zbw_page_class(const u8 *src, unsigned int slen, void *scratch,
			    struct zbw_sample *s)
{
	if (slen < ZBW_CHECK_MIN)
		return 0;
	zbw_sample_word(src, slen, 0, scratch, s);
	return zbw_classify(s, slen);
}

/**
 * zbw_class_enter() - the memory of a page's class
 * @class: the memories of a context, ZBW_NR_CLASSES of them
 * @recent: class of the previous page; set to @c
 * @c: class of this page
 *
 * A class seen first tries the previous page's winner first, but
 * searches in full: it is another kind of data.  It keeps the previous
 * class's budget, so that a winner the search confirms is trusted as
 * long as there at once (the pages of one file fall in a few classes).
 *
 * Return: the memory of class @c.
 */
struct zbw_class_memory *zbw_class_enter(struct zbw_class_memory *class,
					 unsigned int *recent, unsigned int c)
{
	struct zbw_class_memory *mem = &class[c];

	if (!mem->have_last) {
		*mem = class[*recent];
		mem->shortcuts = 0;
	}
	*recent = c;
	return mem;
}

/**
 * zbw_class_searched() - learn from a full search
 * @mem: the page's class memory
 * @best: size of the winner
 * @first: size the class's last winner reached on the page, SIZE_MAX if
 *	it was not tried
 *
 * While the last winner stays within 1/16 of the best, the shortcut is
 * trusted for twice as many pages each time, up to ZBW_MAX_SHORTCUTS;
 * a class whose pages want different chains searches again after one.
 */
void zbw_class_searched(struct zbw_class_memory *mem, size_t best,
			size_t first)
{
	mem->last_size = best;
	if (first <= best + (best >> 4))
		mem->budget = min(2 * mem->budget + 1, ZBW_MAX_SHORTCUTS);
	else
		mem->budget = 1;
	mem->shortcuts = mem->budget;
}

/**
 * zbw_class_shortcut() - whether the last winner's result ends the search
 * @mem: the page's class memory
 * @size: the last winner's result on this page
 * @tolerance_shift: struct zbewalgo_params.tolerance_shift
 *
 * Return: true when @size is within the tolerance of the class's last
 * full-search result and the class has shortcuts left (one is used).
 */
bool zbw_class_shortcut(struct zbw_class_memory *mem, size_t size,
			unsigned int tolerance_shift)
{
	if (!tolerance_shift || !mem->shortcuts ||
	    size > mem->last_size + (mem->last_size >> tolerance_shift))
		return false;
	mem->shortcuts--;
	return true;
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
 * may show.  @s is the classifier's sample, its counts still in @scratch
 * if @fresh: a page a bit or more below @limit there needs no second
 * look.
 */
bool zbw_looks_random(struct zbw_sample *s, bool fresh, const u8 *src,
		      unsigned int slen, u32 limit, void *scratch)
{
	if (!zbw_sample_above(s, slen, (s32)limit - 256))
		return false;
	if (!fresh)	/* the steps have used the counts */
		zbw_sample_word(src, slen, 0, scratch, s);
	zbw_sample_word(src, slen, 1, scratch, s);
	return zbw_sample_above(s, slen, limit) &&
	       !zbw_repeats(src, slen, scratch);
}

/**
 * zbw_search_start() - begin the search of a page
 * @s: the search
 * @mem: the page's class memory (zbw_class_enter())
 * @first: table index of the class's last winner (zbw_first_index())
 * @nr: combinations in the table
 * @limit: results must be smaller than this to be kept
 * @params: the thresholds
 */
void zbw_search_start(struct zbw_search *s, struct zbw_class_memory *mem,
		      unsigned int first, unsigned int nr, size_t limit,
		      const struct zbewalgo_params *params)
{
	s->mem = mem;
	s->first = first;
	s->nr = nr;
	s->early_abort = params->early_abort_size;
	s->tolerance_shift = params->tolerance_shift;
	s->best = limit;
	s->best_comb = -1;
	s->best_steps = 0;
	s->first_best = SIZE_MAX;
}

/**
 * zbw_search_chain() - the chain tried in turn @i
 * @s: the search
 * @i: 0 to @s->nr
 *
 * The class's last winner comes first, then the table in order.
 *
 * Return: its table index, or -1 when turn @i tries nothing.
 */
int zbw_search_chain(const struct zbw_search *s, unsigned int i)
{
	unsigned int ci = i == 0 ? s->first : i - 1;

	if (ci >= s->nr || (i > 0 && ci == s->first))
		return -1;
	return ci;
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
 * zbw_search_chain_done() - whether the search ends after a chain
 * @s: the search
 * @ci: table index of the chain just tried
 *
 * After the class's last winner, a result within the tolerance of its
 * last one ends the search: the page is like the last of its class
 * (zbw_class_shortcut()).
 *
 * Return: true when the search ends here.
 */
bool zbw_search_chain_done(struct zbw_search *s, int ci)
{
	if (ci != (int)s->first)
		return false;
	s->first_best = s->best;
	return s->best_comb == ci &&
	       zbw_class_shortcut(s->mem, s->best, s->tolerance_shift);
}

/**
 * zbw_search_end() - what the page's class learns from the search
 * @s: the search
 * @learn: the search was not ended by the shortcut
 * @won: the winning combination, NULL when the page is stored
 */
void zbw_search_end(struct zbw_search *s, bool learn,
		    const struct zbewalgo_combination *won)
{
	struct zbw_class_memory *mem = s->mem;

	if (learn && s->best_comb >= 0)
		zbw_class_searched(mem, s->best,
				   s->best_comb == (int)s->first ?
				   s->best : s->first_best);
	mem->stored = !won;
	if (!won)
		return;
	mem->last = *won;
	mem->last_index = s->best_comb;
	mem->have_last = true;
}
