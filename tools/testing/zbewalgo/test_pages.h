/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pages of the user-space tests: generated pages of the kinds the
 * steps are made for, and the files of the test data directories.
 * Included by the unit tests (zbewalgo_test.c in this directory) and by
 * the fuzz seed generator (fuzz/gen_seeds.c), so that the generated
 * pages the unit tests check seed the fuzzers too, and a page added for
 * one reaches both.
 */
#ifndef ZBW_TEST_PAGES_H
#define ZBW_TEST_PAGES_H

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define TEST_PAGE_SIZE	4096

/* One generated page, aligned for every word size it is written in. */
union test_page {
	unsigned char b[TEST_PAGE_SIZE];
	uint32_t u32[TEST_PAGE_SIZE / 4];
	uint64_t u64[TEST_PAGE_SIZE / 8];
	float f32[TEST_PAGE_SIZE / 4];
	double f64[TEST_PAGE_SIZE / 8];
};

/*
 * Calls @page with every generated page and its name ("zero/4096",
 * "float32/smooth", ...); the page is only valid during the call.  Zero,
 * repeated-byte, random and text pages come empty, shorter than a word,
 * around a word, short and around a page (0, 1, 7, 8, 9, 100, 511, 4095
 * and 4096 bytes), the word-structured ones as whole pages.  @rnd is the
 * caller's generator, so that the pages follow the caller's seed.
 */
static inline void test_pages_generate(unsigned int (*rnd)(void),
				       void (*page)(const void *data,
						    size_t len,
						    const char *name))
{
	static const size_t sizes[] = { 0, 1, 7, 8, 9, 100, 511, 4095, 4096 };
	union test_page p;
	char name[32];
	unsigned int i, s;

	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		memset(p.b, 0, sizeof(p.b));
		snprintf(name, sizeof(name), "zero/%zu", sizes[s]);
		page(p.b, sizes[s], name);
		memset(p.b, 0xa5, sizeof(p.b));
		snprintf(name, sizeof(name), "repeat/%zu", sizes[s]);
		page(p.b, sizes[s], name);
		for (i = 0; i < TEST_PAGE_SIZE; i++)
			p.b[i] = rnd();
		snprintf(name, sizeof(name), "random/%zu", sizes[s]);
		page(p.b, sizes[s], name);
	}
	for (i = 0; i < TEST_PAGE_SIZE / 4; i++)
		p.f32[i] = sinf(i * 0.01f) * 100.0f;
	page(p.b, TEST_PAGE_SIZE, "float32/smooth");
	for (i = 0; i < TEST_PAGE_SIZE / 4; i++)
		p.f32[i] = (rnd() % 8) ? 0.0f :
			   1.0f + (rnd() % 1000) / 1000.0f;
	page(p.b, TEST_PAGE_SIZE, "float32/sparse");
	/* islands of values in runs of zero words (sieve4's case) */
	for (i = 0; i < TEST_PAGE_SIZE / 4; i++)
		p.f32[i] = i % 300 < 40 || i == 1000 ?
			   280.0f + sinf(i * 0.1f) : 0.0f;
	page(p.b, TEST_PAGE_SIZE, "float32/islands");
	for (i = 0; i < TEST_PAGE_SIZE / 8; i++)
		p.f64[i] = 1.0 + i / 512.0 + 1e-7 * (rnd() % 100);
	page(p.b, TEST_PAGE_SIZE, "float64/jacobi");
	for (i = 0; i < TEST_PAGE_SIZE / 4; i++)
		p.u32[i] = rnd() % 50;
	page(p.b, TEST_PAGE_SIZE, "u32/small");
	for (i = 0; i < TEST_PAGE_SIZE; i++)
		p.b[i] = (rnd() % 4) ? rnd() % 16 : rnd() % 64;
	page(p.b, TEST_PAGE_SIZE, "bytes/mtf-like");
	for (i = 0; i < TEST_PAGE_SIZE / 8; i++)
		p.u64[i] = 0x0123456789abcdefull * (i / 7 + 1);
	page(p.b, TEST_PAGE_SIZE, "u64/runs");
	/*
	 * A new kind goes last: a caller that draws random numbers of its
	 * own between pages (gen_seeds.c does) then still gets every page
	 * before it unchanged, and so the same seeds from them.
	 */
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		for (i = 0; i < TEST_PAGE_SIZE; i++)
			p.b[i] = "zbewalgo page "[i % 14];
		snprintf(name, sizeof(name), "text/%zu", sizes[s]);
		page(p.b, sizes[s], name);
	}
}

/*
 * Calls @file with the path of every regular file below @dir, in
 * alphasort order so that the pages come in the same order on every
 * machine.  Dot files and dot directories are skipped: they are no test
 * data (a checkout's .git, an editor's swap file).
 */
static inline void test_walk_dir(const char *dir,
				 void (*file)(const char *path))
{
	struct dirent **ents;
	int i, n = scandir(dir, &ents, NULL, alphasort);

	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char path[4096];
		struct stat st;

		/* A path too long for @path is skipped, not cut short. */
		if (name[0] != '.' &&
		    snprintf(path, sizeof(path), "%s/%s", dir, name) <
		    (int)sizeof(path) && !stat(path, &st)) {
			if (S_ISDIR(st.st_mode))
				test_walk_dir(path, file);
			else if (S_ISREG(st.st_mode))
				file(path);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

#endif /* ZBW_TEST_PAGES_H */
