// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo steps "num2", "num4" and "num8": a page read as an array of 2-,
 * 4- or 8-byte numbers and coded number by number.
 *
 * Byte coders see a float array as bytes whose planes differ in entropy;
 * a number coder sees the numbers.  Each number is mapped to an unsigned
 * value that orders like it (an integer as it is or with its sign bit
 * flipped, an IEEE float by sign and magnitude), optionally divided by
 * the page's common factor or stripped of the low mantissa bits every
 * number but a few exceptions has zero, then differenced up to three
 * times, with the number before or, in an array of records, with the
 * same field of the record before (a lag).  What is left is split into a
 * bin (about its logarithm: the top bit and the q bits under it), coded
 * with a canonical prefix code fitted to the page, and the offset in the
 * bin, written as plain bits.  A page of few distinct numbers (sampled
 * signals, enumerations) is coded as the sorted table of them, its
 * palette, and each number's index into it.  The encoder picks the view,
 * the differences and q that it estimates to take the fewest bits.
 * num.h has the format; num_hdr.c reads a page's header.
 */

#include "num_dec.h"

/* Number @i's value, from the bit stream of @br, in the bins of @d */
static __always_inline void num_get_value(struct zbw_bitr *br, u8 *dst,
					  unsigned int i, unsigned int w,
					  bool one, const struct num_dec *d)
{
	zbw_put_word(num_read(br, w, one, d), dst, i, w);
}

/*
 * The values @from.. of the @m numbers of @w bytes as words at @dst, from
 * the bit streams of @br (A, B), in the bins of @d (the one bin 0 when
 * @one).
 */
static __always_inline void num_get_values(struct zbw_bitr *br, u8 *dst,
					   unsigned int from, unsigned int m,
					   unsigned int w, bool one,
					   const struct num_dec *d)
{
	unsigned int i;

	for (i = from; i + 1 < m; i += 2) {
		num_get_value(&br[0], dst, i, w, one, d);
		num_get_value(&br[1], dst, i + 1, w, one, d);
	}
	if (i < m)
		num_get_value(&br[0], dst, i, w, one, d);
}

/*
 * num_get_values() where the code of value 0 is the one bit 0 (pages of
 * mostly equal numbers, fields with blanks): a run of zero bits is as
 * many zeros, skipped at once over @dst cleared beforehand.  The bits
 * taken are those of num_get_values(), bit for bit.
 */
static __always_inline unsigned int num_get_run(struct zbw_bitr *br, u8 *dst,
						unsigned int i, unsigned int m,
						unsigned int w,
						const struct num_dec *d)
{
	/* the bits of a value at most: room for one after the run */
	const unsigned int room = NUM_CODE_BITS + 8 * w - 1;
	unsigned int z;

	zbw_bitr_refill(br);
	/* a stop bit below br->cnt <= 64: at most the bits loaded */
	z = min_t(unsigned int,
		  __ffs64(br->buf |
			  BIT_ULL(br->cnt - 1 - (room <= 56 ? room : 0))),
		  (m - i + 1) / 2);
	num_bits(br, z);
	i += 2 * z;
	if (i < m) {
		/* no refill to wait on (or mispredict) where the room is */
		zbw_put_word(room <= 56 ? num_read_loaded(br, w, false, d) :
					 num_read(br, w, false, d), dst, i, w);
		i += 2;
	}
	return i;
}

static __always_inline void num_get_runs(struct zbw_bitr *br, u8 *dst,
					 unsigned int from, unsigned int m,
					 unsigned int w,
					 const struct num_dec *d)
{
	unsigned int a = from, b = from + 1;

	memset(dst + from * w, 0, (m - from) * w);
	while (a < m && b < m) {
		a = num_get_run(&br[0], dst, a, m, w, d);
		b = num_get_run(&br[1], dst, b, m, w, d);
	}
	while (a < m)
		a = num_get_run(&br[0], dst, a, m, w, d);
	while (b < m)
		b = num_get_run(&br[1], dst, b, m, w, d);
}

/*
 * Number @i from its value @k in view @v (with the palette of @d),
 * stored at @dst; @view is v->view, or NUM_VIEW_FACTOR for a view with a
 * factor, a constant in the loops of num_undo().  True for an index past
 * the palette (the page is invalid; the first number of the palette is
 * stored).
 */
#define NUM_VIEW_FACTOR	4
static __always_inline bool num_put_number(u8 *dst, unsigned int i, u64 k,
					   const struct num_view *v,
					   const struct num_dec *d,
					   unsigned int view)
{
	bool bad = false;
	u64 y;

	k &= num_mask(v->bits);
	if (view == NUM_PALETTE) {
		bad = k >= d->count;
		y = d->pal[bad ? 0 : k];
	} else if (view == NUM_VIEW_FACTOR) {
		y = num_from_view(v->base + k * v->factor, NUM_SIGNED,
				  v->bits);
	} else {
		y = num_from_view(k, view, v->bits) << v->shift;
	}
	zbw_put_word(y, dst, i, v->w);
	return bad;
}

/*
 * num_undo_view() at a lag: the differences summed back, an order a
 * pass, the highest unzigzagged in its pass; the last pass gives the
 * values k and puts each into its view at once, keeping the last @lag
 * in @d->ring (one pass instead of three for order 1).
 */
static __always_inline bool num_undo_lag(u8 *dst, unsigned int m,
					 unsigned int w,
					 const struct num_view *v,
					 struct num_dec *d, unsigned int view)
{
	unsigned int lag = v->lag, top = v->order - 1, i, j, r = 0;
	u64 mask = num_mask(v->bits), k;
	bool bad = false;

	for (j = top; j > 0; j--)
		for (i = (j + 1) * lag; i < m; i++) {
			k = zbw_get_word(dst, i, w);
			k = j == top ? num_unzigzag(k) : k;
			zbw_put_word((k + zbw_get_word(dst, i - lag, w)) & mask,
				     dst, i, w);
		}
	for (i = 0; i < m; i++) {
		k = zbw_get_word(dst, i, w);
		if (i >= lag)
			k = ((top ? k : num_unzigzag(k)) + d->ring[r]) & mask;
		d->ring[r] = k;
		r = r + 1 == lag ? 0 : r + 1;
		bad |= num_put_number(dst, i, k, v, d, view);
	}
	return bad;
}

/*
 * Turns the @m values at @dst into the numbers of view @v, in place (with
 * the palette of @d); true when an index is past the palette
 */
static __always_inline bool num_undo_view(u8 *dst, unsigned int m,
					  unsigned int w,
					  const struct num_view *v,
					  struct num_dec *d,
					  unsigned int view)
{
	u64 mask = num_mask(v->bits), c[NUM_ORDER_MAX] = { 0 };
	unsigned int i, j;
	bool bad = false;

	if (v->lag > 1)
		return num_undo_lag(dst, m, w, v, d, view);
	if (!v->order) {
		for (i = 0; i < m; i++)
			bad |= num_put_number(dst, i,
					      zbw_get_word(dst, i, w) + v->low,
					      v, d, view);
		return bad;
	}
	/*
	 * c[j]: the j-th difference at the number before; each number
	 * brings its highest one (raw for the first ones), and the sums
	 * down to c[0] make the value.
	 */
	for (i = 0; i < m && i < v->order; i++) {
		c[i] = zbw_get_word(dst, i, w);
		for (j = i; j-- > 0;)
			c[j] = (c[j] + c[j + 1]) & mask;
		bad |= num_put_number(dst, i, c[0], v, d, view);
	}
	/*
	 * then each number brings its highest: the same sums, in registers,
	 * modulo 2^64 (num_put_number() takes them modulo 2^W)
	 */
	if (v->order == 1) {
		for (; i < m; i++) {
			c[0] += num_unzigzag(zbw_get_word(dst, i, w));
			bad |= num_put_number(dst, i, c[0], v, d, view);
		}
	} else if (v->order == 2) {
		u64 a = c[0], b = c[1];

		for (; i < m; i++) {
			b += num_unzigzag(zbw_get_word(dst, i, w));
			a += b;
			bad |= num_put_number(dst, i, a, v, d, view);
		}
	} else {
		/* the mode's two bits: NUM_ORDER_MAX is 3 */
		u64 a = c[0], b = c[1], e = c[2];

		for (; i < m; i++) {
			e += num_unzigzag(zbw_get_word(dst, i, w));
			b += e;
			a += b;
			bad |= num_put_number(dst, i, a, v, d, view);
		}
	}
	return bad;
}

/* num_undo_view() for the view of @v: true for an index past the palette */
static __always_inline bool num_undo(u8 *dst, unsigned int m, unsigned int w,
				     const struct num_view *v,
				     struct num_dec *d)
{
	if (v->view == NUM_PALETTE)
		return num_undo_view(dst, m, w, v, d, NUM_PALETTE);
	if (v->factor)
		return num_undo_view(dst, m, w, v, d, NUM_VIEW_FACTOR);
	if (v->view == NUM_FLOAT)
		return num_undo_view(dst, m, w, v, d, NUM_FLOAT);
	if (v->view == NUM_SIGNED)
		return num_undo_view(dst, m, w, v, d, NUM_SIGNED);
	return num_undo_view(dst, m, w, v, d, NUM_UNSIGNED);
}

/*
 * The values of the two bit streams at @p (the first @alen bytes, the
 * second up to @end) into numbers @from to @m of @dst: false when the
 * streams do not end there.  A frame of its own for each word size: the
 * streams' state took the decoder's frame past 512 bytes on x86_64.
 */
static __always_inline bool num_get_streams(const u8 *p, u32 alen,
					    const u8 *end, u8 *dst,
					    unsigned int from, unsigned int m,
					    unsigned int w, bool one,
					    const struct num_dec *d)
{
	struct zbw_bitr br[2];

	zbw_bitr_init(&br[0], p, p + alen);
	zbw_bitr_init(&br[1], p + alen, end);
	/* an entry holds the code's length plus its bin's offset bits */
	if (one)
		num_get_values(br, dst, from, m, w, true, d);
	else if ((d->tab[0] & 0xff) == 1 && !d->lower[d->tab[0] >> 8])
		num_get_runs(br, dst, from, m, w, d);
	else
		num_get_values(br, dst, from, m, w, false, d);
	return zbw_bitr_done(&br[0]) && zbw_bitr_done(&br[1]);
}

#define NUM_STREAMS(w)							\
static noinline_for_stack bool num_get_streams##w(const u8 *p, u32 alen, \
						 const u8 *end, u8 *dst, \
						 unsigned int from,	\
						 unsigned int m, bool one, \
						 const struct num_dec *d) \
{									\
	return num_get_streams(p, alen, end, dst, from, m, w, one, d);	\
}

NUM_STREAMS(2)
NUM_STREAMS(4)
NUM_STREAMS(8)

static __always_inline int num_decode(const u8 *src, unsigned int slen,
				      u8 *dst, unsigned int dcap,
				      void *scratch, unsigned int w)
{
	const u8 *p = src, *end = src + slen;
	struct num_dec *dd = scratch;
	struct num_view v = { .w = w };
	unsigned int q, i, m, tail, first;
	u32 n, alen;
	bool one;
	u64 x;
	u8 mode, flags;
	int len;

	if (p >= end)
		return -EINVAL;
	mode = *p++;
	v.view = mode & NUM_MODE_VIEW;
	v.order = (mode & NUM_MODE_ORDER) >> NUM_MODE_ORDER_SHIFT;
	v.lag = 1;
	one = mode & NUM_MODE_ONE;
	flags = mode & NUM_MODE_LAG;
	if (flags == NUM_MODE_LAG) {
		if (p >= end || !v.order || !(*p & NUM_LAG_MINUS1) ||
		    (*p & ~(NUM_LAG_MINUS1 | NUM_LAG_FACTOR | NUM_LAG_SHIFT)))
			return -EINVAL;
		v.lag = (*p & NUM_LAG_MINUS1) + 1;
		flags = (*p & NUM_LAG_FACTOR ? NUM_MODE_FACTOR : 0) |
			(*p & NUM_LAG_SHIFT ? NUM_MODE_SHIFT : 0);
		p++;
	}
	if (((flags & NUM_MODE_FACTOR) && v.view >= NUM_FLOAT) ||
	    ((flags & NUM_MODE_SHIFT) && v.view != NUM_FLOAT))
		return -EINVAL;
	len = zbw_get_size(p, end, dcap, &n);
	if (len < 0)
		return len;
	p += len;
	m = n / w;
	tail = n - m * w;
	if (v.view == NUM_PALETTE) {
		len = zbw_num_get_palette(&p, end, w, dd);
		if (len)
			return len;
	}
	dd->nexc = 0;
	if (flags & NUM_MODE_SHIFT) {
		len = zbw_num_get_shift(&p, end, m, w, dd);
		if (len < 0)
			return len;
		v.shift = len;
	}
	v.bits = 8 * w - v.shift;
	if ((flags & NUM_MODE_FACTOR) &&
	    (num_get_word(&p, end, w, &v.base) ||
	     num_get_word(&p, end, w, &v.factor) || v.factor < 2))
		return -EINVAL;
	if (!v.order && !v.factor && v.view != NUM_PALETTE &&
	    num_get_word(&p, end, w, &v.low))
		return -EINVAL;
	first = min(v.order * v.lag, m);
	for (i = 0; i < first; i++) {
		if (num_get_word(&p, end, w, &x) || x > num_mask(v.bits))
			return -EINVAL;
		zbw_put_word(x, dst, i, w);
	}
	if (end - p < 3 || *p > NUM_Q_MAX)
		return -EINVAL;
	q = *p++;
	len = zbw_num_get_code(&p, end, q, v.bits, one, dd);
	if (len < 0)
		return len;
	if (end - p < tail)
		return -EINVAL;
	memcpy(dst + m * w, p, tail);
	p += tail;

	len = zbw_get_len(p, end, &alen);
	if (!len || end - p - len < alen)
		return -EINVAL;
	p += len;
	if (!(w == 2 ? num_get_streams2 : w == 4 ? num_get_streams4 :
	      num_get_streams8)(p, alen, end, dst, first, m, one, dd))
		return -EINVAL;
	if (num_undo(dst, m, w, &v, dd))
		return -EINVAL;
	if (dd->nexc)
		zbw_num_exc(dd->exc, end, dd->nexc, m, w, v.shift, dst);
	if (mode & NUM_MODE_BIG_ENDIAN)
		zbw_num_swap(dst, dst, m, w);
	return n;
}

static size_t num_scratch_size(unsigned int max_len)
{
	return max(zbw_num_enc_size(max_len), sizeof(struct num_dec));
}

static size_t num_dec_scratch_size(unsigned int max_len)
{
	return sizeof(struct num_dec);
}

#define NUM_STEP(step, w)						\
static const unsigned int step##_width = (w);				\
static int step##_decode(const u8 *src, unsigned int slen, u8 *dst,	\
			 unsigned int dcap, void *scratch)		\
{									\
	return num_decode(src, slen, dst, dcap, scratch, step##_width);	\
}									\
const struct zbewalgo_step step = {					\
	.encode		= zbw_num##w##_encode,				\
	.decode		= step##_decode,				\
	.scratch_size	= num_scratch_size,				\
	.decode_scratch_size = num_dec_scratch_size,			\
}

NUM_STEP(zbewalgo_step_NUM2, 2);
NUM_STEP(zbewalgo_step_NUM4, 4);
NUM_STEP(zbewalgo_step_NUM8, 8);
