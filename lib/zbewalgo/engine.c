// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo combination engine: tries the combinations of a table on a page,
 * keeps the smallest result, and writes it in the page format described in
 * Documentation/staging/zbewalgo.rst.  Decompression depends only on the
 * compressed bytes, never on a table.
 */

#include <linux/export.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "zbewalgo_internal.h"

/**
 * struct zbewalgo_ctx - per-stream compression state and scratch
 * @max_len: largest input this context accepts
 * @table: combinations to try; owned by the caller
 * @params: search thresholds
 * @class: what was learnt per page class
 * @recent: class of the previous page
 * @result: what the previous call did, for statistics
 * @sample: the page's sample, for its class and the incompressibility
 *	test (here rather than on the caller's stack)
 * @buf: three stage buffers of zbewalgo_stage_cap(@max_len) bytes each
 * @step_scratch: scratch shared by the steps
 * @state: each step's state (struct zbewalgo_step), by id; NULL for steps
 *	without
 *
 * Everything a compression changes lives here, so contexts used by
 * different threads never share mutable state.
 */
struct zbewalgo_ctx {
	size_t max_len;
	const struct zbewalgo_table *table;
	struct zbewalgo_params params;
	struct zbw_class_memory class[ZBW_NR_CLASSES];
	unsigned int recent;
	struct zbewalgo_result result;
	struct zbw_sample sample;
	u8 *buf[3];
	void *step_scratch;
	void *state[ZBEWALGO_NR_STEP_IDS];
};

static size_t zbw_align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static unsigned int zbw_len_bytes(u32 val)
{
	return val < (1u << 7) ? 1 : val < (1u << 14) ? 2 : 3;
}

/* Scratch layout: stage A, stage B, step scratch (all decoding needs), best. */
static size_t zbw_scratch_layout(size_t max_len, size_t *stage, size_t *steps)
{
	unsigned int cap = zbewalgo_stage_cap(max_len);

	*stage = zbw_align8(cap);
	/* the engine's incompressibility test shares the step scratch */
	*steps = zbw_align8(max_t(size_t, zbewalgo_steps_scratch_size(cap),
				  ZBW_CHECK_SCRATCH));
	return 2 * *stage + *steps;
}

/* Bytes of a step's state for pages of up to @max_len bytes, 0 for none. */
static size_t zbw_state_size(unsigned int id, unsigned int max_len)
{
	const struct zbewalgo_step *step = zbewalgo_step_get(id);

	return step->state_size ? zbw_align8(step->state_size(max_len)) : 0;
}

/**
 * zbewalgo_decompress_scratch_size() - scratch needed by zbewalgo_decompress()
 * @max_len: the largest destination capacity (*dlen) that will be passed
 *
 * Return: size in bytes of the scratch area for zbewalgo_decompress().
 */
size_t zbewalgo_decompress_scratch_size(size_t max_len)
{
	size_t stage, steps, size, state = 0;
	unsigned int id;

	max_len = min_t(size_t, max_len, ZBEWALGO_MAX_INPUT);
	size = zbw_scratch_layout(max_len, &stage, &steps);
	/* without a context, steps with state set theirs up here */
	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++)
		state = max(state, zbw_state_size(id, max_len));
	return size + state;
}
EXPORT_SYMBOL_GPL(zbewalgo_decompress_scratch_size);

/**
 * zbewalgo_default_params() - default thresholds for a page size
 * @params: filled in
 * @page_len: size of the pages that will be compressed
 *
 * max_output_size defaults to 51/64 of the page, which is zsmalloc's
 * huge-class size for 4 KiB pages; callers that know the real value (zram)
 * should set it.  Searching stops at results below an eighth of the page.
 * Pages that measure at least 7.45 bits of entropy per byte are stored at
 * once.
 */
void zbewalgo_default_params(struct zbewalgo_params *params, size_t page_len)
{
	params->max_output_size = page_len - page_len * 13 / 64;
	params->early_abort_size = page_len / 8;
	params->tolerance_shift = 2;
	params->store_entropy = ZBEWALGO_STORE_ENTROPY;
}
EXPORT_SYMBOL_GPL(zbewalgo_default_params);

/*
 * Bytes of a context: the struct, then the scratch layout, "best" and the
 * steps' states.
 */
static size_t zbw_ctx_layout(size_t max_len, size_t *head, size_t *stage,
			     size_t *steps)
{
	unsigned int id;
	size_t size;

	*head = zbw_align8(sizeof(struct zbewalgo_ctx));
	size = *head + zbw_scratch_layout(max_len, stage, steps) + *stage;
	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++)
		size += zbw_state_size(id, max_len);
	return size;
}

/**
 * zbewalgo_ctx_size() - memory of a compression context
 * @max_len: as for zbewalgo_ctx_create(), at most ZBEWALGO_MAX_INPUT
 *
 * All of it is allocated by zbewalgo_ctx_create(); compression allocates
 * nothing more, and neither does zbewalgo_ctx_decompress().
 *
 * Return: size in bytes of the context zbewalgo_ctx_create(@max_len)
 * allocates.
 */
size_t zbewalgo_ctx_size(size_t max_len)
{
	size_t head, stage, steps;

	return zbw_ctx_layout(min_t(size_t, max_len, ZBEWALGO_MAX_INPUT),
			      &head, &stage, &steps);
}
EXPORT_SYMBOL_GPL(zbewalgo_ctx_size);

/**
 * zbewalgo_ctx_create() - allocate a compression context
 * @max_len: largest input that will be compressed, at most
 *	ZBEWALGO_MAX_INPUT (use PAGE_SIZE for zram)
 *
 * All scratch memory is allocated here, once; compression and
 * decompression allocate nothing.  The context starts with the default
 * combination table and zbewalgo_default_params() for @max_len.
 * May sleep.
 *
 * Return: the context, or NULL when out of memory or @max_len is too big.
 */
struct zbewalgo_ctx *zbewalgo_ctx_create(size_t max_len)
{
	size_t head, stage, steps, size;
	unsigned int id;
	struct zbewalgo_ctx *ctx;
	u8 *mem, *state;

	if (max_len > ZBEWALGO_MAX_INPUT)
		return NULL;
	size = zbw_ctx_layout(max_len, &head, &stage, &steps);
	mem = kvzalloc(size, GFP_KERNEL);
	if (!mem)
		return NULL;
	ctx = (struct zbewalgo_ctx *)mem;
	ctx->max_len = max_len;
	ctx->table = zbewalgo_table_default();
	zbewalgo_default_params(&ctx->params, max_len);
	ctx->buf[0] = mem + head;
	ctx->buf[1] = ctx->buf[0] + stage;
	ctx->step_scratch = ctx->buf[1] + stage;
	ctx->buf[2] = (u8 *)ctx->step_scratch + steps;
	ctx->result.comb = -1;
	state = ctx->buf[2] + stage;
	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		const struct zbewalgo_step *step = zbewalgo_step_get(id);

		if (!step->state_size)
			continue;
		ctx->state[id] = state;
		state += zbw_state_size(id, max_len);
		if (step->state_init(ctx->state[id], max_len)) {
			kvfree(mem);
			return NULL;
		}
	}
	return ctx;
}
EXPORT_SYMBOL_GPL(zbewalgo_ctx_create);

/**
 * zbewalgo_ctx_destroy() - free a context
 * @ctx: context from zbewalgo_ctx_create(), or NULL
 */
void zbewalgo_ctx_destroy(struct zbewalgo_ctx *ctx)
{
	kvfree(ctx);
}
EXPORT_SYMBOL_GPL(zbewalgo_ctx_destroy);

/**
 * zbewalgo_ctx_set_table() - choose the combinations a context tries
 * @ctx: the context
 * @table: the table; must stay valid and unchanged while @ctx compresses
 *	with it
 *
 * The context remembers its last winning combination by content, so it
 * survives a table change if the new table still holds it.
 */
void zbewalgo_ctx_set_table(struct zbewalgo_ctx *ctx,
			    const struct zbewalgo_table *table)
{
	ctx->table = table;
}
EXPORT_SYMBOL_GPL(zbewalgo_ctx_set_table);

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
EXPORT_SYMBOL_GPL(zbewalgo_ctx_set_params);

/**
 * zbewalgo_ctx_set_level() - set how hard a context's steps work
 * @ctx: the context, not compressing at the same time
 * @level: 1..ZBEWALGO_MAX_LEVEL; contexts start at ZBEWALGO_DEFAULT_LEVEL
 *
 * Steps that can trade speed for size (zstd) follow the level; the table
 * is set apart, usually to zbewalgo_preset_table(@level).  Compressed
 * data decodes the same whatever the level.
 *
 * Return: 0, or -EINVAL for an unknown level.
 */
int zbewalgo_ctx_set_level(struct zbewalgo_ctx *ctx, int level)
{
	unsigned int id;

	if (level < 1 || level > ZBEWALGO_MAX_LEVEL)
		return -EINVAL;
	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		const struct zbewalgo_step *step = zbewalgo_step_get(id);

		if (ctx->state[id] && step->set_level)
			step->set_level(ctx->state[id], level);
	}
	return 0;
}
EXPORT_SYMBOL_GPL(zbewalgo_ctx_set_level);

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
EXPORT_SYMBOL_GPL(zbewalgo_ctx_last_result);

/* Table index of the class's last winner, or table->nr when not there. */
static unsigned int zbw_first_index(const struct zbewalgo_table *table,
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
	unsigned int o;

	if (!word) {
		memset(h, 0, (ZBW_CHECK_LANES + 1) * sizeof(*h));
		memset(s, 0, sizeof(*s));
	}
	for (o = word * ZBW_CHECK_LANES; o + ZBW_CHECK_BLOCK <= slen;
	     o += ZBW_CHECK_BLOCK) {
		const u8 *p = src + o;

		s->pairs[0] += h[0][p[0]]++;
		s->pairs[1] += h[1][p[1]]++;
		s->pairs[2] += h[2][p[2]]++;
		s->pairs[3] += h[3][p[3]]++;
		s->pairs[4] += h[4][p[4]]++;
		s->pairs[5] += h[5][p[5]]++;
		s->pairs[6] += h[6][p[6]]++;
		s->pairs[7] += h[7][p[7]]++;
		s->dpairs += hd[(u8)(p[1] - p[0])]++;
		s->dpairs += hd[(u8)(p[5] - p[4])]++;
	}
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
static bool zbw_looks_random(struct zbw_sample *s, bool fresh, const u8 *src,
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

/* The buffer (0..2) that is neither @a nor @b. */
static unsigned int zbw_free_buf(int a, int b)
{
	unsigned int i = 0;

	while ((int)i == a || (int)i == b)
		i++;
	return i;
}

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

/**
 * zbewalgo_compress() - compress one page
 * @ctx: context; not used concurrently by anyone else
 * @src: input
 * @slen: input length, at most the context's max_len
 * @dst: output buffer
 * @dlen: in: capacity of @dst; out: compressed length
 *
 * Tries the combinations of the context's table, starting with the one
 * that won the previous page.  It accepts that one at once when its result
 * is within the tolerance of the previous result, stops as soon as a result
 * is below early_abort_size, and keeps the shortest prefix chain otherwise.
 * A page whose best result is not below max_output_size (or not smaller
 * than the stored form) is written in stored form, ZBEWALGO_STORED_SIZE()
 * bytes at most: compressing a valid page into a destination of that size
 * never fails.
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
	/* The decoder bounds stages by the page's length, not the context's. */
	unsigned int cap = zbewalgo_stage_cap(slen);
	unsigned int first, i, k, best_steps = 0;
	int best_buf = -1, best_comb = -1;
	size_t best_total, limit, first_total = SIZE_MAX;
	struct zbw_class_memory *mem;
	struct zbw_sample *sample = &ctx->sample;
	unsigned int c = 0;
	bool check;
	struct zbewalgo_result *res = &ctx->result;
	u8 *out = dst;

	if (slen > ctx->max_len)
		return -E2BIG;

	/* Only results smaller than both of these are worth keeping. */
	limit = min_t(size_t, params->max_output_size, 1 + len_bytes + slen);
	best_total = limit;
	res->tried = 0;

	/*
	 * Callers that keep any saving (max_output_size >= slen) search.
	 * Random pages come in runs: after a stored page of its class the
	 * test comes first, otherwise only once the last winner missed the
	 * threshold, so that pages that compress do not pay for it.
	 */
	check = params->store_entropy && params->max_output_size < slen;
	if (check || table->nr > 1)
		c = zbw_page_class(src, slen, ctx->step_scratch, sample);
	if (!c)
		check = false;
	mem = zbw_class_enter(ctx->class, &ctx->recent, c);
	if (check && (!mem->have_last || mem->stored)) {
		check = false;
		if (zbw_looks_random(sample, true, src, slen,
				     params->store_entropy, ctx->step_scratch))
			goto finish;
	}

	first = zbw_first_index(table, mem);
	for (i = 0; i <= table->nr && slen; i++) {
		/* The class's last winner first, then the table in order. */
		unsigned int ci = i == 0 ? first : i - 1;
		const struct zbewalgo_combination *comb;
		const u8 *in = src;
		unsigned int inlen = slen;
		int in_buf = -1;

		if (i == 1 && check && best_comb < 0 &&
		    zbw_looks_random(sample, false, src, slen,
				     params->store_entropy, ctx->step_scratch))
			goto finish;
		if (ci >= table->nr || (i > 0 && ci == first))
			continue;
		comb = &table->comb[ci];
		res->tried++;
		for (k = 0; k < comb->nr_steps; k++) {
			const struct zbewalgo_step *step =
				zbewalgo_step_get(comb->ids[k]);
			unsigned int ob = zbw_free_buf(in_buf, best_buf);
			unsigned int dcap = cap;
			size_t total, over = 1 + (k + 1) + len_bytes;
			int ret;

			if (!step)
				break;
			/*
			 * The last step's result only counts below best_total:
			 * with no room for more, it stops as soon as it knows
			 * (Huffman from its exact size, before coding).
			 */
			if (k + 1 == comb->nr_steps) {
				if (best_total <= over)
					break;
				dcap = min_t(size_t, cap, best_total - over - 1);
			}
			ret = step->encode(in, inlen, ctx->buf[ob], dcap,
					   ctx->state[comb->ids[k]] ?:
					   ctx->step_scratch);
			if (ret < 0)
				break;
			total = over + ret;
			if (total < best_total) {
				best_total = total;
				best_buf = ob;
				best_comb = ci;
				best_steps = k + 1;
			}
			in = ctx->buf[ob];
			inlen = ret;
			in_buf = ob;
			/* a result, not the limit of a page shorter than that */
			if (best_comb >= 0 &&
			    best_total < params->early_abort_size)
				goto done;
		}
		if (ci != first)
			continue;
		first_total = best_total;
		/* Close enough to last time: this page is like the last. */
		if (best_comb == (int)first &&
		    zbw_class_shortcut(mem, best_total, params->tolerance_shift))
			goto finish;
	}
done:
	if (best_comb >= 0)
		zbw_class_searched(mem, best_total, best_comb == (int)first ?
				   best_total : first_total);
finish:
	res->comb = best_comb;
	res->nr_steps = best_steps;
	res->stored = best_comb < 0;
	mem->stored = best_comb < 0;
	if (best_comb < 0)
		return zbw_write_stored(src, slen, dst, dlen);
	if (*dlen < best_total)
		return -ENOSPC;

	out[0] = zbw_page_byte0(best_steps);
	memcpy(out + 1, table->comb[best_comb].ids, best_steps);
	zbw_put_len(out + 1 + best_steps, out + best_total, slen);
	k = 1 + best_steps + len_bytes;
	memcpy(out + k, ctx->buf[best_buf], best_total - k);
	*dlen = best_total;

	mem->last = table->comb[best_comb];
	mem->last_index = best_comb;
	mem->have_last = true;
	return 0;
}
EXPORT_SYMBOL_GPL(zbewalgo_compress);

/*
 * Decompresses a page with the step states @state (by id) of a context,
 * or, with @state NULL, sets each up in @scratch after the scratch layout
 * for the page.
 */
static int zbw_decompress(const u8 *src, size_t slen, u8 *dst, size_t *dlen,
			  u8 *scratch, void *const *state)
{
	const u8 *ip = src, *end = ip + slen;
	unsigned int nr_steps, n, i, cap, inlen;
	size_t stage, steps, layout;
	u8 *buf[2];
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
		if (!zbewalgo_step_get(ip[1 + i]))
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

	layout = zbw_scratch_layout(orig, &stage, &steps);
	buf[0] = scratch;
	buf[1] = buf[0] + stage;
	step_scratch = buf[1] + stage;
	cap = zbewalgo_stage_cap(orig);
	if (inlen > cap)
		return -EINVAL;
	for (i = nr_steps; i-- > 0;) {
		unsigned int id = ip[1 + i];
		const struct zbewalgo_step *step = zbewalgo_step_get(id);
		u8 *out = i ? buf[i & 1] : dst;
		void *arg = step_scratch;
		int ret;

		if (step->state_size && state) {
			arg = state[id];
		} else if (step->state_size) {
			arg = scratch + layout;
			if (step->state_init(arg, orig))
				return -ENOMEM;
		}
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
EXPORT_SYMBOL_GPL(zbewalgo_decompress);

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
 * bound *@dlen themselves.
 *
 * Return: 0 on success, -EINVAL for malformed or corrupted data, -ENOSPC
 * when the page does not fit in *@dlen bytes or is longer than the
 * context's max_len.
 */
int zbewalgo_ctx_decompress(struct zbewalgo_ctx *ctx, const void *src,
			    size_t slen, void *dst, size_t *dlen)
{
	size_t cap = min(*dlen, ctx->max_len);
	int ret;

	ret = zbw_decompress(src, slen, dst, &cap, ctx->buf[0], ctx->state);
	if (!ret)
		*dlen = cap;
	return ret;
}
EXPORT_SYMBOL_GPL(zbewalgo_ctx_decompress);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("zbewalgo page compression library");
