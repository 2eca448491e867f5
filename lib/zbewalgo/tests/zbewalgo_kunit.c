// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for zbewalgo: the kernel build of the algorithm, checked with
 * KASAN (see lib/zbewalgo/.kunitconfig).  Buffers are kmalloc'ed at their
 * exact sizes so KASAN reports any access outside them.
 */

#include <kunit/test.h>
#include <linux/percpu.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/zbewalgo.h>
#include <linux/zstd.h>

#include "../engine.h"
#include "../stream.h"
#include "../zbewalgo_internal.h"

#define ZBW_CASE_CHECK(env, cond, ...) \
	KUNIT_EXPECT_TRUE_MSG(((struct kunit *)(env)), cond, __VA_ARGS__)
#include "zbewalgo_cases.h"
#include "zbewalgo_test_dict.h"

#define PAGE_LEN	4096

enum zbw_kind {
	ZBW_ZERO,
	ZBW_REPEAT,
	ZBW_TEXT,
	ZBW_FLOAT32,
	ZBW_FLOAT64,
	ZBW_SPARSE,
	ZBW_RANDOM,
	ZBW_PERIODIC,
	ZBW_SORTED,
	ZBW_NR_KINDS,
};

static const char *const zbw_kind_names[ZBW_NR_KINDS] = {
	"zero", "repeat", "text", "float32", "float64", "sparse", "random",
	"periodic", "sorted",
};

static const size_t zbw_sizes[] = { 0, 1, 7, 8, 9, 100, 4095, 4096 };

/* Pages of the kinds zram sees; floats are built bitwise (no FPU here). */
static void zbw_fill(u8 *p, enum zbw_kind kind)
{
	static const char text[] = "zram compresses every page on its own. ";
	static const u8 f32[4] = { 0, 0, 0x8c, 0x43 };
	static const u8 f64[4] = { 0, 0xf0, 0xf0, 0x3f };
	u32 state = 0x12345678 + kind;
	u16 count[256] = { 0 };
	unsigned int i, b;

	if (kind == ZBW_SORTED) {
		/* random bytes in ascending order */
		for (i = 0; i < PAGE_LEN; i++)
			count[zbw_case_rnd(&state) & 0xff]++;
		for (b = 0, i = 0; b < 256; b++)
			while (count[b]--)
				p[i++] = b;
		return;
	}

	for (i = 0; i < PAGE_LEN; i++) {
		switch (kind) {
		case ZBW_ZERO:
			p[i] = 0;
			break;
		case ZBW_REPEAT:
			p[i] = 0xa5;
			break;
		case ZBW_TEXT:
			p[i] = text[i % (sizeof(text) - 1)];
			break;
		case ZBW_FLOAT32:
			/* 0x438cxxxx: values near 280 that change slowly */
			p[i] = f32[i % 4] | (i % 4 == 1 ? i / 64 : 0) |
			       (i % 4 == 0 ? i / 4 * 37 : 0);
			break;
		case ZBW_FLOAT64:
			/* near 1.0: random low mantissa, steady high bytes */
			p[i] = i % 8 < 4 ? zbw_case_rnd(&state) :
			       f64[i % 8 - 4] | (i % 8 == 5 ? i / 512 : 0);
			break;
		case ZBW_SPARSE:
			p[i] = zbw_case_rnd(&state) % 16 ? 0 : zbw_case_rnd(&state);
			break;
		case ZBW_PERIODIC:
			/* a random block of 661 bytes, repeated */
			p[i] = i < 661 ? zbw_case_rnd(&state) : p[i - 661];
			break;
		default:
			p[i] = zbw_case_rnd(&state);
			break;
		}
	}
}

struct zbw_fixture {
	struct zbewalgo_ctx *ctx;
	void *scratch;
	u8 *page[ZBW_NR_KINDS];
};

static int zbw_init(struct kunit *test)
{
	struct zbw_fixture *f = kunit_kzalloc(test, sizeof(*f), GFP_KERNEL);
	unsigned int k;

	KUNIT_ASSERT_NOT_NULL(test, f);
	f->ctx = zbewalgo_ctx_create(PAGE_LEN);
	KUNIT_ASSERT_NOT_NULL(test, f->ctx);
	f->scratch = kunit_kmalloc(test,
				   zbewalgo_decompress_scratch_size(PAGE_LEN),
				   GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->scratch);
	for (k = 0; k < ZBW_NR_KINDS; k++) {
		f->page[k] = kunit_kmalloc(test, PAGE_LEN, GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, f->page[k]);
		zbw_fill(f->page[k], k);
	}
	test->priv = f;
	return 0;
}

static void zbw_exit(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;

	zbewalgo_ctx_destroy(f->ctx);
}

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
 * The classic steps of steps.h: in a build with them, tables take them and
 * level 3 has fifteen chains; without them a table that names one is
 * refused, unchanged, and level 3 has its ten chains of core steps.
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
 * table, with a dictionary or without, as a zram device's stream has it.
 * Level 1 without a dictionary keeps zstd's tables for level -1 only.
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
		KUNIT_EXPECT_LE(test, dev[level], dict[level]);
		KUNIT_EXPECT_LE(test, dict[level], zram_zstd);
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

/*
 * The num steps' palette view (zbewalgo_cases.h): pages of few distinct
 * numbers, their cuts and corruptions, and hand-made palettes that the
 * decoder must refuse: an index past the count, a count past the most,
 * a table that does not increase.
 */
static void zbewalgo_test_num_palette(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	struct zbw_case_stats st = { 0 };

	zbw_case_num_palette(test, f->ctx, f->scratch, &st);
	kunit_info(test, "%lu cuts rejected, %lu of %lu corruptions detected\n",
		   st.cuts, st.detected, st.flips);
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

#define EIGHT_STEPS	"delta4-delta8-delta4-delta8-bitshuffle4-bitshuffle8-delta4-zstd"

static void zbewalgo_test_table_text(struct kunit *test)
{
	struct zbewalgo_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct zbewalgo_table *old = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_EQ(test, zbewalgo_table_command(t, "set delta4-bitshuffle4-zstd zstd\n"), 0);
	zbewalgo_table_format(t, buf, PAGE_SIZE);
	KUNIT_EXPECT_STREQ(test, buf, "delta4-bitshuffle4-zstd\nzstd\n");
	*old = *t;
	KUNIT_EXPECT_EQ(test, zbewalgo_table_command(t, "add nosuch"), -EINVAL);
	KUNIT_EXPECT_EQ(test, zbewalgo_table_command(t, "set " EIGHT_STEPS),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, zbewalgo_table_command(t, "set "), -EINVAL);
	KUNIT_EXPECT_EQ(test, zbewalgo_table_command(t, "add zstd"), -EEXIST);
	KUNIT_EXPECT_MEMEQ(test, t, old, sizeof(*t));
	KUNIT_EXPECT_EQ(test, zbewalgo_table_command(t, "reset"), 0);
	KUNIT_EXPECT_MEMEQ(test, t, zbewalgo_table_default(), sizeof(*t));
}

/* The step budget: presets fit, a table over it is refused unchanged. */
static void zbewalgo_test_table_budget(struct kunit *test)
{
	struct zbewalgo_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	struct zbewalgo_table *old = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	char *text = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	unsigned int i, k, level, len = 0;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_ASSERT_NOT_NULL(test, text);
	KUNIT_EXPECT_LE(test, zbewalgo_table_steps(zbewalgo_table_default()),
			ZBEWALGO_MAX_TABLE_STEPS);
	for (level = 1; zbewalgo_preset_table(level); level++)
		KUNIT_EXPECT_LE(test,
				zbewalgo_table_steps(zbewalgo_preset_table(level)),
				ZBEWALGO_MAX_TABLE_STEPS);
	for (level = 1; zbewalgo_preset_table(level); level++)
		KUNIT_EXPECT_LE(test,
				zbewalgo_table_cost(zbewalgo_preset_table(level)),
				ZBEWALGO_MAX_TABLE_COST);
#ifdef CONFIG_ZBEWALGO_CLASSIC_STEPS
	/* Three BWTs cost more than a page may. */
	KUNIT_EXPECT_EQ(test, zbewalgo_table_command(t, "set bwt bwt-rle bwt-jbe"),
			-ENOSPC);
#endif
	/*
	 * "set" and nine different 7-step chains (delta4 or delta8 by the
	 * bits of the chain's number, then zstd), then "zstd"
	 */
	len += scnprintf(text + len, PAGE_SIZE - len, "set");
	for (i = 0; i < ZBEWALGO_MAX_TABLE_STEPS / 7; i++) {
		len += scnprintf(text + len, PAGE_SIZE - len, " ");
		for (k = 0; k < 6; k++)
			len += scnprintf(text + len, PAGE_SIZE - len, "delta%d-",
					 i & BIT(k) ? 8 : 4);
		len += scnprintf(text + len, PAGE_SIZE - len, "zstd");
	}
	len += scnprintf(text + len, PAGE_SIZE - len, " zstd\n");
	KUNIT_ASSERT_EQ(test, ZBEWALGO_MAX_TABLE_STEPS % 7, 1);
	KUNIT_ASSERT_EQ(test, zbewalgo_table_command(t, text), 0);
	KUNIT_EXPECT_EQ(test, zbewalgo_table_steps(t), ZBEWALGO_MAX_TABLE_STEPS);
	*old = *t;
	KUNIT_EXPECT_EQ(test, zbewalgo_table_command(t, "add delta4\n"), -ENOSPC);
	KUNIT_EXPECT_MEMEQ(test, t, old, sizeof(*t));
	memcpy(text + len - 1, " delta4\n", 9);
	KUNIT_EXPECT_EQ(test, zbewalgo_table_command(t, text), -ENOSPC);
	KUNIT_EXPECT_MEMEQ(test, t, old, sizeof(*t));
}

/*
 * sysfs "wins": counts before the lines of a table longer than a page
 * (built directly, as no budget allows it) keep whole lines only.
 */
static void zbewalgo_test_format_counts(struct kunit *test)
{
	struct zbewalgo_table *t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	u64 *counts = kunit_kcalloc(test, ZBEWALGO_MAX_COMBINATIONS,
				    sizeof(*counts), GFP_KERNEL);
	char *buf = kunit_kzalloc(test, PAGE_SIZE, GFP_KERNEL);
	int b4 = zbewalgo_step_id("bitshuffle4", 11);
	int b8 = zbewalgo_step_id("bitshuffle8", 11);
	unsigned int i, k, lines = 0;
	size_t len;
	int full;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, counts);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_GT(test, b4, 0);
	KUNIT_ASSERT_GT(test, b8, 0);
	t->nr = ZBEWALGO_MAX_COMBINATIONS;
	for (i = 0; i < t->nr; i++) {
		t->comb[i].nr_steps = ZBEWALGO_MAX_STEPS;
		for (k = 0; k < ZBEWALGO_MAX_STEPS; k++)
			t->comb[i].ids[k] = (i >> k) & 1 ? b8 : b4;
		counts[i] = U64_MAX - i;
	}
	/* a short first line, so that no page boundary falls between lines */
	counts[0] = 0;
	full = zbewalgo_table_format_counts(t, counts, buf, PAGE_SIZE);
	len = strlen(buf);
	KUNIT_EXPECT_GT(test, full, (int)PAGE_SIZE);
	KUNIT_EXPECT_LT(test, len, (size_t)PAGE_SIZE);
	KUNIT_ASSERT_GT(test, len, (size_t)0);
	KUNIT_EXPECT_EQ(test, buf[len - 1], '\n');
	for (i = 0; i < len; i++)
		lines += buf[i] == '\n';
	/* the first line is 2 + 7 * 12 - 1 + 1 = 86 bytes, the others 105 */
	KUNIT_ASSERT_GT(test, lines, 0U);
	KUNIT_EXPECT_EQ(test, len, 86 + (size_t)(lines - 1) * 105);
	KUNIT_EXPECT_EQ(test, lines,
			(unsigned int)((PAGE_SIZE - 1 - 86) / 105 + 1));
	KUNIT_EXPECT_EQ(test, strncmp(buf, "0 bitshuffle4-", 14), 0);
	KUNIT_EXPECT_EQ(test, strncmp(buf + 86, "18446744073709551614 bitshuffle8-",
				      33), 0);
}

static int zbw_setup_fails(void)
{
	return -EEXIST;
}

static int zbw_setup_works(void)
{
	return 0;
}

/*
 * A failed library init frees its configuration before returning: a
 * module whose init fails is freed at once, and a pending RCU callback
 * would then run freed code.  Tested on a slot of its own, beside the
 * live configuration.
 */
static void zbewalgo_test_failed_init(struct kunit *test)
{
	struct zbewalgo_config __rcu *slot = NULL;
	struct zbewalgo_config *live = zbewalgo_config_get();
	int base = zbewalgo_nr_configs();

	/* the library's own, beside which the test works */
	KUNIT_EXPECT_NOT_NULL(test, live);
	zbewalgo_config_put(live);
	KUNIT_EXPECT_EQ(test, zbewalgo_core_init(&slot, zbw_setup_fails),
			-EEXIST);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(slot));
	KUNIT_EXPECT_EQ(test, zbewalgo_nr_configs(), base);
	KUNIT_ASSERT_EQ(test, zbewalgo_core_init(&slot, zbw_setup_works), 0);
	KUNIT_EXPECT_NOT_NULL(test, rcu_access_pointer(slot));
	KUNIT_EXPECT_EQ(test, zbewalgo_nr_configs(), base + 1);
	zbewalgo_core_exit(&slot);
	KUNIT_EXPECT_NULL(test, rcu_access_pointer(slot));
	KUNIT_EXPECT_EQ(test, zbewalgo_nr_configs(), base);
}

/*
 * Pages longer than the page format holds (a kernel with 256 KiB pages)
 * are an invalid argument, not a failed allocation: stream creation says
 * -EINVAL.  Pages of ZBEWALGO_MAX_INPUT bytes (64 KiB) work.
 */
static void zbewalgo_test_page_too_long(struct kunit *test)
{
	static const int levels[] = { 0, 1, ZBEWALGO_MAX_LEVEL };
	struct zbewalgo_stream *s;
	unsigned int i;

	KUNIT_EXPECT_NULL(test, zbewalgo_ctx_create(ZBEWALGO_MAX_INPUT + 1));
	for (i = 0; i < ARRAY_SIZE(levels); i++) {
		s = zbewalgo_stream_create(SZ_256K, levels[i], NULL);
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(s), -EINVAL);
		zbewalgo_stream_destroy(s);
		s = zbewalgo_stream_create(ZBEWALGO_MAX_INPUT + 1, levels[i],
					   NULL);
		KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(s), -EINVAL);
		zbewalgo_stream_destroy(s);
	}
	s = zbewalgo_stream_create(ZBEWALGO_MAX_INPUT, 0, NULL);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(s), 0);
	zbewalgo_stream_destroy(s);
}

/* Compresses @src on @s into @dst (ZBEWALGO_STORED_SIZE() bytes). */
static size_t zbw_stream_pack(struct kunit *test, struct zbewalgo_stream *s,
			      const u8 *src, u8 *dst)
{
	size_t len = ZBEWALGO_STORED_SIZE(PAGE_LEN);

	KUNIT_ASSERT_EQ(test, zbewalgo_stream_compress(s, src, PAGE_LEN, dst,
						       &len), 0);
	return len;
}

#ifdef CONFIG_ZBEWALGO_TUNING
static int zbw_edit_copy(struct zbewalgo_config *cfg, const void *arg)
{
	const struct zbewalgo_config *from = arg;

	cfg->table = from->table;
	cfg->params = from->params;
	return 0;
}

static int zbw_edit_other(struct zbewalgo_config *cfg, const void *arg)
{
	return zbewalgo_table_parse(&cfg->table, "delta8-bitshuffle8-zstd");
}
#endif

/*
 * zram up to 6.14 compresses a page a second time when its first
 * allocation fails, maybe on another CPU's stream, and trusts the first
 * length.  A page compresses the same on contexts that saw other pages
 * before, at every level.
 */
static void zbewalgo_test_deterministic(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	struct zbewalgo_ctx *other = zbewalgo_ctx_create(PAGE_LEN);
	size_t len[ZBW_NR_KINDS], n, max = ZBEWALGO_STORED_SIZE(PAGE_LEN);
	u8 *first = kunit_kmalloc(test, ZBW_NR_KINDS * max, GFP_KERNEL);
	u8 *again = kunit_kmalloc(test, max, GFP_KERNEL);
	int level, k, ret;

	KUNIT_ASSERT_NOT_NULL(test, other);
	KUNIT_ASSERT_NOT_NULL(test, first);
	KUNIT_ASSERT_NOT_NULL(test, again);
	for (level = 1; level <= ZBEWALGO_MAX_LEVEL; level++) {
		zbewalgo_ctx_set_level(f->ctx, level);
		zbewalgo_ctx_set_level(other, level);
		zbewalgo_ctx_set_table(f->ctx, zbewalgo_preset_table(level));
		zbewalgo_ctx_set_table(other, zbewalgo_preset_table(level));
		for (k = 0; k < ZBW_NR_KINDS; k++) {
			u8 *dst = first + k * max;

			len[k] = max;
			ret = zbewalgo_compress(f->ctx, f->page[k], PAGE_LEN,
						dst, &len[k]);
			KUNIT_ASSERT_EQ(test, ret, 0);
		}
		for (k = ZBW_NR_KINDS - 1; k >= 0; k--) {
			n = max;
			ret = zbewalgo_compress(other, f->page[k], PAGE_LEN,
						again, &n);
			KUNIT_ASSERT_EQ(test, ret, 0);
			KUNIT_EXPECT_EQ_MSG(test, n, len[k], "level %d, %s",
					    level, zbw_kind_names[k]);
			KUNIT_EXPECT_MEMEQ_MSG(test, again, first + k * max,
					       min(n, len[k]), "level %d, %s",
					       level, zbw_kind_names[k]);
		}
	}
	zbewalgo_ctx_destroy(other);
}

#ifdef CONFIG_ZBEWALGO_TUNING
/*
 * A stream given a configuration keeps it when sysfs publishes another,
 * while a stream that follows sysfs changes.
 */
static void zbewalgo_test_follows_sysfs(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	struct zbewalgo_config *cfg = zbewalgo_config_get();
	struct zbewalgo_stream *kept, *live;
	size_t n, m, max = ZBEWALGO_STORED_SIZE(PAGE_LEN);
	u8 *first = kunit_kmalloc(test, 2 * max, GFP_KERNEL);
	u8 *again = kunit_kmalloc(test, max, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, first);
	KUNIT_ASSERT_NOT_NULL(test, again);
	kept = zbewalgo_stream_create(PAGE_LEN, 0, cfg);
	live = zbewalgo_stream_create(PAGE_LEN, 0, NULL);
	KUNIT_ASSERT_FALSE(test, IS_ERR(kept));
	KUNIT_ASSERT_FALSE(test, IS_ERR(live));
	n = zbw_stream_pack(test, kept, f->page[ZBW_TEXT], first);
	m = zbw_stream_pack(test, live, f->page[ZBW_TEXT], first + max);
	KUNIT_ASSERT_EQ(test, zbewalgo_config_update(zbw_edit_other, NULL), 0);
	KUNIT_EXPECT_EQ(test, zbw_stream_pack(test, kept, f->page[ZBW_TEXT],
					      again), n);
	KUNIT_EXPECT_MEMEQ(test, again, first, n);
	KUNIT_EXPECT_NE_MSG(test, zbw_stream_pack(test, live,
						  f->page[ZBW_TEXT], again), m,
			    "a stream that follows sysfs kept the old table");
	KUNIT_EXPECT_EQ(test, zbewalgo_config_update(zbw_edit_copy, cfg), 0);
	zbewalgo_stream_destroy(live);
	zbewalgo_stream_destroy(kept);
	zbewalgo_config_put(cfg);
}
#endif

/* The counters of @cfg summed over the CPUs, in memory of the test */
static struct zbewalgo_stats_sum *zbw_sum(struct kunit *test,
					  struct zbewalgo_config *cfg)
{
	struct zbewalgo_stats_sum *sum = kunit_kmalloc(test, sizeof(*sum),
						       GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sum);
	zbewalgo_stats_sum(cfg, sum);
	return sum;
}

/* Pages stored under @cfg, over all CPUs. */
static u64 zbw_stored(struct kunit *test, struct zbewalgo_config *cfg)
{
	return zbw_sum(test, cfg)->stored;
}

#ifdef CONFIG_ZBEWALGO_TUNING
/*
 * zram's zbewalgo.* keys: a device's configuration takes a table and
 * thresholds of its own, refuses what sysfs refuses, replaces the preset
 * of its stream's level, and neither follows nor counts in the shared
 * settings.
 */
static void zbewalgo_test_device_config(struct kunit *test)
{
	static const struct {
		const char *table;
		int early, max;
	} bad[] = {
		{ "nosuchstep", -1, -1 }, { "", -1, -1 }, { "zstd zstd", -1, -1 },
		{ EIGHT_STEPS, -1, -1 },
		{ NULL, 4000, 3000 }, { NULL, -1, 0 }, { NULL, 0, 70000 },
	};
	struct zbw_fixture *f = test->priv;
	struct zbewalgo_config *shared = zbewalgo_config_get();
	struct zbewalgo_config *cfg, *now;
	struct zbewalgo_stream *dev;
	size_t max = ZBEWALGO_STORED_SIZE(PAGE_LEN), n, m;
	u8 *a = kunit_kmalloc(test, max, GFP_KERNEL);
	u8 *b = kunit_kmalloc(test, max, GFP_KERNEL);
	u64 stored, shared_stored;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, shared);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		cfg = zbewalgo_config_create(0, bad[i].table, bad[i].early,
					     bad[i].max);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(cfg), -EINVAL,
				    "case %u", i);
		if (!IS_ERR(cfg))
			zbewalgo_config_put(cfg);
	}
	/* only a preset's level */
	KUNIT_EXPECT_EQ(test, PTR_ERR(zbewalgo_config_create(-1, NULL, -1, -1)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test,
			PTR_ERR(zbewalgo_config_create(ZBEWALGO_MAX_LEVEL + 1,
						       NULL, -1, -1)),
			-EINVAL);

	/* Thresholds alone: the shared table, the sizes given. */
	cfg = zbewalgo_config_create(0, NULL, 100, 2000);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cfg));
	KUNIT_EXPECT_FALSE(test, cfg->own_table);
	KUNIT_EXPECT_EQ(test, cfg->params.early_abort_size, 100);
	KUNIT_EXPECT_EQ(test, cfg->params.max_output_size, 2000);
	KUNIT_EXPECT_EQ(test, cfg->table.nr, shared->table.nr);
	KUNIT_EXPECT_MEMEQ(test, cfg->table.comb, shared->table.comb,
			   shared->table.nr * sizeof(shared->table.comb[0]));
	zbewalgo_config_put(cfg);

	/* A table of its own at level 1: that table, zstd at level 1. */
	cfg = zbewalgo_config_create(0, "delta4-zstd delta8-zstd", -1, -1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cfg));
	KUNIT_EXPECT_EQ(test, cfg->table.nr, 2U);
	KUNIT_EXPECT_EQ(test, cfg->params.max_output_size,
			shared->params.max_output_size);
	dev = zbewalgo_stream_create(PAGE_LEN, 1, cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	zbewalgo_ctx_set_level(f->ctx, 1);
	zbewalgo_ctx_set_table(f->ctx, &cfg->table);
	zbewalgo_ctx_set_params(f->ctx, &cfg->params);
	n = max;
	KUNIT_ASSERT_EQ(test, zbewalgo_compress(f->ctx, f->page[ZBW_TEXT],
						PAGE_LEN, a, &n), 0);
	m = zbw_stream_pack(test, dev, f->page[ZBW_TEXT], b);
	KUNIT_EXPECT_EQ(test, m, n);
	KUNIT_EXPECT_MEMEQ(test, b, a, min(m, n));

	/* The shared settings change; the device's do not. */
	KUNIT_ASSERT_EQ(test, zbewalgo_config_update(zbw_edit_other, NULL), 0);
	KUNIT_EXPECT_EQ(test, zbw_stream_pack(test, dev, f->page[ZBW_TEXT], b),
			n);
	KUNIT_EXPECT_MEMEQ(test, b, a, n);

	/* Its pages count in its own statistics only. */
	now = zbewalgo_config_get();
	KUNIT_ASSERT_NOT_NULL(test, now);
	stored = zbw_stored(test, cfg);
	shared_stored = zbw_stored(test, now);
	zbw_stream_pack(test, dev, f->page[ZBW_RANDOM], b);
	KUNIT_EXPECT_EQ(test, zbw_stored(test, cfg), stored + 1);
	KUNIT_EXPECT_EQ(test, zbw_stored(test, now), shared_stored);

	KUNIT_EXPECT_EQ(test, zbewalgo_config_update(zbw_edit_copy, shared), 0);
	zbewalgo_stream_destroy(dev);
	zbewalgo_config_put(now);
	zbewalgo_config_put(cfg);
	zbewalgo_config_put(shared);
}
#endif

/*
 * zram's dict= (zbewalgo_cases.h): contexts with the test dictionary, one
 * with a dictionary of another id and one without, on pages of every kind
 * and of the dictionary's pieces; then a device's configuration with it,
 * whose streams compress as such a context does.  Data that is not a
 * zstd dictionary with an id is refused.
 */
static void zbewalgo_test_dict(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	struct zbw_case_dict_ctxs x = { .none = f->ctx, .scratch = f->scratch,
					.max_len = PAGE_LEN };
	size_t max = ZBEWALGO_STORED_SIZE(PAGE_LEN), n, m;
	u8 *bad = kunit_kmalloc(test, sizeof(zbw_test_dict), GFP_KERNEL);
	u8 *page = kunit_kmalloc(test, PAGE_LEN, GFP_KERNEL);
	u8 *a = kunit_kmalloc(test, max, GFP_KERNEL);
	u8 *b = kunit_kmalloc(test, max, GFP_KERNEL);
	struct zbewalgo_dict *dict = NULL, *other = NULL;
	struct zbewalgo_config *cfg;
	struct zbewalgo_stream *dev;
	unsigned int k, made = 0;
	u32 rng = 7;

	KUNIT_ASSERT_NOT_NULL(test, bad);
	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	memcpy(bad, zbw_test_dict, sizeof(zbw_test_dict));
	bad[4] ^= 0x5a;
	KUNIT_ASSERT_EQ(test, zbewalgo_dict_create(zbw_test_dict,
						   sizeof(zbw_test_dict), 2,
						   PAGE_LEN, &dict), 0);
	KUNIT_ASSERT_EQ(test, zbewalgo_dict_create(bad, sizeof(zbw_test_dict),
						   2, PAGE_LEN, &other), 0);
	KUNIT_EXPECT_NE(test, zbewalgo_dict_id(dict), zbewalgo_dict_id(other));
	x.dict = zbewalgo_ctx_create(PAGE_LEN);
	x.other = zbewalgo_ctx_create(PAGE_LEN);
	KUNIT_ASSERT_NOT_NULL(test, x.dict);
	KUNIT_ASSERT_NOT_NULL(test, x.other);
	zbewalgo_ctx_set_dict(x.dict, dict);
	zbewalgo_ctx_set_dict(x.other, other);
	for (k = 0; k < ZBW_NR_KINDS; k++) {
		struct zbw_case_page cp = { f->page[k], PAGE_LEN,
					    zbw_kind_names[k] };

		zbw_case_dict(test, &cp, &x);
	}
	for (k = 0; k < 16; k++) {
		struct zbw_case_page cp = { page, PAGE_LEN, "dictionary pieces" };

		zbw_case_dict_page(page, PAGE_LEN, zbw_test_dict,
				   sizeof(zbw_test_dict), &rng);
		made += zbw_case_dict(test, &cp, &x);
	}
	/* the probe sends some to bitshuffle4-zstd, which runs no dictionary */
	KUNIT_EXPECT_GE(test, made, 12U);
	KUNIT_EXPECT_LE(test, x.with_bytes, x.without_bytes);

	/* A device's configuration: its streams compress as x.dict does. */
	cfg = zbewalgo_config_create(0, NULL, -1, -1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cfg));
	bad[4] ^= 0x5a;
	bad[0] ^= 1;
	KUNIT_EXPECT_EQ(test, zbewalgo_config_set_dict(cfg, bad,
						       sizeof(zbw_test_dict)),
			-EINVAL);
	bad[0] ^= 1;
	memset(bad + 4, 0, 4);
	KUNIT_EXPECT_EQ(test, zbewalgo_config_set_dict(cfg, bad,
						       sizeof(zbw_test_dict)),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, zbewalgo_config_set_dict(cfg, zbw_test_dict, 40),
			-EINVAL);
	KUNIT_ASSERT_EQ(test, zbewalgo_config_set_dict(cfg, zbw_test_dict,
						       sizeof(zbw_test_dict)),
			0);
	KUNIT_EXPECT_EQ(test, zbewalgo_config_set_dict(cfg, zbw_test_dict,
						       sizeof(zbw_test_dict)),
			-EBUSY);
	dev = zbewalgo_stream_create(PAGE_LEN, 0, cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	zbewalgo_ctx_set_table(x.dict, &cfg->table);
	zbewalgo_ctx_set_params(x.dict, &cfg->params);
	n = max;
	KUNIT_ASSERT_EQ(test, zbewalgo_compress(x.dict, page, PAGE_LEN, a, &n),
			0);
	m = zbw_stream_pack(test, dev, page, b);
	KUNIT_EXPECT_EQ(test, m, n);
	KUNIT_EXPECT_MEMEQ(test, b, a, min(m, n));
	n = PAGE_LEN;
	KUNIT_EXPECT_EQ(test, zbewalgo_stream_decompress(dev, b, m, a, &n), 0);
	KUNIT_EXPECT_EQ(test, n, (size_t)PAGE_LEN);
	KUNIT_EXPECT_MEMEQ(test, a, page, PAGE_LEN);

	zbewalgo_stream_destroy(dev);
	zbewalgo_config_put(cfg);
	zbewalgo_ctx_destroy(x.other);
	zbewalgo_ctx_destroy(x.dict);
	zbewalgo_dict_destroy(other);
	zbewalgo_dict_destroy(dict);
}

/*
 * A device's stream (zbewalgo_stream_create_device()) round-trips its own
 * pages and refuses pages of steps its table lacks, which a stream of the
 * same configuration for any page decodes (crypto's testmgr feeds those).
 */
static void zbewalgo_test_device_stream(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	size_t max = ZBEWALGO_STORED_SIZE(PAGE_LEN), n, m;
	u8 *a = kunit_kmalloc(test, max, GFP_KERNEL);
	u8 *b = kunit_kmalloc(test, PAGE_LEN, GFP_KERNEL);
	struct zbewalgo_table *other = kunit_kzalloc(test, sizeof(*other),
						     GFP_KERNEL);
	struct zbewalgo_stream *dev, *any;
	struct zbewalgo_config *cfg;

	KUNIT_ASSERT_NOT_NULL(test, a);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_ASSERT_NOT_NULL(test, other);
	cfg = zbewalgo_config_create(0, "zstd", -1, -1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(cfg));
	dev = zbewalgo_stream_create_device(PAGE_LEN, 0, cfg);
	any = zbewalgo_stream_create(PAGE_LEN, 0, cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(dev));
	KUNIT_ASSERT_FALSE(test, IS_ERR(any));
	m = zbw_stream_pack(test, dev, f->page[ZBW_TEXT], a);
	n = PAGE_LEN;
	KUNIT_EXPECT_EQ(test, zbewalgo_stream_decompress(dev, a, m, b, &n), 0);
	KUNIT_EXPECT_MEMEQ(test, b, f->page[ZBW_TEXT], PAGE_LEN);

	KUNIT_ASSERT_EQ(test, zbewalgo_table_parse(other, "delta4-zstd"), 0);
	zbewalgo_ctx_set_table(f->ctx, other);
	m = max;
	KUNIT_ASSERT_EQ(test, zbewalgo_compress(f->ctx, f->page[ZBW_REPEAT],
						PAGE_LEN, a, &m), 0);
	KUNIT_ASSERT_FALSE(test, zbewalgo_ctx_last_result(f->ctx)->stored);
	n = PAGE_LEN;
	KUNIT_EXPECT_EQ(test, zbewalgo_stream_decompress(dev, a, m, b, &n),
			-EINVAL);
	n = PAGE_LEN;
	KUNIT_EXPECT_EQ(test, zbewalgo_stream_decompress(any, a, m, b, &n), 0);
	KUNIT_EXPECT_MEMEQ(test, b, f->page[ZBW_REPEAT], PAGE_LEN);
	zbewalgo_stream_destroy(any);
	zbewalgo_stream_destroy(dev);
	zbewalgo_config_put(cfg);
}

/*
 * zswap compresses into one page, which a stored page does not fit: the
 * stream says -ENOSPC, and the page still counts as stored (it did not).
 */
static void zbewalgo_test_stats_stored_enospc(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	struct zbewalgo_config *cfg = zbewalgo_config_get();
	struct zbewalgo_stream *s = zbewalgo_stream_create(PAGE_LEN, 0, NULL);
	u8 *dst = kunit_kmalloc(test, PAGE_LEN, GFP_KERNEL);
	size_t len = PAGE_LEN;
	u64 before;

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	KUNIT_ASSERT_NOT_NULL(test, dst);
	before = zbw_stored(test, cfg);
	KUNIT_EXPECT_EQ(test, zbewalgo_stream_compress(s, f->page[ZBW_RANDOM],
						       PAGE_LEN, dst, &len),
			-ENOSPC);
	KUNIT_EXPECT_EQ(test, zbw_stored(test, cfg), before + 1);
	zbewalgo_stream_destroy(s);
	zbewalgo_config_put(cfg);
}

#ifdef CONFIG_ZBEWALGO_TUNING
/* Pages counted under @cfg, over all CPUs. */
static u64 zbw_pages(struct kunit *test, struct zbewalgo_config *cfg)
{
	return zbw_sum(test, cfg)->pages;
}

static int zbw_edit_early_abort(struct zbewalgo_config *cfg, const void *arg)
{
	cfg->params.early_abort_size = *(const u32 *)arg;
	return 0;
}

/*
 * A threshold write publishes a new configuration with the same table: it
 * keeps the statistics, and a stream that still holds the configuration
 * before the write counts into the same counters.  A new table starts
 * afresh (wins are counted per table entry).
 */
static void zbewalgo_test_stats_kept(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	struct zbewalgo_config *old = zbewalgo_config_get(), *cfg;
	struct zbewalgo_stream *kept;
	u8 *dst = kunit_kmalloc(test, ZBEWALGO_STORED_SIZE(PAGE_LEN),
				GFP_KERNEL);
	u64 before;
	u32 ea;

	KUNIT_ASSERT_NOT_NULL(test, old);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	kept = zbewalgo_stream_create(PAGE_LEN, 0, old);
	KUNIT_ASSERT_FALSE(test, IS_ERR(kept));
	zbw_stream_pack(test, kept, f->page[ZBW_TEXT], dst);
	before = zbw_pages(test, old);
	KUNIT_EXPECT_GT(test, before, 0);

	ea = old->params.early_abort_size + 1;
	KUNIT_ASSERT_LT(test, ea, old->params.max_output_size);
	KUNIT_ASSERT_EQ(test, zbewalgo_config_update(zbw_edit_early_abort, &ea),
			0);
	cfg = zbewalgo_config_get();
	KUNIT_EXPECT_PTR_NE(test, cfg, old);
	KUNIT_EXPECT_EQ(test, cfg->params.early_abort_size, ea);
	KUNIT_EXPECT_EQ_MSG(test, zbw_pages(test, cfg), before,
			    "a threshold write reset the statistics");
	zbw_stream_pack(test, kept, f->page[ZBW_TEXT], dst);
	KUNIT_EXPECT_EQ_MSG(test, zbw_pages(test, cfg), before + 1,
			    "a page of the old configuration was not counted");
	zbewalgo_config_put(cfg);

	KUNIT_ASSERT_EQ(test, zbewalgo_config_update(zbw_edit_other, NULL), 0);
	cfg = zbewalgo_config_get();
	KUNIT_EXPECT_EQ_MSG(test, zbw_pages(test, cfg), 0,
			    "a new table kept the old table's statistics");
	zbewalgo_config_put(cfg);

	KUNIT_EXPECT_EQ(test, zbewalgo_config_update(zbw_edit_copy, old), 0);
	zbewalgo_stream_destroy(kept);
	zbewalgo_config_put(old);
}
#endif

/*
 * The statistics add up: each page a stream compresses counts once in
 * pages, in stored or in the wins of the entry that won it (the one a
 * context with the same table and thresholds names), and its tries in
 * tried.  The counters are u64_stats: whether a read on a 32-bit kernel
 * is whole while another CPU adds cannot be seen here (UML is 64-bit,
 * where the reads are plain loads).
 */
static void zbewalgo_test_stats_sums(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;
	struct zbewalgo_config *cfg = zbewalgo_config_get();
	struct zbewalgo_stats_sum *before, *after, *want;
	const struct zbewalgo_result *r;
	struct zbewalgo_stream *s;
	size_t len, max = ZBEWALGO_STORED_SIZE(PAGE_LEN);
	u8 *dst = kunit_kmalloc(test, max, GFP_KERNEL);
	unsigned int i;
	int k, round;

	KUNIT_ASSERT_NOT_NULL(test, cfg);
	KUNIT_ASSERT_NOT_NULL(test, dst);
	want = kunit_kzalloc(test, sizeof(*want), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	s = zbewalgo_stream_create(PAGE_LEN, 0, cfg);
	KUNIT_ASSERT_FALSE(test, IS_ERR(s));
	zbewalgo_ctx_set_table(f->ctx, &cfg->table);
	zbewalgo_ctx_set_params(f->ctx, &cfg->params);
	before = zbw_sum(test, cfg);
	for (round = 0; round < 3; round++) {
		for (k = 0; k < ZBW_NR_KINDS; k++) {
			zbw_stream_pack(test, s, f->page[k], dst);
			len = max;
			KUNIT_ASSERT_EQ(test, zbewalgo_compress(f->ctx,
								f->page[k],
								PAGE_LEN, dst,
								&len), 0);
			r = zbewalgo_ctx_last_result(f->ctx);
			want->pages++;
			want->tried += r->tried;
			if (r->stored)
				want->stored++;
			else
				want->wins[r->comb]++;
		}
	}
	zbewalgo_stream_destroy(s);
	after = zbw_sum(test, cfg);
	KUNIT_EXPECT_EQ(test, after->pages - before->pages, want->pages);
	KUNIT_EXPECT_EQ(test, after->tried - before->tried, want->tried);
	KUNIT_EXPECT_EQ(test, after->stored - before->stored, want->stored);
	KUNIT_EXPECT_GT(test, want->stored, 0);
	for (i = 0; i < cfg->table.nr; i++)
		KUNIT_EXPECT_EQ_MSG(test, after->wins[i] - before->wins[i],
				    want->wins[i], "wins of entry %u", i);
	for (; i < ZBEWALGO_MAX_COMBINATIONS; i++)
		KUNIT_EXPECT_EQ(test, after->wins[i], 0);
	zbewalgo_config_put(cfg);
}

/* Compresses every kind of page @rounds times on @s; returns how many. */
static u64 zbw_stream_all(struct kunit *test, struct zbewalgo_stream *s,
			  int rounds)
{
	struct zbw_fixture *f = test->priv;
	u8 *dst = kunit_kmalloc(test, ZBEWALGO_STORED_SIZE(PAGE_LEN),
				GFP_KERNEL);
	int k, round;

	KUNIT_ASSERT_NOT_NULL(test, dst);
	for (round = 0; round < rounds; round++)
		for (k = 0; k < ZBW_NR_KINDS; k++)
			zbw_stream_pack(test, s, f->page[k], dst);
	return (u64)rounds * ZBW_NR_KINDS;
}

/*
 * Each device counts every page of its streams in statistics of its own,
 * its level's too, with the wins of the table it uses; one that sets
 * nothing also counts in the shared statistics, except its level's pages
 * (which are not the shared table's).  A device's directory in debugfs
 * comes and goes with it.
 */
static void zbewalgo_test_device_stats(struct kunit *test)
{
	struct zbewalgo_config *shared = zbewalgo_config_get(), *cfg[3];
	static const char *const tables[3] = { NULL, NULL, "zstd" };
	static const int levels[3] = { 0, 1, 0 };
	struct zbewalgo_stream *s[3];
	struct zbewalgo_stats_sum *sum;
	u64 before, n[3], wins;
	unsigned int i, k;

	KUNIT_ASSERT_NOT_NULL(test, shared);
	before = zbw_sum(test, shared)->pages;
	/* nothing set; a level only; a table of its own */
	for (k = 0; k < 3; k++) {
		cfg[k] = zbewalgo_config_create(levels[k], tables[k], -1, -1);
		KUNIT_ASSERT_FALSE(test, IS_ERR(cfg[k]));
		zbewalgo_debugfs_add(cfg[k]);
		s[k] = zbewalgo_stream_create_device(PAGE_LEN, levels[k],
						     cfg[k]);
		KUNIT_ASSERT_FALSE(test, IS_ERR(s[k]));
		n[k] = zbw_stream_all(test, s[k], k + 1);
	}
	KUNIT_EXPECT_PTR_EQ(test, zbewalgo_config_table(cfg[1]),
			    zbewalgo_preset_table(1));
	KUNIT_EXPECT_EQ(test, zbw_sum(test, shared)->pages - before, n[0]);
	for (k = 0; k < 3; k++) {
		sum = zbw_sum(test, cfg[k]);
		KUNIT_EXPECT_EQ(test, sum->pages, n[k]);
		for (wins = 0, i = 0; i < ZBEWALGO_MAX_COMBINATIONS; i++)
			wins += sum->wins[i];
		KUNIT_EXPECT_EQ_MSG(test, wins + sum->stored, sum->pages,
				    "device %u", k);
		zbewalgo_stream_destroy(s[k]);
		if (IS_ENABLED(CONFIG_DEBUG_FS))
			KUNIT_EXPECT_FALSE(test,
					   IS_ERR_OR_NULL(cfg[k]->debugfs));
		zbewalgo_debugfs_remove(cfg[k]);
		KUNIT_EXPECT_NULL(test, cfg[k]->debugfs);
		zbewalgo_config_put(cfg[k]);
	}
	zbewalgo_config_put(shared);
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
	KUNIT_CASE(zbewalgo_test_trailing_bytes),
	KUNIT_CASE(zbewalgo_test_ctx_decompress_bound),
	KUNIT_CASE(zbewalgo_test_random_input),
	KUNIT_CASE(zbewalgo_test_small_destination),
	KUNIT_CASE(zbewalgo_test_table_text),
	KUNIT_CASE(zbewalgo_test_table_budget),
	KUNIT_CASE(zbewalgo_test_format_counts),
	KUNIT_CASE(zbewalgo_test_failed_init),
	KUNIT_CASE(zbewalgo_test_page_too_long),
	KUNIT_CASE(zbewalgo_test_deterministic),
#ifdef CONFIG_ZBEWALGO_TUNING
	KUNIT_CASE(zbewalgo_test_follows_sysfs),
#endif
	KUNIT_CASE(zbewalgo_test_stats_stored_enospc),
#ifdef CONFIG_ZBEWALGO_TUNING
	KUNIT_CASE(zbewalgo_test_device_config),
#endif
	KUNIT_CASE(zbewalgo_test_dict),
	KUNIT_CASE(zbewalgo_test_device_stream),
#ifdef CONFIG_ZBEWALGO_TUNING
	KUNIT_CASE(zbewalgo_test_stats_kept),
#endif
	KUNIT_CASE(zbewalgo_test_stats_sums),
	KUNIT_CASE(zbewalgo_test_device_stats),
	{}
};

static struct kunit_suite zbewalgo_test_suite = {
	.name = "zbewalgo",
	.init = zbw_init,
	.exit = zbw_exit,
	.test_cases = zbewalgo_test_cases,
};

kunit_test_suite(zbewalgo_test_suite);

MODULE_DESCRIPTION("KUnit tests for zbewalgo");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
MODULE_LICENSE("GPL");
