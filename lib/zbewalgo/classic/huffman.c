// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo huffman step: canonical Huffman coding of bytes.
 */

/**
 * DOC: huffman step format
 *
 * A varint ``n`` (the decoded length); nothing follows when ``n`` is 0.
 * When ``n >= 512`` a varint ``m`` follows and the symbols are split into
 * two bit streams, decoded side by side: stream 1 holds the first
 * ``n - n / 2`` symbols and stream 2, the last ``m`` bytes of the input,
 * the other ``n / 2`` (``m`` is 0 in mode 0).  For smaller ``n`` there is
 * only stream 1.  Stream 1 runs from after the varints up to stream 2.
 *
 * Each stream is read least significant bit first (bit ``i`` is bit
 * ``i % 8`` of byte ``i / 8``; a field starts with its least significant
 * bit) and ends with 0..7 zero bits in its last byte.  Stream 1 starts with
 * a 2-bit mode:
 *
 * * Mode 0: an 8-bit symbol ``s``; the output is ``n`` copies of ``s``.
 * * Modes 1 and 2: an 8-bit ``maxsym``, then 14 3-bit lengths (0 = unused)
 *   of a *meta code* for tokens 0..13, then tokens (meta codes) giving the
 *   code lengths of symbols 0..maxsym in order (symbols above ``maxsym``
 *   have length 0; the length of ``maxsym`` is not 0), then the symbol
 *   codes.  Token 12 is followed by 3 extra bits ``x`` and stands for
 *   ``3 + x`` zero lengths; token 13 by 8 extra bits ``x`` and stands for
 *   ``11 + x`` zero lengths; a run must end before ``maxsym``.  In mode 1,
 *   tokens 0..11 are a length.  In mode 2, token 11 is length 0 and tokens
 *   0..10 give length ``(p - 1 + t) % 11 + 1``, where ``p`` is the last
 *   non-zero length given (8 at the start).
 * * Mode 3: a 3-bit table number ``t``, then the symbol codes, whose
 *   lengths are those of predefined table ``t`` (``huffman_tables.h``; the
 *   format document lists the tables after this description).  Table
 *   numbers without a table are invalid.
 *
 * Both the meta code (lengths <= 7) and the symbol code (lengths <= 11)
 * must be complete canonical prefix codes: codes are assigned in order of
 * (length, symbol value), counting up from all zeros as in deflate, and
 * each code is sent most significant bit first.  Two streams let a decoder
 * overlap two table lookups; lengths of at most 11 bits make each symbol
 * one lookup.
 */

#include "../core/bitstream.h"
#include "../core/huffman.h"
#include "huffman_tables.h"

#define ZBW_HUF_TAB_SIZE	2048	/* 2^ZBW_HUF_MAX_BITS */
#define ZBW_HUF_META_BITS	7
#define ZBW_HUF_META_SYMS	14

#define ZBW_HUF_MODE_SINGLE	0
#define ZBW_HUF_MODE_DIRECT	1
#define ZBW_HUF_MODE_DELTA	2
#define ZBW_HUF_MODE_TABLE	3
#define ZBW_HUF_TABLE_BITS	3
/* Header bits: mode and table number; the least a fitted code needs */
#define ZBW_HUF_TABLE_HEADER	(2 + ZBW_HUF_TABLE_BITS)
#define ZBW_HUF_MIN_HEADER	(2 + 8 + 3 * ZBW_HUF_META_SYMS)
/* Longer inputs amortise their own header: predefined tables rarely win */
#define ZBW_HUF_TABLE_MAX_LEN	1024

#define ZBW_HUF_TOK_ZERO	11	/* length 0 in delta mode */
#define ZBW_HUF_TOK_RUN		12	/* 3..10 zero lengths */
#define ZBW_HUF_TOK_LRUN	13	/* 11..266 zero lengths */
#define ZBW_HUF_DELTA_START	8
/* Inputs at least this long are coded as two streams */
#define ZBW_HUF_SPLIT		512

struct zbw_huf_enc {
	/*
	 * 4 partial histograms, then: [0] all symbols, [1] stream 1 only,
	 * [2..4] buffers for sorting
	 */
	u32 hist[5][256];
	u32 code[256];		/* reversed code | length << 16 */
	u8 len[256];
	u8 used[256];		/* the symbols that occur */
	u8 tok[2][256];
	u8 ext[2][256];
	u32 tfreq[2][ZBW_HUF_META_SYMS];
	u8 mlen[2][ZBW_HUF_META_SYMS];
};

struct zbw_huf_dec {
	u16 tab[ZBW_HUF_TAB_SIZE];	/* length | symbol << 8 */
	u16 meta[1u << ZBW_HUF_META_BITS];
	u8 len[256];
	u8 order[256];			/* zbw_huf_table()'s */
};

union zbw_huf_scratch {
	struct zbw_huf_enc enc;
	struct zbw_huf_dec dec;
};

/* Tokens describing the code lengths of symbols 0..@maxsym, see the top */
static unsigned int zbw_huf_tokens(const u8 *len, unsigned int maxsym,
				   bool delta, u8 *tok, u8 *ext, u32 *tfreq)
{
	unsigned int s = 0, n = 0, prev = ZBW_HUF_DELTA_START, l, r, t, x;

	memset(tfreq, 0, ZBW_HUF_META_SYMS * sizeof(*tfreq));
	while (s <= maxsym) {
		l = len[s];
		x = 0;
		if (!l) {
			/* len[maxsym] != 0 ends the run */
			for (r = 1; !len[s + r]; r++)
				;
			if (r >= 11) {
				t = ZBW_HUF_TOK_LRUN;
				x = r - 11;
			} else if (r >= 3) {
				t = ZBW_HUF_TOK_RUN;
				x = r - 3;
			} else {
				t = delta ? ZBW_HUF_TOK_ZERO : 0;
				r = 1;
			}
			s += r;
		} else {
			if (delta) {
				t = l >= prev ? l - prev : l + 11 - prev;
				prev = l;
			} else {
				t = l;
			}
			s++;
		}
		tok[n] = t;
		ext[n] = x;
		tfreq[t]++;
		n++;
	}
	return n;
}

/* Bits for the mode, maxsym, meta lengths and the tokens */
static u32 zbw_huf_header_bits(const u32 *tfreq, const u8 *mlen)
{
	u32 bits = 2 + 8 + 3 * ZBW_HUF_META_SYMS;
	unsigned int t;

	for (t = 0; t < ZBW_HUF_META_SYMS; t++)
		bits += tfreq[t] * mlen[t];
	return bits + 3 * tfreq[ZBW_HUF_TOK_RUN] + 8 * tfreq[ZBW_HUF_TOK_LRUN];
}

/* Code @n symbols into @w, whose size was computed exactly */
static __always_inline void zbw_huf_put_syms(struct zbw_bitw *w,
					     const u32 *code, const u8 *src,
					     unsigned int n)
{
	unsigned int i;
	u32 c0, c1, c2, c3;

	for (i = 0; i + 4 <= n; i += 4) {
		c0 = code[src[i]];
		c1 = code[src[i + 1]];
		c2 = code[src[i + 2]];
		c3 = code[src[i + 3]];
		zbw_bitw_put(w, c0 & 0xffff, c0 >> 16);
		zbw_bitw_put(w, c1 & 0xffff, c1 >> 16);
		zbw_bitw_put(w, c2 & 0xffff, c2 >> 16);
		zbw_bitw_put(w, c3 & 0xffff, c3 >> 16);
		zbw_bitw_flush(w);
	}
	for (; i < n; i++) {
		c0 = code[src[i]];
		zbw_bitw_put(w, c0 & 0xffff, c0 >> 16);
		zbw_bitw_flush(w);
	}
}

/* Mode 1 or 2 header: maxsym, the meta code and the code length tokens */
static void zbw_huf_put_header(struct zbw_bitw *w, struct zbw_huf_enc *e,
			       unsigned int mode, unsigned int maxsym,
			       u32 *next)
{
	const u8 *mlen = e->mlen[mode - ZBW_HUF_MODE_DIRECT];
	const u8 *tok = e->tok[mode - ZBW_HUF_MODE_DIRECT];
	const u8 *ext = e->ext[mode - ZBW_HUF_MODE_DIRECT];
	unsigned int i, j;
	u64 v;

	zbw_bitw_put(w, mode | maxsym << 2, 10);
	for (v = 0, i = 0; i < ZBW_HUF_META_SYMS; i++)
		v |= (u64)mlen[i] << (3 * i);
	zbw_bitw_flush(w);
	zbw_bitw_put(w, v, 3 * ZBW_HUF_META_SYMS);
	zbw_bitw_flush(w);

	/* meta codes reversed for LSB-first */
	zbw_huf_canon(mlen, ZBW_HUF_META_SYMS, ZBW_HUF_META_BITS, next, NULL);
	for (i = 0; i < ZBW_HUF_META_SYMS; i++)
		if (mlen[i])
			e->code[i] = zbw_huf_rev(next[mlen[i]]++, mlen[i]);
	for (j = 0, i = 0; i <= maxsym; j++) {
		zbw_bitw_put(w, e->code[tok[j]], mlen[tok[j]]);
		if (tok[j] == ZBW_HUF_TOK_RUN) {
			zbw_bitw_put(w, ext[j], 3);
			i += 3 + ext[j];
		} else if (tok[j] == ZBW_HUF_TOK_LRUN) {
			zbw_bitw_put(w, ext[j], 8);
			i += 11 + ext[j];
		} else {
			i++;
		}
		zbw_bitw_flush(w);
	}
}

/*
 * The predefined table that codes the @k symbols @used, which occur
 * @hist[symbol] times, in the fewest bits: its number goes to *@tab, the
 * bits are returned.
 */
static u32 zbw_huf_pick_table(const u32 *hist, const u8 *used,
			      unsigned int k, unsigned int *tab)
{
	u32 best = U32_MAX, b;
	unsigned int t, i;

	for (t = 0; t < ZBW_HUF_NR_TABLES; t++) {
		const u8 *len = zbw_huf_tables[t];

		/* a table worse than the best so far is not finished */
		for (b = 0, i = 0; i < k && b < best; i++)
			b += hist[used[i]] * len[used[i]];
		if (b < best) {
			best = b;
			*tab = t;
		}
	}
	return best;
}

int zbw_huf_encode(const u8 *src, unsigned int slen, u8 *dst,
		   unsigned int dcap, void *scratch)
{
	struct zbw_huf_enc *e = &((union zbw_huf_scratch *)scratch)->enc;
	u32 *hist = e->hist[0], *hist1 = e->hist[1], *next = e->hist[2];
	unsigned int i, j, hl, ml = 0, k, maxsym, mode, half, n2, tab = 0;
	u32 a, b, bits, bits1, hbits[2], hb, tsym, s1, s2;
	u8 *end = dst + dcap;
	const u8 *len;
	struct zbw_bitw w;
	int ret;

	ret = zbw_put_size(dst, end, slen);
	if (ret < 0)
		return ret;
	hl = ret;
	if (!slen)
		return hl;

	/* Stream 1 codes src[0..half), stream 2 the rest */
	n2 = slen >= ZBW_HUF_SPLIT ? slen / 2 : 0;
	half = slen - n2;
	memset(e->hist, 0, 4 * sizeof(e->hist[0]));
	for (i = 0; i + 2 <= n2; i += 2) {
		e->hist[0][src[i]]++;
		e->hist[1][src[i + 1]]++;
		e->hist[2][src[half + i]]++;
		e->hist[3][src[half + i + 1]]++;
	}
	for (j = i; j < half; j++)
		e->hist[0][src[j]]++;
	for (j = half + i; j < slen; j++)
		e->hist[2][src[j]]++;
	for (k = 0, i = 0; i < 256; i++) {
		a = e->hist[0][i] + e->hist[1][i];
		b = e->hist[2][i] + e->hist[3][i];
		hist1[i] = a;
		hist[i] = a + b;
		e->used[k] = i;
		k += !!(a + b);
	}
	maxsym = e->used[k - 1];

	if (zbw_huf_lengths(hist, 256, ZBW_HUF_MAX_BITS, e->len,
			    e->hist[2]) == 1) {
		ml = n2 ? 1 : 0;
		if (dcap - hl < ml + 2)
			return -ENOSPC;
		if (ml)
			dst[hl] = 0;
		dst[hl + ml] = (u8)(maxsym << 2);
		dst[hl + ml + 1] = (u8)(maxsym >> 6);
		return hl + ml + 2;
	}

	/* Exact size first: the cheap "does it compress" test */
	bits = 0;
	for (i = 0; i <= maxsym; i++)
		bits += hist[i] * e->len[i];
	if (bits / 8 + 6 > dcap - hl)
		return -ENOSPC;
	/* A fitted code, unless a predefined table is as small */
	len = e->len;
	tsym = U32_MAX;
	if (slen <= ZBW_HUF_TABLE_MAX_LEN)
		tsym = zbw_huf_pick_table(hist, e->used, k, &tab);
	/*
	 * A fitted code's header spends a bit or more on each used symbol:
	 * near-random input stops here, before its header is worked out.
	 */
	if (min_t(u64, (u64)tsym + ZBW_HUF_TABLE_HEADER,
		  (u64)bits + ZBW_HUF_MIN_HEADER + k) > 8ull * (dcap - hl))
		return -ENOSPC;
	mode = ZBW_HUF_MODE_TABLE;
	/* can a fitted code win, even with the shortest header it may have? */
	if ((u64)tsym + ZBW_HUF_TABLE_HEADER > (u64)bits + ZBW_HUF_MIN_HEADER) {
		for (i = 0; i < 2; i++) {
			zbw_huf_tokens(e->len, maxsym, i, e->tok[i], e->ext[i],
				       e->tfreq[i]);
			zbw_huf_lengths(e->tfreq[i], ZBW_HUF_META_SYMS,
					ZBW_HUF_META_BITS, e->mlen[i],
					e->hist[2]);
			hbits[i] = zbw_huf_header_bits(e->tfreq[i],
						       e->mlen[i]);
		}
		i = hbits[1] < hbits[0];
		if ((u64)tsym + ZBW_HUF_TABLE_HEADER > (u64)hbits[i] + bits) {
			mode = ZBW_HUF_MODE_DIRECT + i;
			hb = hbits[i];
		}
	}
	if (mode == ZBW_HUF_MODE_TABLE) {
		len = zbw_huf_tables[tab];
		hb = ZBW_HUF_TABLE_HEADER;
		bits = tsym;
		maxsym = 255;
	}
	for (bits1 = 0, i = 0; i < k; i++)
		bits1 += hist1[e->used[i]] * len[e->used[i]];
	s1 = DIV_ROUND_UP(hb + bits1, 8);
	s2 = DIV_ROUND_UP(bits - bits1, 8);
	if (n2) {
		ml = zbw_put_len(dst + hl, end, s2);
		if (!ml)
			return -ENOSPC;
	}
	if (s1 + s2 > dcap - hl - ml)
		return -ENOSPC;

	zbw_bitw_init(&w, dst + hl + ml, dst + hl + ml + s1);
	if (mode == ZBW_HUF_MODE_TABLE)
		zbw_bitw_put(&w, mode | tab << 2, ZBW_HUF_TABLE_HEADER);
	else
		zbw_huf_put_header(&w, e, mode, maxsym, next);

	/* The symbol codes, reversed for LSB-first */
	zbw_huf_canon(len, maxsym + 1, ZBW_HUF_MAX_BITS, next, NULL);
	for (i = 0; i <= maxsym; i++)
		if (len[i])
			e->code[i] = zbw_huf_rev(next[len[i]]++, len[i]) |
				     (u32)len[i] << 16;
	zbw_huf_put_syms(&w, e->code, src, half);
	if (!zbw_bitw_close(&w) || w.p != w.end)
		return -EINVAL;		/* cannot happen */
	if (n2) {
		w.end += s2;
		w.acc = 0;
		zbw_huf_put_syms(&w, e->code, src + half, n2);
		if (!zbw_bitw_close(&w) || w.p != w.end)
			return -EINVAL;
	}
	return w.end - dst;
}

/* Code lengths of symbols 0..255 from the header, see the top */
static int zbw_huf_read_lengths(struct zbw_bitr *r, bool delta,
				struct zbw_huf_dec *d)
{
	u8 mlen[ZBW_HUF_META_SYMS];
	unsigned int maxsym, i, e, t, l, n, prev = ZBW_HUF_DELTA_START;

	maxsym = zbw_bitr_get(r, 8);
	zbw_bitr_refill(r);
	for (i = 0; i < ZBW_HUF_META_SYMS; i++)
		mlen[i] = zbw_bitr_get(r, 3);
	if (zbw_huf_table(mlen, ZBW_HUF_META_SYMS, ZBW_HUF_META_BITS,
			  d->meta, d->order, NULL))
		return -EINVAL;
	for (i = 0; i <= maxsym;) {
		zbw_bitr_refill(r);
		if (r->extra > 8)
			return -EINVAL;
		e = d->meta[r->buf & ((1u << ZBW_HUF_META_BITS) - 1)];
		zbw_bitr_get(r, e & 0xff);
		t = e >> 8;
		if (t >= ZBW_HUF_TOK_RUN) {
			if (t == ZBW_HUF_TOK_RUN)
				n = 3 + zbw_bitr_get(r, 3);
			else
				n = 11 + zbw_bitr_get(r, 8);
			if (n > maxsym - i)	/* the run must end before maxsym */
				return -EINVAL;
			memset(d->len + i, 0, n);
			i += n;
			continue;
		}
		if (!delta) {
			l = t;
		} else if (t == ZBW_HUF_TOK_ZERO) {
			l = 0;
		} else {
			l = prev - 1 + t;
			if (l >= 11)
				l -= 11;
			l++;
			prev = l;
		}
		d->len[i++] = l;
	}
	if (!d->len[maxsym])
		return -EINVAL;
	memset(d->len + maxsym + 1, 0, 255 - maxsym);
	return 0;
}

/* Decode symbols one by one until @o reaches @oend (stream tails) */
static int zbw_huf_dec_tail(struct zbw_bitr *r, const u16 *tab, u32 mask,
			    u8 *o, u8 *oend)
{
	unsigned int e;

	while (o < oend) {
		if (r->cnt < ZBW_HUF_MAX_BITS) {
			zbw_bitr_refill(r);
			if (r->extra > 8)
				return -EINVAL;
		}
		e = tab[r->buf & mask];
		*o++ = e >> 8;
		zbw_bitr_get(r, e & 0xff);
	}
	return 0;
}

/* Next symbol of a stream with enough bits in @buf */
static __always_inline u8 zbw_huf_dec1(const u16 *tab, u32 mask, u64 *buf,
				       unsigned int *cnt)
{
	unsigned int e = tab[*buf & mask];

	*buf >>= e & 63;	/* e & 63 is the length, so no extra AND */
	*cnt -= e & 63;
	return e >> 8;
}

int zbw_huf_decode(const u8 *src, unsigned int slen, u8 *dst,
		   unsigned int dcap, void *scratch)
{
	struct zbw_huf_dec *d = &((union zbw_huf_scratch *)scratch)->dec;
	const u8 *end = src + slen, *p1, *p2;
	unsigned int hl, ml = 0, mode, cnt1, cnt2, bits;
	const u16 *tab = d->tab;
	struct zbw_bitr r1, r2;
	u32 n, m = 0, n2, half, i, mask;
	u8 *o1, *o2;
	u64 buf1, buf2;
	int ret;

	ret = zbw_get_size(src, end, dcap, &n);
	if (ret < 0)
		return ret;
	hl = ret;
	if (!n)
		return hl == slen ? 0 : -EINVAL;
	n2 = n >= ZBW_HUF_SPLIT ? n / 2 : 0;
	half = n - n2;
	if (n2) {
		ml = zbw_get_len(src + hl, end, &m);
		if (!ml || m > slen - hl - ml)
			return -EINVAL;
	}
	zbw_bitr_init(&r1, src + hl + ml, end - m);
	zbw_bitr_init(&r2, end - m, end);
	zbw_bitr_refill(&r1);
	mode = zbw_bitr_get(&r1, 2);
	if (mode == ZBW_HUF_MODE_SINGLE) {
		if (m)
			return -EINVAL;
		memset(dst, zbw_bitr_get(&r1, 8), n);
		if (!zbw_bitr_done(&r1))
			return -EINVAL;
		return n;
	}
	if (mode == ZBW_HUF_MODE_TABLE) {
		i = zbw_bitr_get(&r1, ZBW_HUF_TABLE_BITS);
		if (i >= ZBW_HUF_NR_TABLES)
			return -EINVAL;
		memcpy(d->len, zbw_huf_tables[i], sizeof(d->len));
	} else if (zbw_huf_read_lengths(&r1, mode == ZBW_HUF_MODE_DELTA, d)) {
		return -EINVAL;
	}
	/* A table for the longest code only: short ones are quick to fill */
	for (bits = 1, i = 0; i < 256; i++)
		bits = max_t(unsigned int, bits, d->len[i]);
	if (zbw_huf_table(d->len, 256, bits, d->tab, d->order, NULL))
		return -EINVAL;
	mask = (1u << bits) - 1;

	/*
	 * Two independent streams hide the latency of the table lookups.  5
	 * codes of <= 11 bits per refill of >= 56 bits.  cnt1 < 64 here as
	 * the header ended with a token or the table number, so the shifts
	 * are defined.
	 */
	o1 = dst;
	o2 = dst + half;
	buf1 = r1.buf;
	cnt1 = r1.cnt;
	p1 = r1.p;
	buf2 = r2.buf;
	cnt2 = r2.cnt;
	p2 = r2.p;
	for (i = 0; i + 5 <= n2 && r1.end - p1 >= 8 && r2.end - p2 >= 8;
	     i += 5) {
		zbw_bitr_refill_fast(&p1, &buf1, &cnt1);
		zbw_bitr_refill_fast(&p2, &buf2, &cnt2);
		o1[i] = zbw_huf_dec1(tab, mask, &buf1, &cnt1);
		o2[i] = zbw_huf_dec1(tab, mask, &buf2, &cnt2);
		o1[i + 1] = zbw_huf_dec1(tab, mask, &buf1, &cnt1);
		o2[i + 1] = zbw_huf_dec1(tab, mask, &buf2, &cnt2);
		o1[i + 2] = zbw_huf_dec1(tab, mask, &buf1, &cnt1);
		o2[i + 2] = zbw_huf_dec1(tab, mask, &buf2, &cnt2);
		o1[i + 3] = zbw_huf_dec1(tab, mask, &buf1, &cnt1);
		o2[i + 3] = zbw_huf_dec1(tab, mask, &buf2, &cnt2);
		o1[i + 4] = zbw_huf_dec1(tab, mask, &buf1, &cnt1);
		o2[i + 4] = zbw_huf_dec1(tab, mask, &buf2, &cnt2);
	}
	r1.buf = buf1;
	r1.cnt = cnt1;
	r1.p = p1;
	r2.buf = buf2;
	r2.cnt = cnt2;
	r2.p = p2;
	if (zbw_huf_dec_tail(&r1, tab, mask, o1 + i, dst + half) ||
	    zbw_huf_dec_tail(&r2, tab, mask, o2 + i, dst + n) ||
	    !zbw_bitr_done(&r1) || !zbw_bitr_done(&r2))
		return -EINVAL;
	return n;
}

static size_t zbw_huf_scratch_size(unsigned int max_len)
{
	return sizeof(union zbw_huf_scratch);
}

const struct zbewalgo_step zbewalgo_step_HUFFMAN = {
	.encode		= zbw_huf_encode,
	.decode		= zbw_huf_decode,
	.scratch_size	= zbw_huf_scratch_size,
};
