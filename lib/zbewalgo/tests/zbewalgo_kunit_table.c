// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite "zbewalgo_table": the combination table's text commands,
 * its step and cost budget, and the counts sysfs shows before its lines.
 */

#include <linux/slab.h>
#include <linux/string.h>

#include "zbewalgo_kunit.h"

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

static struct kunit_case zbewalgo_table_test_cases[] = {
	KUNIT_CASE(zbewalgo_test_table_text),
	KUNIT_CASE(zbewalgo_test_table_budget),
	KUNIT_CASE(zbewalgo_test_format_counts),
	{}
};

static struct kunit_suite zbewalgo_table_test_suite = {
	.name = "zbewalgo_table",
	.init = zbw_init,
	.exit = zbw_exit,
	.test_cases = zbewalgo_table_test_cases,
};

kunit_test_suite(zbewalgo_table_test_suite);
