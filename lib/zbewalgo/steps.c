// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo step registry: maps the stable ids stored in compressed pages and
 * the names used in combination tables to the step implementations.
 */

#include <linux/export.h>

#include "zbewalgo_internal.h"

static const struct zbewalgo_step *const zbewalgo_steps[ZBEWALGO_NR_STEP_IDS] = {
	[ZBEWALGO_STEP_BWT]		= &zbewalgo_step_bwt,
	[ZBEWALGO_STEP_MTF]		= &zbewalgo_step_mtf,
	[ZBEWALGO_STEP_JBE]		= &zbewalgo_step_jbe,
	[ZBEWALGO_STEP_JBE2]		= &zbewalgo_step_jbe2,
	[ZBEWALGO_STEP_RLE]		= &zbewalgo_step_rle,
	[ZBEWALGO_STEP_HUFFMAN]		= &zbewalgo_step_huffman,
	[ZBEWALGO_STEP_BEWALGO]		= &zbewalgo_step_bewalgo,
	[ZBEWALGO_STEP_BEWALGO2]	= &zbewalgo_step_bewalgo2,
	[ZBEWALGO_STEP_BITSHUFFLE4]	= &zbewalgo_step_bitshuffle4,
	[ZBEWALGO_STEP_BITSHUFFLE8]	= &zbewalgo_step_bitshuffle8,
	[ZBEWALGO_STEP_LZ]		= &zbewalgo_step_lz,
	[ZBEWALGO_STEP_DELTA4]		= &zbewalgo_step_delta4,
	[ZBEWALGO_STEP_DELTA8]		= &zbewalgo_step_delta8,
	[ZBEWALGO_STEP_SIEVE4]		= &zbewalgo_step_sieve4,
	[ZBEWALGO_STEP_HUFFMAN4]	= &zbewalgo_step_huffman4,
};

/* Returns the step with stable id @id, or NULL for an unknown id. */
const struct zbewalgo_step *zbewalgo_step_get(unsigned int id)
{
	if (id >= ZBEWALGO_NR_STEP_IDS)
		return NULL;
	return zbewalgo_steps[id];
}

/* Scratch every step can share for stages of up to @max_len bytes. */
size_t zbewalgo_steps_scratch_size(unsigned int max_len)
{
	size_t size = 0;
	unsigned int id;

	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		const struct zbewalgo_step *step = zbewalgo_steps[id];

		if (step && step->scratch_size)
			size = max(size, step->scratch_size(max_len));
	}
	return size;
}

/**
 * zbewalgo_step_id() - look up a step by name
 * @name: step name, not necessarily NUL-terminated
 * @len: length of @name
 *
 * Return: the stable id of the step, or -EINVAL for an unknown name.
 */
int zbewalgo_step_id(const char *name, size_t len)
{
	unsigned int id;

	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		const struct zbewalgo_step *step = zbewalgo_steps[id];

		if (step && strlen(step->name) == len &&
		    !memcmp(step->name, name, len))
			return id;
	}
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(zbewalgo_step_id);

/**
 * zbewalgo_step_name() - name of a step
 * @id: stable step id
 *
 * Return: the name used in combination tables, or NULL for an unknown id.
 */
const char *zbewalgo_step_name(unsigned int id)
{
	const struct zbewalgo_step *step = zbewalgo_step_get(id);

	return step ? step->name : NULL;
}
EXPORT_SYMBOL_GPL(zbewalgo_step_name);
