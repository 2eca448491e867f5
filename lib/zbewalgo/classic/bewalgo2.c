// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo step "bewalgo2": 8-byte words coded as runs of indices into a
 * sorted dictionary of the distinct words.
 */

/**
 * DOC: bewalgo2 step format
 *
 * A varint ``n``; a varint ``d``, the number of distinct words among the
 * ``m = n / 8`` input words (0 iff ``m == 0``); the ``d`` distinct words, 8
 * bytes each as in the input, in strictly ascending order of their
 * little-endian value (a sorted array is an implicit search tree); a bit
 * stream; the ``t = n % 8`` last input bytes raw.  The bit stream is packed
 * least significant bit first and holds one entry per run of equal words:
 * the word's index in the dictionary in ``b = fls(d - 1)`` bits (0 bits when
 * ``d == 1``), then the run length ``L >= 1`` as an Elias gamma code
 * (``k = fls(L) - 1`` zero bits, a one bit, then the low ``k`` bits of
 * ``L``).  Run lengths add up to ``m``, adjacent runs have different
 * indices, every dictionary word is used, and zero bits pad the stream to a
 * whole byte.  No byte may follow the tail, so each input has exactly one
 * encoding.
 */

#include "../core/bitstream.h"

/* Histograms of the radix sort: 8 byte positions x 256 values. */
#define BW2_HIST_SIZE	(8 * 256 * sizeof(u16))
/* Positions are kept in u16. */
#define BW2_MAX_WORDS	0xffffu

/*
 * Sorts the run ids in @a (r of them, run j starts at word @start[j]) by
 * their words, using @b as second buffer.  LSD radix sort, skipping the
 * byte positions where all words agree.  Returns the sorted buffer.
 */
static u16 *bw2_sort(const u8 *src, const u16 *start, unsigned int r,
		     u16 *a, u16 *b, u16 (*hist)[256])
{
	unsigned int i, j, k;
	const u8 *p;
	u16 *h;

	memset(hist, 0, BW2_HIST_SIZE);
	for (j = 0; j < r; j++) {
		a[j] = j;
		p = src + 8 * start[j];
		for (k = 0; k < 8; k++)
			hist[k][p[k]]++;
	}
	for (k = 0; k < 8; k++) {
		h = hist[k];
		if (h[src[8 * start[0] + k]] == r)
			continue;
		zbw_count_starts(h);
		for (i = 0; i < r; i++) {
			j = a[i];
			b[h[src[8 * start[j] + k]]++] = j;
		}
		swap(a, b);
	}
	return a;
}

/*
 * The encoder's scratch, for @m words: histograms, then run starts
 * (m + 1), two sort buffers (m each).  The decoder needs m bytes.
 */
struct bw2_scratch {
	u16 (*hist)[256];
	u16 *start;
	u16 *a;
	u16 *b;
};

static size_t bw2_layout(void *base, size_t m, struct bw2_scratch *s)
{
	struct zbw_layout l = { base, 0 };

	s->hist = zbw_layout_take(&l, BW2_HIST_SIZE, 8);
	s->start = zbw_layout_take(&l, (m + 1) * sizeof(u16), 2);
	s->a = zbw_layout_take(&l, m * sizeof(u16), 2);
	s->b = zbw_layout_take(&l, m * sizeof(u16), 2);
	return ALIGN(l.size, 8);
}

static int bewalgo2_encode(const u8 *src, unsigned int slen, u8 *dst,
			   unsigned int dcap, void *scratch)
{
	unsigned int m = slen / 8, t = slen % 8, r, d, i, j, k, len, bits;
	u16 *start, *a, *b, *sorted, *ridx;
	struct bw2_scratch sc;
	u8 *end = dst + dcap;
	struct zbw_bitw bw;
	u64 w, pw;
	int ret;
	u8 *out;

	if (m > BW2_MAX_WORDS)
		return -EINVAL;
	ret = zbw_put_size(dst, end, slen);
	if (ret < 0)
		return ret;
	out = dst + ret;
	if (!m) {
		if (end - out < 1 + t)
			return -ENOSPC;
		*out++ = 0;
		memcpy(out, src, t);
		return out + t - dst;
	}

	bw2_layout(scratch, m, &sc);
	start = sc.start;
	a = sc.a;
	b = sc.b;

	/* Only the first word of each run needs sorting. */
	start[0] = 0;
	r = 1;
	pw = get_unaligned((const u64 *)src);
	for (i = 1; i < m; i++) {
		w = get_unaligned((const u64 *)(src + 8 * i));
		start[r] = i;
		r += w != pw;
		pw = w;
	}
	start[r] = m;

	sorted = bw2_sort(src, start, r, a, b, sc.hist);
	ridx = sorted == a ? b : a;

	/* Give each run the index of its word among the distinct words. */
	d = 0;
	pw = 0;
	for (i = 0; i < r; i++) {
		j = sorted[i];
		w = get_unaligned((const u64 *)(src + 8 * start[j]));
		d += i && w != pw;
		ridx[j] = d;
		pw = w;
	}
	d++;
	len = zbw_put_len(out, end, d);
	if (!len || (size_t)(end - out - len) < 8 * (size_t)d)
		return -ENOSPC;
	out += len;
	for (i = 0; i < r; i++) {
		j = sorted[i];
		if (!i || ridx[j] != ridx[sorted[i - 1]]) {
			memcpy(out, src + 8 * start[j], 8);
			out += 8;
		}
	}

	bits = fls(d - 1);
	zbw_bitw_init(&bw, out, end);
	for (j = 0; j < r; j++) {
		len = start[j + 1] - start[j];
		k = fls(len) - 1;
		/* Gamma code: k zeros, the leading one, the k bits below it. */
		zbw_bitw_put(&bw, ridx[j], bits);
		zbw_bitw_put(&bw, ((len << 1) ^ (2u << k) ^ 1) << k, 2 * k + 1);
		zbw_bitw_flush(&bw);
		if (bw.nb >= 8)		/* out of room */
			return -ENOSPC;
	}
	if (!zbw_bitw_close(&bw) || end - bw.p < t)
		return -ENOSPC;
	memcpy(bw.p, src + 8 * m, t);
	return bw.p + t - dst;
}

static int bewalgo2_decode(const u8 *src, unsigned int slen, u8 *dst,
			   unsigned int dcap, void *scratch)
{
	const u8 *in, *q, *dict, *end = src + slen;
	unsigned int m, t, h, bits, o, i, k, last, used;
	u8 *seen = scratch;
	struct zbw_bitr r;
	u64 w, len;
	u32 n, d, v;
	int ret;

	ret = zbw_get_size(src, end, dcap, &n);
	if (ret < 0)
		return ret;
	in = src + ret;
	m = n / 8;
	t = n % 8;
	h = zbw_get_len(in, end, &d);
	if (!h || d > m || (m && !d))
		return -EINVAL;
	in += h;
	if ((size_t)(end - in) < 8 * (size_t)d + t)
		return -EINVAL;
	dict = in;
	for (i = 1; i < d; i++)
		if (get_unaligned_le64(dict + 8 * i) <=
		    get_unaligned_le64(dict + 8 * (i - 1)))
			return -EINVAL;
	in += 8 * (size_t)d;
	q = end - t;

	memset(seen, 0, d);
	used = 0;
	bits = d ? fls(d - 1) : 0;
	zbw_bitr_init(&r, in, q);
	o = 0;
	last = d;
	while (o < m) {
		/*
		 * One refill covers an index and a gamma code (<= 47 bits).
		 * Zeros past the end are no part of the stream: the checks
		 * use the bits it has (avail).
		 */
		zbw_bitr_refill(&r);
		if (zbw_bitr_avail(&r) < (int)bits)
			return -EINVAL;
		v = zbw_bitr_get(&r, bits);
		if (v >= d || v == last || !r.buf)
			return -EINVAL;
		last = v;
		used += !seen[v];
		seen[v] = 1;
		k = __ffs64(r.buf);
		if ((int)(2 * k + 1) > zbw_bitr_avail(&r))
			return -EINVAL;
		len = (1ull << k) | ((r.buf >> (k + 1)) & ((1ull << k) - 1));
		if (len > m - o)
			return -EINVAL;
		r.buf >>= 2 * k + 1;
		r.cnt -= 2 * k + 1;
		w = get_unaligned((const u64 *)(dict + 8 * v));
		for (i = 0; i < len; i++)
			put_unaligned(w, (u64 *)(dst + 8 * (o + i)));
		o += len;
	}
	if (used != d || !zbw_bitr_done(&r))
		return -EINVAL;
	memcpy(dst + 8 * m, q, t);
	return n;
}

static size_t bewalgo2_scratch_size(unsigned int max_len)
{
	struct bw2_scratch sc;

	return bw2_layout(NULL, max_len / 8, &sc);
}

const struct zbewalgo_step zbewalgo_step_BEWALGO2 = {
	.encode		= bewalgo2_encode,
	.decode		= bewalgo2_decode,
	.scratch_size	= bewalgo2_scratch_size,
};
