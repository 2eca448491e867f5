// SPDX-License-Identifier: GPL-2.0-only
/*
 * Prefix doubling, the slow path of the bwt step's rotation sort: O(n log n)
 * in the worst case, with the rotations inside long runs of one byte
 * sorted directly.
 */
#include "bwt_sort.h"

/* Key of the first @d (4, or n < 4) bytes of rotation @i, for equality. */
static __always_inline u32 bwt_key(const u8 *s, u32 i, u32 n, u32 d)
{
	u8 b[4] = { 0 };
	u32 x;

	if (likely(i + 4 <= n))
		return get_unaligned((const u32 *)(s + i));
	for (x = 0; x < d; x++) {
		b[x] = s[i];
		i = i + 1 == n ? 0 : i + 1;
	}
	return get_unaligned((const u32 *)b);
}

/*
 * Runs: q[i] is the length of the run of equal bytes starting at s[i]
 * (cyclically, < n) and ev[i] the byte after that run.  Sets bit c of
 * @mask for each byte c that starts a run of 4 or more; returns whether
 * there is one.  Not for inputs of a single repeated byte.
 */
static bool bwt_runs(const u8 *s, u32 n, u16 *q, u8 *ev, u32 *mask)
{
	u32 i, j, t, qj, ej, eq, any = 0;

	for (i = 0; i + 1 < n && s[i] == s[i + 1]; i++)
		;
	/* s[i] ends a run; walk down from there */
	j = i + 1 < n ? i + 1 : 0;
	qj = 1;
	ej = s[j];
	q[i] = qj;
	ev[i] = ej;
	for (t = 1; t < n; t++) {
		j = i;
		i = i ? i - 1 : n - 1;
		eq = s[i] == s[j];
		qj = eq ? qj + 1 : 1;
		ej = eq ? ej : s[j];
		q[i] = qj;
		ev[i] = ej;
		if (unlikely(qj == 4)) {
			mask[s[i] / 32] |= 1u << (s[i] % 32);
			any = 1;
		}
	}
	return any;
}

/* First 4 bytes of rotation @i (n >= 4) as a big-endian number */
static u32 bwt_key_be(const u8 *s, u32 i, u32 n)
{
	u32 key = 0, d;

	for (d = 0; d < 4; d++) {
		key = key << 8 | s[i];
		i = i + 1 == n ? 0 : i + 1;
	}
	return key;
}

/*
 * Order of the rotations c^q e ... (q >= 4 bytes c, then a byte e != c):
 * those with e < c come first, by growing q, then those with e > c, by
 * falling q; rotations with the same q and side by e.  Digit @kind of that
 * order for rotation @i: 0: e, 1: the q key (4..2 * @maxq), 2: its low
 * byte, 3: the rest.
 */
static __always_inline u32 bwt_run_digit(const u16 *q, const u8 *ev, u32 i,
					 u32 c, u32 maxq, u32 kind)
{
	u32 e = ev[i], key = e > c ? 2 * maxq + 1 - q[i] : q[i];

	if (kind == 0)
		return e;
	if (kind == 1)
		return key;
	if (kind == 2)
		return key & 0xff;
	return key >> 8;
}

/* Stable counting sort of rows [@r, @e) by a digit in [@lo, @lo + 511] */
static __always_inline void bwt_run_pass(const u16 *q, const u8 *ev,
					 const u16 *from, u16 *to, u32 r,
					 u32 e, u32 c, u32 maxq, u32 kind,
					 u32 lo, u32 hi, u16 *cnt)
{
	u32 x, d, sum;

	memset(cnt, 0, (hi - lo + 1) * sizeof(*cnt));
	for (x = r; x < e; x++)
		cnt[bwt_run_digit(q, ev, from[x], c, maxq, kind) - lo]++;
	for (d = 0, sum = r; d <= hi - lo; d++) {
		x = cnt[d];
		cnt[d] = sum;
		sum += x;
	}
	for (x = r; x < e; x++) {
		d = bwt_run_digit(q, ev, from[x], c, maxq, kind) - lo;
		to[cnt[d]++] = from[x];
	}
}

/* Sorts rows [@r, @e) of @sa, the rotations starting with cccc. */
static void bwt_sort_run_rows(u16 *sa, u16 *buf, const u16 *q, const u8 *ev,
			      u32 c, u32 r, u32 e, u16 *cnt)
{
	u32 maxq = 0, emin = 255, emax = 0, x, i;
	u16 *from = sa, *to = buf, *t;

	for (x = r; x < e; x++) {
		i = sa[x];
		maxq = max_t(u32, maxq, q[i]);
		emin = min_t(u32, emin, ev[i]);
		emax = max_t(u32, emax, ev[i]);
	}
	if (emin != emax) {
		bwt_run_pass(q, ev, from, to, r, e, c, maxq, 0, emin, emax,
			     cnt);
		t = from;
		from = to;
		to = t;
	}
	if (2 * maxq - 4 < 512) {
		bwt_run_pass(q, ev, from, to, r, e, c, maxq, 1, 4, 2 * maxq,
			     cnt);
		t = from;
		from = to;
		to = t;
	} else {
		bwt_run_pass(q, ev, from, to, r, e, c, maxq, 2, 0, 255, cnt);
		bwt_run_pass(q, ev, to, from, r, e, c, maxq, 3, 0,
			     (2 * maxq) >> 8, cnt);
	}
	if (from != sa)
		memcpy(sa + r, from + r, (e - r) * sizeof(*sa));
}

/*
 * Rotations inside long runs (mostly zero pages) would take one doubling
 * round per doubling of the run length, but their order is easy: sort the
 * rows starting with cccc, for each byte c of @mask, by bwt_run_digit().
 * Bucket c of the radix sort holds them at the position of cccc.
 */
static void bwt_sort_runs(const u8 *s, u32 n, u16 *sa, u16 *buf,
			  const u16 *q, const u8 *ev, const u32 *mask,
			  struct bwt_scratch *sc)
{
	u32 c, lo, hi, mid, e;

	for (c = 0; c < 256; c++) {
		if (!(mask[c / 32] & (1u << (c % 32))))
			continue;
		lo = sc->start[c];
		hi = sc->end[c];
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (bwt_key_be(s, sa[mid], n) < c * 0x01010101u)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (e = lo; e < sc->end[c] && q[sa[e]] >= 4; e++)
			;
		if (e - lo > 1)
			bwt_sort_run_rows(sa, buf, q, ev, c, lo, e, sc->cnt);
	}
}

/*
 * Group bookkeeping of row @r, the rows being visited from the last one
 * down: @end says whether r is the last row of its group, *@prev_end
 * whether r + 1 was.  @e is the last row of the group of r + 1; returns
 * that of r.  bwt_groups_done() finishes after row 0.
 */
static __always_inline u32 bwt_mark_row(struct bwt_sort *st, u32 r, u32 end,
					u32 *prev_end, u32 e)
{
	e = end ? r : e;
	st->groups += end;
	st->singles += end & *prev_end;
	st->max_size = max(st->max_size, e - r + 1);
	st->flag[r + 1] = !(end & *prev_end);
	*prev_end = end;
	return e;
}

static __always_inline void bwt_groups_done(struct bwt_sort *st, u32 prev_end)
{
	st->singles += prev_end;
	st->flag[0] = !prev_end;
}

/*
 * Sorts the rotations by their first min(n, 4) bytes (LSD radix sort), and
 * the ones starting with long runs completely, and sets up the groups,
 * with the counters bwt_global_round() needs in tmp.
 */
static void bwt_initial_sort(const u8 *s, struct bwt_sort *st,
			     struct bwt_scratch *sc)
{
	u16 *a = st->sa, *b = st->tmp, *t, *rank = st->rank;
	u32 n = st->n, d = min_t(u32, n, 4), i, r, e, key, next;
	u32 end, prev_end, rkey, rnext;
	bool runs;

	/* Rotations of s all have the same byte histogram. */
	zbw_bwt_buckets(s, n, sc);
	bwt_radix_pass(s, n, d - 1, NULL, b, sc, false);
	while (--d) {
		bwt_radix_pass(s, n, d - 1, b, a, sc, false);
		t = a;
		a = b;
		b = t;
	}
	st->sa = b;
	st->tmp = a;
	/* Run lengths go into rank until the ranks replace them. */
	memset(sc->run_mask, 0, sizeof(sc->run_mask));
	runs = bwt_runs(s, n, rank, st->flag, sc->run_mask);
	if (runs)
		bwt_sort_runs(s, n, b, a, rank, st->flag, sc->run_mask, sc);

	/*
	 * Groups, from the last row down, without branches on the data: e
	 * is the last row of the current group.  The counter of a group for
	 * bwt_global_round() is its first row, kept in tmp at its last row.
	 */
	d = min_t(u32, n, 4);
	e = n - 1;
	next = ~bwt_key(s, b[n - 1], n, d);
	rnext = 0;
	for (r = n, prev_end = 0; r-- > 0; ) {
		i = b[r];
		key = bwt_key(s, i, n, d);
		/* rows of a cccc group differ in (q, e), see above */
		rkey = 0;
		if (runs && rank[i] >= 4)
			rkey = rank[i] << 8 | s[bwt_wrap(i + rank[i], n)];
		end = (key != next) | (rkey != rnext);
		next = key;
		rnext = rkey;
		e = bwt_mark_row(st, r, end, &prev_end, e);
		rank[i] = e;
		a[e] = r;
	}
	bwt_groups_done(st, prev_end);
}

/*
 * One doubling step over all rows: from groups by k bytes to groups by
 * 2 * k bytes.  Rotation i - k comes before i - k' in its group when i
 * comes before i'; so taking the rows in order and appending i - k to its
 * group (a stable counting sort by group) sorts by 2 * k bytes.  The
 * append position of a group is kept in tmp at its last row, which is
 * filled last.  Returns the number of groups that were split off.
 */
static u32 bwt_global_round(struct bwt_sort *st, u32 k)
{
	u16 *sa = st->sa, *tmp = st->tmp, *rank = st->rank;
	u32 n = st->n, old = st->groups, r, i, p, e, key, next, end, prev_end;

	for (r = 0; r < n; r++) {
		i = sa[r];
		i = i >= k ? i - k : i + n - k;
		e = rank[i];
		p = tmp[e];
		tmp[e] = p + 1;
		tmp[p] = i;
	}
	/* Second keys; sa is free now. */
	for (r = 0; r < n; r++) {
		i = tmp[r] + k;
		sa[r] = rank[i >= n ? i - n : i];
	}
	/* New groups as in bwt_initial_sort(); new counters go into sa. */
	st->groups = 0;
	st->singles = 0;
	st->max_size = 1;
	e = n - 1;
	next = 0;
	for (r = n, prev_end = 0; r-- > 0; ) {
		i = tmp[r];
		key = sa[r];
		end = (rank[i] == r) | (key != next);
		next = key;
		e = bwt_mark_row(st, r, end, &prev_end, e);
		rank[i] = e;
		sa[e] = r;
	}
	bwt_groups_done(st, prev_end);
	st->sa = tmp;
	st->tmp = sa;
	return st->groups - old;
}

static __always_inline u32 bwt_get(const u8 *buf, u32 i)
{
	return get_unaligned((const u32 *)(buf + 4 * i));
}

static __always_inline void bwt_put(u8 *buf, u32 i, u32 v)
{
	put_unaligned(v, (u32 *)(buf + 4 * i));
}

static void bwt_sift(u8 *buf, u32 root, u32 end)
{
	u32 v = bwt_get(buf, root), child, c;

	while ((child = 2 * root + 1) < end) {
		c = bwt_get(buf, child);
		if (child + 1 < end && bwt_get(buf, child + 1) > c) {
			child++;
			c = bwt_get(buf, child);
		}
		if (v >= c)
			break;
		bwt_put(buf, root, c);
		root = child;
	}
	bwt_put(buf, root, v);
}

/* Sorts @cnt u32 values at @buf: insertion sort or heapsort. */
static void bwt_sort_u32(u8 *buf, u32 cnt)
{
	u32 i, j, v, w;

	if (cnt <= BWT_INSERTION_MAX) {
		for (i = 1; i < cnt; i++) {
			v = bwt_get(buf, i);
			for (j = i; j > 0; j--) {
				w = bwt_get(buf, j - 1);
				if (w <= v)
					break;
				bwt_put(buf, j, w);
			}
			bwt_put(buf, j, v);
		}
		return;
	}
	for (i = cnt / 2; i-- > 0; )
		bwt_sift(buf, i, cnt);
	for (i = cnt - 1; i > 0; i--) {
		v = bwt_get(buf, 0);
		bwt_put(buf, 0, bwt_get(buf, i));
		bwt_put(buf, i, v);
		bwt_sift(buf, 0, i);
	}
}

/* First row >= @r that is in a group of two or more rows, or n. */
static __always_inline u32 bwt_next_unsorted(const u8 *flag, u32 r, u32 n)
{
	while (r + 8 <= n && !get_unaligned((const u64 *)(flag + r)))
		r += 8;
	while (r < n && !flag[r])
		r++;
	return r;
}

/*
 * The same doubling step, only for the groups of two or more rows: sort
 * each by (second key << 16 | rotation) with a comparison sort in tmp,
 * then split them.  Used when few rows are left, so they fit in tmp as
 * u32 values.  Returns the number of groups that were split off.
 */
static u32 bwt_group_round(struct bwt_sort *st, u32 k)
{
	u16 *sa = st->sa, *rank = st->rank;
	u8 *buf = (u8 *)st->tmp, *flag = st->flag;
	u32 n = st->n, old = st->groups, r, x, i, e, t, last, v, next;
	u32 end, prev_end;

	for (r = 0, t = 0; (r = bwt_next_unsorted(flag, r, n)) < n; ) {
		last = rank[sa[r]];
		for (x = r; x <= last; x++) {
			i = sa[x] + k;
			v = rank[i >= n ? i - n : i];
			bwt_put(buf, t + x - r, v << 16 | sa[x]);
		}
		bwt_sort_u32(buf + 4 * t, last - r + 1);
		t += last - r + 1;
		r = last + 1;
	}
	for (r = 0, t = 0; (r = bwt_next_unsorted(flag, r, n)) < n; ) {
		last = rank[sa[r]];
		/* Split as in bwt_global_round(); the old group is replaced. */
		x = last;
		v = bwt_get(buf, t + x - r);
		next = v >> 16;
		sa[x] = v & 0xffff;
		rank[sa[x]] = x;
		e = x;
		prev_end = 1;
		while (x-- > r) {
			v = bwt_get(buf, t + x - r);
			end = (v >> 16) != next;
			next = v >> 16;
			e = end ? x : e;
			st->groups += end;
			flag[x + 1] = !(end & prev_end);
			prev_end = end;
			sa[x] = v & 0xffff;
			rank[sa[x]] = e;
		}
		flag[r] = !prev_end;
		t += last - r + 1;
		r = last + 1;
	}
	return st->groups - old;
}

/*
 * Prefix doubling, the slow path of the rotation sort and the end of the
 * fast one (zbw_bwt_sort_fast()) on long repeats.  A round splits each
 * group by the rank of rotation i + k, which keeps the groups sorted and
 * makes them agree on 2 * k bytes.  Every round is O(n) (the group rounds only
 * run when their sorting is cheap), so the sort is O(n log n) in the worst
 * case.  It stops when all groups are single rows, when k reaches n, or
 * when a round splits no group: then no later round would either, so the
 * rotations of each group are equal (a periodic input).  The groups must
 * agree on at least @k bytes, which then doubles.
 */
static void bwt_doubling(struct bwt_sort *st, u32 k)
{
	u32 n = st->n, unsorted;
	bool by_group = false;

	for (; st->groups < n && k < n; k *= 2) {
		/* unsorted and max_size never grow: once is for good */
		unsorted = n - st->singles;
		if (!by_group && unsorted <= BWT_GROUP_MAX(n) &&
		    unsorted * fls(st->max_size) <= BWT_GROUP_COST(n))
			by_group = true;
		if (!(by_group ? bwt_group_round(st, k) :
				 bwt_global_round(st, k)))
			break;
	}
}

/*
 * The slow path, on its own: the rotations by their first four bytes,
 * then prefix doubling.  Both sorts stay out of bwt_encode() (noinline, as
 * zbw_bwt_sort_fast()): inlined, their spills add up in one frame of 520
 * bytes on x86_64.
 */
noinline void zbw_bwt_sort_slow(const u8 *s, struct bwt_sort *st,
				struct bwt_scratch *sc)
{
	bwt_initial_sort(s, st, sc);
	bwt_doubling(st, min_t(u32, st->n, 4));
}

/*
 * Hands the groups zbw_bwt_sort_fast() deferred (marked 2 on their first
 * row, 1 on the others, in st->flag; the other rows are sorted) to prefix
 * doubling; their rotations agree on at least @k bytes.
 */
void zbw_bwt_sort_rest(struct bwt_sort *st, u32 k)
{
	u32 n = st->n, r, i, e = n - 1, end, prev_end = 0;

	for (r = n; r-- > 0; ) {
		i = st->sa[r];
		end = r == n - 1 || st->flag[r + 1] != 1;
		e = bwt_mark_row(st, r, end, &prev_end, e);
		st->rank[i] = e;
		st->tmp[e] = r;
	}
	bwt_groups_done(st, prev_end);
	bwt_doubling(st, k);
}
