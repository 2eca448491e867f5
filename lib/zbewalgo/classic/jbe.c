// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo steps "jbe" and "jbe2": J-bit encoding (Suarjaya 2012).
 */

/**
 * DOC: jbe step format
 *
 * A varint ``n``, then the *J-bit body* of the ``n`` input bytes.  The body
 * of ``L`` bytes is built from Data I, the nonzero input bytes in order;
 * Temp I, a bitmap of ``L1 = ceil(L / 8)`` bytes in which bit ``i % 8``
 * (least significant first) of byte ``i / 8`` is set iff input byte ``i`` is
 * nonzero; Data II, the nonzero bytes of Temp I in order; and Temp II, a
 * bitmap of ``ceil(L1 / 8)`` bytes marking the nonzero bytes of Temp I the
 * same way.  The body is Temp II, Data II, Data I, concatenated.  The sizes
 * of Data II and Data I are the popcounts of Temp II and Temp I.  Bitmap
 * bits beyond the length they describe must be zero, Data II and Data I
 * contain no zero bytes, and nothing may follow Data I, so each input has
 * exactly one encoding.
 */

/**
 * DOC: jbe2 step format
 *
 * A varint ``n``, then the J-bit body (see jbe) of ``L = 2 * ceil(n / 2)``
 * regrouped bytes: ``h = ceil(n / 2)`` high-plane bytes followed by ``h``
 * low-plane bytes, with ``high[k] = (in[2k] & 0xf0) | (in[2k + 1] >> 4)``
 * and ``low[k] = (in[2k] << 4) | (in[2k + 1] & 0x0f)``, taking
 * ``in[n] = 0`` for odd ``n``.  For odd ``n`` the low nibbles of
 * ``high[h - 1]`` and ``low[h - 1]`` must be zero.  After move-to-front most
 * high nibbles are zero, which J-bit encoding then removes.
 */

#include "../core/zbewalgo_internal.h"

/* Multiplier that gathers bit 8i of a word into bit 56 + i. */
#define JBE_GATHER	0x0102040810204080ULL

/* 0x01 in each byte of the result whose byte in @w is nonzero. */
static inline u64 jbe_nz_bytes(u64 w)
{
	return zbw_nonzero_bytes(w) >> 7;
}

/* True when one of the @len bytes at @p is zero. */
static bool jbe_has_zero(const u8 *p, unsigned int len)
{
	u64 bad = 0;
	unsigned int i;

	for (i = 0; i + 8 <= len; i += 8) {
		u64 w = get_unaligned((const u64 *)(p + i));

		bad |= zbw_zero_bytes(w);
	}
	for (; i < len; i++)
		bad |= !p[i];
	return bad != 0;
}

/* Number of set bits in the @len bytes at @p. */
static unsigned int jbe_popcount(const u8 *p, unsigned int len)
{
	unsigned int i, c = 0;

	for (i = 0; i + 8 <= len; i += 8)
		c += hweight64(get_unaligned((const u64 *)(p + i)));
	for (; i < len; i++)
		c += hweight8(p[i]);
	return c;
}

/*
 * Writes the bitmap of the nonzero bytes of @src[0..@n) to @map and returns
 * their number; *@nzmap gets the number of nonzero bytes of the bitmap.
 */
static unsigned int jbe_map(const u8 *src, unsigned int n, u8 *map,
			    unsigned int *nzmap)
{
	unsigned int i, j, full = n / 8, c = 0, z = 0;
	u64 t;
	u8 m;

	for (i = 0; i < full; i++) {
		t = jbe_nz_bytes(get_unaligned_le64(src + 8 * i));
		m = (t * JBE_GATHER) >> 56;
		map[i] = m;
		/* Sum of the 0x01 bytes: at most 8, so no carry. */
		c += (t * ZBW_ONES) >> 56;
		z += m != 0;
	}
	if (n % 8) {
		m = 0;
		for (j = 0; j < n % 8; j++)
			m |= (src[8 * full + j] != 0) << j;
		map[full] = m;
		c += hweight8(m);
		z += m != 0;
	}
	*nzmap = z;
	return c;
}

/* Stores byte @j of @s at @out and steps past it if bit @j of @m is set. */
static __always_inline u8 *jbe_put_if(u8 *out, const u8 *s, unsigned int m,
				      unsigned int j)
{
	*out = s[j];
	return out + ((m >> j) & 1);
}

/* Sets @o[@j] to *@in and steps past it if bit @j of @m is set, else to 0. */
static __always_inline const u8 *jbe_get_if(const u8 *in, u8 *o,
					    unsigned int m, unsigned int j)
{
	unsigned int bit = (m >> j) & 1;

	o[j] = *in & (u8)-bit;
	return in + bit;
}

/*
 * Appends the bytes of @src[0..@n) marked in @map to @out.  The caller made
 * sure they fit before @end; stores past them stay before @end too.
 */
static u8 *jbe_pack(const u8 *src, unsigned int n, const u8 *map, u8 *out,
		    const u8 *end)
{
	unsigned int i, j, full = n / 8;
	const u8 *s;
	u8 m;

	for (i = 0; i < full; i++) {
		m = map[i];
		s = src + 8 * i;
		if (m == 0xff) {
			memcpy(out, s, 8);
			out += 8;
		} else if (m && end - out >= 8) {
			/* Branch-free: store every byte, advance on set bits. */
			out = jbe_put_if(out, s, m, 0);
			out = jbe_put_if(out, s, m, 1);
			out = jbe_put_if(out, s, m, 2);
			out = jbe_put_if(out, s, m, 3);
			out = jbe_put_if(out, s, m, 4);
			out = jbe_put_if(out, s, m, 5);
			out = jbe_put_if(out, s, m, 6);
			out = jbe_put_if(out, s, m, 7);
		} else if (m) {
			for (j = 0; j < 8; j++)
				if (m & (1u << j))
					*out++ = s[j];
		}
	}
	if (n % 8) {
		m = map[full];
		s = src + 8 * full;
		for (j = 0; j < n % 8; j++)
			if (m & (1u << j))
				*out++ = s[j];
	}
	return out;
}

/*
 * Inverse of jbe_pack(): fills @out[0..@n) with zeros and the bytes from
 * @in at the positions marked in @map.  The caller checked that @in holds
 * exactly the marked bytes, up to @in_end.  Returns the new input position.
 */
static const u8 *jbe_unpack(const u8 *in, const u8 *in_end, const u8 *map,
			    unsigned int n, u8 *out)
{
	unsigned int i, j, full = n / 8;
	u8 m, *o;

	for (i = 0; i < full; i++) {
		m = map[i];
		o = out + 8 * i;
		if (!m) {
			put_unaligned(0, (u64 *)o);
		} else if (m == 0xff) {
			memcpy(o, in, 8);
			in += 8;
		} else if (in_end - in >= 8) {
			/* Branch-free: reads stay below in + 8. */
			in = jbe_get_if(in, o, m, 0);
			in = jbe_get_if(in, o, m, 1);
			in = jbe_get_if(in, o, m, 2);
			in = jbe_get_if(in, o, m, 3);
			in = jbe_get_if(in, o, m, 4);
			in = jbe_get_if(in, o, m, 5);
			in = jbe_get_if(in, o, m, 6);
			in = jbe_get_if(in, o, m, 7);
		} else {
			for (j = 0; j < 8; j++)
				o[j] = m & (1u << j) ? *in++ : 0;
		}
	}
	if (n % 8) {
		m = map[full];
		o = out + 8 * full;
		for (j = 0; j < n % 8; j++)
			o[j] = m & (1u << j) ? *in++ : 0;
	}
	return in;
}

/*
 * Encodes the body of @src[0..@n) at @out, before @end, using @t1 for
 * Temp I.  Returns the body size or -ENOSPC.
 */
static int jbe_encode_body(const u8 *src, unsigned int n, u8 *out,
			   const u8 *end, u8 *t1)
{
	unsigned int l1 = DIV_ROUND_UP(n, 8), l2 = DIV_ROUND_UP(l1, 8);
	unsigned int c1, c2, unused;
	u8 *start = out;

	c1 = jbe_map(src, n, t1, &c2);
	if ((size_t)(end - out) < (size_t)l2 + c2 + c1)
		return -ENOSPC;
	/* Temp II goes straight to the output and serves as map of Temp I. */
	jbe_map(t1, l1, out, &unused);
	out += l2;
	out = jbe_pack(t1, l1, start, out, end);
	out = jbe_pack(src, n, t1, out, end);
	return out - start;
}

/*
 * Decodes a body of exactly @in[0..@end) into @dst[0..@n), using @t1 for
 * Temp I.  Returns 0 or -EINVAL.
 */
static int jbe_decode_body(const u8 *in, const u8 *end, unsigned int n,
			   u8 *dst, u8 *t1)
{
	unsigned int l1 = DIV_ROUND_UP(n, 8), l2 = DIV_ROUND_UP(l1, 8);
	unsigned int c1, c2;
	const u8 *t2;

	if (end - in < l2)
		return -EINVAL;
	t2 = in;
	in += l2;
	if ((l1 % 8) && (t2[l2 - 1] >> (l1 % 8)))
		return -EINVAL;
	c2 = jbe_popcount(t2, l2);
	if (end - in < c2 || jbe_has_zero(in, c2))
		return -EINVAL;
	in = jbe_unpack(in, in + c2, t2, l1, t1);
	if ((n % 8) && (t1[l1 - 1] >> (n % 8)))
		return -EINVAL;
	c1 = jbe_popcount(t1, l1);
	if (end - in != c1 || jbe_has_zero(in, c1))
		return -EINVAL;
	jbe_unpack(in, end, t1, n, dst);
	return 0;
}

static int jbe_encode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	const u8 *end = dst + dcap;
	unsigned int h;
	int ret;

	ret = zbw_put_size(dst, end, slen);
	if (ret < 0)
		return ret;
	h = ret;
	ret = jbe_encode_body(src, slen, dst + h, end, scratch);
	if (ret < 0)
		return ret;
	return ret + h;
}

static int jbe_decode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	const u8 *end = src + slen;
	u32 n;
	int h;

	h = zbw_get_size(src, end, dcap, &n);
	if (h < 0)
		return h;
	if (jbe_decode_body(src + h, end, n, dst, scratch))
		return -EINVAL;
	return n;
}

static size_t jbe_scratch_size(unsigned int max_len)
{
	return DIV_ROUND_UP((size_t)max_len, 8);
}

#define JBE_NIB_HI	0xf0f0f0f0f0f0f0f0ULL
#define JBE_NIB_LO	0x0f0f0f0f0f0f0f0fULL
#define JBE_EVEN8	0x00ff00ff00ff00ffULL
#define JBE_EVEN16	0x0000ffff0000ffffULL

/* Gathers the even bytes of @w into the low 32 bits. */
static inline u64 jbe2_even(u64 w)
{
	w &= JBE_EVEN8;
	w = (w | w >> 8) & JBE_EVEN16;
	return (w | w >> 16) & 0xffffffff;
}

/* Inverse of jbe2_even(): spreads the low 32 bits over the even bytes. */
static inline u64 jbe2_spread(u64 w)
{
	w &= 0xffffffff;
	w = (w | w << 16) & JBE_EVEN16;
	return (w | w << 8) & JBE_EVEN8;
}

/*
 * Byte-wise nibble regrouping: (a, b) -> ((a & 0xf0) | (b >> 4),
 * (a << 4) | (b & 0x0f)), for 8 byte pairs at once.  It is its own
 * inverse.
 */
static inline u64 jbe2_hi(u64 a, u64 b)
{
	return (a & JBE_NIB_HI) | ((b >> 4) & JBE_NIB_LO);
}

static inline u64 jbe2_lo(u64 a, u64 b)
{
	return ((a << 4) & JBE_NIB_HI) | (b & JBE_NIB_LO);
}

/* Splits @n bytes into the nibble planes of ceil(n / 2) bytes each. */
static void jbe2_split(const u8 *src, unsigned int n, u8 *hi, u8 *lo)
{
	unsigned int k = 0;
	u64 w0, w1, a, b;

	for (; k + 8 <= n / 2; k += 8) {
		w0 = get_unaligned_le64(src + 2 * k);
		w1 = get_unaligned_le64(src + 2 * k + 8);
		a = jbe2_even(w0) | jbe2_even(w1) << 32;
		b = jbe2_even(w0 >> 8) | jbe2_even(w1 >> 8) << 32;
		put_unaligned_le64(jbe2_hi(a, b), hi + k);
		put_unaligned_le64(jbe2_lo(a, b), lo + k);
	}
	for (; k < n / 2; k++) {
		a = src[2 * k];
		b = src[2 * k + 1];
		hi[k] = jbe2_hi(a, b);
		lo[k] = jbe2_lo(a, b);
	}
	if (n % 2) {
		a = src[n - 1];
		hi[k] = jbe2_hi(a, 0);
		lo[k] = jbe2_lo(a, 0);
	}
}

/* Inverse of jbe2_split() for even @n. */
static void jbe2_merge(const u8 *hi, const u8 *lo, unsigned int n, u8 *dst)
{
	unsigned int k = 0;
	u64 h, l, a, b;

	for (; k + 8 <= n / 2; k += 8) {
		h = get_unaligned_le64(hi + k);
		l = get_unaligned_le64(lo + k);
		a = jbe2_hi(h, l);
		b = jbe2_lo(h, l);
		put_unaligned_le64(jbe2_spread(a) | jbe2_spread(b) << 8,
				   dst + 2 * k);
		put_unaligned_le64(jbe2_spread(a >> 32) |
				   jbe2_spread(b >> 32) << 8, dst + 2 * k + 8);
	}
	for (; k < n / 2; k++) {
		dst[2 * k] = jbe2_hi(hi[k], lo[k]);
		dst[2 * k + 1] = jbe2_lo(hi[k], lo[k]);
	}
}

/*
 * Scratch of jbe2 for @n bytes: the two planes of ceil(n / 2) bytes, then
 * jbe's scratch for them (its Temp I bitmap).
 */
static size_t jbe2_layout(void *base, size_t n, u8 **planes, u8 **body)
{
	struct zbw_layout l = { base, 0 };

	*planes = zbw_layout_take(&l, n + 1, 8);
	*body = zbw_layout_take(&l, DIV_ROUND_UP(n + 1, 8), 8);
	return l.size;
}

static int jbe2_encode(const u8 *src, unsigned int slen, u8 *dst,
		       unsigned int dcap, void *scratch)
{
	unsigned int half = DIV_ROUND_UP(slen, 2), h;
	const u8 *end = dst + dcap;
	u8 *planes, *body;
	int ret;

	ret = zbw_put_size(dst, end, slen);
	if (ret < 0)
		return ret;
	h = ret;
	jbe2_layout(scratch, slen, &planes, &body);
	jbe2_split(src, slen, planes, planes + half);
	ret = jbe_encode_body(planes, 2 * half, dst + h, end, body);
	if (ret < 0)
		return ret;
	return ret + h;
}

static int jbe2_decode(const u8 *src, unsigned int slen, u8 *dst,
		       unsigned int dcap, void *scratch)
{
	const u8 *end = src + slen;
	u8 *planes, *body, *hi, *lo;
	unsigned int half, k;
	u32 n;
	int h;

	h = zbw_get_size(src, end, dcap, &n);
	if (h < 0)
		return h;
	half = DIV_ROUND_UP(n, 2);
	jbe2_layout(scratch, n, &planes, &body);
	if (jbe_decode_body(src + h, end, 2 * half, planes, body))
		return -EINVAL;
	hi = planes;
	lo = planes + half;
	jbe2_merge(hi, lo, n & ~1u, dst);
	if (n % 2) {
		/* The nibbles of the missing byte must be zero. */
		k = half - 1;
		if ((hi[k] & 0x0f) || (lo[k] & 0x0f))
			return -EINVAL;
		dst[n - 1] = (hi[k] & 0xf0) | (lo[k] >> 4);
	}
	return n;
}

static size_t jbe2_scratch_size(unsigned int max_len)
{
	u8 *planes, *body;

	return jbe2_layout(NULL, max_len, &planes, &body);
}

const struct zbewalgo_step zbewalgo_step_JBE = {
	.encode		= jbe_encode,
	.decode		= jbe_decode,
	.scratch_size	= jbe_scratch_size,
};

const struct zbewalgo_step zbewalgo_step_JBE2 = {
	.encode		= jbe2_encode,
	.decode		= jbe2_decode,
	.scratch_size	= jbe2_scratch_size,
};
