/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The combination engine's search: the page's sample and the decisions
 * of one page's search (search.c), and the probe that ranks a table's
 * chains for the page (probe.c).  The engine drives them, and a table
 * tuner in user space can drive them too.
 */
#ifndef __ZBEWALGO_SEARCH_H
#define __ZBEWALGO_SEARCH_H

#include "zbewalgo_internal.h"

/* log2(@x) in 1/256 bits, @x >= 1; at most 0.05 bits too small */
static inline u32 zbw_log2_q8(u32 x)
{
	/* 256 * log2(1 + i / 32), rounded */
	static const u8 frac[32] = {
		0, 11, 22, 33, 44, 54, 63, 73, 82, 92, 100, 109, 118, 126,
		134, 142, 150, 157, 165, 172, 179, 186, 193, 200, 207, 213,
		220, 226, 232, 238, 244, 250,
	};
	unsigned int e = fls(x) - 1;
	u32 m = e >= 5 ? x >> (e - 5) : x << (5 - e);

	return e * 256 + frac[m - 32];
}

/* A hash of @word into @bits bits, for the sample's and the probe's tables */
static inline u32 zbw_check_hash(u32 word, unsigned int bits)
{
	return (word * 2654435761u) >> (32 - bits);
}

/*
 * Page statistics for the incompressibility test: 8-byte words at the
 * start of every 64-byte block, counted per byte lane (offset % 8), so
 * the lanes of float and integer arrays are seen apart; first one word
 * per block, then two.  Pages shorter than ZBW_CHECK_MIN give too few
 * samples and skip the test, and the probe.
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
/*
 * The histograms, then the hash table of positions + 1, which holds the
 * histogram of the steps of @spairs until zbw_looks_random() needs it.
 */
#define ZBW_CHECK_SCRATCH	((ZBW_CHECK_LANES + 1) * 256 * sizeof(u16) + \
				 (sizeof(u16) << ZBW_CHECK_SLOT_BITS))

/**
 * struct zbw_sample - byte statistics of a page, from a part of it
 * @pairs: pairs of equal bytes in each byte lane (offset % 8)
 * @dpairs: pairs of equal differences of neighbouring sampled bytes
 * @spairs: pairs of equal steps from one block's first byte to the next
 *	block's (a word array that counts up, in any lane)
 * @words: 8-byte words sampled per ZBW_CHECK_BLOCK bytes
 *
 * Collision (Renyi order 2) entropy is never above Shannon entropy, and
 * counting pairs (c += h[b]++) estimates it without bias even from a few
 * samples, at one add per byte.
 */
struct zbw_sample {
	u32 pairs[ZBW_CHECK_LANES];
	u32 dpairs;
	u32 spairs;
	unsigned int words;
};

void zbw_sample_page(const u8 *src, unsigned int slen, void *scratch,
		     struct zbw_sample *s);
bool zbw_sample_plain(const struct zbw_sample *s, unsigned int slen);
bool zbw_looks_random(struct zbw_sample *s, const u8 *src,
		      unsigned int slen, u32 limit, void *scratch);

/*
 * The probe (zbw_probe()) estimates what each chain of a table makes of a
 * page, from ZBW_PROBE_WINDOWS windows of ZBW_PROBE_WINDOW bytes spread
 * over it: the leading layout steps of the chain (delta, bitshuffle,
 * sieve) applied to the sample, then its byte entropy and the share of
 * it that repeats a 4-byte string seen before, the two things the coders
 * after them live on.  Chains with the same layout get the same estimate.
 */
#define ZBW_PROBE_WINDOWS	4
#define ZBW_PROBE_WINDOW	128
#define ZBW_PROBE_BYTES		(ZBW_PROBE_WINDOWS * ZBW_PROBE_WINDOW)
/* layout steps of a chain the probe applies, at most */
#define ZBW_PROBE_STEPS		3
/* slots for about the positions of the largest layout (sieve4's) */
#define ZBW_PROBE_HASH_BITS	10
/*
 * The sample (then the sample's entropy and the word size its lanes
 * show) and two buffers for its layouts, zbewalgo_stage_cap() bytes each;
 * the hash of words; byte counts.
 */
#define ZBW_PROBE_STAGE		(ZBW_PROBE_BYTES + ZBW_PROBE_BYTES / 2 + 64)
/*
 * The num steps' estimate (num_enc.c) takes the room of the two layout
 * buffers, the hash and the byte counts, which it does not use, and 1 KiB
 * more (the histograms of its lag candidates); the sample's entropy and
 * word size are kept after the sample
 */
#define ZBW_PROBE_NUM_ROOM	ZBW_PROBE_STAGE
#define ZBW_NUM_EST_SCRATCH	(2 * ZBW_PROBE_STAGE + \
				 (sizeof(u32) << ZBW_PROBE_HASH_BITS) + \
				 256 * sizeof(u16) + 1024)
#define ZBW_PROBE_SCRATCH	(ZBW_PROBE_NUM_ROOM + ZBW_NUM_EST_SCRATCH)

/*
 * What the probe keeps after its sample (zbw_probe_sample()) for every
 * chain: the sample's entropy (the permuting layouts keep it) and the
 * word size its lanes show; the last num step's pick and whether a lag
 * gave its estimate; num8's estimate once made (0 before), which num4's
 * on a page of 8-byte lanes needs too (zbw_num_probe()), with its own.
 * Kept here, not on the stack of the probe's deepest chain.
 */
struct zbw_probe_facts {
	u32 bits;
	u32 width;
	struct zbw_num_hint pick;
	bool lagged;
	u32 est8;
	bool lagged8;
	struct zbw_num_hint hint8;
};

static inline struct zbw_probe_facts *zbw_probe_facts(void *scratch)
{
	BUILD_BUG_ON(ZBW_PROBE_BYTES + sizeof(struct zbw_probe_facts) >
		     ZBW_PROBE_STAGE);
	return (struct zbw_probe_facts *)((u8 *)scratch + ZBW_PROBE_BYTES);
}

u32 zbw_num_estimate(const u8 *sample, unsigned int n, unsigned int windows,
		     unsigned int w, const u8 *page, unsigned int slen,
		     void *scratch, bool *lagged, struct zbw_num_hint *hint);
void zbw_num_hint_page(const u8 *src, unsigned int slen, unsigned int w,
		       void *scratch, struct zbw_num_hint *hint);
u32 zbw_num_probe(void *scratch, unsigned int w, const u8 *src,
		  unsigned int slen);
/*
 * The estimate of a num step's palette (num_pick.c) takes the same room:
 * a hash of 512 numbers and their counts
 */
#define ZBW_NUM_PAL_EST_SCRATCH	ZBW_NUM_EST_SCRATCH
u32 zbw_num_pal_estimate(const u8 *src, unsigned int slen, unsigned int w,
			 void *scratch);
/*
 * A table has at most one combination per step it holds, so the probe's
 * arrays have ZBEWALGO_MAX_TABLE_STEPS entries.
 */
#define ZBW_PROBE_MAX		ZBEWALGO_MAX_TABLE_STEPS

/**
 * struct zbw_probe - a page's estimates for the chains of a table
 * @nr: chains ranked, the table's size
 * @est: estimated compressed size of the page by each chain, by table
 *	index; 0 when the page was too short to probe; after an easy chain,
 *	its estimate (zbw_probe_cut())
 * @order: table indexes, smallest estimate first, ties in table order
 * @layout: by table index, the first chain whose layout the probe sees
 *	as this one's (zbw_probe_same_layout())
 * @unsure: by table index, the chains whose estimates are less sure (a
 *	num step's at a lag): the search looks further after them
 * @loose: of those, the ones estimated below an eighth of the page, where
 *	the other chains' estimates run up to twice high and zstd's matches
 *	take repeating records for far less: they do not cut the probe
 *	(@easy), and the search looks further after them with twice the
 *	tolerance
 * @zstd: table index of the chain of zstd alone, -1 when there is none
 * @easy: table index of the first chain estimated below early_abort_size,
 *	whose estimate the chains after it copy (zbw_probe_cut()); @nr when
 *	none is
 * @num: the pick of the num step it estimated, for its encoder
 */
struct zbw_probe {
	unsigned int nr;
	u64 unsure;
	u64 loose;
	int zstd;
	unsigned int easy;
	u32 est[ZBW_PROBE_MAX];
	u8 order[ZBW_PROBE_MAX];
	u8 layout[ZBW_PROBE_MAX];
	struct zbw_num_hint num;
};

bool zbw_probe_same_layout(const struct zbewalgo_combination *a,
			   const struct zbewalgo_combination *b);
void zbw_probe_windows(const u8 *src, unsigned int slen, u8 *sample);
void zbw_probe_sample(const u8 *src, unsigned int slen, void *scratch);
u32 zbw_probe_estimate(const struct zbewalgo_combination *comb,
		       const u8 *src, unsigned int slen, void *scratch,
		       bool *unsure, struct zbw_num_hint *hint);
bool zbw_probe_plain_chain(const struct zbewalgo_combination *comb);
bool zbw_probe_zstd_chain(const struct zbewalgo_combination *comb);
u32 zbw_probe_plain_estimate(const struct zbewalgo_combination *comb,
			     unsigned int slen);
void zbw_probe_rank(struct zbw_probe *p);
void zbw_probe_rank_after(struct zbw_probe *p);
void zbw_probe_cut(struct zbw_probe *p, u32 easy);
void zbw_probe(const u8 *src, unsigned int slen,
	       const struct zbewalgo_table *table, u32 easy, bool plain,
	       void *scratch, struct zbw_probe *p);
void zbw_probe_rest(const u8 *src, unsigned int slen,
		    const struct zbewalgo_table *table, void *scratch,
		    struct zbw_probe *p);

/**
 * struct zbw_search - one page's search over a table (search.c)
 * @probe: the page's estimates and the order of the tries
 * @early_abort: a result below this ends the search, 0 for none
 * @tolerance_shift: struct zbewalgo_params.tolerance_shift
 * @best: size of the best result, the limit while there is none
 * @best_comb: table index of the chain of @best, -1 while none
 * @best_steps: steps of that chain that gave @best
 *
 * The engine drives one search per page through these calls, with the
 * sizes the steps write; a table tuner in user space drives the same
 * calls with sizes it measured before, and so decides as the engine
 * would.  Nothing in it outlives the page.
 */
struct zbw_search {
	const struct zbw_probe *probe;
	size_t early_abort;
	unsigned int tolerance_shift;
	size_t best;
	int best_comb;
	unsigned int best_steps;
};

void zbw_search_start(struct zbw_search *s, const struct zbw_probe *probe,
		      size_t limit, u32 early_abort,
		      unsigned int tolerance_shift);
int zbw_search_chain(const struct zbw_search *s, unsigned int i);
bool zbw_search_result(struct zbw_search *s, int ci, unsigned int steps,
		       size_t size);
bool zbw_search_stop(const struct zbw_search *s, unsigned int i);
bool zbw_search_chain_done(const struct zbw_search *s, unsigned int i);
int zbw_search_zstd(const struct zbw_search *s, unsigned int turns,
		    size_t slen);

#endif /* __ZBEWALGO_SEARCH_H */
