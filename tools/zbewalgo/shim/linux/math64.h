/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for <linux/math64.h>. */
#ifndef ZBW_SHIM_LINUX_MATH64_H
#define ZBW_SHIM_LINUX_MATH64_H

#include <linux/types.h>

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

#endif
