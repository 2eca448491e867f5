/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the combination engine (engine.c) shares with the page decoder
 * (decompress.c): the context and the layout of its memory.
 */
#ifndef __ZBEWALGO_ENGINE_H
#define __ZBEWALGO_ENGINE_H

#include "search.h"

/* Sizes in a context's memory are kept 8-byte aligned. */
static inline size_t zbw_align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/**
 * struct zbewalgo_ctx - per-stream compression state and scratch
 * @max_len: largest input this context accepts
 * @table: combinations to try; owned by the caller
 * @params: search thresholds
 * @level: compression level, zbewalgo_ctx_set_level()
 * @result: what the previous call did, for statistics
 * @sample: the page's sample, for the incompressibility test
 * @probe: the page's estimates for the table's chains
 * @search: the page's search
 *	(@sample, @probe and @search are here rather than on the caller's
 *	stack)
 * @steps: the steps (BIT_ULL(id)) it has scratch and state for; chains
 *	with others are not tried, pages with others not decoded
 * @buf: two stage buffers of zbewalgo_stage_cap(@max_len) bytes each; the
 *	best result so far goes to the caller's buffer
 * @step_scratch: scratch shared by the steps
 * @lent: the steps (BIT_ULL(id)) that use the zstd step's decompression
 *	workspace as scratch instead, zbw_step_scratch()
 * @state: each step's state (struct zbewalgo_step), by id; NULL for steps
 *	without
 *
 * Everything a compression changes lives here, so contexts used by
 * different threads never share mutable state.  Nothing of one page is
 * read for the next: the result of a page depends on the page, @table,
 * @params and the level only.
 */
struct zbewalgo_ctx {
	size_t max_len;
	const struct zbewalgo_table *table;
	struct zbewalgo_params params;
	int level;
	struct zbewalgo_result result;
	struct zbw_sample sample;
	struct zbw_probe probe;
	struct zbw_search search;
	u64 steps;
	u8 *buf[2];
	void *step_scratch;
	u64 lent;
	void *state[ZBEWALGO_NR_STEP_IDS];
};

/* Every step id this build has, as a mask of struct zbewalgo_ctx's @steps */
#define ZBW_ALL_STEPS	zbw_built_steps()

/*
 * Scratch layout: stage A, stage B, step scratch (all decoding needs), for
 * the steps of the mask @mask, of which those of @lent borrow zstd's
 * workspace to encode.  Inline, as the static it was in one file:
 * out of line, the decoder's frame holds the sizes it passes by address,
 * and its deepest call chain on arm64 needs more than 1 KiB of stack.
 */
static inline size_t zbw_scratch_layout(size_t max_len, u64 mask, u64 lent,
					size_t *stage, size_t *steps)
{
	unsigned int cap = zbewalgo_stage_cap(max_len);

	*stage = zbw_align8(cap);
	/* the incompressibility test and the probe share the step scratch */
	*steps = zbw_align8(max_t(size_t,
				  zbw_steps_scratch_size(cap, mask, lent),
				  max(ZBW_CHECK_SCRATCH, ZBW_PROBE_SCRATCH)));
	return 2 * *stage + *steps;
}

/*
 * The scratch of step @id, which keeps no state: the context's, or for
 * the steps that need much more than the others (the num encoders, lz and
 * bwt, for pages of 4 KiB), the zstd step's decompression workspace.  zstd
 * decodes nothing while another step runs, and a context keeps 47 KiB
 * less per stream.
 */
static inline void *zbw_step_scratch(const struct zbewalgo_ctx *ctx,
				     unsigned int id)
{
	if (ctx->lent & BIT_ULL(id))
		return zbw_zstd_lend(ctx->state[ZBEWALGO_STEP_ZSTD]);
	return ctx->step_scratch;
}

/* The same for decoding @step (of id @id), which may need less */
static inline void *zbw_step_dec_scratch(const struct zbewalgo_ctx *ctx,
					 const struct zbewalgo_step *step,
					 unsigned int id)
{
	if (step->decode_scratch_size)
		return ctx->step_scratch;
	return zbw_step_scratch(ctx, id);
}

/* Bytes of a step's state for @room, 0 for none. */
static inline size_t zbw_state_size(unsigned int id,
				    const struct zbw_room *room)
{
	const struct zbewalgo_step *step = zbewalgo_step_get(id);

	return step->state_size ? zbw_align8(step->state_size(room)) : 0;
}

#endif /* __ZBEWALGO_ENGINE_H */
