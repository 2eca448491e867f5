// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo step registry: maps the stable ids stored in compressed pages and
 * the names used in combination tables to the step implementations.
 */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/slab.h>

#include "search.h"

/*
 * Every step by id, with its name.  The enum counts the ids up from 1:
 * BUILD_BUG_ON_ZERO holds steps.h to listing them so.  A step of a set
 * the build leaves out keeps its name, without a step.
 */
static const struct {
	const char *name;
	const struct zbewalgo_step *step;
} zbewalgo_steps[ZBEWALGO_NR_STEP_IDS] = {
#define ZBW_STEP(NAME, name, id, set) \
	[ZBEWALGO_STEP_##NAME] = { #name + \
		BUILD_BUG_ON_ZERO(ZBEWALGO_STEP_##NAME != (id)), \
		ZBW_SET_##set ? &zbewalgo_step_##NAME : NULL },
#include "steps.h"
#undef ZBW_STEP
};

/*
 * Returns the step with stable id @id, or NULL for an unknown id or a step
 * the build leaves out.
 */
const struct zbewalgo_step *zbewalgo_step_get(unsigned int id)
{
	if (id >= ZBEWALGO_NR_STEP_IDS)
		return NULL;
	return zbewalgo_steps[id].step;
}

/* BIT_ULL(id) of every step this build has */
u64 zbw_built_steps(void)
{
	u64 mask = 0;
	unsigned int id;

	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++)
		if (zbewalgo_steps[id].step)
			mask |= BIT_ULL(id);
	return mask;
}

/*
 * Scratch the steps of @mask (BIT_ULL(id) each) can share for stages of up
 * to @max_len bytes; for the steps of @lent, which borrow zstd's workspace
 * (zbw_lent_steps()), what their decoders take of it instead.
 */
size_t zbw_steps_scratch_size(unsigned int max_len, u64 mask, u64 lent)
{
	size_t size = 0;
	unsigned int id;

	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		const struct zbewalgo_step *step = zbewalgo_steps[id].step;

		if (!step || !(mask & BIT_ULL(id)))
			continue;
		if (!(lent & BIT_ULL(id)) && step->scratch_size)
			size = max(size, step->scratch_size(max_len));
		else if ((lent & BIT_ULL(id)) && step->decode_scratch_size)
			size = max(size, step->decode_scratch_size(max_len));
	}
	return size;
}

/*
 * The steps of @mask that take the zstd step's decompression workspace as
 * scratch (zbw_step_scratch(); without a context, where states are set up
 * page by page, the room of the states): those that need more than the
 * search and the other steps, and no more than the workspace has.
 */
u64 zbw_lent_steps(size_t max_len, u64 mask)
{
	unsigned int cap = zbewalgo_stage_cap(max_len), id;
	size_t small = max(ZBW_CHECK_SCRATCH, ZBW_PROBE_SCRATCH), size;
	u64 lent = 0;

	if (!(mask & BIT_ULL(ZBEWALGO_STEP_ZSTD)))
		return 0;
	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		const struct zbewalgo_step *step = zbewalgo_step_get(id);

		if (id == ZBEWALGO_STEP_ZSTD || !(mask & BIT_ULL(id)) ||
		    !step->scratch_size || step->state_size)
			continue;
		size = step->scratch_size(cap);
		if (size > small && size <= zbw_zstd_loan_size())
			lent |= BIT_ULL(id);
	}
	return lent;
}

/* Scratch every step can share for stages of up to @max_len bytes. */
size_t zbewalgo_steps_scratch_size(unsigned int max_len)
{
	return zbw_steps_scratch_size(max_len, ~0ULL, 0);
}

/*
 * A step's encoder state outside a context (for tests and fuzzing), for
 * inputs of up to @max_len bytes; free it with kvfree().  Returns NULL
 * when out of memory or the step has no state.
 */
void *zbewalgo_step_state_create(const struct zbewalgo_step *step,
				 unsigned int max_len)
{
	struct zbw_room room = ZBW_ROOM_ANY(max_len);
	size_t size;
	void *state;

	if (!step->state_size)
		return NULL;
	/* the state, then the step's own scratch, as a context has them */
	size = ALIGN(step->state_size(&room), 8);
	state = kvzalloc(size + step->scratch_size(zbewalgo_stage_cap(max_len)),
			 GFP_KERNEL);
	if (state && step->state_init(state, &room, (u8 *)state + size)) {
		kvfree(state);
		return NULL;
	}
	return state;
}

/**
 * zbewalgo_step_id() - look up a step by name
 * @name: step name, not necessarily NUL-terminated
 * @len: length of @name
 *
 * Return: the stable id of the step, -EOPNOTSUPP for a step this build
 * leaves out (CONFIG_ZBEWALGO_CLASSIC_STEPS), or -EINVAL for an unknown
 * name.
 */
int zbewalgo_step_id(const char *name, size_t len)
{
	unsigned int id;

	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		const char *s = zbewalgo_steps[id].name;

		if (s && strlen(s) == len && !memcmp(s, name, len))
			return zbewalgo_steps[id].step ? id : -EOPNOTSUPP;
	}
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_step_id);

/**
 * zbewalgo_step_name() - name of a step
 * @id: stable step id
 *
 * Return: the name used in combination tables, or NULL for an unknown id.
 */
const char *zbewalgo_step_name(unsigned int id)
{
	return id < ZBEWALGO_NR_STEP_IDS ? zbewalgo_steps[id].name : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_step_name);
