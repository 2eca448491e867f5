// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo step "mtf": move-to-front transform.  Every byte string is a
 * valid encoding, so decoding only fails when the output does not fit.
 */

/**
 * DOC: mtf step format
 *
 * No header; output length equals input length.  Both sides keep a list of
 * the 256 byte values, initially 0, 1, ..., 255.  For each input byte the
 * encoder writes the byte's current position in the list (0..255) and moves
 * that byte to the front (the entries before it shift back by one).  The
 * decoder writes the list entry at the given position and moves it to the
 * front the same way.  Every byte string is a valid encoding.
 */

#include "../core/zbewalgo_internal.h"

/*
 * Decoder: the list is kept in 32 u64 values: entry p is bits 8 * (p % 8)
 * to 8 * (p % 8) + 7 of word p / 8.  Working on values rather than on
 * memory bytes keeps the shifts below independent of the byte order.
 * Word 0, where most hits are after a BWT, stays in a register (@head);
 * @list holds words 1..31 at list[1..31].
 */
static u64 mtf_init(u64 *list)
{
	unsigned int w;

	/* byte b of word w is 8 * w + b: bytes never carry into the next */
	for (w = 0; w < 32; w++)
		list[w] = 0x0706050403020100ULL + w * ZBW_BYTES(8);
	return list[0];
}

/* Bytes 0..p of a word, for p = 0..7 */
static const u64 mtf_masks[8] = {
	0xffULL, 0xffffULL, 0xffffffULL, 0xffffffffULL, 0xffffffffffULL,
	0xffffffffffffULL, 0xffffffffffffffULL, ~0ULL,
};

/*
 * Moves entry @c at position 8 * @w + (byte under @mask's top) to the
 * front.  @mask covers bytes 0..p % 8 of word @w; they take the byte below
 * them, the rest of the word keeps its bytes.  Returns the new word 0.
 */
static __always_inline u64 mtf_to_front(u64 head, u64 *list, unsigned int w,
					u64 mask, u64 c)
{
	u64 carry, v;
	unsigned int j;

	if (likely(!w))
		return (head & ~mask) | ((head << 8 | c) & mask);
	carry = head >> 56;
	head = head << 8 | c;
	for (j = 1; j < w; j++) {
		v = list[j];
		list[j] = v << 8 | carry;
		carry = v >> 56;
	}
	v = list[w];
	list[w] = (v & ~mask) | ((v << 8 | carry) & mask);
	return head;
}

/*
 * Encoder: the position of byte c is the number of byte values used more
 * recently than c.  So it keeps the time of the last use of each value
 * (the initial list 0, 1, ..., 255 counts as uses at times 255, ..., 0;
 * input byte i is time 256 + i), a bitmap of these times in blocks of 64
 * bits and the number of bits set in each block.  The position is a
 * popcount plus the counts of the later blocks, summed eight at a time:
 * a few operations wherever c is in the list, where moving through the
 * list costs one step per 8 entries.  After a BWT of float data most
 * bytes come from far back in the list.
 */
#define MTF_BLOCKS(n)	(((n) + 256 + 63) / 64)

struct mtf_enc {
	u32 time[256];
	u64 bits[];	/* MTF_BLOCKS(n) bitmap words, then as many counts + 8 */
};

static int mtf_encode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	struct mtf_enc *sc = scratch;
	unsigned int i, c, nb = MTF_BLOCKS(slen), front = 0;
	u64 *bits = sc->bits;
	u8 *cnt = (u8 *)(bits + nb);
	u32 t, o, b, p;

	if (slen > dcap)
		return -ENOSPC;
	memset(bits, 0, nb * sizeof(*bits));
	memset(cnt, 0, nb + 8);
	for (c = 0; c < 256; c++)
		sc->time[c] = 255 - c;
	for (b = 0; b < 256 / 64; b++) {
		bits[b] = ~0ULL;
		cnt[b] = 64;
	}
	for (i = 0; i < slen; i++) {
		c = src[i];
		/* the front entry again: nothing moves (most common case) */
		if (c == front) {
			dst[i] = 0;
			continue;
		}
		o = sc->time[c];
		t = 256 + i;
		p = hweight64(bits[o / 64] & (~1ULL << (o % 64)));
		/*
		 * Eight counts at a time; later blocks count 0.  They add up
		 * to less than 256 (c's bit is not among them), so a
		 * multiplication adds them without overflowing a byte.
		 */
		for (b = o / 64 + 1; b <= t / 64; b += 8)
			p += (get_unaligned((const u64 *)(cnt + b)) * ZBW_ONES) >> 56;
		dst[i] = p;
		bits[o / 64] &= ~(1ULL << (o % 64));
		cnt[o / 64]--;
		bits[t / 64] |= 1ULL << (t % 64);
		cnt[t / 64]++;
		sc->time[c] = t;
		front = c;
	}
	return slen;
}

static int mtf_decode(const u8 *src, unsigned int slen, u8 *dst,
		      unsigned int dcap, void *scratch)
{
	u64 *list = scratch, head, c;
	unsigned int i, w, b, s;

	if (slen > dcap)
		return -EINVAL;
	head = mtf_init(list);
	for (i = 0; i < slen; i++) {
		s = src[i];
		if (!s) {
			dst[i] = head;
			continue;
		}
		if (likely(s < 8)) {	/* mtf_to_front() in word 0, inline */
			c = (head >> 8 * s) & 0xff;
			dst[i] = c;
			head ^= ((head << 8 | c) ^ head) & mtf_masks[s];
			continue;
		}
		w = s / 8;
		b = 8 * (s % 8);
		c = (list[w] >> b) & 0xff;
		dst[i] = c;
		head = mtf_to_front(head, list, w, mtf_masks[s % 8], c);
	}
	return slen;
}

static size_t mtf_scratch_size(unsigned int max_len)
{
	return max(sizeof(struct mtf_enc) + MTF_BLOCKS((size_t)max_len) * 9 + 8,
		   32 * sizeof(u64));
}

const struct zbewalgo_step zbewalgo_step_MTF = {
	.encode		= mtf_encode,
	.decode		= mtf_decode,
	.scratch_size	= mtf_scratch_size,
};
