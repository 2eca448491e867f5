// SPDX-License-Identifier: GPL-2.0-only
/*
 * User-space unit tests of lib/zbewalgo, built from the kernel sources
 * through tools/zbewalgo/shim and run under ASan+UBSan by `make check`.
 *
 * usage: zbewalgo_test DATA_DIR...
 *
 * Every 4096-byte page of every file below the DATA_DIRs (`make test-unit`
 * gives build/testdata, real files from Debian packages, and the optional
 * Calgary/Canterbury corpora when ZBW_EXTRA_CORPUS is set), plus the
 * generated pages of test_pages.h (the fuzz seeds' too), goes through
 * every step alone, every default combination and the default table;
 * compressed pages are then truncated and bit-flipped.
 * Buffers are allocated with their exact sizes so that ASan sees any
 * access outside them.
 *
 * This file loads the pages, keeps the checks' count and runs the tests,
 * which zbewalgo_test_*.c hold, one file an area (zbewalgo_test.h).
 */
#include <stdarg.h>

#include "zbewalgo_test.h"
#include "test_pages.h"

struct page *pages;
size_t nr_pages;
static size_t cap_pages;

unsigned long checks;
static unsigned long tests_passed, tests_failed, check_failures;
static const char *cur_test;
static unsigned long cur_failures;

unsigned long long rng_state = 0x9e3779b97f4a7c15ull;

unsigned int rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state >> 11;
}

void fail(const char *fmt, ...)
{
	va_list ap;

	cur_failures++;
	check_failures++;
	if (cur_failures > 10)
		return;
	fprintf(stderr, "  FAIL [%s] ", cur_test);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void begin(const char *name)
{
	cur_test = name;
	cur_failures = 0;
}

void end(void)
{
	if (cur_failures) {
		tests_failed++;
		printf("not ok - %s (%lu failures)\n", cur_test, cur_failures);
	} else {
		tests_passed++;
		printf("ok - %s\n", cur_test);
	}
	fflush(stdout);
}

unsigned char *dup_exact(const void *p, size_t len)
{
	unsigned char *d = malloc(len ? len : 1);

	if (!d)
		abort();
	memcpy(d, p, len);
	return d;
}

const char *sname(const struct zbewalgo_step *st)
{
	unsigned int id;

	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++)
		if (zbewalgo_step_get(id) == st)
			return zbewalgo_step_name(id);
	return "two steps in one pass";
}

struct zbewalgo_table *table_of(const char *text)
{
	struct zbewalgo_table *t = calloc(1, sizeof(*t));
	int err = zbewalgo_table_parse(t, text);

	if (err) {
		fprintf(stderr, "bad table %s: %d\n", text, err);
		abort();
	}
	return t;
}

static void add_page(const void *data, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (nr_pages == cap_pages) {
		cap_pages = cap_pages ? cap_pages * 2 : 256;
		pages = realloc(pages, cap_pages * sizeof(*pages));
		if (!pages)
			abort();
	}
	pages[nr_pages].data = dup_exact(data, len);
	pages[nr_pages].len = len;
	va_start(ap, fmt);
	vsnprintf(pages[nr_pages].name, sizeof(pages[0].name), fmt, ap);
	va_end(ap);
	nr_pages++;
}

static void load_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char buf[PAGE];
	size_t n, off = 0;

	if (!f)
		return;
	while ((n = fread(buf, 1, PAGE, f)) > 0) {
		add_page(buf, n, "%s@%zu", strrchr(path, '/') + 1, off);
		off += n;
	}
	fclose(f);
}

static void gen_page(const void *data, size_t len, const char *name)
{
	add_page(data, len, "%s", name);
}

int main(int argc, char **argv)
{
	size_t before;
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DATA_DIR...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		before = nr_pages;
		test_walk_dir(argv[i], load_file);
		if (nr_pages == before) {
			fprintf(stderr, "no data pages under %s\n", argv[i]);
			return 2;
		}
		printf("# %zu pages from %s\n", nr_pages - before, argv[i]);
	}
	before = nr_pages;
	test_pages_generate(rnd, gen_page);
	printf("# %zu generated pages\n", nr_pages - before);

	test_steps();
	test_bwt_reference();
	test_mtf_reference();
	test_word_steps_reference();
	test_sieve_reference();
	test_huffman4_reference();
	test_huffman_tables();
	test_lz_crafted();
	test_steps_enospc();
	test_tables();
	test_table_budget();
	test_api_errors();
	test_preset_combinations();
	test_default_table();
	test_removed_combination();
	test_ctx_decompress_bound();
	test_short_page_stage_cap();
	test_short_input_large_pages();
	test_level3_goes_on();
	test_deterministic();
	test_context_memory();
	test_context_for_table();
	test_lent_scratch();
	test_zstd_init_error();
	test_random_stored_at_once();
	test_probe_rest();
	test_plain_pages();
	test_precheck_keeps_compressible();
	test_precheck_structured();
	test_corruption();
	test_trailing_bytes();
	test_random_input();
	test_step_decoders_hostile();
	test_num_views();
	test_num_palette();
	test_num_lag();
	test_num_exc();
	test_num_hints();
	test_num_fields();
	test_num_loose();
	test_num_sparse();
	test_dictionary();
	test_zstd_forms();

	printf("# %lu checks, %lu failed\n", checks, check_failures);
	printf("%lu passed, %lu failed\n", tests_passed, tests_failed);
	return tests_failed ? 1 : 0;
}
