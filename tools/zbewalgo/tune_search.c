// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo tune: measuring chains page by page, replaying the engine's
 * search over those measurements, the beam search and the greedy table
 * building (see tune.c).
 */
#include "tune.h"

/* ---- measuring one chain --------------------------------------------------- */

static double zsize(const struct tuner *t, uint32_t s)
{
	return s < t->threshold ? s : t->page;
}

/*
 * What a page set keeps for every chain, allocated with the first chain
 * measured on it: which pages the engine stores without a try, and at
 * what cost.
 */
static int pageset_prepare(struct pageset *ps)
{
	size_t i, n = ps->n;

	if (!ps->prestored) {
		ps->prestored = calloc(n + 1, sizeof(*ps->prestored));
		ps->precost = calloc(n + 1, sizeof(*ps->precost));
		ps->plain = calloc(n + 1, sizeof(*ps->plain));
		if (!ps->prestored || !ps->precost || !ps->plain)
			return -1;
		for (i = 0; i < n; i++)
			ps->precost[i] = -1;
	}
	return 0;
}

/* The probe's estimate of @comb for each page of @ps, as the engine's. */
static void probe_pages(const struct tuner *t, const struct pageset *ps,
			const struct zbewalgo_combination *comb, uint32_t *est)
{
	static u8 scratch[ZBW_PROBE_SCRATCH] __aligned(8);
	struct zbw_num_hint hint;
	bool unsure;
	size_t i;

	for (i = 0; i < ps->n; i++) {
		est[i] = 0;
		hint.w = 0;
		if (t->page < ZBW_CHECK_MIN)
			continue;
		zbw_probe_sample(ps->data + i * t->page, t->page, scratch);
		est[i] = zbw_probe_estimate(comb, ps->data + i * t->page,
					    t->page, scratch, &unsure, &hint);
		if (unsure)
			est[i] |= TUNE_EST_UNSURE;
	}
}

/* The engine's context with @comb as its only chain. */
static void one_chain_ctx(struct tuner *t,
			  const struct zbewalgo_combination *comb)
{
	struct zbewalgo_params p;

	zbewalgo_default_params(&p, t->page);
	/*
	 * The whole chain on every page, every prefix result below zram's
	 * threshold kept; as with a table (max_output_size below the page
	 * size) the engine stores random-looking pages without a try.
	 */
	p.early_abort_size = 0;
	p.max_output_size = t->threshold;
	p.tolerance_shift = 0;
	t->one->nr = 1;
	t->one->comb[0] = *comb;
	zbewalgo_ctx_set_table(t->ctx, t->one);
	zbewalgo_ctx_set_params(t->ctx, &p);
}

/*
 * Page @i of @ps through the chain of @c: its size in r->size[i]
 * (NO_RESULT when the engine stored it), its times in r->ct[i] and
 * r->dt[i], all added to the sums of @r.
 */
static int eval_page(struct tuner *t, struct pageset *ps,
		     const struct cand *c, struct chainres *r, size_t i)
{
	size_t page = t->page;
	const unsigned char *src = ps->data + i * page;
	size_t dlen = ZBEWALGO_STORED_SIZE(page), olen = page;
	double t0, t1, t2;
	int err;

	t0 = tune_cpu_now();
	err = zbewalgo_compress(t->ctx, src, page, t->dst, &dlen);
	t1 = tune_cpu_now();
	if (err) {
		fprintf(stderr, "zbewalgo: compress failed: %s\n",
			strerror(-err));
		return -1;
	}
	r->ct[i] = t1 - t0 > t->tick ? t1 - t0 - t->tick : 0;
	r->dt[i] = 0;
	r->size[i] = NO_RESULT;
	ps->prestored[i] = !zbewalgo_ctx_last_result(t->ctx)->tried;
	ps->plain[i] = zbewalgo_ctx_last_result(t->ctx)->plain;
	if (ps->prestored[i] && ps->precost[i] < 0)
		ps->precost[i] = r->ct[i];
	if (!zbewalgo_ctx_last_result(t->ctx)->stored) {
		r->size[i] = dlen;
		t1 = tune_cpu_now();
		err = zbewalgo_ctx_decompress(t->dctx, t->dst, dlen, t->out,
					      &olen);
		t2 = tune_cpu_now();
		if (err || olen != page || memcmp(t->out, src, page)) {
			char name[128];

			zbewalgo_combination_format(&c->comb, name,
						    sizeof(name));
			fprintf(stderr, "zbewalgo: %s: ROUND TRIP FAILED\n",
				name);
			return -1;
		}
		r->dt[i] = t2 - t1 > t->tick ? t2 - t1 - t->tick : 0;
	}
	r->zb += zsize(t, r->size[i]);
	r->tc += r->ct[i];
	r->td += r->size[i] < t->threshold ? r->dt[i] : t->tcopy;
	return 0;
}

static int eval_chain(struct tuner *t, int ci, int set)
{
	struct pageset *ps = &t->set[set];
	struct cand *c = &t->cands[ci];
	struct chainres *r = &c->r[set];
	size_t i, n = ps->n;

	r->size = malloc((n + 1) * sizeof(*r->size));
	r->est = malloc((n + 1) * sizeof(*r->est));
	r->ct = malloc((n + 1) * sizeof(*r->ct));
	r->dt = malloc((n + 1) * sizeof(*r->dt));
	if (!r->size || !r->est || !r->ct || !r->dt || pageset_prepare(ps))
		return -1;
	probe_pages(t, ps, &c->comb, r->est);
	one_chain_ctx(t, &c->comb);
	r->zb = 0;
	r->tc = 0;
	r->td = 0;
	for (i = 0; i < n; i++)
		if (eval_page(t, ps, c, r, i))
			return -1;
	t->screened++;
	return 0;
}

static int find_cand(const struct tuner *t,
		     const struct zbewalgo_combination *comb)
{
	size_t i;

	for (i = 0; i < t->ncands; i++)
		if (t->cands[i].comb.nr_steps == comb->nr_steps &&
		    !memcmp(t->cands[i].comb.ids, comb->ids, comb->nr_steps))
			return i;
	return -1;
}

/*
 * The candidate for @combp, measured on @set with all its prefixes.
 * @combp may point into t->cands, which this can move: copy it first.
 */
static int get_cand(struct tuner *t, const struct zbewalgo_combination *combp,
		    int set)
{
	struct zbewalgo_combination cb = *combp, *comb = &cb;
	int ci = find_cand(t, comb), k;

	if (t->same_sets)
		set = TRAIN;
	if (ci < 0) {
		struct cand *nc = tune_grow(t->cands, &t->capcands, t->ncands + 1,
					sizeof(*nc));

		if (!nc)
			return -1;
		t->cands = nc;
		ci = t->ncands++;
		memset(&nc[ci], 0, sizeof(nc[ci]));
		nc[ci].comb = *comb;
		nc[ci].prefix[comb->nr_steps - 1] = ci;
		for (k = 0; k + 1 < comb->nr_steps; k++) {
			struct zbewalgo_combination pc = { .nr_steps = k + 1 };
			int pi;

			memcpy(pc.ids, comb->ids, k + 1);
			pi = get_cand(t, &pc, set);
			if (pi < 0)
				return -1;
			t->cands[ci].prefix[k] = pi;
		}
	}
	for (k = 0; k + 1 < comb->nr_steps; k++)
		if (!t->cands[t->cands[ci].prefix[k]].r[set].size &&
		    get_cand(t, &t->cands[t->cands[ci].prefix[k]].comb, set) < 0)
			return -1;
	if (!t->cands[ci].r[set].size && eval_chain(t, ci, set))
		return -1;
	return ci;
}

const struct chainres *tune_res_of(const struct tuner *t, int ci, int set)
{
	return &t->cands[ci].r[t->same_sets ? TRAIN : set];
}

/* ---- replaying the engine -------------------------------------------------- */

/*
 * The engine's search (lib/zbewalgo/core/engine.c, zbewalgo_compress())
 * over the per-chain measurements, through the engine's own calls
 * (zbw_probe_rank() in lib/zbewalgo/core/probe.c, zbw_search_*() in
 * lib/zbewalgo/core/search.c): which chain comes next, which result is kept
 * and when the search stops.  A chain's result after step k is the
 * one-chain result of its k-step prefix, which is the engine's
 * best-of-prefixes.
 */
static void sim(const struct tuner *t, int set, const int *tab, int n,
		uint32_t ea, uint32_t maxout, struct simres *out)
{
	const struct pageset *ps = &t->set[set];
	struct zbw_probe probe = { .nr = n }, full;
	struct zbw_search s;
	bool plain;
	int i, k;
	size_t p;

	memset(out, 0, sizeof(*out));
	for (p = 0; p < ps->n; p++) {
		int wpre = -1;
		double cost = 0;

		/* stored at once: the check's cost, no try */
		if (ps->prestored[p] && maxout < t->page && n) {
			out->tc += ps->precost[p] + t->tcopy;
			out->zb += t->page;
			out->td += t->tcopy;
			continue;
		}
		/*
		 * as zbw_probe(): a one-chain table is not probed, nor is a
		 * plain page when a chain has no layout steps
		 */
		plain = false;
		probe.unsure = 0;
		probe.zstd = -1;
		probe.easy = n;
		for (i = 0; n > 1 && ps->plain[p] && i < n; i++)
			plain |= zbw_probe_plain_chain(&t->cands[tab[i]].comb);
		for (i = 0; i < n; i++) {
			const struct zbewalgo_combination *c =
				&t->cands[tab[i]].comb;

			if (zbw_probe_zstd_chain(c))
				probe.zstd = i;
			if (plain) {
				probe.est[i] = zbw_probe_plain_estimate(c,
									t->page);
			} else {
				uint32_t e = n > 1 ?
					tune_res_of(t, tab[i], set)->est[p] : 0;

				probe.est[i] = e & ~TUNE_EST_UNSURE;
				if (e & TUNE_EST_UNSURE)
					probe.unsure |= 1ull << i;
			}
			for (k = 0; k < i; k++)
				if (zbw_probe_same_layout(&t->cands[tab[k]].comb,
							  c))
					break;
			probe.layout[i] = k;
		}
		/* the estimates zbw_probe_rest() makes after a miss */
		full = probe;
		if (n > 1 && !plain)
			zbw_probe_cut(&probe, ea);
		zbw_probe_rank(&probe);
		zbw_search_start(&s, &probe, maxout < t->stored_size ? maxout :
				 t->stored_size, ea, t->tol);

		for (i = 0; i < n; i++) {
			int ci = zbw_search_chain(&s, i);
			const struct cand *c = &t->cands[tab[ci]];

			out->tried++;
			for (k = 0; k < c->comb.nr_steps; k++) {
				const struct chainres *r =
					tune_res_of(t, c->prefix[k], set);

				if (zbw_search_result(&s, ci, k + 1,
						      r->size[p]))
					wpre = c->prefix[k];
				if (zbw_search_stop(&s, i)) {
					cost += r->ct[p];
					goto done;
				}
			}
			cost += tune_res_of(t, tab[ci], set)->ct[p];
			if (!i && probe.easy < n) {
				memcpy(probe.est, full.est, sizeof(probe.est));
				probe.unsure = full.unsure;
				probe.easy = n;
				zbw_probe_rank_after(&probe);
			}
			if (zbw_search_chain_done(&s, i))
				break;
		}
		k = zbw_search_zstd(&s, i, t->page);
		if (k >= 0) {
			const struct chainres *r = tune_res_of(t, tab[k], set);

			out->tried++;
			if (zbw_search_result(&s, k, 1, r->size[p]))
				wpre = tab[k];
			cost += r->ct[p];
		}
done:
		/* and zram's copy of the result (or the page) into its store */
		if (s.best_comb >= 0 && s.best < t->threshold) {
			out->zb += s.best;
			out->tc += cost + t->tcopy * s.best / t->page;
			out->td += tune_res_of(t, wpre, set)->dt[p];
		} else {
			out->zb += t->page;
			out->tc += cost + t->tcopy;
			out->td += t->tcopy;
		}
	}
}

static bool within(const struct tuner *t, const struct simres *r, size_t n)
{
	return r->tc / n <= t->budget * (1 + 1e-9) &&
	       r->td / n <= t->dbudget * (1 + 1e-9);
}

void tune_run_sim(const struct tuner *t, struct tsel *s)
{
	sim(t, TRAIN, s->idx, s->n, s->ea, s->maxout, &s->r);
	s->ok = within(t, &s->r, t->set[TRAIN].n);
}

/*
 * Fewer bytes; about equal bytes: clearly faster (timing noise must not
 * move the choice away from the settings tried first, the defaults).
 */
bool tune_better(const struct tsel *a, const struct tsel *b)
{
	if (!b || !b->n)
		return true;
	if (a->r.zb < b->r.zb * (1 - 1e-4))
		return true;
	return a->r.zb <= b->r.zb * (1 + 1e-4) && a->r.tc < b->r.tc * 0.98;
}

static void remember(struct tuner *t, const struct tsel *s)
{
	struct tsel *h = tune_grow(t->hist, &t->caphist, t->nhist + 1,
			       sizeof(*h));

	if (!h)
		return;
	t->hist = h;
	h[t->nhist++] = *s;
}

static bool in_table(const struct tsel *s, int ci)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->idx[i] == ci)
			return true;
	return false;
}

/* Whether the table of @s is one sysfs takes: steps and work bounded. */
static bool tsel_fits(const struct tuner *t, const struct tsel *s)
{
	struct zbewalgo_table tab;

	tune_table_of(t, s, &tab);
	return zbewalgo_table_steps(&tab) <= ZBEWALGO_MAX_TABLE_STEPS &&
	       zbewalgo_table_cost(&tab) <= ZBEWALGO_MAX_TABLE_COST;
}

/*
 * Greedy set cover from @start within the budget, then pruning; pruning
 * keeps the bytes at or below @cap.
 */
void tune_greedy(struct tuner *t, const struct tsel *start, double cap,
		 struct tsel *res)
{
	struct tsel cur = *start, best = { 0 }, try;
	bool found;
	size_t i;
	int j;

	if (cur.n)
		tune_run_sim(t, &cur);
	while (cur.n < t->max_table) {
		found = false;
		for (i = 0; i < t->ncands; i++) {
			if (!t->cands[i].pool || in_table(&cur, i))
				continue;
			try = cur;
			try.idx[try.n++] = i;
			if (!tsel_fits(t, &try))
				continue;
			tune_run_sim(t, &try);
			if (try.ok && (!found || tune_better(&try, &best))) {
				best = try;
				found = true;
			}
		}
		if (!found || (cur.n && best.r.zb > cur.r.zb * (1 - MIN_GAIN)))
			break;
		cur = best;
		remember(t, &cur);
	}
	/* Drop chains that hardly help: fewer tries per page. */
	for (j = cur.n - 1; j >= 0 && cur.n > 1; j--) {
		try = cur;
		memmove(&try.idx[j], &try.idx[j + 1],
			(try.n - j - 1) * sizeof(try.idx[0]));
		try.n--;
		tune_run_sim(t, &try);
		if (try.ok && try.r.zb <= cur.r.zb * (1 + DROP_LOSS) &&
		    try.r.zb <= cap) {
			cur = try;
			remember(t, &cur);
		}
	}
	*res = cur;
}

/* ---- stage 1: beam search on the screening set ---------------------------- */

/*
 * Picks up to @k of the @n candidates in @list by greedy set cover of the
 * per-page values @val (row per candidate), then fills up by the lowest
 * totals.  Candidates with @skip set are not picked.
 */
static int cover_select(const struct tuner *t, const int *list, size_t n,
			const uint32_t *val, size_t np, const bool *skip,
			size_t k, int *out)
{
	double *cur = malloc(np * sizeof(*cur));
	bool *taken = calloc(n + 1, 1), gain = true;
	size_t i, p, got = 0;

	if (!cur || !taken) {
		free(cur);
		free(taken);
		return 0;
	}
	for (p = 0; p < np; p++)
		cur[p] = t->page;
	while (got < k) {
		/* the most bytes saved; with no gain left, the lowest total */
		double best = gain ? 0 : -INFINITY;
		size_t bi = n;

		for (i = 0; i < n; i++) {
			double score = 0;

			if (taken[i] || skip[i])
				continue;
			for (p = 0; p < np; p++) {
				double z = zsize(t, val[i * np + p]);

				if (!gain)
					score -= z;
				else if (z < cur[p])
					score += cur[p] - z;
			}
			if (score > best) {
				best = score;
				bi = i;
			}
		}
		if (bi == n && gain) {
			gain = false;
			continue;
		}
		if (bi == n)
			break;
		taken[bi] = true;
		out[got++] = list[bi];
		for (p = 0; p < np && gain; p++)
			if (zsize(t, val[bi * np + p]) < cur[p])
				cur[p] = zsize(t, val[bi * np + p]);
	}
	free(taken);
	free(cur);
	return got;
}

static struct zbewalgo_combination extend(const struct zbewalgo_combination *c,
					  int step)
{
	struct zbewalgo_combination r = *c;

	r.ids[r.nr_steps++] = step;
	return r;
}

static bool slow(const struct tuner *t, int ci, int set)
{
	return tune_res_of(t, ci, set)->tc / t->set[set].n >
	       SLOW_FACTOR * t->budget;
}

/*
 * The chains of the next level into @level, @nl of them: each step after
 * each of the @nb chains of @beam, or alone while the beam is empty.
 */
static int beam_level(struct tuner *t, const int *beam, int nb, int *level,
		      size_t *nl)
{
	int i, s;

	*nl = 0;
	for (i = 0; i < (nb ? nb : 1); i++) {
		for (s = 0; s < t->nsteps; s++) {
			struct zbewalgo_combination c = { 0 };
			int ci, id = t->steps[s];

			if (nb) {
				const struct zbewalgo_combination *b =
					&t->cands[beam[i]].comb;

				/* no repeats; nothing after huffman */
				if (b->ids[b->nr_steps - 1] == id ||
				    b->ids[b->nr_steps - 1] == t->huffman)
					continue;
				c = *b;
			}
			c = extend(&c, id);
			ci = get_cand(t, &c, SCREEN);
			if (ci < 0)
				return -1;
			level[(*nl)++] = ci;
		}
	}
	return 0;
}

/*
 * Promise: the chain or its completion with huffman or rle, page by page
 * into the rows of @pot.  @skip marks the chains not to extend: too slow,
 * or ending in huffman.
 */
static int beam_promise(struct tuner *t, const int *level, size_t nl,
			uint32_t *pot, bool *skip)
{
	size_t np = t->set[SCREEN].n, i, p;

	for (i = 0; i < nl; i++) {
		/* a copy: get_cand() may move t->cands */
		const struct zbewalgo_combination cc = t->cands[level[i]].comb;
		int fin[2] = { t->huffman, t->rle }, f;
		int tail = cc.ids[cc.nr_steps - 1];
		const struct chainres *r = tune_res_of(t, level[i], SCREEN);
		uint32_t *row = pot + i * np;

		for (p = 0; p < np; p++)
			row[p] = r->size[p];
		skip[i] = slow(t, level[i], SCREEN);
		for (f = 0; f < 2 && !skip[i]; f++) {
			struct zbewalgo_combination e;
			int ei;

			if (fin[f] < 0 || tail == fin[f] || tail == t->huffman)
				continue;
			e = extend(&cc, fin[f]);
			ei = get_cand(t, &e, SCREEN);
			if (ei < 0)
				return -1;
			r = tune_res_of(t, ei, SCREEN);
			for (p = 0; p < np; p++)
				if (r->size[p] < row[p])
					row[p] = r->size[p];
		}
		/* huffman ends a chain: nothing to extend */
		if (tail == t->huffman)
			skip[i] = true;
	}
	return 0;
}

static void print_beam(const struct tuner *t, const int *beam, int nb)
{
	char name[128];
	int i;

	fprintf(stderr, "tune: beam:");
	for (i = 0; i < nb; i++) {
		zbewalgo_combination_format(&t->cands[beam[i]].comb, name,
					    sizeof(name));
		fprintf(stderr, " %s", name);
	}
	fputc('\n', stderr);
}

/*
 * Stage 1, level by level: the level's chains, their promise, and the
 * beam that covers the pages best, to grow the next level from.
 */
int tune_beam_search(struct tuner *t)
{
	size_t np = t->set[SCREEN].n, nl = 0;
	int *level = NULL, *beam = malloc(t->beam * sizeof(int)), level_no;
	uint32_t *pot = NULL;
	bool *skip = NULL;
	int ret = -1, nb = 0;

	if (!beam)
		return -1;
	for (level_no = 1; level_no <= t->max_steps; level_no++) {
		size_t want = level_no == 1 ? t->nsteps : nb * t->nsteps;
		int *nlv = realloc(level, (want + 1) * sizeof(int));

		if (!nlv)
			goto out;
		level = nlv;
		if (beam_level(t, beam, nb, level, &nl))
			goto out;
		if (t->verbose)
			fprintf(stderr, "tune: %d-step chains: %zu (%zu screened so far)\n",
				level_no, nl, t->screened);
		if (level_no == t->max_steps)
			break;
		free(pot);
		free(skip);
		pot = malloc((nl * np + 1) * sizeof(*pot));
		skip = calloc(nl + 1, 1);
		if (!pot || !skip || beam_promise(t, level, nl, pot, skip))
			goto out;
		nb = cover_select(t, level, nl, pot, np, skip, t->beam, beam);
		if (t->verbose)
			print_beam(t, beam, nb);
		if (!nb)
			break;
	}
	ret = 0;
out:
	free(skip);
	free(pot);
	free(level);
	free(beam);
	return ret;
}

/* Stage 2: the chains worth a full measurement, with their prefixes. */
int tune_pick_pool(struct tuner *t, const struct zbewalgo_table **seeds,
		   int nseeds)
{
	size_t n = t->ncands, np = t->set[SCREEN].n, i, p;
	int *list = malloc((n + 1) * sizeof(int));
	int *out = malloc((POOL_COVER + POOL_TOP + 1) * sizeof(int));
	uint32_t *val = malloc((n * np + 1) * sizeof(*val));
	bool *skip = calloc(n + 1, 1);
	int got, k, ret = -1, s;
	unsigned int j;

	if (!list || !out || !val || !skip)
		goto out;
	for (i = 0; i < n; i++) {
		list[i] = i;
		skip[i] = !tune_res_of(t, i, SCREEN)->size || slow(t, i, SCREEN);
		for (p = 0; p < np && !skip[i]; p++)
			val[i * np + p] = tune_res_of(t, i, SCREEN)->size[p];
	}
	got = cover_select(t, list, n, val, np, skip, POOL_COVER, out);
	for (k = 0; k < got; k++)
		skip[out[k]] = true;
	{
		/* and the lowest totals among the rest */
		int extra = 0;

		while (extra < POOL_TOP) {
			double besttot = INFINITY;
			int bi = -1;

			for (i = 0; i < n; i++)
				if (!skip[i] &&
				    tune_res_of(t, i, SCREEN)->zb < besttot) {
					besttot = tune_res_of(t, i, SCREEN)->zb;
					bi = i;
				}
			if (bi < 0)
				break;
			skip[bi] = true;
			out[got + extra++] = bi;
		}
		got += extra;
	}
	for (k = 0; k < got; k++) {
		int ci = get_cand(t, &t->cands[out[k]].comb, TRAIN);

		if (ci < 0)
			goto out;
		for (s = 0; s < t->cands[ci].comb.nr_steps; s++)
			t->cands[t->cands[ci].prefix[s]].pool = true;
	}
	for (k = 0; k < nseeds; k++)
		for (j = 0; j < seeds[k]->nr; j++) {
			int ci = get_cand(t, &seeds[k]->comb[j], TRAIN);

			if (ci < 0)
				goto out;
			for (s = 0; s < t->cands[ci].comb.nr_steps; s++)
				t->cands[t->cands[ci].prefix[s]].pool = true;
		}
	ret = 0;
out:
	free(skip);
	free(val);
	free(out);
	free(list);
	return ret;
}

/* A table of candidates for a zbewalgo table; -1 when not all are known. */
int tune_tsel_of(struct tuner *t, const struct zbewalgo_table *tab, int set,
		 struct tsel *s)
{
	unsigned int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < tab->nr && i < MAX_TABLE; i++) {
		int ci = get_cand(t, &tab->comb[i], set);

		if (ci < 0)
			return -1;
		s->idx[s->n++] = ci;
	}
	return tab->nr <= MAX_TABLE ? 0 : -1;
}

/*
 * A default or preset table with the default early_abort_size and zram's
 * threshold, replayed on the sample.
 */
int tune_replay_seed(struct tuner *t, const struct zbewalgo_table *tab,
		     struct tsel *s)
{
	struct zbewalgo_params dp;

	if (tune_tsel_of(t, tab, TRAIN, s))
		return -1;
	zbewalgo_default_params(&dp, t->page);
	s->ea = dp.early_abort_size;
	s->maxout = t->threshold;
	tune_run_sim(t, s);
	return 0;
}

void tune_table_of(const struct tuner *t, const struct tsel *s,
		   struct zbewalgo_table *tab)
{
	int i;

	memset(tab, 0, sizeof(*tab));
	for (i = 0; i < s->n; i++)
		tab->comb[tab->nr++] = t->cands[s->idx[i]].comb;
}
