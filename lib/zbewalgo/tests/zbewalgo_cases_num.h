/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The num steps' decoder robustness cases (palettes, lags, hostile
 * payloads), part of zbewalgo_cases.h, which includes this file and
 * says how to use it.
 */
#ifndef __ZBEWALGO_CASES_NUM_H
#define __ZBEWALGO_CASES_NUM_H

/* A one-step table and the buffers of the num steps' cases */
struct zbw_case_num {
	struct zbewalgo_table t;
	u8 page[4096];
	u8 c[ZBEWALGO_STORED_SIZE(4096)];
	u8 out[4096];
};

/*
 * The num steps' cases on @ctx: a table of one step, which
 * zbw_case_num_page() sets, tried on any page (a page of random-looking
 * bytes too: no incompressibility test).  NULL when out of memory.
 */
static inline struct zbw_case_num *zbw_case_num_start(void *env,
						      struct zbewalgo_ctx *ctx)
{
	const struct zbewalgo_params params = {
		.max_output_size = 4096, .early_abort_size = 512,
		.tolerance_shift = 5,
	};
	struct zbw_case_num *b = kzalloc(sizeof(*b), GFP_KERNEL);

	ZBW_CASE_CHECK(env, b, "out of memory");
	if (!b)
		return NULL;
	b->t.nr = 1;
	b->t.comb[0].nr_steps = 1;
	zbewalgo_ctx_set_table(ctx, &b->t);
	zbewalgo_ctx_set_params(ctx, &params);
	return b;
}

/*
 * Page @k of a case, of the numbers @number() gives, compressed by num
 * step @step alone into @b->c: the result must start with the step, be
 * longer than @head bytes, come back byte-exact, and every cut of it be
 * refused and corruptions harmless (zbw_case_corrupted()), a byte
 * appended refused.  Returns whether it compressed, *@clen bytes.
 */
static inline bool zbw_case_num_page(void *env, struct zbewalgo_ctx *ctx,
				     struct zbw_case_num *b, unsigned int step,
				     u64 (*number)(unsigned int k,
						   unsigned int i, u32 *rng),
				     unsigned int k, size_t head,
				     const char *what, void *scratch, u32 *rng,
				     struct zbw_case_stats *st, size_t *clen)
{
	struct zbw_case_page pg = { b->page, 4096, what };
	unsigned int w = zbw_num_width(step), i;
	size_t olen = 4096;
	u8 *exact;
	int ret;

	b->t.comb[0].ids[0] = step;
	for (i = 0; i < 4096 / w; i++) {
		u64 x = number(k, i, rng);

		if (w == 2)
			put_unaligned_le16(x, b->page + 2 * i);
		else if (w == 4)
			put_unaligned_le32(x, b->page + 4 * i);
		else
			put_unaligned_le64(x, b->page + 8 * i);
	}
	*clen = sizeof(b->c);
	ret = zbewalgo_compress(ctx, b->page, 4096, b->c, clen);
	ZBW_CASE_CHECK(env, !ret && *clen > head &&
		       b->c[0] == zbw_page_byte0(1),
		       "%s %u: compressed to %zu bytes (%d)", what, k, *clen,
		       ret);
	if (ret || *clen <= head || b->c[0] != zbw_page_byte0(1))
		return false;
	ret = zbewalgo_decompress(b->c, *clen, b->out, &olen, scratch);
	ZBW_CASE_CHECK(env, !ret && olen == 4096 &&
		       !memcmp(b->out, b->page, 4096),
		       "%s %u: no round trip (%d)", what, k, ret);
	exact = kmemdup(b->c, *clen, GFP_KERNEL);
	ZBW_CASE_CHECK(env, exact, "out of memory");
	if (!exact)
		return true;
	zbw_case_corrupted(env, &pg, exact, *clen, scratch, 4096, 256, rng,
			   st);
	zbw_case_trailing(env, &pg, exact, *clen, scratch, 4096, rng);
	kfree(exact);
	return true;
}

/*
 * A num4 page of @orig bytes whose payload is @pay (@len bytes), decoded
 * into @out: the decoder's return, *@olen bytes
 */
static inline int zbw_case_num_payload(const u8 *pay, size_t len, u8 orig,
				       u8 *out, size_t *olen, void *scratch)
{
	u8 *p = kmalloc(3 + len, GFP_KERNEL);
	int ret;

	*olen = 4096;
	if (!p)
		return -ENOMEM;
	p[0] = zbw_page_byte0(1);
	p[1] = ZBEWALGO_STEP_NUM4;
	p[2] = orig;
	memcpy(p + 3, pay, len);
	ret = zbewalgo_decompress(p, 3 + len, out, olen, scratch);
	kfree(p);
	return ret;
}

/*
 * Number @i of page @k of zbw_case_num_palette(), of @w bytes: few
 * distinct numbers, far apart (no common factor, no smooth run), so that
 * the num step's palette view pays; the last page has one distinct number
 * too many for a palette.
 */
static inline u64 zbw_case_pal_number(unsigned int k, unsigned int i,
				      u32 *rng)
{
	u64 j;

	switch (k) {
	case 0:	/* float32 bit patterns of 40 levels */
		j = zbw_case_rnd(rng) % 40;
		return 0x3c000000 + j * j * 977 + j * 0x1234;
	case 1:	/* 300 16-bit numbers anywhere */
		return (u16)((zbw_case_rnd(rng) % 300 + 1) * 40503u);
	case 2:	/* 64-bit pointers to 50 objects */
		return 0x7f3a00000000ull +
		       (((zbw_case_rnd(rng) % 50 + 1) * 0x9e3779b9ull) &
			0xffffff0ull);
	case 3:	/* 512 16-bit numbers, as many as a palette holds */
		j = i < 512 ? i * 263 % 512 : zbw_case_rnd(rng) % 512;
		return (u16)((j + 1) * 40503u);
	default: /* 513 of them */
		j = i < 513 ? i * 263 % 513 : zbw_case_rnd(rng) % 513;
		return (u16)((j + 1) * 40503u);
	}
}

/* Step and bytes per number of the pages of zbw_case_pal_number() */
static const u8 zbw_case_pal_step[] = {
	ZBEWALGO_STEP_NUM4, ZBEWALGO_STEP_NUM2, ZBEWALGO_STEP_NUM8,
	ZBEWALGO_STEP_NUM2, ZBEWALGO_STEP_NUM2,
};

/*
 * Payloads of the num4 step for 8 bytes, 2 numbers, in the palette view
 * (../core/num.h's format), with the result zbewalgo_decompress() must
 * give
 */
static const struct {
	const char *what;
	u8 len;
	u8 b[16];
	int ret;
} zbw_case_pal_bad[] = {
	{ "one number", 11, { 0x43, 8, 0, 0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0 },
	  0 },
	{ "two numbers", 15, { 0x43, 8, 1, 0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0,
			       0, 0, 0, 0 }, 0 },
	{ "an index past the count", 11,
	  { 0x43, 8, 0, 0x11, 0x22, 0x33, 0x44, 0, 1, 0, 0 }, -EINVAL },
	{ "a count past the most", 12,
	  { 0x43, 8, 0x80, 4, 0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0 }, -EINVAL },
	{ "a number past 2^32", 15,
	  { 0x43, 8, 1, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0 },
	  -EINVAL },
	{ "a number twice", 15,
	  { 0x43, 8, 1, 0x11, 0x22, 0x33, 0x44, 4, 1, 0, 0, 0, 0, 0, 0 },
	  -EINVAL },
	{ "unknown bits of the palette", 15,
	  { 0x43, 8, 1, 0x11, 0x22, 0x33, 0x44, 8, 0, 0, 0, 0, 0, 0, 0 },
	  -EINVAL },
	{ "a factor", 11, { 0x53, 8, 0, 0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0 },
	  -EINVAL },
	{ "a shift", 11, { 0x63, 8, 0, 0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0 },
	  -EINVAL },
};

/*
 * The num steps' palette view (../core/num.h's format), on @ctx (for
 * pages of up to 4096 bytes; its table and thresholds are replaced) and
 * zbewalgo_decompress() with
 * @scratch: pages of few distinct numbers, each compressed by the num
 * step of its word size alone, are written in the palette view (but the
 * page of one number too many) and come back byte-exact, every cut of
 * them refused and corruptions harmless (zbw_case_corrupted()), a byte
 * appended refused; hand-made palettes decode or are refused as the
 * format says.
 */
static inline void zbw_case_num_palette(void *env, struct zbewalgo_ctx *ctx,
					void *scratch,
					struct zbw_case_stats *st)
{
	struct zbw_case_num *b = zbw_case_num_start(env, ctx);
	unsigned int k;
	u32 rng = 7;
	size_t clen, olen;
	int ret;

	for (k = 0; b && k < ARRAY_SIZE(zbw_case_pal_step); k++) {
		if (!zbw_case_num_page(env, ctx, b, zbw_case_pal_step[k],
				       zbw_case_pal_number, k, 4,
				       "palette page", scratch, &rng, st,
				       &clen))
			continue;
		/* byte 0, the step, 4096 in two bytes, then the mode */
		ZBW_CASE_CHECK(env, ((b->c[4] & 3) == 3) ==
			       (k + 1 < ARRAY_SIZE(zbw_case_pal_step)),
			       "palette page %u: mode 0x%02x", k, b->c[4]);
	}
	for (k = 0; b && k < ARRAY_SIZE(zbw_case_pal_bad); k++) {
		ret = zbw_case_num_payload(zbw_case_pal_bad[k].b,
					   zbw_case_pal_bad[k].len, 8, b->out,
					   &olen, scratch);
		ZBW_CASE_CHECK(env, ret == zbw_case_pal_bad[k].ret,
			       "palette of %s gave %d", zbw_case_pal_bad[k].what,
			       ret);
		/* both numbers are the first of the palette */
		ZBW_CASE_CHECK(env, ret || (olen == 8 &&
					    get_unaligned_le32(b->out) ==
					    0x44332211 &&
					    get_unaligned_le32(b->out + 4) ==
					    0x44332211),
			       "palette of %s: %zu bytes, %08x",
			       zbw_case_pal_bad[k].what, olen,
			       get_unaligned_le32(b->out));
	}
	kfree(b);
}

/*
 * Number @i of page @k of zbw_case_num_lag(): arrays of records, whose
 * fields change little from one record to the next, at lags 3, 2, 4 and
 * 16 (zbw_case_lag_of[])
 */
static inline u64 zbw_case_lag_number(unsigned int k, unsigned int i,
				      u32 *rng)
{
	switch (k) {
	case 0:	/* a pointer (+40 a record), a counter, a zero */
		return i % 3 == 0 ? 0x562e78397a60ull + 0x28 * (i / 3) :
		       i % 3 == 1 ? 0x91fe + i / 3 : 0;
	case 1:	/* an id and a noisy linear field */
		return i % 2 ? 0x80000000u + 1000 * (i / 2) +
			       zbw_case_rnd(rng) % 16 :
			       5000 + i / 2;
	case 2:	/* 8-byte records of 16-bit fields */
		return i % 4 == 0 ? i / 4 : i % 4 == 1 ? 0x8000 ^ (3 * i / 4) :
		       i % 4 == 2 ? 7 : 0x1234 + zbw_case_rnd(rng) % 4;
	default: /* 128-byte objects, a pointer among their fields */
		return i % 16 == 0 ? 1 : i % 16 == 1 ? 0x94fc00 :
		       i % 16 == 3 ? 0x7f26b1a160d0ull + 0x80 * (i / 16) :
		       i % 16 == 9 ? 0xe0000 + zbw_case_rnd(rng) % 0x20000 :
		       i % 16;
	}
}

/* Step and lag of the pages of zbw_case_lag_number() */
static const u8 zbw_case_lag_step[] = {
	ZBEWALGO_STEP_NUM8, ZBEWALGO_STEP_NUM4, ZBEWALGO_STEP_NUM2,
	ZBEWALGO_STEP_NUM8,
};

static const u8 zbw_case_lag_of[] = { 3, 2, 4, 16 };

/*
 * Whether page @k of records, compressed at @c, is at its lag: byte 0,
 * the step, 4096 in two bytes, the mode (bits 4 and 5), the lag byte
 */
static inline bool zbw_case_lag_ok(const u8 *c, unsigned int k)
{
	return (c[4] & 0x30) == 0x30 && c[5] == zbw_case_lag_of[k] - 1;
}

/*
 * Payloads of the num4 step at a lag (num.h's format), for 16 bytes, 4
 * numbers, unless @n says otherwise: one bin and no values to code but
 * the raw ones, which the lag repeats, or (the last) values that sum back
 * through every order; with the bytes zbewalgo_decompress() must give, or
 * its error
 */
struct zbw_case_pay {
	const char *what;
	u8 len;
	u8 b[32];
	int ret;
	u8 out[32];
	u8 n;
};

static const struct zbw_case_pay zbw_case_lag_pay[] = {
	{ "two records of two", 15,
	  { 0x74, 0x01, 16, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	    0, 0, 0, 0 }, 0,
	  { 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 } },
	{ "floats at a lag, 8 low bits zero", 16,
	  { 0x76, 0x41, 16, 8, 0x56, 0x34, 0x12, 0, 0x21, 0x43, 0x65, 0,
	    0, 0, 0, 0 }, 0,
	  { 0, 0xa9, 0xcb, 0xed, 0, 0xde, 0xbc, 0x9a,
	    0, 0xa9, 0xcb, 0xed, 0, 0xde, 0xbc, 0x9a } },
	{ "indices at a lag", 20,
	  { 0x77, 0x01, 16, 0, 0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0, 0, 0, 0, 0,
	    0, 0, 0, 0 }, 0,
	  { 0x11, 0x22, 0x33, 0x44, 0x11, 0x22, 0x33, 0x44,
	    0x11, 0x22, 0x33, 0x44, 0x11, 0x22, 0x33, 0x44 } },
	{ "order 3, all raw", 23,
	  { 0x7c, 0x01, 16, 1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0,
	    0, 0, 0, 0 }, 0,
	  { 1, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 6, 0, 0, 0 } },
	{ "a lag of 1", 15,
	  { 0x74, 0x00, 16, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	    0, 0, 0, 0 }, -EINVAL },
	{ "bit 7 of the lag byte", 15,
	  { 0x74, 0x81, 16, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	    0, 0, 0, 0 }, -EINVAL },
	{ "order 0 at a lag", 15,
	  { 0x70, 0x01, 16, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	    0, 0, 0, 0 }, -EINVAL },
	{ "a factor of floats", 16,
	  { 0x76, 0x21, 16, 8, 0x56, 0x34, 0x12, 0, 0x21, 0x43, 0x65, 0,
	    0, 0, 0, 0 }, -EINVAL },
	{ "a shift of integers", 16,
	  { 0x74, 0x41, 16, 8, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
	    0, 0, 0, 0 }, -EINVAL },
	{ "no lag byte", 1, { 0x74 }, -EINVAL },
	{ "a raw number short", 7,
	  { 0x74, 0x01, 16, 0x11, 0x22, 0x33, 0x44 }, -EINVAL },
	{ "an index past the palette", 20,
	  { 0x77, 0x01, 16, 0, 0x11, 0x22, 0x33, 0x44, 0, 0, 0, 0, 1, 0, 0, 0,
	    0, 0, 0, 0 }, -EINVAL },
	/*
	 * Two cubics, r^3 and r^3 + 5, at lag 2: 0, 5, 1, 6, 8, 13, 27, 32.
	 * Raw: the numbers 0 and 5, their first differences 1 and 1, the
	 * second ones 6 and 6; then the third ones, 6 each, coded as 12 in
	 * bin 12 at q 3, which holds 12 alone.
	 */
	{ "two cubics at order 3", 31,
	  { 0x7c, 0x01, 32, 0, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0,
	    6, 0, 0, 0, 6, 0, 0, 0, 3, 12, 0, 0 }, 0,
	  { 0, 0, 0, 0, 5, 0, 0, 0, 1, 0, 0, 0, 6, 0, 0, 0,
	    8, 0, 0, 0, 13, 0, 0, 0, 27, 0, 0, 0, 32, 0, 0, 0 }, 32 },
};

/*
 * The num4 payloads @pay (@n of them), each decoded into @out: the
 * decoder's return and bytes must be those of the case
 */
static inline void zbw_case_num_pays(void *env,
				     const struct zbw_case_pay *pay,
				     unsigned int n, u8 *out, void *scratch)
{
	unsigned int k;
	size_t olen;
	int ret;

	for (k = 0; k < n; k++) {
		u8 len = pay[k].n ?: 16;

		ret = zbw_case_num_payload(pay[k].b, pay[k].len, len, out,
					   &olen, scratch);
		ZBW_CASE_CHECK(env, ret == pay[k].ret, "payload of %s gave %d",
			       pay[k].what, ret);
		ZBW_CASE_CHECK(env, ret || (olen == len &&
					    !memcmp(out, pay[k].out, len)),
			       "payload of %s: %zu bytes, %08x %08x",
			       pay[k].what, olen, get_unaligned_le32(out),
			       get_unaligned_le32(out + 4));
	}
}

/**
 * struct zbw_case_num_set - pages and payloads of a num steps' case
 * @what: what its pages are
 * @step: the step of each page
 * @n: how many pages
 * @number: number i of page k
 * @head: bytes each result has more than
 * @ok: whether the result of page k at c is written as the case wants
 * @pay: hand-made num4 payloads
 * @npay: how many
 * @seed: of the pages' random numbers
 */
struct zbw_case_num_set {
	const char *what;
	const u8 *step;
	unsigned int n;
	u64 (*number)(unsigned int k, unsigned int i, u32 *rng);
	size_t head;
	bool (*ok)(const u8 *c, unsigned int k);
	const struct zbw_case_pay *pay;
	unsigned int npay;
	u32 seed;
};

/*
 * The case @set on @ctx (for pages of up to 4096 bytes; its table and
 * thresholds are replaced) and zbewalgo_decompress() with @scratch: page
 * k compressed by @set->step[k] alone (zbw_case_num_page()) must be
 * written as @set->ok() wants, and each payload decode or be refused as
 * the case says (zbw_case_num_pays())
 */
static inline void zbw_case_num_set(void *env, struct zbewalgo_ctx *ctx,
				    const struct zbw_case_num_set *set,
				    void *scratch, struct zbw_case_stats *st)
{
	struct zbw_case_num *b = zbw_case_num_start(env, ctx);
	u32 rng = set->seed;
	unsigned int k;
	size_t clen;

	if (!b)
		return;
	for (k = 0; k < set->n; k++)
		if (zbw_case_num_page(env, ctx, b, set->step[k], set->number, k,
				      set->head, set->what, scratch, &rng, st,
				      &clen))
			ZBW_CASE_CHECK(env, set->ok(b->c, k),
				       "%s %u: %02x %02x %02x %02x after the step",
				       set->what, k, b->c[4], b->c[5], b->c[6],
				       b->c[7]);
	zbw_case_num_pays(env, set->pay, set->npay, b->out, scratch);
	kfree(b);
}

/*
 * ZBW_CASE_NUM_SET() - define zbw_case_num_@name(env, ctx, scratch, st),
 * the case zbw_case_num_set() of the pages of zbw_case_@name_number()
 * (@what, more than @head bytes, random numbers from @seed) by the steps
 * zbw_case_@name_step[], written as zbw_case_@name_ok() wants, and the
 * payloads zbw_case_@name_pay[]
 */
#define ZBW_CASE_NUM_SET(name, what, head, seed)			\
static inline void zbw_case_num_##name(void *env,			\
				       struct zbewalgo_ctx *ctx,	\
				       void *scratch,			\
				       struct zbw_case_stats *st)	\
{									\
	static const struct zbw_case_num_set set = {			\
		what, zbw_case_##name##_step,				\
		ARRAY_SIZE(zbw_case_##name##_step),			\
		zbw_case_##name##_number, head, zbw_case_##name##_ok,	\
		zbw_case_##name##_pay,					\
		ARRAY_SIZE(zbw_case_##name##_pay), seed,		\
	};								\
									\
	zbw_case_num_set(env, ctx, &set, scratch, st);			\
}

/*
 * The num steps at a lag (num.h's format), on @ctx (for pages of up to
 * 4096 bytes; its table and thresholds are replaced) and
 * zbewalgo_decompress() with @scratch: arrays of records, each compressed
 * by the num step of its word size alone, are written at their lag and
 * come back byte-exact, every cut of them refused and corruptions
 * harmless (zbw_case_corrupted()), a byte appended refused; hand-made
 * payloads at a lag decode or are refused as the format says.
 */
ZBW_CASE_NUM_SET(lag, "page of records", 5, 11)

/*
 * Number @i of page @k of zbw_case_num_exc(): doubles whose low 20 bits
 * are zero but in two (page 0) or in none (page 2), floats whose low 12
 * are zero but in seven (page 1)
 */
static inline u64 zbw_case_exc_number(unsigned int k, unsigned int i,
				      u32 *rng)
{
	unsigned int tri = i % 64 < 32 ? i % 64 : 64 - i % 64;

	if (k == 1)
		return 0x3f800000 + 0x1000 * tri +
		       ((i * 37) % 1021 < 6 ? 1 + zbw_case_rnd(rng) % 255 : 0);
	return 0x3ff0000000000000ull + ((u64)(i * i) << 20) +
	       (!k && (i == 9 || i == 300) ? 0x2a : 0);
}

/* Step of the pages of zbw_case_exc_number() */
static const u8 zbw_case_exc_step[] = {
	ZBEWALGO_STEP_NUM8, ZBEWALGO_STEP_NUM4, ZBEWALGO_STEP_NUM8,
};

/*
 * Whether page @k of exceptions, compressed at @c, has them: byte 0, the
 * step, 4096 in two bytes, the mode (floats, a shift), 4096 again, the
 * shift byte (bit 7: exceptions); page 2 needs none (its common factor
 * may do better)
 */
static inline bool zbw_case_exc_ok(const u8 *c, unsigned int k)
{
	bool shift = (c[4] & 0x33) == 0x22;

	return k == 2 ? !shift || !(c[7] & 0x80) : shift && (c[7] & 0x80);
}

/*
 * num4 payloads with a shift's exceptions (num.h's format), 4 floats of
 * 1.0 at order 0 in one bin, but the exceptions' low bits
 */
static const struct zbw_case_pay zbw_case_exc_pay[] = {
	{ "an exception", 14,
	  { 0x62, 16, 0x88, 0, 2, 0x5a, 0, 0x80, 0xbf, 0, 0, 0, 0, 0 }, 0,
	  { 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f, 0x5a, 0, 0x80, 0x3f,
	    0, 0, 0x80, 0x3f } },
	{ "the first and the last", 16,
	  { 0x62, 16, 0x88, 1, 0, 1, 2, 0xff, 0, 0x80, 0xbf, 0, 0, 0, 0, 0 }, 0,
	  { 1, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f, 0, 0, 0x80, 0x3f,
	    0xff, 0, 0x80, 0x3f } },
	{ "an index past the numbers", 14,
	  { 0x62, 16, 0x88, 0, 4, 0x5a, 0, 0x80, 0xbf, 0, 0, 0, 0, 0 },
	  -EINVAL },
	{ "a second index past the numbers", 16,
	  { 0x62, 16, 0x88, 1, 3, 1, 3, 0xff, 0, 0x80, 0xbf, 0, 0, 0, 0, 0 },
	  -EINVAL },
	{ "no low bits", 14,
	  { 0x62, 16, 0x88, 0, 2, 0, 0, 0x80, 0xbf, 0, 0, 0, 0, 0 }, -EINVAL },
	{ "low bits past the shift", 14,
	  { 0x62, 16, 0x84, 0, 2, 0x1f, 0, 0xf8, 0xfb, 0, 0, 0, 0, 0 },
	  -EINVAL },
	{ "bit 6 of the shift byte", 14,
	  { 0x62, 16, 0xc8, 0, 2, 0x5a, 0, 0x80, 0xbf, 0, 0, 0, 0, 0 },
	  -EINVAL },
	{ "65 exceptions", 14,
	  { 0x62, 16, 0x88, 64, 2, 0x5a, 0, 0x80, 0xbf, 0, 0, 0, 0, 0 },
	  -EINVAL },
	{ "low bits cut short", 5, { 0x62, 16, 0x90, 0, 2 }, -EINVAL },
};

/*
 * A shift's exceptions (num.h's format), as zbw_case_num_lag() tests a
 * lag: pages of quantized floats with a few odd numbers are written with
 * the shift and as many exceptions, and hand-made payloads decode or are
 * refused as the format says.
 */
ZBW_CASE_NUM_SET(exc, "page of exceptions", 8, 13)

#endif /* __ZBEWALGO_CASES_NUM_H */
