// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo step "bwt": Burrows-Wheeler transform.  The encoder rejects
 * inputs longer than 65535 bytes with -EINVAL, which keeps all indices in
 * 16 bits.
 */

/**
 * DOC: bwt step format
 *
 * An empty input encodes to an empty output.  Otherwise, for an input ``s``
 * of ``n`` bytes (1 <= n <= 65535), the output is a varint ``p`` followed by
 * ``n`` bytes ``L``.  Sort the ``n`` cyclic rotations ``s[i..n-1] s[0..i-1]``
 * of ``s`` lexicographically; ``L[r]`` is the last byte of the ``r``-th
 * rotation and ``p`` is the number of rotations smaller than ``s`` itself,
 * so row ``p`` holds ``s``.  (Equal rotations only occur in periodic inputs;
 * they have equal last bytes, so ``L`` does not depend on their order.)
 * The decoder rebuilds ``s`` from ``L`` starting at row ``p`` with the usual
 * LF mapping, run forwards: let ``C[c]`` be the number of bytes of ``L``
 * smaller than ``c``, and ``T`` map row ``C[c] + k`` to the row of the
 * ``k``-th (from 0) byte ``c`` in ``L``; then ``s[t] = L[T^(t+1)(p)]`` for
 * ``t = 0..n-1``.  It rejects ``p >= n`` and ``n > 65535`` and accepts any
 * other input.
 */

#include "bwt_sort.h"

/*
 * The scratch for @n bytes: struct bwt_scratch, then three arrays of n
 * rows: the sorted rotations (sa), a second buffer (tmp) and the ranks,
 * over which zbw_bwt_sort_fast() lays the doubled input (2n + 8 bytes).
 * The decoder uses sa only.
 */
static size_t bwt_layout(void *base, size_t n, struct bwt_scratch **sc,
			 u16 **sa, u16 **tmp, u16 **rank)
{
	struct zbw_layout l = { base, 0 };
	size_t rows = ALIGN(n, 4) * sizeof(u16);

	*sc = zbw_layout_take(&l, sizeof(struct bwt_scratch), 8);
	*sa = zbw_layout_take(&l, rows, 8);
	*tmp = zbw_layout_take(&l, rows, 8);
	*rank = zbw_layout_take(&l, rows + 8, 8);
	return l.size;
}

static int bwt_encode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	struct bwt_scratch *sc;
	struct bwt_sort *st;
	struct bwt_qs *q;
	u16 *sa, *tmp, *rank;
	u32 r, p, i, hlen;
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
	bwt_layout(scratch, slen, &sc, &sa, &tmp, &rank);
	st = &sc->st;
	q = &sc->q;
	st->n = slen;
	st->sa = sa;
	st->tmp = tmp;
	st->rank = rank;
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
	if (!zbw_bwt_sort_fast(src, q, st->tmp, sc))
		zbw_bwt_sort_slow(src, st, sc);
	else if (q->defer_k < slen)
		zbw_bwt_sort_rest(st, q->defer_k);
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
	while (p && zbw_bwt_rot_equal(src, slen, sa[p - 1], 0))
		p--;
	hlen = zbw_put_len(dst, dst + dcap, p);
	if (!hlen || slen > dcap - hlen)
		return -ENOSPC;
	dst += hlen;
	if (grouped) {
		for (r = 0; r < slen; r++) {
			i = sa[r];
			dst[r] = src[i ? i - 1 : slen - 1];
		}
	} else {
		/* the doubled input is still there: no wrap to test */
		const u8 *t = q->t + slen - 1;

		for (r = 0; r < slen; r++)
			dst[r] = t[sa[r]];
	}
	return hlen + slen;
}

static int bwt_decode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	u16 *psi, *tmp, *rank, *lo, *hi;
	struct bwt_scratch *sc;
	u32 n, p, hlen, r, i;
	const u8 *l;

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
	bwt_layout(scratch, n, &sc, &psi, &tmp, &rank);
	lo = sc->cnt;
	hi = sc->cnt + 256;
	zbw_bwt_buckets(l, n, sc);
	memcpy(lo, sc->start, sizeof(sc->start));
	memcpy(hi, sc->end, sizeof(sc->end));
	for (r = 0, i = n - 1; r < n / 2; r++, i--) {
		psi[lo[l[r]]++] = r;
		psi[--hi[l[i]]] = i;
	}
	if (n & 1)
		psi[lo[l[r]]++] = r;
	r = psi[p];
	for (i = 0; i + 4 <= n; i += 4) {
		dst[i] = l[r];
		r = psi[r];
		dst[i + 1] = l[r];
		r = psi[r];
		dst[i + 2] = l[r];
		r = psi[r];
		dst[i + 3] = l[r];
		r = psi[r];
	}
	for (; i < n; i++) {
		dst[i] = l[r];
		r = psi[r];
	}
	return n;
}

static size_t bwt_scratch_size(unsigned int max_len)
{
	struct bwt_scratch *sc;
	u16 *sa, *tmp, *rank;

	return bwt_layout(NULL, min(max_len, BWT_MAX_LEN), &sc, &sa, &tmp,
			  &rank);
}

const struct zbewalgo_step zbewalgo_step_BWT = {
	.encode		= bwt_encode,
	.decode		= bwt_decode,
	.scratch_size	= bwt_scratch_size,
};
