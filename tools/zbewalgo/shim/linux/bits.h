/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for the parts of <linux/bits.h> zbewalgo uses. */
#ifndef ZBW_SHIM_LINUX_BITS_H
#define ZBW_SHIM_LINUX_BITS_H

#define BIT(nr)			(1UL << (nr))
#define BIT_ULL(nr)		(1ULL << (nr))
#define GENMASK_ULL(h, l)	((~0ULL << (l)) & (~0ULL >> (63 - (h))))

#endif
