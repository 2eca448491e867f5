/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for the parts of <linux/bitops.h> zbewalgo uses. */
#ifndef ZBW_SHIM_LINUX_BITOPS_H
#define ZBW_SHIM_LINUX_BITOPS_H

#include <linux/types.h>

/* fls(x): position of the most significant set bit, 1-based; fls(0) == 0 */
static inline int fls(unsigned int x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

static inline int fls64(u64 x)
{
	return x ? 64 - __builtin_clzll(x) : 0;
}

/* __ffs64(x): index of the least significant set bit, x != 0 */
static inline unsigned long __ffs64(u64 x)
{
	return __builtin_ctzll(x);
}

/*
 * Without a popcount instruction (-mpopcnt and the like) gcc calls libgcc
 * for __builtin_popcount(); the kernel's __sw_hweight8() and
 * __sw_hweight64() inline are shorter than that call.
 */
static inline unsigned int hweight8(unsigned int w)
{
#ifdef __POPCNT__
	return __builtin_popcount(w & 0xff);
#else
	w = (w & 0xff) - ((w >> 1) & 0x55);
	w = (w & 0x33) + ((w >> 2) & 0x33);
	return (w + (w >> 4)) & 0x0f;
#endif
}

static inline unsigned long hweight64(u64 w)
{
#ifdef __POPCNT__
	return __builtin_popcountll(w);
#else
	w -= (w >> 1) & 0x5555555555555555ULL;
	w = (w & 0x3333333333333333ULL) + ((w >> 2) & 0x3333333333333333ULL);
	w = (w + (w >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (w * 0x0101010101010101ULL) >> 56;
#endif
}

#endif
