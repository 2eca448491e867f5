// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo combination tables: the default table and the text form used by
 * sysfs and the command-line tool.
 *
 * A combination is written as step names joined by '-', e.g.
 * "bwt-mtf-huffman".  A table is a list of combinations separated by white
 * space, ',' or ';'.  Commands: "set TABLE", "add TABLE", "remove TABLE",
 * "reset".  Every function here either succeeds completely or leaves the
 * table untouched.
 */

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/slab.h>

#include "zbewalgo_internal.h"

#define C(...) {							\
	.nr_steps = sizeof((u8[]){ __VA_ARGS__ }),			\
	.ids = { __VA_ARGS__ },						\
}

/*
 * Short names for the tables below: BWT for ZBEWALGO_STEP_BWT etc.  Both
 * count up from 0 over the same list.
 */
enum {
	NO_STEP,
#define ZBW_STEP(NAME, ...) \
	NAME,
#include "steps.h"
#undef ZBW_STEP
};

/*
 * The default table, chosen by measuring chains on pages of each kind
 * it names: zstd alone for text, code and process memory; zstd on byte
 * planes for arrays of numbers, of 4- or 8-byte words, or of the
 * differences of 8- or 2-byte words (sparse matrices, pointer arrays,
 * 16-bit images, and numbers that repeat); the number coders for arrays
 * of 4-, 8- and 2-byte numbers whose values vary smoothly or within a
 * range (float fields, solver state, samples).  Each chain costs about
 * one zstd run or less, and about one chain is tried per page.  zstd
 * comes first: where the probe's estimates cannot tell the chains apart
 * (pages of mostly zeros) the first chain is tried, and on those pages of
 * process memory zstd alone writes the least.
 */
static const struct zbewalgo_table zbewalgo_default = {
	.nr = 8,
	.comb = {
		C(ZSTD),
		C(BITSHUFFLE4, ZSTD),
		C(BITSHUFFLE8, ZSTD),
		C(DELTA8, BITSHUFFLE8, ZSTD),
		C(DELTA2, BITSHUFFLE2, ZSTD),
		C(NUM4),
		C(NUM8),
		C(NUM2),
	},
};

/*
 * Level 1: three of the default's chains, with zstd at its level -1
 * (zbewalgo_ctx_set_level()).
 */
static const struct zbewalgo_table zbewalgo_preset_fast = {
	.nr = 3,
	.comb = {
		C(ZSTD),
		C(BITSHUFFLE4, ZSTD),
		C(DELTA8, BITSHUFFLE8, ZSTD),
	},
};

/*
 * Level 3: every zstd chain measured useful, the number coders, then,
 * with the classic steps, sieved planes, lz (3-5% smaller than zstd on
 * text pages, at a third of its speed) and the strongest chains of
 * entropy coders: second differences for smooth float64 fields, sieved
 * planes for sparse float32 ones, BWT for text.
 */
static const struct zbewalgo_table zbewalgo_preset_thorough = {
#ifdef CONFIG_ZBEWALGO_CLASSIC_STEPS
	.nr = 15,
#else
	.nr = 10,
#endif
	.comb = {
		C(ZSTD),
		C(BITSHUFFLE4, ZSTD),
		C(BITSHUFFLE8, ZSTD),
		C(DELTA8, BITSHUFFLE8, ZSTD),
		C(DELTA2, BITSHUFFLE2, ZSTD),
		C(DELTA8, DELTA8, BITSHUFFLE8, ZSTD),
		C(DELTA4, BITSHUFFLE4, ZSTD),
		C(NUM4),
		C(NUM8),
		C(NUM2),
#ifdef CONFIG_ZBEWALGO_CLASSIC_STEPS
		C(SIEVE4, BITSHUFFLE4, ZSTD),
		C(LZ),
		C(SIEVE4, BITSHUFFLE4, HUFFMAN4),
		C(DELTA8, DELTA8, BITSHUFFLE8, RLE, HUFFMAN),
		C(BWT, MTF, BEWALGO, HUFFMAN),
#endif
	},
};

#undef C

/**
 * zbewalgo_preset_table() - combination table of a compression level
 * @level: 1 (fast: three chains), 2 (the default table) or 3 (thorough:
 *	fifteen chains, ten of them without CONFIG_ZBEWALGO_CLASSIC_STEPS)
 *
 * zram's algorithm_params level= selects one of these, and the same
 * level for the steps, zbewalgo_ctx_set_level().
 *
 * Return: the preset table, or NULL for an unknown level.
 */
const struct zbewalgo_table *zbewalgo_preset_table(int level)
{
	switch (level) {
	case 1:
		return &zbewalgo_preset_fast;
	case 2:
		return &zbewalgo_default;
	case 3:
		return &zbewalgo_preset_thorough;
	default:
		return NULL;
	}
}
EXPORT_SYMBOL_GPL(zbewalgo_preset_table);

/**
 * zbewalgo_table_default() - the built-in default table
 *
 * Return: the default table; never changes.
 */
const struct zbewalgo_table *zbewalgo_table_default(void)
{
	return &zbewalgo_default;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_table_default);

/**
 * zbewalgo_table_reset() - replace a table by the default table
 * @table: the table
 */
void zbewalgo_table_reset(struct zbewalgo_table *table)
{
	*table = zbewalgo_default;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_table_reset);

static bool zbw_is_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == ',' || c == ';';
}

static int zbw_table_find(const struct zbewalgo_table *table,
			  const struct zbewalgo_combination *comb)
{
	unsigned int i;

	for (i = 0; i < table->nr; i++)
		if (zbw_comb_equal(&table->comb[i], comb))
			return i;
	return -1;
}

/*
 * Parses one combination from [s, end).  Returns -EINVAL for an unknown
 * step, an empty step name or more than ZBEWALGO_MAX_STEPS steps, and
 * -EOPNOTSUPP for a step the build leaves out.
 */
static int zbw_parse_comb(const char *s, const char *end,
			  struct zbewalgo_combination *comb)
{
	memset(comb, 0, sizeof(*comb));
	for (;;) {
		const char *dash = s;
		int id;

		while (dash < end && *dash != '-')
			dash++;
		id = zbewalgo_step_id(s, dash - s);
		if (id < 0)
			return id;
		if (comb->nr_steps == ZBEWALGO_MAX_STEPS)
			return -EINVAL;
		comb->ids[comb->nr_steps++] = id;
		if (dash == end)
			return 0;
		s = dash + 1;
	}
}

static int zbw_append(struct zbewalgo_table *table,
		      const struct zbewalgo_combination *comb)
{
	if (zbw_table_find(table, comb) >= 0)
		return -EEXIST;
	if (table->nr == ZBEWALGO_MAX_COMBINATIONS)
		return -ENOSPC;
	table->comb[table->nr++] = *comb;
	return 0;
}

static int zbw_delete(struct zbewalgo_table *table,
		      const struct zbewalgo_combination *comb)
{
	int i = zbw_table_find(table, comb);

	if (i < 0)
		return -ENOENT;
	memmove(&table->comb[i], &table->comb[i + 1],
		(table->nr - i - 1) * sizeof(table->comb[0]));
	table->nr--;
	return 0;
}

/*
 * Appends (or with @remove, deletes) every combination in @text.  Stops at
 * the first error and returns it; returns -EINVAL when @text holds no
 * combination at all.
 */
static int zbw_apply_text(const char *text, struct zbewalgo_table *table,
			  bool remove)
{
	struct zbewalgo_combination comb;
	const char *s = text;
	bool any = false;
	int ret;

	for (;;) {
		const char *e;

		while (*s && zbw_is_sep(*s))
			s++;
		if (!*s)
			return any ? 0 : -EINVAL;
		e = s;
		while (*e && !zbw_is_sep(*e))
			e++;
		ret = zbw_parse_comb(s, e, &comb);
		if (!ret)
			ret = remove ? zbw_delete(table, &comb) :
				       zbw_append(table, &comb);
		if (ret)
			return ret;
		any = true;
		s = e;
	}
}

/**
 * zbewalgo_table_steps() - steps of a table, summed over its combinations
 * @table: the table
 *
 * Tables built from text hold at most ZBEWALGO_MAX_TABLE_STEPS.
 *
 * Return: the most steps one page runs with @table.
 */
unsigned int zbewalgo_table_steps(const struct zbewalgo_table *table)
{
	unsigned int i, n = 0;

	for (i = 0; i < table->nr; i++)
		n += table->comb[i].nr_steps;
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_table_steps);

/*
 * The most work of one run of each step on a page, in sixteenths of
 * zstd's slowest page at level 3 with zram's parameters, measured on pages
 * built to be slow, as the first step and after others.
 * The BWT's sorters take about 21 times zstd's time on pages that repeat
 * with a period of a few hundred bytes; the byte-plane and word steps
 * take a fifth of it or less.
 */
static const u16 zbw_step_cost[ZBEWALGO_NR_STEP_IDS] = {
	[ZBEWALGO_STEP_BWT] = 384,
	[ZBEWALGO_STEP_MTF] = 40,
	[ZBEWALGO_STEP_LZ] = 48,
	[ZBEWALGO_STEP_ZSTD] = 32,
	[ZBEWALGO_STEP_HUFFMAN4] = 24,
	[ZBEWALGO_STEP_HUFFMAN] = 16,
	[ZBEWALGO_STEP_BEWALGO2] = 16,
	[ZBEWALGO_STEP_JBE] = 4,
	[ZBEWALGO_STEP_JBE2] = 4,
	[ZBEWALGO_STEP_RLE] = 4,
	[ZBEWALGO_STEP_BEWALGO] = 4,
	[ZBEWALGO_STEP_BITSHUFFLE4] = 4,
	[ZBEWALGO_STEP_BITSHUFFLE8] = 4,
	[ZBEWALGO_STEP_DELTA4] = 4,
	[ZBEWALGO_STEP_DELTA8] = 4,
	[ZBEWALGO_STEP_SIEVE4] = 4,
	[ZBEWALGO_STEP_DELTA2] = 4,
	[ZBEWALGO_STEP_BITSHUFFLE2] = 4,
	[ZBEWALGO_STEP_NUM2] = 16,
	[ZBEWALGO_STEP_NUM4] = 16,
	[ZBEWALGO_STEP_NUM8] = 16,
};

/**
 * zbewalgo_table_cost() - the most work a table does on one page
 * @table: the table
 *
 * The work of every step of every combination, each at its worst, in
 * units of a sixteenth of zstd's slowest page at level 3.  Tables built
 * from text cost at most ZBEWALGO_MAX_TABLE_COST, which bounds the time
 * a page takes whatever the table.
 *
 * Return: the cost.
 */
unsigned int zbewalgo_table_cost(const struct zbewalgo_table *table)
{
	unsigned int i, k, cost = 0;

	for (i = 0; i < table->nr; i++)
		for (k = 0; k < table->comb[i].nr_steps; k++)
			cost += zbw_step_cost[table->comb[i].ids[k]];
	return cost;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_table_cost);

/*
 * The table functions build the result in @tmp and copy it over @table only
 * on success, so a failed call leaves @table as it was.
 */
static int zbw_edit(struct zbewalgo_table *table, struct zbewalgo_table *tmp,
		    const char *text, bool remove)
{
	int ret = zbw_apply_text(text, tmp, remove);

	if (ret)
		return ret;
	if (!tmp->nr)
		return -EINVAL;
	if (zbewalgo_table_steps(tmp) > ZBEWALGO_MAX_TABLE_STEPS ||
	    zbewalgo_table_cost(tmp) > ZBEWALGO_MAX_TABLE_COST)
		return -ENOSPC;
	*table = *tmp;
	return 0;
}

/**
 * zbewalgo_table_parse() - replace a table by the combinations in a text
 * @table: the table
 * @text: NUL-terminated combinations, e.g. "bwt-mtf-huffman bewalgo-rle"
 *
 * Return: 0, or -EINVAL for an unknown step, more than ZBEWALGO_MAX_STEPS
 * steps, an empty text, or a combination listed twice; -EOPNOTSUPP for a
 * step the build leaves out (CONFIG_ZBEWALGO_CLASSIC_STEPS); -ENOSPC for more
 * than ZBEWALGO_MAX_COMBINATIONS combinations, ZBEWALGO_MAX_TABLE_STEPS
 * steps in all or a cost over ZBEWALGO_MAX_TABLE_COST; -ENOMEM.
 */
int zbewalgo_table_parse(struct zbewalgo_table *table, const char *text)
{
	struct zbewalgo_table *tmp = kvzalloc(sizeof(*tmp), GFP_KERNEL);
	int ret;

	if (!tmp)
		return -ENOMEM;
	ret = zbw_edit(table, tmp, text, false);
	kvfree(tmp);
	return ret == -EEXIST ? -EINVAL : ret;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_table_parse);

/**
 * zbewalgo_table_add() - append combinations to a table
 * @table: the table
 * @text: combinations in text form
 *
 * Return: 0, -EINVAL for malformed text, -EOPNOTSUPP for a step the build
 * leaves out, -EEXIST when a combination is
 * already in the table, -ENOSPC when the table would exceed
 * ZBEWALGO_MAX_COMBINATIONS combinations, ZBEWALGO_MAX_TABLE_STEPS
 * steps or ZBEWALGO_MAX_TABLE_COST, -ENOMEM.
 */
int zbewalgo_table_add(struct zbewalgo_table *table, const char *text)
{
	struct zbewalgo_table *tmp = kvmalloc(sizeof(*tmp), GFP_KERNEL);
	int ret;

	if (!tmp)
		return -ENOMEM;
	*tmp = *table;
	ret = zbw_edit(table, tmp, text, false);
	kvfree(tmp);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_table_add);

/**
 * zbewalgo_table_remove() - remove combinations from a table
 * @table: the table
 * @text: combinations in text form
 *
 * Pages compressed with a removed combination stay decodable: the page
 * format names steps, not table entries.
 *
 * Return: 0, -EINVAL for malformed text or when the table would become
 * empty, -EOPNOTSUPP for a step the build leaves out, -ENOENT when a
 * combination is not in the table, -ENOMEM.
 */
int zbewalgo_table_remove(struct zbewalgo_table *table, const char *text)
{
	struct zbewalgo_table *tmp = kvmalloc(sizeof(*tmp), GFP_KERNEL);
	int ret;

	if (!tmp)
		return -ENOMEM;
	*tmp = *table;
	ret = zbw_edit(table, tmp, text, true);
	kvfree(tmp);
	return ret;
}

/* Matches @word followed by a separator or the end; returns the rest. */
static const char *zbw_skip_word(const char *s, const char *word)
{
	size_t n = strlen(word);

	if (strncmp(s, word, n) || (s[n] && !zbw_is_sep(s[n])))
		return NULL;
	return s + n;
}

/**
 * zbewalgo_table_command() - apply a sysfs-style command to a table
 * @table: the table
 * @cmd: "set TABLE", "add TABLE", "remove TABLE" or "reset", optionally
 *	surrounded by white space (a trailing newline from echo is fine)
 *
 * Return: 0, or the error of the command; -EINVAL for an unknown command.
 * On error @table is unchanged.
 */
int zbewalgo_table_command(struct zbewalgo_table *table, const char *cmd)
{
	const char *arg;

	while (*cmd && zbw_is_sep(*cmd))
		cmd++;
	arg = zbw_skip_word(cmd, "reset");
	if (arg) {
		while (*arg && zbw_is_sep(*arg))
			arg++;
		if (*arg)
			return -EINVAL;
		zbewalgo_table_reset(table);
		return 0;
	}
	arg = zbw_skip_word(cmd, "set");
	if (arg)
		return zbewalgo_table_parse(table, arg);
	arg = zbw_skip_word(cmd, "add");
	if (arg)
		return zbewalgo_table_add(table, arg);
	arg = zbw_skip_word(cmd, "remove");
	if (arg)
		return zbewalgo_table_remove(table, arg);
	return -EINVAL;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_table_command);

/* Appends @s to @buf like strlcat, but always counts the full length. */
static size_t zbw_cat(char *buf, size_t size, size_t pos, const char *s)
{
	size_t n = strlen(s);

	if (pos < size) {
		size_t room = size - pos - 1;

		memcpy(buf + pos, s, min(n, room));
		buf[pos + min(n, room)] = '\0';
	}
	return pos + n;
}

/**
 * zbewalgo_combination_format() - text form of one combination
 * @comb: the combination
 * @buf: output, NUL-terminated when @size > 0
 * @size: capacity of @buf
 *
 * Return: the length of the full text (like snprintf), even if truncated.
 */
int zbewalgo_combination_format(const struct zbewalgo_combination *comb,
				char *buf, size_t size)
{
	size_t pos = 0;
	unsigned int k;

	if (size)
		buf[0] = '\0';
	for (k = 0; k < comb->nr_steps; k++) {
		const char *name = zbewalgo_step_name(comb->ids[k]);

		if (k)
			pos = zbw_cat(buf, size, pos, "-");
		pos = zbw_cat(buf, size, pos, name ? name : "?");
	}
	return pos;
}

/* Only whole lines go into @buf; the length counts all of them. */
static int zbw_table_format(const struct zbewalgo_table *table,
			    const u64 *counts, char *buf, size_t size)
{
	/*
	 * a count of up to 20 digits and a space; 7 names of at most 11
	 * characters, 6 dashes; newline, NUL
	 */
	char line[21 + ZBEWALGO_MAX_STEPS * 12 + 2];
	size_t pos = 0;
	unsigned int i;

	if (size)
		buf[0] = '\0';
	for (i = 0; i < table->nr; i++) {
		size_t n = 0, full;

		if (counts)
			n = snprintf(line, 22, "%llu ",
				     (unsigned long long)counts[i]);
		full = zbewalgo_combination_format(&table->comb[i], line + n,
						   sizeof(line) - 1 - n);
		n += min(full, sizeof(line) - 2 - n);
		line[n] = '\n';
		line[n + 1] = '\0';
		if (pos + n + 1 < size)
			zbw_cat(buf, size, pos, line);
		pos += n + 1;
	}
	return pos;
}

/**
 * zbewalgo_table_format() - text form of a table, one combination per line
 * @table: the table
 * @buf: output, NUL-terminated when @size > 0; only whole lines are written
 * @size: capacity of @buf
 *
 * Return: the length of the full text (like snprintf), even if truncated.
 */
int zbewalgo_table_format(const struct zbewalgo_table *table, char *buf,
			  size_t size)
{
	return zbw_table_format(table, NULL, buf, size);
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_table_format);

/**
 * zbewalgo_table_format_counts() - a table with a count before each line
 * @table: the table
 * @counts: one count per combination of @table
 * @buf: output, NUL-terminated when @size > 0; only whole lines are written
 * @size: capacity of @buf
 *
 * Lines are "COUNT COMBINATION\n", e.g. the wins of each combination.
 *
 * Return: the length of the full text (like snprintf), even if truncated.
 */
int zbewalgo_table_format_counts(const struct zbewalgo_table *table,
				 const u64 *counts, char *buf, size_t size)
{
	return zbw_table_format(table, counts, buf, size);
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_table_format_counts);
