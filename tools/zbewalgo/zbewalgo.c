// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo - command-line front end to lib/zbewalgo
 *
 * Compresses files page by page, exactly as zram would, into a small
 * container (see zbewalgo(1) usage below and Documentation/staging/
 * zbewalgo.rst, "File container"), and single pages for scripting.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/zbewalgo.h>

#include "zbewalgo_tool.h"
#include "../../lib/zbewalgo/core/zbewalgo_internal.h"

/*
 * The file container (Documentation/staging/zbewalgo.rst, "File
 * container").  Version 2 adds checksums (crc32c): of its header, of
 * each page record, and of the original content; version 1 files, which
 * have none, still decode.
 */
#define ZBWF_MAGIC	"ZBWF"
#define ZBWF_VERSION	2
#define ZBWF_V1_HDR	20	/* magic, version, page size, length */
#define ZBWF_HDR_SIZE	28	/* and the dictionary id, the crc */
#define ZBWF_PAGE_HDR	8	/* a page's length and crc (v1: length) */
#define ZBWF_TRAILER	4	/* the crc32c of the original content */

struct options {
	struct zbewalgo_table *table;
	struct zbewalgo_params params;
	bool params_set[2];
	size_t page_size;
	int level;		/* -l, or 0 */
	bool stats;
	bool force;		/* -f: an existing OUT may be replaced */
	const char *dict_path;	/* -D, or NULL */
	struct zbewalgo_dict *dict;
};

struct stats {
	unsigned long pages, stored, tried;
	unsigned long wins[ZBEWALGO_MAX_COMBINATIONS];
	unsigned long long in_bytes, out_bytes;
};

static void usage(FILE *f)
{
	fprintf(f,
"usage: zbewalgo [options] compress IN OUT\n"
"       zbewalgo [options] decompress IN OUT\n"
"       zbewalgo [options] page-compress   < page > compressed\n"
"       zbewalgo [options] page-decompress < compressed > page\n"
"       zbewalgo table            print the combination table in use\n"
"       zbewalgo steps            list the step names with their stable ids\n"
"       zbewalgo bench [options] FILE...  compare with zram's other compressors\n"
"       zbewalgo tune [options] INPUT...  recommend a table for a workload\n"
"                 (files, block devices, --pid PID; see zbewalgo tune -h)\n"
"       zbewalgo train-dict -o FILE INPUT...  a dictionary for zram's dict=\n"
"IN/OUT may be '-' for stdin/stdout.  OUT must not be IN, and an existing\n"
"OUT is kept unless -f; it appears only once complete.\n"
"Exit status: 0 done, 1 failed (nothing written), 2 a bad command line.\n"
"options:\n"
"  -c, --combinations TABLE  combinations to try, e.g. 'bwt-mtf-huffman\n"
"                            bewalgo-rle' (default: the built-in table)\n"
"  -l, --level N             the table of compression level N (1, 2, 3)\n"
"  -e, --early-abort N       stop searching below N bytes\n"
"  -m, --max-output N        store pages whose best result is >= N bytes\n"
"  -p, --page-size N         page size (default 4096, at most 65536)\n"
"  -D, --dict FILE           a zstd dictionary, as zram's dict= takes it:\n"
"                            compress with it, decompress pages that need it\n"
"  -f, --force               replace an existing OUT\n"
"  -s, --stats               print wins per combination and tries per page\n"
"  -V, --version             the version, the page format and the file\n"
"                            container versions\n"
"  -h, --help                this text\n");
}

FILE *tool_open(const char *path, const char *mode)
{
	FILE *f;

	if (!strcmp(path, "-"))
		return strchr(mode, 'r') ? stdin : stdout;
	f = fopen(path, mode);
	if (!f)
		fprintf(stderr, "zbewalgo: %s: %s\n", path, strerror(errno));
	return f;
}

/*
 * The whole of @f, as tool_read_named() reads it; its messages name the
 * file the descriptor has open.
 */
int tool_read_all(FILE *f, unsigned char **data, size_t *len)
{
	char link[64], name[PATH_MAX];
	ssize_t n;
	int fd = fileno(f);

	if (fd == STDIN_FILENO)
		return tool_read_named(f, "stdin", data, len);
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = fd < 0 ? -1 : readlink(link, name, sizeof(name) - 1);
	if (n < 0)
		return tool_read_named(f, NULL, data, len);
	name[n] = 0;
	return tool_read_named(f, name, data, len);
}

static void put_le(unsigned char *p, unsigned long long v, int n)
{
	while (n--) {
		*p++ = v & 0xff;
		v >>= 8;
	}
}

static unsigned long long get_le(const unsigned char *p, int n)
{
	unsigned long long v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

static struct zbewalgo_ctx *make_ctx(const struct options *o)
{
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create_for(o->page_size, NULL,
							   0, o->dict);
	struct zbewalgo_params p;

	if (!ctx) {
		fprintf(stderr, "zbewalgo: cannot create a context\n");
		return NULL;
	}
	zbewalgo_default_params(&p, o->page_size);
	if (o->params_set[0])
		p.early_abort_size = o->params.early_abort_size;
	if (o->params_set[1])
		p.max_output_size = o->params.max_output_size;
	zbewalgo_ctx_set_params(ctx, &p);
	if (o->table)
		zbewalgo_ctx_set_table(ctx, o->table);
	if (o->level)
		zbewalgo_ctx_set_level(ctx, o->level);
	zbewalgo_ctx_set_dict(ctx, o->dict);
	return ctx;
}

/* -D's dictionary, for the level of -l, once the options are all read */
static int load_dict(struct options *o)
{
	unsigned char *data;
	size_t len;
	int err;

	if (!o->dict_path)
		return 0;
	if (tool_read_dict(o->dict_path, o->page_size, &data, &len))
		return -1;
	err = zbewalgo_dict_create(data, len,
				   o->level ?: ZBEWALGO_DEFAULT_LEVEL,
				   o->page_size, &o->dict);
	free(data);
	if (err)
		fprintf(stderr, "zbewalgo: %s: %s\n", tool_name(o->dict_path),
			strerror(-err));
	return err ? -1 : 0;
}

static void count(struct stats *st, struct zbewalgo_ctx *ctx, size_t in,
		  size_t out)
{
	const struct zbewalgo_result *r = zbewalgo_ctx_last_result(ctx);

	st->pages++;
	st->tried += r->tried;
	st->in_bytes += in;
	st->out_bytes += out;
	if (r->stored)
		st->stored++;
	else
		st->wins[r->comb]++;
}

static void print_stats(const struct options *o, const struct stats *st)
{
	const struct zbewalgo_table *t = o->table ? o->table :
					 zbewalgo_table_default();
	char name[128];
	unsigned int i;

	fprintf(stderr, "pages %lu, stored uncompressed %lu, %llu -> %llu bytes (ratio %.3f)\n",
		st->pages, st->stored, st->in_bytes, st->out_bytes,
		st->out_bytes ? (double)st->in_bytes / st->out_bytes : 0.0);
	fprintf(stderr, "combinations tried per page: %.2f\n",
		st->pages ? (double)st->tried / st->pages : 0.0);
	for (i = 0; i < t->nr; i++) {
		zbewalgo_combination_format(&t->comb[i], name, sizeof(name));
		fprintf(stderr, "  %8lu wins  %s\n", st->wins[i], name);
	}
}

/*
 * What compress and page-compress share: a context with its output
 * buffer of @cap bytes, the statistics, and the input read whole.
 */
struct comp_run {
	struct zbewalgo_ctx *ctx;
	unsigned char *dst, *data;
	size_t cap, len;
	struct stats *st;
};

static int comp_start(struct comp_run *r, const struct options *o, FILE *in,
		      const char *name)
{
	r->cap = ZBEWALGO_STORED_SIZE(o->page_size);
	r->dst = malloc(r->cap);
	r->ctx = make_ctx(o);
	r->st = calloc(1, sizeof(*r->st));
	r->data = NULL;
	if (!r->dst || !r->ctx || !r->st) {
		fprintf(stderr, "zbewalgo: %s\n", strerror(ENOMEM));
		return -1;
	}
	return tool_read_named(in, name, &r->data, &r->len);
}

/* Compresses @n input bytes from @off into r->dst, counted in r->st. */
static int comp_page(struct comp_run *r, size_t off, size_t n, size_t *dlen)
{
	int err;

	*dlen = r->cap;
	err = zbewalgo_compress(r->ctx, r->data + off, n, r->dst, dlen);
	if (!err)
		count(r->st, r->ctx, n, *dlen);
	return err;
}

static void comp_free(struct comp_run *r)
{
	free(r->data);
	free(r->st);
	free(r->dst);
	zbewalgo_ctx_destroy(r->ctx);
}

/* compress and decompress: the input's name, and the output */
struct file_run {
	const char *in_name;
	FILE *in;
	struct tool_out out;
};

static int cmd_compress(const struct options *o, struct file_run *f)
{
	unsigned char hdr[ZBWF_HDR_SIZE], tail[ZBWF_TRAILER];
	struct tool_out *out = &f->out;
	struct comp_run r;
	size_t off, dlen;
	int ret = 1, err;

	if (comp_start(&r, o, f->in, f->in_name))
		goto out;
	memcpy(hdr, ZBWF_MAGIC, 4);
	put_le(hdr + 4, ZBWF_VERSION, 4);
	put_le(hdr + 8, o->page_size, 4);
	put_le(hdr + 12, r.len, 8);
	put_le(hdr + 20, o->dict ? zbewalgo_dict_id(o->dict) : 0, 4);
	put_le(hdr + 24, tool_crc32c(0, hdr, 24), 4);
	if (tool_out_write(out, hdr, sizeof(hdr)))
		goto out;
	for (off = 0; off < r.len; off += o->page_size) {
		size_t n = r.len - off < o->page_size ? r.len - off :
			   o->page_size;
		unsigned char ph[ZBWF_PAGE_HDR];

		err = comp_page(&r, off, n, &dlen);
		if (err) {
			fprintf(stderr, "zbewalgo: %s: compress failed at offset %zu: %s\n",
				f->in_name, off, strerror(-err));
			goto out;
		}
		put_le(ph, dlen, 4);
		put_le(ph + 4, tool_crc32c(tool_crc32c(0, ph, 4), r.dst, dlen),
		       4);
		if (tool_out_write(out, ph, sizeof(ph)) ||
		    tool_out_write(out, r.dst, dlen))
			goto out;
	}
	put_le(tail, tool_crc32c(0, r.data, r.len), 4);
	if (tool_out_write(out, tail, sizeof(tail)))
		goto out;
	if (o->stats)
		print_stats(o, r.st);
	ret = 0;
out:
	comp_free(&r);
	return ret;
}

/*
 * The zstd Dictionary_ID that compressed page @p of @len bytes names,
 * when the page is the zstd step alone (the step that compresses with a
 * dictionary does so only as the first of its chain, and every table
 * has it alone or last); 0 for none or when it cannot be seen.  For the
 * message: the library answers -EINVAL for such a page without its
 * dictionary, as for a corrupt one.
 */
static uint32_t page_dict_id(const unsigned char *p, size_t len)
{
	size_t pos = 2, flen;
	unsigned char *f;
	s64 id = 0;
	int i;

	if (len < 3 || (p[0] & 0x8f) != ZBEWALGO_FORMAT_VERSION ||
	    (p[0] >> 4) != 1 || p[1] != zbewalgo_step_id("zstd", 4))
		return 0;
	for (i = 0; pos < len && (p[pos++] & 0x80) && i < 2; i++)
		;		/* orig: a varint of at most 3 bytes */
	if (pos >= len)
		return 0;
	/*
	 * The frame the zstd step reads from its payload, as its decoder
	 * rebuilds it: at most a window and a block header longer.
	 */
	f = malloc(len - pos + 4);
	flen = f ? zbw_zstd_unpack(p + pos, len - pos, f, len - pos + 4) : 0;
	if (flen)
		id = zbw_zstd_dict_id(f, flen);
	free(f);
	return id > 0 ? id : 0;
}

/*
 * Why page @p of @len bytes does not decode (@err): the dictionary it
 * needs, when it names one this run does not have, or corruption.  The
 * message names input @name and page @index (none when negative).
 */
static void page_error(const struct options *o, const char *name,
		       long long index, const unsigned char *p, size_t len,
		       int err, uint32_t file_dict)
{
	uint32_t id = page_dict_id(p, len) ?: file_dict;
	uint32_t have = o->dict ? zbewalgo_dict_id(o->dict) : 0;

	fprintf(stderr, "zbewalgo: %s: ", name);
	if (index >= 0)
		fprintf(stderr, "page %lld: ", index);
	if (err == -EINVAL && id && id != have) {
		fprintf(stderr, "needs the dictionary it was compressed with (zstd dictionary id %u)",
			id);
		if (have)
			fprintf(stderr, "; -D %s has id %u\n",
				tool_name(o->dict_path), have);
		else
			fprintf(stderr, ": give it with -D FILE\n");
		return;
	}
	fprintf(stderr, "corrupt or invalid page: %s\n",
		err == -EINVAL ? "malformed data" : strerror(-err));
}

/* A container read whole, and where its pages start */
struct container {
	const char *name;
	const unsigned char *data;
	size_t len, pos;
	unsigned int version;
	size_t page_size;
	unsigned long long orig;
	uint32_t dict_id;
};

/* The header of @c: 0, or -1 after a message */
static int read_header(const struct options *o, struct container *c)
{
	const unsigned char *d = c->data;
	uint32_t have = o->dict ? zbewalgo_dict_id(o->dict) : 0;

	if (c->len < ZBWF_V1_HDR || memcmp(d, ZBWF_MAGIC, 4)) {
		fprintf(stderr, "zbewalgo: %s: not a zbewalgo file\n", c->name);
		return -1;
	}
	c->version = get_le(d + 4, 4);
	if (c->version != 1 && c->version != ZBWF_VERSION) {
		fprintf(stderr, "zbewalgo: %s: file container version %u; this tool reads versions 1 and %d\n",
			c->name, c->version, ZBWF_VERSION);
		return -1;
	}
	c->pos = c->version == 1 ? ZBWF_V1_HDR : ZBWF_HDR_SIZE;
	if (c->version > 1 && (c->len < ZBWF_HDR_SIZE ||
			       get_le(d + 24, 4) != tool_crc32c(0, d, 24))) {
		fprintf(stderr, "zbewalgo: %s: header checksum mismatch: the file is corrupt\n",
			c->name);
		return -1;
	}
	c->page_size = get_le(d + 8, 4);
	c->orig = get_le(d + 12, 8);
	c->dict_id = c->version > 1 ? get_le(d + 20, 4) : 0;
	if (!c->page_size || c->page_size > ZBEWALGO_MAX_INPUT) {
		fprintf(stderr, "zbewalgo: %s: bad page size %zu\n", c->name,
			c->page_size);
		return -1;
	}
	if (c->dict_id && have && have != c->dict_id) {
		fprintf(stderr, "zbewalgo: %s: compressed with zstd dictionary id %u, but -D %s has id %u\n",
			c->name, c->dict_id, tool_name(o->dict_path), have);
		return -1;
	}
	return 0;
}

/*
 * The page record at c->pos, page @index: its compressed bytes and their
 * length; c->pos moves past it.  Version 2 checks its crc.  Returns 0,
 * or -1 after a message.
 */
static int next_page(struct container *c, unsigned long long index,
		     const unsigned char **page, size_t *clen)
{
	size_t hl = c->version > 1 ? ZBWF_PAGE_HDR : 4;
	const unsigned char *h = c->data + c->pos;

	if (c->len - c->pos < hl ||
	    (*clen = get_le(h, 4)) > c->len - c->pos - hl) {
		fprintf(stderr, "zbewalgo: %s: truncated at page %llu\n",
			c->name, index);
		return -1;
	}
	*page = h + hl;
	if (c->version > 1 &&
	    get_le(h + 4, 4) != tool_crc32c(tool_crc32c(0, h, 4), *page,
					    *clen)) {
		fprintf(stderr, "zbewalgo: %s: page %llu: checksum mismatch: the file is corrupt\n",
			c->name, index);
		return -1;
	}
	c->pos += hl + *clen;
	return 0;
}

/* Every page record of @c whole and intact, and nothing after them */
static int check_pages(struct container *c)
{
	unsigned long long done, i = 0;
	const unsigned char *page;
	size_t clen, start = c->pos;

	for (done = 0; done < c->orig; done += c->page_size, i++)
		if (next_page(c, i, &page, &clen))
			return -1;
	if (c->len - c->pos != ZBWF_TRAILER) {
		fprintf(stderr, "zbewalgo: %s: %s after the last page\n",
			c->name, c->len - c->pos < ZBWF_TRAILER ?
			"truncated" : "trailing data");
		return -1;
	}
	c->pos = start;
	return 0;
}

static int cmd_decompress(const struct options *o, struct file_run *f)
{
	unsigned char *data, *page = NULL;
	struct zbewalgo_ctx *ctx = NULL;
	struct container c = { .name = f->in_name };
	unsigned long long done = 0, index = 0;
	uint32_t crc = 0;
	int ret = 1;

	if (tool_read_named(f->in, f->in_name, &data, &c.len))
		return 1;
	c.data = data;
	if (read_header(o, &c) || (c.version > 1 && check_pages(&c)))
		goto out;
	page = malloc(c.page_size);
	ctx = zbewalgo_ctx_create_for(c.page_size, NULL, 0, o->dict);
	if (!page || !ctx) {
		fprintf(stderr, "zbewalgo: %s\n", strerror(ENOMEM));
		goto out;
	}
	zbewalgo_ctx_set_dict(ctx, o->dict);
	for (; done < c.orig; done += c.page_size, index++) {
		size_t want = c.orig - done < c.page_size ? c.orig - done :
			      c.page_size;
		const unsigned char *src;
		size_t clen, dlen = c.page_size;
		int err;

		if (next_page(&c, index, &src, &clen))
			goto out;
		err = zbewalgo_ctx_decompress(ctx, src, clen, page, &dlen);
		if (err) {
			page_error(o, c.name, index, src, clen, err, c.dict_id);
			goto out;
		}
		if (dlen != want) {
			fprintf(stderr, "zbewalgo: %s: page %llu: %zu bytes, not %zu\n",
				c.name, index, dlen, want);
			goto out;
		}
		crc = tool_crc32c(crc, page, dlen);
		if (tool_out_write(&f->out, page, dlen))
			goto out;
	}
	if (c.version == 1 && c.pos != c.len) {
		fprintf(stderr, "zbewalgo: %s: trailing data after the last page\n",
			c.name);
		goto out;
	}
	if (c.version > 1 && get_le(data + c.pos, 4) != crc) {
		fprintf(stderr, "zbewalgo: %s: content checksum mismatch: the decompressed data differ from the original\n",
			c.name);
		goto out;
	}
	ret = 0;
out:
	zbewalgo_ctx_destroy(ctx);
	free(page);
	free(data);
	return ret;
}

/* page-compress and page-decompress write stdout: 0, or 1 with why */
static int write_stdout(const void *p, size_t n)
{
	int bad;

	errno = 0;
	bad = fwrite(p, 1, n, stdout) != n;
	if (fflush(stdout) || bad || ferror(stdout)) {
		fprintf(stderr, "zbewalgo: stdout: %s\n",
			strerror(errno ? errno : EIO));
		return 1;
	}
	return 0;
}

static int cmd_page_compress(const struct options *o, char **args)
{
	struct comp_run r;
	size_t dlen;
	int ret = 1, err;

	if (comp_start(&r, o, stdin, "stdin"))
		goto out;
	if (r.len > o->page_size) {
		fprintf(stderr, "zbewalgo: input is %zu bytes, more than one page (%zu)\n",
			r.len, o->page_size);
		goto out;
	}
	err = comp_page(&r, 0, r.len, &dlen);
	if (err) {
		fprintf(stderr, "zbewalgo: compress failed: %s\n",
			strerror(-err));
		goto out;
	}
	ret = write_stdout(r.dst, dlen);
	if (!ret && o->stats)
		print_stats(o, r.st);
out:
	comp_free(&r);
	return ret;
}

static int cmd_page_decompress(const struct options *o, char **args)
{
	size_t len, dlen = o->page_size;
	unsigned char *data, *page = malloc(dlen);
	void *scratch = malloc(zbewalgo_decompress_scratch_size(dlen));
	int ret = 1, err;

	if (!page || !scratch) {
		fprintf(stderr, "zbewalgo: %s\n", strerror(ENOMEM));
		goto out;
	}
	if (tool_read_named(stdin, "stdin", &data, &len))
		goto out;
	if (o->dict) {
		/* only a context has a dictionary */
		struct zbewalgo_ctx *ctx = make_ctx(o);

		err = ctx ? zbewalgo_ctx_decompress(ctx, data, len, page,
						    &dlen) : -ENOMEM;
		zbewalgo_ctx_destroy(ctx);
	} else {
		err = zbewalgo_decompress(data, len, page, &dlen, scratch);
	}
	if (err)
		page_error(o, "stdin", -1, data, len, err, 0);
	else
		ret = write_stdout(page, dlen);
	free(data);
out:
	free(scratch);
	free(page);
	return ret;
}

static int parse_size(const char *s, size_t max, bool zero_ok,
		      size_t *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v > max || (!v && !zero_ok)) {
		fprintf(stderr, "zbewalgo: bad number '%s'\n", s);
		return -1;
	}
	*out = v;
	return 0;
}

/* The table of -c and -l, allocated on first use. */
static struct zbewalgo_table *own_table(struct options *o)
{
	if (!o->table)
		o->table = calloc(1, sizeof(*o->table));
	return o->table;
}

static int opt_combinations(struct options *o, const char *arg)
{
	int err;

	if (!own_table(o))
		return -1;
	err = zbewalgo_table_parse(o->table, arg);
	if (err == -ENOSPC) {
		fprintf(stderr, "zbewalgo: combination table '%s' too large: at most %d steps, and a cost of at most %d per page (a bwt costs 384, zstd 32)\n",
			arg, ZBEWALGO_MAX_TABLE_STEPS, ZBEWALGO_MAX_TABLE_COST);
		return -1;
	}
	if (err == -EOPNOTSUPP) {
		fprintf(stderr, "zbewalgo: combination table '%s' names a step this build leaves out (a kernel without CONFIG_ZBEWALGO_CLASSIC_STEPS)\n",
			arg);
		return -1;
	}
	if (err) {
		fprintf(stderr, "zbewalgo: bad combination table '%s': %s\n",
			arg, strerror(-err));
		return -1;
	}
	return 0;
}

static int opt_level(struct options *o, const char *arg)
{
	const struct zbewalgo_table *preset;

	preset = strlen(arg) == 1 ? zbewalgo_preset_table(arg[0] - '0') :
		 NULL;
	if (!preset) {
		fprintf(stderr, "zbewalgo: no level '%s' (1, 2 or 3)\n", arg);
		return -1;
	}
	if (!own_table(o))
		return -1;
	*o->table = *preset;
	o->level = arg[0] - '0';
	return 0;
}

/* -e and -m: the engine's thresholds, in place of the page's defaults. */
static int opt_threshold(struct options *o, int c, const char *arg)
{
	size_t v;

	if (parse_size(arg, 1u << 20, true, &v))
		return -1;
	if (c == 'e')
		o->params.early_abort_size = v;
	else
		o->params.max_output_size = v;
	o->params_set[c == 'm'] = true;
	return 0;
}

/*
 * The options before the command into @o: 0 to go on, 1 when -h or -V
 * printed what they print, -1 after a message about a bad option.
 */
static int parse_options(int argc, char **argv, struct options *o)
{
	static const struct option longopts[] = {
		{ "combinations", required_argument, NULL, 'c' },
		{ "level", required_argument, NULL, 'l' },
		{ "early-abort", required_argument, NULL, 'e' },
		{ "max-output", required_argument, NULL, 'm' },
		{ "page-size", required_argument, NULL, 'p' },
		{ "stats", no_argument, NULL, 's' },
		{ "dict", required_argument, NULL, 'D' },
		{ "force", no_argument, NULL, 'f' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	int c, err;

	while ((c = getopt_long(argc, argv, "c:l:e:m:p:sD:fVh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'c':
			err = opt_combinations(o, optarg);
			break;
		case 'l':
			err = opt_level(o, optarg);
			break;
		case 'e':
		case 'm':
			err = opt_threshold(o, c, optarg);
			break;
		case 'p':
			err = parse_size(optarg, ZBEWALGO_MAX_INPUT, false,
					 &o->page_size);
			break;
		case 's':
			o->stats = true;
			err = 0;
			break;
		case 'D':
			o->dict_path = optarg;
			err = 0;
			break;
		case 'f':
			o->force = true;
			err = 0;
			break;
		case 'V':
			printf("zbewalgo %s\n"
			       "page format version %d, file container version %d (decodes 1 to %d)\n",
			       ZBEWALGO_TOOL_VERSION, ZBEWALGO_FORMAT_VERSION,
			       ZBWF_VERSION, ZBWF_VERSION);
			return 1;
		case 'h':
			usage(stdout);
			return 1;
		default:
			usage(stderr);
			return -1;
		}
		if (err)
			return -1;
	}
	return 0;
}

/*
 * compress and decompress: IN opened, OUT as tool_out_open() opens it
 * (never IN, kept unless -f, complete or not there), for @run.
 */
static int with_files(const struct options *o, char **args,
		      int (*run)(const struct options *o,
				 struct file_run *f))
{
	struct file_run f = { .in_name = tool_name(args[0]) };
	struct stat st;
	int ret = 1;

	f.in = tool_open_in(args[0], &st);
	if (!f.in)
		return 1;
	if (!tool_out_open(&f.out, args[1], o->force, &st)) {
		ret = run(o, &f);
		if (tool_out_close(&f.out, !ret))
			ret = 1;
	}
	if (f.in != stdin)
		fclose(f.in);
	return ret;
}

static int cmd_compress_files(const struct options *o, char **args)
{
	return with_files(o, args, cmd_compress);
}

static int cmd_decompress_files(const struct options *o, char **args)
{
	return with_files(o, args, cmd_decompress);
}

static int cmd_table(const struct options *o, char **args)
{
	char buf[32768];

	zbewalgo_table_format(o->table ? o->table : zbewalgo_table_default(),
			      buf, sizeof(buf));
	fputs(buf, stdout);
	return 0;
}

static int cmd_steps(const struct options *o, char **args)
{
	unsigned int id;

	for (id = 1; id < 256; id++) {
		const char *name = zbewalgo_step_name(id);

		if (name)
			printf("%u %s%s\n", id, name,
			       zbewalgo_step_id(name, strlen(name)) < 0 ?
			       " (not built)" : "");
	}
	return 0;
}

static const struct command {
	const char *name;
	int nargs;		/* the operands it takes; -1: any, unread */
	int (*run)(const struct options *o, char **args);
} commands[] = {
	{ "compress", 2, cmd_compress_files },
	{ "decompress", 2, cmd_decompress_files },
	{ "page-compress", -1, cmd_page_compress },
	{ "page-decompress", -1, cmd_page_decompress },
	{ "table", -1, cmd_table },
	{ "steps", -1, cmd_steps },
	{ }
};

/* The command @argv[0], or NULL */
static const struct command *find_command(const char *name)
{
	const struct command *cmd;

	for (cmd = commands; cmd->name; cmd++)
		if (!strcmp(cmd->name, name))
			return cmd;
	return NULL;
}

/* The command @argv[0] with its @argc - 1 operands: 0, or -1 after usage */
static int check_command(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 1) {
		usage(stderr);
		return -1;
	}
	cmd = find_command(argv[0]);
	if (!cmd) {
		fprintf(stderr, "zbewalgo: unknown command '%s'\n", argv[0]);
		usage(stderr);
		return -1;
	}
	if (cmd->nargs >= 0 && argc - 1 != cmd->nargs) {
		fprintf(stderr, "zbewalgo: %s takes %d operands\n", cmd->name,
			cmd->nargs);
		usage(stderr);
		return -1;
	}
	return 0;
}

/* The command @argv[0], checked, with its operands; its exit status. */
static int run_command(const struct options *o, int argc, char **argv)
{
	return find_command(argv[0])->run(o, argv + 1);
}

int main(int argc, char **argv)
{
	struct options o = { .page_size = 4096 };
	int ret;

	/* Subcommands with options of their own come first. */
	if (argc > 1 && !strcmp(argv[1], "bench"))
		return bench_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "tune"))
		return tune_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "train-dict"))
		return train_dict_main(argc - 1, argv + 1);

	ret = parse_options(argc, argv, &o);
	if (ret)
		ret = ret > 0 ? 0 : EXIT_USAGE;
	else if (check_command(argc - optind, argv + optind))
		ret = EXIT_USAGE;
	else if (load_dict(&o))
		ret = 1;
	else
		ret = run_command(&o, argc - optind, argv + optind);
	free(o.table);
	zbewalgo_dict_destroy(o.dict);
	return ret;
}
