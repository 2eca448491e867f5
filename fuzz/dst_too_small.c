// SPDX-License-Identifier: GPL-2.0-only
/*
 * dst-too-small: compression into every destination size from 0 up to the
 * size the page needs, each buffer allocated with exactly that size.
 *
 * Input: the table/params prefix of fuzz_table() (harness.h), then the
 * page.  Pages of up to SWEEP_MAX bytes go through every size 0..need;
 * longer pages (up to 4096 bytes) through the sizes 0..8 and need-8..need
 * only, as every size would cost thousands of compressions per input.
 * Every size must give -ENOSPC, or success with a result that fits and
 * decodes back to the page; the needed size itself must succeed; nothing
 * may be written past the given size (ASan).  Each call uses a fresh
 * context of max_len = page length (small contexts have small stage
 * buffers), so every size sees the same search.
 */
#include "harness.h"

#define SWEEP_MAX	512

static struct zbewalgo_ctx *new_ctx(size_t n, const struct zbewalgo_table *t,
				    const struct zbewalgo_params *p)
{
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(n);

	FUZZ_ASSERT(ctx, "no context");
	zbewalgo_ctx_set_table(ctx, t);
	zbewalgo_ctx_set_params(ctx, p);
	return ctx;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zbewalgo_table table;
	struct zbewalgo_params params;
	size_t pos = fuzz_table(data, size, &table, &params), n, need, cap;
	void *scratch;
	uint8_t *page, *full, *out;
	struct zbewalgo_ctx *ctx;
	int err;

	n = size - pos;
	if (n > FUZZ_PAGE)
		n = FUZZ_PAGE;
	page = fuzz_dup(data + pos, n);
	scratch = fuzz_alloc(zbewalgo_decompress_scratch_size(n));
	out = fuzz_alloc(n);

	need = ZBEWALGO_STORED_SIZE(n);
	full = fuzz_alloc(need);
	ctx = new_ctx(n, &table, &params);
	err = zbewalgo_compress(ctx, page, n, full, &need);
	FUZZ_ASSERT(!err && need <= ZBEWALGO_STORED_SIZE(n),
		    "compress into the stored size gave %d (%zu)", err, need);
	zbewalgo_ctx_destroy(ctx);
	free(full);

	for (cap = 0; cap <= need; cap++) {
		uint8_t *dst, *c;
		size_t dlen = cap, olen = n;

		if (n > SWEEP_MAX && cap > 8 && cap + 8 < need)
			cap = need - 8;
		dst = fuzz_alloc(cap);
		ctx = new_ctx(n, &table, &params);
		dlen = cap;
		err = zbewalgo_compress(ctx, page, n, dst, &dlen);
		zbewalgo_ctx_destroy(ctx);
		FUZZ_ASSERT(err == -ENOSPC || !err, "cap %zu/%zu: %d", cap,
			    need, err);
		FUZZ_ASSERT(!err || cap < need, "cap %zu/%zu failed", cap,
			    need);
		if (!err) {
			FUZZ_ASSERT(dlen <= cap, "%zu bytes in %zu", dlen, cap);
			c = fuzz_dup(dst, dlen);
			err = zbewalgo_decompress(c, dlen, out, &olen, scratch);
			FUZZ_ASSERT(!err && olen == n && !memcmp(out, page, n),
				    "result does not decode (%d, %zu)", err,
				    olen);
			free(c);
		}
		free(dst);
	}
	free(out);
	free(scratch);
	free(page);
	return 0;
}
