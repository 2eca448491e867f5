// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo page decoding: reads the page format described in
 * Documentation/staging/zbewalgo.rst and runs the inverse of each named
 * step.  It depends only on the compressed bytes, never on a table, and
 * checks every length before it is used: this is the path that reads
 * whatever a corrupted page holds.
 */

#include <kunit/visibility.h>
#include <linux/export.h>

#include "engine.h"

/**
 * zbewalgo_decompress_scratch_size() - scratch needed by zbewalgo_decompress()
 * @max_len: the largest destination capacity (*dlen) that will be passed
 *
 * Return: size in bytes of the scratch area for zbewalgo_decompress().
 */
size_t zbewalgo_decompress_scratch_size(size_t max_len)
{
	size_t stage, steps, size, cap, state = 0;
	struct zbw_room room;
	unsigned int id;
	u64 lent;

	max_len = min_t(size_t, max_len, ZBEWALGO_MAX_INPUT);
	cap = zbewalgo_stage_cap(max_len);
	room = ZBW_ROOM_ANY(max_len);
	lent = zbw_lent_steps(max_len, ZBW_ALL_STEPS);
	size = zbw_scratch_layout(max_len, ZBW_ALL_STEPS, lent, &stage, &steps);
	/*
	 * Without a context, steps with state set theirs up here, and the
	 * steps that would borrow the zstd step's workspace take this room.
	 */
	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		const struct zbewalgo_step *step = zbewalgo_step_get(id);

		if (!step)
			continue;
		state = max(state, zbw_state_size(id, &room));
		if ((lent & BIT_ULL(id)) && !step->decode_scratch_size)
			state = max(state, step->scratch_size(cap));
	}
	return size + zbw_align8(state);
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_decompress_scratch_size);

/*
 * Without a context: what @step (id @id) decodes a page of @orig bytes
 * with, its scratch laid out in @scratch as @layout bytes and then room
 * for a state; the state set up there for a step that has one, or NULL
 * when that fails.  Out of line: zbw_decompress()'s frame lies under every
 * decoder's, and this one's need not.
 */
static noinline_for_stack void *
zbw_scratch_for(const struct zbewalgo_step *step, unsigned int id,
		u8 *scratch, size_t layout, void *step_scratch,
		unsigned int orig)
{
	struct zbw_room room = ZBW_ROOM_ANY(orig);

	/*
	 * The steps that would borrow zstd's workspace take the state's
	 * room.  Whether a step borrows depends on it and on zstd only.
	 */
	if (!step->decode_scratch_size &&
	    (zbw_lent_steps(orig, BIT_ULL(id) | BIT_ULL(ZBEWALGO_STEP_ZSTD)) &
	     BIT_ULL(id)))
		return scratch + layout;
	if (!step->state_size)
		return step_scratch;
	if (step->state_init(scratch + layout, &room, step_scratch))
		return NULL;
	return scratch + layout;
}

/*
 * Decompresses a page with the stage buffers and step scratch of a
 * context @ctx, laid out for its max_len, and its step states; or, with
 * @ctx NULL, with the scratch layout for the page in @scratch, setting
 * up step states after it.
 */
static int zbw_decompress(const u8 *src, size_t slen, u8 *dst, size_t *dlen,
			  u8 *scratch, const struct zbewalgo_ctx *ctx)
{
	const u8 *ip = src, *end = ip + slen;
	unsigned int nr_steps, n, i, cap, inlen;
	size_t stage, steps, layout = 0;
	u8 *buf0, *buf1;
	void *step_scratch;
	const u8 *in;
	u32 orig;

	if (slen < 2)
		return -EINVAL;
	if ((ip[0] & ZBW_HDR_VERSION_MASK) != ZBEWALGO_FORMAT_VERSION ||
	    (ip[0] & ZBW_HDR_RESERVED))
		return -EINVAL;
	nr_steps = (ip[0] & ZBW_HDR_STEPS_MASK) >> ZBW_HDR_STEPS_SHIFT;
	if (slen < 2 + nr_steps)
		return -EINVAL;
	for (i = 0; i < nr_steps; i++)
		if (!zbewalgo_step_get(ip[1 + i]) ||
		    (ctx && !(ctx->steps & BIT_ULL(ip[1 + i]))))
			return -EINVAL;
	n = zbw_get_len(ip + 1 + nr_steps, end, &orig);
	if (!n || orig > ZBEWALGO_MAX_INPUT)
		return -EINVAL;
	if (orig > *dlen)
		return -ENOSPC;
	in = ip + 1 + nr_steps + n;
	inlen = end - in;

	if (!nr_steps) {
		if (inlen != orig)
			return -EINVAL;
		memcpy(dst, in, orig);
		*dlen = orig;
		return 0;
	}

	if (ctx) {
		/* laid out for larger pages already: no need to do it again */
		buf0 = ctx->buf[0];
		buf1 = ctx->buf[1];
		step_scratch = ctx->step_scratch;
	} else {
		layout = zbw_scratch_layout(orig, ZBW_ALL_STEPS,
					    zbw_lent_steps(orig, ZBW_ALL_STEPS),
					    &stage, &steps);
		buf0 = scratch;
		buf1 = buf0 + stage;
		step_scratch = buf1 + stage;
	}
	cap = zbewalgo_stage_cap(orig);
	if (inlen > cap)
		return -EINVAL;
	for (i = nr_steps; i-- > 0;) {
		unsigned int id = ip[1 + i];
		const struct zbewalgo_step *step = NULL;
		u8 *out;
		void *arg;
		int ret;

		/* delta@w and bitshuffle@w as one: the delta step's output */
		if (i)
			step = zbw_fused_step(ip + 1, i - 1, nr_steps);
		if (step)
			i--;
		else
			step = zbewalgo_step_get(id);
		/* the stage buffer the step does not read, or @dst at last */
		out = !i ? dst : in == buf0 ? buf1 : buf0;
		if (!ctx)
			arg = zbw_scratch_for(step, id, scratch, layout,
					      step_scratch, orig);
		else if (step->state_size)
			arg = ctx->state[id];
		else
			arg = zbw_step_dec_scratch(ctx, step, id);
		if (!arg)
			return -ENOMEM;
		ret = step->decode(in, inlen, out, i ? cap : orig, arg);
		if (ret < 0)
			return -EINVAL;
		in = out;
		inlen = ret;
	}
	if (inlen != orig)
		return -EINVAL;
	*dlen = orig;
	return 0;
}

/**
 * zbewalgo_decompress() - decompress one page
 * @src: compressed data
 * @slen: its exact length
 * @dst: output buffer
 * @dlen: in: capacity of @dst; out: decompressed length
 * @scratch: at least zbewalgo_decompress_scratch_size(*@dlen) bytes,
 *	8-byte aligned
 *
 * Depends only on the bytes of @src: pages stay readable after their
 * combination left the table.  Never reads outside @src or writes outside
 * @dst and @scratch, whatever @src holds.  Steps that keep state in a
 * context (zstd) set it up anew for every page here, which can cost more
 * than the decoding: zbewalgo_ctx_decompress() is the fast way.
 *
 * Return: 0 on success, -EINVAL for malformed or corrupted data, -ENOSPC
 * when the page does not fit in *@dlen bytes.
 */
int zbewalgo_decompress(const void *src, size_t slen, void *dst,
			size_t *dlen, void *scratch)
{
	return zbw_decompress(src, slen, dst, dlen, scratch, NULL);
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_decompress);

/**
 * zbewalgo_ctx_decompress() - decompress one page with a context's scratch
 * @ctx: the context; not compressing at the same time
 * @src: compressed data
 * @slen: its exact length
 * @dst: output buffer
 * @dlen: in: capacity of @dst; out: decompressed length
 *
 * zbewalgo_decompress() with the context's scratch and step states.  The
 * scratch is laid out for pages of up to the context's max_len, so pages
 * claiming more are refused whatever *@dlen allows: callers need not
 * bound *@dlen themselves.  A context made for one table
 * (zbewalgo_ctx_create_for()) refuses pages of steps that table lacks.
 *
 * Return: 0 on success, -EINVAL for malformed or corrupted data (or steps
 * the context has no room for), -ENOSPC when the page does not fit in
 * *@dlen bytes or is longer than the context's max_len.
 */
int zbewalgo_ctx_decompress(struct zbewalgo_ctx *ctx, const void *src,
			    size_t slen, void *dst, size_t *dlen)
{
	size_t cap = min(*dlen, ctx->max_len);
	int ret;

	ret = zbw_decompress(src, slen, dst, &cap, NULL, ctx);
	if (!ret)
		*dlen = cap;
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_ctx_decompress);
