// SPDX-License-Identifier: GPL-2.0-only
/*
 * decompress: arbitrary bytes as a compressed page.
 *
 * The input sits in a buffer of exactly its length, the output buffer is
 * exactly 4096 bytes and the scratch exactly
 * zbewalgo_decompress_scratch_size(4096) bytes, so ASan sees any access
 * outside them.  The result must be 0 (with at most 4096 bytes written),
 * -EINVAL or -ENOSPC.
 */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t scratch_len = zbewalgo_decompress_scratch_size(FUZZ_PAGE);
	uint8_t *src = fuzz_dup(data, size);
	uint8_t *dst = fuzz_alloc(FUZZ_PAGE);
	void *scratch = fuzz_alloc(scratch_len);
	size_t dlen = FUZZ_PAGE;
	int err;

	err = zbewalgo_decompress(src, size, dst, &dlen, scratch);
	FUZZ_ASSERT(err == 0 || err == -EINVAL || err == -ENOSPC,
		    "decompress returned %d", err);
	if (!err) {
		FUZZ_ASSERT(dlen <= FUZZ_PAGE, "dlen %zu", dlen);
		/* Deterministic: a second decode gives the same page. */
		{
			uint8_t *again = fuzz_alloc(dlen);
			size_t dlen2 = dlen;

			err = zbewalgo_decompress(src, size, again, &dlen2,
						  scratch);
			FUZZ_ASSERT(!err && dlen2 == dlen &&
				    !memcmp(again, dst, dlen),
				    "second decode differs (%d, %zu)", err,
				    dlen2);
			free(again);
		}
	}
	free(scratch);
	free(dst);
	free(src);
	return 0;
}
