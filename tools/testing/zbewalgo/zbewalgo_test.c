// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space unit tests of lib/zbewalgo, built from the kernel sources
 * through tools/zbewalgo/shim and run under ASan+UBSan by `make check`.
 *
 * usage: zbewalgo_test DATA_DIR...
 *
 * Every 4096-byte page of every file below the DATA_DIRs (`make test-unit`
 * gives build/testdata, real files from Debian packages, and the optional
 * Calgary/Canterbury corpora when ZBW_EXTRA_CORPUS is set), plus the
 * generated pages of test_pages.h (the fuzz seeds' too), goes through
 * every step alone, every default combination and the default table;
 * compressed pages are then truncated and bit-flipped.
 * Buffers are allocated with their exact sizes so that ASan sees any
 * access outside them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/zstd.h>

#include "../../../lib/zbewalgo/zbewalgo_internal.h"
#include "../../../lib/zbewalgo/engine.h"
#include "../../../lib/zbewalgo/huffman_tables.h"
#include "test_pages.h"

#define PAGE	4096

struct page {
	unsigned char *data;
	size_t len;
	char name[96];
};

/* The registry's name of step @st, for messages */
static const char *sname(const struct zbewalgo_step *st)
{
	unsigned int id;

	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++)
		if (zbewalgo_step_get(id) == st)
			return zbewalgo_step_name(id);
	return "two steps in one pass";
}

static struct page *pages;
static size_t nr_pages, cap_pages;

static unsigned long tests_passed, tests_failed, checks, check_failures;
static const char *cur_test;
static unsigned long cur_failures;

static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;

static unsigned int rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state >> 11;
}

static void fail(const char *fmt, ...)
{
	va_list ap;

	cur_failures++;
	check_failures++;
	if (cur_failures > 10)
		return;
	fprintf(stderr, "  FAIL [%s] ", cur_test);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

#define CHECK(cond, ...) do {			\
		checks++;			\
		if (!(cond))			\
			fail(__VA_ARGS__);	\
	} while (0)

/* The decoder cases KUnit runs too */
#define ZBW_CASE_CHECK(env, cond, ...) CHECK(cond, __VA_ARGS__)
#include <linux/slab.h>
#include "../../../lib/zbewalgo/tests/zbewalgo_cases.h"
#include "../../../lib/zbewalgo/tests/zbewalgo_test_dict.h"

static void begin(const char *name)
{
	cur_test = name;
	cur_failures = 0;
}

static void end(void)
{
	if (cur_failures) {
		tests_failed++;
		printf("not ok - %s (%lu failures)\n", cur_test, cur_failures);
	} else {
		tests_passed++;
		printf("ok - %s\n", cur_test);
	}
	fflush(stdout);
}

/* Exact-size copies: ASan flags any access beyond @len. */
static unsigned char *dup_exact(const void *p, size_t len)
{
	unsigned char *d = malloc(len ? len : 1);

	if (!d)
		abort();
	memcpy(d, p, len);
	return d;
}

static void add_page(const void *data, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (nr_pages == cap_pages) {
		cap_pages = cap_pages ? cap_pages * 2 : 256;
		pages = realloc(pages, cap_pages * sizeof(*pages));
		if (!pages)
			abort();
	}
	pages[nr_pages].data = dup_exact(data, len);
	pages[nr_pages].len = len;
	va_start(ap, fmt);
	vsnprintf(pages[nr_pages].name, sizeof(pages[0].name), fmt, ap);
	va_end(ap);
	nr_pages++;
}

static void load_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char buf[PAGE];
	size_t n, off = 0;

	if (!f)
		return;
	while ((n = fread(buf, 1, PAGE, f)) > 0) {
		add_page(buf, n, "%s@%zu", strrchr(path, '/') + 1, off);
		off += n;
	}
	fclose(f);
}

static void gen_page(const void *data, size_t len, const char *name)
{
	add_page(data, len, "%s", name);
}

/* Every step alone: exact-size buffers both ways. */
static void test_steps(void)
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

/* Reference BWT: rotations sorted by qsort on a doubled copy. */
static const unsigned char *ref_text;
static size_t ref_n;

static int ref_rot_cmp(const void *a, const void *b)
{
	return memcmp(ref_text + *(const unsigned int *)a,
		      ref_text + *(const unsigned int *)b, ref_n);
}

/* Writes p (as a varint) and L like the bwt step; returns the length. */
static size_t ref_bwt(const unsigned char *s, size_t n, unsigned char *out)
{
	unsigned char *t = malloc(2 * n);
	unsigned int *rot = malloc(n * sizeof(*rot));
	size_t i, p = 0, h;

	memcpy(t, s, n);
	memcpy(t + n, s, n);
	ref_text = t;
	ref_n = n;
	for (i = 0; i < n; i++)
		rot[i] = i;
	qsort(rot, n, sizeof(*rot), ref_rot_cmp);
	/* p: rotations smaller than rotation 0 */
	for (i = 1; i < n; i++)
		p += memcmp(t + i, t, n) < 0;
	h = zbw_put_len(out, out + 3, p);
	for (i = 0; i < n; i++)
		out[h + i] = s[(rot[i] + n - 1) % n];
	free(rot);
	free(t);
	return h + n;
}

static void check_bwt(const struct zbewalgo_step *bwt, void *scratch,
		      const unsigned char *s, size_t n, const char *what)
{
	unsigned char *want = malloc(n + 3), *got = malloc(n + 3);
	size_t wl = ref_bwt(s, n, want);
	int gl = bwt->encode(s, n, got, n + 3, scratch);

	CHECK(gl == (int)wl && !memcmp(got, want, wl),
	      "%s/%zu: bwt output differs from the reference (%d, %zu)",
	      what, n, gl, wl);
	free(got);
	free(want);
}

/*
 * The bwt step against a plain sort of the rotations, on the inputs that
 * stress its sort: periodic and nearly periodic ones, runs, repeated
 * blocks (which take the prefix-doubling path), inputs of 1 to 8 bytes
 * and the largest stage of a page.
 */
static void test_bwt_reference(void)
{
	static const size_t sizes[] = { 1, 2, 3, 4, 5, 7, 8, 9, 16, 100, 1000,
					4096, 6208 };
	static const unsigned int periods[] = { 1, 2, 3, 4, 7, 8, 9, 64, 129,
						1000 };
	const struct zbewalgo_step *bwt = zbewalgo_step_get(ZBEWALGO_STEP_BWT);
	unsigned int cap = zbewalgo_stage_cap(PAGE);
	void *scratch = malloc(zbewalgo_steps_scratch_size(cap));
	unsigned char *s = malloc(cap), blk[4][200];
	unsigned int si, k, j, per, nb, bl;
	size_t n, i;
	char what[64];

	begin("bwt against a reference sort");
	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		n = sizes[si];
		for (k = 0; k < ARRAY_SIZE(periods); k++) {
			per = periods[k];
			for (i = 0; i < n; i++)
				s[i] = (i % per) * 37 % 5;
			snprintf(what, sizeof(what), "period %u", per);
			check_bwt(bwt, scratch, s, n, what);
			s[n / 2] ^= 0x80;
			snprintf(what, sizeof(what), "period %u, one off", per);
			check_bwt(bwt, scratch, s, n, what);
		}
		memset(s, 0, n);
		s[n - 1] = 1;
		check_bwt(bwt, scratch, s, n, "zeros, one");
		for (i = 0; i < n; i++)
			s[i] = __builtin_popcount(i) & 1;
		check_bwt(bwt, scratch, s, n, "thue-morse");
		/* runs of random length of three values */
		for (i = 0; i < n; ) {
			unsigned int len = 1 + rnd() % 300, c = rnd() % 3;

			for (j = 0; j < len && i < n; j++)
				s[i++] = c;
		}
		check_bwt(bwt, scratch, s, n, "runs");
		/* repeated blocks with runs and noise in between */
		for (k = 0; k < 8; k++) {
			nb = 1 + rnd() % 4;
			bl = 1 + rnd() % 200;
			for (j = 0; j < nb * bl; j++)
				blk[j / bl][j % bl] = rnd() % (k & 1 ? 3 : 256);
			for (i = 0; i < n; ) {
				unsigned int r = rnd() % 10, c = rnd() % 3;

				for (j = 0; r < 7 && j < bl && i < n; j++)
					s[i++] = blk[r % nb][j];
				for (j = 0; r >= 7 && r < 9 && j < 150 && i < n;
				     j++)
					s[i++] = c;
				if (r == 9 && i < n)
					s[i++] = rnd();
			}
			check_bwt(bwt, scratch, s, n, "blocks");
		}
		/*
		 * Units "?b" Y "kk" "bba" ... with Y 140 bytes of c..f: the
		 * rows of "b" Y agree on too many bytes for the quicksort,
		 * and the rows of "bb" Y come from them as a group.  The
		 * smallest row of "b" Y (the unit with "AA") follows an 'a',
		 * so the scan that places the "bb" Y rows stops before it.
		 */
		for (j = 0; j < 140; j++)
			blk[0][j] = 'c' + rnd() % 4;
		for (i = 0, k = 0; i + 160 <= n; k++) {
			s[i++] = k ? 'b' : 'a';
			s[i++] = 'b';
			memcpy(s + i, blk[0], 140);
			i += 140;
			s[i++] = 'A' + k % 26;
			s[i++] = 'A' + k / 26;
			memcpy(s + i, "bba", 3);
			i += 3;
			for (j = 0; j < 3; j++)
				s[i++] = 'c' + rnd() % 20;
		}
		while (i < n)
			s[i++] = 'z';
		check_bwt(bwt, scratch, s, n, "repeats after runs");
		for (i = 0; i < n; i++)
			s[i] = rnd();
		check_bwt(bwt, scratch, s, n, "random");
	}
	free(s);
	free(scratch);
	end();
}

/* The mtf step against a plain list, on every page. */
static void test_mtf_reference(void)
{
	const struct zbewalgo_step *mtf = zbewalgo_step_get(ZBEWALGO_STEP_MTF);
	unsigned int cap = zbewalgo_stage_cap(PAGE);
	void *scratch = malloc(zbewalgo_steps_scratch_size(cap));
	unsigned char list[256], *got, *want;
	size_t i, j, k;
	int n;

	begin("mtf against a reference list");
	for (i = 0; i < nr_pages; i++) {
		const struct page *pg = &pages[i];

		want = malloc(pg->len + 1);
		got = malloc(pg->len + 1);
		for (k = 0; k < 256; k++)
			list[k] = k;
		for (k = 0; k < pg->len; k++) {
			for (j = 0; list[j] != pg->data[k]; j++)
				;
			want[k] = j;
			memmove(list + 1, list, j);
			list[0] = pg->data[k];
		}
		n = mtf->encode(pg->data, pg->len, got, pg->len, scratch);
		CHECK(n == (int)pg->len && !memcmp(got, want, pg->len),
		      "%s: mtf output differs from the reference", pg->name);
		free(got);
		free(want);
	}
	free(scratch);
	end();
}

/*
 * A length-preserving step against the format's definition: encoding @s
 * gives @want, decoding @want gives @s, and one byte less room fails with
 * -ENOSPC (encode) or -EINVAL (decode).
 */
static void check_definition(const struct zbewalgo_step *st,
			     const unsigned char *s, const unsigned char *want,
			     size_t n, const char *what)
{
	unsigned char *got = malloc(n + 1);
	int r;

	r = st->encode(s, n, got, n, NULL);
	CHECK(r == (int)n && !memcmp(got, want, n),
	      "%s/%zu: %s output differs from the definition", what, n,
	      sname(st));
	r = st->decode(want, n, got, n, NULL);
	CHECK(r == (int)n && !memcmp(got, s, n), "%s/%zu: %s decode differs",
	      what, n, sname(st));
	if (n) {
		CHECK(st->encode(s, n, got, n - 1, NULL) == -ENOSPC,
		      "%s/%zu: %s encode ignores dcap", what, n, sname(st));
		CHECK(st->decode(want, n, got, n - 1, NULL) == -EINVAL,
		      "%s/%zu: %s decode ignores dcap", what, n, sname(st));
	}
	free(got);
}

/*
 * Runs @check for word sizes 2, 4 and 8 on the test pages, on every length
 * up to 200 of random bytes (all tails of the block loops) and on every
 * prefix of words whose differences borrow through every byte.
 */
static void check_word_step(void (*check)(unsigned int w,
					  const unsigned char *s, size_t n,
					  const char *what))
{
	static const unsigned char edge[] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80,
		0x00, 0x00, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00,
		0x42,
	};
	unsigned char buf[200];
	unsigned int w;
	size_t i, n;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = rnd();
	for (w = 2; w <= 8; w *= 2) {
		for (i = 0; i < nr_pages; i++)
			check(w, pages[i].data, pages[i].len, pages[i].name);
		for (n = 0; n <= sizeof(buf); n++)
			check(w, buf, n, "random");
		for (n = 0; n <= sizeof(edge); n++)
			check(w, edge, n, "edge");
	}
}

/*
 * delta2/4/8: words as little-endian integers, each replaced by its
 * difference from the previous one modulo 2^(8w), built here byte by byte
 * with an explicit borrow so that the check does not share the step's
 * arithmetic.
 */
static void ref_delta(unsigned int w, const unsigned char *s, size_t n,
		      unsigned char *want)
{
	size_t m = n / w, i, j;
	int borrow;

	memcpy(want, s, n);
	for (i = 1; i < m; i++) {
		borrow = 0;
		for (j = 0; j < w; j++) {
			int v = s[i * w + j] - s[(i - 1) * w + j] - borrow;

			borrow = v < 0;
			want[i * w + j] = (unsigned char)(v + 256 * borrow);
		}
	}
}

/* bitshuffle2/4/8: plane j holds byte j of every word, then the n % w tail */
static void ref_bitshuffle(unsigned int w, const unsigned char *s, size_t n,
			   unsigned char *want)
{
	size_t m = n / w, i, j;

	for (i = 0; i < m; i++)
		for (j = 0; j < w; j++)
			want[j * m + i] = s[i * w + j];
	memcpy(want + m * w, s + m * w, n - m * w);
}

static int delta_id(unsigned int w)
{
	return w == 2 ? ZBEWALGO_STEP_DELTA2 :
	       w == 4 ? ZBEWALGO_STEP_DELTA4 : ZBEWALGO_STEP_DELTA8;
}

static int bitshuffle_id(unsigned int w)
{
	return w == 2 ? ZBEWALGO_STEP_BITSHUFFLE2 :
	       w == 4 ? ZBEWALGO_STEP_BITSHUFFLE4 : ZBEWALGO_STEP_BITSHUFFLE8;
}

static void check_delta(unsigned int w, const unsigned char *s, size_t n,
			const char *what)
{
	unsigned char *want = malloc(n + 1);

	ref_delta(w, s, n, want);
	check_definition(zbewalgo_step_get(delta_id(w)), s, want, n, what);
	free(want);
}

static void check_bitshuffle(unsigned int w, const unsigned char *s,
			     size_t n, const char *what)
{
	unsigned char *want = malloc(n + 1);

	ref_bitshuffle(w, s, n, want);
	check_definition(zbewalgo_step_get(bitshuffle_id(w)), s, want, n,
			 what);
	free(want);
}

/* The engine's one pass for delta@w then bitshuffle@w: both definitions */
static void check_delta_bitshuffle(unsigned int w, const unsigned char *s,
				   size_t n, const char *what)
{
	const u8 ids[2] = { delta_id(w), bitshuffle_id(w) };
	const struct zbewalgo_step *st = zbw_fused_step(ids, 0, 2);
	unsigned char *d = malloc(n + 1), *want = malloc(n + 1);

	CHECK(st, "delta%u-bitshuffle%u: not run as one pass", w, w);
	if (st) {
		ref_delta(w, s, n, d);
		ref_bitshuffle(w, d, n, want);
		check_definition(st, s, want, n, what);
	}
	free(d);
	free(want);
}

static void test_word_steps_reference(void)
{
	begin("delta against its definition");
	check_word_step(check_delta);
	end();
	begin("bitshuffle against its definition");
	check_word_step(check_bitshuffle);
	end();
	begin("delta then bitshuffle in one pass against both definitions");
	check_word_step(check_delta_bitshuffle);
	end();
}

/* LEB128 as the format document defines its varints */
static size_t put_varint(unsigned char *p, size_t v)
{
	size_t n = 0;

	do {
		p[n++] = (v & 0x7f) | (v > 0x7f ? 0x80 : 0);
		v >>= 7;
	} while (v);
	return n;
}

static bool word_is_zero(const unsigned char *p)
{
	return !(p[0] | p[1] | p[2] | p[3]);
}

/*
 * Decoding @enc (@len bytes, in a buffer of exactly that size) gives the
 * @n bytes @s; one byte less room, one byte less input and one byte more
 * input are all rejected.
 */
static void check_decode_exact(const struct zbewalgo_step *st,
			       const unsigned char *enc, size_t len,
			       const unsigned char *s, size_t n, void *scratch,
			       const char *what)
{
	unsigned char *out = malloc(n + 1), *in = dup_exact(enc, len);
	int r;

	r = st->decode(in, len, out, n, scratch);
	CHECK(r == (int)n && !memcmp(out, s, n), "%s/%zu: %s decode differs",
	      what, n, sname(st));
	if (n)
		CHECK(st->decode(in, len, out, n - 1, scratch) == -EINVAL,
		      "%s/%zu: %s decode ignores dcap", what, n, sname(st));
	CHECK(st->decode(in, len - 1, out, n, scratch) == -EINVAL,
	      "%s/%zu: truncated %s input accepted", what, n, sname(st));
	free(in);
	in = malloc(len + 1);
	memcpy(in, enc, len);
	in[len] = 0;
	CHECK(st->decode(in, len + 1, out, n, scratch) == -EINVAL,
	      "%s/%zu: %s input with a trailing byte accepted", what, n,
	      sname(st));
	free(in);
	free(out);
}

/*
 * sieve4 against the format document: varint n, the run lengths of zero
 * and non-zero words (starting with zero words), the non-zero words, the
 * tail.  One byte less room fails on both sides.
 */
static void check_sieve(const unsigned char *s, size_t n, const char *what)
{
	const struct zbewalgo_step *st =
		zbewalgo_step_get(ZBEWALGO_STEP_SIEVE4);
	size_t m = n / 4, cap = zbewalgo_stage_cap(n), len, i, j;
	unsigned char *want = malloc(cap), *got = malloc(cap);
	bool zero = true;
	int r;

	len = put_varint(want, n);
	for (i = 0; i < m; i = j, zero = !zero) {
		for (j = i; j < m && word_is_zero(s + 4 * j) == zero; j++)
			;
		len += put_varint(want + len, j - i);
	}
	for (i = 0; i < m; i++) {
		if (!word_is_zero(s + 4 * i)) {
			memcpy(want + len, s + 4 * i, 4);
			len += 4;
		}
	}
	memcpy(want + len, s + 4 * m, n % 4);
	len += n % 4;

	r = st->encode(s, n, got, cap, NULL);
	CHECK(r == (int)len && !memcmp(got, want, len),
	      "%s/%zu: sieve4 output differs from the definition", what, n);
	CHECK(st->encode(s, n, got, len - 1, NULL) == -ENOSPC,
	      "%s/%zu: sieve4 encode ignores dcap", what, n);
	check_decode_exact(st, want, len, s, n, NULL, what);
	free(got);
	free(want);
}

/* sieve4 inputs that break one rule of the format each */
static void check_sieve_invalid(void)
{
	static const struct {
		const char *what;
		unsigned int len, dcap;
		unsigned char enc[16];
	} cases[] = {
		{ "empty run after the first", 9, 12,
		  { 12, 1, 0, 1, 1, 1, 2, 3, 4 } },
		{ "runs beyond n / 4", 11, 12,
		  { 8, 1, 2, 1, 2, 3, 4, 5, 6, 7, 8 } },
		{ "zero word among the words", 11, 12,
		  { 8, 0, 2, 1, 2, 3, 4, 0, 0, 0, 0 } },
		{ "trailing byte", 8, 12, { 8, 1, 1, 1, 2, 3, 4, 9 } },
		{ "tail missing", 7, 12, { 9, 1, 1, 1, 2, 3, 4 } },
		{ "n beyond dcap", 8, 8, { 9, 1, 1, 1, 2, 3, 4, 5 } },
		{ "non-minimal varint", 8, 12, { 0x88, 0, 1, 1, 1, 2, 3, 4 } },
	};
	const struct zbewalgo_step *st =
		zbewalgo_step_get(ZBEWALGO_STEP_SIEVE4);
	static const unsigned char ok[] = { 8, 1, 1, 1, 2, 3, 4 };
	static const unsigned char page[] = { 0, 0, 0, 0, 1, 2, 3, 4 };
	unsigned char out[12], *in;
	unsigned int c;
	int r;

	in = dup_exact(ok, sizeof(ok));
	r = st->decode(in, sizeof(ok), out, sizeof(out), NULL);
	CHECK(r == 8 && !memcmp(out, page, 8), "sieve4: valid stream: %d", r);
	free(in);
	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		in = dup_exact(cases[c].enc, cases[c].len);
		r = st->decode(in, cases[c].len, out, cases[c].dcap, NULL);
		CHECK(r == -EINVAL, "sieve4 %s: got %d, want -EINVAL",
		      cases[c].what, r);
		free(in);
	}
}

static void test_sieve_reference(void)
{
	unsigned char buf[203];
	size_t i, n, k;

	begin("sieve4 against its definition");
	for (i = 0; i < nr_pages; i++)
		check_sieve(pages[i].data, pages[i].len, pages[i].name);
	/* zero words alone, in runs, first, last; every tail length */
	for (k = 0; k < 6; k++) {
		for (i = 0; i < sizeof(buf); i++)
			buf[i] = rnd();
		for (i = 0; i + 4 <= sizeof(buf); i += 4) {
			if (k == 1 || (k > 1 && rnd() % (k + 1)) ||
			    (k == 5 && i < 40))
				memset(buf + i, 0, 4);
		}
		for (n = 0; n <= sizeof(buf); n++)
			check_sieve(buf, n, "zero words");
	}
	check_sieve_invalid();
	end();
}

/*
 * huffman4 against the format document: the encoder's output is a varint
 * n and four sections, each the quarter itself or a huffman step encoding
 * of it; streams built here by hand decode, and broken ones do not.
 */
static void check_huffman4(const unsigned char *s, size_t n, void *scratch,
			   const char *what)
{
	const struct zbewalgo_step *st =
		zbewalgo_step_get(ZBEWALGO_STEP_HUFFMAN4);
	const struct zbewalgo_step *huf =
		zbewalgo_step_get(ZBEWALGO_STEP_HUFFMAN);
	size_t cap = zbewalgo_stage_cap(n) + 16, pos, q, qlen, off = 0;
	unsigned char *enc = malloc(cap), *out = malloc(n + 1), *in;
	u32 v, got_n;
	int r, k;

	r = st->encode(s, n, enc, cap, scratch);
	CHECK(r > 0, "%s/%zu: huffman4 encode: %d", what, n, r);
	if (r <= 0)
		goto out;
	k = zbw_get_len(enc, enc + r, &got_n);
	CHECK(k && got_n == n, "%s/%zu: huffman4 length", what, n);
	pos = k;
	for (q = 0; q < 4 && k; q++) {
		qlen = q < 3 ? n / 4 : n - 3 * (n / 4);
		k = zbw_get_len(enc + pos, enc + r, &v);
		CHECK(k && pos + k + (v >> 1) <= (size_t)r,
		      "%s/%zu: huffman4 section %zu header", what, n, q);
		if (!k || pos + k + (v >> 1) > (size_t)r)
			break;
		pos += k;
		if (v & 1) {
			in = dup_exact(enc + pos, v >> 1);
			CHECK(huf->decode(in, v >> 1, out, qlen, scratch) ==
			      (int)qlen && !memcmp(out, s + off, qlen),
			      "%s/%zu: huffman4 section %zu is not the huffman code of its quarter",
			      what, n, q);
			free(in);
		} else {
			CHECK((v >> 1) == qlen && !memcmp(enc + pos, s + off, qlen),
			      "%s/%zu: stored huffman4 section %zu differs",
			      what, n, q);
		}
		pos += v >> 1;
		off += qlen;
	}
	CHECK(pos == (size_t)r, "%s/%zu: huffman4 output has %d bytes, sections end at %zu",
	      what, n, r, pos);
	check_decode_exact(st, enc, r, s, n, scratch, what);
out:
	free(out);
	free(enc);
}

/* Hand-built huffman4 streams: all stored, one section coded, broken. */
static void check_huffman4_crafted(void *scratch)
{
	const struct zbewalgo_step *st =
		zbewalgo_step_get(ZBEWALGO_STEP_HUFFMAN4);
	const struct zbewalgo_step *huf =
		zbewalgo_step_get(ZBEWALGO_STEP_HUFFMAN);
	unsigned char s[403], enc[1024], code[512], out[403], *in;
	size_t n = sizeof(s), pos, q, qlen, off, bad;
	int r, h;

	for (off = 0; off < n; off++)
		s[off] = off < 300 ? 'a' + rnd() % 3 : rnd();
	/* bad: 0 valid, 1 stored length off by one, 2 coded length short */
	for (bad = 0; bad < 3; bad++) {
		pos = put_varint(enc, n);
		for (q = 0, off = 0; q < 4; q++, off += qlen) {
			qlen = q < 3 ? n / 4 : n - 3 * (n / 4);
			if (q == 1) {
				h = huf->encode(s + off, qlen - (bad == 2),
						code, sizeof(code), scratch);
				CHECK(h > 0 && h < (int)qlen,
				      "huffman step on a quarter: %d", h);
				pos += put_varint(enc + pos,
						  (size_t)h << 1 | 1);
				memcpy(enc + pos, code, h);
				pos += h;
				continue;
			}
			pos += put_varint(enc + pos,
					  (qlen + (bad == 1 && q == 2)) << 1);
			memcpy(enc + pos, s + off, qlen);
			pos += qlen + (bad == 1 && q == 2);
		}
		in = dup_exact(enc, pos);
		r = st->decode(in, pos, out, n, scratch);
		if (!bad)
			CHECK(r == (int)n && !memcmp(out, s, n),
			      "huffman4 hand-built stream: %d", r);
		else
			CHECK(r == -EINVAL,
			      "huffman4 broken stream %zu accepted: %d", bad, r);
		free(in);
	}
}

static void test_huffman4_reference(void)
{
	unsigned int cap = zbewalgo_stage_cap(PAGE);
	void *scratch = malloc(zbewalgo_steps_scratch_size(cap));
	unsigned char buf[300];
	size_t i, n;

	begin("huffman4 against its definition");
	for (i = 0; i < nr_pages; i++)
		check_huffman4(pages[i].data, pages[i].len, scratch,
			       pages[i].name);
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = i < 150 ? rnd() % 4 : rnd();
	for (n = 0; n <= sizeof(buf); n++)
		check_huffman4(buf, n, scratch, "skewed");
	check_huffman4_crafted(scratch);
	free(scratch);
	end();
}

/*
 * huffman mode 3 written by hand from the format document: canonical codes
 * of a predefined table, assigned here independently of lib/zbewalgo.
 */
struct bitw {
	unsigned char *p;
	size_t bit;
};

static void put_bits(struct bitw *w, unsigned int v, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++, w->bit++)
		if (v >> i & 1)
			w->p[w->bit / 8] |= 1u << (w->bit % 8);
}

/* Code of symbol @s: lengths by (length, symbol), counting up */
static unsigned int canon_code(const u8 *len, unsigned int s)
{
	unsigned int code = 0, l, t;

	for (l = 1; l <= len[s]; l++) {
		for (t = 0; t < 256; t++) {
			if (len[t] != l)
				continue;
			if (t == s && l == len[s])
				return code;
			code++;
		}
		code <<= 1;
	}
	return ~0u;
}

/* Stream of @n < 128 symbols @msg coded with table @tab; *@pad bits */
static size_t huf_table_stream(unsigned int tab, const unsigned char *msg,
			       size_t n, unsigned char *out, unsigned int *pad)
{
	struct bitw w = { out + 1, 0 };
	unsigned int c, l, i;
	size_t k;

	memset(out, 0, 128);
	out[0] = n;	/* varint n < 128, one stream */
	put_bits(&w, 3 | tab << 2, 5);
	for (k = 0; k < n; k++) {
		l = zbw_huf_tables[tab][msg[k]];
		c = canon_code(zbw_huf_tables[tab], msg[k]);
		for (i = l; i-- > 0;)	/* most significant bit first */
			put_bits(&w, c >> i & 1, 1);
	}
	*pad = -w.bit & 7;
	return 1 + (w.bit + 7) / 8;
}

static void test_huffman_tables(void)
{
	static const char text[] =
		"The quick brown fox jumps over the lazy dog; it is not amused.";
	const struct zbewalgo_step *huf = &zbewalgo_step_HUFFMAN;
	unsigned char buf[128], out[128], skew[1000], *in;
	size_t n = strlen(text), len, i;
	void *scratch = malloc(huf->scratch_size(PAGE));
	unsigned int t, pad;
	int ret;

	begin("huffman predefined tables (mode 3)");
	for (t = 0; t < ZBW_HUF_NR_TABLES; t++) {
		len = huf_table_stream(t, (const u8 *)text, n, buf, &pad);
		in = dup_exact(buf, len);
		ret = huf->decode(in, len, out, sizeof(out), scratch);
		CHECK(ret == (int)n && !memcmp(out, text, n),
		      "table %u: hand-made stream decodes to %d", t, ret);
		ret = huf->decode(in, len - 1, out, sizeof(out), scratch);
		CHECK(ret == -EINVAL, "table %u: truncated: %d", t, ret);
		free(in);
		if (pad) {
			/* a padding bit set: the stream does not end right */
			buf[len - 1] |= 0x80;
			in = dup_exact(buf, len);
			ret = huf->decode(in, len, out, sizeof(out), scratch);
			CHECK(ret == -EINVAL, "table %u: padding bit: %d", t,
			      ret);
			free(in);
		}
	}

	/* short text: a table beats a fitted code with its header */
	ret = huf->encode((const u8 *)text, n, buf, sizeof(buf), scratch);
	CHECK(ret > 1 && (buf[1] & 3) == 3, "short text: mode %d, %d bytes",
	      ret > 1 ? buf[1] & 3 : -1, ret);
	CHECK(ret > 1 && ret <= (int)huf_table_stream(buf[1] >> 2 & 7,
						      (const u8 *)text, n, out,
						      &pad),
	      "short text: %d bytes, more than its table's stream", ret);
	/* two symbols: a 1-bit fitted code (varints n and m, then mode) */
	for (i = 0; i < sizeof(skew); i++)
		skew[i] = rnd() & 1 ? 'x' : 0xfe;
	in = malloc(200);
	ret = huf->encode(skew, sizeof(skew), in, 200, scratch);
	CHECK(ret > 3 && (in[3] & 3) != 3 && ret < 140,
	      "two symbols: mode %d, %d bytes", ret > 3 ? in[3] & 3 : -1, ret);
	free(in);
	free(scratch);
	end();
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

static void test_lz_crafted(void)
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
static void test_steps_enospc(void)
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

static struct zbewalgo_table *table_of(const char *text)
{
	struct zbewalgo_table *t = calloc(1, sizeof(*t));
	int err = zbewalgo_table_parse(t, text);

	if (err) {
		fprintf(stderr, "bad table %s: %d\n", text, err);
		abort();
	}
	return t;
}

/*
 * The test binary is linked with --wrap for the allocators the library's
 * kvzalloc()/kvmalloc() stand-ins use: while alloc_watch is set, every
 * allocation is counted and its size kept.
 */
static bool alloc_watch, alloc_fail;
static unsigned long alloc_count;
static size_t alloc_last;

void *__real_malloc(size_t size);
void *__real_calloc(size_t nmemb, size_t size);

void *__wrap_malloc(size_t size)
{
	if (alloc_watch) {
		alloc_count++;
		alloc_last = size;
	}
	return __real_malloc(size);
}

void *__wrap_calloc(size_t nmemb, size_t size)
{
	if (alloc_fail)
		return NULL;
	if (alloc_watch) {
		alloc_count++;
		alloc_last = nmemb * size;
	}
	return __real_calloc(nmemb, size);
}

/*
 * zstd's static contexts fail without allocating anything (a workspace
 * too small or misaligned): while zstd_refuse is set, zstd refuses every
 * compression workspace it is given.
 */
static bool zstd_refuse;

ZSTD_CCtx *__real_ZSTD_initStaticCCtx(void *workspace, size_t size);

ZSTD_CCtx *__wrap_ZSTD_initStaticCCtx(void *workspace, size_t size)
{
	return zstd_refuse ? NULL : __real_ZSTD_initStaticCCtx(workspace, size);
}

/*
 * zstd refusing its workspace is no allocation failure: the zstd step's
 * state init says -EINVAL, as the kernel's crypto/zstd.c does, and so does
 * creating a context (what zbewalgo_stream_create() returns); -ENOMEM is
 * for allocations that failed.
 */
static void test_zstd_init_error(void)
{
	const struct zbewalgo_step *zstd = &zbewalgo_step_ZSTD;
	struct zbw_room room = ZBW_ROOM_ANY(PAGE);
	void *state = calloc(1, zstd->state_size(&room));
	struct zbewalgo_ctx *ctx = NULL;
	int ret;

	begin("zstd_init_error");
	zstd_refuse = true;
	CHECK(zstd->state_init(state, &room, NULL) == -EINVAL,
	      "zstd refused its workspace: state init says %d, not -EINVAL",
	      zstd->state_init(state, &room, NULL));
	ret = zbw_ctx_new(PAGE, NULL, 0, true, &ctx);
	CHECK(ret == -EINVAL && !ctx,
	      "zstd refused its workspace: context creation says %d", ret);
	CHECK(!zbewalgo_ctx_create(PAGE), "a context without zstd's");
	zstd_refuse = false;
	CHECK(zstd->state_init(state, &room, NULL) == 0, "zstd state init failed");
	ret = zbw_ctx_new(ZBEWALGO_MAX_INPUT + 1, NULL, 0, true, &ctx);
	CHECK(ret == -EINVAL && !ctx, "a page too long: %d", ret);
	alloc_fail = true;
	ret = zbw_ctx_new(PAGE, NULL, 0, true, &ctx);
	alloc_fail = false;
	CHECK(ret == -ENOMEM && !ctx, "out of memory: %d", ret);
	ret = zbw_ctx_new(PAGE, NULL, 0, true, &ctx);
	CHECK(!ret && ctx, "context creation failed: %d", ret);
	zbewalgo_ctx_destroy(ctx);
	free(state);
	end();
}

/*
 * What zram's zstd backend allocates per stream for these pages: zstd's
 * contexts for its default level, sized for one page.
 */
static size_t zram_zstd_stream_size(void)
{
	zstd_parameters params = zstd_get_params(3, PAGE);

	return zstd_cctx_workspace_bound(&params.cParams) +
	       zstd_dctx_workspace_bound();
}

/*
 * A stream of 4 KiB pages: one allocation of zbewalgo_ctx_size() bytes,
 * none while compressing and decompressing, no more than zram's zstd
 * backend takes per stream, whatever the table.
 */
static void test_context_memory(void)
{
	size_t size = zbewalgo_ctx_size(PAGE), dsize, i;
	unsigned char *dst = malloc(ZBEWALGO_STORED_SIZE(PAGE));
	unsigned char *out = malloc(PAGE);
	struct zbewalgo_ctx *ctx;

	begin("context memory: one allocation, no more than zstd's, none per page");
	alloc_count = 0;
	alloc_watch = true;
	ctx = zbewalgo_ctx_create(PAGE);
	alloc_watch = false;
	CHECK(ctx && alloc_count == 1 && alloc_last == size,
	      "create: %lu allocations, last %zu bytes, want 1 of %zu",
	      alloc_count, alloc_last, size);
	CHECK(size <= zram_zstd_stream_size(),
	      "context of %zu bytes exceeds zram's zstd stream (%zu)",
	      size, zram_zstd_stream_size());
	dsize = zbewalgo_decompress_scratch_size(PAGE);
	CHECK(dsize <= size, "decompression scratch %zu > context %zu",
	      dsize, size);
	printf("# context for %u-byte pages: %zu bytes (decompression scratch %zu, zram's zstd stream %zu)\n",
	       PAGE, size, dsize, zram_zstd_stream_size());
	alloc_count = 0;
	alloc_watch = true;
	for (i = 0; ctx && i < nr_pages; i++) {
		size_t dlen = ZBEWALGO_STORED_SIZE(PAGE), olen = PAGE;

		if (zbewalgo_compress(ctx, pages[i].data, pages[i].len, dst,
				      &dlen) ||
		    zbewalgo_ctx_decompress(ctx, dst, dlen, out, &olen))
			break;
	}
	alloc_watch = false;
	CHECK(i == nr_pages, "page %zu failed", i);
	CHECK(!alloc_count, "%lu allocations while compressing %zu pages",
	      alloc_count, nr_pages);
	zbewalgo_ctx_destroy(ctx);
	free(out);
	free(dst);
	end();
}

/*
 * A context made for one table and level (zbewalgo_ctx_create_for(), a
 * zram device's): one allocation of zbewalgo_ctx_size_for() bytes, less
 * than a context for any table and level, which writes the same bytes for
 * every page and decodes them; pages of steps its table lacks are refused
 * (by zbewalgo_decompress() taken), chains of such steps not tried, and
 * levels and dictionaries it has no room for refused.
 */
static void test_context_for_table(void)
{
	const struct zbewalgo_table *t = zbewalgo_preset_table(1);
	size_t size = zbewalgo_ctx_size_for(PAGE, t, 1, false), i;
	struct zbewalgo_dict *dict = NULL;
	unsigned char *a = malloc(ZBEWALGO_STORED_SIZE(PAGE));
	unsigned char *b = malloc(ZBEWALGO_STORED_SIZE(PAGE));
	unsigned char *out = malloc(PAGE);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	struct zbewalgo_table lz = { .nr = 1 };
	struct zbewalgo_ctx *ctx, *any = zbewalgo_ctx_create(PAGE);
	unsigned long differ = 0, failed = 0;
	int err;

	begin("a context for one table");
	alloc_count = 0;
	alloc_watch = true;
	ctx = zbewalgo_ctx_create_for(PAGE, t, 1, false);
	alloc_watch = false;
	CHECK(ctx && alloc_count == 1 && alloc_last == size,
	      "create: %lu allocations, last %zu bytes, want 1 of %zu",
	      alloc_count, alloc_last, size);
	/* zstd -1's tables, not zstd 3's */
	CHECK(size < zbewalgo_ctx_size_for(PAGE, t, 1, true) &&
	      zbewalgo_ctx_size_for(PAGE, t, 1, true) <= zbewalgo_ctx_size(PAGE),
	      "level 1: %zu bytes, %zu with a dictionary, %zu for any",
	      size, zbewalgo_ctx_size_for(PAGE, t, 1, true),
	      zbewalgo_ctx_size(PAGE));
	/* 64 KiB pages: bwt's scratch outgrows what zstd can lend */
	CHECK(zbewalgo_ctx_size_for(65536, t, 0, true) <
	      zbewalgo_ctx_size(65536), "64 KiB pages: %zu bytes, %zu for any table",
	      zbewalgo_ctx_size_for(65536, t, 0, true), zbewalgo_ctx_size(65536));
	CHECK(!zbewalgo_ctx_create_for(PAGE, t, ZBEWALGO_MAX_LEVEL + 1, false),
	      "a context for level %d", ZBEWALGO_MAX_LEVEL + 1);
	if (!ctx || !any)
		abort();
	err = zbewalgo_dict_create(zbw_test_dict, sizeof(zbw_test_dict), 1,
				   PAGE, &dict);
	CHECK(!err, "dictionary: %d", err);
	err = zbewalgo_ctx_set_level(ctx, 2);
	CHECK(err == -EINVAL, "level 2 without room: %d", err);
	err = zbewalgo_ctx_set_dict(ctx, dict);
	CHECK(err == -EINVAL, "a dictionary without room: %d", err);
	CHECK(!zbewalgo_ctx_set_level(ctx, 1), "its own level refused");
	zbewalgo_ctx_set_level(any, 1);
	zbewalgo_ctx_set_table(any, t);
	for (i = 0; i < nr_pages; i++) {
		size_t la = ZBEWALGO_STORED_SIZE(PAGE), lb = la, olen = PAGE;

		if (zbewalgo_compress(ctx, pages[i].data, pages[i].len, a, &la) ||
		    zbewalgo_compress(any, pages[i].data, pages[i].len, b, &lb) ||
		    zbewalgo_ctx_decompress(ctx, a, la, out, &olen) ||
		    olen != pages[i].len || memcmp(out, pages[i].data, olen))
			failed++;
		else if (la != lb || memcmp(a, b, la))
			differ++;
	}
	CHECK(!failed && !differ, "%lu pages failed, %lu differ", failed,
	      differ);

	/* lz is not in its table: not tried, not decoded */
	lz.comb[0].nr_steps = 1;
	lz.comb[0].ids[0] = ZBEWALGO_STEP_LZ;
	zbewalgo_ctx_set_table(any, &lz);
	zbewalgo_ctx_set_table(ctx, &lz);
	for (i = 0; i < nr_pages; i++) {
		size_t la = ZBEWALGO_STORED_SIZE(PAGE), lb = la, olen = PAGE;

		if (zbewalgo_compress(any, pages[i].data, pages[i].len, b, &lb) ||
		    zbewalgo_ctx_last_result(any)->stored)
			continue;
		err = zbewalgo_ctx_decompress(ctx, b, lb, out, &olen);
		CHECK(err == -EINVAL, "%s: lz page decoded with %d", pages[i].name,
		      err);
		olen = PAGE;
		err = zbewalgo_decompress(b, lb, out, &olen, scratch);
		CHECK(!err && olen == pages[i].len, "%s: lz page not decoded: %d",
		      pages[i].name, err);
		err = zbewalgo_compress(ctx, pages[i].data, pages[i].len, a, &la);
		CHECK(!err && zbewalgo_ctx_last_result(ctx)->stored,
		      "%s: lz tried without room (%d)", pages[i].name, err);
		break;
	}
	CHECK(i < nr_pages, "no page lz compresses");
	zbewalgo_dict_destroy(dict);
	zbewalgo_ctx_destroy(any);
	zbewalgo_ctx_destroy(ctx);
	free(scratch);
	free(out);
	free(b);
	free(a);
	end();
	printf("#   %zu bytes for level 1, %zu for any table and level (64 KiB pages: %zu, %zu)\n",
	       size, zbewalgo_ctx_size(PAGE),
	       zbewalgo_ctx_size_for(65536, t, 0, true),
	       zbewalgo_ctx_size(65536));
}

/* Compress and decompress every page with exact-size buffers. */
static unsigned long long roundtrip_all(struct zbewalgo_ctx *ctx,
					unsigned long *stored)
{
	size_t scratch_len = zbewalgo_decompress_scratch_size(PAGE);
	void *scratch = malloc(scratch_len);
	unsigned long long total = 0;
	size_t i;

	for (i = 0; i < nr_pages; i++) {
		const struct page *pg = &pages[i];
		size_t dlen = ZBEWALGO_STORED_SIZE(pg->len), olen = pg->len;
		unsigned char *dst = malloc(dlen), *c, *out;
		int err;

		err = zbewalgo_compress(ctx, pg->data, pg->len, dst, &dlen);
		CHECK(!err, "%s: compress failed %d", pg->name, err);
		if (err) {
			free(dst);
			continue;
		}
		CHECK(dlen <= ZBEWALGO_STORED_SIZE(pg->len),
		      "%s: %zu bytes exceeds the stored size", pg->name, dlen);
		if (zbewalgo_ctx_last_result(ctx)->stored)
			(*stored)++;
		total += dlen;
		c = dup_exact(dst, dlen);
		out = malloc(olen ? olen : 1);
		err = zbewalgo_decompress(c, dlen, out, &olen, scratch);
		CHECK(!err && olen == pg->len && !memcmp(out, pg->data, olen),
		      "%s: round trip failed (err %d, len %zu)", pg->name, err,
		      olen);
		free(out);
		free(c);
		free(dst);
	}
	free(scratch);
	return total;
}

/* The level 3 table holds every chain of the other levels. */
static void test_preset_combinations(void)
{
	const struct zbewalgo_table *def =
		zbewalgo_preset_table(ZBEWALGO_MAX_LEVEL);
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	struct zbewalgo_params params;
	char name[160], comb[100];
	unsigned long long in = 0;
	unsigned int i;
	size_t p;

	/* Every chain sees every page, random ones too. */
	zbewalgo_default_params(&params, PAGE);
	params.store_entropy = 0;
	zbewalgo_ctx_set_params(ctx, &params);
	for (p = 0; p < nr_pages; p++)
		in += pages[p].len;
	for (i = 0; i < def->nr; i++) {
		struct zbewalgo_table t = { .nr = 1 };
		unsigned long stored = 0;
		unsigned long long out;

		t.comb[0] = def->comb[i];
		zbewalgo_combination_format(&t.comb[0], comb, sizeof(comb));
		snprintf(name, sizeof(name), "combination %s round trip", comb);
		begin(name);
		zbewalgo_ctx_set_table(ctx, &t);
		out = roundtrip_all(ctx, &stored);
		end();
		printf("#   %-40s ratio %.3f, %lu of %zu pages stored\n", comb,
		       (double)in / out, stored, nr_pages);
	}
	zbewalgo_ctx_destroy(ctx);
}

static void test_default_table(void)
{
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	unsigned long stored = 0;
	unsigned long long in = 0, out;
	size_t p;

	for (p = 0; p < nr_pages; p++)
		in += pages[p].len;
	begin("default table round trip");
	out = roundtrip_all(ctx, &stored);
	end();
	printf("#   default table ratio %.3f, %lu of %zu pages stored\n",
	       (double)in / out, stored, nr_pages);
	zbewalgo_ctx_destroy(ctx);
}

/*
 * Corrupted pages (lib/zbewalgo/tests/zbewalgo_cases.h, which KUnit runs
 * too), compressed by each chain of the level-3 table alone and by the
 * whole table: every truncation is rejected, a corrupted page decodes to
 * an error or a page no longer than the buffer.  Nothing outside the
 * buffers may be touched, which ASan checks.
 */
static void test_corruption(void)
{
	const struct zbewalgo_table *def =
		zbewalgo_preset_table(ZBEWALGO_MAX_LEVEL);
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	struct zbw_case_stats st = { 0 };
	unsigned int ci;
	u32 state = 1;
	size_t i;

	begin("truncated and bit-flipped pages");
	for (ci = 0; ci <= def->nr; ci++) {
		struct zbewalgo_table t = { .nr = 1 };

		if (ci < def->nr) {
			t.comb[0] = def->comb[ci];
			zbewalgo_ctx_set_table(ctx, &t);
		} else {
			zbewalgo_ctx_set_table(ctx, def);
		}
		for (i = ci; i < nr_pages; i += 3) {
			const struct page *pg = &pages[i];
			struct zbw_case_page cp = { pg->data, pg->len, pg->name };
			size_t clen = ZBEWALGO_STORED_SIZE(PAGE);
			unsigned char *c = malloc(clen), *exact;

			if (zbewalgo_compress(ctx, pg->data, pg->len, c, &clen))
				abort();
			exact = dup_exact(c, clen);
			zbw_case_corrupted(NULL, &cp, exact, clen, scratch, PAGE,
					   24, &state, &st);
			free(exact);
			free(c);
		}
	}
	end();
	printf("#   %lu truncations rejected, %lu of %lu corruptions detected\n",
	       st.cuts, st.detected, st.flips);
	free(scratch);
	zbewalgo_ctx_destroy(ctx);
}

/*
 * One encoding per page (zbewalgo_cases.h): a compressed page with a
 * byte appended is not a page.  Stored pages (random, and short ones no
 * chain shrinks) are checked first, every kind of page after them.
 */
static void test_trailing_bytes(void)
{
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	static const size_t lens[] = { 0, 1, 100, PAGE };
	unsigned char page[PAGE], c[ZBEWALGO_STORED_SIZE(PAGE)];
	unsigned long stored = 0;
	u32 state = 3;
	size_t i, k;

	begin("a page with trailing bytes is rejected");
	for (i = 0; i < PAGE; i++)
		page[i] = rnd();
	for (k = 0; k < nr_pages + 4; k++) {
		struct zbw_case_page cp = {
			k < 4 ? page : pages[k - 4].data,
			k < 4 ? lens[k] : pages[k - 4].len,
			k < 4 ? "random" : pages[k - 4].name,
		};
		size_t clen = sizeof(c);

		if (zbewalgo_compress(ctx, cp.data, cp.len, c, &clen))
			abort();
		stored += zbewalgo_ctx_last_result(ctx)->stored;
		zbw_case_trailing(NULL, &cp, c, clen, scratch, PAGE, &state);
	}
	CHECK(stored >= 4, "only %lu stored pages", stored);
	end();
	free(scratch);
	zbewalgo_ctx_destroy(ctx);
}

/* Random bytes as a page (zbewalgo_cases.h): errors only. */
static void test_random_input(void)
{
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	u32 state = 7;

	begin("random and crafted compressed input");
	zbw_case_random(NULL, scratch, PAGE, 20000, &state);
	end();
	free(scratch);
}

/*
 * The num steps on pages built for each of their views: the encoder picks
 * the view the page was made with (the mode byte, num.c's format), writes
 * less than a bound, and the page comes back byte for byte.
 */
struct num_case;
static const struct num_case *num_cases_first(void);

struct num_case {
	const char *what;
	unsigned int id;	/* step */
	unsigned int w;		/* bytes per number */
	u8 mode, mask;		/* mode & mask must equal mode */
	unsigned int most;	/* bytes at most */
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
	default: /* four values in runs: a palette at order 1 */
		return (i / 64 % 4) * 0x01010101u;
	}
}

#define NUM_VIEW	0x03
#define NUM_ORDER	0x0c
#define NUM_FACTOR	0x10
#define NUM_SHIFT	0x20
#define NUM_ONE		0x40
#define NUM_BE		0x80

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
};

static const struct num_case *num_cases_first(void)
{
	return num_cases;
}

static void test_num_views(void)
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
 * The num steps' palette view (zbewalgo_cases.h, which KUnit runs too):
 * pages of few distinct numbers round-trip in it, their cuts are
 * refused, hand-made palettes decode or are refused as the format says.
 */
static void test_num_palette(void)
{
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	struct zbw_case_stats st = { 0 };

	begin("num steps: the palette view, and hostile palettes");
	CHECK(ctx && scratch, "out of memory");
	if (ctx && scratch)
		zbw_case_num_palette(NULL, ctx, scratch, &st);
	printf("#   %lu cuts rejected, %lu of %lu corruptions detected\n",
	       st.cuts, st.detected, st.flips);
	zbewalgo_ctx_destroy(ctx);
	free(scratch);
	end();
}

/*
 * Step decoders on hostile input (fuzz/step.c in miniature): real
 * encodings, truncated and corrupted, decoded into outputs of exactly
 * every capacity around the real length, with exact-size sources and
 * exact scratch_size() scratch.  The decoders' fast paths copy whole
 * words; ASan sees any that reach past the end of an exact buffer.
 */
static void test_step_decoders_hostile(void)
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

static void test_api_errors(void)
{
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	unsigned char page[PAGE + 1], c[PAGE + 8], o[PAGE];
	size_t dlen, clen, k;
	int err;

	begin("API error codes");
	CHECK(!zbewalgo_ctx_create(ZBEWALGO_MAX_INPUT + 1),
	      "context larger than ZBEWALGO_MAX_INPUT accepted");
	memset(page, 'x', sizeof(page));
	dlen = sizeof(c);
	err = zbewalgo_compress(ctx, page, PAGE + 1, c, &dlen);
	CHECK(err == -E2BIG, "oversized input gave %d", err);

	/* Every too-small destination fails with -ENOSPC and no overrun. */
	for (k = 0; k < nr_pages; k += nr_pages / 7 + 1) {
		const struct page *pg = &pages[k];
		size_t need = sizeof(c), cap;

		if (zbewalgo_compress(ctx, pg->data, pg->len, c, &need))
			abort();
		for (cap = 0; cap < need; cap++) {
			unsigned char *d = malloc(cap ? cap : 1);

			dlen = cap;
			err = zbewalgo_compress(ctx, pg->data, pg->len, d,
						&dlen);
			CHECK(err == -ENOSPC || (!err && dlen <= cap),
			      "%s: dst %zu/%zu gave %d", pg->name, cap, need,
			      err);
			free(d);
		}
	}

	/* Decompressing into too little room is -ENOSPC. */
	memset(page, 0, PAGE);
	clen = sizeof(c);
	zbewalgo_compress(ctx, page, PAGE, c, &clen);
	dlen = PAGE - 1;
	err = zbewalgo_decompress(c, clen, o, &dlen, scratch);
	CHECK(err == -ENOSPC, "short output buffer gave %d", err);
	dlen = PAGE;
	CHECK(!zbewalgo_decompress(c, clen, o, &dlen, scratch) && dlen == PAGE,
	      "zero page did not decode");

	/* Unknown format version and reserved bit. */
	c[0] = (c[0] & 0xf0) | 2;
	dlen = PAGE;
	CHECK(zbewalgo_decompress(c, clen, o, &dlen, scratch) == -EINVAL,
	      "unknown version accepted");
	c[0] = (c[0] & 0xf0) | ZBEWALGO_FORMAT_VERSION | 0x80;
	CHECK(zbewalgo_decompress(c, clen, o, &dlen, scratch) == -EINVAL,
	      "reserved bit accepted");
	/* Unknown step id. */
	c[0] = zbw_page_byte0(1);
	c[1] = 0xee;
	CHECK(zbewalgo_decompress(c, clen, o, &dlen, scratch) == -EINVAL,
	      "unknown step accepted");
	CHECK(zbewalgo_decompress(c, 0, o, &dlen, scratch) == -EINVAL,
	      "empty input accepted");

	/* Random data is stored, and the stored form fits its bound. */
	for (k = 0; k < PAGE; k++)
		page[k] = rnd();
	clen = ZBEWALGO_STORED_SIZE(PAGE);
	err = zbewalgo_compress(ctx, page, PAGE, c, &clen);
	CHECK(!err && zbewalgo_ctx_last_result(ctx)->stored &&
	      clen == ZBEWALGO_STORED_SIZE(PAGE) - 1,
	      "random page: err %d, stored %d, %zu bytes", err,
	      zbewalgo_ctx_last_result(ctx)->stored, clen);
	end();
	free(scratch);
	zbewalgo_ctx_destroy(ctx);
}

/*
 * Counts before the lines (sysfs wins): whole lines only, like the table
 * itself.  @buf holds at least 4096 bytes.
 */
static void test_table_format_counts(struct zbewalgo_table *t, char *buf)
{
	static const char full[] = "18446744073709551615 bwt-mtf-huffman\n"
				   "0 rle\n42 bewalgo\n";
	const u64 counts[] = { 18446744073709551615ull, 0, 42 };
	size_t n = strlen(full), first = strchr(full, '\n') + 1 - full, size;

	CHECK(!zbewalgo_table_parse(t, "bwt-mtf-huffman rle bewalgo"),
	      "valid table rejected");
	CHECK(zbewalgo_table_format_counts(t, counts, buf, 4096) == (int)n &&
	      !strcmp(buf, full), "counts format gave '%s'", buf);
	for (size = 0; size <= n + 1; size++) {
		size_t want = size > n ? n : size > first + 6 ? first + 6 :
			      size > first ? first : 0;

		memset(buf, 'x', size + 1);
		CHECK(zbewalgo_table_format_counts(t, counts, buf, size) ==
		      (int)n && (!size || (strlen(buf) == want &&
					   !memcmp(buf, full, want))) &&
		      buf[size] == 'x',
		      "counts format into %zu bytes gave '%.*s'", size,
		      (int)size, buf);
	}
}

static void test_tables(void)
{
	struct zbewalgo_table *t = calloc(1, sizeof(*t));
	struct zbewalgo_table *old = calloc(1, sizeof(*old));
	static const char *const bad[] = {
		"", "   \n", "bwt-", "-bwt", "bwt--mtf", "nosuchstep",
		"bwt-mtf-huffman-jbe-rle-bewalgo-bewalgo2-jbe2",
		"bwt-mtf bwt-mtf", "BWT", "bwt-mtf\xff",
	};
	char buf[4096], *huge;
	size_t i, n;
	int err;

	begin("combination table parsing and commands");
	zbewalgo_table_reset(t);
	CHECK(t->nr == zbewalgo_table_default()->nr, "reset");
	CHECK(!zbewalgo_table_parse(t, "bwt-mtf-huffman,rle;bewalgo\n"),
	      "valid table rejected");
	n = zbewalgo_table_format(t, buf, sizeof(buf));
	CHECK(n == strlen(buf) && !strcmp(buf, "bwt-mtf-huffman\nrle\nbewalgo\n"),
	      "format gave '%s'", buf);
	CHECK(zbewalgo_table_format(t, buf, 5) == (int)n && !strcmp(buf, ""),
	      "truncated format must write whole lines only");
	CHECK(zbewalgo_table_format(t, buf, 17) == (int)n &&
	      !strcmp(buf, "bwt-mtf-huffman\n"), "partial format '%s'", buf);
	CHECK(!zbewalgo_table_parse(t, "bwt-mtf-huffman-jbe-rle-bewalgo-bitshuffle8"),
	      "7 steps rejected");
	test_table_format_counts(t, buf);

	zbewalgo_table_parse(t, "bwt-mtf-huffman rle");
	*old = *t;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = zbewalgo_table_parse(t, bad[i]);
		CHECK(err == -EINVAL, "parse '%s' gave %d", bad[i], err);
		err = zbewalgo_table_command(t, bad[i]);
		CHECK(err == -EINVAL, "command '%s' gave %d", bad[i], err);
		CHECK(!memcmp(t, old, sizeof(*t)), "'%s' changed the table",
		      bad[i]);
	}
	huge = malloc(1 << 20);
	for (i = 0; i + 4 < 1 << 20; i += 4)
		memcpy(huge + i, "bwt-", 4);
	huge[i] = '\0';
	CHECK(zbewalgo_table_command(t, huge) == -EINVAL, "huge string");
	memcpy(huge, "set ", 4);
	CHECK(zbewalgo_table_command(t, huge) == -EINVAL, "huge set");
	for (i = 0, n = 0; i < 300; i++)
		n += sprintf(huge + n, "%s-%s-%s ", zbewalgo_step_name(1 + i % 10),
			     zbewalgo_step_name(1 + i / 10 % 10),
			     zbewalgo_step_name(1 + i / 100 % 10));
	CHECK(zbewalgo_table_parse(t, huge) == -ENOSPC, "300 combinations");
	CHECK(!memcmp(t, old, sizeof(*t)), "overflow changed the table");
	free(huge);

	CHECK(!zbewalgo_table_command(t, "add bewalgo-huffman\n"), "add");
	CHECK(t->nr == 3, "add count %u", t->nr);
	*old = *t;
	CHECK(zbewalgo_table_command(t, "add rle") == -EEXIST, "add twice");
	CHECK(zbewalgo_table_command(t, "add mtf-rle nosuch") == -EINVAL &&
	      !memcmp(t, old, sizeof(*t)), "partial add must not apply");
	CHECK(zbewalgo_table_command(t, "remove huffman") == -ENOENT,
	      "remove missing");
	CHECK(!zbewalgo_table_command(t, "remove rle") && t->nr == 2,
	      "remove");
	CHECK(!zbewalgo_table_command(t, "set bewalgo") && t->nr == 1,
	      "set");
	CHECK(zbewalgo_table_command(t, "remove bewalgo") == -EINVAL &&
	      t->nr == 1, "a table may not become empty");
	CHECK(zbewalgo_table_command(t, "reset now") == -EINVAL, "reset arg");
	CHECK(zbewalgo_table_command(t, "frobnicate bwt") == -EINVAL,
	      "unknown command");
	CHECK(zbewalgo_table_command(t, "setbwt") == -EINVAL, "no space");
	CHECK(!zbewalgo_table_command(t, " reset\n") &&
	      !memcmp(t, zbewalgo_table_default(), sizeof(*t)), "reset");
	end();
	free(old);
	free(t);
}

/*
 * The work per page is bounded: a table holds at most
 * ZBEWALGO_MAX_TABLE_STEPS steps over all its combinations, and every
 * way of building one from text refuses more with -ENOSPC, leaving the
 * table as it was.  The default table and the presets fit.
 */
static void test_table_budget(void)
{
	struct zbewalgo_table *t = calloc(1, sizeof(*t));
	struct zbewalgo_table *old = calloc(1, sizeof(*old));
	char *text = malloc(ZBEWALGO_MAX_TABLE_STEPS * 16), *p = text;
	unsigned int i, k, level;
	int err;

	begin("table step budget");
	CHECK(zbewalgo_table_steps(zbewalgo_table_default()) <=
	      ZBEWALGO_MAX_TABLE_STEPS, "default table over the budget");
	for (level = 1; zbewalgo_preset_table(level); level++)
		CHECK(zbewalgo_table_steps(zbewalgo_preset_table(level)) <=
		      ZBEWALGO_MAX_TABLE_STEPS, "level %u over the budget",
		      level);
	for (level = 1; zbewalgo_preset_table(level); level++)
		CHECK(zbewalgo_table_cost(zbewalgo_preset_table(level)) <=
		      ZBEWALGO_MAX_TABLE_COST, "level %u over the cost",
		      level);
	/* Three BWTs cost more than a page may. */
	CHECK(zbewalgo_table_parse(t, "bwt-mtf bwt-rle bwt-huffman") ==
	      -ENOSPC, "a table over the cost accepted");
	CHECK(!zbewalgo_table_parse(t, "bwt-mtf bwt-rle"), "two BWTs refused");
	/* rle-...-rle-<name of i>: 7 steps each, all different */
	for (i = 0; i < ZBEWALGO_MAX_TABLE_STEPS / 7; i++) {
		for (k = 0; k < 6; k++)
			p += sprintf(p, "rle-");
		p += sprintf(p, "%s ", zbewalgo_step_name(1 + i));
	}
	for (k = 0; k < ZBEWALGO_MAX_TABLE_STEPS % 7; k++)
		p += sprintf(p, "%s%s", k ? "-" : "", "jbe");
	err = zbewalgo_table_parse(t, text);
	CHECK(!err && zbewalgo_table_steps(t) == ZBEWALGO_MAX_TABLE_STEPS,
	      "a table of exactly the budget: %d, %u steps", err,
	      zbewalgo_table_steps(t));
	*old = *t;
	err = zbewalgo_table_command(t, "add delta4");
	CHECK(err == -ENOSPC && !memcmp(t, old, sizeof(*t)),
	      "add over the budget gave %d", err);
	err = zbewalgo_table_add(t, "lz");
	CHECK(err == -ENOSPC && !memcmp(t, old, sizeof(*t)),
	      "table_add over the budget gave %d", err);
	strcpy(p, " lz");
	err = zbewalgo_table_parse(t, text);
	CHECK(err == -ENOSPC && !memcmp(t, old, sizeof(*t)),
	      "parse over the budget gave %d", err);
	memmove(text + 4, text, strlen(text) + 1);
	memcpy(text, "set ", 4);
	err = zbewalgo_table_command(t, text);
	CHECK(err == -ENOSPC && !memcmp(t, old, sizeof(*t)),
	      "set over the budget gave %d", err);
	/* Room again after a remove. */
	CHECK(!zbewalgo_table_command(t, "remove rle-rle-rle-rle-rle-rle-bwt") &&
	      !zbewalgo_table_command(t, "add lz rle"),
	      "add after remove");
	end();
	free(text);
	free(old);
	free(t);
}

/*
 * The early abort ends the search at a result smaller than
 * early_abort_size, not at the limit a short input starts with: with
 * 16 or 64 KiB pages (early abort at 2 or 8 KiB) a 512-byte input, the
 * crypto self-test's, was stored after the first step of the first
 * chain and did not fit testmgr's 512-byte buffer (-ENOSPC).
 */
static void test_short_input_large_pages(void)
{
	static const size_t sizes[] = { 4096, 16384, 65536 };
	const char *t = "zbewalgo compresses memory pages for zram and zswap. ";
	unsigned char in[512], out[512], back[512];
	size_t i, n, want = 0;

	begin("short inputs compress the same in contexts for large pages");
	for (i = 0; i < sizeof(in); i++)
		in[i] = t[i % strlen(t)];
	for (n = 0; n < ARRAY_SIZE(sizes); n++) {
		struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(sizes[n]);
		void *scratch = malloc(zbewalgo_decompress_scratch_size(512));
		size_t dlen = sizeof(out), blen = sizeof(back);
		int ret = zbewalgo_compress(ctx, in, sizeof(in), out, &dlen);

		CHECK(!ret && !zbewalgo_ctx_last_result(ctx)->stored,
		      "%zu-byte pages: 512 bytes of text: %d, stored %d", sizes[n],
		      ret, zbewalgo_ctx_last_result(ctx)->stored);
		if (!n)
			want = dlen;
		CHECK(!ret && dlen == want,
		      "%zu-byte pages: %zu bytes, %zu with 4 KiB pages",
		      sizes[n], dlen, want);
		CHECK(!ret && !zbewalgo_decompress(out, dlen, back, &blen, scratch) &&
		      blen == sizeof(in) && !memcmp(back, in, sizeof(in)),
		      "%zu-byte pages: round trip", sizes[n]);
		free(scratch);
		zbewalgo_ctx_destroy(ctx);
	}
	end();
}

/*
 * Found by fuzz/roundtrip: a page shorter than the context's max_len went
 * through a chain whose intermediate result exceeded
 * zbewalgo_stage_cap(len), the bound decoders enforce, because the engine
 * gave the steps the context's stage capacity (stage_cap(max_len)).  The
 * page compressed "successfully" and then failed to decompress.  Here:
 * 665 bytes, jbe2 x4 grows them 665 -> 763 -> 872 -> 997 -> 1141 >
 * stage_cap(665) = 1061, huffman brings them down to 652; the page header
 * is 51 04 04 04 04 06 99 05.  Every length with a few expanding chains.
 */
static void test_short_page_stage_cap(void)
{
	static const char *const chains[] = {
		"jbe2-jbe2-jbe2-jbe2-huffman", "jbe-jbe-jbe-jbe-huffman",
		"jbe2-jbe2-jbe2-huffman",
	};
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	struct zbewalgo_params params;
	unsigned char page[PAGE], o[PAGE];
	unsigned int c, n, i;

	begin("pages shorter than max_len respect stage_cap(len)");
	zbewalgo_default_params(&params, PAGE);
	params.early_abort_size = 0;
	/* the page looks random: the chains must run anyway */
	params.store_entropy = 0;
	zbewalgo_ctx_set_params(ctx, &params);
	for (i = 0; i < PAGE; i++)
		page[i] = i * 37 + (i >> 3);
	for (c = 0; c < sizeof(chains) / sizeof(chains[0]); c++) {
		struct zbewalgo_table *t = table_of(chains[c]);

		zbewalgo_ctx_set_table(ctx, t);
		for (n = 1; n <= PAGE; n += n == 665 ? 1 : 1 + n % 29) {
			size_t clen = ZBEWALGO_STORED_SIZE(n), olen = n;
			unsigned char *dst = malloc(clen);
			int err = zbewalgo_compress(ctx, page, n, dst, &clen);

			CHECK(!err, "%s, %u bytes: compress gave %d", chains[c],
			      n, err);
			if (!err) {
				err = zbewalgo_decompress(dst, clen, o, &olen,
							  scratch);
				CHECK(!err && olen == n && !memcmp(o, page, n),
				      "%s, %u bytes: compressed to %zu, decompress gave %d",
				      chains[c], n, clen, err);
			}
			free(dst);
		}
		free(t);
	}
	end();
	free(scratch);
	zbewalgo_ctx_destroy(ctx);
}

/* A page's compressed form, for comparing two compressions of it. */
struct packed {
	size_t len;
	unsigned char data[ZBEWALGO_STORED_SIZE(PAGE)];
};

static bool compress_into(struct zbewalgo_ctx *ctx, const struct page *p,
			  struct packed *out)
{
	out->len = sizeof(out->data);
	return !zbewalgo_compress(ctx, p->data, p->len, out->data, &out->len);
}

/* Counts in *@differ a second compression unlike the first, names five. */
static void check_same(const struct packed *first, const struct packed *again,
		       const char *how, const struct page *p, int level,
		       unsigned long *differ)
{
	if (again->len == first->len &&
	    !memcmp(again->data, first->data, again->len))
		return;
	if ((*differ)++ < 5)
		printf("#   level %d, %s, %s: %zu bytes, first %zu\n", level,
		       p->name, how, again->len, first->len);
}

/*
 * zram up to 6.14 compresses a page a second time when its first
 * allocation fails, possibly on another CPU's context, and copies the
 * second result into the object sized for the first.  So a page must come
 * out the same on any context, whatever the context compressed before and
 * whatever table it had in between: every page (test data and generated)
 * at every level, on a context that compressed the pages in order, one
 * that compressed them backwards, one that saw the page just before, and
 * one that ran another table between the two compressions.
 */
static void test_deterministic(void)
{
	struct zbewalgo_ctx *fwd = zbewalgo_ctx_create(PAGE);
	struct zbewalgo_ctx *bwd = zbewalgo_ctx_create(PAGE);
	struct zbewalgo_ctx *other = zbewalgo_ctx_create(PAGE);
	struct packed *first = malloc(nr_pages * sizeof(*first));
	struct packed again;
	struct zbewalgo_table t;
	unsigned char *scratch = malloc(PAGE);
	unsigned long differ = 0;
	size_t i, k;
	int level;

	begin("a page compresses the same on any context, whatever came before");
	CHECK(scratch, "scratch");
	CHECK(!zbewalgo_table_parse(&t, "rle bitshuffle4-jbe2-huffman lz"),
	      "table");
	for (level = 1; level <= ZBEWALGO_MAX_LEVEL; level++) {
		const struct zbewalgo_table *preset =
			zbewalgo_preset_table(level);

		zbewalgo_ctx_set_level(fwd, level);
		zbewalgo_ctx_set_level(bwd, level);
		zbewalgo_ctx_set_level(other, level);
		zbewalgo_ctx_set_table(fwd, preset);
		zbewalgo_ctx_set_table(bwd, preset);
		for (i = 0; i < nr_pages; i++)
			CHECK(compress_into(fwd, &pages[i], &first[i]),
			      "%s: compress failed", pages[i].name);
		for (i = nr_pages; i-- > 0;) {
			/* another context, another history */
			CHECK(compress_into(bwd, &pages[i], &again),
			      "%s: compress failed", pages[i].name);
			check_same(&first[i], &again, "other context",
				   &pages[i], level, &differ);
			/* the same context right after, a retry */
			CHECK(compress_into(fwd, &pages[i], &again),
			      "%s: compress failed", pages[i].name);
			check_same(&first[i], &again, "same context",
				   &pages[i], level, &differ);
			/* another table and level on the context in between */
			zbewalgo_ctx_set_table(other, &t);
			zbewalgo_ctx_set_level(other, level % 3 + 1);
			compress_into(other, &pages[(i * 7) % nr_pages], &again);
			zbewalgo_ctx_set_table(other, preset);
			zbewalgo_ctx_set_level(other, level);
			CHECK(compress_into(other, &pages[i], &again),
			      "%s: compress failed", pages[i].name);
			check_same(&first[i], &again, "after another table",
				   &pages[i], level, &differ);
			/* a decompression on the context in between */
			again.len = PAGE;
			k = (i * 3) % nr_pages;
			CHECK(!zbewalgo_ctx_decompress(bwd, first[k].data,
						       first[k].len, scratch,
						       &again.len) &&
			      again.len == pages[k].len &&
			      !memcmp(scratch, pages[k].data, again.len),
			      "%s: round trip failed", pages[k].name);
			CHECK(compress_into(bwd, &pages[i], &again),
			      "%s: compress failed", pages[i].name);
			check_same(&first[i], &again, "after a decompression",
				   &pages[i], level, &differ);
		}
	}
	printf("#   %zu pages at %d levels, 4 second compressions each: %lu differ\n",
	       nr_pages, ZBEWALGO_MAX_LEVEL, differ);
	CHECK(!differ, "%lu second compressions differ", differ);
	end();
	free(first);
	free(scratch);
	zbewalgo_ctx_destroy(other);
	zbewalgo_ctx_destroy(bwd);
	zbewalgo_ctx_destroy(fwd);
}

/*
 * The incompressibility test stores random pages without trying a chain,
 * and they round-trip; with store_entropy 0 every chain runs again.
 */
/*
 * lz, bwt and bewalgo2 take zstd's decompression workspace as scratch (a
 * context for 4 KiB pages keeps no scratch that large of its own), and
 * zstd sets its context up again after them.  A context for level 3's
 * table, whose lz and bwt chains win text and program pages, compresses
 * every page and decodes the result at once; after each page it decodes
 * a zstd page kept from before too, once more after filling the lent
 * workspace with what a step might leave there.  Every page must come
 * back.
 */
static void test_lent_scratch(void)
{
	struct zbewalgo_ctx *ctx =
		zbewalgo_ctx_create_for(PAGE, zbewalgo_preset_table(3), 3,
					false);
	static struct packed c, z;
	unsigned char out[PAGE];
	unsigned long lent = 0, zstd = 0, failed = 0;
	size_t i, olen, zi = 0;
	unsigned int k, nr;

	begin("zstd's decompression workspace lent to lz and bwt");
	if (!ctx)
		abort();
	for (i = 0; i < nr_pages; i++) {
		bool big = false, has_zstd = false;

		if (!compress_into(ctx, &pages[i], &c)) {
			failed++;
			continue;
		}
		nr = (c.data[0] & ZBW_HDR_STEPS_MASK) >> ZBW_HDR_STEPS_SHIFT;
		for (k = 0; k < nr; k++) {
			big |= c.data[1 + k] == ZBEWALGO_STEP_LZ ||
			       c.data[1 + k] == ZBEWALGO_STEP_BWT ||
			       c.data[1 + k] == ZBEWALGO_STEP_BEWALGO2;
			has_zstd |= c.data[1 + k] == ZBEWALGO_STEP_ZSTD;
		}
		lent += big;
		olen = PAGE;
		if (zbewalgo_ctx_decompress(ctx, c.data, c.len, out, &olen) ||
		    olen != pages[i].len || memcmp(out, pages[i].data, olen))
			failed++;
		if (has_zstd && !big) {
			z = c;
			zi = i;
			zstd++;
		}
		if (!zstd)
			continue;
		olen = PAGE;
		if (zbewalgo_ctx_decompress(ctx, z.data, z.len, out, &olen) ||
		    olen != pages[zi].len || memcmp(out, pages[zi].data, olen))
			failed++;
		memset(zbw_zstd_lend(ctx->state[ZBEWALGO_STEP_ZSTD]), (int)i,
		       zbw_zstd_loan_size());
		olen = PAGE;
		if (zbewalgo_ctx_decompress(ctx, z.data, z.len, out, &olen) ||
		    olen != pages[zi].len || memcmp(out, pages[zi].data, olen))
			failed++;
	}
	CHECK(!failed, "%lu decodes failed", failed);
	CHECK(lent && zstd, "%lu pages by lz, bwt or bewalgo2, %lu by zstd",
	      lent, zstd);
	zbewalgo_ctx_destroy(ctx);
	end();
	printf("#   %lu of %zu pages by lz, bwt or bewalgo2, %lu by zstd alone\n",
	       lent, nr_pages, zstd);
}

/*
 * Pages whose byte lanes look alike (text, code) are not probed: zstd,
 * the default table's one chain without layout steps, is tried first,
 * and alone when it compresses the page, which then comes out as a table
 * of zstd alone writes it.  Word arrays are probed as before.
 */
static void test_plain_pages(void)
{
	static const char *const text[] = { ".2@", ".3@", ".txt@", ".html@",
					    ".c@", ".h@", ".cc@" };
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	struct zbewalgo_ctx *one = zbewalgo_ctx_create(PAGE);
	const struct zbewalgo_result *res = zbewalgo_ctx_last_result(ctx);
	const struct zbewalgo_table *def = zbewalgo_table_default();
	unsigned char c[ZBEWALGO_STORED_SIZE(PAGE)];
	unsigned char z[ZBEWALGO_STORED_SIZE(PAGE)];
	unsigned int texts = 0, plain_texts = 0, plain = 0, j;
	struct zbewalgo_table t;
	size_t i, clen, zlen;

	begin("plain pages: zstd alone, not probed");
	CHECK(!zbewalgo_table_parse(&t, "zstd") &&
	      def->comb[0].nr_steps == 1 &&
	      def->comb[0].ids[0] == t.comb[0].ids[0],
	      "zstd is not the default table's first chain");
	zbewalgo_ctx_set_table(one, &t);
	for (i = 0; i < nr_pages; i++) {
		bool is_text = false;

		if (pages[i].len != PAGE)
			continue;
		for (j = 0; j < ARRAY_SIZE(text); j++)
			is_text |= !!strstr(pages[i].name, text[j]);
		clen = sizeof(c);
		zlen = sizeof(z);
		CHECK(!zbewalgo_compress(ctx, pages[i].data, PAGE, c, &clen) &&
		      !zbewalgo_compress(one, pages[i].data, PAGE, z, &zlen),
		      "%s: compress failed", pages[i].name);
		texts += is_text;
		plain_texts += is_text && res->plain;
		if (!strncmp(pages[i].name, "float", 5) ||
		    !strncmp(pages[i].name, "u32/", 4) ||
		    !strncmp(pages[i].name, "u64/", 4))
			CHECK(!res->plain, "%s: a word array is plain",
			      pages[i].name);
		if (!res->plain)
			continue;
		plain++;
		/* where zstd gets nowhere, the other chains get their turn */
		if (zbewalgo_ctx_last_result(one)->stored) {
			CHECK(clen <= zlen, "%s: plain, %zu bytes, stored in %zu",
			      pages[i].name, clen, zlen);
			continue;
		}
		CHECK(res->tried == 1 && res->comb == 0,
		      "%s: plain, %u chains tried, chain %d", pages[i].name,
		      res->tried, res->comb);
		CHECK(clen == zlen && !memcmp(c, z, clen),
		      "%s: plain, %zu bytes where zstd alone writes %zu",
		      pages[i].name, clen, zlen);
	}
	CHECK(!texts || 2 * plain_texts >= texts,
	      "%u of %u text pages plain", plain_texts, texts);
	end();
	printf("#   %u pages plain, %u of %u text pages\n", plain, plain_texts,
	       texts);
	zbewalgo_ctx_destroy(one);
	zbewalgo_ctx_destroy(ctx);
}

static void test_random_stored_at_once(void)
{
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	const struct zbewalgo_result *res = zbewalgo_ctx_last_result(ctx);
	unsigned char page[PAGE], c[ZBEWALGO_STORED_SIZE(PAGE)], o[PAGE];
	struct zbewalgo_params params;
	unsigned int n, i, rejected = 0;
	size_t clen, olen;

	begin("random pages are stored without a try");
	for (n = 0; n < 64; n++) {
		for (i = 0; i < PAGE; i++)
			page[i] = rnd();
		clen = sizeof(c);
		olen = PAGE;
		CHECK(!zbewalgo_compress(ctx, page, PAGE, c, &clen) &&
		      res->stored && clen == ZBEWALGO_STORED_SIZE(PAGE) - 1,
		      "random page %u: stored %d, %zu bytes", n, res->stored,
		      clen);
		rejected += res->tried == 0;
		CHECK(!zbewalgo_decompress(c, clen, o, &olen, scratch) &&
		      olen == PAGE && !memcmp(o, page, PAGE),
		      "random page %u: round trip", n);
	}
	CHECK(rejected == 64, "%u of 64 random pages rejected at once",
	      rejected);
	/* The test comes first after a page that compressed, too. */
	for (i = 0; i < PAGE; i++)
		o[i] = i / 64;
	clen = sizeof(c);
	CHECK(!zbewalgo_compress(ctx, o, PAGE, c, &clen) && !res->stored,
	      "a compressible page was stored");
	clen = sizeof(c);
	CHECK(!zbewalgo_compress(ctx, page, PAGE, c, &clen) && res->stored &&
	      !res->tried,
	      "random page after a compressed page: %u chains tried",
	      res->tried);
	/* Short pages are never rejected: too few samples. */
	clen = sizeof(c);
	CHECK(!zbewalgo_compress(ctx, page, 1000, c, &clen) && res->tried,
	      "1000-byte random page: %u chains tried", res->tried);
	zbewalgo_default_params(&params, PAGE);
	params.store_entropy = 0;
	zbewalgo_ctx_set_params(ctx, &params);
	clen = sizeof(c);
	CHECK(!zbewalgo_compress(ctx, page, PAGE, c, &clen) && res->stored &&
	      res->tried == zbewalgo_table_default()->nr,
	      "store_entropy 0: %u chains tried", res->tried);
	end();
	free(scratch);
	zbewalgo_ctx_destroy(ctx);
}

/*
 * Pages whose byte lanes look random but which lz4 and zstd shrink well:
 * a random block repeated across the page, at periods that are not a
 * multiple of the sampling block (once stored as 4099 bytes where lz4
 * needs 687), and sorted random bytes (zstd-1: 418 bytes).  None may be
 * stored; each must compress below zram's threshold.
 */
static void test_precheck_structured(void)
{
	static const unsigned int periods[] = { 661, 1000, 1500, 2064, 2900 };
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	const struct zbewalgo_result *res = zbewalgo_ctx_last_result(ctx);
	unsigned char page[PAGE], c[ZBEWALGO_STORED_SIZE(PAGE)];
	unsigned int n = sizeof(periods) / sizeof(periods[0]);
	unsigned int count[256] = { 0 }, k, i, b;
	size_t clen;

	begin("random-looking pages with structure are compressed");
	for (k = 0; k <= n; k++) {
		if (k < n) {
			for (i = 0; i < periods[k]; i++)
				page[i] = rnd();
			for (; i < PAGE; i++)
				page[i] = page[i - periods[k]];
		} else {
			for (i = 0; i < PAGE; i++)
				count[rnd() & 0xff]++;
			for (b = 0, i = 0; b < 256; b++)
				while (count[b]--)
					page[i++] = b;
		}
		clen = sizeof(c);
		CHECK(!zbewalgo_compress(ctx, page, PAGE, c, &clen) &&
		      !res->stored && clen < 3264,
		      "%s %u: %zu bytes, stored %d, %u tried",
		      k < n ? "period" : "sorted", k < n ? periods[k] : 0,
		      clen, res->stored, res->tried);
	}
	end();
	zbewalgo_ctx_destroy(ctx);
}

/*
 * The test never stores a page that a full search would have compressed:
 * of every page (data files and generated, plus float arrays with random
 * mantissas, half-random pages and a random block repeated), those it
 * stores at once the full search stores too, and those its sample does
 * not call plain (test_plain_pages()) compress to the same size with and
 * without it, in contexts that saw the same pages.
 */
static void test_precheck_keeps_compressible(void)
{
	struct zbewalgo_ctx *on = zbewalgo_ctx_create(PAGE);
	struct zbewalgo_ctx *off = zbewalgo_ctx_create(PAGE);
	unsigned char c1[ZBEWALGO_STORED_SIZE(PAGE)];
	unsigned char c2[ZBEWALGO_STORED_SIZE(PAGE)];
	struct zbewalgo_params params;
	const struct zbewalgo_result *res_on = zbewalgo_ctx_last_result(on);
	unsigned long skipped = 0, plain = 0, n = 0, bad = 0;
	unsigned char extra[4][PAGE];
	float *f = (float *)extra[0];
	size_t i, k;

	for (i = 0; i < PAGE / 4; i++)	/* 1.0 .. 2.0, random mantissa */
		f[i] = 1.0f + (rnd() & 0xffffff) / 16777216.0f;
	for (i = 0; i < PAGE; i++)
		extra[1][i] = i < PAGE / 2 ? rnd() : "page text "[i % 10];
	for (i = 0; i < PAGE / 2; i++)
		extra[2][i] = extra[2][i + PAGE / 2] = rnd();
	for (i = 0; i < PAGE / 8; i++)	/* float64 with a few top bits */
		((unsigned long long *)extra[3])[i] =
			0x3ff0000000000000ull |
			(unsigned long long)(rnd() & 0xfffff) << 32 | rnd();

	begin("the incompressibility test keeps compressible pages");
	zbewalgo_default_params(&params, PAGE);
	params.max_output_size = 3264;
	zbewalgo_ctx_set_params(on, &params);
	params.store_entropy = 0;
	zbewalgo_ctx_set_params(off, &params);
	for (k = 0; k < nr_pages + 4; k++) {
		const void *data = k < nr_pages ? pages[k].data : extra[k - nr_pages];
		size_t len = k < nr_pages ? pages[k].len : PAGE;
		size_t l1 = sizeof(c1), l2 = sizeof(c2);

		if (zbewalgo_compress(on, data, len, c1, &l1) ||
		    zbewalgo_compress(off, data, len, c2, &l2))
			abort();
		n++;
		skipped += !res_on->tried && len;
		plain += res_on->plain;
		/* stored at once, or not plain: what the full search makes */
		if (!res_on->plain && l1 != l2 && bad++ < 5)
			fail("%s: %zu bytes with the test, %zu without",
			     k < nr_pages ? pages[k].name : "extra", l1, l2);
		checks++;
	}
	CHECK(!bad && skipped && plain,
	      "%lu pages differ, %lu of %lu pages skipped, %lu plain", bad,
	      skipped, n, plain);
	printf("#   %lu of %lu pages stored by the test, %lu plain\n",
	       skipped, n, plain);
	end();
	zbewalgo_ctx_destroy(off);
	zbewalgo_ctx_destroy(on);
}

/*
 * A context's scratch is laid out for its max_len: decompressing with it
 * must refuse a longer page, even when the caller offers a larger output
 * (zbewalgo_stream_decompress() passes the caller's length).  Here a
 * 64 KiB rle-huffman page into a 4 KiB context with 64 KiB of output
 * room; unbounded, the huffman decoder wrote its tables and its stage
 * past the context's scratch.
 */
static void test_ctx_decompress_bound(void)
{
	struct zbewalgo_table *t = table_of("rle-huffman");
	struct zbewalgo_ctx *big = zbewalgo_ctx_create(ZBEWALGO_MAX_INPUT);
	struct zbewalgo_ctx *small = zbewalgo_ctx_create(PAGE);
	size_t n = ZBEWALGO_MAX_INPUT, clen = ZBEWALGO_STORED_SIZE(n), olen;
	unsigned char *page = malloc(n), *c = malloc(clen), *o = malloc(n);
	const struct zbewalgo_result *res = zbewalgo_ctx_last_result(big);
	size_t i;
	int err;

	begin("context decompression is bounded by the context's max_len");
	/* runs of 3..10 bytes: rle shrinks them, and again its output */
	for (i = 0; i < n; i++)
		page[i] = i / (3 + i / 4096 % 8) % 3 ? 0 : 0xff;
	zbewalgo_ctx_set_table(big, t);
	CHECK(!zbewalgo_compress(big, page, n, c, &clen) &&
	      res->nr_steps == 2, "rle-huffman page: %u steps", res->nr_steps);
	olen = n;
	err = zbewalgo_ctx_decompress(small, c, clen, o, &olen);
	CHECK(err == -ENOSPC, "64 KiB page in a 4 KiB context gave %d", err);
	olen = n;
	err = zbewalgo_ctx_decompress(big, c, clen, o, &olen);
	CHECK(!err && olen == n && !memcmp(o, page, n),
	      "64 KiB context: %d, %zu bytes", err, olen);
	/* A page that fits the context decodes with any larger room. */
	clen = ZBEWALGO_STORED_SIZE(n);
	CHECK(!zbewalgo_compress(big, page, PAGE, c, &clen), "4 KiB page");
	olen = n;
	err = zbewalgo_ctx_decompress(small, c, clen, o, &olen);
	CHECK(!err && olen == PAGE && !memcmp(o, page, PAGE),
	      "4 KiB page, 64 KiB room: %d, %zu bytes", err, olen);
	olen = PAGE - 1;
	err = zbewalgo_ctx_decompress(small, c, clen, o, &olen);
	CHECK(err == -ENOSPC, "4 KiB page, short room gave %d", err);
	end();
	free(o);
	free(c);
	free(page);
	free(t);
	zbewalgo_ctx_destroy(small);
	zbewalgo_ctx_destroy(big);
}

/* A page stays readable after its combination left the table. */
static void test_removed_combination(void)
{
	struct zbewalgo_table *t = table_of("bewalgo-rle");
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	unsigned char page[PAGE], c[PAGE + 8], o[PAGE];
	size_t clen = sizeof(c), olen = PAGE;
	unsigned int i;

	begin("pages outlive their combination");
	for (i = 0; i < PAGE; i++)
		page[i] = i / 512;
	zbewalgo_ctx_set_table(ctx, t);
	CHECK(!zbewalgo_compress(ctx, page, PAGE, c, &clen) &&
	      !zbewalgo_ctx_last_result(ctx)->stored, "compress");
	CHECK(!zbewalgo_table_command(t, "set bwt-mtf-huffman"), "set");
	zbewalgo_ctx_destroy(ctx);
	ctx = zbewalgo_ctx_create(PAGE);
	zbewalgo_ctx_set_table(ctx, t);
	CHECK(!zbewalgo_decompress(c, clen, o, &olen, scratch) &&
	      olen == PAGE && !memcmp(o, page, PAGE), "decompress");
	/* The context serves decompression too. */
	olen = PAGE;
	CHECK(!zbewalgo_ctx_decompress(ctx, c, clen, o, &olen) &&
	      !memcmp(o, page, PAGE), "decompress with the context");
	end();
	free(scratch);
	free(t);
	zbewalgo_ctx_destroy(ctx);
}

/* A dictionary from @len bytes of @data, or NULL with the error in @err */
static struct zbewalgo_dict *dict_from(const void *data, size_t len,
				       int level, int *err)
{
	unsigned char *copy = dup_exact(data, len);
	struct zbewalgo_dict *dict = NULL;

	*err = zbewalgo_dict_create(copy, len, level, PAGE, &dict);
	/* the dictionary keeps a copy of its own */
	memset(copy, 0, len);
	free(copy);
	return *err ? NULL : dict;
}

/*
 * zram's dict= (zbewalgo_cases.h, which KUnit runs too): every page
 * compressed with a dictionary round-trips with it; pages it changed need
 * it, its id included; all pages together are no longer than without it.
 * Data that is not a zstd dictionary with an id is refused.
 */
static void test_dictionary(void)
{
	static const int bad_levels[] = { -1, 0, ZBEWALGO_MAX_LEVEL + 1 };
	unsigned char bad[sizeof(zbw_test_dict)], page[PAGE];
	struct zbewalgo_dict *dict, *other;
	struct zbw_case_dict_ctxs x = { .max_len = PAGE };
	unsigned long used = 0, made = 0, tried = 0;
	int err;
	u32 state = 7;
	size_t i;

	begin("zstd dictionaries");
	memcpy(bad, zbw_test_dict, sizeof(bad));
	dict_from(bad, 7, 2, &err);
	CHECK(err == -EINVAL, "7 bytes taken as a dictionary: %d", err);
	bad[0] ^= 1;
	dict_from(bad, sizeof(bad), 2, &err);
	CHECK(err == -EINVAL, "a wrong magic number taken: %d", err);
	bad[0] ^= 1;
	memset(bad + 4, 0, 4);
	dict_from(bad, sizeof(bad), 2, &err);
	CHECK(err == -EINVAL, "a dictionary without an id taken: %d", err);
	dict_from(zbw_test_dict, 40, 2, &err);
	CHECK(err == -EINVAL, "a cut dictionary taken: %d", err);
	for (i = 0; i < ARRAY_SIZE(bad_levels); i++) {
		dict_from(zbw_test_dict, sizeof(zbw_test_dict), bad_levels[i],
			  &err);
		CHECK(err == -EINVAL, "level %d taken: %d", bad_levels[i], err);
	}

	memcpy(bad, zbw_test_dict, sizeof(bad));
	bad[4] ^= 0x5a;
	dict = dict_from(zbw_test_dict, sizeof(zbw_test_dict), 2, &err);
	other = dict_from(bad, sizeof(bad), 2, &err);
	x.dict = zbewalgo_ctx_create(PAGE);
	x.other = zbewalgo_ctx_create(PAGE);
	x.none = zbewalgo_ctx_create(PAGE);
	x.scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	if (!dict || !other || !x.dict || !x.other || !x.none || !x.scratch)
		abort();
	CHECK(zbewalgo_dict_id(dict) == get_unaligned_le32(zbw_test_dict + 4) &&
	      zbewalgo_dict_id(other) != zbewalgo_dict_id(dict),
	      "dictionary ids %u and %u", zbewalgo_dict_id(dict),
	      zbewalgo_dict_id(other));
	zbewalgo_ctx_set_dict(x.dict, dict);
	zbewalgo_ctx_set_dict(x.other, other);
	/* every fifth page: each page costs a dozen compressions */
	for (i = 0; i < nr_pages; i += 5) {
		struct zbw_case_page cp = { pages[i].data, pages[i].len,
					    pages[i].name };

		used += zbw_case_dict(NULL, &cp, &x);
		tried++;
	}
	for (i = 0; i < 64; i++) {
		struct zbw_case_page cp = { page, PAGE, "dictionary pieces" };

		zbw_case_dict_page(page, PAGE, zbw_test_dict,
				   sizeof(zbw_test_dict), &state);
		made += zbw_case_dict(NULL, &cp, &x);
	}
	/* the probe sends some to bitshuffle4-zstd, which runs no dictionary */
	CHECK(made >= 48, "the dictionary made %lu of 64 pages of its pieces smaller",
	      made);
	CHECK(x.with_bytes <= x.without_bytes,
	      "%llu bytes with the dictionary, %llu without", x.with_bytes,
	      x.without_bytes);
	end();
	printf("#   the dictionary changed %lu of 64 pages of its pieces and %lu of %lu others: %llu bytes, %llu without\n",
	       made, used, tried, x.with_bytes, x.without_bytes);
	free(x.scratch);
	zbewalgo_ctx_destroy(x.none);
	zbewalgo_ctx_destroy(x.other);
	zbewalgo_ctx_destroy(x.dict);
	zbewalgo_dict_destroy(other);
	zbewalgo_dict_destroy(dict);
}

int main(int argc, char **argv)
{
	size_t before;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DATA_DIR...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		before = nr_pages;
		test_walk_dir(argv[i], load_file);
		if (nr_pages == before) {
			fprintf(stderr, "no data pages under %s\n", argv[i]);
			return 2;
		}
		printf("# %zu pages from %s\n", nr_pages - before, argv[i]);
	}
	before = nr_pages;
	test_pages_generate(rnd, gen_page);
	printf("# %zu generated pages\n", nr_pages - before);

	test_steps();
	test_bwt_reference();
	test_mtf_reference();
	test_word_steps_reference();
	test_sieve_reference();
	test_huffman4_reference();
	test_huffman_tables();
	test_lz_crafted();
	test_steps_enospc();
	test_tables();
	test_table_budget();
	test_api_errors();
	test_preset_combinations();
	test_default_table();
	test_removed_combination();
	test_ctx_decompress_bound();
	test_short_page_stage_cap();
	test_short_input_large_pages();
	test_deterministic();
	test_context_memory();
	test_context_for_table();
	test_lent_scratch();
	test_zstd_init_error();
	test_random_stored_at_once();
	test_plain_pages();
	test_precheck_keeps_compressible();
	test_precheck_structured();
	test_corruption();
	test_trailing_bytes();
	test_random_input();
	test_step_decoders_hostile();
	test_num_views();
	test_num_palette();
	test_dictionary();

	printf("# %lu checks, %lu failed\n", checks, check_failures);
	printf("%lu passed, %lu failed\n", tests_passed, tests_failed);
	return tests_failed ? 1 : 0;
}
