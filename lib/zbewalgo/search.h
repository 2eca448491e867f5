/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The combination engine's search (search.c): page classes, what the
 * engine remembers per class, and the decisions of one page's search,
 * which the engine and the tuner (tools/zbewalgo) both drive.
 */
#ifndef __ZBEWALGO_SEARCH_H
#define __ZBEWALGO_SEARCH_H

#include "zbewalgo_internal.h"

/*
 * Pages accepted by the tolerance shortcut between two full searches.  The
 * reference size only comes from full searches, so a chain that won on
 * one kind of data cannot keep itself in place on another kind that it
 * compresses about as badly: after this many pages the others get a try.
 * A try of a zstd chain costs about what zstd costs for the page: 63
 * pages and a tolerance of a quarter (zbewalgo_default_params()) instead
 * of 15 and an eighth take 9% fewer instructions on the bench sets for
 * 0.5% of the ratio.
 */
#define ZBW_MAX_SHORTCUTS	63

/*
 * Pages of different kinds come interleaved (a process's heap, its
 * arrays and its text all go to swap together), and a table's chains
 * each win on one kind.  The engine remembers the last winner per page
 * class, a coarse signature of the page's sampled byte statistics
 * (zbw_classify()), so that about one chain is tried per page however
 * the kinds are mixed.  ZBW_NR_CLASSES is its number of values.
 */
#define ZBW_NR_CLASSES		13

/**
 * struct zbw_class_memory - what the engine remembers for a page class
 * @last: combination that won the previous page of the class
 * @last_index: table index @last had, checked before use
 * @last_size: size @last reached when it last won a full search
 * @have_last: @last, @last_index and @last_size are valid
 * @stored: the previous page of the class was stored
 * @shortcuts: pages that may still be accepted by the tolerance shortcut
 *	before a full search is forced
 * @budget: @shortcuts after a full search: doubles while full searches
 *	find @last within the tolerance of the best, falls to 1 when not
 */
struct zbw_class_memory {
	struct zbewalgo_combination last;
	u32 last_size;
	u16 last_index;
	u8 shortcuts;
	u8 budget;
	bool have_last;
	bool stored;
};

/*
 * Page statistics for the classifier and the incompressibility test:
 * 8-byte words at the start of every 64-byte block, counted per byte
 * lane (offset % 8), so the lanes of float and integer arrays are seen
 * apart.  The classifier looks at the first word of each block, the test
 * at two.  Pages shorter than ZBW_CHECK_MIN give too few samples and
 * skip both.
 */
#define ZBW_CHECK_BLOCK		64
#define ZBW_CHECK_LANES		8
#define ZBW_CHECK_WORDS		2
#define ZBW_CHECK_MIN		1024
/*
 * Two more signs of structure the lanes miss: small steps between
 * neighbouring bytes (a histogram of the sampled bytes' differences as a
 * ninth lane; sorted or slowly varying bytes), and repeats (the 4-byte
 * words at every ZBW_CHECK_BLOCK-th position go into a hash table, then
 * every position of the last block is looked up: a page repeating a
 * block of any length up to the page finds one there).  The table has at
 * most 2^ZBW_CHECK_SLOT_BITS slots, twice the positions of the largest
 * page.
 */
#define ZBW_CHECK_SLOT_BITS	11
/* the histograms, then the hash table of positions + 1 */
#define ZBW_CHECK_SCRATCH	((ZBW_CHECK_LANES + 1) * 256 * sizeof(u16) + \
				 (sizeof(u16) << ZBW_CHECK_SLOT_BITS))

/**
 * struct zbw_sample - byte statistics of a page, from a part of it
 * @pairs: pairs of equal bytes in each byte lane (offset % 8)
 * @dpairs: pairs of equal differences of neighbouring sampled bytes
 * @words: 8-byte words sampled per ZBW_CHECK_BLOCK bytes
 *
 * Collision (Renyi order 2) entropy is never above Shannon entropy, and
 * counting pairs (c += h[b]++) estimates it without bias even from a few
 * samples, at one add per byte.
 */
struct zbw_sample {
	u32 pairs[ZBW_CHECK_LANES];
	u32 dpairs;
	unsigned int words;
};

unsigned int zbw_page_class(const u8 *src, unsigned int slen, void *scratch,
			    struct zbw_sample *s);
struct zbw_class_memory *zbw_class_enter(struct zbw_class_memory *class,
					 unsigned int *recent, unsigned int c);
void zbw_class_searched(struct zbw_class_memory *mem, size_t best,
			size_t first);
bool zbw_class_shortcut(struct zbw_class_memory *mem, size_t size,
			unsigned int tolerance_shift);
unsigned int zbw_first_index(const struct zbewalgo_table *table,
			     const struct zbw_class_memory *mem);
bool zbw_looks_random(struct zbw_sample *s, bool fresh, const u8 *src,
		      unsigned int slen, u32 limit, void *scratch);

/**
 * struct zbw_search - one page's search over a table (search.c)
 * @mem: the page's class memory
 * @first: table index of the class's last winner, @nr when none
 * @nr: combinations in the table
 * @early_abort: struct zbewalgo_params.early_abort_size
 * @tolerance_shift: struct zbewalgo_params.tolerance_shift
 * @best: size of the best result, the limit while there is none
 * @best_comb: table index of the chain of @best, -1 while none
 * @best_steps: steps of that chain that gave @best
 * @first_best: @best after the last winner's chain, SIZE_MAX before
 *
 * The engine and the tuner (tools/zbewalgo/tune_search.c) drive one
 * search each through these calls: the engine with the sizes the steps
 * write, the tuner with sizes it measured before.
 */
struct zbw_search {
	struct zbw_class_memory *mem;
	unsigned int first;
	unsigned int nr;
	size_t early_abort;
	unsigned int tolerance_shift;
	size_t best;
	int best_comb;
	unsigned int best_steps;
	size_t first_best;
};

void zbw_search_start(struct zbw_search *s, struct zbw_class_memory *mem,
		      unsigned int first, unsigned int nr, size_t limit,
		      const struct zbewalgo_params *params);
int zbw_search_chain(const struct zbw_search *s, unsigned int i);
bool zbw_search_result(struct zbw_search *s, int ci, unsigned int steps,
		       size_t size);
bool zbw_search_stop(const struct zbw_search *s);
bool zbw_search_chain_done(struct zbw_search *s, int ci);
void zbw_search_end(struct zbw_search *s, bool learn,
		    const struct zbewalgo_combination *won);

#endif /* __ZBEWALGO_SEARCH_H */
