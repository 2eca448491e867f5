/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zbewalgo bench, shared by its parts: bench.c (pages, measuring, the
 * command line and the run) and bench_algos.c (the algorithms and their
 * list).
 */
#ifndef ZBEWALGO_TOOL_BENCH_H
#define ZBEWALGO_TOOL_BENCH_H

#include <stdbool.h>
#include <stddef.h>

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

/* bench_algos.c */

/*
 * The algorithms bench knows, in table order; bench_algos.c does not
 * build unless BENCH_NR_TEMPLATES counts them.
 */
#define BENCH_NR_TEMPLATES	22
extern const struct algo bench_templates[];
/* --dict's dictionary, or NULL, for the +dict algorithms */
extern const void *bench_dict;
extern size_t bench_dict_len;

const struct algo *bench_find_template(const char *name, size_t len);
bool bench_is_zbewalgo(const struct algo *a);
void bench_describe(struct algo *a);

#endif /* ZBEWALGO_TOOL_BENCH_H */
