// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fast path of the bwt step's rotation sort: the rotations by their
 * first four bytes with LSD radix passes, then each group by radix
 * quicksort on 8-byte keys.  Groups with long repeats go on to prefix
 * doubling (bwt_doubling.c).
 */
#include "bwt_sort.h"

/*
 * Bucket c of a sort by first byte: rows start[c] to end[c] - 1.  Four
 * partial histograms avoid a long chain of updates of the same counter.
 */
void zbw_bwt_buckets(const u8 *s, u32 n, struct bwt_scratch *sc)
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

/* Compares rotations @a and @b, known to agree on @d bytes: <0, 0, >0 */
static int bwt_qs_cmp(struct bwt_qs *q, u32 a, u32 b, u32 d)
{
	u64 x, y;

	for (; d < q->n; d += 8) {
		x = get_unaligned_be64(q->t + a + d);
		y = get_unaligned_be64(q->t + b + d);
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
		key[i] = get_unaligned_be64(q->t + sa[i] + d);
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
	u32 sp = 0, i, lt, gt, eq, v, np, a, b, mid;
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
		mid = lo + (hi - lo) / 2;
		pivot = bwt_median3(get_unaligned_be64(t + sa[lo] + d),
				    get_unaligned_be64(t + sa[mid] + d),
				    get_unaligned_be64(t + sa[hi - 1] + d));
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
			k = get_unaligned_be64(t + v + d);
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
	u32 x = get_unaligned((const u32 *)(t + sa[r]));

	for (r++; r < hi && get_unaligned((const u32 *)(t + sa[r])) == x; r++)
		;
	return r;
}

/* Whether rotations @a and @b of @s are equal */
bool zbw_bwt_rot_equal(const u8 *s, u32 n, u32 a, u32 b)
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
 * left for zbw_bwt_sort_rest().  @q->t: 2n + 8 bytes for the doubled
 * text.
 * Returns false when it gives up.
 */
noinline bool zbw_bwt_sort_fast(const u8 *s, struct bwt_qs *q, u16 *tmp,
				struct bwt_scratch *sc)
{
	u32 n = q->n, d = min_t(u32, n, 4), c, x, r, e, lo, hi, a, b, j;
	u16 *sa = q->sa;
	u8 *t = (u8 *)q->t;

	memcpy(t, s, n);
	memcpy(t + n, s, n);
	for (j = 2 * n; j < 2 * n + 8; j++)
		t[j] = t[j - n];
	zbw_bwt_buckets(s, n, sc);
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
