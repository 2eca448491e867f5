// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of steps against references written here from the format
 * document (zbewalgo_test.c runs them): bwt against a plain sort of the
 * rotations, mtf, the word steps (delta, bitshuffle and both in one pass),
 * sieve4, huffman4 and huffman's predefined tables.
 */

#include "zbewalgo_test.h"
#include "../../../lib/zbewalgo/classic/huffman_tables.h"

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
void test_bwt_reference(void)
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
void test_mtf_reference(void)
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

void test_word_steps_reference(void)
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

void test_sieve_reference(void)
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

void test_huffman4_reference(void)
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

void test_huffman_tables(void)
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
