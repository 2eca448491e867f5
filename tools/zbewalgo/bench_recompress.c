// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo bench --recompress: the pages a primary algorithm stores whole,
 * and what zbewalgo makes of them as zram's secondary algorithm (see
 * bench.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

/* ---- recompress view: zbewalgo as zram's secondary algorithm ---------- */

/*
 * zsmalloc's size class of an object of @len bytes: 16-byte steps (the
 * page size >> 8) from 32 bytes; classes zsmalloc merges are kept apart
 * here.  Results at or above @threshold are stored as whole pages, one
 * class above all others.
 */
static size_t zs_class(size_t len, size_t page, size_t threshold)
{
	size_t delta = page >> 8;

	if (!len || len >= threshold)
		return (page - 32 + delta - 1) / delta + 1;
	if (len < 32)
		len = 32;
	return (len - 32 + delta - 1) / delta;
}

/* Bytes of memory an object of @len bytes takes: its class's size. */
static double zs_bytes(size_t len, size_t page, size_t threshold)
{
	size_t c = zs_class(len, page, threshold);

	return c > (page - 32 + (page >> 8) - 1) / (page >> 8) ?
	       (double)page : 32.0 + c * (page >> 8);
}

/* One file and one primary in the recompress view. */
struct recomp_view {
	const struct pageset *ps;
	size_t page, threshold, rthr, cap;
	int reps;
	size_t *plen;		/* the primary's result, 0: stored whole */
	size_t *try, ntry;	/* the pages tried */
	size_t *slen;		/* a secondary's result for each page tried */
	unsigned char *sbuf, *out;
	double *tc, *td;	/* seconds of each repetition */
	size_t same, huge;
	double mem_prim, mem_try;	/* bytes: all pages, those tried */
};

/*
 * The primary's pass over the pages: what it stores, and which pages
 * zram would try to recompress.
 */
static int recomp_primary(struct recomp_view *v, struct algo *prim)
{
	size_t page = v->page, i;

	if (prim->init && prim->init(prim, page)) {
		if (prim->fini)
			prim->fini(prim);
		return -1;
	}
	for (i = 0; i < v->ps->npages; i++) {
		const unsigned char *src = v->ps->data + i * page;
		size_t c;

		/* zram keeps same-filled pages in the slot, without a compressor */
		if (tool_same_filled(src, page)) {
			v->same++;
			continue;
		}
		c = prim->comp(prim, src, page, v->sbuf, v->cap);
		v->plen[i] = c && c < v->threshold ? c : 0;
		v->mem_prim += zs_bytes(v->plen[i], page, v->threshold);
		v->huge += !v->plen[i];
		if (!v->plen[i] || (v->rthr && v->plen[i] >= v->rthr)) {
			v->try[v->ntry++] = i;
			v->mem_try += zs_bytes(v->plen[i], page, v->threshold);
		}
	}
	if (prim->fini)
		prim->fini(prim);
	return 0;
}

static void recomp_heading(FILE *f, const char *name,
			   const struct recomp_view *v,
			   const struct algo *prim)
{
	size_t n = v->ps->npages;

	fprintf(f, "\n== %s: %zu pages, %zu same-filled; %s stores %zu whole (huge)",
		name, n, v->same, prim->name, v->huge);
	if (v->rthr)
		fprintf(f, " and %zu more in %zu bytes or more",
			v->ntry - v->huge, v->rthr);
	fprintf(f, " ==\n%s: memory %.0f KiB (ratio %.3f), the pages tried %.0f KiB\n",
		prim->name, v->mem_prim / 1024,
		(double)n * v->page / v->mem_prim, v->mem_try / 1024);
	fprintf(f, "%-12s %6s %6s %6s %10s %10s %9s %7s %10s %10s %s\n",
		"secondary", "tried", "recomp", "huge", "tried_KiB",
		"after_KiB", "file_KiB", "ratio", "comp_MiB/s", "dec_MiB/s",
		"roundtrip");
}

/*
 * Secondary @a on the pages tried: what it recompresses into a smaller
 * size class, how fast, checked by a round trip; its row of the view.
 * Returns -1 when it cannot be set up or fails a round trip.
 */
static int recomp_secondary(FILE *f, struct recomp_view *v, struct algo *a)
{
	size_t page = v->page, thr = v->threshold, cap = v->cap, k;
	size_t nrec = 0, left = 0;
	const unsigned char *data = v->ps->data;
	double after = 0, rbytes = 0, t0, mem;
	bool ok = true;
	int r;

	if (a->init && a->init(a, page))
		return -1;
	for (r = 0; r < v->reps; r++) {
		t0 = tool_now();
		for (k = 0; k < v->ntry; k++)
			v->slen[k] = a->comp(a, data + v->try[k] * page, page,
					     v->sbuf + k * cap, cap);
		v->tc[r] = tool_now() - t0;
	}
	for (k = 0; k < v->ntry; k++) {
		size_t p = v->plen[v->try[k]], s = v->slen[k];
		bool rec = s && s < thr &&
			   zs_class(s, page, thr) < zs_class(p, page, thr) &&
			   (!v->rthr || s < v->rthr);

		if (!rec) {
			v->slen[k] = 0;
			after += zs_bytes(p, page, thr);
			left += !p;
			continue;
		}
		nrec++;
		rbytes += page;
		after += zs_bytes(s, page, thr);
	}
	for (r = 0; r < v->reps; r++) {
		t0 = tool_now();
		for (k = 0; k < v->ntry; k++) {
			if (!v->slen[k])
				continue;
			memset(v->out, r & 1 ? 0x00 : 0xff, page);
			if (a->decomp(a, v->sbuf + k * cap, v->slen[k],
				      v->out, page) != page ||
			    memcmp(v->out, data + v->try[k] * page, page))
				ok = false;
		}
		v->td[r] = tool_now() - t0;
	}
	if (a->fini)
		a->fini(a);
	mem = v->mem_prim - v->mem_try + after;
	fprintf(f, "%-12s %6zu %6zu %6zu %10.0f %10.0f %9.0f %7.3f ",
		a->name, v->ntry, nrec, left, v->mem_try / 1024, after / 1024,
		mem / 1024, (double)v->ps->npages * page / mem);
	tool_put_num(f, v->ntry ? tool_mibps((double)v->ntry * page,
					     tool_median(v->tc, v->reps)) :
		     NAN, "%10.1f ", "         - ");
	tool_put_num(f, nrec ? tool_mibps(rbytes, tool_median(v->td, v->reps)) :
		     NAN, "%10.1f ", "         - ");
	fprintf(f, "%s\n", ok ? "ok" : "FAILED");
	return ok ? 0 : -1;
}

/*
 * For one file and one primary: which pages zram's "recompress type=huge"
 * (or with @rthr, "type=idle threshold=RTHR" on pages all idle) would try,
 * and what each secondary makes of them.  A page counts as recompressed,
 * as in zram, when the secondary's result falls into a smaller size class
 * (and, with a threshold, below it); every other page stays as the
 * primary stored it.  Same-filled pages take no memory and are never
 * tried, as in zram.  Compression times are over the pages tried,
 * decompression times over the pages recompressed (medians of @reps).
 */
static int recompress_view(FILE *f, const char *name, const struct pageset *ps,
			   struct algo *prim, struct algo *sec, size_t nsec,
			   size_t page, size_t threshold, size_t rthr,
			   int reps)
{
	struct recomp_view v = {
		.ps = ps, .page = page, .threshold = threshold, .rthr = rthr,
		.cap = bench_cap(page), .reps = reps,
	};
	size_t n = ps->npages, j;
	int ret = -1;

	v.plen = calloc(n + 1, sizeof(*v.plen));
	v.try = calloc(n + 1, sizeof(*v.try));
	v.slen = calloc(n + 1, sizeof(*v.slen));
	v.sbuf = malloc(n * v.cap + 1);
	v.out = malloc(page);
	v.tc = calloc(2 * reps, sizeof(double));
	if (!v.plen || !v.try || !v.slen || !v.sbuf || !v.out || !v.tc)
		goto out;
	v.td = v.tc + reps;
	if (recomp_primary(&v, prim))
		goto out;
	recomp_heading(f, name, &v, prim);
	for (j = 0; j < nsec; j++)
		if (recomp_secondary(f, &v, &sec[j]))
			goto out;
	ret = 0;
out:
	free(v.tc);
	free(v.out);
	free(v.sbuf);
	free(v.slen);
	free(v.try);
	free(v.plen);
	return ret;
}

/*
 * --recompress: its checks, and its primaries in @al; the secondaries
 * are zbewalgo and presets 1 and 3 unless -a names others.
 */
int bench_recompress_setup(struct bench_args *a, struct bench_algos *al)
{
	const char *p = a->recomp;

	if (a->csv || a->o.json || a->o.plot_path) {
		fprintf(stderr, "zbewalgo: --recompress prints a table only (no --csv, --json, --plot)\n");
		return -1;
	}
	if (a->rthr >= a->threshold) {
		fprintf(stderr, "zbewalgo: --recompress-threshold must be below the threshold (%zu)\n",
			a->threshold);
		return -1;
	}
	while (*p) {
		size_t len = strcspn(p, ",");
		const struct algo *t = bench_find_template(p, len);
		struct algo *x = &al->prims[al->nprims];

		if (!t || t->raw_only) {
			fprintf(stderr, "zbewalgo: --recompress: unknown primary '%.*s'\n",
				(int)len, p);
			return -1;
		}
		*x = *t;
		x->threshold = a->threshold;
		x->early_abort = -1;
		if (bench_is_zbewalgo(t))
			x->table = t->level > 0 ?
				   zbewalgo_preset_table(t->level) :
				   zbewalgo_table_default();
		if (bench_is_zbewalgo(t) && t->level < 0) {
			fprintf(stderr, "zbewalgo: --recompress: %s cannot be a primary\n",
				t->name);
			return -1;
		}
		al->nprims++;
		p += len + !!p[len];
	}
	if (!a->alist)
		a->alist = "zbewalgo,zbewalgo-1,zbewalgo-3";
	return 0;
}

/*
 * --recompress: the view of every file with every primary, each
 * secondary zbewalgo.  Returns the exit status.
 */
int bench_recompress_files(const struct bench_args *a,
			   struct bench_algos *al)
{
	size_t i, f, measured = 0;
	int ret = 0;

	for (i = 0; i < al->nalgos; i++) {
		if (!bench_is_zbewalgo(&al->algos[i])) {
			fprintf(stderr, "zbewalgo: --recompress: the secondary %s is not zbewalgo\n",
				al->algos[i].name);
			return 2;
		}
	}
	fprintf(stdout,
		"# zbewalgo bench --recompress: %zu-byte pages, zram threshold %zu, %d reps (median), %s\n"
		"# tried: pages zram's 'recompress type=huge'%s would try; recomp: those the secondary puts\n"
		"#   into a smaller zsmalloc size class (16-byte classes, not merged)%s; huge: tried pages\n"
		"#   left whole; *_KiB: memory as zsmalloc size classes; file_KiB, ratio: the whole file\n"
		"#   with the primary and the recompression; comp: over the pages tried, dec: recompressed\n",
		a->page, a->threshold, a->reps,
		a->drop ? "same-filled and duplicate pages dropped" :
			  "all pages",
		a->rthr ? " (and 'type=idle threshold=N' on idle pages)" : "",
		a->rthr ? " and below N" : "");
	for (f = 0; f < a->nfiles; f++) {
		const char *name = bench_file_name(a->files[f]);
		struct pageset ps;

		if (bench_load_pages(a->files[f], a->page, a->drop, &ps)) {
			ret = 1;
			continue;
		}
		if (!ps.npages)
			fprintf(stderr, "zbewalgo: %s: no pages to measure (%zu same-filled, %zu duplicates dropped)\n",
				name, ps.same, ps.dups);
		else
			measured++;
		for (i = 0; i < al->nprims && ps.npages; i++) {
			if (recompress_view(stdout, name, &ps, &al->prims[i],
					    al->algos, al->nalgos, a->page,
					    a->threshold, a->rthr, a->reps)) {
				fprintf(stderr, "zbewalgo: %s: %s: recompress view failed (set-up or ROUND TRIP)\n",
					name, al->prims[i].name);
				ret = 1;
			}
		}
		free(ps.data);
	}
	if (!measured) {
		fprintf(stderr, "zbewalgo: bench: nothing measured\n");
		ret = 1;
	}
	if (tool_flush_stdout())
		ret = 1;
	return ret;
}
