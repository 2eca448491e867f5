// SPDX-License-Identifier: GPL-2.0-only
/*
 * step-<name>: one step's decoder (and encoder) on arbitrary input.
 *
 * Built once per step with -DZBW_FUZZ_STEP=<id>; without it the first
 * input byte chooses the step (the "step" harness, all decoders in one).
 *
 * Input: [step byte, only without ZBW_FUZZ_STEP] cap_lo cap_hi payload.
 * The payload is decoded into an output of exactly cap bytes with a
 * source of exactly its length and the step's scratch_size() for
 * max(len, cap); decode must return -EINVAL or a length <= cap.  A
 * decoded result must survive encode -> decode unchanged.  The payload is
 * also encoded as data into exactly cap bytes: -ENOSPC, -EINVAL or a
 * result that decodes back to the payload.
 */
#include "harness.h"

/* The step's scratch, or its state set up for @max_len */
static void *step_scratch(const struct zbewalgo_step *step, size_t max_len)
{
	void *state;

	if (!step->state_size)
		return fuzz_alloc(step->scratch_size ?
				  step->scratch_size(max_len) : 0);
	state = zbewalgo_step_state_create(step, max_len);
	FUZZ_ASSERT(state, "no state for %zu bytes", max_len);
	return state;
}

/* Name of the step under test, for the messages */
static const char *step_name;

/* Encode @src into exactly @cap bytes and check the way back. */
static void check_encode(const struct zbewalgo_step *step, const uint8_t *src,
			 unsigned int slen, unsigned int cap, const char *what)
{
	uint8_t *enc = fuzz_alloc(cap), *e, *dec;
	void *scratch = step_scratch(step, slen > cap ? slen : cap);
	int n, m;

	n = step->encode(src, slen, enc, cap, scratch);
	FUZZ_ASSERT(n == -ENOSPC || n == -EINVAL || (n >= 0 && n <= (int)cap),
		    "%s %s: encode of %u bytes into %u gave %d", step_name,
		    what, slen, cap, n);
	free(scratch);
	if (n < 0) {
		free(enc);
		return;
	}
	e = fuzz_dup(enc, n);
	free(enc);
	dec = fuzz_alloc(slen);
	scratch = step_scratch(step, slen > (unsigned int)n ? slen : n);
	m = step->decode(e, n, dec, slen, scratch);
	FUZZ_ASSERT(m == (int)slen && !memcmp(dec, src, slen),
		    "%s %s: encoded %u bytes to %d, decoded to %d", step_name,
		    what, slen, n, m);
	free(scratch);
	free(dec);
	free(e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct zbewalgo_step *step;
	unsigned int cap, slen, id;
	size_t pos = 0;
	uint8_t *src, *dst;
	void *scratch;
	int ret;

#ifdef ZBW_FUZZ_STEP
	id = ZBW_FUZZ_STEP;
#else
	id = 1 + fuzz_byte(data, size, pos++) % (ZBEWALGO_NR_STEP_IDS - 1);
#endif
	step = zbewalgo_step_get(id);
	step_name = zbewalgo_step_name(id);
	FUZZ_ASSERT(step && step_name, "no step %u", id);
	cap = fuzz_byte(data, size, pos) | fuzz_byte(data, size, pos + 1) << 8;
	pos += 2;
	if (pos > size)
		pos = size;
	slen = size - pos;
	if (slen > ZBW_LEN_MAX)
		return 0;

	src = fuzz_dup(data + pos, slen);
	dst = fuzz_alloc(cap);
	scratch = step_scratch(step, slen > cap ? slen : cap);
	ret = step->decode(src, slen, dst, cap, scratch);
	FUZZ_ASSERT(ret == -EINVAL || (ret >= 0 && ret <= (int)cap),
		    "%s: decode of %u bytes into %u gave %d", step_name, slen,
		    cap, ret);
	free(scratch);
	if (ret >= 0) {
		uint8_t *out = fuzz_dup(dst, ret);

		/* Room for any encoding; 2 * n + 64 beats stage_cap. */
		check_encode(step, out, ret, 2 * ret + 64, "decoded");
		free(out);
	}
	free(dst);
	check_encode(step, src, slen, cap, "payload");
	free(src);
	return 0;
}
