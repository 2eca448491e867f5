/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Just enough of the kernel's environment to build lib/lzo (vendored in
 * this directory, unchanged) in user space for zbewalgo bench's lzo-rle.
 * Deliberately independent of tools/zbewalgo/shim and of glibc's
 * <endian.h>: lzodefs.h insists that only one of __LITTLE_ENDIAN and
 * __BIG_ENDIAN is defined, as in the kernel.
 */
#ifndef LZO_RLE_COMPAT_KERNEL_H
#define LZO_RLE_COMPAT_KERNEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define __LITTLE_ENDIAN 1234
#else
#define __BIG_ENDIAN 4321
#endif

/* The kernel sets these per architecture; lib/lzo picks its fast paths. */
#if defined(__x86_64__)
#define CONFIG_X86_64 1
#define CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS 1
#elif defined(__aarch64__)
#define CONFIG_ARM64 1
#define CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS 1
#elif defined(__i386__)
#define CONFIG_X86 1
#define CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS 1
#endif

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define noinline	__attribute__((noinline))
#define BUILD_BUG_ON(c)	_Static_assert(!(c), #c)
#define min(a, b)	((a) < (b) ? (a) : (b))
#define min_t(t, a, b)	((t)(a) < (t)(b) ? (t)(a) : (t)(b))
#define ALIGN(x, a)	(((x) + (a) - 1) & ~((uintptr_t)(a) - 1))
#define IS_ALIGNED(x, a)	(((x) & ((uintptr_t)(a) - 1)) == 0)

#endif
