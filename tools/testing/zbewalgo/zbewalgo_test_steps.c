// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the steps one by one (zbewalgo_test.c runs them): each
 * step alone on every page, lz streams written by hand, encoders at every
 * capacity short of their output, the num steps' views, and decoders on
 * truncated and corrupted encodings into exact buffers.
 */

#include "zbewalgo_test.h"
#include "../../../lib/zbewalgo/core/num_enc.h"

/* Every step alone: exact-size buffers both ways. */
void test_steps(void)
{
	unsigned int cap = zbewalgo_stage_cap(PAGE);
	void *scratch = malloc(zbewalgo_steps_scratch_size(cap));
	char name[64];
	unsigned int id;
	size_t i;

	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		const struct zbewalgo_step *step = zbewalgo_step_get(id);
		/* the encoder's state, kept across pages as in a context */
		void *state = zbewalgo_step_state_create(step, cap);
		unsigned long encoded = 0;

		snprintf(name, sizeof(name), "step %s round trip", sname(step));
		begin(name);
		CHECK(zbewalgo_step_id(sname(step), strlen(sname(step))) ==
		      (int)id, "%s: name and id do not map back", sname(step));
		for (i = 0; i < nr_pages; i++) {
			const struct page *pg = &pages[i];
			unsigned char *enc = malloc(cap), *dec, *e;
			int n, m;

			n = step->encode(pg->data, pg->len, enc, cap,
					 state ?: scratch);
			CHECK(n >= 0 || n == -ENOSPC || n == -EINVAL,
			      "%s: encode returned %d", pg->name, n);
			if (n < 0) {
				free(enc);
				continue;
			}
			encoded++;
			e = dup_exact(enc, n);
			dec = malloc(pg->len ? pg->len : 1);
			m = step->decode(e, n, dec, pg->len, state ?: scratch);
			CHECK(m == (int)pg->len && !memcmp(dec, pg->data, pg->len),
			      "%s: decode returned %d, want %zu", pg->name, m,
			      pg->len);
			if (pg->len) {
				/* One byte too little room must be an error. */
				m = step->decode(e, n, dec, pg->len - 1,
						 state ?: scratch);
				CHECK(m < 0, "%s: decode into short buffer gave %d",
				      pg->name, m);
			}
			free(dec);
			free(e);
			free(enc);
		}
		CHECK(encoded > nr_pages / 2, "only %lu of %zu pages encoded",
		      encoded, nr_pages);
		free(state);
		end();
	}
	free(scratch);
}

/*
 * lz streams written by hand (all sections raw): overlapping copies, the
 * repeat offset, and each rule of the format that a decoder must enforce.
 */
struct lz_case {
	const char *what;
	unsigned int n;
	const char *sec[5];	/* literals, tokens, extras, offset lo, hi */
	unsigned int len[5];
	const char *want;	/* NULL: must be -EINVAL */
};

void test_lz_crafted(void)
{
	static const struct lz_case cases[] = {
		/* offset codes: 0 and 1 the repeat offsets, d + 2 offset d */
		{ "overlapping copy", 10, { "abcd", "\x42", "", "\x06", "\x00" },
		  { 4, 1, 0, 1, 1 }, "abcdabcdab" },
		{ "repeat offset", 14,
		  { "abcdxy", "\x40\x20", "", "\x06\x00", "\x00\x00" },
		  { 6, 2, 0, 2, 2 }, "abcdabcdxycdxy" },
		{ "second repeat offset, swapped", 26,
		  { "abcdefghxy", "\x80\x20\x00\x00", "",
		    "\x0a\x05\x01\x01", "\x00\x00\x00\x00" },
		  { 10, 4, 0, 4, 4 }, "abcdefghabcdxydxydcdxydxyd" },
		{ "trailing literals", 7, { "abcdefg", "\x70", "", "", "" },
		  { 7, 1, 0, 0, 0 }, "abcdefg" },
		{ "long literal run", 20,
		  { "abcdefghijklmnopqrst", "\xf0", "\x05", "", "" },
		  { 20, 1, 1, 0, 0 }, "abcdefghijklmnopqrst" },
		{ "long match", 24, { "a", "\x1f", "\x04", "\x03", "\x00" },
		  { 1, 1, 1, 1, 1 }, "aaaaaaaaaaaaaaaaaaaaaaaa" },
		{ "repeat offset before any match", 8,
		  { "abcd", "\x40", "", "\x00", "\x00" }, { 4, 1, 0, 1, 1 } },
		{ "second repeat offset before two matches", 12,
		  { "abcd", "\x40\x00", "", "\x06\x01", "\x00\x00" },
		  { 4, 2, 0, 2, 2 } },
		{ "offset beyond the output", 8,
		  { "abcd", "\x40", "", "\x07", "\x00" }, { 4, 1, 0, 1, 1 } },
		{ "match beyond n", 9, { "abcd", "\x42", "", "\x06", "\x00" },
		  { 4, 1, 0, 1, 1 } },
		{ "literals beyond n", 3, { "abcd", "\x40", "", "", "" },
		  { 4, 1, 0, 0, 0 } },
		{ "unused literal", 8,
		  { "abcde", "\x40", "", "\x06", "\x00" }, { 5, 1, 0, 1, 1 } },
		{ "unused offset", 8,
		  { "abcd", "\x40", "", "\x06\x06", "\x00\x00" },
		  { 4, 1, 0, 2, 2 } },
		{ "offset sections differ", 8,
		  { "abcd", "\x40", "", "\x06", "\x00\x00" }, { 4, 1, 0, 1, 2 } },
		{ "match field on the last token", 4,
		  { "abcd", "\x41", "", "", "" }, { 4, 1, 0, 0, 0 } },
		{ "token after the end", 4,
		  { "abcd", "\x40\x00", "", "", "" }, { 4, 2, 0, 0, 0 } },
		{ "missing extra byte", 20,
		  { "abcdefghijklmnopqrst", "\xf0", "", "", "" },
		  { 20, 1, 0, 0, 0 } },
		{ "output short of n", 9, { "abcd", "\x40", "", "\x06", "\x00" },
		  { 4, 1, 0, 1, 1 } },
	};
	const struct zbewalgo_step *lz = zbewalgo_step_get(ZBEWALGO_STEP_LZ);
	void *scratch = malloc(zbewalgo_steps_scratch_size(zbewalgo_stage_cap(64)));
	unsigned char enc[256], *in, *out;
	unsigned int c, k, pos;
	int ret;

	begin("lz decoder on crafted streams");
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		const struct lz_case *t = &cases[c];

		pos = zbw_put_len(enc, enc + sizeof(enc), t->n);
		for (k = 0; k < 5; k++) {
			pos += zbw_put_len(enc + pos, enc + sizeof(enc),
					   t->len[k] << 1);
			memcpy(enc + pos, t->sec[k], t->len[k]);
			pos += t->len[k];
		}
		in = dup_exact(enc, pos);
		out = malloc(t->n);
		ret = lz->decode(in, pos, out, t->n, scratch);
		if (t->want)
			CHECK(ret == (int)t->n && !memcmp(out, t->want, t->n),
			      "lz %s: got %d", t->what, ret);
		else
			CHECK(ret == -EINVAL, "lz %s: got %d, want -EINVAL",
			      t->what, ret);
		/* without its last byte, no stream decodes */
		CHECK(lz->decode(in, pos - 1, out, t->n, scratch) == -EINVAL,
		      "lz %s: truncated stream accepted", t->what);
		free(out);
		free(in);
	}
	free(scratch);
	end();
}

/* Encoding into every capacity below the needed one fails cleanly. */
void test_steps_enospc(void)
{
	unsigned int cap = zbewalgo_stage_cap(PAGE);
	void *scratch = malloc(zbewalgo_steps_scratch_size(cap));
	unsigned char *full = malloc(cap);
	unsigned int id, k;
	size_t i;

	begin("step encoders respect the output capacity");
	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		const struct zbewalgo_step *step = zbewalgo_step_get(id);
		void *state = zbewalgo_step_state_create(step, PAGE);
		void *arg = state ?: scratch;

		CHECK(!step->state_size || state, "%s: no state", sname(step));
		for (i = 0; i < nr_pages; i++) {
			const struct page *pg = &pages[i];
			int n;

			if (pg->len > PAGE || (i % 97 && pg->len > 16))
				continue;
			n = step->encode(pg->data, pg->len, full, cap, arg);
			if (n < 0)
				continue;
			for (k = 0; k < (unsigned int)n; k++) {
				unsigned char *d = malloc(k ? k : 1);
				int r = step->encode(pg->data, pg->len, d, k,
						     arg);

				CHECK(r == -ENOSPC, "%s %s: cap %u gave %d",
				      sname(step), pg->name, k, r);
				free(d);
			}
		}
		free(state);
	}
	end();
	free(full);
	free(scratch);
}

/*
 * The num steps on pages built for each of their views: the encoder picks
 * the view the page was made with (the mode byte, num.h's format, and for
 * arrays of records the lag byte), writes less than a bound, and the page
 * comes back byte for byte.
 */
struct num_case;
static const struct num_case *num_cases_first(void);

struct num_case {
	const char *what;
	unsigned int id;	/* step */
	unsigned int w;		/* bytes per number */
	u8 mode, mask;		/* mode & mask must equal mode */
	unsigned int most;	/* bytes at most */
	unsigned int lag;	/* the lag byte's lag, 0 for no lag byte */
};

static u64 num_case_value(const struct num_case *c, unsigned int i)
{
	union { float f; u32 u; } f;
	union { double d; u64 u; } d;

	switch (c - num_cases_first()) {
	case 0:	/* a 16-bit counter: order 1, one bin */
		return 1000 + 3 * i;
	case 1:	/* multiples of 1000 around a base, signed: factor */
		return (u32)(-500000 + 1000 * (s32)(rnd() % 997));
	case 2:	/* a smooth float32 field: the float view, differences */
		f.f = 280.0f + 10.0f * (float)i / 1024 + (float)(rnd() % 64) / 4096;
		return f.u;
	case 3:	/* float32 of both signs, 12 low bits zero: a shift */
		/* more distinct numbers than a palette holds */
		f.f = 1.0f + (float)(rnd() % 768) / 256;
		return (f.u & ~0xfffu) | (rnd() % 2 ? 0x80000000u : 0);
	case 4:	/* float64 stored big-endian */
		d.d = 3.25 + (double)i / 512 + (double)(rnd() % 1024) / 1e6;
		return __builtin_bswap64(d.u);
	case 5:	/* 64-bit values in a narrow range: order 0 */
		return 0x123456789abc0000ull + rnd() % 5000;
	case 6: /* second differences 0: order 2, one bin */
		return 7 * (u64)i * i;
	case 7: /* third differences constant: order 3, one bin */
		return 5 * (u64)i * i * i + 3 * (u64)i;
	case 8: /* a 12-bit ADC's float32 samples, 40 levels: a palette */
		f.f = ((float)(rnd() % 40) + 0.5f) * 10.0f / 4095 - 0.05f;
		return f.u;
	case 9: /* 300 distinct 16-bit numbers anywhere: a palette */
		return (u16)((rnd() % 300 + 1) * 40503u);
	case 10: /* 64-bit pointers to 50 objects: a palette at order 0 */
		return 0x7f3a00000000ull + (((rnd() % 50 + 1) *
					     0x9e3779b9ull) & 0xffffff0ull);
	case 11: /* four values in runs: a palette at order 1 */
		return (i / 64 % 4) * 0x01010101u;
	case 12: /* records of a pointer (+40 a record), a counter, a zero */
		return i % 3 == 0 ? 0x562e78397a60ull + 0x28 * (i / 3) :
		       i % 3 == 1 ? 0x91fe + i / 3 : 0;
	case 13: /* records of an id and a noisy linear field: lag 2 */
		return i % 2 ? 0x80000000u + 1000 * (i / 2) + rnd() % 16 :
		       5000 + i / 2;
	case 14: /* 8-byte records of 16-bit fields: lag 4 */
		return i % 4 == 0 ? i / 4 : i % 4 == 1 ? 0x8000 ^ (3 * i / 4) :
		       i % 4 == 2 ? 7 : 0x1234 + rnd() % 4;
	default: /* 128-byte objects, a pointer among their fields: lag 16 */
		return i % 16 == 0 ? 1 : i % 16 == 1 ? 0x94fc00 :
		       i % 16 == 3 ? 0x7f26b1a160d0ull + 0x80 * (i / 16) :
		       i % 16 == 9 ? 0xe0000 + rnd() % 0x20000 : i % 16;
	}
}

#define NUM_VIEW	0x03
#define NUM_ORDER	0x0c
#define NUM_FACTOR	0x10
#define NUM_SHIFT	0x20
#define NUM_ONE		0x40
#define NUM_BE		0x80
#define NUM_LAG		(NUM_FACTOR | NUM_SHIFT)

static const struct num_case num_cases[] = {
	{ "u16 counter", ZBEWALGO_STEP_NUM2, 2, 0x04 | NUM_ONE,
	  NUM_ORDER | NUM_ONE | NUM_BE, 40 },
	{ "i32 multiples of 1000", ZBEWALGO_STEP_NUM4, 4, NUM_FACTOR | 1,
	  NUM_FACTOR | NUM_VIEW | NUM_BE, 1400 },
	{ "smooth f32", ZBEWALGO_STEP_NUM4, 4, 0, NUM_BE, 1100 },
	{ "f32 +-, 12 low bits zero", ZBEWALGO_STEP_NUM4, 4, 2 | NUM_SHIFT,
	  NUM_VIEW | NUM_SHIFT | NUM_BE, 1800 },
	{ "big-endian f64", ZBEWALGO_STEP_NUM8, 8, NUM_BE, NUM_BE, 2800 },
	{ "u64 in a narrow range", ZBEWALGO_STEP_NUM8, 8, 0, NUM_BE, 900 },
	{ "quadratic u32", ZBEWALGO_STEP_NUM4, 4, 0x08 | NUM_ONE,
	  NUM_ORDER | NUM_ONE | NUM_BE, 40 },
	{ "cubic u64", ZBEWALGO_STEP_NUM8, 8, 0x0c | NUM_ONE,
	  NUM_ORDER | NUM_ONE | NUM_BE, 120 },
	{ "f32 of 40 levels", ZBEWALGO_STEP_NUM4, 4, 3,
	  NUM_VIEW | NUM_FACTOR | NUM_SHIFT | NUM_BE, 900 },
	{ "u16 of 300 values", ZBEWALGO_STEP_NUM2, 2, 3,
	  NUM_VIEW | NUM_FACTOR | NUM_SHIFT | NUM_BE, 3300 },
	{ "pointers to 50 objects", ZBEWALGO_STEP_NUM8, 8, 3,
	  NUM_VIEW | NUM_ORDER | NUM_FACTOR | NUM_SHIFT | NUM_BE, 700 },
	{ "u32 of 4 values in runs", ZBEWALGO_STEP_NUM4, 4, 0x04 | 3,
	  NUM_VIEW | NUM_ORDER | NUM_FACTOR | NUM_SHIFT | NUM_BE, 180 },
	{ "u64 records of 3", ZBEWALGO_STEP_NUM8, 8, NUM_LAG | 0x08 | NUM_ONE,
	  NUM_VIEW | NUM_ORDER | NUM_LAG | NUM_ONE | NUM_BE, 80, 3 },
	{ "u32 records of 2", ZBEWALGO_STEP_NUM4, 4, NUM_LAG,
	  NUM_VIEW | NUM_LAG | NUM_BE, 700, 2 },
	{ "u16 records of 4", ZBEWALGO_STEP_NUM2, 2, NUM_LAG,
	  NUM_VIEW | NUM_LAG | NUM_BE, 900, 4 },
	{ "128-byte objects", ZBEWALGO_STEP_NUM8, 8, NUM_LAG,
	  NUM_VIEW | NUM_LAG | NUM_BE, 700, 16 },
};

static const struct num_case *num_cases_first(void)
{
	return num_cases;
}

void test_num_views(void)
{
	unsigned int cap = zbewalgo_stage_cap(PAGE), k, i;
	void *scratch = malloc(zbewalgo_steps_scratch_size(cap));
	unsigned char *page = malloc(PAGE), *enc = malloc(cap);
	unsigned char *dec = malloc(PAGE);

	begin("num steps: each view picked and decoded");
	for (k = 0; k < ARRAY_SIZE(num_cases); k++) {
		const struct num_case *c = &num_cases[k];
		const struct zbewalgo_step *st = zbewalgo_step_get(c->id);
		int n, d;

		rng_state = 0x9e3779b97f4a7c15ull + k;
		for (i = 0; i < PAGE / c->w; i++)
			zbw_put_word(num_case_value(c, i), page, i, c->w);
		n = st->encode(page, PAGE, enc, cap, scratch);
		CHECK(n > 0, "%s: encode %d", c->what, n);
		if (n <= 0)
			continue;
		CHECK((enc[0] & c->mask) == c->mode,
		      "%s: mode 0x%02x, want 0x%02x under 0x%02x", c->what,
		      enc[0], c->mode, c->mask);
		/* the lag byte: the lag less one, no factor, no shift */
		CHECK(!c->lag || enc[1] == c->lag - 1,
		      "%s: lag byte 0x%02x, want lag %u", c->what, enc[1],
		      c->lag);
		CHECK(n <= (int)c->most, "%s: %d bytes, at most %u", c->what,
		      n, c->most);
		d = st->decode(enc, n, dec, PAGE, scratch);
		CHECK(d == PAGE && !memcmp(dec, page, PAGE),
		      "%s: decoded %d bytes, %s", c->what, d,
		      d == PAGE ? "differ" : "wrong length");
		printf("#   %-24s %s: %4d bytes, mode 0x%02x\n", c->what,
		       sname(st), n, enc[0]);
	}
	free(dec);
	free(enc);
	free(page);
	free(scratch);
	end();
}

/*
 * The probe's pick for a num step (struct zbw_num_hint): any candidate in
 * either byte order round-trips or is refused, one the page cannot take
 * (a lag where it has none, a palette) is not taken, and a hint for
 * another page changes nothing.  The step's encoder writes what the
 * probe's pick (zbw_num_hint_page()) gives, whatever the table.
 */
void test_num_hints(void)
{
	unsigned int cap = zbewalgo_stage_cap(PAGE), k, i, cand, taken = 0;
	void *scratch = malloc(zbewalgo_steps_scratch_size(cap));
	unsigned char *page = malloc(PAGE), *enc = malloc(cap);
	unsigned char *ref = malloc(cap), *dec = malloc(PAGE);
	unsigned char *own = malloc(cap);
	unsigned int shifted = 0, factored = 0;
	struct num_scan all, part;
	struct zbw_num_hint h;

	begin("num steps: the probe's pick, whatever it is");
	for (k = 0; k < ARRAY_SIZE(num_cases); k++) {
		const struct num_case *c = &num_cases[k];
		const struct zbewalgo_step *st = zbewalgo_step_get(c->id);
		int r, n, d;

		rng_state = 0x9e3779b97f4a7c15ull + k;
		for (i = 0; i < PAGE / c->w; i++)
			zbw_put_word(num_case_value(c, i), page, i, c->w);
		/* a picked view's scan: what the whole scan says of it */
		num_scan(page, PAGE / c->w, c->w, &all, NUM_SCAN_ALL);
		num_scan(page, PAGE / c->w, c->w, &part, NUM_SCAN_FLOAT);
		CHECK(part.shift == all.shift && part.nexc == all.nexc &&
		      part.low[NUM_FLOAT] == all.low[NUM_FLOAT],
		      "%s: the float view's scan", c->what);
		num_scan(page, PAGE / c->w, c->w, &part, NUM_SCAN_INT);
		CHECK(part.factor == all.factor && !part.shift &&
		      part.low[NUM_UNSIGNED] == all.low[NUM_UNSIGNED] &&
		      part.low[NUM_SIGNED] == all.low[NUM_SIGNED],
		      "%s: the integer views' scan", c->what);
		shifted += all.shift > 0;
		factored += all.factor >= 2;
		/* the encoder's own pick, with no hint */
		r = zbw_num_encode_hinted(c->w, page, PAGE, ref, cap, scratch,
					  NULL);
		/* the step: the probe's pick */
		n = st->encode(page, PAGE, own, cap, scratch);
		zbw_num_hint_page(page, PAGE, c->w, scratch, &h);
		d = zbw_num_encode_hinted(c->w, page, PAGE, enc, cap, scratch,
					  &h);
		CHECK(h.w == c->w && n == d && n > 0 && !memcmp(enc, own, n),
		      "%s: the step wrote %d bytes, the probe's pick %d",
		      c->what, n, d);
		for (cand = 0; cand < NUM_C_PAL1 + 1; cand++) {
			h.page = page;
			h.w = c->w;
			h.cand = cand;
			h.be = cand & 1;
			n = zbw_num_encode_hinted(c->w, page, PAGE, enc, cap,
						  scratch, &h);
			if (n < 0)
				continue;
			taken++;
			d = st->decode(enc, n, dec, PAGE, scratch);
			CHECK(d == PAGE && !memcmp(dec, page, PAGE),
			      "%s: candidate %u%s: decoded %d bytes", c->what,
			      cand, h.be ? " big-endian" : "", d);
			/* what no pick makes: the encoder's own */
			if (cand >= NUM_C_PAL0)
				CHECK(n == r && !memcmp(enc, ref, n),
				      "%s: palette candidate %u taken",
				      c->what, cand);
		}
		h.page = page + 1;
		h.cand = NUM_C_INT0;
		n = zbw_num_encode_hinted(c->w, page, PAGE, enc, cap, scratch,
					  &h);
		CHECK(n == r && (r < 0 || !memcmp(enc, ref, r)),
		      "%s: a hint for another page was taken", c->what);
	}
	CHECK(taken >= ARRAY_SIZE(num_cases) * NUM_C_PAL0 / 2,
	      "%u candidates encoded", taken);
	/* the cases have shifts and factors for the scans to agree on */
	CHECK(shifted && factored, "%u cases shifted, %u with a factor",
	      shifted, factored);
	printf("#   %u of %zu candidates encoded and decoded\n", taken,
	       ARRAY_SIZE(num_cases) * (NUM_C_PAL1 + 1));
	printf("#   the scans agree on %zu pages, %u with a shift, %u with a factor\n",
	       ARRAY_SIZE(num_cases), shifted, factored);
	free(own);
	free(dec);
	free(ref);
	free(enc);
	free(page);
	free(scratch);
	end();
}

/*
 * Bytes @ctx writes for the page at @page with the table @text, or with
 * its own table for NULL.  @ctx keeps the table it is given
 * (zbewalgo_ctx_set_table()), which is freed here: it must be given
 * another before it compresses again.
 */
static size_t compressed_len(struct zbewalgo_ctx *ctx, const char *text,
			     const unsigned char *page)
{
	struct zbewalgo_table *t = text ? table_of(text) : NULL;
	unsigned char *out = malloc(PAGE);
	size_t len = PAGE;

	if (t)
		zbewalgo_ctx_set_table(ctx, t);
	CHECK(!zbewalgo_compress(ctx, page, PAGE, out, &len), "%s: compress",
	      text ?: "the context's table");
	free(out);
	free(t);
	return len;
}

/*
 * Records of four 4-byte floats (a grid of corrections: two fields that
 * drift, two that take a few values) repeat every 8 bytes, as 8-byte
 * numbers do: the probe estimates num4 on such a page too, and the
 * default table codes it as num4 alone does, in a sixteenth less than
 * num8 or zstd alone.
 */
void test_num_fields(void)
{
	static const char *const alone[] = { "num4", "num8", "zstd" };
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	unsigned char *page = malloc(PAGE);
	size_t len[ARRAY_SIZE(alone)], dlen;
	unsigned int i, k;
	u32 bits;

	begin("num steps: 4-byte fields of 16-byte records go to num4");
	rng_state = 0x5eed;
	for (i = 0; i < PAGE / 16; i++) {
		int t = i % 64 < 32 ? i % 64 : 64 - i % 64;
		float f[4] = {
			1.25f + 0.03f * t + 0.0001f * (rnd() % 101),
			-0.75f - 0.02f * t + 0.0001f * (rnd() % 101),
			0.05f + 0.01f * (rnd() % 4),
			0.07f + 0.01f * (rnd() % 4),
		};

		/* little-endian on any host, as memory on x86 and arm64 */
		for (k = 0; k < 4; k++) {
			memcpy(&bits, &f[k], sizeof(bits));
			put_unaligned_le32(bits, page + 16 * i + 4 * k);
		}
	}
	dlen = compressed_len(ctx, NULL, page);
	for (k = 0; k < ARRAY_SIZE(alone); k++)
		len[k] = compressed_len(ctx, alone[k], page);
	CHECK(dlen == len[0], "default table: %zu bytes, num4 alone %zu",
	      dlen, len[0]);
	CHECK(16 * len[0] <= 15 * len[1] && 16 * len[0] <= 15 * len[2],
	      "num4 %zu bytes, num8 %zu, zstd %zu", len[0], len[1], len[2]);
	printf("#   %zu bytes; alone: num4 %zu, num8 %zu, zstd %zu\n", dlen,
	       len[0], len[1], len[2]);
	zbewalgo_ctx_destroy(ctx);
	free(page);
	end();
}

/*
 * A sparse matrix's column indices, a 27-point stencil on a 22^3 grid as
 * CSR stores them after the row pointers (bench/gen-data.py's csr-cg, its
 * 14th page): num4 estimates its lag well below the byte chains, whose
 * estimates run up to twice high on a page that compresses 13:1, yet
 * zstd's matches take the stencil's repeats for a third less.  The
 * search tries the next chain after such a loose estimate.
 */
void test_num_loose(void)
{
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	unsigned int at = 13 * PAGE, n, k;
	unsigned char *buf = calloc(at + PAGE, 1);
	size_t len, alone;
	int x, y, z, g = 22;

	begin("num steps: the search goes on after a loose estimate");
	/* after the g^3 + 1 row pointers, the column indices of each row */
	n = g * g * g + 1;
	for (z = 0; z < g && 4 * n < at + PAGE; z++)
		for (y = 0; y < g; y++)
			for (x = 0; x < g; x++)
				for (k = 0; k < 27; k++) {
					int xx = x + k % 3 - 1;
					int yy = y + k / 3 % 3 - 1;
					int zz = z + k / 9 - 1;

					if (xx < 0 || yy < 0 || zz < 0 ||
					    xx >= g || yy >= g || zz >= g)
						continue;
					if (4 * n + 4 <= at + PAGE)
						put_unaligned_le32((zz * g + yy) * g +
								   xx, buf + 4 * n);
					n++;
				}
	len = compressed_len(ctx, NULL, buf + at);
	alone = compressed_len(ctx, "num4", buf + at);
	CHECK(4 * len <= 3 * alone, "default table %zu bytes, num4 alone %zu",
	      len, alone);
	printf("#   %zu bytes; num4 alone %zu\n", len, alone);
	zbewalgo_ctx_destroy(ctx);
	free(buf);
	end();
}

/*
 * A page of sparse numbers: in each quarter, zeros, then slowly changing
 * positive floats in the second half, as a cloud field's grid has them
 * around its clouds.  The probe's windows at the quarters' starts hold
 * only zeros; it takes its sample from the numbers instead
 * (zbw_probe_windows()), so that the default table ends at once on a
 * result about the best of its chains alone, where a sample of zeros sent
 * it through chain after chain.
 */
void test_num_sparse(void)
{
	static const char *const alone[] = {
		"zstd", "bitshuffle4-zstd", "bitshuffle8-zstd",
		"delta8-bitshuffle8-zstd", "delta2-bitshuffle2-zstd", "num4",
		"num8", "num2",
	};
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	unsigned char *page = calloc(PAGE, 1);
	size_t len, best = PAGE, n;
	unsigned int i, q, tried;
	const char *which = "";

	begin("num steps: a sparse page is sampled where its numbers are");
	/* floats about 250 (0x437a0000), made as bits: the same on any CPU */
	for (q = 0; q < 4; q++)
		for (i = 0; i < PAGE / 32; i++)
			put_unaligned_le32(0x437a0000 +
					   (i * 11 + q * 29) % 400 * 997 +
					   i * 7919 % 13,
					   page + q * PAGE / 4 + PAGE / 8 + 4 * i);
	len = compressed_len(ctx, NULL, page);
	tried = zbewalgo_ctx_last_result(ctx)->tried;
	for (i = 0; i < ARRAY_SIZE(alone); i++) {
		n = compressed_len(ctx, alone[i], page);
		if (n < best) {
			best = n;
			which = alone[i];
		}
	}
	CHECK(tried <= 2, "default table: %u chains tried", tried);
	CHECK(50 * len <= 51 * best, "default table %zu bytes, %s alone %zu",
	      len, which, best);
	printf("#   %zu bytes after %u chains; best alone: %s %zu\n", len,
	       tried, which, best);
	zbewalgo_ctx_destroy(ctx);
	free(page);
	end();
}

/*
 * A case of the num steps (zbewalgo_cases.h, which KUnit runs too) on a
 * context of its own, titled @what
 */
static void num_case(const char *what,
		     void (*run)(void *env, struct zbewalgo_ctx *ctx,
				 void *scratch, struct zbw_case_stats *st))
{
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	struct zbw_case_stats st = { 0 };

	begin(what);
	CHECK(ctx && scratch, "out of memory");
	if (ctx && scratch)
		run(NULL, ctx, scratch, &st);
	printf("#   %lu cuts rejected, %lu of %lu corruptions detected\n",
	       st.cuts, st.detected, st.flips);
	zbewalgo_ctx_destroy(ctx);
	free(scratch);
	end();
}

/*
 * The num steps' palette view (zbewalgo_cases.h, which KUnit runs too):
 * pages of few distinct numbers round-trip in it, their cuts are
 * refused, hand-made palettes decode or are refused as the format says.
 */
void test_num_palette(void)
{
	num_case("num steps: the palette view, and hostile palettes", zbw_case_num_palette);
}

/*
 * The num steps at a lag (zbewalgo_cases.h, which KUnit runs too):
 * arrays of records round-trip at their lag, their cuts are refused,
 * hand-made payloads at a lag decode or are refused as the format says.
 */
void test_num_lag(void)
{
	num_case("num steps: differences at a lag, and hostile lags", zbw_case_num_lag);
}

/*
 * The num steps' shift with exceptions (zbewalgo_cases.h, which KUnit
 * runs too): quantized floats with a few odd numbers round-trip with
 * their exceptions, hand-made exceptions decode or are refused.
 */
void test_num_exc(void)
{
	num_case("num steps: a shift with exceptions, and hostile exceptions", zbw_case_num_exc);
}

/*
 * Step decoders on hostile input (fuzz/step.c in miniature): real
 * encodings, truncated and corrupted, decoded into outputs of exactly
 * every capacity around the real length, with exact-size sources and
 * exact scratch_size() scratch.  The decoders' fast paths copy whole
 * words; ASan sees any that reach past the end of an exact buffer.
 */
void test_step_decoders_hostile(void)
{
	unsigned int cap = zbewalgo_stage_cap(PAGE);
	unsigned char *enc = malloc(cap);
	void *scratch = malloc(zbewalgo_steps_scratch_size(cap));
	unsigned long decodes = 0;
	unsigned int id, k;
	size_t i;

	begin("step decoders on hostile input, exact buffers");
	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		const struct zbewalgo_step *step = zbewalgo_step_get(id);
		/* a step with state gets it both ways, set up for the page */
		void *state = zbewalgo_step_state_create(step, PAGE);

		CHECK(!step->state_size || state, "%s: no state", sname(step));
		for (i = id % 5; i < nr_pages; i += 5) {
			const struct page *pg = &pages[i];
			int n = step->encode(pg->data, pg->len, enc, cap,
					     state ?: scratch);

			if (n < 0)
				continue;
			for (k = 0; k < 40; k++) {
				unsigned int slen = n, dcap = pg->len, m;
				unsigned char *src, *dst;
				size_t sclen;
				void *sc;
				int ret;

				/* Capacities just around the real length. */
				if (k < 20)
					dcap = pg->len + 16 > k ? pg->len + 16 - k : 0;
				else
					dcap = rnd() % (pg->len + 32);
				if (k >= 10 && slen) {
					if (k & 1)
						slen -= rnd() % (slen < 24 ? slen : 24);
					src = dup_exact(enc, slen);
					for (m = 0; slen && m < 1 + k % 3; m++)
						src[rnd() % slen] ^= 1u << (rnd() % 8);
				} else {
					src = dup_exact(enc, slen);
				}
				dst = malloc(dcap ? dcap : 1);
				m = slen > dcap ? slen : dcap;
				sclen = step->scratch_size ? step->scratch_size(m) : 0;
				sc = malloc(sclen ? sclen : 1);
				ret = step->decode(src, slen, dst, dcap,
						   state ?: sc);
				decodes++;
				CHECK(ret == -EINVAL || (ret >= 0 && ret <= (int)dcap),
				      "%s %s: %u bytes into %u gave %d",
				      sname(step), pg->name, slen, dcap, ret);
				CHECK(k >= 10 || dcap < pg->len || ret == (int)pg->len,
				      "%s %s: intact input into %u gave %d",
				      sname(step), pg->name, dcap, ret);
				free(sc);
				free(dst);
				free(src);
			}
		}
		free(state);
	}
	end();
	printf("#   %lu decodes\n", decodes);
	free(scratch);
	free(enc);
}
