/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zbewalgo bench, shared by its parts: bench.c (pages, measuring, the
 * command line and the run), bench_algos.c (the algorithms and their
 * list), bench_report.c (the tables, CSV and JSON) and
 * bench_recompress.c (the recompress view).
 */
#ifndef ZBEWALGO_TOOL_BENCH_H
#define ZBEWALGO_TOOL_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <zlib.h>

#include <linux/zbewalgo.h>

#include "zbewalgo_tool.h"

struct algo;

/*
 * Compressors return the compressed length, or 0 when the result does not
 * fit the destination (counted as incompressible).  Decompressors return
 * the decompressed length, 0 on any error.
 */
typedef size_t (*comp_fn)(struct algo *a, const void *src, size_t slen,
			  void *dst, size_t cap);
typedef size_t (*decomp_fn)(struct algo *a, const void *src, size_t slen,
			    void *dst, size_t cap);

struct algo {
	const char *name;
	int (*init)(struct algo *a, size_t page);
	void (*fini)(struct algo *a);
	comp_fn comp;
	decomp_fn decomp;
	int level;
	bool raw_only;			/* memcpy: every page stored as is */
	bool opt_in;			/* run only when -a names it */
	bool uses_dict;			/* needs --dict; runs with it */
	const struct zbewalgo_table *table;
	size_t threshold;
	long early_abort;		/* -1: the default */
	char params[2048];		/* settings, as reported in JSON */
	/* per-algorithm state, set up by init() for each measurement */
	void *cstate, *dstate;
	struct zbewalgo_dict *dict;
	z_stream zc, zd;
};

/*
 * Room for one compressed page: some compressors need more than a page of
 * room before they give up on incompressible input
 */
static inline size_t bench_cap(size_t page)
{
	return 2 * page + 64;
}

/*
 * The number of algorithms bench knows, which sizes the arrays of a run;
 * bench_algos.c does not build unless it counts bench_templates.
 */
#define BENCH_NR_TEMPLATES	22

/* An input's pages as zram sees them (bench.c's make_pages()) */
struct pageset {
	unsigned char *data;		/* npages * page bytes */
	size_t npages, same, dups;	/* kept, dropped same-filled, dups */
};

/* The measurements of one algorithm on one input: one record */
struct result {
	const char *file;
	struct algo *algo;
	size_t pages, same, dups, page, threshold;
	/* bytes: original, in zram, plain output, compressed part (s_c) */
	double orig, zram, plain, comp;
	size_t raw_pages;
	/* median seconds: compress, decompress (all), decompress of the
	 * compressed pages only, memcpy of the stored pages only */
	double tc, td, tdc, tdr;
	double eff_c, eff_d, backing;	/* the seed's effective speeds */
	double wmibps, rmibps;		/* backing device speeds */
	bool roundtrip_ok;
	/* bytes in zram of each page, until compared with zstd-3's */
	size_t *sizes;
	/* pages over zstd-3's bytes by more than ZSTD_SLACK, or NAN */
	double worse;
	/* zbewalgo: chains its engine tried, summed over the pages, or NAN */
	double tried;
};

/*
 * A page where zbewalgo keeps more than this many bytes over zstd-3 counts
 * as a regression (the evidence zram's lzo-rle was merged on).
 */
#define ZSTD_SLACK	64

/* The command line. */
struct bench_args {
	const char *alist;		/* -a, NULL: the default set */
	struct zbewalgo_table *table;	/* -c, owned */
	long early_abort;		/* -e, -1: the default */
	bool drop, verbose;
	int reps;
	size_t page, threshold;
	double wmibps, rmibps;		/* the backing device */
	bool csv;
	const char *csv_path;		/* NULL: stdout */
	const char *recomp;		/* --recompress's primaries, or NULL */
	const char *dict_path;		/* --dict, or NULL */
	size_t rthr;
	struct tool_output o;
	char **files;
	size_t nfiles;
};

/* The algorithms of a run, in table order, and --recompress's primaries. */
struct bench_algos {
	struct algo algos[BENCH_NR_TEMPLATES];
	size_t nalgos;
	int lz4_idx;			/* lz4's index, or -1 */
	struct algo prims[BENCH_NR_TEMPLATES];
	size_t nprims;
};

/* A run over the files: the records so far and where the tables go. */
struct bench_run {
	struct result *res;
	int *lz4_of;		/* each record's file's lz4 record, or -1 */
	size_t nres, nfiles;	/* records, files measured */
	FILE *table_out;	/* NULL: no tables */
	int ret;		/* the exit status so far */
};

/* bench.c */
int bench_load_pages(const char *path, size_t page, bool drop,
		     struct pageset *ps);
const char *bench_file_name(const char *path);

/* bench_algos.c */
/* The algorithms bench knows, in table order */
extern const struct algo bench_templates[];
/* --dict's dictionary, or NULL, for the +dict algorithms */
extern const void *bench_dict;
extern size_t bench_dict_len;

const struct algo *bench_find_template(const char *name, size_t len);
bool bench_is_zbewalgo(const struct algo *a);
void bench_describe(struct algo *a);

/* bench_report.c */
void bench_table_intro(FILE *f, const struct bench_args *a);
void bench_file_table(FILE *f, const struct bench_args *a,
		      const struct bench_algos *al, const char *name,
		      const struct pageset *ps, const struct result *fr);
void bench_table_summary(FILE *f, struct result *res, size_t nr,
			 struct algo *algos, size_t nalgos, int lz4_idx,
			 size_t nfiles);
void bench_output(struct bench_args *a, struct bench_run *run);

/* bench_recompress.c */
int bench_recompress_setup(struct bench_args *a, struct bench_algos *al);
int bench_recompress_files(const struct bench_args *a,
			   struct bench_algos *al);

#endif /* ZBEWALGO_TOOL_BENCH_H */
