// SPDX-License-Identifier: GPL-2.0-only
/*
 * table: the combination-table text interface (the sysfs "combinations"
 * file) on arbitrary strings.
 *
 * Input: byte 0 picks the starting table (default, a preset, or one
 * parsed from the first command) and how the commands are applied; the
 * rest is split at '\0' bytes into NUL-terminated strings in exact-size
 * buffers, each applied with zbewalgo_table_command() or directly with
 * parse/add/remove.  After every call: a failed call left the table
 * byte-identical; a table is valid (1..64 combinations of 1..7 known
 * steps, no duplicates); formatting into every buffer size writes whole
 * lines only; and parsing the formatted text gives the same table.
 */
#include "harness.h"

static void check_valid(const struct zbewalgo_table *t)
{
	unsigned int i, j, k;

	FUZZ_ASSERT(t->nr >= 1 && t->nr <= ZBEWALGO_MAX_COMBINATIONS,
		    "nr %u", t->nr);
	for (i = 0; i < t->nr; i++) {
		const struct zbewalgo_combination *c = &t->comb[i];

		FUZZ_ASSERT(c->nr_steps >= 1 &&
			    c->nr_steps <= ZBEWALGO_MAX_STEPS,
			    "comb %u: %u steps", i, c->nr_steps);
		for (k = 0; k < c->nr_steps; k++)
			FUZZ_ASSERT(zbewalgo_step_get(c->ids[k]),
				    "comb %u: bad id %u", i, c->ids[k]);
		for (j = 0; j < i; j++)
			FUZZ_ASSERT(c->nr_steps != t->comb[j].nr_steps ||
				    memcmp(c->ids, t->comb[j].ids, c->nr_steps),
				    "combinations %u and %u are equal", j, i);
	}
}

static void check_format(const struct zbewalgo_table *t, unsigned int sel)
{
	struct zbewalgo_table *back = calloc(1, sizeof(*back));
	int len = zbewalgo_table_format(t, NULL, 0), n, err;
	size_t size;
	char *buf;

	FUZZ_ASSERT(back && len > 0, "format length %d", len);
	/* Exactly enough room: the full text, and it parses back. */
	buf = fuzz_alloc(len + 1);
	n = zbewalgo_table_format(t, buf, len + 1);
	FUZZ_ASSERT(n == len && strlen(buf) == (size_t)len &&
		    buf[len - 1] == '\n', "format gave %d, '%s'", n, buf);
	err = zbewalgo_table_parse(back, buf);
	FUZZ_ASSERT(!err, "formatted table '%s' does not parse: %d", buf, err);
	FUZZ_ASSERT(back->nr == t->nr &&
		    !memcmp(back->comb, t->comb, t->nr * sizeof(t->comb[0])),
		    "format -> parse changed the table ('%s')", buf);
	free(buf);

	/* A truncated buffer holds whole lines only, NUL-terminated. */
	size = sel % (len + 1);
	buf = fuzz_alloc(size);
	n = zbewalgo_table_format(t, buf, size);
	FUZZ_ASSERT(n == len, "truncated format returned %d, want %d", n,
		    len);
	if (size) {
		size_t l = strnlen(buf, size);

		FUZZ_ASSERT(l < size, "not NUL-terminated in %zu bytes", size);
		FUZZ_ASSERT(!l || buf[l - 1] == '\n',
			    "partial line in %zu bytes: '%s'", size, buf);
		FUZZ_ASSERT(size <= (size_t)len || l == (size_t)len,
			    "short text");
	}
	free(buf);
	free(back);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct zbewalgo_table *t = calloc(1, sizeof(*t));
	struct zbewalgo_table *old = calloc(1, sizeof(*old));
	unsigned int mode = fuzz_byte(data, size, 0), cmd = 0;
	size_t pos = size ? 1 : 0;
	char *s;

	FUZZ_ASSERT(t && old, "oom");
	if ((mode & 3) == 0 || (mode & 3) == 3)
		zbewalgo_table_reset(t);
	else
		*t = *zbewalgo_preset_table((mode & 3) == 1 ? 1 : 3);

	while (pos < size) {
		const uint8_t *z = memchr(data + pos, 0, size - pos);
		size_t len = z ? (size_t)(z - data - pos) : size - pos;
		unsigned int how = (mode >> 2) & 3;
		int err;

		s = fuzz_alloc(len + 1);
		memcpy(s, data + pos, len);
		s[len] = '\0';
		pos += len + 1;
		*old = *t;

		/* Mode 3, first string: a fresh table from parse. */
		if ((mode & 3) == 3 && cmd == 0)
			how = 1;
		switch (how) {
		case 1:
			err = zbewalgo_table_parse(t, s);
			break;
		case 2:
			err = (cmd & 1) ? zbewalgo_table_remove(t, s) :
					  zbewalgo_table_add(t, s);
			break;
		default:
			err = zbewalgo_table_command(t, s);
			break;
		}
		FUZZ_ASSERT(err == 0 || err == -EINVAL || err == -ENOSPC ||
			    err == -EEXIST || err == -ENOENT,
			    "'%s' gave %d", s, err);
		if (err)
			FUZZ_ASSERT(!memcmp(t, old, sizeof(*t)),
				    "failed '%s' (%d) changed the table", s,
				    err);
		check_valid(t);
		check_format(t, fuzz_byte(data, size, pos) * 37 + cmd);
		free(s);
		cmd++;

		/* Step names of arbitrary length, not NUL-terminated. */
		if (len && len < 64) {
			char *name = (char *)fuzz_dup(data + pos - len - 1, len);
			int id = zbewalgo_step_id(name, len);

			FUZZ_ASSERT(id == -EINVAL ||
				    (zbewalgo_step_name(id) &&
				     strlen(zbewalgo_step_name(id)) == len &&
				     !memcmp(zbewalgo_step_name(id), name, len)),
				    "step_id gave %d", id);
			free(name);
		}
	}
	free(old);
	free(t);
	return 0;
}
