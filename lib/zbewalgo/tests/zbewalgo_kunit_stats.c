// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "zbewalgo_stats": the counters of the shared and the
 * devices' configurations, which add up to the pages their streams
 * compressed, through threshold writes and per device.
 */

#include <linux/slab.h>

#include "zbewalgo_kunit.h"

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

static struct kunit_case zbewalgo_stats_test_cases[] = {
	KUNIT_CASE(zbewalgo_test_stats_stored_enospc),
#ifdef CONFIG_ZBEWALGO_TUNING
	KUNIT_CASE(zbewalgo_test_stats_kept),
#endif
	KUNIT_CASE(zbewalgo_test_stats_sums),
	KUNIT_CASE(zbewalgo_test_device_stats),
	{}
};

static struct kunit_suite zbewalgo_stats_test_suite = {
	.name = "zbewalgo_stats",
	.init = zbw_init,
	.exit = zbw_exit,
	.test_cases = zbewalgo_stats_test_cases,
};

kunit_test_suite(zbewalgo_stats_test_suite);
