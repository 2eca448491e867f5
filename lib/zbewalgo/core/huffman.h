/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The huffman step (../classic/huffman.c), the construction of its codes
 * (huffman_code.c) and the sections of lz and huffman4
 * (../classic/section.c).
 */
#ifndef __ZBEWALGO_HUFFMAN_H
#define __ZBEWALGO_HUFFMAN_H

#include "zbewalgo_internal.h"

#define ZBW_HUF_MAX_BITS	11
/* Deepest Huffman tree for a total weight <= ZBW_LEN_MAX is 29 levels. */
#define ZBW_HUF_DEPTH_MAX	32

/* Reverse the low @n (1..16) bits of @x: the stream is LSB-first. */
static inline u32 zbw_huf_rev(u32 x, unsigned int n)
{
	x = ((x & 0x5555) << 1) | ((x >> 1) & 0x5555);
	x = ((x & 0x3333) << 2) | ((x >> 2) & 0x3333);
	x = ((x & 0x0f0f) << 4) | ((x >> 4) & 0x0f0f);
	x = ((x & 0x00ff) << 8) | ((x >> 8) & 0x00ff);
	return x >> (16 - n);
}

u32 zbw_huf_canon(const u8 *len, unsigned int nsym, unsigned int bits,
		  u32 *next, u16 *count);
unsigned int zbw_huf_lengths(const u32 *freq, unsigned int nsym,
			     unsigned int limit, u8 *len, u32 *buf);
int zbw_huf_table(const u8 *len, unsigned int nsym, unsigned int bits,
		  u16 *tab, u8 *order, const u8 *add);

int zbw_huf_encode(const u8 *src, unsigned int slen, u8 *dst,
		   unsigned int dcap, void *scratch);
int zbw_huf_decode(const u8 *src, unsigned int slen, u8 *dst,
		   unsigned int dcap, void *scratch);

#endif /* __ZBEWALGO_HUFFMAN_H */
