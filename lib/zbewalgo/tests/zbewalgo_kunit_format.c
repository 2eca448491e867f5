// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "zbewalgo": round trips of every step and preset table on
 * every kind of page, what the compressed format holds, and truncated,
 * corrupted and random pages, which must fail cleanly or stay inside
 * their buffers.
 */

#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/zstd.h>

#include "zbewalgo_kunit.h"

static const size_t zbw_sizes[] = { 0, 1, 7, 8, 9, 100, 4095, 4096 };

/* Compresses @len bytes into an exact-size copy; returns it and its size. */
static u8 *zbw_compress(struct kunit *test, const u8 *src, size_t len,
			size_t *clen)
{
	struct zbw_fixture *f = test->priv;
	u8 *buf = kmalloc(ZBEWALGO_STORED_SIZE(len), GFP_KERNEL);
	u8 *exact;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	*clen = ZBEWALGO_STORED_SIZE(len);
	KUNIT_ASSERT_EQ(test, zbewalgo_compress(f->ctx, src, len, buf, clen), 0);
	KUNIT_ASSERT_LE(test, *clen, ZBEWALGO_STORED_SIZE(len));
	exact = kmemdup(buf, *clen, GFP_KERNEL);
	kfree(buf);
	KUNIT_ASSERT_NOT_NULL(test, exact);
	return exact;
}

static void zbw_roundtrip_all(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	unsigned int k, s;

	for (k = 0; k < ZBW_NR_KINDS; k++) {
		for (s = 0; s < ARRAY_SIZE(zbw_sizes); s++) {
			size_t len = zbw_sizes[s], clen, olen = len;
			u8 *c = zbw_compress(test, f->page[k], len, &clen);
			u8 *out = kmalloc(len ?: 1, GFP_KERNEL);

			KUNIT_ASSERT_NOT_NULL(test, out);
			KUNIT_EXPECT_EQ_MSG(test, zbewalgo_decompress(c, clen, out,
								      &olen,
								      f->scratch),
					    0, "kind %u, %zu bytes", k, len);
			KUNIT_EXPECT_EQ(test, olen, len);
			KUNIT_EXPECT_MEMEQ(test, out, f->page[k], len);
			kfree(out);
			kfree(c);
		}
	}
}

/* Whether the step of id @id is built, as the table parser sees it */
static bool zbw_built(unsigned int id)
{
	const char *name = zbewalgo_step_name(id);

	return name && zbewalgo_step_id(name, strlen(name)) > 0;
}

/*
 * The classic steps of ../core/steps.h: in a build with them, tables take
 * them and level 3 has fifteen chains; without them a table that names one
 * is refused, unchanged, and level 3 has its ten chains of core steps.
 */
static void zbewalgo_test_classic_steps(struct kunit *test)
{
	static const char *const classic[] = {
		"bwt", "mtf", "jbe", "jbe2", "rle", "huffman", "bewalgo",
		"bewalgo2", "lz", "sieve4", "huffman4",
	};
	const struct zbewalgo_table *thorough = zbewalgo_preset_table(3);
	struct zbewalgo_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned int i, k;

	KUNIT_ASSERT_NOT_NULL(test, t);
	zbewalgo_table_reset(t);
	for (i = 0; i < ARRAY_SIZE(classic); i++) {
		int id = zbewalgo_step_id(classic[i], strlen(classic[i]));

		KUNIT_EXPECT_EQ_MSG(test, id > 0, !!ZBW_SET_classic, "%s", classic[i]);
		KUNIT_EXPECT_EQ_MSG(test, !!zbewalgo_table_add(t, classic[i]),
				    !ZBW_SET_classic, "%s", classic[i]);
		if (!ZBW_SET_classic) {
			KUNIT_EXPECT_EQ(test, id, -EOPNOTSUPP);
			KUNIT_EXPECT_MEMEQ(test, t, zbewalgo_table_default(),
					   sizeof(*t));
		}
	}
	KUNIT_EXPECT_EQ(test, thorough->nr, ZBW_SET_classic ? 15U : 10U);
	for (i = 0; i < thorough->nr; i++) {
		const struct zbewalgo_combination *c = &thorough->comb[i];

		for (k = 0; k < c->nr_steps; k++)
			KUNIT_EXPECT_TRUE(test, zbw_built(c->ids[k]));
	}
}

/* Every step alone (a one-step table) and every preset, on every kind. */
static void zbewalgo_test_steps_and_presets(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	struct zbewalgo_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	unsigned int id, level;

	KUNIT_ASSERT_NOT_NULL(test, t);
	for (id = 1; zbewalgo_step_name(id); id++) {
		if (!zbw_built(id))
			continue;
		t->nr = 1;
		t->comb[0].nr_steps = 1;
		t->comb[0].ids[0] = id;
		zbewalgo_ctx_set_table(f->ctx, t);
		zbw_roundtrip_all(test);
	}
	KUNIT_EXPECT_GE(test, id, 11U);
	for (level = 1; zbewalgo_preset_table(level); level++) {
		zbewalgo_ctx_set_table(f->ctx, zbewalgo_preset_table(level));
		KUNIT_EXPECT_EQ(test, zbewalgo_ctx_set_level(f->ctx, level), 0);
		zbw_roundtrip_all(test);
	}
	KUNIT_EXPECT_EQ(test, level, ZBEWALGO_MAX_LEVEL + 1);
	KUNIT_EXPECT_EQ(test, zbewalgo_ctx_set_level(f->ctx, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, zbewalgo_ctx_set_level(f->ctx, level), -EINVAL);
}

static void zbewalgo_test_compresses(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	size_t clen;
	u8 *c;

	c = zbw_compress(test, f->page[ZBW_TEXT], PAGE_LEN, &clen);
	KUNIT_EXPECT_LT(test, clen, PAGE_LEN / 4);
	KUNIT_EXPECT_FALSE(test, zbewalgo_ctx_last_result(f->ctx)->stored);
	kfree(c);
	c = zbw_compress(test, f->page[ZBW_FLOAT32], PAGE_LEN, &clen);
	KUNIT_EXPECT_LT(test, clen, PAGE_LEN / 2);
	kfree(c);
	/* Random-looking lanes with structure: a repeated block, sorted. */
	c = zbw_compress(test, f->page[ZBW_PERIODIC], PAGE_LEN, &clen);
	KUNIT_EXPECT_FALSE(test, zbewalgo_ctx_last_result(f->ctx)->stored);
	KUNIT_EXPECT_LT(test, clen, PAGE_LEN * 51 / 64);
	kfree(c);
	c = zbw_compress(test, f->page[ZBW_SORTED], PAGE_LEN, &clen);
	KUNIT_EXPECT_FALSE(test, zbewalgo_ctx_last_result(f->ctx)->stored);
	KUNIT_EXPECT_LT(test, clen, PAGE_LEN * 51 / 64);
	kfree(c);
	/* Incompressible: stored form, never an error. */
	c = zbw_compress(test, f->page[ZBW_RANDOM], PAGE_LEN, &clen);
	KUNIT_EXPECT_TRUE(test, zbewalgo_ctx_last_result(f->ctx)->stored);
	KUNIT_EXPECT_GE(test, clen, (size_t)PAGE_LEN);
	kfree(c);
}

/*
 * A context of 4 KiB pages, scratch included, needs no more than zram's
 * zstd backend takes per stream (zstd's contexts for its default level,
 * sized for a page): for any table and level, and for each level and its
 * table, as a zram device's stream has it.  Level 1 keeps zstd's tables
 * for level -1 only.  With a dictionary, zstd's compression context is
 * the one zram's zstd stream has (attaching the dictionary's tables needs
 * zstd's own for a page, larger than ours): the stream then takes our
 * buffers more, under a seventh of zram's.
 */
static void zbewalgo_test_context_size(struct kunit *test)
{
	zstd_parameters params = zstd_get_params(3, PAGE_LEN);
	size_t size = zbewalgo_ctx_size(PAGE_LEN), zram_zstd, dev[4], dict[4];
	int level;

	zram_zstd = zstd_cctx_workspace_bound(&params.cParams) +
		    zstd_dctx_workspace_bound();
	KUNIT_EXPECT_LE(test, size, zram_zstd);
	KUNIT_EXPECT_LE(test, zbewalgo_decompress_scratch_size(PAGE_LEN), size);
	for (level = 1; level <= ZBEWALGO_MAX_LEVEL; level++) {
		const struct zbewalgo_table *t = zbewalgo_preset_table(level);

		dev[level] = zbewalgo_ctx_size_for(PAGE_LEN, t, level, false);
		dict[level] = zbewalgo_ctx_size_for(PAGE_LEN, t, level, true);
		KUNIT_EXPECT_LE(test, dev[level], zram_zstd);
		KUNIT_EXPECT_LE(test, dev[level], dict[level]);
		KUNIT_EXPECT_LE(test, dict[level], zram_zstd + zram_zstd / 7);
	}
	KUNIT_EXPECT_LT(test, dev[1], dict[1]);
	kunit_info(test, "context for %u-byte pages: %zu bytes; levels 1-3 %zu, %zu, %zu, with a dictionary %zu, %zu, %zu (zram's zstd stream: %zu)\n",
		   PAGE_LEN, size, dev[1], dev[2], dev[3], dict[1], dict[2],
		   dict[3], zram_zstd);
}

#ifdef CONFIG_ZBEWALGO_CLASSIC_STEPS
/* Compresses @src on @ctx with @table alone; the exact-size result */
static u8 *zbw_compress_with(struct kunit *test, struct zbewalgo_ctx *ctx,
			     const char *table, const u8 *src, size_t *clen)
{
	struct zbewalgo_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	u8 *buf = kunit_kmalloc(test, ZBEWALGO_STORED_SIZE(PAGE_LEN),
				GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, zbewalgo_table_parse(t, table), 0);
	zbewalgo_ctx_set_table(ctx, t);
	*clen = ZBEWALGO_STORED_SIZE(PAGE_LEN);
	KUNIT_ASSERT_EQ(test, zbewalgo_compress(ctx, src, PAGE_LEN, buf, clen),
			0);
	KUNIT_ASSERT_FALSE(test, zbewalgo_ctx_last_result(ctx)->stored);
	return buf;
}

/*
 * lz and bwt take zstd's decompression workspace as scratch on a context
 * for 4 KiB pages; zstd sets its context up again after them.  A zstd
 * page decodes on that context after lz and bwt pages were made and
 * decoded there.  (The user-space test also fills the workspace with
 * bytes of its own: here that would need the loan exported.)
 */
static void zbewalgo_test_lent_scratch(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	static const char *const big[] = { "lz", "bwt-mtf-huffman" };
	struct zbewalgo_ctx *ctx =
		zbewalgo_ctx_create_for(PAGE_LEN, zbewalgo_preset_table(3), 3,
					false);
	u8 *out = kunit_kmalloc(test, PAGE_LEN, GFP_KERNEL);
	size_t zlen, blen, n;
	unsigned int i;
	u8 *z, *b;

	KUNIT_ASSERT_NOT_NULL(test, ctx);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_EXPECT_NE(test, ctx->lent, 0ULL);
	z = zbw_compress_with(test, ctx, "zstd", f->page[ZBW_TEXT], &zlen);
	for (i = 0; i < ARRAY_SIZE(big); i++) {
		b = zbw_compress_with(test, ctx, big[i], f->page[ZBW_TEXT],
				      &blen);
		n = PAGE_LEN;
		KUNIT_EXPECT_EQ(test, zbewalgo_ctx_decompress(ctx, b, blen, out,
							      &n), 0);
		KUNIT_EXPECT_MEMEQ(test, out, f->page[ZBW_TEXT], PAGE_LEN);
		n = PAGE_LEN;
		KUNIT_EXPECT_EQ(test, zbewalgo_ctx_decompress(ctx, z, zlen, out,
							      &n), 0);
		KUNIT_EXPECT_MEMEQ(test, out, f->page[ZBW_TEXT], PAGE_LEN);
	}
	zbewalgo_ctx_destroy(ctx);
}
#endif

/* Truncations fail; corruptions fail or stay inside the buffers. */
static void zbewalgo_test_corrupted(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	struct zbw_case_stats st = { 0 };
	unsigned int k;
	u32 state = 1;

	for (k = 0; k < ZBW_NR_KINDS; k++) {
		struct zbw_case_page pg = { f->page[k], PAGE_LEN,
					    zbw_kind_names[k] };
		size_t clen;
		u8 *c = zbw_compress(test, pg.data, pg.len, &clen);

		zbw_case_corrupted(test, &pg, c, clen, f->scratch, PAGE_LEN, 512,
				   &state, &st);
		kfree(c);
	}
	kunit_info(test, "%lu cuts rejected, %lu of %lu corruptions detected\n",
		   st.cuts, st.detected, st.flips);
}

/* A case of the num steps (zbewalgo_cases.h) on the fixture's context */
static void zbw_test_num_case(struct kunit *test,
			      void (*run)(void *env, struct zbewalgo_ctx *ctx,
					  void *scratch,
					  struct zbw_case_stats *st))
{
	struct zbw_fixture *f = test->priv;
	struct zbw_case_stats st = { 0 };

	run(test, f->ctx, f->scratch, &st);
	kunit_info(test, "%lu cuts rejected, %lu of %lu corruptions detected\n",
		   st.cuts, st.detected, st.flips);
}

/*
 * The num steps' palette view (zbewalgo_cases.h): pages of few distinct
 * numbers, their cuts and corruptions, and hand-made palettes that the
 * decoder must refuse: an index past the count, a count past the most,
 * a table that does not increase.
 */
static void zbewalgo_test_num_palette(struct kunit *test)
{
	zbw_test_num_case(test, zbw_case_num_palette);
}

/*
 * The num steps at a lag (zbewalgo_cases.h): arrays of records, their
 * cuts and corruptions, and hand-made payloads at a lag that the decoder
 * must refuse: a lag of 1, an unknown bit, order 0, a factor of floats.
 */
static void zbewalgo_test_num_lag(struct kunit *test)
{
	zbw_test_num_case(test, zbw_case_num_lag);
}

/*
 * The num steps' shift with exceptions (zbewalgo_cases.h): quantized
 * floats with a few odd numbers, their cuts and corruptions, and
 * hand-made exceptions the decoder must refuse: an index past the
 * numbers, no low bits, low bits past the shift, 65 exceptions.
 */
static void zbewalgo_test_num_exc(struct kunit *test)
{
	zbw_test_num_case(test, zbw_case_num_exc);
}

/* One encoding per page: a byte appended to any page makes it invalid. */
static void zbewalgo_test_trailing_bytes(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	unsigned int k, s, stored = 0;
	u32 state = 3;

	for (k = 0; k < ZBW_NR_KINDS; k++) {
		for (s = 0; s < ARRAY_SIZE(zbw_sizes); s++) {
			struct zbw_case_page pg = { f->page[k], zbw_sizes[s],
						    zbw_kind_names[k] };
			size_t clen;
			u8 *c = zbw_compress(test, pg.data, pg.len, &clen);

			stored += zbewalgo_ctx_last_result(f->ctx)->stored;
			zbw_case_trailing(test, &pg, c, clen, f->scratch,
					  PAGE_LEN, &state);
			kfree(c);
		}
	}
	/* Short and random pages are stored: the check covers that form. */
	KUNIT_EXPECT_GE(test, stored, 2U * ZBW_NR_KINDS);
}

/*
 * A context decodes pages of up to its max_len only, whatever room the
 * caller offers: its scratch is laid out for that length.
 */
static void zbewalgo_test_ctx_decompress_bound(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	struct zbewalgo_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct zbewalgo_ctx *big = zbewalgo_ctx_create(SZ_64K);
	size_t clen = ZBEWALGO_STORED_SIZE(SZ_64K), olen = SZ_64K;
	u8 *page = kvmalloc(SZ_64K, GFP_KERNEL);
	u8 *c = kvmalloc(clen, GFP_KERNEL);
	u8 *out = kvmalloc(SZ_64K, GFP_KERNEL);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, big);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_NOT_NULL(test, c);
	KUNIT_ASSERT_NOT_NULL(test, out);
	KUNIT_ASSERT_EQ(test, zbewalgo_table_parse(t, "delta8-zstd"), 0);
	for (i = 0; i < SZ_64K; i++)
		page[i] = i / (3 + i / 4096 % 8) % 3 ? 0 : 0xff;
	zbewalgo_ctx_set_table(big, t);
	KUNIT_ASSERT_EQ(test, zbewalgo_compress(big, page, SZ_64K, c, &clen), 0);
	KUNIT_ASSERT_EQ(test, zbewalgo_ctx_last_result(big)->nr_steps, 2U);
	KUNIT_EXPECT_EQ(test, zbewalgo_ctx_decompress(f->ctx, c, clen, out,
						      &olen), -ENOSPC);
	olen = SZ_64K;
	KUNIT_EXPECT_EQ(test, zbewalgo_ctx_decompress(big, c, clen, out,
						      &olen), 0);
	KUNIT_EXPECT_EQ(test, olen, (size_t)SZ_64K);
	KUNIT_EXPECT_MEMEQ(test, out, page, SZ_64K);
	kvfree(out);
	kvfree(c);
	kvfree(page);
	zbewalgo_ctx_destroy(big);
}

/* Random bytes, half of them behind valid headers: errors only. */
static void zbewalgo_test_random_input(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	u32 state = 7;

	zbw_case_random(test, f->scratch, PAGE_LEN, 3000, &state);
}

/* Any destination smaller than the result: -ENOSPC, no write past it. */
static void zbewalgo_test_small_destination(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	size_t need, cap;
	u8 *c;

	c = zbw_compress(test, f->page[ZBW_SPARSE], PAGE_LEN, &need);
	kfree(c);
	for (cap = 0; cap < need; cap++) {
		u8 *d = kmalloc(cap ?: 1, GFP_KERNEL);
		size_t dlen = cap;
		int ret;

		KUNIT_ASSERT_NOT_NULL(test, d);
		ret = zbewalgo_compress(f->ctx, f->page[ZBW_SPARSE], PAGE_LEN,
					d, &dlen);
		KUNIT_EXPECT_TRUE(test, ret == -ENOSPC ||
				  (ret == 0 && dlen <= cap));
		kfree(d);
	}
}

static struct kunit_case zbewalgo_test_cases[] = {
	KUNIT_CASE(zbewalgo_test_classic_steps),
	KUNIT_CASE(zbewalgo_test_steps_and_presets),
	KUNIT_CASE(zbewalgo_test_compresses),
	KUNIT_CASE(zbewalgo_test_context_size),
#ifdef CONFIG_ZBEWALGO_CLASSIC_STEPS
	KUNIT_CASE(zbewalgo_test_lent_scratch),
#endif
	KUNIT_CASE(zbewalgo_test_corrupted),
	KUNIT_CASE(zbewalgo_test_num_palette),
	KUNIT_CASE(zbewalgo_test_num_lag),
	KUNIT_CASE(zbewalgo_test_num_exc),
	KUNIT_CASE(zbewalgo_test_trailing_bytes),
	KUNIT_CASE(zbewalgo_test_ctx_decompress_bound),
	KUNIT_CASE(zbewalgo_test_random_input),
	KUNIT_CASE(zbewalgo_test_small_destination),
	{}
};

static struct kunit_suite zbewalgo_test_suite = {
	.name = "zbewalgo",
	.init = zbw_init,
	.exit = zbw_exit,
	.test_cases = zbewalgo_test_cases,
};

kunit_test_suite(zbewalgo_test_suite);
