/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zbewalgo internals: the step ids and interface, and small helpers shared
 * by the steps.  Nothing here is visible outside lib/zbewalgo.
 */
#ifndef __ZBEWALGO_INTERNAL_H
#define __ZBEWALGO_INTERNAL_H

#include <linux/bitops.h>
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <linux/zbewalgo.h>

/* ZBEWALGO_STEP_<NAME>: the stable id of each step of steps.h */
enum zbewalgo_step_id {
	ZBEWALGO_STEP_INVALID,
#define ZBW_STEP(NAME, ...) \
	ZBEWALGO_STEP_##NAME,
#include "steps.h"
#undef ZBW_STEP
	ZBEWALGO_NR_STEP_IDS,
};

/* Whether this build has the steps of each set of steps.h */
#define ZBW_SET_core		1
#ifdef CONFIG_ZBEWALGO_CLASSIC_STEPS
#define ZBW_SET_classic		1
#else
#define ZBW_SET_classic		0
#endif

/* Byte 0 of a page: format version, number of steps, a reserved bit */
#define ZBW_HDR_VERSION_MASK	0x0f
#define ZBW_HDR_STEPS_SHIFT	4
#define ZBW_HDR_STEPS_MASK	0x70
#define ZBW_HDR_RESERVED	0x80

static inline u8 zbw_page_byte0(unsigned int nr_steps)
{
	return ZBEWALGO_FORMAT_VERSION | nr_steps << ZBW_HDR_STEPS_SHIFT;
}

/* Whether two combinations hold the same steps in the same order */
static inline bool zbw_comb_equal(const struct zbewalgo_combination *a,
				  const struct zbewalgo_combination *b)
{
	return a->nr_steps == b->nr_steps &&
	       !memcmp(a->ids, b->ids, a->nr_steps);
}

/**
 * struct zbw_room - what the state of a step is sized for
 * @max_len: the largest page
 * @level: the only level it compresses at (1..ZBEWALGO_MAX_LEVEL), or 0
 *	for any
 * @dict: whether it compresses with a dictionary too; always with @level 0
 */
struct zbw_room {
	unsigned int max_len;
	int level;
	bool dict;
};

/* Room for any level and dictionary */
#define ZBW_ROOM_ANY(len)	((struct zbw_room){ .max_len = (len) })

/**
 * struct zbewalgo_step - one transform or coder of a chain
 * @encode: encode @slen bytes of @src into @dst, writing at most @dcap
 *	bytes.  Returns the output length, -ENOSPC when the output would not
 *	fit, or -EINVAL when the step cannot handle this input.
 * @decode: inverse of @encode.  Must check every read against @slen and
 *	every write against @dcap.  Returns the output length or -EINVAL for
 *	malformed input (including input that would not fit in @dcap).
 * @scratch_size: bytes of scratch @encode and @decode need for inputs and
 *	outputs of up to @max_len bytes; NULL when none.
 * @decode_scratch_size: bytes of scratch @decode needs, for a step whose
 *	encoder needs much more: a context then decodes it in its own
 *	scratch, not zstd's lent workspace (zbw_lent_steps()), whose zstd
 *	context costs more to set up again than most pages take to decode.
 *	NULL when @scratch_size says it.
 * @state_size: bytes of state the step keeps from page to page in one
 *	context, for the pages and levels of @room (inputs and outputs of up
 *	to zbewalgo_stage_cap(@room->max_len)); NULL when none.
 * @state_init: set up that state, once per context, for @room's level
 *	(the default level for 0), with the context's step scratch (which
 *	the step may use while it runs: no other step does then).  Returns
 *	0 or a negative errno.
 * @set_level: make the encoder in the state work at compression level
 *	@level (1..ZBEWALGO_MAX_LEVEL); -EINVAL when its room is for another
 *	level.  NULL when the step has one way to encode.
 * @layout: @encode again, for the steps that only lay the bytes out
 *	anew (delta, bitshuffle, sieve) at about a copy's cost and need no
 *	scratch: the probe (probe.c) runs them on its sample, with NULL
 *	scratch.  NULL for the others.
 *
 * Both directions get a scratch area of at least @scratch_size bytes,
 * aligned to 8 bytes, with unspecified contents; a step with state gets
 * its state there instead, set up by @state_init and aligned to 8 bytes.
 * State never changes a result, only the time it takes.
 */
struct zbewalgo_step {
	int (*encode)(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch);
	int (*decode)(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch);
	size_t (*scratch_size)(unsigned int max_len);
	size_t (*decode_scratch_size)(unsigned int max_len);
	size_t (*state_size)(const struct zbw_room *room);
	int (*state_init)(void *state, const struct zbw_room *room,
			  void *scratch);
	int (*set_level)(void *state, int level);
	int (*layout)(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch);
};

/* Each step's implementation, zbewalgo_step_<NAME> */
extern const struct zbewalgo_step
#define ZBW_STEP(NAME, ...) \
	zbewalgo_step_##NAME,
#include "steps.h"
#undef ZBW_STEP
	zbewalgo_step_none;	/* ends the list, never defined */

const struct zbewalgo_step *zbewalgo_step_get(unsigned int id);
size_t zbewalgo_steps_scratch_size(unsigned int max_len);
size_t zbw_steps_scratch_size(unsigned int max_len, u64 mask, u64 lent);
u64 zbw_lent_steps(size_t max_len, u64 mask);
u64 zbw_built_steps(void);
void *zbewalgo_step_state_create(const struct zbewalgo_step *step,
				 unsigned int max_len);

/*
 * zbewalgo_ctx_set_dict() on the zstd step's state, and the page being
 * compressed, which only it compresses with the dictionary (zstd.c)
 */
int zbw_zstd_set_dict(void *state, const struct zbewalgo_dict *dict);
void zbw_zstd_set_page(void *state, const u8 *page);

/*
 * The zstd step's decompression workspace, lent to the steps whose scratch
 * is larger than the others' (engine.h, zstd.c)
 */
size_t zbw_zstd_loan_size(void);
void *zbw_zstd_lend(void *state);

/* The zstd step's form of a frame after its magic number (zstd_frame.c) */
int zbw_zstd_pack(const u8 *f, size_t n, u8 *dst, unsigned int dcap);
size_t zbw_zstd_unpack(const u8 *src, unsigned int slen, u8 *f, size_t cap);
s64 zbw_zstd_dict_id(const u8 *f, size_t n);

/* zbewalgo_ctx_create_for() with its error code (engine.c) */
struct zbewalgo_ctx;
int zbw_ctx_new(size_t max_len, const struct zbewalgo_table *table,
		int level, bool dict, struct zbewalgo_ctx **ctxp);

/* Word @i of @w (2, 4 or 8) bytes at @p, little-endian */
static __always_inline u64 zbw_get_word(const u8 *p, unsigned int i,
					unsigned int w)
{
	if (w == 8)
		return get_unaligned_le64(p + 8 * i);
	if (w == 4)
		return get_unaligned_le32(p + 4 * i);
	return get_unaligned_le16(p + 2 * i);
}

/* @x, cut to @w (2, 4 or 8) bytes, as word @i at @p, little-endian */
static __always_inline void zbw_put_word(u64 x, u8 *p, unsigned int i,
					 unsigned int w)
{
	if (w == 8)
		put_unaligned_le64(x, p + 8 * i);
	else if (w == 4)
		put_unaligned_le32((u32)x, p + 4 * i);
	else
		put_unaligned_le16((u16)x, p + 2 * i);
}

/*
 * ZBW_WORD_STEP() - define the layout step @step from the coders
 * @coder##_encode() and @coder##_decode(), which take the word size in
 * bytes as their last argument, for words of @w bytes.  The coders are
 * __always_inline: each step gets its own copy, built for its constant
 * word size.
 */
#define ZBW_WORD_STEP(step, coder, w)					\
static const unsigned int step##_width = (w);				\
static int step##_encode(const u8 *src, unsigned int slen, u8 *dst,	\
			 unsigned int dcap, void *scratch)		\
{									\
	return coder##_encode(src, slen, dst, dcap, step##_width);	\
}									\
static int step##_decode(const u8 *src, unsigned int slen, u8 *dst,	\
			 unsigned int dcap, void *scratch)		\
{									\
	return coder##_decode(src, slen, dst, dcap, step##_width);	\
}									\
const struct zbewalgo_step step = {					\
	.encode		= step##_encode,				\
	.decode		= step##_decode,				\
	.layout		= step##_encode,				\
}

/*
 * Two steps the engine runs as one (bitshuffle.c): delta@w then
 * bitshuffle@w for w = 2, 4, 8.  No step id: pages name both steps.
 */
extern const struct zbewalgo_step zbw_delta2_bitshuffle2;
extern const struct zbewalgo_step zbw_delta4_bitshuffle4;
extern const struct zbewalgo_step zbw_delta8_bitshuffle8;

/*
 * Steps @k and @k + 1 of @ids (@nr of them) as one, when the engine runs
 * them as one pass both ways (delta@w then bitshuffle@w); NULL otherwise.
 */
static inline const struct zbewalgo_step *
zbw_fused_step(const u8 *ids, unsigned int k, unsigned int nr)
{
	if (k + 1 >= nr)
		return NULL;
	if (ids[k] == ZBEWALGO_STEP_DELTA8 &&
	    ids[k + 1] == ZBEWALGO_STEP_BITSHUFFLE8)
		return &zbw_delta8_bitshuffle8;
	if (ids[k] == ZBEWALGO_STEP_DELTA4 &&
	    ids[k + 1] == ZBEWALGO_STEP_BITSHUFFLE4)
		return &zbw_delta4_bitshuffle4;
	if (ids[k] == ZBEWALGO_STEP_DELTA2 &&
	    ids[k + 1] == ZBEWALGO_STEP_BITSHUFFLE2)
		return &zbw_delta2_bitshuffle2;
	return NULL;
}

/* The word size of num step @id (num.c), 0 for any other step */
static inline unsigned int zbw_num_width(unsigned int id)
{
	switch (id) {
	case ZBEWALGO_STEP_NUM2:
		return 2;
	case ZBEWALGO_STEP_NUM4:
		return 4;
	case ZBEWALGO_STEP_NUM8:
		return 8;
	default:
		return 0;
	}
}

/**
 * struct zbw_num_hint - the probe's pick for a num step on a page
 * @page: the page it was picked for
 * @w: the step's word size, 0 when the probe picked nothing
 * @cand: the candidate (num_enc.h)
 * @be: the numbers are big-endian
 * @lag: the page's lag in its own byte order (zbw_num_lag())
 * @unit: the sample's numbers, in the byte order picked, have no common
 *	factor (struct num_scan), so neither have the page's
 * @est: the probe's estimate of the step, as zbw_probe_estimate() returns
 *	it (the probe keeps the pick of the lowest)
 *
 * The num steps code a page in the view zbw_num_estimate() picks on the
 * probe's sample: the probe's when it estimated the step
 * (zbw_num2_encode_hinted() and the others in num_enc.c), else their own
 * (zbw_num_hint_page()).
 */
struct zbw_num_hint {
	const u8 *page;
	unsigned int w;
	unsigned int cand;
	bool be;
	unsigned int lag;
	bool unit;
	u32 est;
};

/* A num step's encoder with the probe's pick for the page, if any */
int zbw_num2_encode_hinted(const u8 *src, unsigned int slen, u8 *dst,
			   unsigned int dcap, void *scratch,
			   const struct zbw_num_hint *hint);
int zbw_num4_encode_hinted(const u8 *src, unsigned int slen, u8 *dst,
			   unsigned int dcap, void *scratch,
			   const struct zbw_num_hint *hint);
int zbw_num8_encode_hinted(const u8 *src, unsigned int slen, u8 *dst,
			   unsigned int dcap, void *scratch,
			   const struct zbw_num_hint *hint);

/* The num step of word size @w (2, 4 or 8), with @hint */
static inline int zbw_num_encode_hinted(unsigned int w, const u8 *src,
					unsigned int slen, u8 *dst,
					unsigned int dcap, void *scratch,
					const struct zbw_num_hint *hint)
{
	if (w == 2)
		return zbw_num2_encode_hinted(src, slen, dst, dcap, scratch,
					      hint);
	if (w == 4)
		return zbw_num4_encode_hinted(src, slen, dst, dcap, scratch,
					      hint);
	return zbw_num8_encode_hinted(src, slen, dst, dcap, scratch, hint);
}

/* Largest length any step stores with zbw_put_len(), and its size. */
#define ZBW_LEN_MAX		((1u << 21) - 1)
#define ZBW_LEN_BYTES_MAX	3

/* Sections of lz and huffman4 shorter than this are stored raw. */
#define ZBW_SECTION_SMALL	32

int zbw_put_section(const u8 *sec, size_t len, u8 *dst, size_t room,
		    void *scratch);
int zbw_get_section(const u8 **p, const u8 *end, u8 *buf, size_t room,
		    const u8 **sec, void *scratch);

/**
 * zbw_put_len() - write @val (< 2^21) as a LEB128 varint of 1..3 bytes
 * @dst: output position
 * @end: end of the output buffer
 * @val: value to write
 *
 * Return: bytes written, or 0 when they do not fit.
 */
static inline unsigned int zbw_put_len(u8 *dst, const u8 *end, u32 val)
{
	unsigned int n = 0;

	do {
		if (dst + n >= end)
			return 0;
		dst[n] = (val & 0x7f) | (val > 0x7f ? 0x80 : 0);
		val >>= 7;
		n++;
	} while (val);
	return n;
}

/**
 * zbw_get_len() - read a varint written by zbw_put_len()
 * @src: input position
 * @end: end of the input
 * @val: the value read
 *
 * Rejects varints longer than 3 bytes and non-minimal encodings, so every
 * value has exactly one encoding.
 *
 * Return: bytes read, or 0 for malformed input.
 */
static inline unsigned int zbw_get_len(const u8 *src, const u8 *end, u32 *val)
{
	unsigned int n = 0, shift = 0;
	u32 v = 0;
	u8 b;

	do {
		if (n == 3 || src + n >= end)
			return 0;
		b = src[n++];
		v |= (u32)(b & 0x7f) << shift;
		shift += 7;
	} while (b & 0x80);
	if (n > 1 && b == 0)
		return 0;
	*val = v;
	return n;
}

/*
 * Most steps start their output with the length of their input (a
 * varint, so at most ZBW_LEN_MAX) and their decoders check it against
 * the room they have.
 */

/**
 * zbw_put_size() - start a step's output with the length of its input
 * @dst: output position
 * @end: end of the output buffer
 * @slen: the input length
 *
 * Return: bytes written, -EINVAL when @slen is above ZBW_LEN_MAX, or
 * -ENOSPC when they do not fit.
 */
static inline int zbw_put_size(u8 *dst, const u8 *end, unsigned int slen)
{
	unsigned int n;

	if (slen > ZBW_LEN_MAX)
		return -EINVAL;
	n = zbw_put_len(dst, end, slen);
	return n ? n : -ENOSPC;
}

/**
 * zbw_get_size() - read the length a step's output starts with
 * @src: input position
 * @end: end of the input
 * @dcap: room for the decoded bytes
 * @n: the length read
 *
 * Return: bytes read, or -EINVAL when the varint is malformed or @n is
 * above @dcap.
 */
static inline int zbw_get_size(const u8 *src, const u8 *end,
			       unsigned int dcap, u32 *n)
{
	unsigned int k = zbw_get_len(src, end, n);

	return k && *n <= dcap ? k : -EINVAL;
}

/*
 * Scratch layout.  A step lays out its scratch in one function, which
 * both sizes it (base NULL, for its scratch_size()) and carves it (for its
 * coders), so the two cannot disagree.
 */
struct zbw_layout {
	u8 *base;
	size_t size;
};

/* The next @n bytes of @l, at an offset aligned to @align (a power of 2) */
static inline void *zbw_layout_take(struct zbw_layout *l, size_t n,
				    size_t align)
{
	void *p;

	l->size = ALIGN(l->size, align);
	p = l->base ? l->base + l->size : NULL;
	l->size += n;
	return p;
}

/*
 * Counting sort by a byte: turns the counts of the 256 byte values in @cnt
 * (at most 65535 items in all) into the position of each value's first
 * item in sorted order, where the scatter pass puts items at cnt[v]++.
 */
static __always_inline void zbw_count_starts(u16 *cnt)
{
	unsigned int v, c, sum = 0;

	for (v = 0; v < 256; v++) {
		c = cnt[v];
		cnt[v] = sum;
		sum += c;
	}
}

/* Word-at-a-time byte tricks: @b in every byte of a 64-bit word */
#define ZBW_BYTES(b)		(0x0101010101010101ULL * (u8)(b))
#define ZBW_ONES		ZBW_BYTES(0x01)
#define ZBW_LOW7		ZBW_BYTES(0x7f)
#define ZBW_HIGHS		ZBW_BYTES(0x80)

/* The top bit of each nonzero byte of @x, exactly (no carries between bytes) */
static __always_inline u64 zbw_nonzero_bytes(u64 x)
{
	return (((x & ZBW_LOW7) + ZBW_LOW7) | x) & ZBW_HIGHS;
}

/* The top bit of each zero byte of @x, exactly */
static __always_inline u64 zbw_zero_bytes(u64 x)
{
	return ~zbw_nonzero_bytes(x) & ZBW_HIGHS;
}

#endif /* __ZBEWALGO_INTERNAL_H */
