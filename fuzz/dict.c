// SPDX-License-Identifier: GPL-2.0-only
/*
 * dict: zram's dict=, the test dictionary of lib/zbewalgo/tests.
 *
 * The input is decoded as a compressed page on a context with the
 * dictionary (exact-size input, 4096-byte output): 0 with at most 4096
 * bytes, -EINVAL or -ENOSPC, the same twice.  Then it is compressed as a
 * page (at most 4096 bytes, byte 0 picks the level) on that context into
 * exactly ZBEWALGO_STORED_SIZE(n) bytes, the same twice, and decoded back
 * byte-exact; when it differs from the result of the same settings
 * without the dictionary, contexts without it and with another id refuse
 * it, and so does zbewalgo_decompress().
 */
#include "harness.h"
#include "../lib/zbewalgo/tests/zbewalgo_test_dict.h"

static struct zbewalgo_dict *dicts[1 + ZBEWALGO_MAX_LEVEL], *other;
static struct zbewalgo_ctx *with[1 + ZBEWALGO_MAX_LEVEL];
static struct zbewalgo_ctx *without[1 + ZBEWALGO_MAX_LEVEL], *wrong;
static void *scratch;

static void setup(void)
{
	u8 bad[sizeof(zbw_test_dict)];
	int level;

	memcpy(bad, zbw_test_dict, sizeof(bad));
	bad[4] ^= 0x5a;
	for (level = 1; level <= ZBEWALGO_MAX_LEVEL; level++) {
		with[level] = zbewalgo_ctx_create_for(FUZZ_PAGE, NULL, 0,
						      true);
		without[level] = zbewalgo_ctx_create(FUZZ_PAGE);
		FUZZ_ASSERT(with[level] && without[level] &&
			    !zbewalgo_dict_create(zbw_test_dict,
						  sizeof(zbw_test_dict), level,
						  FUZZ_PAGE, &dicts[level]),
			    "set-up of level %d", level);
		/* the same settings but the dictionary */
		zbewalgo_ctx_set_table(with[level],
				       zbewalgo_preset_table(level));
		zbewalgo_ctx_set_level(with[level], level);
		zbewalgo_ctx_set_dict(with[level], dicts[level]);
		zbewalgo_ctx_set_table(without[level],
				       zbewalgo_preset_table(level));
		zbewalgo_ctx_set_level(without[level], level);
	}
	wrong = zbewalgo_ctx_create_for(FUZZ_PAGE, NULL, 0, true);
	FUZZ_ASSERT(wrong &&
		    !zbewalgo_dict_create(bad, sizeof(bad), 2, FUZZ_PAGE,
					  &other), "set-up");
	zbewalgo_ctx_set_dict(wrong, other);
	scratch = fuzz_alloc(zbewalgo_decompress_scratch_size(FUZZ_PAGE));
}

/* Decodes @src on @ctx (NULL: with the scratch) into exactly 4096 bytes */
static int decode(struct zbewalgo_ctx *ctx, const u8 *src, size_t len,
		  u8 *dst, size_t *dlen)
{
	*dlen = FUZZ_PAGE;
	return ctx ? zbewalgo_ctx_decompress(ctx, src, len, dst, dlen) :
		     zbewalgo_decompress(src, len, dst, dlen, scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zbewalgo_ctx *ctx, *plain;
	uint8_t *src = fuzz_dup(data, size);
	uint8_t *dst = fuzz_alloc(FUZZ_PAGE), *again = fuzz_alloc(FUZZ_PAGE);
	size_t n = size > FUZZ_PAGE ? FUZZ_PAGE : size;
	size_t dlen, dlen2, cap = ZBEWALGO_STORED_SIZE(n), c1, c2;
	uint8_t *a = fuzz_alloc(cap), *b = fuzz_alloc(cap);
	int err, err2;

	if (!scratch)
		setup();
	ctx = with[size ? 1 + data[0] % ZBEWALGO_MAX_LEVEL : 2];
	plain = without[size ? 1 + data[0] % ZBEWALGO_MAX_LEVEL : 2];

	/* hostile input on a context with the dictionary */
	err = decode(ctx, src, size, dst, &dlen);
	FUZZ_ASSERT(err == 0 || err == -EINVAL || err == -ENOSPC,
		    "decode with the dictionary returned %d", err);
	err2 = decode(ctx, src, size, again, &dlen2);
	FUZZ_ASSERT(err2 == err && (err || (dlen2 == dlen &&
					    !memcmp(again, dst, dlen))),
		    "second decode differs (%d, %d)", err, err2);

	/* the input as a page */
	c1 = c2 = cap;
	err = zbewalgo_compress(ctx, src, n, a, &c1);
	err2 = zbewalgo_compress(ctx, src, n, b, &c2);
	FUZZ_ASSERT(!err && !err2 && c1 == c2 && !memcmp(a, b, c1),
		    "compressed twice: %d, %d, %zu and %zu bytes", err, err2,
		    c1, c2);
	err = decode(ctx, a, c1, dst, &dlen);
	FUZZ_ASSERT(!err && dlen == n && !memcmp(dst, src, n),
		    "no round trip with the dictionary (%d)", err);
	c2 = cap;
	err = zbewalgo_compress(plain, src, n, b, &c2);
	FUZZ_ASSERT(!err, "compression without the dictionary gave %d", err);
	/* without it: the page, or refused, by any context without it */
	err = decode(plain, a, c1, dst, &dlen);
	FUZZ_ASSERT(err == -EINVAL || (!err && dlen == n && !memcmp(dst, src, n)),
		    "decoded without the dictionary to other bytes (%d)", err);
	if (err) {
		FUZZ_ASSERT(decode(wrong, a, c1, dst, &dlen) == -EINVAL &&
			    decode(NULL, a, c1, dst, &dlen) == -EINVAL,
			    "a page that needs the dictionary decoded without it");
	}
	free(b);
	free(a);
	free(again);
	free(dst);
	free(src);
	return 0;
}
