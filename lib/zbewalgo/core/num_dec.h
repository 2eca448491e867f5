/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The num steps' decoder, shared by num.c (the values) and num_hdr.c (the
 * page header): its state and its reading of the bit streams.
 */
#ifndef __ZBEWALGO_NUM_DEC_H
#define __ZBEWALGO_NUM_DEC_H

#include "num.h"

/*
 * The decoder's scratch: the code and bins of the values, the palette,
 * @count numbers, the values at a lag's distance (once the code is done
 * with), and where the @nexc exceptions are.  A context decodes in its
 * step scratch (struct zbewalgo_step), which this must not outgrow.
 */
struct num_dec {
	u16 tab[1u << NUM_CODE_BITS];
	u64 lower[NUM_SYMS];
	u64 pal[NUM_PAL_MAX];
	union {
		u8 order[NUM_SYMS];
		u64 ring[NUM_LAG_MAX];
	};
	const u8 *exc;
	unsigned int count;
	unsigned int nexc;
	unsigned int tmask;
	u8 obits[NUM_SYMS];
	u8 len[NUM_SYMS];
};

static inline int num_get_word(const u8 **p, const u8 *end, unsigned int w,
			       u64 *x)
{
	if (end - *p < w)
		return -EINVAL;
	*x = zbw_get_word(*p, 0, w);
	*p += w;
	return 0;
}

/* Take @n (< 64, and no more than are loaded) bits */
static __always_inline u64 num_bits(struct zbw_bitr *r, unsigned int n)
{
	u64 v = r->buf & ((1ULL << n) - 1);

	r->buf >>= n;
	r->cnt -= n;
	return v;
}

/*
 * A value of @w bytes from the bit stream of @br, in the bins of @d: the
 * code and the offset bits after it (@d->tab has their sum) in one shift
 */
static __always_inline u64 num_read_loaded(struct zbw_bitr *br,
					   unsigned int w, bool one,
					   const struct num_dec *d)
{
	unsigned int sym = 0, ob, n;
	u64 x;

	if (!one) {
		u16 t = d->tab[br->buf & d->tmask];

		sym = t >> 8;
		n = t & 0xff;
	} else {
		n = d->obits[0];
	}
	ob = d->obits[sym];
	/* a refill leaves 56 bits: only 8-byte values may need more */
	if (w == 8 && n > 56) {
		num_bits(br, n - ob);
		x = num_bits(br, 32);
		zbw_bitr_refill(br);
		x |= num_bits(br, ob - 32) << 32;
	} else {
		/* ob < 56: no need for num_mask()'s test */
		x = (br->buf >> (n - ob)) & ((1ULL << ob) - 1);
		num_bits(br, n);
	}
	return x + d->lower[sym];
}

static __always_inline u64 num_read(struct zbw_bitr *br, unsigned int w,
				    bool one, const struct num_dec *d)
{
	zbw_bitr_refill(br);
	return num_read_loaded(br, w, one, d);
}

int zbw_num_get_code(const u8 **pp, const u8 *end, unsigned int q,
		     unsigned int bits, int one, struct num_dec *d);
int zbw_num_get_palette(const u8 **pp, const u8 *end, unsigned int w,
			struct num_dec *d);
const u8 *zbw_num_exc(const u8 *p, const u8 *end, unsigned int nexc,
		      unsigned int m, unsigned int w, unsigned int shift,
		      u8 *dst);
int zbw_num_get_shift(const u8 **pp, const u8 *end, unsigned int m,
		      unsigned int w, struct num_dec *d);

#endif /* __ZBEWALGO_NUM_DEC_H */
