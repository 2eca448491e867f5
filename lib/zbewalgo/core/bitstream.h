/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * LSB-first bit streams of the huffman and bewalgo2 steps: bit i of a
 * stream is bit i % 8 of its byte i / 8, a field's least significant bit
 * comes first, and a stream ends with 0..7 zero bits in its last byte.
 *
 * The writer gathers up to 64 bits and stores whole bytes when flushed,
 * 8 at a time while 8 bytes of room are left.  The reader keeps at least
 * 56 bits loaded after a refill, reading 8 bytes at a time while the
 * input allows; past the end it loads zero bytes and counts them, so a
 * decoder can tell a stream that ran out from one that did not.
 */
#ifndef __ZBEWALGO_BITSTREAM_H
#define __ZBEWALGO_BITSTREAM_H

#include "zbewalgo_internal.h"

/**
 * struct zbw_bitw - bit stream writer
 * @p: next byte to store
 * @end: end of the room for the stream
 * @acc: pending bits, the next one at bit 0
 * @nb: number of pending bits
 */
struct zbw_bitw {
	u8 *p;
	u8 *end;
	u64 acc;
	unsigned int nb;
};

static __always_inline void zbw_bitw_init(struct zbw_bitw *w, u8 *p, u8 *end)
{
	w->p = p;
	w->end = end;
	w->acc = 0;
	w->nb = 0;
}

/*
 * Append the low @n bits of @v, which has no higher bits set.  The caller
 * flushes before more than 64 bits are pending.
 */
static __always_inline void zbw_bitw_put(struct zbw_bitw *w, u64 v,
					 unsigned int n)
{
	w->acc |= v << w->nb;
	w->nb += n;
}

/* Store the whole pending bytes; those that do not fit stay pending */
static __always_inline void zbw_bitw_flush(struct zbw_bitw *w)
{
	if (likely(w->end - w->p >= 8)) {
		put_unaligned_le64(w->acc, w->p);
		w->p += w->nb >> 3;
		w->acc >>= w->nb & 56;
		w->nb &= 7;
		return;
	}
	while (w->nb >= 8 && w->p < w->end) {
		*w->p++ = (u8)w->acc;
		w->acc >>= 8;
		w->nb -= 8;
	}
}

/* End the stream: flush, store the last partial byte; false if no room */
static inline bool zbw_bitw_close(struct zbw_bitw *w)
{
	zbw_bitw_flush(w);
	if (w->nb && w->nb < 8 && w->p < w->end) {
		*w->p++ = (u8)w->acc;
		w->nb = 0;
	}
	return !w->nb;
}

/**
 * struct zbw_bitr - bit stream reader
 * @p: next byte to load
 * @start: start of the stream
 * @end: end of the stream
 * @buf: loaded bits, the next one at bit 0
 * @cnt: number of loaded bits; the bits of @buf above them are zero or
 *	the stream's next bits
 * @extra: zero bytes loaded past @end
 */
struct zbw_bitr {
	const u8 *p;
	const u8 *start;
	const u8 *end;
	u64 buf;
	unsigned int cnt;
	unsigned int extra;
};

static __always_inline void zbw_bitr_init(struct zbw_bitr *r, const u8 *start,
					  const u8 *end)
{
	r->p = start;
	r->start = start;
	r->end = end;
	r->buf = 0;
	r->cnt = 0;
	r->extra = 0;
}

/*
 * Load 8 bytes at *@p, at least 8 being left: then at least 56 bits are
 * loaded.  The form on separate variables lets hot loops keep them in
 * registers.  Bits of *@buf above *@cnt are zero or already the next bits
 * of the stream, so OR-ing them in again is fine.
 */
static __always_inline void zbw_bitr_refill_fast(const u8 **p, u64 *buf,
						 unsigned int *cnt)
{
	*buf |= get_unaligned_le64(*p) << *cnt;
	*p += (63 - *cnt) >> 3;
	*cnt |= 56;
}

/* Make at least 56 bits available, zero bytes past the end */
static __always_inline void zbw_bitr_refill(struct zbw_bitr *r)
{
	if (r->cnt > 56)
		return;
	if (likely(r->end - r->p >= 8)) {
		zbw_bitr_refill_fast(&r->p, &r->buf, &r->cnt);
		return;
	}
	while (r->cnt <= 56) {
		if (r->p < r->end)
			r->buf |= (u64)*r->p++ << r->cnt;
		else
			r->extra++;
		r->cnt += 8;
	}
}

/* Bits of the stream itself loaded, not counting zeros past the end */
static __always_inline int zbw_bitr_avail(const struct zbw_bitr *r)
{
	return (int)r->cnt - 8 * (int)r->extra;
}

/* Take @n (< 32) loaded bits */
static __always_inline u32 zbw_bitr_get(struct zbw_bitr *r, unsigned int n)
{
	u32 v = r->buf & ((1u << n) - 1);

	r->buf >>= n;
	r->cnt -= n;
	return v;
}

/* Whether the stream was read to its end: 0..7 zero bits left */
static inline bool zbw_bitr_done(struct zbw_bitr *r)
{
	u64 used, total, rem;

	zbw_bitr_refill(r);
	used = 8 * ((u64)(r->p - r->start) + r->extra) - r->cnt;
	total = 8 * (u64)(r->end - r->start);
	if (used > total || total - used >= 8)
		return false;
	rem = total - used;
	return !(r->buf & ((1ull << rem) - 1));
}

#endif /* __ZBEWALGO_BITSTREAM_H */
