// SPDX-License-Identifier: GPL-2.0-only
/*
 * roundtrip: compress a page with a table and thresholds chosen by the
 * input, decompress it, compare byte-exact.
 *
 * Input: the table/params prefix of fuzz_table() (harness.h), then the
 * page (at most 4096 bytes; the rest is ignored).  The page is compressed
 * twice in the same context, with the page read backwards compressed in
 * between, and both results must be the same bytes: zram up to 6.14
 * trusts the first length of a page it compresses again.  Destination
 * exactly ZBEWALGO_STORED_SIZE(n), output exactly n, scratch exactly
 * zbewalgo_decompress_scratch_size(n).
 */
#include "harness.h"

static struct zbewalgo_ctx *ctx;

/* The first pass's result, which the second must repeat. */
static uint8_t *first;
static size_t first_len;

static void check_page(const uint8_t *page, size_t n, int pass)
{
	size_t cap = ZBEWALGO_STORED_SIZE(n), clen = cap, olen = n;
	uint8_t *dst = fuzz_alloc(cap), *c, *out;
	void *scratch = fuzz_alloc(zbewalgo_decompress_scratch_size(n));
	const struct zbewalgo_result *res;
	int err;

	err = zbewalgo_compress(ctx, page, n, dst, &clen);
	FUZZ_ASSERT(!err, "pass %d: compress of %zu bytes failed: %d", pass,
		    n, err);
	FUZZ_ASSERT(clen <= cap, "pass %d: %zu > stored size %zu", pass, clen,
		    cap);
	res = zbewalgo_ctx_last_result(ctx);
	FUZZ_ASSERT(res->stored == (res->comb < 0), "result record");
	FUZZ_ASSERT(res->stored || (res->nr_steps >= 1 &&
				    res->nr_steps <= ZBEWALGO_MAX_STEPS),
		    "nr_steps %u", res->nr_steps);
	FUZZ_ASSERT(res->stored ? (dst[0] & 0x70) == 0 :
		    (unsigned int)(dst[0] >> 4) == res->nr_steps,
		    "header 0x%02x does not match the result", dst[0]);

	if (pass == 1) {
		first = fuzz_dup(dst, clen);
		first_len = clen;
	} else if (pass == 2) {
		FUZZ_ASSERT(clen == first_len && !memcmp(dst, first, clen),
			    "second compression: %zu bytes, first %zu", clen,
			    first_len);
	}

	c = fuzz_dup(dst, clen);
	out = fuzz_alloc(n);
	err = zbewalgo_decompress(c, clen, out, &olen, scratch);
	FUZZ_ASSERT(!err, "pass %d: decompress failed: %d (clen %zu, n %zu)",
		    pass, err, clen, n);
	FUZZ_ASSERT(olen == n, "pass %d: decoded %zu bytes, want %zu", pass,
		    olen, n);
	FUZZ_ASSERT(!memcmp(out, page, n), "pass %d: decoded page differs",
		    pass);
	if (n) {
		/* One byte too little room is -ENOSPC. */
		olen = n - 1;
		err = zbewalgo_decompress(c, clen, out, &olen, scratch);
		FUZZ_ASSERT(err == -ENOSPC, "short output gave %d", err);
	}
	free(out);
	free(c);
	free(scratch);
	free(dst);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zbewalgo_table table;
	struct zbewalgo_params params;
	size_t pos = fuzz_table(data, size, &table, &params), n, i;
	uint8_t *page;

	/* A fresh context per input keeps runs reproducible. */
	ctx = zbewalgo_ctx_create(FUZZ_PAGE);
	FUZZ_ASSERT(ctx, "no context");
	zbewalgo_ctx_set_table(ctx, &table);
	zbewalgo_ctx_set_params(ctx, &params);

	n = size - pos;
	if (n > FUZZ_PAGE)
		n = FUZZ_PAGE;
	page = fuzz_dup(data + pos, n);
	check_page(page, n, 1);
	/* another page in between, as another of zram's pages would be */
	for (i = 0; i < n; i++)
		page[i] = data[pos + n - 1 - i];
	check_page(page, n, 0);
	memcpy(page, data + pos, n);
	check_page(page, n, 2);
	free(first);
	free(page);
	zbewalgo_ctx_destroy(ctx);
	ctx = NULL;
	return 0;
}
