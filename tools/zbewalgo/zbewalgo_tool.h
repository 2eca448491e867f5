/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared helpers of the zbewalgo command-line tool. */
#ifndef ZBEWALGO_TOOL_H
#define ZBEWALGO_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#define MIB		(1024.0 * 1024.0)

/*
 * The tool's version, which zbewalgo --version prints: the Makefile sets
 * it from dkms.conf's PACKAGE_VERSION, the release.
 */
#ifndef ZBEWALGO_TOOL_VERSION
#define ZBEWALGO_TOOL_VERSION	"unknown"
#endif

/*
 * Exit statuses: EXIT_USAGE for a command line the tool does not take
 * (an unknown option or command, a bad number, a missing operand), 1 for
 * anything that failed or did nothing.
 */
#define EXIT_USAGE	2

/* zbewalgo.c */
FILE *tool_open(const char *path, const char *mode);
int tool_read_all(FILE *f, unsigned char **data, size_t *len);

/* common.c: files */
uint32_t tool_crc32c(uint32_t crc, const void *buf, size_t len);
const char *tool_name(const char *path);
FILE *tool_open_in(const char *path, struct stat *st);
int tool_read_named(FILE *f, const char *name, unsigned char **data,
		    size_t *len);
int tool_read_dict(const char *path, size_t page, unsigned char **data,
		   size_t *len);

/* An output file, written as tool_out_open() says. */
struct tool_out {
	const char *path;		/* as given; "-": stdout */
	FILE *f;
	char *tmp;			/* the temporary file, or NULL */
	int err;			/* the first write's errno, or 0 */
};

int tool_out_open(struct tool_out *o, const char *path, bool force,
		  const struct stat *in);
int tool_out_write(struct tool_out *o, const void *p, size_t n);
int tool_out_close(struct tool_out *o, bool ok);

/* common.c: for bench and tune */
double tool_now(void);
double tool_median(double *v, int n);
int tool_parse_num(const char *s, double lo, double hi, double *v);
uint64_t tool_page_hash(const unsigned char *p, size_t n);
bool tool_same_filled(const unsigned char *p, size_t page);
struct zbewalgo_table;
void tool_table_line(const struct zbewalgo_table *tab, char sep, char *buf,
		     size_t size);
size_t tool_lz4_compress(void *state, const void *src, size_t slen,
			 void *dst, size_t cap, int accel);
size_t tool_lz4_decompress(const void *src, size_t slen, void *dst,
			   size_t cap);
size_t tool_zstd_compress(void *cctx, const void *src, size_t slen,
			  void *dst, size_t cap, int level);
size_t tool_zstd_decompress(void *dctx, const void *src, size_t slen,
			    void *dst, size_t cap);
double tool_mibps(double bytes, double s);
void tool_put_num(FILE *f, double v, const char *fmt, const char *none);
void tool_json_string(FILE *f, const char *s);
const char *tool_out_path(const char *arg);
int tool_flush_stdout(void);
int tool_threshold(size_t *threshold, size_t page);

/* --json[=FILE] and --plot=FILE of bench and tune */
struct tool_output {
	const char *name;		/* "bench", "tune" */
	const char *plot_env;		/* the plot script: $plot_env, */
	const char *plot_script;	/* else this one */
	bool json;
	const char *json_path;		/* NULL: stdout */
	const char *plot_path;		/* NULL: no plot */
};

/*
 * The getopt_long() entries of --json[=FILE] and --plot=FILE, for the
 * option tables of bench and tune; tool_output_opt() takes their values.
 * The codes lie above the tools' own.
 */
enum { TOOL_OPT_JSON = 512, TOOL_OPT_PLOT };
#define TOOL_OUTPUT_LONGOPTS						\
	{ "json", optional_argument, NULL, TOOL_OPT_JSON },		\
	{ "plot", required_argument, NULL, TOOL_OPT_PLOT }

bool tool_output_opt(struct tool_output *o, int c, const char *arg);
int tool_plot_ready(const struct tool_output *o);
int tool_write_json(const struct tool_output *o,
		    void (*write)(FILE *f, const void *arg), const void *arg);

/*
 * zram's write path: the result @res of @c bytes is copied to @store at
 * *@pos, or the page @src itself when there is none (@c 0) or it is not
 * below @threshold.  Returns the compressed length kept, 0 for the page.
 */
static inline size_t tool_zram_store(unsigned char *store, size_t *pos,
				     const void *src, const void *res,
				     size_t c, size_t page, size_t threshold)
{
	if (!c || c >= threshold) {
		memcpy(store + *pos, src, page);
		*pos += page;
		return 0;
	}
	memcpy(store + *pos, res, c);
	*pos += c;
	return c;
}

int bench_main(int argc, char **argv);
int tune_main(int argc, char **argv);
int train_dict_main(int argc, char **argv);

#endif
