// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "zbewalgo_stream": the library's init, streams and the
 * configurations they compress with (the shared one sysfs sets, a zram
 * device's own), pages compressed again, and zram's dictionaries.
 */

#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "zbewalgo_kunit.h"
#include "zbewalgo_test_dict.h"

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
	x.dict = zbewalgo_ctx_create_for(PAGE_LEN, NULL, 0, true);
	x.other = zbewalgo_ctx_create_for(PAGE_LEN, NULL, 0, true);
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

static struct kunit_case zbewalgo_stream_test_cases[] = {
	KUNIT_CASE(zbewalgo_test_failed_init),
	KUNIT_CASE(zbewalgo_test_page_too_long),
	KUNIT_CASE(zbewalgo_test_deterministic),
#ifdef CONFIG_ZBEWALGO_TUNING
	KUNIT_CASE(zbewalgo_test_follows_sysfs),
	KUNIT_CASE(zbewalgo_test_device_config),
#endif
	KUNIT_CASE(zbewalgo_test_dict),
	KUNIT_CASE(zbewalgo_test_device_stream),
	{}
};

static struct kunit_suite zbewalgo_stream_test_suite = {
	.name = "zbewalgo_stream",
	.init = zbw_init,
	.exit = zbw_exit,
	.test_cases = zbewalgo_stream_test_cases,
};

kunit_test_suite(zbewalgo_stream_test_suite);
