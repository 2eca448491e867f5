/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space stand-in for <linux/unaligned.h>: the loads and stores
 * lib/zbewalgo uses, through memcpy() (one instruction where the CPU
 * allows an unaligned access), byte-swapped on big-endian CPUs.
 */
#ifndef ZBW_SHIM_LINUX_UNALIGNED_H
#define ZBW_SHIM_LINUX_UNALIGNED_H

#include <string.h>
#include <linux/types.h>

/* The type *@p points to without its const (as the kernel's __unqual_scalar_typeof) */
#define zbw_shim_unqual(p)					\
	__typeof__(_Generic(*(p), u8: (u8)0, u16: (u16)0,		\
			    u32: (u32)0, u64: (u64)0))

#define get_unaligned(p) ({					\
	zbw_shim_unqual(p) __v;					\
	memcpy(&__v, (p), sizeof(__v));				\
	__v;							\
})

#define put_unaligned(v, p) do {				\
	__typeof__(*(p)) __v = (v);				\
	memcpy((p), &__v, sizeof(__v));				\
} while (0)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define zbw_shim_le16(x)	(x)
#define zbw_shim_le32(x)	(x)
#define zbw_shim_le64(x)	(x)
#define zbw_shim_be64(x)	__builtin_bswap64(x)
#else
#define zbw_shim_le16(x)	__builtin_bswap16(x)
#define zbw_shim_le32(x)	__builtin_bswap32(x)
#define zbw_shim_le64(x)	__builtin_bswap64(x)
#define zbw_shim_be64(x)	(x)
#endif

static inline u16 get_unaligned_le16(const void *p)
{
	return zbw_shim_le16(get_unaligned((const u16 *)p));
}

static inline u32 get_unaligned_le24(const void *p)
{
	const u8 *b = p;

	return b[0] | b[1] << 8 | (u32)b[2] << 16;
}

static inline u32 get_unaligned_le32(const void *p)
{
	return zbw_shim_le32(get_unaligned((const u32 *)p));
}

static inline u64 get_unaligned_le64(const void *p)
{
	return zbw_shim_le64(get_unaligned((const u64 *)p));
}

static inline u64 get_unaligned_be64(const void *p)
{
	return zbw_shim_be64(get_unaligned((const u64 *)p));
}

static inline void put_unaligned_le16(u16 v, void *p)
{
	put_unaligned(zbw_shim_le16(v), (u16 *)p);
}

static inline void put_unaligned_le24(u32 v, void *p)
{
	u8 *b = p;

	b[0] = v;
	b[1] = v >> 8;
	b[2] = v >> 16;
}

static inline void put_unaligned_le32(u32 v, void *p)
{
	put_unaligned(zbw_shim_le32(v), (u32 *)p);
}

static inline void put_unaligned_le64(u64 v, void *p)
{
	put_unaligned(zbw_shim_le64(v), (u64 *)p);
}

#endif
