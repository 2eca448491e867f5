// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of contexts (zbewalgo_test.c runs them): their memory and
 * allocations (the binary wraps the allocators and zstd's workspace
 * setup), contexts for one table, pages shorter or longer than a
 * context's pages, the same bytes on any context, and zstd's workspace
 * lent to other steps.
 */

#include "zbewalgo_test.h"
#include "../../../lib/zbewalgo/tests/zbewalgo_test_dict.h"

/*
 * The test binary is linked with --wrap for the allocators the library's
 * kvzalloc()/kvmalloc() stand-ins use: while alloc_watch is set, every
 * allocation is counted and its size kept.
 */
static bool alloc_watch, alloc_fail;
static unsigned long alloc_count;
static size_t alloc_last;

void *__real_malloc(size_t size);
void *__real_calloc(size_t nmemb, size_t size);

void *__wrap_malloc(size_t size)
{
	if (alloc_watch) {
		alloc_count++;
		alloc_last = size;
	}
	return __real_malloc(size);
}

void *__wrap_calloc(size_t nmemb, size_t size)
{
	if (alloc_fail)
		return NULL;
	if (alloc_watch) {
		alloc_count++;
		alloc_last = nmemb * size;
	}
	return __real_calloc(nmemb, size);
}

/*
 * zstd's static contexts fail without allocating anything (a workspace
 * too small or misaligned): while zstd_refuse is set, zstd refuses every
 * compression workspace it is given.
 */
static bool zstd_refuse;

ZSTD_CCtx *__real_ZSTD_initStaticCCtx(void *workspace, size_t size);

ZSTD_CCtx *__wrap_ZSTD_initStaticCCtx(void *workspace, size_t size)
{
	return zstd_refuse ? NULL : __real_ZSTD_initStaticCCtx(workspace, size);
}

/*
 * zstd refusing its workspace is no allocation failure: the zstd step's
 * state init says -EINVAL, as the kernel's crypto/zstd.c does, and so does
 * creating a context (what zbewalgo_stream_create() returns); -ENOMEM is
 * for allocations that failed.
 */
void test_zstd_init_error(void)
{
	const struct zbewalgo_step *zstd = &zbewalgo_step_ZSTD;
	struct zbw_room room = ZBW_ROOM_ANY(PAGE);
	void *state = calloc(1, zstd->state_size(&room));
	struct zbewalgo_ctx *ctx = NULL;
	int ret;

	begin("zstd_init_error");
	zstd_refuse = true;
	CHECK(zstd->state_init(state, &room, NULL) == -EINVAL,
	      "zstd refused its workspace: state init says %d, not -EINVAL",
	      zstd->state_init(state, &room, NULL));
	ret = zbw_ctx_new(PAGE, NULL, 0, true, &ctx);
	CHECK(ret == -EINVAL && !ctx,
	      "zstd refused its workspace: context creation says %d", ret);
	CHECK(!zbewalgo_ctx_create(PAGE), "a context without zstd's");
	zstd_refuse = false;
	CHECK(zstd->state_init(state, &room, NULL) == 0, "zstd state init failed");
	ret = zbw_ctx_new(ZBEWALGO_MAX_INPUT + 1, NULL, 0, true, &ctx);
	CHECK(ret == -EINVAL && !ctx, "a page too long: %d", ret);
	alloc_fail = true;
	ret = zbw_ctx_new(PAGE, NULL, 0, true, &ctx);
	alloc_fail = false;
	CHECK(ret == -ENOMEM && !ctx, "out of memory: %d", ret);
	ret = zbw_ctx_new(PAGE, NULL, 0, true, &ctx);
	CHECK(!ret && ctx, "context creation failed: %d", ret);
	zbewalgo_ctx_destroy(ctx);
	free(state);
	end();
}

/*
 * What zram's zstd backend allocates per stream for these pages: zstd's
 * contexts for its default level, sized for one page.
 */
static size_t zram_zstd_stream_size(void)
{
	zstd_parameters params = zstd_get_params(3, PAGE);

	return zstd_cctx_workspace_bound(&params.cParams) +
	       zstd_dctx_workspace_bound();
}

/*
 * A stream of 4 KiB pages: one allocation of zbewalgo_ctx_size() bytes,
 * none while compressing and decompressing, no more than zram's zstd
 * backend takes per stream, whatever the table.
 */
void test_context_memory(void)
{
	size_t size = zbewalgo_ctx_size(PAGE), dsize, i;
	unsigned char *dst = malloc(ZBEWALGO_STORED_SIZE(PAGE));
	unsigned char *out = malloc(PAGE);
	struct zbewalgo_ctx *ctx;

	begin("context memory: one allocation, no more than zstd's, none per page");
	alloc_count = 0;
	alloc_watch = true;
	ctx = zbewalgo_ctx_create(PAGE);
	alloc_watch = false;
	CHECK(ctx && alloc_count == 1 && alloc_last == size,
	      "create: %lu allocations, last %zu bytes, want 1 of %zu",
	      alloc_count, alloc_last, size);
	CHECK(size <= zram_zstd_stream_size(),
	      "context of %zu bytes exceeds zram's zstd stream (%zu)",
	      size, zram_zstd_stream_size());
	dsize = zbewalgo_decompress_scratch_size(PAGE);
	CHECK(dsize <= size, "decompression scratch %zu > context %zu",
	      dsize, size);
	printf("# context for %u-byte pages: %zu bytes", PAGE, size);
	printf(" (decompression scratch %zu, zram's zstd stream %zu)\n", dsize,
	       zram_zstd_stream_size());
	alloc_count = 0;
	alloc_watch = true;
	for (i = 0; ctx && i < nr_pages; i++) {
		size_t dlen = ZBEWALGO_STORED_SIZE(PAGE), olen = PAGE;

		if (zbewalgo_compress(ctx, pages[i].data, pages[i].len, dst,
				      &dlen) ||
		    zbewalgo_ctx_decompress(ctx, dst, dlen, out, &olen))
			break;
	}
	alloc_watch = false;
	CHECK(i == nr_pages, "page %zu failed", i);
	CHECK(!alloc_count, "%lu allocations while compressing %zu pages",
	      alloc_count, nr_pages);
	zbewalgo_ctx_destroy(ctx);
	free(out);
	free(dst);
	end();
}

/*
 * A context made for one table and level (zbewalgo_ctx_create_for(), a
 * zram device's): one allocation of zbewalgo_ctx_size_for() bytes, less
 * than a context for any table and level, which writes the same bytes for
 * every page and decodes them; pages of steps its table lacks are refused
 * (by zbewalgo_decompress() taken), chains of such steps not tried, and
 * levels and dictionaries it has no room for refused.
 */
void test_context_for_table(void)
{
	const struct zbewalgo_table *t = zbewalgo_preset_table(1);
	size_t size = zbewalgo_ctx_size_for(PAGE, t, 1, false), i;
	struct zbewalgo_dict *dict = NULL;
	unsigned char *a = malloc(ZBEWALGO_STORED_SIZE(PAGE));
	unsigned char *b = malloc(ZBEWALGO_STORED_SIZE(PAGE));
	unsigned char *out = malloc(PAGE);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	struct zbewalgo_table lz = { .nr = 1 };
	struct zbewalgo_ctx *ctx, *any = zbewalgo_ctx_create(PAGE);
	unsigned long differ = 0, failed = 0;
	int err;

	begin("a context for one table");
	alloc_count = 0;
	alloc_watch = true;
	ctx = zbewalgo_ctx_create_for(PAGE, t, 1, false);
	alloc_watch = false;
	CHECK(ctx && alloc_count == 1 && alloc_last == size,
	      "create: %lu allocations, last %zu bytes, want 1 of %zu",
	      alloc_count, alloc_last, size);
	/* zstd -1's tables, not zstd 3's */
	CHECK(size < zbewalgo_ctx_size_for(PAGE, t, 1, true) &&
	      zbewalgo_ctx_size_for(PAGE, t, 1, true) <=
	      zbewalgo_ctx_size_for(PAGE, NULL, 0, true),
	      "level 1: %zu bytes, %zu with a dictionary, %zu for any",
	      size, zbewalgo_ctx_size_for(PAGE, t, 1, true),
	      zbewalgo_ctx_size_for(PAGE, NULL, 0, true));
	/* 64 KiB pages: bwt's scratch outgrows what zstd can lend */
	CHECK(zbewalgo_ctx_size_for(65536, t, 0, true) <
	      zbewalgo_ctx_size_for(65536, NULL, 0, true),
	      "64 KiB pages: %zu bytes, %zu for any table",
	      zbewalgo_ctx_size_for(65536, t, 0, true),
	      zbewalgo_ctx_size_for(65536, NULL, 0, true));
	CHECK(!zbewalgo_ctx_create_for(PAGE, t, ZBEWALGO_MAX_LEVEL + 1, false),
	      "a context for level %d", ZBEWALGO_MAX_LEVEL + 1);
	if (!ctx || !any)
		abort();
	err = zbewalgo_dict_create(zbw_test_dict, sizeof(zbw_test_dict), 1,
				   PAGE, &dict);
	CHECK(!err, "dictionary: %d", err);
	err = zbewalgo_ctx_set_level(ctx, 2);
	CHECK(err == -EINVAL, "level 2 without room: %d", err);
	err = zbewalgo_ctx_set_dict(ctx, dict);
	CHECK(err == -EINVAL, "a dictionary without room: %d", err);
	CHECK(!zbewalgo_ctx_set_level(ctx, 1), "its own level refused");
	zbewalgo_ctx_set_level(any, 1);
	zbewalgo_ctx_set_table(any, t);
	for (i = 0; i < nr_pages; i++) {
		size_t la = ZBEWALGO_STORED_SIZE(PAGE), lb = la, olen = PAGE;

		if (zbewalgo_compress(ctx, pages[i].data, pages[i].len, a, &la) ||
		    zbewalgo_compress(any, pages[i].data, pages[i].len, b, &lb) ||
		    zbewalgo_ctx_decompress(ctx, a, la, out, &olen) ||
		    olen != pages[i].len || memcmp(out, pages[i].data, olen))
			failed++;
		else if (la != lb || memcmp(a, b, la))
			differ++;
	}
	CHECK(!failed && !differ, "%lu pages failed, %lu differ", failed,
	      differ);

	/* lz is not in its table: not tried, not decoded */
	lz.comb[0].nr_steps = 1;
	lz.comb[0].ids[0] = ZBEWALGO_STEP_LZ;
	zbewalgo_ctx_set_table(any, &lz);
	zbewalgo_ctx_set_table(ctx, &lz);
	for (i = 0; i < nr_pages; i++) {
		size_t la = ZBEWALGO_STORED_SIZE(PAGE), lb = la, olen = PAGE;

		if (zbewalgo_compress(any, pages[i].data, pages[i].len, b, &lb) ||
		    zbewalgo_ctx_last_result(any)->stored)
			continue;
		err = zbewalgo_ctx_decompress(ctx, b, lb, out, &olen);
		CHECK(err == -EINVAL, "%s: lz page decoded with %d", pages[i].name,
		      err);
		olen = PAGE;
		err = zbewalgo_decompress(b, lb, out, &olen, scratch);
		CHECK(!err && olen == pages[i].len, "%s: lz page not decoded: %d",
		      pages[i].name, err);
		err = zbewalgo_compress(ctx, pages[i].data, pages[i].len, a, &la);
		CHECK(!err && zbewalgo_ctx_last_result(ctx)->stored,
		      "%s: lz tried without room (%d)", pages[i].name, err);
		break;
	}
	CHECK(i < nr_pages, "no page lz compresses");
	zbewalgo_dict_destroy(dict);
	zbewalgo_ctx_destroy(any);
	zbewalgo_ctx_destroy(ctx);
	free(scratch);
	free(out);
	free(b);
	free(a);
	end();
	printf("#   %zu bytes for level 1, %zu for any table and level (64 KiB pages: %zu, %zu)\n",
	       size, zbewalgo_ctx_size(PAGE),
	       zbewalgo_ctx_size_for(65536, t, 0, true),
	       zbewalgo_ctx_size(65536));
}

/*
 * The early abort ends the search at a result smaller than
 * early_abort_size, not at the limit a short input starts with: with
 * 16 or 64 KiB pages (early abort at 2 or 8 KiB) a 512-byte input, the
 * crypto self-test's, was stored after the first step of the first
 * chain and did not fit testmgr's 512-byte buffer (-ENOSPC).
 */
void test_short_input_large_pages(void)
{
	static const size_t sizes[] = { 4096, 16384, 65536 };
	const char *t = "zbewalgo compresses memory pages for zram and zswap. ";
	unsigned char in[512], out[512], back[512];
	size_t i, n, want = 0;

	begin("short inputs compress the same in contexts for large pages");
	for (i = 0; i < sizeof(in); i++)
		in[i] = t[i % strlen(t)];
	for (n = 0; n < ARRAY_SIZE(sizes); n++) {
		struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(sizes[n]);
		void *scratch = malloc(zbewalgo_decompress_scratch_size(512));
		size_t dlen = sizeof(out), blen = sizeof(back);
		int ret = zbewalgo_compress(ctx, in, sizeof(in), out, &dlen);

		CHECK(!ret && !zbewalgo_ctx_last_result(ctx)->stored,
		      "%zu-byte pages: 512 bytes of text: %d, stored %d", sizes[n],
		      ret, zbewalgo_ctx_last_result(ctx)->stored);
		if (!n)
			want = dlen;
		CHECK(!ret && dlen == want,
		      "%zu-byte pages: %zu bytes, %zu with 4 KiB pages",
		      sizes[n], dlen, want);
		CHECK(!ret && !zbewalgo_decompress(out, dlen, back, &blen, scratch) &&
		      blen == sizeof(in) && !memcmp(back, in, sizeof(in)),
		      "%zu-byte pages: round trip", sizes[n]);
		free(scratch);
		zbewalgo_ctx_destroy(ctx);
	}
	end();
}

/*
 * Level 3 does not end its search at a result below early_abort_size, nor
 * does its probe give the chains after one estimated below it that one's
 * estimate: on a page of zeros level 2 keeps the first chain's result
 * (num4, table order), level 3 finds the chain that stores the page in
 * fewer bytes.
 */
void test_level3_goes_on(void)
{
	struct zbewalgo_table *t = table_of("num4 bitshuffle4-rle-huffman");
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	unsigned char page[PAGE], out[2][PAGE], back[PAGE];
	const struct zbewalgo_result *res;
	size_t len[2], blen;
	unsigned int tried[2];
	int level;

	begin("level 3 searches on below early_abort_size");
	memset(page, 0, sizeof(page));
	zbewalgo_ctx_set_table(ctx, t);
	for (level = 2; level <= 3; level++) {
		unsigned int k = level - 2;

		len[k] = sizeof(out[k]);
		CHECK(!zbewalgo_ctx_set_level(ctx, level) &&
		      !zbewalgo_compress(ctx, page, PAGE, out[k], &len[k]),
		      "level %d: compress", level);
		res = zbewalgo_ctx_last_result(ctx);
		tried[k] = res->tried;
		blen = sizeof(back);
		CHECK(!zbewalgo_decompress(out[k], len[k], back, &blen,
					   scratch) &&
		      blen == PAGE && !memcmp(back, page, PAGE),
		      "level %d: round trip", level);
	}
	CHECK(len[0] < PAGE / 8 && tried[0] == 1,
	      "level 2: the first chain's %zu bytes end the search (%u tried)",
	      len[0], tried[0]);
	CHECK(len[1] < len[0], "level 3: %zu bytes against %zu (%u tried)",
	      len[1], len[0], tried[1]);
	free(scratch);
	zbewalgo_ctx_destroy(ctx);
	free(t);
	end();
}

/*
 * Found by fuzz/roundtrip: a page shorter than the context's max_len went
 * through a chain whose intermediate result exceeded
 * zbewalgo_stage_cap(len), the bound decoders enforce, because the engine
 * gave the steps the context's stage capacity (stage_cap(max_len)).  The
 * page compressed "successfully" and then failed to decompress.  Here:
 * 665 bytes, jbe2 x4 grows them 665 -> 763 -> 872 -> 997 -> 1141 >
 * stage_cap(665) = 1061, huffman brings them down to 652; the page header
 * is 51 04 04 04 04 06 99 05.  Every length with a few expanding chains.
 */
void test_short_page_stage_cap(void)
{
	static const char *const chains[] = {
		"jbe2-jbe2-jbe2-jbe2-huffman", "jbe-jbe-jbe-jbe-huffman",
		"jbe2-jbe2-jbe2-huffman",
	};
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	struct zbewalgo_params params;
	unsigned char page[PAGE], o[PAGE];
	unsigned int c, n, i;

	begin("pages shorter than max_len respect stage_cap(len)");
	zbewalgo_default_params(&params, PAGE);
	params.early_abort_size = 0;
	/* the page looks random: the chains must run anyway */
	params.store_entropy = 0;
	zbewalgo_ctx_set_params(ctx, &params);
	for (i = 0; i < PAGE; i++)
		page[i] = i * 37 + (i >> 3);
	for (c = 0; c < ARRAY_SIZE(chains); c++) {
		struct zbewalgo_table *t = table_of(chains[c]);

		zbewalgo_ctx_set_table(ctx, t);
		for (n = 1; n <= PAGE; n += n == 665 ? 1 : 1 + n % 29) {
			size_t clen = ZBEWALGO_STORED_SIZE(n), olen = n;
			unsigned char *dst = malloc(clen);
			int err = zbewalgo_compress(ctx, page, n, dst, &clen);

			CHECK(!err, "%s, %u bytes: compress gave %d", chains[c],
			      n, err);
			if (!err) {
				err = zbewalgo_decompress(dst, clen, o, &olen,
							  scratch);
				CHECK(!err && olen == n && !memcmp(o, page, n),
				      "%s, %u bytes: compressed to %zu, decompress gave %d",
				      chains[c], n, clen, err);
			}
			free(dst);
		}
		free(t);
	}
	end();
	free(scratch);
	zbewalgo_ctx_destroy(ctx);
}

/* A page's compressed form, for comparing two compressions of it. */
struct packed {
	size_t len;
	unsigned char data[ZBEWALGO_STORED_SIZE(PAGE)];
};

static bool compress_into(struct zbewalgo_ctx *ctx, const struct page *p,
			  struct packed *out)
{
	out->len = sizeof(out->data);
	return !zbewalgo_compress(ctx, p->data, p->len, out->data, &out->len);
}

/* Counts in *@differ a second compression unlike the first, names five. */
static void check_same(const struct packed *first, const struct packed *again,
		       const char *how, const struct page *p, int level,
		       unsigned long *differ)
{
	if (again->len == first->len &&
	    !memcmp(again->data, first->data, again->len))
		return;
	if ((*differ)++ < 5)
		printf("#   level %d, %s, %s: %zu bytes, first %zu\n", level,
		       p->name, how, again->len, first->len);
}

/*
 * zram up to 6.14 compresses a page a second time when its first
 * allocation fails, possibly on another CPU's context, and copies the
 * second result into the object sized for the first.  So a page must come
 * out the same on any context, whatever the context compressed before and
 * whatever table it had in between: every page (test data and generated)
 * at every level, on a context that compressed the pages in order, one
 * that compressed them backwards, one that saw the page just before, and
 * one that ran another table between the two compressions.
 */
void test_deterministic(void)
{
	struct zbewalgo_ctx *fwd = zbewalgo_ctx_create(PAGE);
	struct zbewalgo_ctx *bwd = zbewalgo_ctx_create(PAGE);
	struct zbewalgo_ctx *other = zbewalgo_ctx_create(PAGE);
	struct packed *first = malloc(nr_pages * sizeof(*first));
	struct packed again;
	struct zbewalgo_table t;
	unsigned char *scratch = malloc(PAGE);
	unsigned long differ = 0;
	size_t i, k;
	int level;

	begin("a page compresses the same on any context, whatever came before");
	CHECK(scratch, "scratch");
	CHECK(!zbewalgo_table_parse(&t, "rle bitshuffle4-jbe2-huffman lz"),
	      "table");
	for (level = 1; level <= ZBEWALGO_MAX_LEVEL; level++) {
		const struct zbewalgo_table *preset =
			zbewalgo_preset_table(level);

		zbewalgo_ctx_set_level(fwd, level);
		zbewalgo_ctx_set_level(bwd, level);
		zbewalgo_ctx_set_level(other, level);
		zbewalgo_ctx_set_table(fwd, preset);
		zbewalgo_ctx_set_table(bwd, preset);
		for (i = 0; i < nr_pages; i++)
			CHECK(compress_into(fwd, &pages[i], &first[i]),
			      "%s: compress failed", pages[i].name);
		for (i = nr_pages; i-- > 0;) {
			/* another context, another history */
			CHECK(compress_into(bwd, &pages[i], &again),
			      "%s: compress failed", pages[i].name);
			check_same(&first[i], &again, "other context",
				   &pages[i], level, &differ);
			/* the same context right after, a retry */
			CHECK(compress_into(fwd, &pages[i], &again),
			      "%s: compress failed", pages[i].name);
			check_same(&first[i], &again, "same context",
				   &pages[i], level, &differ);
			/* another table and level on the context in between */
			zbewalgo_ctx_set_table(other, &t);
			zbewalgo_ctx_set_level(other, level % 3 + 1);
			compress_into(other, &pages[(i * 7) % nr_pages], &again);
			zbewalgo_ctx_set_table(other, preset);
			zbewalgo_ctx_set_level(other, level);
			CHECK(compress_into(other, &pages[i], &again),
			      "%s: compress failed", pages[i].name);
			check_same(&first[i], &again, "after another table",
				   &pages[i], level, &differ);
			/* a decompression on the context in between */
			again.len = PAGE;
			k = (i * 3) % nr_pages;
			CHECK(!zbewalgo_ctx_decompress(bwd, first[k].data,
						       first[k].len, scratch,
						       &again.len) &&
			      again.len == pages[k].len &&
			      !memcmp(scratch, pages[k].data, again.len),
			      "%s: round trip failed", pages[k].name);
			CHECK(compress_into(bwd, &pages[i], &again),
			      "%s: compress failed", pages[i].name);
			check_same(&first[i], &again, "after a decompression",
				   &pages[i], level, &differ);
		}
	}
	printf("#   %zu pages at %d levels, 4 second compressions each: %lu differ\n",
	       nr_pages, ZBEWALGO_MAX_LEVEL, differ);
	CHECK(!differ, "%lu second compressions differ", differ);
	end();
	free(first);
	free(scratch);
	zbewalgo_ctx_destroy(other);
	zbewalgo_ctx_destroy(bwd);
	zbewalgo_ctx_destroy(fwd);
}

/*
 * lz, bwt and bewalgo2 take zstd's decompression workspace as scratch (a
 * context for 4 KiB pages keeps no scratch that large of its own), and
 * zstd sets its context up again after them.  A context for level 3's
 * table, whose lz and bwt chains win text and program pages, compresses
 * every page and decodes the result at once; after each page it decodes
 * a zstd page kept from before too, once more after filling the lent
 * workspace with what a step might leave there.  Every page must come
 * back.
 */
void test_lent_scratch(void)
{
	struct zbewalgo_ctx *ctx =
		zbewalgo_ctx_create_for(PAGE, zbewalgo_preset_table(3), 3,
					false);
	static struct packed c, z;
	unsigned char out[PAGE];
	unsigned long lent = 0, zstd = 0, failed = 0;
	size_t i, olen, zi = 0;
	unsigned int k, nr;

	begin("zstd's decompression workspace lent to lz and bwt");
	if (!ctx)
		abort();
	for (i = 0; i < nr_pages; i++) {
		bool big = false, has_zstd = false;

		if (!compress_into(ctx, &pages[i], &c)) {
			failed++;
			continue;
		}
		nr = (c.data[0] & ZBW_HDR_STEPS_MASK) >> ZBW_HDR_STEPS_SHIFT;
		for (k = 0; k < nr; k++) {
			big |= c.data[1 + k] == ZBEWALGO_STEP_LZ ||
			       c.data[1 + k] == ZBEWALGO_STEP_BWT ||
			       c.data[1 + k] == ZBEWALGO_STEP_BEWALGO2;
			has_zstd |= c.data[1 + k] == ZBEWALGO_STEP_ZSTD;
		}
		lent += big;
		olen = PAGE;
		if (zbewalgo_ctx_decompress(ctx, c.data, c.len, out, &olen) ||
		    olen != pages[i].len || memcmp(out, pages[i].data, olen))
			failed++;
		if (has_zstd && !big) {
			z = c;
			zi = i;
			zstd++;
		}
		if (!zstd)
			continue;
		olen = PAGE;
		if (zbewalgo_ctx_decompress(ctx, z.data, z.len, out, &olen) ||
		    olen != pages[zi].len || memcmp(out, pages[zi].data, olen))
			failed++;
		memset(zbw_zstd_lend(ctx->state[ZBEWALGO_STEP_ZSTD]), (int)i,
		       zbw_zstd_loan_size());
		olen = PAGE;
		if (zbewalgo_ctx_decompress(ctx, z.data, z.len, out, &olen) ||
		    olen != pages[zi].len || memcmp(out, pages[zi].data, olen))
			failed++;
	}
	CHECK(!failed, "%lu decodes failed", failed);
	CHECK(lent && zstd, "%lu pages by lz, bwt or bewalgo2, %lu by zstd",
	      lent, zstd);
	zbewalgo_ctx_destroy(ctx);
	end();
	printf("#   %lu of %zu pages by lz, bwt or bewalgo2, %lu by zstd alone\n",
	       lent, nr_pages, zstd);
}

/*
 * A context's scratch is laid out for its max_len: decompressing with it
 * must refuse a longer page, even when the caller offers a larger output
 * (zbewalgo_stream_decompress() passes the caller's length).  Here a
 * 64 KiB rle-huffman page into a 4 KiB context with 64 KiB of output
 * room; unbounded, the huffman decoder wrote its tables and its stage
 * past the context's scratch.
 */
void test_ctx_decompress_bound(void)
{
	struct zbewalgo_table *t = table_of("rle-huffman");
	struct zbewalgo_ctx *big = zbewalgo_ctx_create(ZBEWALGO_MAX_INPUT);
	struct zbewalgo_ctx *small = zbewalgo_ctx_create(PAGE);
	size_t n = ZBEWALGO_MAX_INPUT, clen = ZBEWALGO_STORED_SIZE(n), olen;
	unsigned char *page = malloc(n), *c = malloc(clen), *o = malloc(n);
	const struct zbewalgo_result *res = zbewalgo_ctx_last_result(big);
	size_t i;
	int err;

	begin("context decompression is bounded by the context's max_len");
	/* runs of 3..10 bytes: rle shrinks them, and again its output */
	for (i = 0; i < n; i++)
		page[i] = i / (3 + i / 4096 % 8) % 3 ? 0 : 0xff;
	zbewalgo_ctx_set_table(big, t);
	CHECK(!zbewalgo_compress(big, page, n, c, &clen) &&
	      res->nr_steps == 2, "rle-huffman page: %u steps", res->nr_steps);
	olen = n;
	err = zbewalgo_ctx_decompress(small, c, clen, o, &olen);
	CHECK(err == -ENOSPC, "64 KiB page in a 4 KiB context gave %d", err);
	olen = n;
	err = zbewalgo_ctx_decompress(big, c, clen, o, &olen);
	CHECK(!err && olen == n && !memcmp(o, page, n),
	      "64 KiB context: %d, %zu bytes", err, olen);
	/* A page that fits the context decodes with any larger room. */
	clen = ZBEWALGO_STORED_SIZE(n);
	CHECK(!zbewalgo_compress(big, page, PAGE, c, &clen), "4 KiB page");
	olen = n;
	err = zbewalgo_ctx_decompress(small, c, clen, o, &olen);
	CHECK(!err && olen == PAGE && !memcmp(o, page, PAGE),
	      "4 KiB page, 64 KiB room: %d, %zu bytes", err, olen);
	olen = PAGE - 1;
	err = zbewalgo_ctx_decompress(small, c, clen, o, &olen);
	CHECK(err == -ENOSPC, "4 KiB page, short room gave %d", err);
	end();
	free(o);
	free(c);
	free(page);
	free(t);
	zbewalgo_ctx_destroy(small);
	zbewalgo_ctx_destroy(big);
}
