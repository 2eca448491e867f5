/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for <linux/swab.h>. */
#ifndef ZBW_SHIM_LINUX_SWAB_H
#define ZBW_SHIM_LINUX_SWAB_H

#include <linux/types.h>

#define swab16(x)	((u16)__builtin_bswap16(x))
#define swab32(x)	((u32)__builtin_bswap32(x))
#define swab64(x)	((u64)__builtin_bswap64(x))

#endif
