/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for <linux/string.h>. */
#ifndef ZBW_SHIM_LINUX_STRING_H
#define ZBW_SHIM_LINUX_STRING_H

#include <string.h>
#include <linux/types.h>

/* The first byte of the @n at @s that is not @c, NULL for none */
static inline void *memchr_inv(const void *s, int c, size_t n)
{
	const u8 *p = s;
	u64 pat = 0x0101010101010101ULL * (u8)c, x;

	/* eight bytes a step, as the kernel's does */
	for (; n >= 8; n -= 8, p += 8) {
		memcpy(&x, p, 8);
		if (x != pat)
			break;
	}
	for (; n; n--, p++)
		if (*p != (u8)c)
			return (void *)p;
	return NULL;
}

#endif
