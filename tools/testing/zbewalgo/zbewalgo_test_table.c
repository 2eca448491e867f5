// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the combination table (zbewalgo_test.c runs them): its
 * text, its commands, its step and cost budget, and pages that outlive
 * their chain.
 */

#include "zbewalgo_test.h"

/*
 * Counts before the lines (sysfs wins): whole lines only, like the table
 * itself.  @buf holds at least 4096 bytes.
 */
static void test_table_format_counts(struct zbewalgo_table *t, char *buf)
{
	static const char full[] = "18446744073709551615 bwt-mtf-huffman\n"
				   "0 rle\n42 bewalgo\n";
	const u64 counts[] = { 18446744073709551615ull, 0, 42 };
	size_t n = strlen(full), first = strchr(full, '\n') + 1 - full, size;

	CHECK(!zbewalgo_table_parse(t, "bwt-mtf-huffman rle bewalgo"),
	      "valid table rejected");
	CHECK(zbewalgo_table_format_counts(t, counts, buf, 4096) == (int)n &&
	      !strcmp(buf, full), "counts format gave '%s'", buf);
	for (size = 0; size <= n + 1; size++) {
		size_t want = size > n ? n : size > first + 6 ? first + 6 :
			      size > first ? first : 0;

		memset(buf, 'x', size + 1);
		CHECK(zbewalgo_table_format_counts(t, counts, buf, size) ==
		      (int)n && (!size || (strlen(buf) == want &&
					   !memcmp(buf, full, want))) &&
		      buf[size] == 'x',
		      "counts format into %zu bytes gave '%.*s'", size,
		      (int)size, buf);
	}
}

void test_tables(void)
{
	struct zbewalgo_table *t = calloc(1, sizeof(*t));
	struct zbewalgo_table *old = calloc(1, sizeof(*old));
	static const char *const bad[] = {
		"", "\x20\x20\x20\n", "bwt-", "-bwt", "bwt--mtf", "nosuchstep",
		"bwt-mtf-huffman-jbe-rle-bewalgo-bewalgo2-jbe2",
		"bwt-mtf bwt-mtf", "BWT", "bwt-mtf\xff",
	};
	char buf[4096], *huge;
	size_t i, n;
	int err;

	begin("combination table parsing and commands");
	zbewalgo_table_reset(t);
	CHECK(t->nr == zbewalgo_table_default()->nr, "reset");
	CHECK(!zbewalgo_table_parse(t, "bwt-mtf-huffman,rle;bewalgo\n"),
	      "valid table rejected");
	n = zbewalgo_table_format(t, buf, sizeof(buf));
	CHECK(n == strlen(buf) && !strcmp(buf, "bwt-mtf-huffman\nrle\nbewalgo\n"),
	      "format gave '%s'", buf);
	CHECK(zbewalgo_table_format(t, buf, 5) == (int)n && !strcmp(buf, ""),
	      "truncated format must write whole lines only");
	CHECK(zbewalgo_table_format(t, buf, 17) == (int)n &&
	      !strcmp(buf, "bwt-mtf-huffman\n"), "partial format '%s'", buf);
	CHECK(!zbewalgo_table_parse(t, "bwt-mtf-huffman-jbe-rle-bewalgo-bitshuffle8"),
	      "7 steps rejected");
	test_table_format_counts(t, buf);

	zbewalgo_table_parse(t, "bwt-mtf-huffman rle");
	*old = *t;
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err = zbewalgo_table_parse(t, bad[i]);
		CHECK(err == -EINVAL, "parse '%s' gave %d", bad[i], err);
		err = zbewalgo_table_command(t, bad[i]);
		CHECK(err == -EINVAL, "command '%s' gave %d", bad[i], err);
		CHECK(!memcmp(t, old, sizeof(*t)), "'%s' changed the table",
		      bad[i]);
	}
	huge = malloc(1 << 20);
	for (i = 0; i + 4 < 1 << 20; i += 4)
		memcpy(huge + i, "bwt-", 4);
	huge[i] = '\0';
	CHECK(zbewalgo_table_command(t, huge) == -EINVAL, "huge string");
	memcpy(huge, "set ", 4);
	CHECK(zbewalgo_table_command(t, huge) == -EINVAL, "huge set");
	for (i = 0, n = 0; i < 300; i++)
		n += sprintf(huge + n, "%s-%s-%s ", zbewalgo_step_name(1 + i % 10),
			     zbewalgo_step_name(1 + i / 10 % 10),
			     zbewalgo_step_name(1 + i / 100 % 10));
	CHECK(zbewalgo_table_parse(t, huge) == -ENOSPC, "300 combinations");
	CHECK(!memcmp(t, old, sizeof(*t)), "overflow changed the table");
	free(huge);

	CHECK(!zbewalgo_table_command(t, "add bewalgo-huffman\n"), "add");
	CHECK(t->nr == 3, "add count %u", t->nr);
	*old = *t;
	CHECK(zbewalgo_table_command(t, "add rle") == -EEXIST, "add twice");
	CHECK(zbewalgo_table_command(t, "add mtf-rle nosuch") == -EINVAL &&
	      !memcmp(t, old, sizeof(*t)), "partial add must not apply");
	CHECK(zbewalgo_table_command(t, "remove huffman") == -ENOENT,
	      "remove missing");
	CHECK(!zbewalgo_table_command(t, "remove rle") && t->nr == 2,
	      "remove");
	CHECK(!zbewalgo_table_command(t, "set bewalgo") && t->nr == 1,
	      "set");
	CHECK(zbewalgo_table_command(t, "remove bewalgo") == -EINVAL &&
	      t->nr == 1, "a table may not become empty");
	CHECK(zbewalgo_table_command(t, "reset now") == -EINVAL, "reset arg");
	CHECK(zbewalgo_table_command(t, "frobnicate bwt") == -EINVAL,
	      "unknown command");
	CHECK(zbewalgo_table_command(t, "setbwt") == -EINVAL, "no space");
	CHECK(!zbewalgo_table_command(t, " reset\n") &&
	      !memcmp(t, zbewalgo_table_default(), sizeof(*t)), "reset");
	end();
	free(old);
	free(t);
}

/*
 * The work per page is bounded: a table holds at most
 * ZBEWALGO_MAX_TABLE_STEPS steps over all its combinations, and every
 * way of building one from text refuses more with -ENOSPC, leaving the
 * table as it was.  The default table and the presets fit.
 */
void test_table_budget(void)
{
	struct zbewalgo_table *t = calloc(1, sizeof(*t));
	struct zbewalgo_table *old = calloc(1, sizeof(*old));
	char *text = malloc(ZBEWALGO_MAX_TABLE_STEPS * 16), *p = text;
	unsigned int i, k, level;
	int err;

	begin("table step budget");
	CHECK(zbewalgo_table_steps(zbewalgo_table_default()) <=
	      ZBEWALGO_MAX_TABLE_STEPS, "default table over the budget");
	for (level = 1; zbewalgo_preset_table(level); level++)
		CHECK(zbewalgo_table_steps(zbewalgo_preset_table(level)) <=
		      ZBEWALGO_MAX_TABLE_STEPS, "level %u over the budget",
		      level);
	for (level = 1; zbewalgo_preset_table(level); level++)
		CHECK(zbewalgo_table_cost(zbewalgo_preset_table(level)) <=
		      ZBEWALGO_MAX_TABLE_COST, "level %u over the cost",
		      level);
	/* Three BWTs cost more than a page may. */
	CHECK(zbewalgo_table_parse(t, "bwt-mtf bwt-rle bwt-huffman") ==
	      -ENOSPC, "a table over the cost accepted");
	CHECK(!zbewalgo_table_parse(t, "bwt-mtf bwt-rle"), "two BWTs refused");
	/* rle-...-rle-<name of i>: 7 steps each, all different */
	for (i = 0; i < ZBEWALGO_MAX_TABLE_STEPS / 7; i++) {
		for (k = 0; k < 6; k++)
			p += sprintf(p, "rle-");
		p += sprintf(p, "%s ", zbewalgo_step_name(1 + i));
	}
	for (k = 0; k < ZBEWALGO_MAX_TABLE_STEPS % 7; k++)
		p += sprintf(p, "%s%s", k ? "-" : "", "jbe");
	err = zbewalgo_table_parse(t, text);
	CHECK(!err && zbewalgo_table_steps(t) == ZBEWALGO_MAX_TABLE_STEPS,
	      "a table of exactly the budget: %d, %u steps", err,
	      zbewalgo_table_steps(t));
	*old = *t;
	err = zbewalgo_table_command(t, "add delta4");
	CHECK(err == -ENOSPC && !memcmp(t, old, sizeof(*t)),
	      "add over the budget gave %d", err);
	err = zbewalgo_table_add(t, "lz");
	CHECK(err == -ENOSPC && !memcmp(t, old, sizeof(*t)),
	      "table_add over the budget gave %d", err);
	memcpy(p, " lz", sizeof(" lz"));
	err = zbewalgo_table_parse(t, text);
	CHECK(err == -ENOSPC && !memcmp(t, old, sizeof(*t)),
	      "parse over the budget gave %d", err);
	memmove(text + 4, text, strlen(text) + 1);
	memcpy(text, "set ", 4);
	err = zbewalgo_table_command(t, text);
	CHECK(err == -ENOSPC && !memcmp(t, old, sizeof(*t)),
	      "set over the budget gave %d", err);
	/* Room again after a remove. */
	CHECK(!zbewalgo_table_command(t, "remove rle-rle-rle-rle-rle-rle-bwt") &&
	      !zbewalgo_table_command(t, "add lz rle"),
	      "add after remove");
	end();
	free(text);
	free(old);
	free(t);
}

/* A page stays readable after its combination left the table. */
void test_removed_combination(void)
{
	struct zbewalgo_table *t = table_of("bewalgo-rle");
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(PAGE));
	unsigned char page[PAGE], c[PAGE + 8], o[PAGE];
	size_t clen = sizeof(c), olen = PAGE;
	unsigned int i;

	begin("pages outlive their combination");
	for (i = 0; i < PAGE; i++)
		page[i] = i / 512;
	zbewalgo_ctx_set_table(ctx, t);
	CHECK(!zbewalgo_compress(ctx, page, PAGE, c, &clen) &&
	      !zbewalgo_ctx_last_result(ctx)->stored, "compress");
	CHECK(!zbewalgo_table_command(t, "set bwt-mtf-huffman"), "set");
	zbewalgo_ctx_destroy(ctx);
	ctx = zbewalgo_ctx_create(PAGE);
	zbewalgo_ctx_set_table(ctx, t);
	CHECK(!zbewalgo_decompress(c, clen, o, &olen, scratch) &&
	      olen == PAGE && !memcmp(o, page, PAGE), "decompress");
	/* The context serves decompression too. */
	olen = PAGE;
	CHECK(!zbewalgo_ctx_decompress(ctx, c, clen, o, &olen) &&
	      !memcmp(o, page, PAGE), "decompress with the context");
	end();
	free(scratch);
	free(t);
	zbewalgo_ctx_destroy(ctx);
}
