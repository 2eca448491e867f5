// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo steps "bitshuffle2", "bitshuffle4" and "bitshuffle8": byte-plane
 * transpose.  Grouping the bytes of equal significance of 16, 32 or 64 bit
 * values makes their similarities visible to the byte oriented steps that
 * follow.
 * Every byte string is a valid encoding, so decoding only fails when the
 * output does not fit.
 */

/**
 * DOC: bitshuffle2, bitshuffle4 and bitshuffle8 step format
 *
 * No header; output length equals input length.  For a word size ``w`` (2,
 * 4 or 8) an input of ``n`` bytes holds ``m = n / w`` whole words.  Plane
 * ``j`` (0 <= j < w) is byte ``j`` of every word, ``src[i * w + j]`` for
 * ``i = 0..m-1``.  The output is plane 0, plane 1, ..., plane ``w - 1``,
 * then the last ``n % w`` input bytes unchanged.  Every byte string is a
 * valid encoding.
 */

#include "zbewalgo_internal.h"

#define BS_LO32		0x00000000ffffffffULL
#define BS_EVEN16	0x0000ffff0000ffffULL
#define BS_EVEN8	0x00ff00ff00ff00ffULL
#define BS_ODD8_LO	0x00000000ff00ff00ULL

/*
 * Transposes a 4 x 4 byte matrix in place, rows 0-1 in @x and rows 2-3 in
 * @y (byte c of row r is byte 4 * (r & 1) + c): first the off-diagonal
 * 2 x 2 blocks trade places, then the bytes within each block.  Word-wide
 * swaps instead of byte moves: a third of the time (and no SIMD needed).
 */
static __always_inline void bs_transpose4x4(u64 *x, u64 *y)
{
	u64 t;

	t = ((*x >> 16) ^ *y) & BS_EVEN16;
	*y ^= t;
	*x ^= t << 16;
	t = ((*x >> 24) ^ *x) & BS_ODD8_LO;
	*x ^= t ^ (t << 24);
	t = ((*y >> 24) ^ *y) & BS_ODD8_LO;
	*y ^= t ^ (t << 24);
}

/* Trades the bits @m of @b with the bits @m << @s of @a. */
static __always_inline void bs_swap(u64 *a, u64 *b, unsigned int s, u64 m)
{
	u64 t = ((*a >> s) ^ *b) & m;

	*b ^= t;
	*a ^= t << s;
}

/*
 * One block of 4 words of 4 bytes, @x and @y: the words when encoding,
 * planes 0-1 and 2-3 (4 bytes each) when decoding.
 */
static __always_inline void bs4_block4(const u8 *src, u8 *dst,
				       unsigned int m, unsigned int i,
				       bool encode)
{
	u64 x, y;

	if (encode) {
		x = get_unaligned_le64(src + 4 * i);
		y = get_unaligned_le64(src + 4 * i + 8);
	} else {
		x = get_unaligned_le32(src + i) |
		    (u64)get_unaligned_le32(src + m + i) << 32;
		y = get_unaligned_le32(src + 2 * m + i) |
		    (u64)get_unaligned_le32(src + 3 * m + i) << 32;
	}
	bs_transpose4x4(&x, &y);
	if (encode) {
		put_unaligned_le32((u32)x, dst + i);
		put_unaligned_le32((u32)(x >> 32), dst + m + i);
		put_unaligned_le32((u32)y, dst + 2 * m + i);
		put_unaligned_le32((u32)(y >> 32), dst + 3 * m + i);
	} else {
		put_unaligned_le64(x, dst + 4 * i);
		put_unaligned_le64(y, dst + 4 * i + 8);
	}
}

/* Two 4-byte words x[i], x[i + 1] from their differences and x[i - 1] */
static __always_inline u64 bs4_sum2(u64 d, u64 *prev)
{
	u32 lo = (u32)*prev + (u32)d, hi = lo + (u32)(d >> 32);

	*prev = hi;
	return lo | (u64)hi << 32;
}

/* Eight 4-byte words from their differences and the word before them */
static __always_inline void bs4_sum(u64 *a, u64 *b, u64 *c, u64 *e,
				    u64 *prev)
{
	*a = bs4_sum2(*a, prev);
	*b = bs4_sum2(*b, prev);
	*c = bs4_sum2(*c, prev);
	*e = bs4_sum2(*e, prev);
}

/* The differences of x[i], x[i + 1] and x[i - 1] in @prev */
static __always_inline u64 bs4_diff2(u64 x, u64 *prev)
{
	u32 lo = (u32)x - (u32)*prev, hi = (u32)(x >> 32) - (u32)x;

	*prev = x >> 32;
	return lo | (u64)hi << 32;
}

/* Eight 4-byte words to their differences, @prev the word before them */
static __always_inline void bs4_diff(u64 *a, u64 *b, u64 *c, u64 *e,
				     u64 *prev)
{
	*a = bs4_diff2(*a, prev);
	*b = bs4_diff2(*b, prev);
	*c = bs4_diff2(*c, prev);
	*e = bs4_diff2(*e, prev);
}

/*
 * Whole blocks of 4 words of 4 bytes; returns the words done.  Eight
 * words at a time, as a 4 x 8 byte transpose (the 8 x 8 one on half the
 * rows): a, b, c, e hold words 0-1, 2-3, 4-5, 6-7 and end as planes 0,
 * 2, 1, 3, so every plane is written (or read) 8 bytes at a time.  Each
 * trade is its own inverse: decoding makes them in the reverse order.
 */
static __always_inline unsigned int bs4_blocks(const u8 *src, u8 *dst,
					       unsigned int m, bool encode,
					       bool delta, u64 *prev)
{
	unsigned int i;
	u64 a, b, c, e;

	for (i = 0; i + 8 <= m; i += 8) {
		if (encode) {
			a = get_unaligned_le64(src + 4 * i);
			b = get_unaligned_le64(src + 4 * i + 8);
			c = get_unaligned_le64(src + 4 * i + 16);
			e = get_unaligned_le64(src + 4 * i + 24);
			if (delta)
				bs4_diff(&a, &b, &c, &e, prev);
			bs_swap(&a, &c, 32, BS_LO32);
			bs_swap(&b, &e, 32, BS_LO32);
			bs_swap(&a, &b, 16, BS_EVEN16);
			bs_swap(&c, &e, 16, BS_EVEN16);
			bs_swap(&a, &c, 8, BS_EVEN8);
			bs_swap(&b, &e, 8, BS_EVEN8);
			put_unaligned_le64(a, dst + i);
			put_unaligned_le64(c, dst + m + i);
			put_unaligned_le64(b, dst + 2 * m + i);
			put_unaligned_le64(e, dst + 3 * m + i);
		} else {
			a = get_unaligned_le64(src + i);
			c = get_unaligned_le64(src + m + i);
			b = get_unaligned_le64(src + 2 * m + i);
			e = get_unaligned_le64(src + 3 * m + i);
			bs_swap(&a, &c, 8, BS_EVEN8);
			bs_swap(&b, &e, 8, BS_EVEN8);
			bs_swap(&a, &b, 16, BS_EVEN16);
			bs_swap(&c, &e, 16, BS_EVEN16);
			bs_swap(&a, &c, 32, BS_LO32);
			bs_swap(&b, &e, 32, BS_LO32);
			if (delta)
				bs4_sum(&a, &b, &c, &e, prev);
			put_unaligned_le64(a, dst + 4 * i);
			put_unaligned_le64(b, dst + 4 * i + 8);
			put_unaligned_le64(c, dst + 4 * i + 16);
			put_unaligned_le64(e, dst + 4 * i + 24);
		}
	}
	if (i + 4 <= m && !delta) {
		bs4_block4(src, dst, m, i, encode);
		i += 4;
	}
	return i;
}

/* The even bytes of @x, in order, in the low half of the result */
static __always_inline u64 bs2_even(u64 x)
{
	x &= BS_EVEN8;
	x = (x | x >> 8) & BS_EVEN16;
	return (x | x >> 16) & BS_LO32;
}

/* bs2_even() undone: the bytes of @x's low half to the even bytes */
static __always_inline u64 bs2_spread(u64 x)
{
	x &= BS_LO32;
	x = (x | x << 16) & BS_EVEN16;
	return (x | x << 8) & BS_EVEN8;
}

/* Lane-wise sum and difference of the four 16-bit words of @x and @y */
#define BS_TOP16	0x8000800080008000ULL

static __always_inline u64 bs2_add(u64 x, u64 y)
{
	return ((x & ~BS_TOP16) + (y & ~BS_TOP16)) ^ ((x ^ y) & BS_TOP16);
}

static __always_inline u64 bs2_sub(u64 x, u64 y)
{
	return ((x | BS_TOP16) - (y & ~BS_TOP16)) ^ ((x ^ ~y) & BS_TOP16);
}

/* Four 2-byte words to their differences, @prev the word before them */
static __always_inline u64 bs2_diff(u64 x, u64 *prev)
{
	u64 d = bs2_sub(x, x << 16 | *prev);

	*prev = x >> 48;
	return d;
}

/* Four 2-byte words from their differences and the word before them */
static __always_inline u64 bs2_sum(u64 d, u64 *prev)
{
	/* prefix sums over the lanes, in two doubling steps */
	d = bs2_add(d, d << 16);
	d = bs2_add(d, d << 32);
	d = bs2_add(d, *prev * 0x0001000100010001ULL);
	*prev = d >> 48;
	return d;
}

/*
 * Whole blocks of 8 words of 2 bytes; returns the words done.  Words 0-3
 * and 4-7 are two 64-bit rows, their even and odd bytes planes 0 and 1.
 */
static __always_inline unsigned int bs2_blocks(const u8 *src, u8 *dst,
					       unsigned int m, bool encode,
					       bool delta, u64 *prev)
{
	unsigned int i;
	u64 a, b, p0, p1;

	for (i = 0; i + 8 <= m; i += 8) {
		if (encode) {
			a = get_unaligned_le64(src + 2 * i);
			b = get_unaligned_le64(src + 2 * i + 8);
			if (delta) {
				a = bs2_diff(a, prev);
				b = bs2_diff(b, prev);
			}
			p0 = bs2_even(a) | bs2_even(b) << 32;
			p1 = bs2_even(a >> 8) | bs2_even(b >> 8) << 32;
			put_unaligned_le64(p0, dst + i);
			put_unaligned_le64(p1, dst + m + i);
		} else {
			p0 = get_unaligned_le64(src + i);
			p1 = get_unaligned_le64(src + m + i);
			a = bs2_spread(p0) | bs2_spread(p1) << 8;
			b = bs2_spread(p0 >> 32) | bs2_spread(p1 >> 32) << 8;
			if (delta) {
				a = bs2_sum(a, prev);
				b = bs2_sum(b, prev);
			}
			put_unaligned_le64(a, dst + 2 * i);
			put_unaligned_le64(b, dst + 2 * i + 8);
		}
	}
	return i;
}

/*
 * Whole blocks of 8 words of 8 bytes; returns the words done.  Each block
 * is an 8 x 8 byte matrix, transposed: row j is word j when encoding,
 * plane j when decoding.  Named rows rather than an array keep all eight
 * in registers.
 */
static __always_inline unsigned int bs8_blocks(const u8 *src, u8 *dst,
					       unsigned int m, bool encode,
					       bool delta, u64 *prev)
{
	const u8 *s;
	u8 *d;
	unsigned int i, in, out;
	u64 r0, r1, r2, r3, r4, r5, r6, r7, t;

	/* distance between rows in @src and in @dst */
	in = encode ? 8 : m;
	out = encode ? m : 8;
	for (i = 0; i + 8 <= m; i += 8) {
		s = encode ? src + 8 * i : src + i;
		d = encode ? dst + i : dst + 8 * i;
		r0 = get_unaligned_le64(s);
		r1 = get_unaligned_le64(s + in);
		r2 = get_unaligned_le64(s + 2 * in);
		r3 = get_unaligned_le64(s + 3 * in);
		r4 = get_unaligned_le64(s + 4 * in);
		r5 = get_unaligned_le64(s + 5 * in);
		r6 = get_unaligned_le64(s + 6 * in);
		r7 = get_unaligned_le64(s + 7 * in);
		if (delta && encode) {	/* the words' differences instead */
			t = r7;
			r7 -= r6;
			r6 -= r5;
			r5 -= r4;
			r4 -= r3;
			r3 -= r2;
			r2 -= r1;
			r1 -= r0;
			r0 -= *prev;
			*prev = t;
		}
		/* 4-byte blocks, then 2-byte blocks, then bytes trade places */
		bs_swap(&r0, &r4, 32, BS_LO32);
		bs_swap(&r1, &r5, 32, BS_LO32);
		bs_swap(&r2, &r6, 32, BS_LO32);
		bs_swap(&r3, &r7, 32, BS_LO32);
		bs_swap(&r0, &r2, 16, BS_EVEN16);
		bs_swap(&r1, &r3, 16, BS_EVEN16);
		bs_swap(&r4, &r6, 16, BS_EVEN16);
		bs_swap(&r5, &r7, 16, BS_EVEN16);
		bs_swap(&r0, &r1, 8, BS_EVEN8);
		bs_swap(&r2, &r3, 8, BS_EVEN8);
		bs_swap(&r4, &r5, 8, BS_EVEN8);
		bs_swap(&r6, &r7, 8, BS_EVEN8);
		if (delta && !encode) {	/* the sums of the differences */
			r0 += *prev;
			r1 += r0;
			r2 += r1;
			r3 += r2;
			r4 += r3;
			r5 += r4;
			r6 += r5;
			r7 += r6;
			*prev = r7;
		}
		put_unaligned_le64(r0, d);
		put_unaligned_le64(r1, d + out);
		put_unaligned_le64(r2, d + 2 * out);
		put_unaligned_le64(r3, d + 3 * out);
		put_unaligned_le64(r4, d + 4 * out);
		put_unaligned_le64(r5, d + 5 * out);
		put_unaligned_le64(r6, d + 6 * out);
		put_unaligned_le64(r7, d + 7 * out);
	}
	return i;
}

/* The whole blocks of words of @w bytes; returns the words done */
static __always_inline unsigned int bs_blocks(const u8 *src, u8 *dst,
					      unsigned int m, bool encode,
					      bool delta, u64 *prev,
					      unsigned int w)
{
	if (w == 2)
		return bs2_blocks(src, dst, m, encode, delta, prev);
	if (w == 4)
		return bs4_blocks(src, dst, m, encode, delta, prev);
	return bs8_blocks(src, dst, m, encode, delta, prev);
}

static __always_inline int bs_encode(const u8 *src, unsigned int slen,
				     u8 *dst, unsigned int dcap,
				     unsigned int w)
{
	unsigned int m = slen / w, i, j;

	if (slen > dcap)
		return -ENOSPC;
	i = bs_blocks(src, dst, m, true, false, NULL, w);
	for (; i < m; i++)
		for (j = 0; j < w; j++)
			dst[j * m + i] = src[i * w + j];
	memcpy(dst + m * w, src + m * w, slen - m * w);
	return slen;
}

static __always_inline int bs_decode(const u8 *src, unsigned int slen,
				     u8 *dst, unsigned int dcap,
				     unsigned int w)
{
	unsigned int m = slen / w, i, j;

	if (slen > dcap)
		return -EINVAL;
	i = bs_blocks(src, dst, m, false, false, NULL, w);
	for (; i < m; i++)
		for (j = 0; j < w; j++)
			dst[i * w + j] = src[j * m + i];
	memcpy(dst + m * w, src + m * w, slen - m * w);
	return slen;
}

ZBW_WORD_STEP(zbewalgo_step_BITSHUFFLE2, bs, 2);
ZBW_WORD_STEP(zbewalgo_step_BITSHUFFLE4, bs, 4);
ZBW_WORD_STEP(zbewalgo_step_BITSHUFFLE8, bs, 8);

/*
 * The delta step of word size @w, then bitshuffle of the same size: the
 * words' differences are taken in registers on their way into the
 * transpose.
 */
static __always_inline int bs_delta_encode(const u8 *src, unsigned int slen,
					   u8 *dst, unsigned int dcap,
					   unsigned int w)
{
	unsigned int m = slen / w, i, j;
	u64 prev = 0, x, d;

	if (slen > dcap)
		return -ENOSPC;
	i = bs_blocks(src, dst, m, true, true, &prev, w);
	for (; i < m; i++) {
		x = zbw_get_word(src, i, w);
		d = x - prev;
		prev = x;
		for (j = 0; j < w; j++)
			dst[j * m + i] = (u8)(d >> (8 * j));
	}
	memcpy(dst + m * w, src + m * w, slen - m * w);
	return slen;
}

static __always_inline int bs_delta_decode(const u8 *src, unsigned int slen,
					   u8 *dst, unsigned int dcap,
					   unsigned int w)
{
	unsigned int m = slen / w, i, j;
	u64 prev = 0, x;

	if (slen > dcap)
		return -EINVAL;
	i = bs_blocks(src, dst, m, false, true, &prev, w);
	for (; i < m; i++) {
		for (x = 0, j = 0; j < w; j++)
			x |= (u64)src[j * m + i] << (8 * j);
		prev += x;
		zbw_put_word(prev, dst, i, w);
	}
	memcpy(dst + m * w, src + m * w, slen - m * w);
	return slen;
}

/*
 * delta@w followed by bitshuffle@w (arrays of numbers): the delta step's
 * output is as long as its input, so it never wins on its own, and the
 * engine runs both as one step, never written out between them.
 */
ZBW_WORD_STEP(zbw_delta2_bitshuffle2, bs_delta, 2);
ZBW_WORD_STEP(zbw_delta4_bitshuffle4, bs_delta, 4);
ZBW_WORD_STEP(zbw_delta8_bitshuffle8, bs_delta, 8);
