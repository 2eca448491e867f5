/* SPDX-License-Identifier: GPL-2.0-only */
/* Unaligned access for the vendored lib/lzo. */
#ifndef LZO_RLE_COMPAT_UNALIGNED_H
#define LZO_RLE_COMPAT_UNALIGNED_H

#include <linux/kernel.h>

/* Packed-struct access, as the kernel once did: plain loads where the CPU
 * allows them, and no misaligned-access reports from UBSan. */
#define get_unaligned(p)						\
	(((const struct { __typeof__(*(p)) x; } __attribute__((packed)) *)(p))->x)
#define put_unaligned(v, p)						\
	(((struct { __typeof__(*(p)) x; } __attribute__((packed)) *)(p))->x = (v))

static inline u16 get_unaligned_le16(const void *p)
{
	const u8 *b = p;

	return b[0] | b[1] << 8;
}

static inline u32 get_unaligned_le32(const void *p)
{
	const u8 *b = p;

	return b[0] | b[1] << 8 | b[2] << 16 | (u32)b[3] << 24;
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	u8 *b = p;

	b[0] = v;
	b[1] = v >> 8;
	b[2] = v >> 16;
	b[3] = v >> 24;
}

#endif
