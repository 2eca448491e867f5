// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo step "bwt": Burrows-Wheeler transform.
 *
 * Format: an empty input encodes to an empty output.  Otherwise, for an
 * input s of n bytes (1 <= n <= 65535), the output is a varint p
 * (zbw_put_len()) followed by n bytes L.  Sort the n cyclic rotations
 * s[i..n-1] s[0..i-1] of s lexicographically; L[r] is the last byte of the
 * r-th rotation in that order, and p is the number of rotations that are
 * smaller than s itself, so row p holds s.  (Equal rotations only occur in
 * periodic inputs; they have equal last bytes, so L does not depend on how
 * they are ordered.)  Decoding: let C[c] be the number of bytes of L
 * smaller than c, and T map row C[c] + k to the row of the k-th (from 0)
 * byte c in L; then s[t] = L[T^(t+1)(p)] for t = 0..n-1.  The decoder
 * rejects p >= n and n > 65535 and accepts any other input; the encoder
 * rejects inputs longer than 65535 bytes with -EINVAL, which keeps all
 * indices in 16 bits.
 */
#include "zbewalgo_internal.h"

#define BWT_MAX_LEN	65535u
/*
 * Sort the groups of two or more rows one by one once they hold at most
 * n / 2 rows (so they fit in tmp as u32) and sorting them costs less than
 * about BWT_GROUP_COST(n) comparisons.
 */
#define BWT_GROUP_MAX(n)	((n) / 2)
#define BWT_GROUP_COST(n)	(4 * (n))
#define BWT_INSERTION_MAX	16
/*
 * Quicksort (bwt_qs_sort()): ranges of at most BWT_QS_SMALL rows go to
 * insertion sort; its stack never holds more than 2 * 16 + 1 ranges.
 * Groups that still agree after BWT_QS_DEFER bytes (long repeats) are
 * left to prefix doubling.  It gives up after BWT_QS_WORK(n) key reads,
 * which the pages of the benchmark suite never reach.
 */
#define BWT_QS_SMALL		12
#define BWT_QS_STACK		40
#define BWT_QS_DEFER		128
#define BWT_QS_WORK(n)		(16 * (n) + 1024)

/* No deferred group (bwt_qs_copy()) */
#define BWT_NONE		0xffffffffu

/* A range of rows [lo, hi) whose rotations agree on their first d bytes */
struct bwt_task {
	u16 lo;
	u16 hi;
	u32 d;
};

/*
 * State of the rotation sort.  The rows of sa (rotation starts) form
 * groups of consecutive rows: the rotations of a group agree on at least
 * their first k bytes, and all are smaller than those of later groups.
 * rank[i] is the last row of the group of rotation i.
 */
struct bwt_sort {
	u16 *sa;
	u16 *tmp;
	u16 *rank;
	u8 *flag;	/* per row (n + 1 bytes): in a group of two or more */
	u32 n;
	u32 groups;
	u32 singles;	/* groups of a single row */
	u32 max_size;	/* rows in the largest group */
};

/*
 * Fast path of the rotation sort.  Rotation i is read from t = s s s[0..7]
 * (t[j] = s[j mod n] for j < 2n + 8) as 8-byte big-endian keys, whose
 * order is that of the bytes.  Comparing past byte n - 1 compares the
 * periodic continuation, which does not change the order: rotations that
 * agree on n bytes are equal.
 */
struct bwt_qs {
	const u8 *t;
	u16 *sa;
	u16 *buf;	/* n rows for partitioning */
	u8 *mark;	/* n + 1 bytes, zero: marks of deferred groups */
	u64 *key;	/* BWT_QS_SMALL keys for insertion sort */
	u32 n;
	u32 defer_k;	/* deferred groups agree on this many bytes, or n */
	u32 deferred;	/* number of deferred groups */
	s32 work;	/* key reads left before giving up */
};

/*
 * Everything of the encoder but its few scalars lives here, not on the
 * stack: the sort states, the quicksort's range stack and insertion keys
 * (kernel stacks are small; see tools/testing/kernel/stack.sh).
 */
struct bwt_scratch {
	u16 start[256];		/* first row of each byte's bucket */
	u16 end[256];		/* one past its last row */
	u16 cnt[512];		/* counters of the current sort pass */
	u32 run_mask[8];	/* bytes that start runs of 4 or more */
	struct bwt_task stack[BWT_QS_STACK];
	u64 key[BWT_QS_SMALL];	/* bwt_qs_insertion()'s keys */
	struct bwt_sort st;
	struct bwt_qs q;
	u16 arr[];
};

/* @x < 2 * @n: reduce modulo @n */
static __always_inline u32 bwt_wrap(u32 x, u32 n)
{
	return x >= n ? x - n : x;
}

/* Key of the first @d (4, or n < 4) bytes of rotation @i, for equality. */
static __always_inline u32 bwt_key(const u8 *s, u32 i, u32 n, u32 d)
{
	u8 b[4] = { 0 };
	u32 x;

	if (likely(i + 4 <= n))
		return zbw_load32(s + i);
	for (x = 0; x < d; x++) {
		b[x] = s[i];
		i = i + 1 == n ? 0 : i + 1;
	}
	return zbw_load32(b);
}

/*
 * Bucket c of a sort by first byte: rows start[c] to end[c] - 1.  Four
 * partial histograms avoid a long chain of updates of the same counter.
 */
static void bwt_buckets(const u8 *s, u32 n, struct bwt_scratch *sc)
{
	u32 i, c, r;

	memset(sc->start, 0, sizeof(sc->start));
	memset(sc->end, 0, sizeof(sc->end));
	memset(sc->cnt, 0, sizeof(sc->cnt));
	for (i = 0; i + 4 <= n; i += 4) {
		sc->start[s[i]]++;
		sc->end[s[i + 1]]++;
		sc->cnt[s[i + 2]]++;
		sc->cnt[256 + s[i + 3]]++;
	}
	for (; i < n; i++)
		sc->start[s[i]]++;
	for (c = 0, r = 0; c < 256; c++) {
		i = sc->start[c] + sc->end[c] + sc->cnt[c] + sc->cnt[256 + c];
		sc->start[c] = r;
		r += i;
		sc->end[c] = r;
	}
}

/*
 * One pass of the radix sort: a stable counting sort of the rotations in
 * @in (NULL: 0..n-1) by their byte @d, into @out.  The first half of @in
 * fills the buckets from the front, the second half from the back, which
 * gives two independent chains of counter updates instead of one.  @s is
 * the input, or with @doubled the input followed by a copy of itself.
 */
static __always_inline void bwt_radix_pass(const u8 *s, u32 n, u32 d,
					   const u16 *in, u16 *out,
					   struct bwt_scratch *sc, bool doubled)
{
	u16 *lo = sc->cnt, *hi = sc->cnt + 256;
	u32 r, x, y, h = n / 2;

	memcpy(lo, sc->start, sizeof(sc->start));
	memcpy(hi, sc->end, sizeof(sc->end));
	for (r = 0; r < h; r++) {
		x = in ? in[r] : r;
		y = in ? in[n - 1 - r] : n - 1 - r;
		out[lo[s[doubled ? x + d : bwt_wrap(x + d, n)]]++] = x;
		out[--hi[s[doubled ? y + d : bwt_wrap(y + d, n)]]] = y;
	}
	if (n & 1) {
		x = in ? in[h] : h;
		out[lo[s[doubled ? x + d : bwt_wrap(x + d, n)]]++] = x;
	}
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
	bwt_buckets(s, n, sc);
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
	return zbw_load32(buf + 4 * i);
}

static __always_inline void bwt_put(u8 *buf, u32 i, u32 v)
{
	zbw_store32(buf + 4 * i, v);
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
	while (r + 8 <= n && !zbw_load64(flag + r))
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
 * fast one (bwt_sort_fast()) on long repeats.  A round splits each group
 * by the rank of rotation i + k, which keeps the groups sorted and makes
 * them agree on 2 * k bytes.  Every round is O(n) (the group rounds only
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
 * The two sorts stay out of bwt_encode() (noinline, as bwt_sort_fast()):
 * inlined, their spills add up in one frame of 520 bytes on x86_64.
 */
static noinline void bwt_sort(const u8 *s, struct bwt_sort *st,
			      struct bwt_scratch *sc)
{
	bwt_initial_sort(s, st, sc);
	bwt_doubling(st, min_t(u32, st->n, 4));
}

static __always_inline u64 bwt_be64(const u8 *p)
{
	return (u64)p[0] << 56 | (u64)p[1] << 48 | (u64)p[2] << 40 |
	       (u64)p[3] << 32 | (u64)p[4] << 24 | (u64)p[5] << 16 |
	       (u64)p[6] << 8 | (u64)p[7];
}

/* Compares rotations @a and @b, known to agree on @d bytes: <0, 0, >0 */
static int bwt_qs_cmp(struct bwt_qs *q, u32 a, u32 b, u32 d)
{
	u64 x, y;

	for (; d < q->n; d += 8) {
		x = bwt_be64(q->t + a + d);
		y = bwt_be64(q->t + b + d);
		q->work--;
		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* Insertion sort by the keys at @d, then by the rest where they tie */
static void bwt_qs_insertion(struct bwt_qs *q, u32 lo, u32 hi, u32 d)
{
	u16 *sa = q->sa + lo;
	u32 m = hi - lo, i, j, v;
	u64 *key = q->key, k;

	for (i = 0; i < m; i++)
		key[i] = bwt_be64(q->t + sa[i] + d);
	q->work -= m;
	for (i = 1; i < m; i++) {
		v = sa[i];
		k = key[i];
		for (j = i; j > 0; j--) {
			if (key[j - 1] < k)
				break;
			if (key[j - 1] == k &&
			    bwt_qs_cmp(q, sa[j - 1], v, d + 8) <= 0)
				break;
			sa[j] = sa[j - 1];
			key[j] = key[j - 1];
		}
		sa[j] = v;
		key[j] = k;
	}
}

static __always_inline u64 bwt_median3(u64 a, u64 b, u64 c)
{
	if (a > b)
		swap(a, b);
	return c <= a ? a : c >= b ? b : c;
}

/*
 * Three-way radix quicksort of the rows in @tk by their keys at byte
 * tk->d: splits them into smaller, equal and greater keys than a pivot
 * and sorts the equal ones by the next 8 bytes.  Pushing the pieces
 * largest first and taking the smallest next, every range that stays on
 * the stack comes from a split that halved the range being worked on, so
 * the stack holds at most 2 * log2(n) + 1 ranges.  Returns false when the
 * work budget runs out or the stack would overflow.
 */
static bool bwt_qs_sort(struct bwt_qs *q, struct bwt_task *stack, u32 lo,
			u32 hi, u32 d)
{
	const u8 *t = q->t;
	u16 *sa = q->sa, *buf = q->buf;
	struct bwt_task piece[3], tmp;
	u32 sp = 0, i, lt, gt, eq, v, np, a, b;
	u64 pivot, k;

	stack[sp++] = (struct bwt_task){ lo, hi, d };
	while (sp) {
		lo = stack[--sp].lo;
		hi = stack[sp].hi;
		d = stack[sp].d;
		/*
		 * Rotations equal (d >= n, periodic input) or with long
		 * repeats: leave the group to prefix doubling.
		 */
		if (d >= q->n || (d >= BWT_QS_DEFER && hi - lo > BWT_QS_SMALL)) {
			q->mark[lo] = 2;
			memset(q->mark + lo + 1, 1, hi - lo - 1);
			q->deferred++;
			q->defer_k = min(q->defer_k, d);
			continue;
		}
		if (hi - lo <= BWT_QS_SMALL) {
			bwt_qs_insertion(q, lo, hi, d);
			if (q->work < 0)
				return false;
			continue;
		}
		pivot = bwt_median3(bwt_be64(t + sa[lo] + d),
				    bwt_be64(t + sa[lo + (hi - lo) / 2] + d),
				    bwt_be64(t + sa[hi - 1] + d));
		/*
		 * Branch-free: equal keys are compacted in place (the write
		 * position never passes the read position), smaller ones
		 * go to the front of buf, greater ones to its back.
		 */
		lt = 0;
		gt = hi - lo - 1;
		eq = lo;
		for (i = lo; i < hi; i++) {
			v = sa[i];
			k = bwt_be64(t + v + d);
			buf[lt] = v;
			buf[gt] = v;
			sa[eq] = v;
			lt += k < pivot;
			gt -= k > pivot;
			eq += k == pivot;
		}
		/* [lo, lo + lt): smaller, then equal, then greater */
		memmove(sa + lo + lt, sa + lo, (eq - lo) * sizeof(*sa));
		memcpy(sa + lo, buf, lt * sizeof(*sa));
		gt++;
		memcpy(sa + lo + lt + (eq - lo), buf + gt,
		       (hi - lo - gt) * sizeof(*sa));
		lt += lo;
		gt = lt + (eq - lo);
		q->work -= hi - lo;
		if (q->work < 0)
			return false;
		piece[0] = (struct bwt_task){ lo, lt, d };
		piece[1] = (struct bwt_task){ lt, gt, d + 8 };
		piece[2] = (struct bwt_task){ gt, hi, d };
		/* keep ranges of two or more rows, largest first */
		for (a = 0, np = 0; a < 3; a++)
			if (piece[a].hi - piece[a].lo > 1)
				piece[np++] = piece[a];
		for (a = 1; a < np; a++)
			for (b = a; b > 0 && piece[b].hi - piece[b].lo >
					     piece[b - 1].hi - piece[b - 1].lo; b--) {
				tmp = piece[b];
				piece[b] = piece[b - 1];
				piece[b - 1] = tmp;
			}
		if (sp + np > BWT_QS_STACK)
			return false;
		for (a = 0; a < np; a++)
			stack[sp++] = piece[a];
	}
	return true;
}

/*
 * Rows [@a, @b) of bucket @c ([@lo, @hi)) start with cc; the rest of the
 * bucket is sorted.  Rotation i in there is c followed by rotation i + 1,
 * also in the bucket, so these rows follow from the others: a rotation
 * whose run of c ends in a smaller byte comes before every cc row whose
 * run ends in a larger one.  Scanning the bucket upwards from its start
 * finds the first kind in order, downwards from its end the second.  The
 * rows that come from a deferred group (marked, see bwt_qs_sort()) are
 * consecutive and form a deferred group again, one byte longer.
 * Returns false if the two scans do not meet (cannot happen).
 */
static bool bwt_qs_copy(const u8 *s, u32 n, u16 *sa, u8 *m, u32 c, u32 lo,
			u32 hi, u32 a, u32 b)
{
	u32 r, w, i, g = BWT_NONE, last = BWT_NONE;
	bool open = false;

	for (r = lo, w = a; r < w && w < b; r++) {
		/* g: first row of the deferred group of row r */
		if (m[r] != 1)
			g = m[r] ? r : BWT_NONE;
		i = sa[r] ? sa[r] - 1 : n - 1;
		if (s[i] != c)
			continue;
		sa[w] = i;
		m[w++] = g == BWT_NONE ? 0 : g == last ? 1 : 2;
		last = g;
	}
	a = w;
	for (r = hi, w = b; r > w && w > a; ) {
		r--;
		i = sa[r] ? sa[r] - 1 : n - 1;
		if (s[i] == c) {
			sa[--w] = i;
			m[w] = m[r] ? 1 : 0;
			open |= m[r];
		}
		/* the group ends here: its rows start at the last one */
		if (m[r] == 2 && open) {
			m[w] = 2;
			open = false;
		}
	}
	if (open)
		m[w] = 2;
	return w == a;
}

/* End of the group of rows from @r on that agree on 4 bytes */
static __always_inline u32 bwt_group_end(const u8 *t, const u16 *sa, u32 r,
					 u32 hi)
{
	u32 x = zbw_load32(t + sa[r]);

	for (r++; r < hi && zbw_load32(t + sa[r]) == x; r++)
		;
	return r;
}

/*
 * Hands the groups bwt_sort_fast() deferred (marked 2 on their first row,
 * 1 on the others, in st->flag; the other rows are sorted) to prefix
 * doubling; their rotations agree on at least @k bytes.
 */
static void bwt_sort_rest(struct bwt_sort *st, u32 k)
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

/* Whether rotations @a and @b of @s are equal */
static bool bwt_rot_equal(const u8 *s, u32 n, u32 a, u32 b)
{
	if (a > b)
		swap(a, b);
	return !memcmp(s + a, s + b, n - b) &&
	       !memcmp(s + a + n - b, s, b - a) && !memcmp(s, s + b - a, a);
}

/*
 * Sorts the rotations of @s (n >= 2, not all bytes equal) into @sa by
 * their first four bytes (radix passes via @tmp, n rows), then each
 * group of equal four bytes by bwt_qs_sort(), except the rows starting
 * with cc, which bwt_qs_copy() fills.  Groups with long repeats are
 * left for bwt_sort_rest().  @q->t: 2n + 8 bytes for the doubled text.
 * Returns false when it gives up.
 */
static noinline bool bwt_sort_fast(const u8 *s, struct bwt_qs *q, u16 *tmp,
				   struct bwt_scratch *sc)
{
	u32 n = q->n, d = min_t(u32, n, 4), c, x, r, e, lo, hi, a, b, j;
	u16 *sa = q->sa;
	u8 *t = (u8 *)q->t;

	memcpy(t, s, n);
	memcpy(t + n, s, n);
	for (j = 2 * n; j < 2 * n + 8; j++)
		t[j] = t[j - n];
	bwt_buckets(s, n, sc);
	bwt_radix_pass(t, n, d - 1, NULL, tmp, sc, true);
	for (x = d - 1; x > 0; x--) {
		bwt_radix_pass(t, n, x - 1, tmp, sa, sc, true);
		swap(sa, tmp);
	}
	if (d & 1)
		memcpy(sa, tmp, n * sizeof(*sa));
	sa = q->sa;
	/* n < 4: sorted by all n bytes */
	if (d < 4)
		return true;
	for (c = 0; c < 256; c++) {
		lo = sc->start[c];
		hi = sc->end[c];
		if (hi - lo < 2)
			continue;
		/* groups of rows that agree on 4 bytes; cc rows: [a, b) */
		a = lo;
		b = lo;
		for (r = lo; r < hi; r = e) {
			e = bwt_group_end(t, sa, r, hi);
			if (t[sa[r] + 1] == c) {
				a = a == b ? r : a;
				b = e;
			} else if (e - r > 1 && !bwt_qs_sort(q, sc->stack, r, e, 4)) {
				return false;
			}
		}
		if (b > a && !bwt_qs_copy(s, n, sa, q->mark, c, lo, hi, a, b))
			return false;
	}
	return true;
}

static int bwt_encode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	struct bwt_scratch *sc = scratch;
	struct bwt_sort *st = &sc->st;
	struct bwt_qs *q = &sc->q;
	u32 r, p, i, hlen, stride = ALIGN(slen, 4);
	u16 *sa = sc->arr;
	bool grouped;

	if (!slen)
		return 0;
	if (slen > BWT_MAX_LEN)
		return -EINVAL;
	if (slen >= dcap)
		return -ENOSPC;
	/* All rotations equal (zero pages): L is the input, p is 0. */
	for (r = 1; r < slen && src[r] == src[0]; r++)
		;
	if (r == slen) {
		dst[0] = 0;
		memcpy(dst + 1, src, slen);
		return slen + 1;
	}
	st->n = slen;
	st->sa = sa;
	st->tmp = sa + stride;
	st->rank = sa + 2 * stride;
	/* dst is free until the end: use it for the row flags */
	st->flag = dst;
	st->groups = 0;
	st->singles = 0;
	st->max_size = 1;
	q->t = (u8 *)st->rank;
	q->sa = sa;
	q->buf = st->tmp;
	q->mark = dst;
	q->key = sc->key;
	q->n = slen;
	q->defer_k = slen;
	q->deferred = 0;
	q->work = BWT_QS_WORK(slen);
	memset(dst, 0, slen + 1);
	grouped = true;
	if (!bwt_sort_fast(src, q, st->tmp, sc))
		bwt_sort(src, st, sc);
	else if (q->defer_k < slen)
		bwt_sort_rest(st, q->defer_k);
	else
		grouped = false;
	sa = st->sa;
	if (grouped) {
		/* p: first row of the group of rotation 0 */
		p = st->rank[0];
		while (p && st->rank[sa[p - 1]] == st->rank[0])
			p--;
	} else {
		for (p = 0; sa[p]; p++)
			;
	}
	/* and before any rotations equal to it the sort left apart */
	while (p && bwt_rot_equal(src, slen, sa[p - 1], 0))
		p--;
	hlen = zbw_put_len(dst, dst + dcap, p);
	if (!hlen || slen > dcap - hlen)
		return -ENOSPC;
	dst += hlen;
	for (r = 0; r < slen; r++) {
		i = sa[r];
		dst[r] = src[i ? i - 1 : slen - 1];
	}
	return hlen + slen;
}

static int bwt_decode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	struct bwt_scratch *sc = scratch;
	u16 *psi = sc->arr, *lo = sc->cnt, *hi = sc->cnt + 256;
	const u8 *l;
	u32 n, p, hlen, r, i;

	if (!slen)
		return 0;
	hlen = zbw_get_len(src, src + slen, &p);
	if (!hlen)
		return -EINVAL;
	l = src + hlen;
	n = slen - hlen;
	if (p >= n || n > BWT_MAX_LEN || n > dcap)
		return -EINVAL;

	/*
	 * psi maps the row of rotation i to the row of rotation i + 1: the
	 * k-th row with L = c to the k-th row starting with c.  Filled from
	 * both ends as in bwt_radix_pass().
	 */
	bwt_buckets(l, n, sc);
	memcpy(lo, sc->start, sizeof(sc->start));
	memcpy(hi, sc->end, sizeof(sc->end));
	for (r = 0; r < n / 2; r++) {
		psi[lo[l[r]]++] = r;
		psi[--hi[l[n - 1 - r]]] = n - 1 - r;
	}
	if (n & 1)
		psi[lo[l[r]]++] = r;
	r = psi[p];
	for (i = 0; i < n; i++) {
		dst[i] = l[r];
		r = psi[r];
	}
	return n;
}

static size_t bwt_scratch_size(unsigned int max_len)
{
	size_t n = ALIGN(min(max_len, BWT_MAX_LEN), 4);

	/* bwt_sort_fast()'s doubled text needs 8 bytes more than rank */
	return sizeof(struct bwt_scratch) + 3 * n * sizeof(u16) + 8;
}

const struct zbewalgo_step zbewalgo_step_BWT = {
	.encode		= bwt_encode,
	.decode		= bwt_decode,
	.scratch_size	= bwt_scratch_size,
};
