// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo tune: measuring tables and algorithms for real on the sample
 * and the hold-out set, and the text and JSON reports (see tune.c).
 */
/* zstd's memory estimates of dictionaries */
#define ZSTD_STATIC_LINKING_ONLY
#include <zdict.h>

#include "tune.h"

/* ---- real measurements ------------------------------------------------------ */

/* zram's pool of the pages of one measurement, and its timings. */
struct meas_pool {
	size_t n, page;
	unsigned char *store, *out;	/* the pool; its pages decompressed */
	size_t *clen, *off;		/* of each page; clen 0: the page */
	double *times;			/* seconds of each repetition, */
					/* compression then decompression */
};

/* The compressors of one measurement and their output buffer. */
struct meas_comp {
	unsigned char *tmp;
	size_t cap;
	void *lz4;
	ZSTD_CCtx *zc;
	struct zbewalgo_ctx *ctx;
};

/* A fresh context for @e: every repetition searches alike. */
static int meas_fresh_ctx(struct meas_comp *c, const struct entry *e,
			  size_t page)
{
	zbewalgo_ctx_destroy(c->ctx);
	c->ctx = zbewalgo_ctx_create(page);
	if (!c->ctx)
		return -1;
	zbewalgo_ctx_set_table(c->ctx, e->table);
	zbewalgo_ctx_set_params(c->ctx, &e->params);
	return 0;
}

/* @src compressed by @e into c->tmp: its length, 0 for none. */
static size_t meas_compress_page(struct meas_comp *c, const struct entry *e,
				 const unsigned char *src, size_t page)
{
	size_t len = c->cap;

	if (e->kind == K_ZBW) {
		if (zbewalgo_compress(c->ctx, src, page, c->tmp, &len))
			len = 0;
	} else if (e->kind == K_LZ4) {
		len = tool_lz4_compress(c->lz4, src, page, c->tmp, c->cap, 1);
	} else {
		len = tool_zstd_compress(c->zc, src, page, c->tmp, c->cap, 3);
	}
	return len;
}

/* Every page into zram's pool, t->reps times, each pass timed. */
static int meas_compress(const struct tuner *t, const struct pageset *ps,
			 const struct entry *e, struct meas_pool *p)
{
	struct meas_comp c = { .cap = 2 * p->page + 64 };
	size_t i, pos;
	int k, ret = -1;
	double t0;

	c.tmp = malloc(c.cap);
	c.lz4 = malloc(LZ4_sizeofState());
	c.zc = ZSTD_createCCtx();
	if (!c.tmp || !c.lz4 || !c.zc)
		goto out;
	for (k = 0; k < t->reps; k++) {
		if (e->kind == K_ZBW && meas_fresh_ctx(&c, e, p->page))
			goto out;
		t0 = tune_cpu_now();
		for (i = 0, pos = 0; i < p->n; i++) {
			const unsigned char *src = ps->data + i * p->page;
			size_t len = meas_compress_page(&c, e, src, p->page);

			p->off[i] = pos;
			p->clen[i] = tool_zram_store(p->store, &pos, src,
						     c.tmp, len, p->page,
						     t->threshold);
		}
		p->times[k] = tune_cpu_now() - t0;
	}
	ret = 0;
out:
	zbewalgo_ctx_destroy(c.ctx);
	ZSTD_freeCCtx(c.zc);
	free(c.lz4);
	free(c.tmp);
	return ret;
}

/* Page @i of the pool decompressed by @e into @d: its length. */
static size_t meas_decompress_page(struct tuner *t, ZSTD_DCtx *zd,
				   const struct meas_pool *p,
				   const struct entry *e, size_t i,
				   unsigned char *d)
{
	const unsigned char *src = p->store + p->off[i];
	size_t got = p->page;

	if (e->kind == K_ZBW) {
		if (zbewalgo_ctx_decompress(t->dctx, src, p->clen[i], d,
					    &got))
			got = 0;
	} else if (e->kind == K_LZ4) {
		got = tool_lz4_decompress(src, p->clen[i], d, p->page);
	} else {
		got = tool_zstd_decompress(zd, src, p->clen[i], d, p->page);
	}
	return got;
}

/*
 * Every page back out of the pool, t->reps times, each pass timed;
 * m->ok is cleared when a page does not come back whole.
 */
static int meas_decompress(struct tuner *t, const struct pageset *ps,
			   const struct entry *e, struct meas_pool *p,
			   struct meas *m)
{
	ZSTD_DCtx *zd = ZSTD_createDCtx();
	size_t i, page = p->page;
	double t0;
	int k;

	if (!zd)
		return -1;
	for (k = 0; k < t->reps; k++) {
		memset(p->out, k & 1 ? 0x00 : 0xff, p->n * page);
		t0 = tune_cpu_now();
		for (i = 0; i < p->n; i++) {
			unsigned char *d = p->out + i * page;

			if (!p->clen[i]) {
				memcpy(d, p->store + p->off[i], page);
				continue;
			}
			if (meas_decompress_page(t, zd, p, e, i, d) != page)
				m->ok = false;
		}
		p->times[t->reps + k] = tune_cpu_now() - t0;
		if (memcmp(p->out, ps->data, p->n * page))
			m->ok = false;
	}
	ZSTD_freeDCtx(zd);
	return 0;
}

/* The sizes in zram and the median times into @m. */
static void meas_sum(const struct tuner *t, const struct meas_pool *p,
		     struct meas *m)
{
	size_t i;

	m->orig = (double)p->n * p->page;
	for (i = 0; i < p->n; i++) {
		m->zram += p->clen[i] ? p->clen[i] : p->page;
		m->stored += !p->clen[i];
	}
	m->tc = tool_median(p->times, t->reps);
	m->td = tool_median(p->times + t->reps, t->reps);
}

int tune_measure(struct tuner *t, const struct pageset *ps, struct entry *e,
		 struct meas *m)
{
	size_t n = ps->n, page = t->page;
	struct meas_pool p = {
		.n = n, .page = page,
		.store = malloc(n * page + 1), .out = malloc(n * page + 1),
		.clen = calloc(n + 1, sizeof(*p.clen)),
		.off = calloc(n + 1, sizeof(*p.off)),
		.times = calloc(2 * t->reps, sizeof(double)),
	};
	int ret = -1;

	memset(m, 0, sizeof(*m));
	m->ok = true;
	if (p.store && p.out && p.clen && p.off && p.times &&
	    !meas_compress(t, ps, e, &p) && !meas_decompress(t, ps, e, &p, m)) {
		meas_sum(t, &p, m);
		ret = 0;
	}
	free(p.times);
	free(p.off);
	free(p.clen);
	free(p.out);
	free(p.store);
	return ret;
}

/* ---- output ----------------------------------------------------------------- */

static double ratio(const struct meas *m)
{
	return m->zram ? m->orig / m->zram : NAN;
}

/*
 * The per-device lines that apply a table or a level, as they are pasted:
 * zram's algorithm_params by hand, util-linux 2.41's zramctl and
 * zram-generator's compression-algorithm (1.2.0 and later).  The table
 * goes in one word, its combinations separated by ';' (which the table
 * parser takes like a space): zram-generator splits its value at white
 * space into algorithms and turns the commas between the parentheses into
 * spaces, and its ini parser drops quotes.
 */
struct apply_lines {
	char sysfs[32768 + 256], zramctl[32768 + 256], generator[32768 + 256];
};

/*
 * The lines for @e's table and thresholds, or for preset @level alone
 * (its table with the default thresholds, as the report compared it).
 */
static void apply_lines(const struct entry *e, int level,
			struct apply_lines *l)
{
	static char tab[32768];
	char keys[2][32768 + 128];
	int k;

	if (!level)
		tool_table_line(e->table, ';', tab, sizeof(tab));
	for (k = 0; k < 2; k++) {
		char sep = k ? ',' : ' ';

		if (level)
			snprintf(keys[k], sizeof(keys[k]), "level=%d", level);
		else
			snprintf(keys[k], sizeof(keys[k]),
				 "zbewalgo.table=%s%czbewalgo.early_abort_size=%u%czbewalgo.max_output_size=%u",
				 tab, sep, e->params.early_abort_size, sep,
				 e->params.max_output_size);
	}
	snprintf(l->sysfs, sizeof(l->sysfs),
		 "echo 'algo=zbewalgo %s' > /sys/block/zram0/algorithm_params",
		 keys[0]);
	snprintf(l->zramctl, sizeof(l->zramctl),
		 "zramctl --find --size 4G --algorithm zbewalgo --algorithm-params '%s'",
		 keys[0]);
	snprintf(l->generator, sizeof(l->generator),
		 "compression-algorithm = zbewalgo(%s)", keys[1]);
}

/*
 * The classic steps @tab names (CONFIG_ZBEWALGO_CLASSIC_STEPS), in id
 * order, into @ids: how many.
 */
static int classic_steps(const struct zbewalgo_table *tab, unsigned int *ids)
{
	bool named[256] = { false };
	unsigned int i, id;
	int k, n = 0;

	for (i = 0; i < tab->nr; i++)
		for (k = 0; k < tab->comb[i].nr_steps; k++)
			named[tab->comb[i].ids[k]] = true;
	for (id = 1; id < 256; id++)
		if (named[id] && tune_step_classic(id))
			ids[n++] = id;
	return n;
}

static void json_num(FILE *f, const char *key, double v, bool comma)
{
	fprintf(f, "\"%s\": ", key);
	tool_put_num(f, v, "%.6g", "null");
	if (comma)
		fputs(", ", f);
}

static void json_meas(FILE *f, const char *key, const struct meas *m,
		      const struct meas *lz4, bool comma)
{
	fprintf(f, "\"%s\": ", key);
	if (!m->orig) {
		fputs("null", f);
	} else {
		fputs("{", f);
		json_num(f, "ratio", ratio(m), true);
		json_num(f, "compress_mibps", tool_mibps(m->orig, m->tc), true);
		json_num(f, "decompress_mibps", tool_mibps(m->orig, m->td), true);
		json_num(f, "compress_vs_lz4", lz4->tc / m->tc, true);
		json_num(f, "decompress_vs_lz4", lz4->td / m->td, true);
		json_num(f, "stored_pages", m->stored, true);
		fprintf(f, "\"roundtrip_ok\": %s}", m->ok ? "true" : "false");
	}
	if (comma)
		fputs(", ", f);
}

static void json_model(FILE *f, const struct tuner *t, const struct tsel *s,
		       const struct meas *lz4)
{
	size_t n = t->set[TRAIN].n;

	fputs("{", f);
	json_num(f, "ratio", n * (double)t->page / s->r.zb, true);
	json_num(f, "compress_vs_lz4", lz4->tc / s->r.tc, true);
	json_num(f, "decompress_vs_lz4", lz4->td / s->r.td, true);
	json_num(f, "us_per_page", s->r.tc / n * 1e6, true);
	json_num(f, "tries_per_page", s->r.tried / n, true);
	json_num(f, "early_abort_size", s->ea, true);
	json_num(f, "max_output_size", s->maxout, true);
	fprintf(f, "\"within_budget\": %s}", s->ok ? "true" : "false");
}

/* The sysfs writes that apply the recommendation, one per line or string. */
static void write_commands(FILE *f, const struct report *rp, bool json)
{
	const struct entry *e = &rp->ent[rp->rec];
	static char line[32768], cmd[3][32768 + 64];
	int i;

	tool_table_line(e->table, ' ', line, sizeof(line));
	snprintf(cmd[0], sizeof(cmd[0]),
		 "echo 'set %s' > /sys/kernel/zbewalgo/combinations", line);
	snprintf(cmd[1], sizeof(cmd[1]),
		 "echo %u > /sys/kernel/zbewalgo/early_abort_size",
		 e->params.early_abort_size);
	snprintf(cmd[2], sizeof(cmd[2]),
		 "echo %u > /sys/kernel/zbewalgo/max_output_size",
		 e->params.max_output_size);
	for (i = 0; i < 3; i++) {
		if (json) {
			fputs(i ? ", " : "", f);
			tool_json_string(f, cmd[i]);
		} else {
			fprintf(f, "  %s\n", cmd[i]);
		}
	}
}

/* The inputs, the page sizes and how many pages went where. */
static void json_inputs(FILE *f, const struct report *rp)
{
	const struct tuner *t = rp->t;
	size_t i;

	fputs("  \"inputs\": [", f);
	for (i = 0; i < rp->nsrc; i++) {
		fputs(i ? ", " : "", f);
		tool_json_string(f, rp->src[i].name);
	}
	fprintf(f, "],\n  \"page_size\": %zu, \"threshold\": %zu, \"pages\": %zu,\n",
		t->page, t->threshold, rp->total);
	fprintf(f, "  \"sample_pages\": %zu, \"holdout_pages\": %zu, \"screen_pages\": %zu,\n",
		t->set[TRAIN].n, t->hold.n, t->set[SCREEN].n);
	fprintf(f, "  \"same_filled_dropped\": %zu, \"duplicates_dropped\": %zu, \"same_filled_kept\": %zu, \"unreadable\": %zu,\n",
		rp->sp->same, rp->sp->dups, rp->sp->same_kept, rp->sp->unreadable);
}

/* The budget, whether the recommendation met it, and the search. */
static void json_budget(FILE *f, const struct report *rp)
{
	const struct tuner *t = rp->t;

	fputs("  \"budget\": {\"kind\": ", f);
	tool_json_string(f, rp->budget_kind);
	fputs(", ", f);
	json_num(f, "value", rp->budget_value, true);
	json_num(f, "us_per_page", t->budget * 1e6, true);
	json_num(f, "decompress_us_per_page", t->dbudget * 1e6, true);
	fputs("\"decompress_kind\": ", f);
	tool_json_string(f, rp->dbudget_kind);
	fputs(", ", f);
	json_num(f, "decompress_value", rp->dbudget_value, true);
	json_num(f, "decompress_fallback", rp->decode_fallback, true);
	json_num(f, "decompress_slower", rp->decode_slower, true);
	fprintf(f, "\"met\": %s, \"retries\": %d},\n",
		rp->budget_met ? "true" : "false", rp->retries);
	fprintf(f, "  \"chains_screened\": %zu, \"search_s\": %.3f,\n",
		t->screened, rp->search_s);
}

/* One table or algorithm measured, its members without the braces. */
static void json_entry(FILE *f, const struct tuner *t, const struct entry *e,
		       const struct meas *lz4, const struct meas *lz4h)
{
	char line[32768];

	fputs("\"name\": ", f);
	tool_json_string(f, e->name);
	fputs(", ", f);
	if (e->kind == K_ZBW) {
		tool_table_line(e->table, ' ', line, sizeof(line));
		fputs("\"table\": ", f);
		tool_json_string(f, line);
		fprintf(f, ", \"chains\": %u, \"early_abort_size\": %u, \"max_output_size\": %u, ",
			e->table->nr, e->params.early_abort_size,
			e->params.max_output_size);
		if (e->level)
			fprintf(f, "\"level\": %d, ", e->level);
	}
	if (e->have_model) {
		fputs("\"model\": ", f);
		json_model(f, t, &e->model, lz4);
		fputs(", ", f);
	}
	json_meas(f, "sample", &e->m[0], lz4, true);
	json_meas(f, "holdout", &e->m[1], lz4h, false);
}

static void json_results(FILE *f, const struct report *rp)
{
	const struct meas *lz4 = rp->ent[rp->lz4].m;
	int k;

	fputs("  \"results\": [", f);
	for (k = 0; k < rp->nent; k++) {
		fputs(k ? ",\n    {" : "\n    {", f);
		json_entry(f, rp->t, &rp->ent[k], &lz4[0], &lz4[1]);
		fputs("}", f);
	}
	fputs("\n  ],\n", f);
}

/* Every chain measured, on the sample or else on the screening set. */
static void json_candidates(FILE *f, const struct tuner *t,
			    const struct meas *lz4)
{
	char line[32768];
	size_t i;
	int k = 0;

	fputs("  \"candidates\": [", f);
	for (i = 0; i < t->ncands; i++) {
		const struct cand *c = &t->cands[i];
		int set = c->r[TRAIN].size ? TRAIN : SCREEN;
		const struct chainres *r = tune_res_of(t, i, set);
		size_t n = t->set[set].n;

		if (!r->size)
			continue;
		zbewalgo_combination_format(&c->comb, line, sizeof(line));
		fputs(k++ ? ",\n    {" : "\n    {", f);
		fputs("\"chain\": ", f);
		tool_json_string(f, line);
		fprintf(f, ", \"set\": \"%s\", ",
			set == TRAIN ? "sample" : "screen");
		json_num(f, "ratio", n * (double)t->page / r->zb, true);
		json_num(f, "compress_vs_lz4",
			 lz4->tc / t->set[TRAIN].n * n / r->tc, true);
		json_num(f, "decompress_vs_lz4",
			 lz4->td / t->set[TRAIN].n * n / r->td, true);
		fprintf(f, "\"pool\": %s}", c->pool ? "true" : "false");
	}
	fputs("\n  ],\n", f);
}

/* The tables the greedy search went through, in order. */
static void json_tables(FILE *f, const struct tuner *t,
			const struct meas *lz4)
{
	char line[32768];
	size_t i;

	fputs("  \"tables\": [", f);
	for (i = 0; i < t->nhist; i++) {
		struct zbewalgo_table tab;

		tune_table_of(t, &t->hist[i], &tab);
		tool_table_line(&tab, ' ', line, sizeof(line));
		fputs(i ? ",\n    {" : "\n    {", f);
		fputs("\"table\": ", f);
		tool_json_string(f, line);
		fputs(", \"model\": ", f);
		json_model(f, t, &t->hist[i], lz4);
		fputs("}", f);
	}
	fputs("\n  ],\n", f);
}

static void json_thresholds(FILE *f, const struct report *rp,
			    const struct meas *lz4)
{
	int k;

	fputs("  \"thresholds\": [", f);
	for (k = 0; k < rp->nsweep; k++) {
		fputs(k ? ",\n    " : "\n    ", f);
		json_model(f, rp->t, &rp->sweep[k], lz4);
	}
	fputs("\n  ],\n", f);
}

/* The per-device lines as the object @key. */
static void json_apply(FILE *f, const char *key, const struct entry *e,
		       int level)
{
	static struct apply_lines l;

	apply_lines(e, level, &l);
	fprintf(f, "\"%s\": {", key);
	if (level)
		fprintf(f, "\"level\": %d, ", level);
	fputs("\"algorithm_params\": ", f);
	tool_json_string(f, l.sysfs);
	fputs(", \"zramctl\": ", f);
	tool_json_string(f, l.zramctl);
	fputs(", \"zram_generator\": ", f);
	tool_json_string(f, l.generator);
	fputs("}", f);
}

static void json_recommendation(FILE *f, const struct report *rp)
{
	const struct entry *rec = &rp->ent[rp->rec];
	unsigned int ids[256];
	char line[32768];
	int k, n;

	tool_table_line(rec->table, ' ', line, sizeof(line));
	fputs("  \"recommendation\": {\"table\": ", f);
	tool_json_string(f, line);
	fprintf(f, ", \"early_abort_size\": %u, \"max_output_size\": %u, ",
		rec->params.early_abort_size, rec->params.max_output_size);
	if (rp->preset_match)
		fprintf(f, "\"preset_level\": %d, ", rp->preset_match);
	else
		fputs("\"preset_level\": null, ", f);
	fputs("\"commands\": [", f);
	write_commands(f, rp, true);
	fputs("],\n    ", f);
	json_apply(f, "device", rec, 0);
	fputs(",\n    ", f);
	if (rp->preset_match)
		json_apply(f, "level", rec, rp->preset_match);
	else
		fputs("\"level\": null", f);
	fprintf(f, ",\n    \"lean\": %s, \"classic_steps\": [",
		rp->t->lean ? "true" : "false");
	n = classic_steps(rec->table, ids);
	for (k = 0; k < n; k++) {
		fputs(k ? ", " : "", f);
		tool_json_string(f, zbewalgo_step_name(ids[k]));
	}
	fputs("]}\n", f);
}

void tune_write_json(FILE *f, const void *arg)
{
	const struct report *rp = arg;
	const struct meas *lz4 = &rp->ent[rp->lz4].m[0];

	fputs("{\n", f);
	json_inputs(f, rp);
	json_budget(f, rp);
	json_results(f, rp);
	json_candidates(f, rp->t, lz4);
	json_tables(f, rp->t, lz4);
	json_thresholds(f, rp, lz4);
	json_recommendation(f, rp);
	fputs("}\n", f);
}

static void text_row(FILE *f, const struct entry *e, const struct entry *lz4)
{
	const struct meas *m = &e->m[0], *h = &e->m[1];

	fprintf(f, "%-13s ", e->name);
	if (e->kind == K_ZBW)
		fprintf(f, "%6u ", e->table->nr);
	else
		fprintf(f, "%6s ", "-");
	fprintf(f, "%7.3f ", ratio(m));
	tool_put_num(f, tool_mibps(m->orig, m->tc), "%9.1f ", "        - ");
	fprintf(f, "%6.3f ", lz4->m[0].tc / m->tc);
	tool_put_num(f, tool_mibps(m->orig, m->td), "%9.1f ", "        - ");
	fprintf(f, "%6.3f ", lz4->m[0].td / m->td);
	if (h->orig) {
		fprintf(f, "%7.3f %6.3f %6.3f ", ratio(h),
			lz4->m[1].tc / h->tc, lz4->m[1].td / h->td);
	} else {
		fprintf(f, "%7s %6s %6s ", "-", "-", "-");
	}
	fprintf(f, "%s\n", m->ok && (!h->orig || h->ok) ? "ok" : "FAILED");
}

/* The inputs, the sampling and the pages left out. */
static void text_inputs(FILE *f, const struct tuner *t,
			const struct report *rp)
{
	fprintf(f, "# zbewalgo tune: %zu input%s, %zu pages of %zu bytes, zram threshold %zu\n",
		rp->nsrc, rp->nsrc == 1 ? "" : "s", rp->total, t->page,
		t->threshold);
	fprintf(f, "# sample %zu pages in runs of %d, hold-out %zu other pages, screening %zu",
		t->set[TRAIN].n, RUN_PAGES, t->hold.n, t->set[SCREEN].n);
	if (rp->sp->unreadable)
		fprintf(f, "; %zu unreadable skipped", rp->sp->unreadable);
	fputc('\n', f);
	if (rp->sp->drop)
		fprintf(f, "# dropped %zu same-filled and %zu duplicate pages (zram stores same-filled pages\n#   as one word without compressing them)\n",
			rp->sp->same, rp->sp->dups);
	else if (rp->sp->same_kept)
		fprintf(f, "# %zu sampled pages are same-filled: zram stores those as one word without\n#   compressing them; -d leaves them out\n",
			rp->sp->same_kept);
}

/* The budget, whether the recommendation met it, and the search. */
static void text_budget(FILE *f, const struct tuner *t,
			const struct report *rp)
{
	fprintf(f, "# budget: %s", rp->budget_kind);
	if (rp->budget_value > 0 &&
	    strcmp(rp->budget_kind, "as fast as the default table"))
		fprintf(f, " %g", rp->budget_value);
	if (isfinite(t->budget))
		fprintf(f, ", %.1f us/page in the model", t->budget * 1e6);
	if (rp->retries)
		fprintf(f, " (%d correction%s: the first choice measured slower than the model)",
			rp->retries, rp->retries > 1 ? "s" : "");
	fprintf(f, "%s\n", rp->budget_met ? "" : " -- NOT MET, see below");
	fprintf(f, "# decompression budget: %s", rp->dbudget_kind);
	if (rp->dbudget_value > 0 &&
	    strcmp(rp->dbudget_kind, "as fast as the default table"))
		fprintf(f, " %g", rp->dbudget_value);
	if (isfinite(t->dbudget))
		fprintf(f, ", %.1f us/page in the model", t->dbudget * 1e6);
	fputc('\n', f);
	fprintf(f, "# search: %zu chains screened (up to %d steps, beam %d), %.1f s\n",
		t->screened, t->max_steps, t->beam, rp->search_s);
}

/* A row per table or algorithm, on the sample and the hold-out. */
static void text_results(FILE *f, const struct report *rp)
{
	int k;

	fprintf(f, "\n%-13s %6s %7s %9s %6s %9s %6s %7s %6s %6s\n", "",
		"", "", "-- sample", "", "", "", "-- hold-out", "", "");
	fprintf(f, "%-13s %6s %7s %9s %6s %9s %6s %7s %6s %6s %s\n", "name",
		"chains", "ratio", "comp_MiB/s", "c/lz4", "dec_MiB/s",
		"d/lz4", "ratio", "c/lz4", "d/lz4", "roundtrip");
	for (k = 0; k < rp->nent; k++)
		text_row(f, &rp->ent[k], &rp->ent[rp->lz4]);
}

/* The recommendation against the default table, @def, when measured. */
static void text_vs_default(FILE *f, const struct entry *rec,
			    const struct entry *def)
{
	double hold_rel, samp_rel;

	if (def)
		fprintf(f, "vs the default table on the sample: ratio %+.1f%%, compression speed x%.2f, decompression speed x%.2f\n",
			100.0 * (ratio(&rec->m[0]) / ratio(&def->m[0]) - 1),
			def->m[0].tc / rec->m[0].tc,
			def->m[0].td / rec->m[0].td);
	/*
	 * Behind the default on other pages though not (or less) on the
	 * sample: gains shrinking on a hold-out are normal, losses are not.
	 */
	hold_rel = rec->m[1].orig && def ? ratio(&rec->m[1]) /
					   ratio(&def->m[1]) : 1;
	samp_rel = def ? ratio(&rec->m[0]) / ratio(&def->m[0]) : 1;
	if (hold_rel < (samp_rel < 1 ? samp_rel : 1) * (1 - 2 * PRESET_SLACK))
		fprintf(f, "WARNING: on the hold-out pages it falls behind the default table (ratio %.3f vs %.3f)\n"
			"more than on the sample: the sample may not represent the input; try a larger --sample.\n",
			ratio(&rec->m[1]), ratio(&def->m[1]));
}

static void text_recommendation(FILE *f, const struct tuner *t,
				const struct report *rp)
{
	const struct entry *rec = &rp->ent[rp->rec], *def = NULL;
	size_t n = t->set[TRAIN].n;
	unsigned int ids[256];
	char line[32768];
	int k, nc;

	for (k = 0; k < rp->nent; k++)
		if (!strcmp(rp->ent[k].name, "default"))
			def = &rp->ent[k];
	fprintf(f, "\nRecommended table (early_abort_size %u, max_output_size %u",
		rec->params.early_abort_size, rec->params.max_output_size);
	fprintf(f, "; model: %.2f tries/page, %.1f us/page):\n",
		rec->model.r.tried / n, rec->model.r.tc / n * 1e6);
	zbewalgo_table_format(rec->table, line, sizeof(line));
	for (k = 0; line[k]; k++) {
		if (!k || line[k - 1] == '\n')
			fputs("  ", f);
		fputc(line[k], f);
	}
	text_vs_default(f, rec, def);
	if (rp->decode_fallback)
		fprintf(f, "(The search's table decompressed x%.2f slower than the default table when\n"
			"measured, so the default table it is; --min-dspeed sets another budget.)\n",
			rp->decode_fallback);
	if (rp->decode_slower)
		fprintf(f, "WARNING: measured, it decompresses x%.2f slower than the default table, which\n"
			"is over the budget or has more chains than -k allows.\n",
			rp->decode_slower);
	nc = classic_steps(rec->table, ids);
	if (!nc)
		return;
	fputs("WARNING: the table names ", f);
	for (k = 0; k < nc; k++)
		fprintf(f, "%s%s", k ? ", " : "", zbewalgo_step_name(ids[k]));
	fputs(", which a kernel has only with\n"
	      "CONFIG_ZBEWALGO_CLASSIC_STEPS=y (off by default; the DKMS modules have them);\n"
	      "one without refuses the table.  --lean searches without them.\n", f);
}

/* The model of the recommended table for each pair of thresholds. */
static void text_thresholds(FILE *f, const struct tuner *t,
			    const struct report *rp)
{
	size_t n = t->set[TRAIN].n;
	int k;

	fputs("\nThresholds for this table (model on the sample; * over budget):\n", f);
	fprintf(f, "  %-17s", "early_abort_size");
	for (k = 0; k < rp->nsweep && rp->sweep[k].ea == rp->sweep[0].ea; k++)
		fprintf(f, "  max_output_size %-5u", rp->sweep[k].maxout);
	fputs("\n", f);
	for (k = 0; k < rp->nsweep; k++) {
		const struct tsel *s = &rp->sweep[k];

		if (!k || s->ea != s[-1].ea)
			fprintf(f, "%s  %-17u", k ? "\n" : "", s->ea);
		fprintf(f, "  ratio %.3f %5.0fus%s", n * (double)t->page / s->r.zb,
			s->r.tc / n * 1e6, s->ok ? " " : "*");
	}
	fputc('\n', f);
}

/* The per-device lines of @l, indented. */
static void text_lines(FILE *f, const struct apply_lines *l)
{
	fprintf(f, "  %s\n", l->sysfs);
	fputs("With util-linux 2.41's zramctl (sets a free device up):\n", f);
	fprintf(f, "  %s\n", l->zramctl);
	fputs("With zram-generator 1.2 or later, in /etc/systemd/zram-generator.conf\n"
	      "under [zram0]:\n", f);
	fprintf(f, "  %s\n", l->generator);
}

/* The lines to apply it, a preset as good, and how to check it. */
static void text_apply(FILE *f, const struct tuner *t,
		       const struct report *rp)
{
	const struct entry *rec = &rp->ent[rp->rec];
	static struct apply_lines l;
	char line[32768];

	fputs("\nApply it (as root; global: zswap takes it at its next page, zram devices\n"
	      "without a level or zbewalgo.* keys when they are next set up):\n", f);
	write_commands(f, rp, false);
	fputs("Or for one zram device only (6.12+ with zbewalgo's zram patch; the shared\n"
	      "settings stay as they are), after comp_algorithm and before disksize:\n", f);
	apply_lines(rec, 0, &l);
	text_lines(f, &l);
	fputs("  (As a secondary, compression-algorithm = lz4 zbewalgo(...), the parentheses\n"
	      "  hold recompress's parameters, type=huge or threshold=N, which zram-generator\n"
	      "  writes to recompress at setup: a secondary zbewalgo uses the shared\n"
	      "  settings, the echo lines above.)\n", f);
	if (rp->preset_match) {
		fprintf(f, "Preset level %d is as good (within %.1f%% of the bytes, with the default\n"
			"thresholds%s):\n", rp->preset_match, 100 * PRESET_SLACK,
			rp->preset_match == 3 && !t->lean ?
			"; without CONFIG_ZBEWALGO_CLASSIC_STEPS level 3 has fewer chains" :
			"");
		apply_lines(rec, rp->preset_match, &l);
		text_lines(f, &l);
	}
	tool_table_line(rec->table, ' ', line, sizeof(line));
	fprintf(f, "Check it on the whole input: zbewalgo bench -c '%s'", line);
	if (rec->params.early_abort_size != t->page / 8)
		fprintf(f, " -e %u", rec->params.early_abort_size);
	fputs(" FILE...\n", f);
}

/* A dictionary of at most this size is tried; zram's own advice. */
#define DICT_SIZE	32768

/* zram's bytes of @set's pages compressed by @ctx */
static double dict_bytes(const struct tuner *t, struct zbewalgo_ctx *ctx,
			 const struct pageset *set)
{
	double sum = 0;
	size_t i, len;

	for (i = 0; i < set->n; i++) {
		len = t->stored_size;
		if (zbewalgo_compress(ctx, set->data + i * t->page, t->page,
				      t->dst, &len) || len >= t->threshold)
			len = t->page;
		sum += len;
	}
	return sum;
}

/* zstd's level for each zbewalgo level, with a dictionary or without */
static const int zstd_level[ZBEWALGO_MAX_LEVEL + 1] = { 0, -1, 3, 7 };

/*
 * zram's dict=: a dictionary trained on the sample, the recommended
 * table with it and without on the hold-out pages, and whether what it
 * saves on this input pays for its memory in a device.
 */
static void text_dict(FILE *f, const struct tuner *t,
		      const struct report *rp)
{
	const struct entry *rec = &rp->ent[rp->rec];
	const struct pageset *tr = &t->set[TRAIN];
	const struct pageset *ho = t->hold.n ? &t->hold : tr;
	int level = rec->level ?: ZBEWALGO_DEFAULT_LEVEL;
	size_t *sizes = calloc(tr->n ?: 1, sizeof(*sizes));
	void *dict = malloc(DICT_SIZE);
	struct zbewalgo_ctx *ctx = zbewalgo_ctx_create_for(t->page, NULL, 0,
							   true);
	struct zbewalgo_dict *zd = NULL;
	double with, without, saved, mem;
	size_t i, len = 0;
	char line[32768];

	fputs("\nA dictionary (zram's dict=, 6.12+):\n", f);
	if (!sizes || !dict || !ctx)
		goto out;
	for (i = 0; i < tr->n; i++)
		sizes[i] = t->page;
	len = ZDICT_trainFromBuffer(dict, DICT_SIZE, tr->data, sizes, tr->n);
	if (ZDICT_isError(len) ||
	    zbewalgo_dict_create(dict, len, level, t->page, &zd)) {
		fprintf(f, "  none can be trained on the sample (%s): not worth one.\n",
			ZDICT_isError(len) ? ZDICT_getErrorName(len) :
			"not a dictionary");
		goto out;
	}
	zbewalgo_ctx_set_table(ctx, rec->table);
	zbewalgo_ctx_set_params(ctx, &rec->params);
	zbewalgo_ctx_set_level(ctx, level);
	without = dict_bytes(t, ctx, ho);
	zbewalgo_ctx_set_dict(ctx, zd);
	with = dict_bytes(t, ctx, ho);
	zbewalgo_ctx_set_dict(ctx, NULL);
	/*
	 * One copy and zstd's tables over it, per device, at the zstd level
	 * of the zbewalgo level (lib/zbewalgo/core/zstd.c)
	 */
	mem = len + ZSTD_estimateCDictSize_advanced(len,
			ZSTD_getCParams(zstd_level[level], t->page, len),
			ZSTD_dlm_byRef) +
	      ZSTD_estimateDDictSize(len, ZSTD_dlm_byRef);
	saved = (without - with) / ho->n * rp->total;
	fprintf(f, "  trained on the sample (%zu bytes), on the hold-out pages the table\n"
		"  above stores %.1f%% %s with it (ratio %.3f against %.3f); on this input's\n"
		"  %zu pages that is %.0f KiB against %.0f KiB of memory per device for it:\n",
		len, 100.0 * fabs(without - with) / without,
		with <= without ? "less" : "more",
		ho->n * (double)t->page / with,
		ho->n * (double)t->page / without, rp->total, saved / 1024,
		mem / 1024);
	if (saved <= mem) {
		fputs("  not worth it here.\n", f);
		goto out;
	}
	tool_table_line(rec->table, ';', line, sizeof(line));
	fprintf(f, "  worth it.  Train one on the whole input and give it to the device\n"
		"  (after comp_algorithm, before disksize):\n"
		"  zbewalgo train-dict -o /etc/zram-dict INPUT...\n"
		"  echo 'algo=zbewalgo zbewalgo.table=%s zbewalgo.early_abort_size=%u zbewalgo.max_output_size=%u dict=/etc/zram-dict' \\\n"
		"      > /sys/block/zram0/algorithm_params\n",
		line, rec->params.early_abort_size,
		rec->params.max_output_size);
out:
	zbewalgo_ctx_destroy(ctx);
	zbewalgo_dict_destroy(zd);
	free(dict);
	free(sizes);
}

void tune_write_text(FILE *f, const struct tuner *t, const struct report *rp)
{
	text_inputs(f, t, rp);
	text_budget(f, t, rp);
	text_results(f, rp);
	text_recommendation(f, t, rp);
	text_thresholds(f, t, rp);
	text_apply(f, t, rp);
	text_dict(f, t, rp);
}
