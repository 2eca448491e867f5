// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers shared by the zbewalgo subcommands: clocks and medians, number
 * options, lz4 and zstd with one error convention, output formatting and
 * the plot script runner; input files read whole, and output files
 * written through a temporary file, with messages that name the file and
 * the reason; crc32c.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <lz4.h>
#include <zstd.h>

#include <linux/zbewalgo.h>

#include "zbewalgo_tool.h"

double tool_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Sorts @v. */
double tool_median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int tool_parse_num(const char *s, double lo, double hi, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || *end || !(*v >= lo && *v <= hi)) {
		fprintf(stderr, "zbewalgo: bad number '%s'\n", s);
		return -1;
	}
	return 0;
}

/* @tab's text on one line: its combinations separated by @sep */
void tool_table_line(const struct zbewalgo_table *tab, char sep, char *buf,
		     size_t size)
{
	char *p;

	zbewalgo_table_format(tab, buf, size);
	for (p = buf; *p; p++)
		if (*p == '\n')
			*p = p[1] ? sep : '\0';
}

uint64_t tool_page_hash(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

/*
 * zram's page_same_filled(): every word equal to the first; a tail
 * shorter than a word repeats the first word's bytes.
 */
bool tool_same_filled(const unsigned char *p, size_t page)
{
	size_t i;

	for (i = sizeof(unsigned long); i + sizeof(unsigned long) <= page;
	     i += sizeof(unsigned long))
		if (memcmp(p, p + i, sizeof(unsigned long)))
			return false;
	for (; i < page; i++)
		if (p[i] != p[i % sizeof(unsigned long)])
			return false;
	return true;
}

/* ---- lz4 and zstd: 0 for no result or an error ------------------------- */

size_t tool_lz4_compress(void *state, const void *src, size_t slen,
			 void *dst, size_t cap, int accel)
{
	int n = LZ4_compress_fast_extState(state, src, dst, slen, cap, accel);

	return n > 0 ? n : 0;
}

size_t tool_lz4_decompress(const void *src, size_t slen, void *dst,
			   size_t cap)
{
	int n = LZ4_decompress_safe(src, dst, slen, cap);

	return n < 0 ? 0 : n;
}

size_t tool_zstd_compress(void *cctx, const void *src, size_t slen,
			  void *dst, size_t cap, int level)
{
	size_t n = ZSTD_compressCCtx(cctx, dst, cap, src, slen, level);

	return ZSTD_isError(n) ? 0 : n;
}

size_t tool_zstd_decompress(void *dctx, const void *src, size_t slen,
			    void *dst, size_t cap)
{
	size_t n = ZSTD_decompressDCtx(dctx, dst, cap, src, slen);

	return ZSTD_isError(n) ? 0 : n;
}

/* ---- output ---------------------------------------------------------------- */

double tool_mibps(double bytes, double s)
{
	return s > 0 ? bytes / MIB / s : NAN;
}

/* @fmt for a finite @v, @none otherwise. */
void tool_put_num(FILE *f, double v, const char *fmt, const char *none)
{
	if (isfinite(v))
		fprintf(f, fmt, v);
	else
		fputs(none, f);
}

void tool_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/*
 * Flushes stdout: 0, or -1 when it or an earlier write to it failed,
 * with a message the first time.
 */
int tool_flush_stdout(void)
{
	static bool reported;
	int bad;

	errno = 0;
	bad = ferror(stdout);
	if (!fflush(stdout) && !bad)
		return 0;
	if (!reported)
		fprintf(stderr, "zbewalgo: stdout: %s\n",
			strerror(errno ? errno : EIO));
	reported = true;
	return -1;
}

/* An option's FILE: none or '-' means stdout (NULL). */
const char *tool_out_path(const char *arg)
{
	return arg && strcmp(arg, "-") ? arg : NULL;
}

/*
 * Option @c of TOOL_OUTPUT_LONGOPTS, with its argument @arg, into @o.
 * Returns false when @c is another option.
 */
bool tool_output_opt(struct tool_output *o, int c, const char *arg)
{
	switch (c) {
	case TOOL_OPT_JSON:
		o->json = true;		/* no FILE or '-': stdout */
		o->json_path = tool_out_path(arg);
		return true;
	case TOOL_OPT_PLOT:
		o->plot_path = arg;
		return true;
	}
	return false;
}

/*
 * zram's huge-class threshold -t for pages of @page bytes: by default the
 * library's, zsmalloc's since Linux 6.3 (3625 for 4 KiB pages), and at
 * most a page.
 */
int tool_threshold(size_t *threshold, size_t page)
{
	if (!*threshold) {
		struct zbewalgo_params p;

		zbewalgo_default_params(&p, page);
		*threshold = p.max_output_size;
	}
	if (*threshold > page) {
		fprintf(stderr, "zbewalgo: the threshold must not exceed the page size\n");
		return -1;
	}
	return 0;
}

/* The plot scripts' interpreter: $ZBEWALGO_PYTHON, else Debian's python3. */
static const char *plot_python(void)
{
	const char *py = getenv("ZBEWALGO_PYTHON");

	/* matplotlib comes from Debian's python3-matplotlib */
	if (!py)
		py = access("/usr/bin/python3", X_OK) ? "python3" :
		     "/usr/bin/python3";
	return py;
}

/*
 * --plot is checked before any work: a run of minutes must not end in
 * "matplotlib missing".  Returns 0 when there is no --plot or the plot
 * script's python can import matplotlib.
 */
int tool_plot_ready(const struct tool_output *o)
{
	const char *py = plot_python();
	char *cmd;
	size_t len;
	int ret;

	if (!o->plot_path)
		return 0;
	if (strchr(py, '\'')) {
		fprintf(stderr, "zbewalgo: --plot: quote in a path\n");
		return -1;
	}
	len = strlen(py) + 64;
	cmd = malloc(len);
	if (!cmd)
		return -1;
	snprintf(cmd, len, "'%s' -c 'import matplotlib' 2>/dev/null", py);
	ret = system(cmd);
	free(cmd);
	if (ret) {
		fprintf(stderr,
			"zbewalgo: --plot needs matplotlib for %s, which cannot import it\n"
			"  Debian: apt-get install python3-matplotlib (make bench installs it)\n",
			py);
		return -1;
	}
	return 0;
}

/* Runs the plot script on the JSON file @json. */
static int run_plot(const struct tool_output *o, const char *json)
{
	const char *script = getenv(o->plot_env);
	const char *py = plot_python();
	const char *png = o->plot_path;
	char *cmd;
	size_t len;
	int ret;

	if (!script)
		script = o->plot_script;
	/* Paths are quoted for the shell; reject the one unquotable char. */
	if (strchr(script, '\'') || strchr(json, '\'') || strchr(png, '\'') ||
	    strchr(py, '\'')) {
		fprintf(stderr, "zbewalgo: --plot: quote in a path\n");
		return -1;
	}
	len = strlen(py) + strlen(script) + strlen(json) + strlen(png) + 32;
	cmd = malloc(len);
	if (!cmd)
		return -1;
	snprintf(cmd, len, "'%s' '%s' '%s' '%s'", py, script, json, png);
	fflush(NULL);
	ret = system(cmd);
	free(cmd);
	if (ret) {
		fprintf(stderr, "zbewalgo: --plot: %s failed\n", script);
		return -1;
	}
	return 0;
}

/*
 * --json and --plot: @write(f, @arg) prints the JSON, with --json to its
 * file or stdout.  The plot script reads a file: the JSON's own, or a
 * temporary one.
 */
int tool_write_json(const struct tool_output *o,
		    void (*write)(FILE *f, const void *arg), const void *arg)
{
	const char *path = o->json ? o->json_path : NULL;
	char tmp[64];
	FILE *f;
	int fd = -1, ret = 0, bad;

	if (!path && o->plot_path) {
		snprintf(tmp, sizeof(tmp), "/tmp/zbewalgo-%s-XXXXXX", o->name);
		fd = mkstemp(tmp);
		if (fd < 0) {
			perror("zbewalgo: mkstemp");
			return -1;
		}
		path = tmp;
	}
	if (path) {
		f = fd >= 0 ? fdopen(fd, "w") : tool_open(path, "w");
		if (f) {
			write(f, arg);
			errno = 0;
			bad = ferror(f);
			if (fclose(f) || bad) {
				fprintf(stderr, "zbewalgo: %s: %s\n", path,
					strerror(errno ? errno : EIO));
				ret = -1;
			}
		} else {
			if (fd >= 0)
				close(fd);
			ret = -1;
		}
	}
	if (o->json && !o->json_path) {
		write(stdout, arg);
		if (tool_flush_stdout())
			ret = -1;
	}
	if (!ret && o->plot_path && run_plot(o, path))
		ret = -1;
	if (fd >= 0)
		unlink(tmp);
	return ret;
}

/* ---- crc32c --------------------------------------------------------------- */

/*
 * CRC-32C (Castagnoli), the kernel's crc32c and the checksum of iSCSI,
 * ext4 and btrfs metadata: reflected polynomial 0x82f63b78, initial value
 * and final xor ~0.  tool_crc32c(0, "123456789", 9) is 0xe3069283.  @crc
 * is a previous result, to continue over more bytes, or 0.
 *
 * Eight bytes a step ("slicing by 8"): table[k][b] is the CRC of byte b
 * followed by k zero bytes, so the eight look-ups of a step are
 * independent.  A byte at a time, the checksum took a third of the time
 * of compressing a file of numbers.
 */
uint32_t tool_crc32c(uint32_t crc, const void *buf, size_t len)
{
	static uint32_t table[8][256];
	const unsigned char *p = buf;
	uint32_t lo, hi;

	if (!table[0][1]) {
		uint32_t i, k, c;

		for (i = 0; i < 256; i++) {
			for (c = i, k = 0; k < 8; k++)
				c = c >> 1 ^ (c & 1 ? 0x82f63b78 : 0);
			table[0][i] = c;
		}
		for (i = 0; i < 256; i++)
			for (k = 1; k < 8; k++)
				table[k][i] = table[k - 1][i] >> 8 ^
					      table[0][table[k - 1][i] & 0xff];
	}
	crc = ~crc;
	for (; len >= 8; len -= 8, p += 8) {
		/* bytes in order, so on any byte order */
		lo = crc ^ (p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24);
		hi = p[4] | p[5] << 8 | p[6] << 16 | (uint32_t)p[7] << 24;
		crc = table[7][lo & 0xff] ^ table[6][lo >> 8 & 0xff] ^
		      table[5][lo >> 16 & 0xff] ^ table[4][lo >> 24] ^
		      table[3][hi & 0xff] ^ table[2][hi >> 8 & 0xff] ^
		      table[1][hi >> 16 & 0xff] ^ table[0][hi >> 24];
	}
	while (len--)
		crc = crc >> 8 ^ table[0][(crc ^ *p++) & 0xff];
	return ~crc;
}

/* ---- input ---------------------------------------------------------------- */

/* "stdin" for '-' in messages */
const char *tool_name(const char *path)
{
	return strcmp(path, "-") ? path : "stdin";
}

/*
 * Opens input @path ('-': stdin) for reading; refuses a directory, which
 * fopen() would open and fread() then fail on.  On success *@st is its
 * status, for tool_out_open()'s same-file test.
 */
FILE *tool_open_in(const char *path, struct stat *st)
{
	FILE *f;

	if (!strcmp(path, "-")) {
		if (fstat(STDIN_FILENO, st)) {
			fprintf(stderr, "zbewalgo: stdin: %s\n", strerror(errno));
			return NULL;
		}
		return stdin;
	}
	f = fopen(path, "rb");
	if (!f || fstat(fileno(f), st)) {
		fprintf(stderr, "zbewalgo: %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		return NULL;
	}
	if (S_ISDIR(st->st_mode)) {
		fprintf(stderr, "zbewalgo: %s: %s\n", path, strerror(EISDIR));
		fclose(f);
		return NULL;
	}
	return f;
}

/* tool_read_all() naming the file @name in its messages (NULL: none) */
int tool_read_named(FILE *f, const char *name, unsigned char **data,
		    size_t *len)
{
	size_t cap = 1 << 16, n = 0, r;
	unsigned char *buf = malloc(cap);
	int err = 0;

	while (buf && (r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap) {
			unsigned char *nb = cap > SIZE_MAX / 2 ? NULL :
					    realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (!buf)
		err = ENOMEM;
	else if (ferror(f))
		err = errno ? errno : EIO;
	if (err) {
		free(buf);
		fprintf(stderr, "zbewalgo: %s%s%s\n", name ? name : "",
			name ? ": " : "read: ", strerror(err));
		return -1;
	}
	*data = buf;
	*len = n;
	return 0;
}

/*
 * Reads a zstd dictionary (zstd --train, zbewalgo train-dict) from @path
 * and checks that the library takes it for @page-byte pages, at every
 * level; *@data holds its bytes.  Any other file is refused here, with
 * its name and why, before a command does anything.
 */
int tool_read_dict(const char *path, size_t page, unsigned char **data,
		   size_t *len)
{
	struct zbewalgo_dict *dict;
	struct stat st;
	FILE *f = tool_open_in(path, &st);
	int err = 0, level;

	if (!f)
		return -1;
	err = tool_read_named(f, tool_name(path), data, len);
	if (f != stdin)
		fclose(f);
	if (err)
		return -1;
	for (level = 1; !err && level <= ZBEWALGO_MAX_LEVEL; level++) {
		err = zbewalgo_dict_create(*data, *len, level, page, &dict);
		if (!err)
			zbewalgo_dict_destroy(dict);
	}
	if (!err)
		return 0;
	fprintf(stderr, "zbewalgo: %s: %s\n", tool_name(path),
		err == -EINVAL ? "not a zstd dictionary with an id (zstd --train, zbewalgo train-dict)" :
		strerror(-err));
	free(*data);
	*data = NULL;
	return -1;
}

/* ---- output: a temporary file, renamed on success ------------------------- */

/*
 * The temporary file of the output being written, for the signal handler:
 * one at a time.  Set and cleared with the signals blocked.
 */
static char out_tmp[PATH_MAX + 16];
static volatile sig_atomic_t out_tmp_set;

static void out_signal(int sig)
{
	if (out_tmp_set)
		unlink(out_tmp);
	/* SA_RESETHAND restored the default: die of @sig once we return */
	raise(sig);
}

static const int out_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

static void out_block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < sizeof(out_signals) / sizeof(out_signals[0]); i++)
		sigaddset(&set, out_signals[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

/*
 * Arms the handler for the temporary file @tmp (NULL: disarms it), with
 * the signals blocked (out_block()).
 */
static void out_arm(const char *tmp)
{
	static bool installed;
	struct sigaction sa = {
		.sa_handler = out_signal,
		.sa_flags = SA_RESETHAND,
	};
	size_t i;

	out_tmp_set = 0;
	if (!tmp)
		return;
	snprintf(out_tmp, sizeof(out_tmp), "%s", tmp);
	out_tmp_set = 1;
	if (installed)
		return;
	sigfillset(&sa.sa_mask);
	for (i = 0; i < sizeof(out_signals) / sizeof(out_signals[0]); i++) {
		struct sigaction cur;

		/* a signal the caller ignores stays ignored */
		if (!sigaction(out_signals[i], NULL, &cur) &&
		    cur.sa_handler == SIG_IGN)
			continue;
		sigaction(out_signals[i], &sa, NULL);
	}
	installed = true;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static void out_error(const struct tool_out *o, int err)
{
	fprintf(stderr, "zbewalgo: %s: %s\n",
		strcmp(o->path, "-") ? o->path : "stdout", strerror(err));
}

/* A device or a pipe: written as it is, nothing there to keep */
static int out_in_place(struct tool_out *o)
{
	o->f = fopen(o->path, "wb");
	if (!o->f) {
		out_error(o, errno);
		return -1;
	}
	return 0;
}

/*
 * Opens output @path ('-': stdout) for writing, as zstd and lz4 do:
 * refused when it is the input (@in, the input's status, or NULL), or
 * exists and @force is not set.  A regular file is written to a
 * temporary file in its directory, which tool_out_close() renames to
 * @path on success and removes otherwise, as does SIGINT, SIGTERM,
 * SIGHUP or SIGPIPE: @path never holds a partial output.  Devices and
 * pipes (/dev/null) are written in place.  Returns 0, or -1 after a
 * message.
 */
int tool_out_open(struct tool_out *o, const char *path, bool force,
		  const struct stat *in)
{
	struct stat st;
	sigset_t old;
	mode_t mask;
	int fd, err;

	memset(o, 0, sizeof(*o));
	o->path = path;
	if (!strcmp(path, "-")) {
		if (in && !fstat(STDOUT_FILENO, &st) && S_ISREG(st.st_mode) &&
		    same_file(&st, in)) {
			fprintf(stderr, "zbewalgo: stdout is the input file: refused\n");
			return -1;
		}
		o->f = stdout;
		return 0;
	}
	if (!stat(path, &st)) {
		if (in && same_file(&st, in)) {
			fprintf(stderr, "zbewalgo: %s: the output is the input file: refused\n",
				path);
			return -1;
		}
		if (S_ISDIR(st.st_mode)) {
			out_error(o, EISDIR);
			return -1;
		}
		if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
			return out_in_place(o);	/* /dev/null, a pipe */
	} else if (errno != ENOENT) {
		out_error(o, errno);
		return -1;
	}
	/* it exists, or is a dangling symbolic link */
	if (!lstat(path, &st)) {
		if (!force) {
			fprintf(stderr, "zbewalgo: %s: already exists (-f, --force overwrites it)\n",
				path);
			return -1;
		}
		if (S_ISBLK(st.st_mode))
			return out_in_place(o);
	}
	if (strlen(path) > PATH_MAX) {
		out_error(o, ENAMETOOLONG);
		return -1;
	}
	o->tmp = malloc(strlen(path) + 8);
	if (!o->tmp) {
		out_error(o, ENOMEM);
		return -1;
	}
	sprintf(o->tmp, "%s.XXXXXX", path);
	/* no signal between creating it and arming the handler */
	out_block(&old);
	fd = mkstemp(o->tmp);
	if (fd >= 0)
		out_arm(o->tmp);
	err = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fd < 0) {
		fprintf(stderr, "zbewalgo: %s: cannot create a temporary file beside it: %s\n",
			path, strerror(err));
		free(o->tmp);
		o->tmp = NULL;
		return -1;
	}
	mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	o->f = fdopen(fd, "wb");
	if (!o->f) {
		out_error(o, errno);
		close(fd);
		tool_out_close(o, false);
		return -1;
	}
	return 0;
}

/* fwrite() to @o, keeping the first error for tool_out_close() */
int tool_out_write(struct tool_out *o, const void *p, size_t n)
{
	if (o->err)
		return -1;
	if (n && fwrite(p, 1, n, o->f) != n) {
		o->err = errno ? errno : EIO;
		return -1;
	}
	return 0;
}

/*
 * Finishes output @o: with @ok, flushes it, and renames the temporary
 * file to its name; otherwise, or when that fails, removes the temporary
 * file.  Returns 0, or -1 after a message (for !@ok only when a write
 * failed: otherwise the caller said why).
 */
int tool_out_close(struct tool_out *o, bool ok)
{
	int err = o->err;
	sigset_t old;

	if (!o->path)
		return ok ? 0 : -1;
	if (o->f) {
		if (fflush(o->f) && !err)
			err = errno;
		if (ok && !err && o->tmp && fsync(fileno(o->f)))
			err = errno;
		if (o->f != stdout && fclose(o->f) && !err)
			err = errno;
		o->f = NULL;
	}
	/* for !@ok, only a failed write: the caller stopped at it */
	if (err && (ok || o->err))
		out_error(o, err);
	ok = ok && !err;
	if (o->tmp) {
		out_block(&old);
		if (ok && rename(o->tmp, o->path)) {
			fprintf(stderr, "zbewalgo: %s: %s\n", o->path,
				strerror(errno));
			ok = false;
		}
		if (!ok)
			unlink(o->tmp);
		out_arm(NULL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		free(o->tmp);
		o->tmp = NULL;
	}
	o->path = NULL;
	return ok ? 0 : -1;
}
