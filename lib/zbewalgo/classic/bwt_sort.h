/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The rotation sort of the bwt step (bwt.c), in two parts: the fast path
 * (bwt_sort.c: a radix sort by four bytes, then radix quicksort) and prefix
 * doubling (bwt_doubling.c: the slow path, and the end of the fast one on
 * long repeats).  Both work in struct bwt_scratch, which bwt.c sizes.
 */
#ifndef __ZBEWALGO_BWT_SORT_H
#define __ZBEWALGO_BWT_SORT_H

#include "../core/zbewalgo_internal.h"

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
 * which real pages (text, code, numbers, heaps) do not reach.
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
 * (kernel stacks are small, and zram and zswap compress deep in reclaim).
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
};

/* @x < 2 * @n: reduce modulo @n */
static __always_inline u32 bwt_wrap(u32 x, u32 n)
{
	return x >= n ? x - n : x;
}

/*
 * Rotation @x to the front of its bucket by byte @d, @y to the back (see
 * bwt_radix_pass()).  @sd is @s + @d with @doubled, which saves the
 * additions.
 */
static __always_inline void bwt_radix_rows(const u8 *s, const u8 *sd, u32 n,
					   u32 d, u32 x, u32 y, u16 *out,
					   u16 *lo, u16 *hi, bool doubled)
{
	out[lo[doubled ? sd[x] : s[bwt_wrap(x + d, n)]]++] = x;
	out[--hi[doubled ? sd[y] : s[bwt_wrap(y + d, n)]]] = y;
}

/*
 * One pass of the radix sort: a stable counting sort of the rotations in
 * @in (NULL: 0..n-1) by their byte @d, into @out.  The first half of @in
 * fills the buckets from the front, the second half from the back, which
 * gives two independent chains of counter updates instead of one.  @s is
 * the input, or with @doubled the input followed by a copy of itself.
 * A loop for each kind of @in, so that neither tests it for every row.
 */
static __always_inline void bwt_radix_pass(const u8 *s, u32 n, u32 d,
					   const u16 *in, u16 *out,
					   struct bwt_scratch *sc, bool doubled)
{
	u16 *lo = sc->cnt, *hi = sc->cnt + 256;
	const u8 *sd = s + d;
	const u16 *back;
	u32 r, x, h = n / 2;

	memcpy(lo, sc->start, sizeof(sc->start));
	memcpy(hi, sc->end, sizeof(sc->end));
	if (in) {
		back = in + n;
		for (r = 0; r < h; r++)
			bwt_radix_rows(s, sd, n, d, in[r], *--back, out, lo,
				       hi, doubled);
	} else {
		for (r = 0; r < h; r++)
			bwt_radix_rows(s, sd, n, d, r, n - 1 - r, out, lo, hi,
				       doubled);
	}
	if (n & 1) {
		x = in ? in[h] : h;
		out[lo[s[doubled ? x + d : bwt_wrap(x + d, n)]]++] = x;
	}
}

void zbw_bwt_buckets(const u8 *s, u32 n, struct bwt_scratch *sc);
bool zbw_bwt_sort_fast(const u8 *s, struct bwt_qs *q, u16 *tmp,
		       struct bwt_scratch *sc);
void zbw_bwt_sort_slow(const u8 *s, struct bwt_sort *st,
		       struct bwt_scratch *sc);
void zbw_bwt_sort_rest(struct bwt_sort *st, u32 k);
bool zbw_bwt_rot_equal(const u8 *s, u32 n, u32 a, u32 b);

#endif /* __ZBEWALGO_BWT_SORT_H */
