/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for <linux/kernel.h>. */
#ifndef ZBW_SHIM_LINUX_KERNEL_H
#define ZBW_SHIM_LINUX_KERNEL_H

#include <linux/compiler.h>
#include <linux/minmax.h>
#include <linux/types.h>
/* snprintf() */
#include <stdio.h>
/* abs(), which the kernel has from linux/math.h */
#include <stdlib.h>

/*
 * User space builds every step, as a kernel with
 * CONFIG_ZBEWALGO_CLASSIC_STEPS does; ZBW_LEAN builds the kernel's other
 * choice, for the lean test of make check-user.
 */
#ifndef ZBW_LEAN
#define CONFIG_ZBEWALGO_CLASSIC_STEPS 1
#endif

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))
/* 0, or a compile error when @e is true (linux/build_bug.h) */
#define BUILD_BUG_ON_ZERO(e)	((int)sizeof(struct { int:(-!!(e)); }))
#define BUILD_BUG_ON(e)		((void)BUILD_BUG_ON_ZERO(e))
#define DIV_ROUND_UP(n, d)	(((n) + (d) - 1) / (d))
#define ALIGN(x, a)		(((x) + (a) - 1) & ~((__typeof__(x))(a) - 1))
#define U8_MAX			((u8)~0U)
#define U32_MAX			((u32)~0U)
#define U64_MAX			((u64)~0ULL)
#define S32_MAX			((s32)(U32_MAX >> 1))

#endif
