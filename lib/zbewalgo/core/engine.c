// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo combination engine: the compression contexts, and compression
 * itself, which tries the combinations of a table on a page, keeps the
 * smallest result and writes it in the page format described in
 * Documentation/staging/zbewalgo.rst.  decompress.c reads it back.
 */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "engine.h"

static unsigned int zbw_len_bytes(u32 val)
{
	return val < (1u << 7) ? 1 : val < (1u << 14) ? 2 : 3;
}

/* zsmalloc's longest zspage, in pages; 8 unless the kernel says */
#ifdef CONFIG_ZSMALLOC_CHAIN_SIZE
#define ZBW_ZSPAGE_CHAIN	CONFIG_ZSMALLOC_CHAIN_SIZE
#else
#define ZBW_ZSPAGE_CHAIN	8
#endif

/*
 * zsmalloc's huge-class threshold since Linux 6.3, for zspages of up to
 * ZBW_ZSPAGE_CHAIN pages and size classes page_len / 256 apart: zram
 * stores a page whole, and zswap gains nothing from a result, from this
 * length on.  It is the size of the largest class that still packs
 * several objects into a zspage, less the handle zs_malloc() adds to each
 * object, plus one: 3625 bytes for 4 KiB pages with 8-byte handles (the
 * class of 3632 bytes).
 */
static size_t zbw_huge_size(size_t page_len)
{
	/* zsmalloc's smallest class and alignment; tools try tiny pages. */
	size_t step = max_t(size_t, page_len / 256, 8), i;

	if (page_len <= 32)
		return page_len;
	for (i = DIV_ROUND_UP(page_len - 32, step); i; i--) {
		size_t size = min(32 + i * step, page_len);
		size_t waste = page_len % size, pages = 1, k;

		/* zsmalloc gives power-of-two classes one page each. */
		for (k = 2; k <= ZBW_ZSPAGE_CHAIN && (size & (size - 1)); k++) {
			if (k * page_len % size < waste) {
				waste = k * page_len % size;
				pages = k;
			}
		}
		if (pages > 1 && pages * page_len / size > 1)
			return size - (sizeof(unsigned long) - 1);
	}
	return page_len;
}

/**
 * zbewalgo_default_params() - default thresholds for a page size
 * @params: filled in
 * @page_len: size of the pages that will be compressed
 *
 * max_output_size defaults to the length from which zram (since Linux 6.3,
 * with zsmalloc's default zspage chain) keeps a page whole: 3625 bytes for
 * 4 KiB pages.  Searching stops at results below an eighth of the page.
 * Pages that measure at least 7.45 bits of entropy per byte are stored at
 * once.
 */
void zbewalgo_default_params(struct zbewalgo_params *params, size_t page_len)
{
	params->max_output_size = zbw_huge_size(page_len);
	params->early_abort_size = page_len / 8;
	params->tolerance_shift = 5;
	params->store_entropy = ZBEWALGO_STORE_ENTROPY;
}

/* The steps of @comb, BIT_ULL(id) each */
static u64 zbw_comb_mask(const struct zbewalgo_combination *comb)
{
	u64 mask = 0;
	unsigned int k;

	/* bit 0, no step's, for ids no step has */
	for (k = 0; k < comb->nr_steps; k++)
		mask |= BIT_ULL(comb->ids[k] < ZBEWALGO_NR_STEP_IDS ?
				comb->ids[k] : 0);
	return mask;
}

/* The steps of @table, or all of them for NULL */
static u64 zbw_table_mask(const struct zbewalgo_table *table)
{
	u64 mask = 0;
	unsigned int i;

	if (!table)
		return ZBW_ALL_STEPS;
	for (i = 0; i < table->nr; i++)
		mask |= zbw_comb_mask(&table->comb[i]);
	return mask & ZBW_ALL_STEPS;
}

/*
 * Bytes of a context for the steps of @mask, of which those of @lent
 * borrow their scratch, with states for @room: the struct, then the
 * scratch layout and the steps' states.
 */
static size_t zbw_ctx_layout(const struct zbw_room *room, u64 mask, u64 lent,
			     size_t *head, size_t *stage, size_t *steps)
{
	unsigned int id;
	size_t size;

	*head = zbw_align8(sizeof(struct zbewalgo_ctx));
	size = *head + zbw_scratch_layout(room->max_len, mask, lent, stage,
					  steps);
	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++)
		if (mask & BIT_ULL(id))
			size += zbw_state_size(id, room);
	return size;
}

/* A context's room: for @level only or any, with @dict or not */
static struct zbw_room zbw_ctx_room(size_t max_len, int level, bool dict)
{
	struct zbw_room room = ZBW_ROOM_ANY(max_len);

	room.level = level;
	room.dict = dict;
	return room;
}

/**
 * zbewalgo_ctx_size_for() - memory of a compression context for a table
 * @max_len: as for zbewalgo_ctx_create(), at most ZBEWALGO_MAX_INPUT
 * @table: as for zbewalgo_ctx_create_for(), or NULL for every step
 * @level: as for zbewalgo_ctx_create_for(), or 0 for any level
 * @dict: as for zbewalgo_ctx_create_for()
 *
 * All of it is allocated by zbewalgo_ctx_create_for(); compression
 * allocates nothing more, and neither does zbewalgo_ctx_decompress().
 *
 * Return: size in bytes of the context zbewalgo_ctx_create_for(@max_len,
 * @table, @level, @dict) allocates.
 */
size_t zbewalgo_ctx_size_for(size_t max_len,
			     const struct zbewalgo_table *table, int level,
			     bool dict)
{
	u64 mask = zbw_table_mask(table);
	struct zbw_room room;
	size_t head, stage, steps;

	max_len = min_t(size_t, max_len, ZBEWALGO_MAX_INPUT);
	room = zbw_ctx_room(max_len, level, dict);
	return zbw_ctx_layout(&room, mask, zbw_lent_steps(max_len, mask),
			      &head, &stage, &steps);
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_ctx_size_for);

/**
 * zbewalgo_ctx_size() - memory of a compression context
 * @max_len: as for zbewalgo_ctx_create(), at most ZBEWALGO_MAX_INPUT
 *
 * Return: size in bytes of the context zbewalgo_ctx_create(@max_len)
 * allocates, see zbewalgo_ctx_size_for().
 */
size_t zbewalgo_ctx_size(size_t max_len)
{
	return zbewalgo_ctx_size_for(max_len, NULL, 0, false);
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_ctx_size);

/**
 * zbw_ctx_new() - zbewalgo_ctx_create_for(), saying why it failed
 * @max_len: as for zbewalgo_ctx_create_for()
 * @table: as for zbewalgo_ctx_create_for()
 * @level: as for zbewalgo_ctx_create_for()
 * @dict: as for zbewalgo_ctx_create_for()
 * @ctxp: the context, set on success only
 *
 * May sleep.
 *
 * Return: 0, -EINVAL for a @max_len above ZBEWALGO_MAX_INPUT or an
 * unknown @level, -ENOMEM when out of memory, or the error of a step's
 * state set-up (-EINVAL when zstd refuses its workspace).
 */
int zbw_ctx_new(size_t max_len, const struct zbewalgo_table *table,
		int level, bool dict, struct zbewalgo_ctx **ctxp)
{
	struct zbw_room room = zbw_ctx_room(max_len, level, dict);
	size_t head, stage, steps, size;
	u64 mask = zbw_table_mask(table), lent;
	struct zbewalgo_ctx *ctx;
	unsigned int id;
	u8 *mem, *state;
	int ret;

	if (max_len > ZBEWALGO_MAX_INPUT || level < 0 ||
	    level > ZBEWALGO_MAX_LEVEL)
		return -EINVAL;
	lent = zbw_lent_steps(max_len, mask);
	size = zbw_ctx_layout(&room, mask, lent, &head, &stage, &steps);
	mem = kvzalloc(size, GFP_KERNEL);
	if (!mem)
		return -ENOMEM;
	ctx = (struct zbewalgo_ctx *)mem;
	ctx->max_len = max_len;
	ctx->steps = mask;
	ctx->lent = lent;
	ctx->table = table ?: zbewalgo_table_default();
	zbewalgo_default_params(&ctx->params, max_len);
	ctx->level = level ?: ZBEWALGO_DEFAULT_LEVEL;
	ctx->buf[0] = mem + head;
	ctx->buf[1] = ctx->buf[0] + stage;
	ctx->step_scratch = ctx->buf[1] + stage;
	ctx->result.comb = -1;
	state = (u8 *)ctx->step_scratch + steps;
	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		const struct zbewalgo_step *step = zbewalgo_step_get(id);

		if (!(mask & BIT_ULL(id)) || !step->state_size)
			continue;
		ctx->state[id] = state;
		state += zbw_state_size(id, &room);
		ret = step->state_init(ctx->state[id], &room,
				       ctx->step_scratch);
		if (ret) {
			kvfree(mem);
			return ret;
		}
	}
	*ctxp = ctx;
	return 0;
}

/**
 * zbewalgo_ctx_create_for() - allocate a compression context for a table
 * @max_len: largest input that will be compressed, at most
 *	ZBEWALGO_MAX_INPUT (use PAGE_SIZE for zram)
 * @table: the only table it will compress with, kept until the context
 *	is destroyed; NULL for any table
 * @level: the only level it will compress at, 1..ZBEWALGO_MAX_LEVEL, or
 *	0 for any (starting at ZBEWALGO_DEFAULT_LEVEL)
 * @dict: whether it will compress with a dictionary (at @level, or at
 *	any level for @level 0), see zbewalgo_ctx_set_dict()
 *
 * All scratch memory is allocated here, once, for the steps of @table
 * only, and zstd's compression context for @level: a context with
 * settings fixed for its life (a zram device's) needs no room for the
 * others.  Such a context does not try chains with other steps
 * (zbewalgo_ctx_set_table()), and refuses pages that name them
 * (zbewalgo_ctx_decompress(); zbewalgo_decompress() takes any), other
 * levels (zbewalgo_ctx_set_level()) and, without @dict, dictionaries.
 * Compression and decompression allocate nothing.  The context starts
 * with @table (or the default table), @level and
 * zbewalgo_default_params() for @max_len.  May sleep.
 *
 * Return: the context, or NULL when out of memory, @max_len is too big or
 * @level is unknown.
 */
struct zbewalgo_ctx *zbewalgo_ctx_create_for(size_t max_len,
					     const struct zbewalgo_table *table,
					     int level, bool dict)
{
	struct zbewalgo_ctx *ctx;

	return zbw_ctx_new(max_len, table, level, dict, &ctx) ? NULL : ctx;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_ctx_create_for);

/**
 * zbewalgo_ctx_create() - allocate a compression context
 * @max_len: largest input that will be compressed, at most
 *	ZBEWALGO_MAX_INPUT (use PAGE_SIZE for zram)
 *
 * zbewalgo_ctx_create_for() for any table and level, without a
 * dictionary (zswap's and the crypto API's).
 *
 * Return: the context, or NULL when out of memory or @max_len is too big.
 */
struct zbewalgo_ctx *zbewalgo_ctx_create(size_t max_len)
{
	return zbewalgo_ctx_create_for(max_len, NULL, 0, false);
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_ctx_create);

/**
 * zbewalgo_ctx_destroy() - free a context
 * @ctx: context from zbewalgo_ctx_create(), or NULL
 */
void zbewalgo_ctx_destroy(struct zbewalgo_ctx *ctx)
{
	kvfree(ctx);
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_ctx_destroy);

/**
 * zbewalgo_ctx_set_table() - choose the combinations a context tries
 * @ctx: the context
 * @table: the table; must stay valid and unchanged while @ctx compresses
 *	with it
 *
 * A context made for one table (zbewalgo_ctx_create_for()) does not try
 * the chains of @table whose steps that table lacks.
 */
void zbewalgo_ctx_set_table(struct zbewalgo_ctx *ctx,
			    const struct zbewalgo_table *table)
{
	ctx->table = table;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_ctx_set_table);

/**
 * zbewalgo_ctx_set_params() - set the search thresholds of a context
 * @ctx: the context
 * @params: thresholds, copied
 */
void zbewalgo_ctx_set_params(struct zbewalgo_ctx *ctx,
			     const struct zbewalgo_params *params)
{
	ctx->params = *params;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_ctx_set_params);

/**
 * zbewalgo_ctx_set_level() - set how hard a context's steps work
 * @ctx: the context, not compressing at the same time
 * @level: 1..ZBEWALGO_MAX_LEVEL; contexts start at ZBEWALGO_DEFAULT_LEVEL
 *
 * Steps that can trade speed for size (zstd) follow the level, and so
 * does the search: level 1 keeps its first small result, level 3 goes on
 * below early_abort_size.  The table is set apart, usually to
 * zbewalgo_preset_table(@level).  Compressed data decodes the same
 * whatever the level.
 *
 * Return: 0, or -EINVAL for an unknown level or one a context made for
 * another level (zbewalgo_ctx_create_for()) has no room for; the level is
 * then unchanged.
 */
int zbewalgo_ctx_set_level(struct zbewalgo_ctx *ctx, int level)
{
	unsigned int id;
	int ret;

	if (level < 1 || level > ZBEWALGO_MAX_LEVEL)
		return -EINVAL;
	/* zstd is the only step with levels: nothing to undo on failure */
	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		const struct zbewalgo_step *step = zbewalgo_step_get(id);

		if (ctx->state[id] && step->set_level) {
			ret = step->set_level(ctx->state[id], level);
			if (ret)
				return ret;
		}
	}
	ctx->level = level;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_ctx_set_level);

/**
 * zbewalgo_ctx_set_dict() - compress and decompress with a zstd dictionary
 * @ctx: the context, not compressing at the same time
 * @dict: from zbewalgo_dict_create() for at most the context's max_len,
 *	kept until the context is destroyed or given another; NULL for none
 *
 * A zstd step that compresses the page itself (the first of its chain:
 * the dictionary holds pages, not what other steps make of them) then
 * compresses with @dict, at @dict's level, instead.  A page compressed
 * with @dict decompresses only on a context that has it.  Pages compressed
 * without a dictionary decompress on any context.
 *
 * Return: 0, or -EINVAL when the context was made for one level without
 * a dictionary (zbewalgo_ctx_create_for()) and has no room for @dict's
 * tables; it keeps its dictionary then.
 */
int zbewalgo_ctx_set_dict(struct zbewalgo_ctx *ctx,
			  const struct zbewalgo_dict *dict)
{
	if (!ctx->state[ZBEWALGO_STEP_ZSTD])
		return 0;
	return zbw_zstd_set_dict(ctx->state[ZBEWALGO_STEP_ZSTD], dict);
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_ctx_set_dict);

/**
 * zbewalgo_ctx_last_result() - what the last zbewalgo_compress() did
 * @ctx: the context
 *
 * Return: the result record; valid until the next call on @ctx.
 */
const struct zbewalgo_result *
zbewalgo_ctx_last_result(const struct zbewalgo_ctx *ctx)
{
	return &ctx->result;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_ctx_last_result);

static int zbw_write_stored(const u8 *src, size_t slen, u8 *dst, size_t *dlen)
{
	unsigned int n = zbw_len_bytes(slen);

	if (*dlen < 1 + n + slen)
		return -ENOSPC;
	dst[0] = zbw_page_byte0(0);
	zbw_put_len(dst + 1, dst + 1 + n, slen);
	memcpy(dst + 1 + n, src, slen);
	*dlen = 1 + n + slen;
	return 0;
}

/*
 * Runs chain @ci of the table on @src at turn @turn of search @s, offering
 * the search each of its results; the best so far goes where it ends up in
 * @out when it fits @dlen.  Returns true when the search stops.
 */
static bool zbw_try_chain(struct zbewalgo_ctx *ctx, struct zbw_search *s,
			  int ci, unsigned int turn, const u8 *src,
			  unsigned int slen, u8 *out, size_t dlen)
{
	const struct zbewalgo_combination *comb = &ctx->table->comb[ci];
	unsigned int len_bytes = zbw_len_bytes(slen);
	/* The decoder bounds stages by the page's length, not the context's. */
	unsigned int cap = zbewalgo_stage_cap(slen);
	const u8 *in = src;
	unsigned int inlen = slen, ob = 0, k;
	/* a context made for another table has no room for its steps */
	bool runs = !(zbw_comb_mask(comb) & ~ctx->steps);

	ctx->result.tried++;
	for (k = 0; runs && k < comb->nr_steps; k++) {
		const struct zbewalgo_step *step;
		unsigned int dcap = cap, w;
		void *scratch;
		size_t over;
		int ret;

		/*
		 * A result as long as the previous one is a step byte
		 * longer: it never beats the best.  So a delta step before
		 * the bitshuffle of its word size is not written out, only
		 * both at once.
		 */
		step = zbw_fused_step(comb->ids, k, comb->nr_steps);
		if (step)
			k++;
		else
			step = zbewalgo_step_get(comb->ids[k]);
		if (!step)
			break;
		over = 1 + (k + 1) + len_bytes;
		/*
		 * The last step's result only counts below the best: with
		 * no room for more, it stops as soon as it knows (Huffman
		 * from its exact size, before coding).
		 */
		if (k + 1 == comb->nr_steps) {
			if (s->best <= over)
				break;
			dcap = min_t(size_t, cap, s->best - over - 1);
		}
		/* a num step takes what the probe picked for the page */
		scratch = ctx->state[comb->ids[k]] ?:
			  zbw_step_scratch(ctx, comb->ids[k]);
		w = zbw_num_width(comb->ids[k]);
		if (w && w == ctx->probe.num.w)
			ret = zbw_num_encode_hinted(w, in, inlen, ctx->buf[ob],
						    dcap, scratch,
						    &ctx->probe.num);
		else
			ret = step->encode(in, inlen, ctx->buf[ob], dcap,
					   scratch);
		if (ret < 0)
			break;
		/* the best so far goes where it ends up, if it fits */
		if (zbw_search_result(s, ci, k + 1, over + ret) &&
		    s->best <= dlen)
			memcpy(out + over, ctx->buf[ob], ret);
		in = ctx->buf[ob];
		inlen = ret;
		ob ^= 1;
		if (zbw_search_stop(s, turn))
			return true;
	}
	return false;
}

/**
 * zbewalgo_compress() - compress one page
 * @ctx: context; not used concurrently by anyone else
 * @src: input
 * @slen: input length, at most the context's max_len
 * @dst: output buffer
 * @dlen: in: capacity of @dst; out: compressed length
 *
 * Tries the combinations of the context's table, the one the probe expects
 * to do best first.  It stops as soon as a result is below
 * early_abort_size, or once the next combination is not expected to do
 * better (zbw_search_chain_done()), then, above level 1, tries zstd alone
 * where a small result may lose to it (zbw_search_zstd()), and keeps the
 * shortest prefix chain.
 * A page whose best result is not below max_output_size (or not smaller
 * than the stored form) is written in stored form,
 * ZBEWALGO_STORED_SIZE() bytes at most: compressing a valid page into a
 * destination of that size never fails.
 *
 * The result is a function of the page, the table, the thresholds and the
 * level: compressing the same page again with the same settings, on this
 * context or any other, gives the same bytes, whatever was compressed in
 * between.
 *
 * Return: 0 on success, -E2BIG when @slen exceeds the context's max_len,
 * -ENOSPC when the result does not fit in *@dlen bytes.
 */
int zbewalgo_compress(struct zbewalgo_ctx *ctx, const void *src, size_t slen,
		      void *dst, size_t *dlen)
{
	const struct zbewalgo_table *table = ctx->table;
	const struct zbewalgo_params *params = &ctx->params;
	unsigned int len_bytes = zbw_len_bytes(slen);
	unsigned int i;
	u32 early_abort;
	struct zbw_search *s = &ctx->search;
	struct zbewalgo_result *res = &ctx->result;
	u8 *out = dst;
	int ci;

	if (slen > ctx->max_len)
		return -E2BIG;

	res->tried = 0;
	/*
	 * Only results smaller than both of these are worth keeping.  Level 3
	 * is thorough: no result is small enough to end its search, and the
	 * probe estimates every chain; the tolerance still ends it.
	 */
	early_abort = ctx->level < ZBEWALGO_MAX_LEVEL ?
		      params->early_abort_size : 0;
	zbw_search_start(s, &ctx->probe,
			 min_t(size_t, params->max_output_size,
			       1 + len_bytes + slen), early_abort,
			 params->tolerance_shift);
	/*
	 * Callers that keep any saving (max_output_size >= slen) search
	 * every page; others store what looks random at once.
	 */
	res->plain = false;
	if (params->store_entropy && params->max_output_size < slen &&
	    slen >= ZBW_CHECK_MIN) {
		zbw_sample_page(src, slen, ctx->step_scratch, &ctx->sample);
		if (zbw_looks_random(&ctx->sample, src, slen,
				     params->store_entropy, ctx->step_scratch))
			goto finish;
		res->plain = zbw_sample_plain(&ctx->sample, slen);
	}
	zbw_probe(src, slen, table, early_abort, res->plain,
		  ctx->step_scratch, &ctx->probe);
	if (ctx->state[ZBEWALGO_STEP_ZSTD])
		zbw_zstd_set_page(ctx->state[ZBEWALGO_STEP_ZSTD], src);

	for (i = 0; i < ctx->probe.nr && slen; i++) {
		if (zbw_try_chain(ctx, s, zbw_search_chain(s, i), i, src,
				  slen, out, *dlen))
			goto finish;
		if (!i)
			zbw_probe_rest(src, slen, table, ctx->step_scratch,
				       &ctx->probe);
		if (zbw_search_chain_done(s, i))
			break;
	}
	/* level 1 keeps the first small result: zstd alone costs a try */
	ci = ctx->level > 1 ? zbw_search_zstd(s, i, slen) : -1;
	if (ci >= 0)
		zbw_try_chain(ctx, s, ci, i, src, slen, out, *dlen);
finish:
	res->comb = s->best_comb;
	res->nr_steps = s->best_steps;
	res->stored = s->best_comb < 0;
	if (s->best_comb < 0)
		return zbw_write_stored(src, slen, dst, dlen);
	if (*dlen < s->best)
		return -ENOSPC;

	out[0] = zbw_page_byte0(s->best_steps);
	memcpy(out + 1, table->comb[s->best_comb].ids, s->best_steps);
	zbw_put_len(out + 1 + s->best_steps, out + s->best, slen);
	*dlen = s->best;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_compress);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("zbewalgo page compression library");
