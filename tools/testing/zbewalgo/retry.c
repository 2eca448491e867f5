// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo_retry: does a second compression of a page come out as the
 * first?  zram up to 6.14 compresses a page again when its first
 * allocation fails, maybe on another CPU's context, and copies the second
 * result into the object sized for the first (retry.sh, `make
 * retry-check`).
 *
 *   zbewalgo_retry [-l LEVEL] FILE...
 *
 * Every 4 KiB page of the FILEs is compressed on context A in file order,
 * then again at once on A (a retry on the same context), on context B,
 * which compressed the pages backwards (another CPU's context, another
 * history), and on A after a page compressed with another table and level
 * (a settings change in between).  Prints, per file and in all, how many
 * second compressions differ from the first, how many of those are longer
 * and the largest growth in bytes.  Uses the public API only, so that it
 * builds against the library of any commit.  Exits 1 when any differs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/zbewalgo.h>

#include "load_pages.h"

#define PAGE	4096
#define CAP	ZBEWALGO_STORED_SIZE(PAGE)

struct tally {
	unsigned long pages, same, other, table, longer, worst;
};

struct first {
	size_t len;
	unsigned char data[CAP];
};

static void compress(struct zbewalgo_ctx *ctx, const unsigned char *page,
		     struct first *out)
{
	out->len = CAP;
	if (zbewalgo_compress(ctx, page, PAGE, out->data, &out->len)) {
		fprintf(stderr, "zbewalgo_retry: compress failed\n");
		exit(2);
	}
}

/* Counts a second compression unlike the first; true when it differs. */
static bool differs(const struct first *a, const struct first *b,
		    struct tally *t)
{
	if (a->len == b->len && !memcmp(a->data, b->data, a->len))
		return false;
	if (b->len > a->len) {
		t->longer++;
		if (b->len - a->len > t->worst)
			t->worst = b->len - a->len;
	}
	return true;
}

static void print(const char *name, const struct tally *t)
{
	printf("%-28s %7lu %9lu %9lu %9lu %7lu %7lu\n", name, t->pages,
	       t->same, t->other, t->table, t->longer, t->worst);
}

int main(int argc, char **argv)
{
	struct zbewalgo_ctx *a = zbewalgo_ctx_create(PAGE);
	struct zbewalgo_ctx *b = zbewalgo_ctx_create(PAGE);
	struct first again, *first;
	struct tally all = { 0 };
	int level = ZBEWALGO_DEFAULT_LEVEL, other, i = 1;

	if (argc > 2 && !strcmp(argv[1], "-l")) {
		level = atoi(argv[2]);
		i = 3;
	}
	if (i >= argc || !zbewalgo_preset_table(level)) {
		fprintf(stderr, "usage: zbewalgo_retry [-l LEVEL] FILE...\n");
		return 2;
	}
	other = level % ZBEWALGO_MAX_LEVEL + 1;
	zbewalgo_ctx_set_level(a, level);
	zbewalgo_ctx_set_level(b, level);
	zbewalgo_ctx_set_table(a, zbewalgo_preset_table(level));
	zbewalgo_ctx_set_table(b, zbewalgo_preset_table(level));
	printf("# level %d; second compressions that differ from the first:\n",
	       level);
	printf("%-28s %7s %9s %9s %9s %7s %7s\n", "file", "pages",
	       "same-ctx", "other-ctx", "settings", "longer", "worst");
	for (; i < argc; i++) {
		const char *name = strrchr(argv[i], '/');
		struct tally t = { 0 };
		unsigned char *data;
		size_t n, p;

		data = load_pages(argv[i], PAGE, false, &n);
		first = malloc((n + 1) * sizeof(*first));
		if (!first)
			return 2;
		for (p = 0; p < n; p++) {
			compress(a, data + p * PAGE, &first[p]);
			compress(a, data + p * PAGE, &again);
			t.same += differs(&first[p], &again, &t);
		}
		for (p = n; p-- > 0;) {
			compress(b, data + p * PAGE, &again);
			t.other += differs(&first[p], &again, &t);
		}
		for (p = 0; p < n; p++) {
			zbewalgo_ctx_set_table(a, zbewalgo_preset_table(other));
			zbewalgo_ctx_set_level(a, other);
			compress(a, data + (p * 7 % n) * PAGE, &again);
			zbewalgo_ctx_set_table(a, zbewalgo_preset_table(level));
			zbewalgo_ctx_set_level(a, level);
			compress(a, data + p * PAGE, &again);
			t.table += differs(&first[p], &again, &t);
		}
		t.pages = n;
		print(name ? name + 1 : argv[i], &t);
		all.pages += t.pages;
		all.same += t.same;
		all.other += t.other;
		all.table += t.table;
		all.longer += t.longer;
		if (t.worst > all.worst)
			all.worst = t.worst;
		free(first);
		free(data);
	}
	print("all", &all);
	zbewalgo_ctx_destroy(b);
	zbewalgo_ctx_destroy(a);
	return all.same || all.other || all.table;
}
