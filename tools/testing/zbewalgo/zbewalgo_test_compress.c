// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of whole pages (zbewalgo_test.c runs them): round trips of
 * every chain and table on every page, truncated, corrupted and random
 * input (lib/zbewalgo/tests/zbewalgo_cases.h, which KUnit runs too), the
 * API's error codes, the search's shortcuts (plain pages, the
 * incompressibility test) and zstd dictionaries.
 */

#include "zbewalgo_test.h"
#include "../../../lib/zbewalgo/tests/zbewalgo_test_dict.h"

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
void test_preset_combinations(void)
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

void test_default_table(void)
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
void test_corruption(void)
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
void test_trailing_bytes(void)
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
void test_random_input(void)
{
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	u32 state = 7;

	begin("random and crafted compressed input");
	zbw_case_random(NULL, scratch, PAGE, 20000, &state);
	end();
	free(scratch);
}

void test_api_errors(void)
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
 * Pages whose byte lanes look alike (text, code) are not probed: zstd,
 * the default table's one chain without layout steps, is tried first,
 * and alone when it compresses the page, which then comes out as a table
 * of zstd alone writes it.  Word arrays are probed as before.
 */
void test_plain_pages(void)
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

/*
 * An easy chain's estimate stands for the chains after it until it is
 * tried and misses: zbw_probe_rest() then gives each of them the estimate
 * a probe without the cut gives, and ranks them as it does, after the
 * chain tried.  Here every page's first chain is easy (an early abort
 * above any estimate).
 */
void test_probe_rest(void)
{
	const struct zbewalgo_table *t = zbewalgo_table_default();
	static u8 scratch[ZBW_PROBE_SCRATCH] __aligned(8);
	struct zbw_probe cut, all;
	unsigned int probed = 0, hinted = 0, j, k;
	size_t i;

	begin("the probe estimates the chains after an easy one that missed");
	for (i = 0; i < nr_pages; i++) {
		const u8 *page = pages[i].data;

		if (pages[i].len != PAGE)
			continue;
		zbw_probe(page, PAGE, t, 0, false, scratch, &all);
		zbw_probe(page, PAGE, t, PAGE + 1, false, scratch, &cut);
		if (cut.easy >= cut.nr)
			continue;
		probed++;
		for (j = 1; j < cut.nr; j++)
			CHECK(cut.est[j] == cut.est[0],
			      "%s: chain %u estimate %u, the easy one's %u",
			      pages[i].name, j, cut.est[j], cut.est[0]);
		CHECK(cut.easy == 0 && cut.order[0] == 0,
		      "%s: easy chain %u, tried first %u", pages[i].name,
		      cut.easy, cut.order[0]);
		zbw_probe_rest(page, PAGE, t, scratch, &cut);
		CHECK(cut.easy == cut.nr && cut.order[0] == 0 &&
		      !memcmp(cut.est, all.est, cut.nr * sizeof(*all.est)) &&
		      cut.unsure == all.unsure,
		      "%s: estimates after the miss differ from the probe's",
		      pages[i].name);
		/* the order of the others: the probe's, the chain tried out */
		for (j = 1, k = 0; j < cut.nr; j++, k++) {
			if (all.order[k] == 0)
				k++;
			CHECK(cut.order[j] == all.order[k],
			      "%s: turn %u chain %u, the probe's %u",
			      pages[i].name, j, cut.order[j], all.order[k]);
		}
		CHECK(cut.num.w == all.num.w &&
		      (!all.num.w || (cut.num.cand == all.num.cand &&
				      cut.num.be == all.num.be &&
				      cut.num.page == page)),
		      "%s: the num hint differs", pages[i].name);
		hinted += !!all.num.w;
	}
	CHECK(probed >= 8 && hinted >= 4, "%u pages probed, %u with a num hint",
	      probed, hinted);
	end();
	printf("#   %u pages, %u with a num step's pick\n", probed, hinted);
}

/*
 * The incompressibility test stores random pages without trying a chain,
 * and they round-trip; with store_entropy 0 the probe's first chain runs
 * and the search gives up (no chain is expected below the limit), and
 * without a tolerance too every chain runs.
 */
void test_random_stored_at_once(void)
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
	      res->tried == 1,
	      "store_entropy 0: %u chains tried", res->tried);
	/* without a tolerance every chain runs */
	params.tolerance_shift = 0;
	zbewalgo_ctx_set_params(ctx, &params);
	clen = sizeof(c);
	CHECK(!zbewalgo_compress(ctx, page, PAGE, c, &clen) && res->stored &&
	      res->tried == zbewalgo_table_default()->nr,
	      "store_entropy 0, tolerance_shift 0: %u chains tried",
	      res->tried);
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
void test_precheck_structured(void)
{
	static const unsigned int periods[] = { 661, 1000, 1500, 2064, 2900 };
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	const struct zbewalgo_result *res = zbewalgo_ctx_last_result(ctx);
	unsigned char page[PAGE], c[ZBEWALGO_STORED_SIZE(PAGE)];
	unsigned int n = ARRAY_SIZE(periods);
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
void test_precheck_keeps_compressible(void)
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
	for (i = 0; i < PAGE / 2; i++) {
		extra[2][i] = rnd();
		extra[2][i + PAGE / 2] = extra[2][i];
	}
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
void test_dictionary(void)
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
	x.dict = zbewalgo_ctx_create_for(PAGE, NULL, 0, true);
	x.other = zbewalgo_ctx_create_for(PAGE, NULL, 0, true);
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
	CHECK(made >= 48, "%lu of 64 pages of its pieces need the dictionary",
	      made);
	CHECK(x.with_bytes <= x.without_bytes,
	      "%llu bytes with the dictionary, %llu without", x.with_bytes,
	      x.without_bytes);
	end();
	printf("#   %lu of 64 pages of its pieces need the dictionary", made);
	printf(" and %lu of %lu others: %llu bytes, %llu without\n", used,
	       tried, x.with_bytes, x.without_bytes);
	free(x.scratch);
	zbewalgo_ctx_destroy(x.none);
	zbewalgo_ctx_destroy(x.other);
	zbewalgo_ctx_destroy(x.dict);
	zbewalgo_dict_destroy(other);
	zbewalgo_dict_destroy(dict);
}

/*
 * zstd's frame as the zstd step writes it for a page: a single segment
 * of @c's content size (2 bytes), its Dictionary_ID of @id_len bytes, one
 * compressed block of the @n bytes at @block.
 */
static size_t zstd_frame_form(unsigned char *f, const unsigned char *c,
			      size_t id_len, const unsigned char *block,
			      size_t n)
{
	f[0] = 0x20 | 0x40 | (c[0] & 3);
	memcpy(f + 1, c + 1, id_len);
	put_unaligned_le16(PAGE - 256, f + 1 + id_len);
	f[3 + id_len] = (n << 3 | 1 | 2 << 1) & 0xff;
	f[4 + id_len] = (n << 3) >> 8 & 0xff;
	f[5 + id_len] = (n << 3) >> 16 & 0xff;
	memcpy(f + 6 + id_len, block, n);
	return 6 + id_len + n;
}

/*
 * The zstd step writes one compressed block in its compact form (the
 * frame's descriptor with the reserved bit, its Dictionary_ID, the
 * block), five bytes under zstd's frame, and still reads zstd's frame:
 * a page decodes the same in both forms.  A compact form with any other
 * bit of the descriptor, or naming a dictionary the context lacks, is
 * refused, as is a zstd step with no byte at all (which the first
 * decoder of the compact form read one byte past).
 */
void test_zstd_forms(void)
{
	static const unsigned char id_bytes[4] = { 0, 1, 2, 4 };
	static const unsigned char bits[] = { 0x04, 0x10, 0x20, 0x40, 0x80 };
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create_for(PAGE, NULL, 0, true);
	struct zbewalgo_table *t = table_of("zstd");
	unsigned char page[PAGE], out[PAGE], c[2 * PAGE], f[2 * PAGE], *empty;
	struct zbewalgo_dict *dict;
	size_t clen, flen, olen, id_len;
	unsigned int k, i;
	u32 state = 11;
	int err;

	begin("zstd step: one block in compact form, zstd's frame read too");
	dict = dict_from(zbw_test_dict, sizeof(zbw_test_dict), 2, &err);
	empty = malloc(3);
	if (!ctx || !dict || !empty)
		abort();
	zbewalgo_ctx_set_table(ctx, t);
	for (k = 0; k < 2; k++) {
		zbw_case_dict_page(page, PAGE, zbw_test_dict,
				   sizeof(zbw_test_dict), &state);
		zbewalgo_ctx_set_dict(ctx, k ? dict : NULL);
		clen = sizeof(c);
		CHECK(!zbewalgo_compress(ctx, page, PAGE, c, &clen) &&
		      !zbewalgo_ctx_last_result(ctx)->stored, "compress");
		/* byte 0, the step's id, orig in two bytes, the step's form */
		CHECK(clen > 6 && c[1] == zbewalgo_step_id("zstd", 4) &&
		      (c[4] & ~3) == 0x08 && !(c[4] & 3) == !k,
		      "page %u: %zu bytes, step %u, form 0x%02x", k, clen,
		      c[1], c[4]);
		id_len = id_bytes[c[4] & 3];
		memcpy(f, c, 4);
		flen = 4 + zstd_frame_form(f + 4, c + 4, id_len, c + 5 + id_len,
					   clen - 5 - id_len);
		CHECK(flen == clen + 5, "zstd's frame %zu bytes, compact %zu",
		      flen, clen);
		olen = PAGE;
		err = zbewalgo_ctx_decompress(ctx, c, clen, out, &olen);
		CHECK(!err && olen == PAGE && !memcmp(out, page, PAGE),
		      "page %u in compact form: %d", k, err);
		olen = PAGE;
		err = zbewalgo_ctx_decompress(ctx, f, flen, out, &olen);
		CHECK(!err && olen == PAGE && !memcmp(out, page, PAGE),
		      "page %u in zstd's frame: %d", k, err);
		for (i = 0; i < ARRAY_SIZE(bits); i++) {
			c[4] ^= bits[i];
			olen = PAGE;
			err = zbewalgo_ctx_decompress(ctx, c, clen, out, &olen);
			CHECK(err == -EINVAL, "page %u with 0x%02x: %d", k,
			      c[4], err);
			c[4] ^= bits[i];
		}
		printf("#   %s: %zu bytes, in zstd's frame %zu\n",
		       k ? "with a dictionary" : "without", clen, flen);
	}
	/* a compact form that names a dictionary, on a context without */
	c[4] = (c[4] & ~3) | 1;
	zbewalgo_ctx_set_dict(ctx, NULL);
	olen = PAGE;
	err = zbewalgo_ctx_decompress(ctx, c, clen, out, &olen);
	CHECK(err == -EINVAL, "a dictionary's page without it: %d", err);
	/* the zstd step with nothing to read (fuzz/regressions/decompress) */
	memcpy(empty, "\x11\x10\x00", 3);
	olen = PAGE;
	err = zbewalgo_ctx_decompress(ctx, empty, 3, out, &olen);
	CHECK(err == -EINVAL, "an empty zstd step: %d", err);
	end();
	free(empty);
	zbewalgo_ctx_destroy(ctx);
	zbewalgo_dict_destroy(dict);
	free(t);
}
