/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for <linux/compiler.h>. */
#ifndef ZBW_SHIM_LINUX_COMPILER_H
#define ZBW_SHIM_LINUX_COMPILER_H

#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#ifndef __always_inline
#define __always_inline		inline __attribute__((__always_inline__))
#endif
#define noinline		__attribute__((__noinline__))
#define noinline_for_stack	noinline
#define fallthrough		__attribute__((__fallthrough__))
#define __maybe_unused		__attribute__((__unused__))
#define __aligned(x)		__attribute__((__aligned__(x)))
#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))

#endif
