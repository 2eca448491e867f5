// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests for zbewalgo: the kernel build of the algorithm, checked with
 * KASAN (see lib/zbewalgo/.kunitconfig).  Buffers are kmalloc'ed at their
 * exact sizes so KASAN reports any access outside them.
 *
 * One module of four suites: zbewalgo (zbewalgo_kunit_format.c: round
 * trips, the compressed format and decoding of bad input), zbewalgo_table
 * (zbewalgo_kunit_table.c: the table text and budget), zbewalgo_stream
 * (zbewalgo_kunit_stream.c: streams, configurations and dictionaries) and
 * zbewalgo_stats (zbewalgo_kunit_stats.c: the statistics).  This file
 * holds the fixture and helpers they share (zbewalgo_kunit.h).
 */

#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "zbewalgo_kunit.h"

const char *const zbw_kind_names[ZBW_NR_KINDS] = {
	"zero", "repeat", "text", "float32", "float64", "sparse", "random",
	"periodic", "sorted",
};

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

int zbw_init(struct kunit *test)
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

void zbw_exit(struct kunit *test)
{
	struct zbw_fixture *f = test->priv;

	zbewalgo_ctx_destroy(f->ctx);
}

/* Compresses @src on @s into @dst (ZBEWALGO_STORED_SIZE() bytes). */
size_t zbw_stream_pack(struct kunit *test, struct zbewalgo_stream *s,
		       const u8 *src, u8 *dst)
{
	size_t len = ZBEWALGO_STORED_SIZE(PAGE_LEN);

	KUNIT_ASSERT_EQ(test, zbewalgo_stream_compress(s, src, PAGE_LEN, dst,
						       &len), 0);
	return len;
}

#ifdef CONFIG_ZBEWALGO_TUNING
int zbw_edit_copy(struct zbewalgo_config *cfg, const void *arg)
{
	const struct zbewalgo_config *from = arg;

	cfg->table = from->table;
	cfg->params = from->params;
	return 0;
}

int zbw_edit_other(struct zbewalgo_config *cfg, const void *arg)
{
	return zbewalgo_table_parse(&cfg->table, "delta8-bitshuffle8-zstd");
}
#endif

/* The counters of @cfg summed over the CPUs, in memory of the test */
struct zbewalgo_stats_sum *zbw_sum(struct kunit *test,
				   struct zbewalgo_config *cfg)
{
	struct zbewalgo_stats_sum *sum = kunit_kmalloc(test, sizeof(*sum),
						       GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, sum);
	zbewalgo_stats_sum(cfg, sum);
	return sum;
}

/* Pages stored under @cfg, over all CPUs. */
u64 zbw_stored(struct kunit *test, struct zbewalgo_config *cfg)
{
	return zbw_sum(test, cfg)->stored;
}

MODULE_DESCRIPTION("KUnit tests for zbewalgo");
MODULE_IMPORT_NS("EXPORTED_FOR_KUNIT_TESTING");
MODULE_LICENSE("GPL");
