// SPDX-License-Identifier: GPL-2.0-only
/*
 * gen-seeds: seed corpora for every harness from real compressed pages.
 *
 * usage: gen-seeds OUTDIR DATA_DIR...
 *
 * Pages: the first, a middle and the last (partial) page of every file
 * below the DATA_DIRs (`make seeds`: the test data from Debian packages,
 * plus the Calgary/Canterbury corpora when ZBW_EXTRA_CORPUS is set), and
 * the generated zero, repeated, text, float32, float64, integer and
 * random pages of several lengths that the unit tests check
 * (tools/testing/zbewalgo/test_pages.h).  Each page is compressed with
 * every step alone, every combination of the default and preset tables,
 * and every preset table; the results seed `decompress`, each
 * intermediate stage seeds the `step-<name>` harness of the step that
 * produced it, and the raw pages (behind table/params bytes) seed
 * `roundtrip` and `dst-too-small`.  `table` gets command strings; `dict`
 * the generated pages, pages of pieces of the test dictionary, and what
 * each level makes of both with that dictionary.
 * cmin.sh minimises.
 *
 * usage: gen-seeds --dict
 *
 * The dictionary entries that come from the library itself, for the
 * fuzzers (fuzz/Makefile appends them to zbewalgo.dict): every step's
 * id and name, and every chain of the preset tables as a page header
 * and as table text.  A new step or preset reaches the fuzzers without
 * an edit here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/slab.h>

#include "../lib/zbewalgo/core/zbewalgo_internal.h"
/* the pages of the dictionary's pieces the unit tests and KUnit use */
#define ZBW_CASE_CHECK(env, cond, ...) do { if (!(cond)) abort(); } while (0)
#include "../lib/zbewalgo/tests/zbewalgo_cases.h"
#include "../lib/zbewalgo/tests/zbewalgo_test_dict.h"
#include "../tools/testing/zbewalgo/test_pages.h"

#define PAGE	4096

static const char *outdir;
static unsigned long nr_out;
static unsigned long long rng = 0x2545f4914f6cdd1dull;

static unsigned int rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng >> 11;
}

static void put(const char *harness, const void *a, size_t alen,
		const void *b, size_t blen)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", outdir, harness);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/%s/seed%06lu", outdir, harness,
		 nr_out++);
	f = fopen(path, "wb");
	if (!f || fwrite(a, 1, alen, f) != alen ||
	    (blen && fwrite(b, 1, blen, f) != blen) || fclose(f)) {
		perror(path);
		exit(1);
	}
}

/* Compress @page with @t (never stored) and write every stage's seed. */
static void chain_seeds(const struct zbewalgo_combination *comb,
			const unsigned char *page, size_t len)
{
	unsigned int cap = zbewalgo_stage_cap(PAGE);
	void *scratch = malloc(zbewalgo_steps_scratch_size(cap)), *state;
	unsigned char *buf[2] = { malloc(cap), malloc(cap) };
	const unsigned char *in = page;
	unsigned int inlen = len, k;

	for (k = 0; k < comb->nr_steps; k++) {
		const struct zbewalgo_step *step = zbewalgo_step_get(comb->ids[k]);
		unsigned char hdr[2] = { inlen & 0xff, inlen >> 8 };
		char name[64];
		int n;

		state = zbewalgo_step_state_create(step, cap);
		n = step->encode(in, inlen, buf[k & 1], cap, state ?: scratch);
		free(state);
		if (n < 0)
			break;
		snprintf(name, sizeof(name), "step-%s",
			 zbewalgo_step_name(comb->ids[k]));
		put(name, hdr, 2, buf[k & 1], n);
		in = buf[k & 1];
		inlen = n;
	}
	free(buf[0]);
	free(buf[1]);
	free(scratch);
}

static void compress_seed(const struct zbewalgo_table *t, int never_store,
			  const unsigned char *page, size_t len)
{
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create(PAGE);
	struct zbewalgo_params p;
	unsigned char dst[ZBEWALGO_STORED_SIZE(PAGE)];
	size_t dlen = sizeof(dst);

	zbewalgo_default_params(&p, PAGE);
	if (never_store)
		p.max_output_size = PAGE + 8;
	zbewalgo_ctx_set_table(ctx, t);
	zbewalgo_ctx_set_params(ctx, &p);
	if (!zbewalgo_compress(ctx, page, len, dst, &dlen))
		put("decompress", dst, dlen, NULL, 0);
	zbewalgo_ctx_destroy(ctx);
}

static void page_seeds(const unsigned char *page, size_t len, int small)
{
	const struct zbewalgo_table *tabs[3];
	struct zbewalgo_table one = { .nr = 1 };
	unsigned char hdr[2];
	unsigned int id, l, i;

	for (l = 0; l < 3; l++)
		tabs[l] = zbewalgo_preset_table(l + 1);
	/* Every step alone. */
	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		one.comb[0].nr_steps = 1;
		one.comb[0].ids[0] = id;
		compress_seed(&one, 1, page, len);
		chain_seeds(&one.comb[0], page, len);
	}
	/* Every combination of every preset (the default is level 2). */
	for (l = 0; l < 3; l++) {
		for (i = 0; i < tabs[l]->nr; i++) {
			one.comb[0] = tabs[l]->comb[i];
			compress_seed(&one, 1, page, len);
			chain_seeds(&one.comb[0], page, len);
		}
		compress_seed(tabs[l], 0, page, len);
	}
	/* Raw pages: default table, each preset. */
	hdr[1] = 0;
	hdr[0] = 0;
	put("roundtrip", hdr, 2, page, len);
	hdr[0] = 1 | (rnd() % 3) << 2;
	put("roundtrip", hdr, 2, page, len);
	if (small) {
		hdr[0] = 0;
		put("dst-too-small", hdr, 2, page, len < 512 ? len : 512);
	}
}

static unsigned long nr_files;

static void file_seeds(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char page[PAGE];
	long size, offs[3];
	unsigned int i;
	size_t n;

	if (!f)
		return;
	nr_files++;
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	offs[0] = 0;
	offs[1] = size / 2 / PAGE * PAGE;
	offs[2] = size / PAGE * PAGE;
	for (i = 0; i < 3; i++) {
		if (i && offs[i] == offs[i - 1])
			continue;
		fseek(f, offs[i], SEEK_SET);
		n = fread(page, 1, PAGE, f);
		if (n)
			page_seeds(page, n, i == 2 || n < 512);
	}
	fclose(f);
}

/*
 * Every generated page but the smooth float32 one seeds dst-too-small
 * too, as when corpus/dst-too-small was first seeded.
 */
static void generated_seeds(const void *page, size_t len, const char *name)
{
	page_seeds(page, len, strcmp(name, "float32/smooth") != 0);
}

/* Stores @x at word @i of @p, @w bytes, little- or big-endian */
static void num_put(unsigned char *p, unsigned int i, unsigned int w,
		    unsigned long long x, int big)
{
	unsigned int b;

	for (b = 0; b < w; b++)
		p[i * w + (big ? w - 1 - b : b)] = x >> (8 * b);
}

/* IEEE half of a float in the normal range of halves */
static unsigned int num_half(float v)
{
	union { float f; unsigned int u; } f = { .f = v };
	unsigned int e = f.u >> 23 & 0xff;

	return (f.u >> 16 & 0x8000) | (e - 112) << 10 | (f.u >> 13 & 0x3ff);
}

/*
 * Number @i of kind 15 (a smooth field) or 16 (records of three fields) of
 * num_seeds(): a float of @w bytes rounded to 20, 12 or 4 low zero bits,
 * but when i % 61 is 5 (i % 32 for halves: 64 of a page's 2048)
 */
static unsigned long long num_rounded(unsigned int kind, unsigned int i,
				      unsigned int w)
{
	union { double d; unsigned long long u; } f64;
	union { float f; unsigned int u; } f32;
	unsigned long long x;

	f32.f = kind == 15 ? 273.15f + sinf(i * 0.01f) * 20.0f :
		i % 3 == 0 ? 20.0f + sinf(i / 3 * 0.05f) * 5.0f :
		i % 3 == 1 ? 1013.0f + cosf(i / 3 * 0.03f) * 8.0f :
		40.0f + i / 3 * 0.01f;
	f64.d = f32.f;
	x = w == 8 ? f64.u & ~0xfffffull : w == 4 ? f32.u & ~0xfffu :
	    num_half(f32.f) & ~0xfu;
	if (i % (w == 2 ? 32 : 61) == 5)
		x |= 1 + i % (w == 2 ? 15 : 255);
	return x;
}

/*
 * Pages of numbers for the num2, num4 and num8 steps (ids 19-21), so that
 * their seeds reach every mode of the decoder: unsigned, signed and float
 * views at orders 0, 1 and 2, a common factor, float values whose low
 * mantissa bits are zero (the shift), a page of one value (one bin), big-
 * endian numbers, few distinct numbers far apart and the float samples of
 * an analog-to-digital converter (the palette), records of three fields
 * (differences at a lag), rounded floats but for a few odd numbers, alone
 * and in records of three fields (the shift's exceptions, up to the 64
 * the format allows), and lengths that leave a tail or hold a few
 * numbers.
 */
static void num_seeds(void)
{
	static const unsigned int widths[] = { 2, 4, 8 };
	static const size_t lens[] = { PAGE, PAGE - 1, 1001, 100, 19, 16, 5 };
	static unsigned char page[PAGE];
	unsigned int wi, kind, i, w, m, big, l;
	unsigned long long x, mask;
	union { float f; unsigned int u; } f32;
	union { double d; unsigned long long u; } f64;
	double walk = 0.5;

	for (wi = 0; wi < 3; wi++) {
		w = widths[wi];
		m = PAGE / w;
		mask = w == 8 ? ~0ull : (1ull << (8 * w)) - 1;
		for (kind = 0; kind < 18; kind++) {
			for (big = 0; big < 2; big++) {
				for (i = 0; i < m; i++) {
					switch (kind) {
					case 0:	/* small unsigned: order 0 */
						x = 1000 + rnd() % 37;
						break;
					case 1:	/* ramp: order 1 */
						x = 12345 + 3ull * i +
						    rnd() % 3;
						break;
					case 2:	/* quadratic: order 2 */
						x = 7 + (unsigned long long)i *
						    i / 4 + rnd() % 2;
						break;
					case 3:	/* signed around zero */
						x = (unsigned long long)
						    ((long long)(rnd() % 41) -
						     20);
						break;
					case 4:	/* base + multiples of g */
						x = 100003 + 2520ull *
						    (rnd() % 300);
						break;
					case 5:	/* one value: one bin */
						x = 0x4242424242424242ull;
						break;
					case 6:	/* floats: smooth field */
						if (w == 8) {
							f64.d = 273.15 +
								sin(i * 0.01) *
								20.0;
							x = f64.u;
						} else {
							f32.f = 273.15f +
								sinf(i * 0.01f) *
								20.0f;
							x = w == 4 ? f32.u :
							    num_half(f32.f);
						}
						break;
					case 7:	/* floats of few mantissa bits */
						if (w == 8) {
							f64.d = (rnd() % 200) /
								8.0 - 12.5;
							x = f64.u;
						} else {
							f32.f = (rnd() % 200) /
								8.0f - 12.5f;
							x = w == 4 ? f32.u :
							    num_half(f32.f);
						}
						break;
					case 8:	/* floats: decimal readings */
						if (w == 8) {
							f64.d = 1013.0 +
								(rnd() % 1000) /
								100.0;
							x = f64.u;
						} else {
							f32.f = 1013.0f +
								(rnd() % 1000) /
								100.0f;
							x = w == 4 ? f32.u :
							    num_half(f32.f);
						}
						break;
					case 9:	/* signed ramp down */
						x = -(long long)(5ull * i) +
						    rnd() % 4;
						break;
					case 10: /* counter in the high bits */
						x = (unsigned long long)i <<
						    (8 * w - 12);
						break;
					case 11: /* floats: random walk */
						walk += ((int)(rnd() % 2001) -
							 1000) * 2e-4;
						if (w == 8) {
							f64.d = walk;
							x = f64.u;
						} else {
							f32.f = walk;
							x = w == 4 ? f32.u :
							    num_half(f32.f);
						}
						break;
					case 12: /* 40 numbers far apart */
						x = rnd() % 40;
						x = 0x3c000000 + x * x * 977 +
						    x * 0x1234;
						break;
					case 13: /* a 12-bit ADC's floats */
						f32.f = (rnd() % 281 + 0.5f) *
							10.0f / 4095 - 0.3f;
						if (w == 8) {
							f64.d = f32.f;
							x = f64.u;
						} else {
							x = w == 4 ? f32.u :
							    num_half(f32.f);
						}
						break;
					case 14: /* records: a lag of 3 */
						x = i % 3 == 0 ? 0x5600 + 0x28 *
						    (i / 3) : i % 3 == 1 ?
						    0x91 + i / 3 : 0;
						break;
					case 15: /* rounded, a few odd */
					case 16: /* records of them */
						x = num_rounded(kind, i, w);
						break;
					default: /* random: no view pays */
						x = (unsigned long long)rnd()
						    << 32 ^ rnd();
						break;
					}
					num_put(page, i, w, x & mask, big);
				}
				for (l = 0; l < sizeof(lens) / sizeof(lens[0]);
				     l++)
					page_seeds(page, lens[l], l > 0);
			}
		}
	}
}

/*
 * num4 payloads with a shift's exceptions at a lag, which the encoder
 * never writes (its candidates at a lag are integers): the unit tests'
 * "floats at a lag, 8 low bits zero" (zbewalgo_cases_num.h) with one
 * exception, number 1's low bits 0x5a, and with two, the first and the
 * last number
 */
static const struct zbw_case_pay num_lag_exc_pay[] = {
	{ "floats at a lag, an exception", 19,
	  { 0x76, 0x41, 16, 0x88, 0, 1, 0x5a, 0x56, 0x34, 0x12, 0, 0x21, 0x43,
	    0x65, 0, 0, 0, 0, 0 }, 0 },
	{ "floats at a lag, the first and the last", 21,
	  { 0x76, 0x41, 16, 0x88, 1, 0, 1, 2, 0xff, 0x56, 0x34, 0x12, 0, 0x21,
	    0x43, 0x65, 0, 0, 0, 0, 0 }, 0 },
};

/* @n num4 payloads @pay that decode, as step-num4 and decompress seeds */
static void num_pay_seeds(const struct zbw_case_pay *pay, unsigned int n)
{
	unsigned char hdr[3];
	unsigned int k;

	for (k = 0; k < n; k++) {
		if (pay[k].ret)
			continue;
		hdr[0] = pay[k].n ?: 16;
		hdr[1] = 0;
		put("step-num4", hdr, 2, pay[k].b, pay[k].len);
		hdr[2] = hdr[0];
		hdr[0] = zbw_page_byte0(1);
		hdr[1] = ZBEWALGO_STEP_NUM4;
		put("decompress", hdr, 3, pay[k].b, pay[k].len);
	}
}

/*
 * A shift's exceptions: the unit tests' pages of rounded doubles and
 * floats with a few odd numbers (zbw_case_exc_number(), the pages of the
 * golden num8.rounded-doubles and, but for the odd bits, of
 * num4.rounded-floats), their hand-made num4 payloads that decode, and
 * those at a lag, with exceptions too.
 */
static void num_exc_seeds(void)
{
	static unsigned char page[PAGE];
	unsigned int k, i, w;
	u32 rng = 13;

	for (k = 0; k < ARRAY_SIZE(zbw_case_exc_step); k++) {
		w = zbw_case_exc_step[k] == ZBEWALGO_STEP_NUM4 ? 4 : 8;
		for (i = 0; i < PAGE / w; i++)
			num_put(page, i, w, zbw_case_exc_number(k, i, &rng),
				0);
		page_seeds(page, PAGE, 0);
	}
	num_pay_seeds(zbw_case_exc_pay, ARRAY_SIZE(zbw_case_exc_pay));
	num_pay_seeds(zbw_case_lag_pay, ARRAY_SIZE(zbw_case_lag_pay));
	num_pay_seeds(num_lag_exc_pay, ARRAY_SIZE(num_lag_exc_pay));
}

static void table_seeds(void)
{
	static const char *const cmds[] = {
		"set bwt-mtf-bewalgo-huffman bitshuffle4-rle-bitshuffle4-rle",
		"add bitshuffle8-rle-huffman,jbe-huffman;jbe2\n",
		"remove bitshuffle4-rle-huffman",
		"reset\n",
		"bwt-mtf-huffman-jbe-rle-bewalgo-bitshuffle8",
		"set bewalgo2-bitshuffle4-jbe-rle\tmtf",
		" add bwt bwt",
		"remove nosuch-",
	};
	char buf[8192];
	unsigned int mode, i;
	size_t n;

	for (mode = 0; mode < 16; mode++) {
		buf[0] = mode;
		n = 1;
		for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
			const char *c = cmds[(i + mode) % 8];

			if (mode >= 4 && !strncmp(c, "set ", 4))
				c += 4;
			memcpy(buf + n, c, strlen(c) + 1);
			n += strlen(c) + 1;
			if (mode < 8 && i == 2)
				break;
		}
		put("table", buf, n - 1, NULL, 0);
	}
	n = zbewalgo_table_format(zbewalgo_preset_table(3), buf + 1,
				  sizeof(buf) - 1);
	buf[0] = 4;
	put("table", buf, n + 1, NULL, 0);
}

/* Prints @len bytes at @p as a dictionary value: "\x01\x0b" */
static void dict_bytes(const char *key, const u8 *p, size_t len)
{
	size_t i;

	printf("%s=\"", key);
	for (i = 0; i < len; i++)
		printf("\\x%02x", p[i]);
	printf("\"\n");
}

/* Whether a preset below @level, or the first of @level, holds @c */
static bool dict_seen(int level, const struct zbewalgo_combination *c)
{
	const struct zbewalgo_table *t;
	unsigned int i;
	int l;

	for (l = 1; l <= level; l++) {
		t = zbewalgo_preset_table(l);
		for (i = 0; i < t->nr && &t->comb[i] != c; i++)
			if (zbw_comb_equal(&t->comb[i], c))
				return true;
	}
	return false;
}

static void dict_entries(void)
{
	const struct zbewalgo_table *t;
	char key[64], text[256];
	u8 hdr[1 + ZBEWALGO_MAX_STEPS];
	unsigned int id, i;
	int level;

	printf("# From the library (gen-seeds --dict): step ids and names.\n");
	for (id = 1; id < ZBEWALGO_NR_STEP_IDS; id++) {
		u8 b = id;

		snprintf(key, sizeof(key), "id_%s", zbewalgo_step_name(id));
		dict_bytes(key, &b, 1);
		printf("name_%s=\"%s\"\n", zbewalgo_step_name(id),
		       zbewalgo_step_name(id));
	}
	printf("# The preset tables' chains: page header (byte 0, ids), text.\n");
	for (level = 1; level <= ZBEWALGO_MAX_LEVEL; level++) {
		t = zbewalgo_preset_table(level);
		for (i = 0; i < t->nr; i++) {
			const struct zbewalgo_combination *c = &t->comb[i];

			if (dict_seen(level, c))
				continue;
			hdr[0] = zbw_page_byte0(c->nr_steps);
			memcpy(hdr + 1, c->ids, c->nr_steps);
			snprintf(key, sizeof(key), "chain_l%d_%u", level, i);
			dict_bytes(key, hdr, 1 + c->nr_steps);
			if (zbewalgo_combination_format(c, text,
							sizeof(text)) > 0)
				printf("text_l%d_%u=\"%s\"\n", level, i,
				       text);
		}
	}
}

/* @page and what each level makes of it with the test dictionary */
static void dict_page_seeds(const void *page, size_t len)
{
	static struct zbewalgo_ctx *ctx[ZBEWALGO_MAX_LEVEL];
	static struct zbewalgo_dict *dict[ZBEWALGO_MAX_LEVEL];
	unsigned char out[ZBEWALGO_STORED_SIZE(PAGE)];
	size_t olen;
	int l;

	if (len > PAGE)
		return;
	put("dict", page, len, NULL, 0);
	for (l = 0; l < ZBEWALGO_MAX_LEVEL; l++) {
		if (!ctx[l]) {
			ctx[l] = zbewalgo_ctx_create_for(PAGE, NULL, 0, true);
			if (!ctx[l] || zbewalgo_dict_create(zbw_test_dict,
					sizeof(zbw_test_dict), l + 1, PAGE,
					&dict[l]))
				abort();
			zbewalgo_ctx_set_table(ctx[l],
					       zbewalgo_preset_table(l + 1));
			zbewalgo_ctx_set_level(ctx[l], l + 1);
			zbewalgo_ctx_set_dict(ctx[l], dict[l]);
		}
		olen = sizeof(out);
		if (!zbewalgo_compress(ctx[l], page, len, out, &olen))
			put("dict", out, olen, NULL, 0);
	}
}

static void generated_dict_seeds(const void *page, size_t len,
				 const char *name)
{
	dict_page_seeds(page, len);
}

/* Pages of pieces of the dictionary's content, as the tests make them */
static void dict_seeds(void)
{
	unsigned char page[PAGE];
	u32 state = 7;
	int i;

	test_pages_generate(rnd, generated_dict_seeds);
	for (i = 0; i < 8; i++) {
		zbw_case_dict_page(page, PAGE, zbw_test_dict,
				   sizeof(zbw_test_dict), &state);
		dict_page_seeds(page, PAGE);
	}
}

int main(int argc, char **argv)
{
	unsigned long before;
	int i;

	if (argc == 2 && !strcmp(argv[1], "--dict")) {
		dict_entries();
		return 0;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: %s OUTDIR DATA_DIR... | --dict\n",
			argv[0]);
		return 2;
	}
	outdir = argv[1];
	mkdir(outdir, 0755);
	for (i = 2; i < argc; i++) {
		before = nr_files;
		test_walk_dir(argv[i], file_seeds);
		if (nr_files == before) {
			fprintf(stderr, "%s: no files under %s\n", argv[0], argv[i]);
			return 1;
		}
	}
	test_pages_generate(rnd, generated_seeds);
	num_seeds();
	num_exc_seeds();
	table_seeds();
	dict_seeds();
	printf("%lu seeds in %s\n", nr_out, outdir);
	return 0;
}
