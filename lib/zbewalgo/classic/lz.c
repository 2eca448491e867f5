// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo step "lz": LZ77 with repeat offsets, its streams Huffman coded.
 *
 * Text, code and process memory repeat whole strings; matching them costs
 * far less than a BWT in both directions, and the repeat offsets catch the
 * fixed strides of arrays of records.
 */

/**
 * DOC: lz step format
 *
 * LZ77: the output is rebuilt from literal bytes and copies of earlier
 * output.  A varint ``n`` (the decoded length), then five *sections* in this
 * order: literals, tokens, extra lengths, offset low bytes, offset high
 * bytes.  A section is a varint ``v`` followed by ``v >> 1`` bytes.  When
 * ``v`` is even these bytes are the section; when it is odd they are a
 * complete ``huffman`` (6) encoding of it, which carries the section's
 * length.  The Huffman coded sections of a page decode to at most
 * ``n + n / 2 + 8`` bytes together, and the last section ends at the end of
 * the input.
 *
 * Decoding reads one token byte ``t`` after the other, starting with an
 * output of 0 bytes and no previous offset:
 *
 * * ``L = t >> 4`` literals; if this field is 15, bytes of the extra
 *   section are added to ``L``, up to and including the first byte that is
 *   not 255.  The next ``L`` bytes of the literal section are appended to
 *   the output.
 * * If the output now holds ``n`` bytes, this token must be the last one
 *   and its low field must be 0.
 * * Otherwise a match follows.  Its length is ``M = (t & 15) + 4``,
 *   extended by extra bytes as above when ``t & 15`` is 15 (before the 4 is
 *   added).  The next offset low byte ``lo`` and high byte ``hi`` give the
 *   offset code ``c = lo | hi << 8``.  The decoder keeps two repeat offsets
 *   ``r0`` and ``r1``, both "none" at the start.  ``c = 0`` means offset
 *   ``r0``; ``c = 1`` means offset ``r1``, and the two are swapped; any
 *   other ``c`` means offset ``c - 2``, after which ``r1 = r0`` and ``r0``
 *   is that offset.  The offset must exist (not "none"), must not be 0 and
 *   must not exceed the output so far, and ``M`` must not take the output
 *   beyond ``n``.  ``M`` bytes are appended, each a copy of the byte that
 *   many positions before it (so a copy may overlap the bytes it writes).
 *
 * After the last token the output must hold ``n`` bytes and every section
 * must be used up exactly.  Because every length is checked against ``n``
 * and every offset against the output so far, a decoder needs no slack
 * around its output buffer.
 */

#include "../core/zbewalgo_internal.h"

#define LZ_MIN		4	/* shortest match */
#define LZ_MAX_IN	65536	/* positions fit 16 bits */
#define LZ_REP0		0	/* offset codes of the two repeat offsets */
#define LZ_REP1		1
#define LZ_NR_REPS	2
#define LZ_MAX_DIST	(0xffff - LZ_NR_REPS)	/* offset codes fit 16 bits */
#define LZ_HASH_BITS	12
#define LZ_DEPTH	16	/* hash chain entries tried per position */
#define LZ_GOOD		32	/* a match this long is not improved lazily */
#define LZ_NR_SECTIONS	5
#define LZ_SKIP_SHIFT	7	/* step + 1 per 2^LZ_SKIP_SHIFT misses */

enum { LZ_LIT, LZ_TOK, LZ_EXT, LZ_LO, LZ_HI };

/* Most tokens of @n bytes: one per match of >= LZ_MIN bytes, one more. */
static size_t lz_max_tokens(size_t n)
{
	return n / LZ_MIN + 1;
}

/* Room each section may take while encoding, see lz_encode() */
static void lz_section_caps(size_t n, size_t *cap)
{
	size_t s = lz_max_tokens(n);

	cap[LZ_LIT] = n;
	cap[LZ_TOK] = s;
	/* a field >= 15 takes 1 + (field - 15) / 255 extra bytes */
	cap[LZ_EXT] = 2 * s + n / 255 + 2;
	cap[LZ_LO] = s;
	cap[LZ_HI] = s;
}

/* Bound of the decoded sections, part of the format */
static size_t lz_decoded_bound(size_t n)
{
	return n + n / 2 + 8;
}

static __always_inline u32 lz_hash(const u8 *p)
{
	return (get_unaligned_le32(p) * 2654435761u) >> (32 - LZ_HASH_BITS);
}

/* Length of the common prefix of @a and @b (@a < @b), at most @end - @b */
static __always_inline unsigned int lz_common(const u8 *a, const u8 *b,
					      const u8 *end)
{
	const u8 *start = b;
	u64 x;

	while (end - b >= 8) {
		x = get_unaligned_le64(a) ^ get_unaligned_le64(b);
		if (x)
			return b - start + (__ffs64(x) >> 3);
		a += 8;
		b += 8;
	}
	while (b < end && *a == *b) {
		a++;
		b++;
	}
	return b - start;
}

struct lz_enc {
	const u8 *src;
	unsigned int n;
	u16 *head;
	u16 *prev;
	u8 *sec[LZ_NR_SECTIONS];
	size_t len[LZ_NR_SECTIONS];
};

/* Where lz_layout() puts the parts of the scratch */
struct lz_scratch {
	struct lz_enc *e;
	u16 *head;
	u16 *prev;
	u8 *sec[LZ_NR_SECTIONS];
	u8 *dec;
};

/*
 * lz's scratch: the huffman step's, for the sections, then either the
 * encoder's state (struct lz_enc, its hash table and chain, and the
 * sections, for @enc_n input bytes; scratch, as kernel stacks are small)
 * or the sections being decoded (for @dec_n output bytes).
 */
static size_t lz_layout(void *base, size_t enc_n, size_t dec_n,
			struct lz_scratch *sc)
{
	struct zbw_layout l = { base, 0 }, d;
	size_t caps[LZ_NR_SECTIONS];
	unsigned int s;

	zbw_layout_take(&l, zbewalgo_step_HUFFMAN.scratch_size(0), 8);
	d = l;
	sc->dec = zbw_layout_take(&d, lz_decoded_bound(dec_n), 8);
	sc->e = zbw_layout_take(&l, sizeof(struct lz_enc), 8);
	sc->head = zbw_layout_take(&l, sizeof(u16) << LZ_HASH_BITS, 2);
	sc->prev = zbw_layout_take(&l, enc_n * sizeof(u16), 2);
	lz_section_caps(enc_n, caps);
	for (s = 0; s < LZ_NR_SECTIONS; s++)
		sc->sec[s] = zbw_layout_take(&l, caps[s], 1);
	return max(l.size, d.size);
}

static void lz_insert(struct lz_enc *e, unsigned int i)
{
	u32 h = lz_hash(e->src + i);

	e->prev[i] = e->head[h];
	e->head[h] = i;
}

/* Longest match at @i: returns its length (0 if < LZ_MIN), sets *@dist */
static unsigned int lz_find(const struct lz_enc *e, unsigned int i,
			    unsigned int *dist)
{
	const u8 *p = e->src + i, *end = e->src + e->n;
	unsigned int cand = e->head[lz_hash(p)], best = LZ_MIN - 1, depth, l;
	/* candidates below this are too far back */
	unsigned int low = i > LZ_MAX_DIST ? i - LZ_MAX_DIST : 0;
	u32 head = get_unaligned((const u32 *)p);

	/* the chain goes down from there: later candidates are below @i too */
	if (cand >= i)
		return 0;
	for (depth = 0; depth < LZ_DEPTH; depth++) {
		const u8 *q = e->src + cand;

		if (cand < low)
			break;

		/* cheap rejects: a hash collision, or no longer than best */
		if (get_unaligned((const u32 *)q) == head && q[best] == p[best]) {
			l = LZ_MIN + lz_common(q + LZ_MIN, p + LZ_MIN, end);
			if (l > best) {
				best = l;
				*dist = i - cand;
				if (p + l == end)
					break;
			}
		}
		if (e->prev[cand] >= cand)
			break;
		cand = e->prev[cand];
	}
	return best >= LZ_MIN ? best : 0;
}

static void lz_put_ext(struct lz_enc *e, unsigned int v)
{
	u8 *x = e->sec[LZ_EXT];

	for (v -= 15; v >= 255; v -= 255)
		x[e->len[LZ_EXT]++] = 255;
	x[e->len[LZ_EXT]++] = v;
}

static void lz_put_seq(struct lz_enc *e, unsigned int anchor,
		       unsigned int lit, unsigned int mlen, unsigned int code)
{
	unsigned int lf = min(lit, 15u), mf = mlen ? min(mlen - LZ_MIN, 15u) : 0;

	memcpy(e->sec[LZ_LIT] + e->len[LZ_LIT], e->src + anchor, lit);
	e->len[LZ_LIT] += lit;
	e->sec[LZ_TOK][e->len[LZ_TOK]++] = lf << 4 | mf;
	if (lf == 15)
		lz_put_ext(e, lit);
	if (!mlen)
		return;
	if (mf == 15)
		lz_put_ext(e, mlen - LZ_MIN);
	e->sec[LZ_LO][e->len[LZ_LO]++] = code & 0xff;
	e->sec[LZ_HI][e->len[LZ_HI]++] = code >> 8;
}

/*
 * Length of the match at @i (at least LZ_MIN bytes before the end) with
 * offset @d, 0 if there is none of LZ_MIN bytes or more.  Most of these
 * are rejected by their first 4 bytes, inline.
 */
static __always_inline unsigned int lz_rep_len(const struct lz_enc *e,
					       unsigned int i, unsigned int d)
{
	const u8 *p = e->src + i;

	if (!d || d > i ||
	    get_unaligned((const u32 *)(p - d)) != get_unaligned((const u32 *)p))
		return 0;
	return LZ_MIN + lz_common(p - d + LZ_MIN, p + LZ_MIN, e->src + e->n);
}

/*
 * Greedy parse with lazy evaluation.  The two repeat offsets cost no
 * offset bytes, so they win against a new offset up to a byte shorter.
 */
static void lz_parse(struct lz_enc *e)
{
	unsigned int n = e->n, i = 0, anchor = 0, len, dist, rl, code;
	unsigned int len2, dist2, last = n >= LZ_MIN ? n - LZ_MIN + 1 : 0;
	unsigned int rep0 = 0, rep1 = 0, miss = 0;
	bool is_rep;

	while (i < last) {
		len = lz_find(e, i, &dist);
		is_rep = false;
		rl = lz_rep_len(e, i, rep1);
		if (rl >= LZ_MIN && rl + 1 >= len) {
			len = rl;
			dist = rep1;
			is_rep = true;
		}
		rl = lz_rep_len(e, i, rep0);
		if (rl >= LZ_MIN && rl + !is_rep >= len) {
			len = rl;
			dist = rep0;
			is_rep = true;
		}
		if (!len) {
			/* long misses: data with few repeats, look less often */
			lz_insert(e, i);
			i += 1 + (miss++ >> LZ_SKIP_SHIFT);
			continue;
		}
		miss = 0;
		lz_insert(e, i);
		while (len < LZ_GOOD && i + 1 < last) {
			len2 = lz_find(e, i + 1, &dist2);
			if (len2 <= len + is_rep)
				break;
			lz_insert(e, ++i);
			len = len2;
			dist = dist2;
			is_rep = false;
		}
		if (dist == rep0) {
			code = LZ_REP0;
		} else {
			/* rep1 swaps with rep0, a new offset pushes rep0 down */
			code = dist == rep1 ? LZ_REP1 : dist + LZ_NR_REPS;
			rep1 = rep0;
			rep0 = dist;
		}
		lz_put_seq(e, anchor, i - anchor, len, code);
		while (--len) {
			if (++i < last)
				lz_insert(e, i);
		}
		anchor = ++i;
	}
	if (anchor < n)
		lz_put_seq(e, anchor, n - anchor, 0, 0);
}

/*
 * The encoder's state in @scratch, for @slen bytes at @src.  Out of line,
 * so that the layout's pointers are not in lz_encode()'s frame while it
 * calls the huffman coder.
 */
static noinline_for_stack struct lz_enc *lz_enc_init(const u8 *src,
						     unsigned int slen,
						     void *scratch)
{
	struct lz_scratch sc;
	struct lz_enc *e;
	unsigned int s;

	lz_layout(scratch, slen, 0, &sc);
	e = sc.e;
	e->src = src;
	e->n = slen;
	e->head = sc.head;
	e->prev = sc.prev;
	/* the sections' lengths, filled from 0 */
	for (s = 0; s < LZ_NR_SECTIONS; s++) {
		e->sec[s] = sc.sec[s];
		e->len[s] = 0;
	}
	memset(e->head, 0, sizeof(u16) << LZ_HASH_BITS);
	return e;
}

static int lz_encode(const u8 *src, unsigned int slen, u8 *dst,
		     unsigned int dcap, void *scratch)
{
	struct lz_enc *e;
	unsigned int s, pos;
	int ret;

	if (slen > LZ_MAX_IN)
		return -EINVAL;
	e = lz_enc_init(src, slen, scratch);
	lz_parse(e);

	ret = zbw_put_size(dst, dst + dcap, slen);
	if (ret < 0)
		return ret;
	pos = ret;
	for (s = 0; s < LZ_NR_SECTIONS; s++) {
		ret = zbw_put_section(e->sec[s], e->len[s], dst + pos,
				      dcap - pos, scratch);
		if (ret < 0)
			return ret;
		pos += ret;
	}
	return pos;
}

/*
 * Copies @len bytes forward in 8-byte steps, up to 15 bytes too many when
 * @dst has @droom and @src @sroom bytes of room: each step reads from
 * @src only what is written before it when the two are 8 or more bytes
 * apart, so that overlapping matches copy right.
 */
static __always_inline void lz_copy(u8 *dst, const u8 *src, size_t len,
				    size_t droom, size_t sroom)
{
	size_t i;

	if (len <= 16 && droom >= 16 && sroom >= 16) {
		memcpy(dst, src, 8);
		memcpy(dst + 8, src + 8, 8);
		return;
	}
	if (droom >= len + 8 && sroom >= len + 8) {
		for (i = 0; i < len; i += 8)
			memcpy(dst + i, src + i, 8);
		return;
	}
	for (i = 0; i < len; i++)
		dst[i] = src[i];
}

/* Adds the extra bytes of a length field of 15 to *@v */
static int lz_get_ext(const u8 *x, size_t xlen, size_t *xi, unsigned int *v)
{
	u8 b;

	do {
		if (*xi >= xlen)
			return -EINVAL;
		b = x[(*xi)++];
		*v += b;
	} while (b == 255);
	return 0;
}

/* Where the sections of an @n-byte output are decoded to, out of line */
static noinline_for_stack u8 *lz_dec_buf(void *scratch, u32 n)
{
	struct lz_scratch sc;

	lz_layout(scratch, 0, n, &sc);
	return sc.dec;
}

static int lz_decode(const u8 *src, unsigned int slen, u8 *dst,
		     unsigned int dcap, void *scratch)
{
	const u8 *end = src + slen, *p = src, *sec[LZ_NR_SECTIONS];
	size_t len[LZ_NR_SECTIONS], room, ti = 0, li = 0, xi = 0, oi = 0;
	unsigned int s, lit, mlen, off, rep0 = 0, rep1 = 0;
	u32 n, o = 0;
	u8 *buf;
	int ret;

	ret = zbw_get_size(p, end, dcap, &n);
	if (ret < 0)
		return ret;
	p += ret;
	buf = lz_dec_buf(scratch, n);
	room = lz_decoded_bound(n);
	for (s = 0; s < LZ_NR_SECTIONS; s++) {
		ret = zbw_get_section(&p, end, buf, room, &sec[s], scratch);
		if (ret < 0)
			return -EINVAL;
		len[s] = ret;
		if (sec[s] == buf) {
			buf += ret;
			room -= ret;
		}
	}
	if (p != end || len[LZ_LO] != len[LZ_HI])
		return -EINVAL;

	while (ti < len[LZ_TOK]) {
		u8 t = sec[LZ_TOK][ti++];

		lit = t >> 4;
		if (lit == 15 && lz_get_ext(sec[LZ_EXT], len[LZ_EXT], &xi, &lit))
			return -EINVAL;
		if (lit > n - o || lit > len[LZ_LIT] - li)
			return -EINVAL;
		lz_copy(dst + o, sec[LZ_LIT] + li, lit, n - o,
			len[LZ_LIT] - li);
		o += lit;
		li += lit;
		mlen = t & 15;
		if (o == n) {
			if (mlen || ti != len[LZ_TOK])
				return -EINVAL;
			break;
		}
		if (mlen == 15 &&
		    lz_get_ext(sec[LZ_EXT], len[LZ_EXT], &xi, &mlen))
			return -EINVAL;
		mlen += LZ_MIN;
		if (oi >= len[LZ_LO])
			return -EINVAL;
		off = sec[LZ_LO][oi] | sec[LZ_HI][oi] << 8;
		oi++;
		if (off == LZ_REP0) {
			off = rep0;
		} else {
			off = off == LZ_REP1 ? rep1 : off - LZ_NR_REPS;
			rep1 = rep0;
			rep0 = off;
		}
		if (!off || off > o || mlen > n - o)
			return -EINVAL;
		if (off >= 8) {
			/* 8-byte steps read only bytes written before */
			lz_copy(dst + o, dst + o - off, mlen, n - o, n - o + off);
			o += mlen;
		} else {
			for (; mlen; mlen--, o++)
				dst[o] = dst[o - off];
		}
	}
	if (o != n || li != len[LZ_LIT] || xi != len[LZ_EXT] ||
	    oi != len[LZ_LO])
		return -EINVAL;
	return n;
}

static size_t lz_scratch_size(unsigned int max_len)
{
	struct lz_scratch sc;

	return lz_layout(NULL, min_t(size_t, max_len, LZ_MAX_IN), max_len,
			 &sc);
}

const struct zbewalgo_step zbewalgo_step_LZ = {
	.encode		= lz_encode,
	.decode		= lz_decode,
	.scratch_size	= lz_scratch_size,
};
