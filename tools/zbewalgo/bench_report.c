// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo bench: the output of a run, the tables on stdout and the CSV
 * and JSON records (see bench.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* ---- records: CSV and JSON -------------------------------------------- */

/* Compressions per decompression of the weighted round trip (lzo-rle's) */
#define ROUNDTRIP_COMPRESSIONS	2.25

/*
 * MiB/s of pages through ROUNDTRIP_COMPRESSIONS compressions and one
 * decompression each
 */
static double roundtrip_mibps(const struct result *x)
{
	return tool_mibps(x->orig, ROUNDTRIP_COMPRESSIONS * x->tc + x->td);
}

static void csv_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* One output field: JSON key / CSV column, and its value. */
struct field {
	const char *key;
	int kind;		/* 0 string, 1 number, 2 integer, 3 bool */
	const char *s;
	double v;
};

static size_t record_fields(const struct result *x, const struct result *lz4,
			    struct field *f)
{
	size_t k = 0;

#define S(n, val)	f[k++] = (struct field){ n, 0, val, 0 }
#define N(n, val)	f[k++] = (struct field){ n, 1, NULL, val }
#define I(n, val)	f[k++] = (struct field){ n, 2, NULL, (double)(val) }
#define B(n, val)	f[k++] = (struct field){ n, 3, NULL, (val) }
	S("file", x->file);
	S("algorithm", x->algo->name);
	I("pages", x->pages);
	I("same_filled_dropped", x->same);
	I("duplicates_dropped", x->dups);
	I("page_size", x->page);
	I("threshold", x->threshold);
	N("ratio_zram", x->orig / x->zram);
	N("ratio_plain", x->orig / x->plain);
	N("incompressible_pct", 100.0 * x->raw_pages / x->pages);
	N("compress_mibps", tool_mibps(x->orig, x->tc));
	N("decompress_mibps", tool_mibps(x->orig, x->td));
	N("compress_vs_lz4", lz4 ? tool_mibps(x->orig, x->tc) /
				   tool_mibps(lz4->orig, lz4->tc) : NAN);
	N("decompress_vs_lz4", lz4 ? tool_mibps(x->orig, x->td) /
				     tool_mibps(lz4->orig, lz4->td) : NAN);
	N("roundtrip_mibps", roundtrip_mibps(x));
	N("pages_over_zstd3", x->worse);
	N("tries_per_page", x->tried / x->pages);
	N("eff_compress_mibps", x->eff_c);
	N("eff_decompress_mibps", x->eff_d);
	I("bytes", x->orig);
	I("zram_bytes", x->zram);
	I("plain_bytes", x->plain);
	I("backing_bytes", x->backing);
	N("backing_mibps", x->wmibps);
	N("backing_read_mibps", x->rmibps);
	N("compress_s", x->tc);
	N("decompress_s", x->td);
	B("roundtrip_ok", x->roundtrip_ok);
	S("params", x->algo->params);
#undef S
#undef N
#undef I
#undef B
	return k;
}

#define MAX_FIELDS 32

/* The records of a run; with each its file's lz4 record, or -1. */
struct records {
	struct result *res;
	size_t nr;
	const int *lz4_of;
};

/*
 * The value of field @fl, as JSON and CSV both write it but for strings,
 * which @string quotes, and numbers that are not finite, written @none.
 */
static void put_field(FILE *f, const struct field *fl,
		      void (*string)(FILE *f, const char *s), const char *none)
{
	if (fl->kind == 0)
		string(f, fl->s);
	else if (fl->kind == 1)
		tool_put_num(f, fl->v, "%.6g", none);
	else if (fl->kind == 2)
		fprintf(f, "%.0f", fl->v);
	else
		fputs(fl->v ? "true" : "false", f);
}

static void write_json(FILE *f, const void *arg)
{
	const struct records *rs = arg;
	const struct result *res = rs->res;
	struct field fl[MAX_FIELDS];
	size_t i, k, nf;

	fputs("[", f);
	for (i = 0; i < rs->nr; i++) {
		nf = record_fields(&res[i], rs->lz4_of[i] >= 0 ?
				   &res[rs->lz4_of[i]] : NULL, fl);
		fputs(i ? ",\n  {" : "\n  {", f);
		for (k = 0; k < nf; k++) {
			fprintf(f, "%s\"%s\": ", k ? ", " : "", fl[k].key);
			put_field(f, &fl[k], tool_json_string, "null");
		}
		fputs("}", f);
	}
	fputs("\n]\n", f);
}

static void write_csv(FILE *f, struct result *res, size_t nr,
		      const int *lz4_of)
{
	struct field fl[MAX_FIELDS];
	size_t i, k, nf;

	for (i = 0; i < nr; i++) {
		nf = record_fields(&res[i], lz4_of[i] >= 0 ? &res[lz4_of[i]] :
				   NULL, fl);
		if (!i)
			for (k = 0; k < nf; k++)
				fprintf(f, "%s%s", fl[k].key,
					k + 1 < nf ? "," : "\n");
		for (k = 0; k < nf; k++) {
			put_field(f, &fl[k], csv_string, "");
			fputs(k + 1 < nf ? "," : "\n", f);
		}
	}
}

/* ---- tables ------------------------------------------------------------ */

static void table_header(FILE *f)
{
	fprintf(f, "%-16s %7s %7s %7s %10s %10s %8s %6s %6s %9s %9s %s\n",
		"algorithm", "ratio", "plain", "incomp%", "comp_MiB/s",
		"dec_MiB/s", "rt_MiB/s", "c/lz4", "d/lz4", "eff_comp",
		"eff_dec", "roundtrip");
}

static void table_row(FILE *f, const struct result *x,
		      const struct result *lz4)
{
	double c = tool_mibps(x->orig, x->tc), d = tool_mibps(x->orig, x->td);

	fprintf(f, "%-16s %7.3f %7.3f %7.1f ", x->algo->name,
		x->orig / x->zram, x->orig / x->plain,
		100.0 * x->raw_pages / x->pages);
	tool_put_num(f, c, "%10.1f ", "         - ");
	tool_put_num(f, d, "%10.1f ", "         - ");
	tool_put_num(f, roundtrip_mibps(x), "%8.1f ", "       - ");
	tool_put_num(f, lz4 ? c / tool_mibps(lz4->orig, lz4->tc) : NAN,
		     "%6.2f ", "     - ");
	tool_put_num(f, lz4 ? d / tool_mibps(lz4->orig, lz4->td) : NAN,
		     "%6.2f ", "     - ");
	tool_put_num(f, x->eff_c, "%9.1f ", "        - ");
	tool_put_num(f, x->eff_d, "%9.1f ", "        - ");
	fprintf(f, "%s\n", x->roundtrip_ok ? "ok" : "FAILED");
}

/*
 * Page by page against zstd-3, of the records @res of one file or of the
 * sums: how many pages each zbewalgo keeps in more than ZSTD_SLACK bytes
 * over zstd-3's.
 */
static void worse_line(FILE *f, const struct result *res, size_t n)
{
	const char *sep = "";
	size_t i;

	for (i = 0; i < n; i++) {
		if (isnan(res[i].worse))
			continue;
		if (!*sep)
			fprintf(f, "pages zram keeps in over %d bytes more than zstd-3's:",
				ZSTD_SLACK);
		fprintf(f, "%s %s %.0f", sep, res[i].algo->name, res[i].worse);
		sep = ",";
	}
	if (*sep)
		fprintf(f, " (of %zu)\n", res[0].pages);
	for (i = 0, sep = ""; i < n; i++) {
		if (isnan(res[i].tried))
			continue;
		fprintf(f, "%s%s %.2f", *sep ? ", " : "chains tried per page: ",
			res[i].algo->name, res[i].tried / res[i].pages);
		sep = ",";
	}
	if (*sep)
		fputc('\n', f);
}

/* The heading of the tables: the settings of the run */
void bench_table_intro(FILE *f, const struct bench_args *a)
{
	fprintf(f,
		"# zbewalgo bench: %zu-byte pages, zram threshold %zu, %d reps (median), %s\n"
		"# ratio: zram's rule (results >= threshold count as a page), plain: sizes as produced\n"
		"# c/lz4, d/lz4: speed relative to lz4 in this run; eff_*: the seed's effective speed (its ⊙ columns)\n"
		"#   with a backing device of %.2f MiB/s write, %.2f MiB/s read, mem_limit fitting the best ratio\n"
		"# zbewalgo memory: %zu bytes per context (stream), all allocated when it is created\n",
		a->page, a->threshold, a->reps,
		a->drop ? "same-filled and duplicate pages dropped" :
			  "all pages", a->wmibps, a->rmibps,
		zbewalgo_ctx_size(a->page));
}

/* The table of the results @fr of file @name. */
void bench_file_table(FILE *f, const struct bench_args *a,
		      const struct bench_algos *al, const char *name,
		      const struct pageset *ps, const struct result *fr)
{
	size_t i;

	fprintf(f, "\n== %s: %zu pages", name, ps->npages);
	if (a->drop)
		fprintf(f, " (dropped: %zu same-filled, %zu duplicate)",
			ps->same, ps->dups);
	fprintf(f, " ==\n");
	table_header(f);
	for (i = 0; i < al->nalgos; i++)
		table_row(f, &fr[i],
			  al->lz4_idx >= 0 ? &fr[al->lz4_idx] : NULL);
	worse_line(f, fr, al->nalgos);
	if (f == stdout)
		tool_flush_stdout();	/* says why, once, when it fails */
	else
		fflush(f);
}

/* Per algorithm over all files: sums of bytes and of times. */
void bench_table_summary(FILE *f, struct result *res, size_t nr,
			 struct algo *algos, size_t nalgos, int lz4_idx,
			 size_t nfiles)
{
	struct result *sum = calloc(nalgos, sizeof(*sum));
	size_t i, j, pages = 0;

	if (!sum)
		return;
	for (j = 0; j < nalgos; j++) {
		sum[j].algo = &algos[j];
		sum[j].roundtrip_ok = true;
	}
	for (i = 0; i < nr; i++) {
		struct result *s = &sum[res[i].algo - algos];

		s->pages += res[i].pages;
		s->orig += res[i].orig;
		s->zram += res[i].zram;
		s->plain += res[i].plain;
		s->raw_pages += res[i].raw_pages;
		s->tc += res[i].tc;
		s->td += res[i].td;
		/* effective: add up the times the figures stand for */
		s->eff_c += res[i].orig / MIB / res[i].eff_c;
		s->eff_d += res[i].orig / MIB / res[i].eff_d;
		s->roundtrip_ok &= res[i].roundtrip_ok;
		s->worse = i < nalgos ? res[i].worse : s->worse + res[i].worse;
		s->tried = i < nalgos ? res[i].tried : s->tried + res[i].tried;
	}
	pages = sum[0].pages;
	fprintf(f, "\n== all %zu files: %zu pages; sums of bytes and times ==\n",
		nfiles, pages);
	table_header(f);
	for (j = 0; j < nalgos; j++) {
		sum[j].eff_c = sum[j].orig / MIB / sum[j].eff_c;
		sum[j].eff_d = sum[j].orig / MIB / sum[j].eff_d;
		table_row(f, &sum[j], lz4_idx >= 0 ? &sum[lz4_idx] : NULL);
	}
	worse_line(f, sum, nalgos);
	free(sum);
}

/* ---- the records into their files ------------------------------------ */

/* Closes --csv's FILE @f, @path: 0, or -1 with why */
static int close_out(FILE *f, const char *path)
{
	int bad = ferror(f);

	errno = 0;
	if (!fclose(f) && !bad)
		return 0;
	fprintf(stderr, "zbewalgo: %s: %s\n", path,
		strerror(errno ? errno : EIO));
	return -1;
}

static FILE *open_out(const char *path, FILE **mine)
{
	*mine = NULL;
	if (!path)
		return stdout;
	*mine = tool_open(path, "w");
	return *mine;
}

/* The records as CSV and JSON, and their plot. */
void bench_output(struct bench_args *a, struct bench_run *run)
{
	struct records rs = { run->res, run->nres, run->lz4_of };
	FILE *fout, *mine;

	if (a->csv) {
		if (!(fout = open_out(a->csv_path, &mine))) {
			run->ret = 1;
		} else {
			write_csv(fout, run->res, run->nres, run->lz4_of);
			if (mine && close_out(mine, a->csv_path))
				run->ret = 1;
		}
	}
	if (a->o.plot_path && !run->nres) {
		fprintf(stderr, "zbewalgo: --plot: nothing measured\n");
		a->o.plot_path = NULL;
		run->ret = 1;
	}
	if (tool_write_json(&a->o, write_json, &rs))
		run->ret = 1;
	if (tool_flush_stdout())
		run->ret = 1;
}
