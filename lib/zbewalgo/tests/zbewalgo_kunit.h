/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the KUnit suites of zbewalgo share (zbewalgo_kunit_*.c, one
 * module): the pages of every kind, the fixture that holds them with a
 * context, and the helpers of the stream and statistics tests.  Buffers
 * are kmalloc'ed at their exact sizes so KASAN reports any access
 * outside them.
 */
#ifndef __ZBEWALGO_KUNIT_H
#define __ZBEWALGO_KUNIT_H

#include <kunit/test.h>
#include <linux/zbewalgo.h>

#include "../core/engine.h"
#include "../stream.h"
#include "../core/zbewalgo_internal.h"

#define ZBW_CASE_CHECK(env, cond, ...) \
	KUNIT_EXPECT_TRUE_MSG(((struct kunit *)(env)), cond, __VA_ARGS__)
#include "zbewalgo_cases.h"

#define PAGE_LEN	4096

#define EIGHT_STEPS	"delta4-delta8-delta4-delta8-bitshuffle4-bitshuffle8-delta4-zstd"

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

extern const char *const zbw_kind_names[ZBW_NR_KINDS];

struct zbw_fixture {
	struct zbewalgo_ctx *ctx;
	void *scratch;
	u8 *page[ZBW_NR_KINDS];
};

/* The suites' init and exit: a fixture of every kind of page in test->priv */
int zbw_init(struct kunit *test);
void zbw_exit(struct kunit *test);

size_t zbw_stream_pack(struct kunit *test, struct zbewalgo_stream *s,
		       const u8 *src, u8 *dst);
struct zbewalgo_stats_sum *zbw_sum(struct kunit *test,
				   struct zbewalgo_config *cfg);
u64 zbw_stored(struct kunit *test, struct zbewalgo_config *cfg);

#ifdef CONFIG_ZBEWALGO_TUNING
/* zbewalgo_config_update() edits: @arg's table and thresholds; another table */
int zbw_edit_copy(struct zbewalgo_config *cfg, const void *arg);
int zbw_edit_other(struct zbewalgo_config *cfg, const void *arg);
#endif

#endif /* __ZBEWALGO_KUNIT_H */
