/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the user-space unit tests share (zbewalgo_test.c, which loads the
 * pages and runs the tests, and zbewalgo_test_*.c, which hold them, one
 * file an area): the pages under test, the checks and their report, the
 * random numbers, and the tests that main() runs.
 */
#ifndef ZBW_ZBEWALGO_TEST_H
#define ZBW_ZBEWALGO_TEST_H

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/zstd.h>

#include "../../../lib/zbewalgo/core/zbewalgo_internal.h"
#include "../../../lib/zbewalgo/core/engine.h"

#define PAGE	4096

struct page {
	unsigned char *data;
	size_t len;
	char name[96];
};

/* Every page of the data files and the generated ones */
extern struct page *pages;
extern size_t nr_pages;

/* Checks run so far; the generator's state, which a test may seed */
extern unsigned long checks;
extern unsigned long long rng_state;

unsigned int rnd(void);
void fail(const char *fmt, ...);

#define CHECK(cond, ...) do {			\
		checks++;			\
		if (!(cond))			\
			fail(__VA_ARGS__);	\
	} while (0)

/* The decoder cases KUnit runs too */
#define ZBW_CASE_CHECK(env, cond, ...) do {		\
		(void)(env);				\
		CHECK(cond, __VA_ARGS__);		\
	} while (0)
#include <linux/slab.h>
#include "../../../lib/zbewalgo/tests/zbewalgo_cases.h"

/* The test @name begins; end() reports it, "ok" or "not ok" */
void begin(const char *name);
void end(void);

/* Exact-size copies: ASan flags any access beyond @len. */
unsigned char *dup_exact(const void *p, size_t len);
/* The registry's name of step @st, for messages */
const char *sname(const struct zbewalgo_step *st);
/* The table of @text; aborts when it is not one */
struct zbewalgo_table *table_of(const char *text);

/* The tests, each file's in its order */
/* zbewalgo_test_steps.c */
void test_steps(void);
void test_lz_crafted(void);
void test_steps_enospc(void);
void test_num_views(void);
void test_num_palette(void);
void test_num_lag(void);
void test_num_exc(void);
void test_num_fields(void);
void test_num_loose(void);
void test_num_sparse(void);
void test_step_decoders_hostile(void);

/* zbewalgo_test_ref.c */
void test_bwt_reference(void);
void test_mtf_reference(void);
void test_word_steps_reference(void);
void test_sieve_reference(void);
void test_huffman4_reference(void);
void test_huffman_tables(void);

/* zbewalgo_test_table.c */
void test_tables(void);
void test_table_budget(void);
void test_removed_combination(void);

/* zbewalgo_test_ctx.c */
void test_zstd_init_error(void);
void test_context_memory(void);
void test_context_for_table(void);
void test_short_input_large_pages(void);
void test_level3_goes_on(void);
void test_short_page_stage_cap(void);
void test_deterministic(void);
void test_lent_scratch(void);
void test_ctx_decompress_bound(void);

/* zbewalgo_test_compress.c */
void test_preset_combinations(void);
void test_default_table(void);
void test_corruption(void);
void test_trailing_bytes(void);
void test_random_input(void);
void test_api_errors(void);
void test_plain_pages(void);
void test_random_stored_at_once(void);
void test_probe_rest(void);
void test_num_hints(void);
void test_precheck_structured(void);
void test_precheck_keeps_compressible(void);
void test_dictionary(void);
void test_zstd_forms(void);

#endif /* ZBW_ZBEWALGO_TEST_H */
