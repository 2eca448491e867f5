/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zbewalgo tune, shared by its parts: tune.c (the command line and the
 * run), tune_input.c (reading and sampling pages), tune_search.c
 * (measuring chains, replaying the engine, building tables) and
 * tune_report.c (the real measurements and the reports).
 */
#ifndef ZBEWALGO_TOOL_TUNE_H
#define ZBEWALGO_TOOL_TUNE_H

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <lz4.h>
#include <zstd.h>

#include <linux/zbewalgo.h>

#include "zbewalgo_tool.h"
#include "../../lib/zbewalgo/core/search.h"

/*
 * The sample is taken in runs of consecutive pages, as pages of one kind
 * reach zram together.
 */
#define RUN_PAGES	16
#define NO_RESULT	UINT32_MAX
#define SCREEN		0
#define TRAIN		1
#define MAX_TABLE	32
/* Adding a chain must save this share of the bytes; dropping may lose. */
#define MIN_GAIN	0.001
#define DROP_LOSS	0.0005
/* A preset within this share of the recommendation's bytes is as good. */
#define PRESET_SLACK	0.005
/*
 * The default decompression budget: in the model, the default table's
 * time and this share more (the model's decompression times, each page's
 * own, are the coarser); measured, a table that decodes more than
 * DECODE_SLACK slower than the default table (the measurements' noise)
 * gives way to it.
 */
#define DECODE_MODEL_SLACK	0.1
#define DECODE_SLACK	0.05
/* Chains slower than this many times the budget are not extended. */
#define SLOW_FACTOR	4.0
#define POOL_COVER	24
#define POOL_TOP	24

/* ---- inputs ---------------------------------------------------------- */

struct extent {
	unsigned long long off;		/* byte offset of the first page */
	size_t first, n;		/* source pages [first, first + n) */
};

struct source {
	const char *name;
	char pidname[32];
	int fd;				/* -1: @data holds the input */
	unsigned char *data;
	unsigned long long len;		/* bytes; file tails are zero-padded */
	bool mem;			/* process memory: reads may fail */
	struct extent *ext;
	size_t next, cap, npages;
};

struct pageset {
	unsigned char *data;
	size_t n, cap;
	/*
	 * Pages the engine stores at once, without trying a chain, and the
	 * time that took when first seen (the same for every table); pages
	 * it does not probe, which look like a stream of bytes
	 * (zbewalgo_result.plain).
	 */
	bool *prestored;
	float *precost;
	bool *plain;
};

/* ---- the search ---------------------------------------------------------- */

/* One chain measured page by page on one page set. */
/* struct chainres's est: the probe's unsure (struct zbw_probe) */
#define TUNE_EST_UNSURE		BIT(31)

struct chainres {
	uint32_t *size;		/* engine output, or NO_RESULT when stored */
	uint32_t *est;		/* the probe's estimate (zbw_probe()), */
				/* TUNE_EST_UNSURE when it is less sure */
	float *ct, *dt;		/* seconds */
	double zb, tc, td;	/* sums: zram bytes, seconds */
};

struct cand {
	struct zbewalgo_combination comb;
	int prefix[ZBEWALGO_MAX_STEPS];	/* candidate of each prefix, self last */
	struct chainres r[2];		/* SCREEN, TRAIN */
	bool pool;
};

struct simres {
	double zb, tc, td, tried;
};

struct tsel {
	int idx[MAX_TABLE];
	int n;
	uint32_t ea, maxout;
	struct simres r;
	bool ok;
};

struct meas {
	double orig, zram, tc, td;
	size_t stored;
	bool ok;
};

enum kind { K_ZBW, K_LZ4, K_ZSTD };

/* A table or algorithm in the report. */
struct entry {
	const char *name;
	enum kind kind;
	struct zbewalgo_table *table;	/* owned */
	struct zbewalgo_params params;
	int level;			/* preset level, 0 otherwise */
	struct tsel model;		/* zbewalgo: the replayed figures */
	bool have_model;
	struct meas m[2];		/* sample, hold-out */
};

#define NR_EAS	6

struct tuner {
	size_t page, threshold, stored_size;
	struct pageset set[2], hold;
	bool same_sets;
	struct cand *cands;
	size_t ncands, capcands;
	int steps[256], nsteps, huffman, rle;
	struct zbewalgo_ctx *ctx;
	struct zbewalgo_table *one;
	unsigned char *dst, *out;
	struct zbewalgo_ctx *dctx;	/* decompresses, like a zram stream */
	double tcopy;			/* memcpy of one page, seconds */
	double tick;			/* cost of reading the clock */
	uint32_t tol;			/* the default tolerance_shift */
	double budget, dbudget;		/* seconds per page, model */
	int max_table, max_steps, beam, reps;
	bool verbose;
	bool lean;			/* no classic steps (--lean) */
	size_t screened;
	/* greedy history, for the plot */
	struct tsel *hist;
	size_t nhist, caphist;
	uint32_t eas[NR_EAS];
};

struct sampler {
	struct source *src;
	size_t nsrc, *start, total, page;
	bool drop;
	/*
	 * Duplicate detection over both sets: a slot holds 1 + the page's
	 * index, plus HOLD_BIT for the hold-out set (the sets' buffers grow,
	 * so no pointers), 0 when free.
	 */
	struct pageset *sets[2];
	uint64_t *slot;
	size_t nslots;
	size_t same, dups, unreadable;
	size_t same_kept;		/* same-filled pages kept without -d */
};

#define HOLD_BIT	(1ull << 62)

struct report {
	const struct tuner *t;
	struct source *src;
	size_t nsrc, total;
	struct sampler *sp;
	const char *budget_kind;
	double budget_value;
	const char *dbudget_kind;	/* the decompression budget */
	double dbudget_value;
	struct entry *ent;
	int nent, rec, lz4, def, preset_match;
	/*
	 * The search's table's measured decompression time over the default
	 * table's when that was over the default budget: when it gave way
	 * to the default table, or else when it could not (warned about).
	 */
	double decode_fallback, decode_slower;
	struct tsel *sweep;
	int nsweep;
	double search_s;
	bool budget_met;
	int retries;
	double model_vs_real;
};

/* tune.c */
double tune_cpu_now(void);
bool tune_step_classic(unsigned int id);
void *tune_grow(void *p, size_t *cap, size_t need, size_t elem);

/* tune_input.c */
int tune_open_path(struct source *s, const char *path, size_t page);
int tune_open_pid(struct source *s, const char *pidstr, size_t page);
int tune_read_page(const struct source *s, size_t idx, size_t page,
		   unsigned char *buf);
int tune_sample(struct sampler *sp, size_t want_t, size_t want_h,
		struct pageset *train, struct pageset *hold);

/* tune_search.c */
const struct chainres *tune_res_of(const struct tuner *t, int ci, int set);
void tune_run_sim(const struct tuner *t, struct tsel *s);
bool tune_better(const struct tsel *a, const struct tsel *b);
void tune_greedy(struct tuner *t, const struct tsel *start, double cap,
		 struct tsel *res);
int tune_beam_search(struct tuner *t);
int tune_pick_pool(struct tuner *t, const struct zbewalgo_table **seeds,
		   int nseeds);
int tune_tsel_of(struct tuner *t, const struct zbewalgo_table *tab, int set,
		 struct tsel *s);
int tune_replay_seed(struct tuner *t, const struct zbewalgo_table *tab,
		     struct tsel *s);
void tune_table_of(const struct tuner *t, const struct tsel *s,
		   struct zbewalgo_table *tab);

/* tune_report.c */
int tune_measure(struct tuner *t, const struct pageset *ps, struct entry *e,
		 struct meas *m);
void tune_write_json(FILE *f, const void *arg);
void tune_write_text(FILE *f, const struct tuner *t, const struct report *rp);

#endif /* ZBEWALGO_TOOL_TUNE_H */
