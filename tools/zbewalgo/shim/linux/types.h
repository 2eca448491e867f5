/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * User-space stand-in for <linux/types.h>: just enough for lib/zbewalgo to
 * compile unchanged in tools, tests and fuzzers.  It also pulls in the UAPI
 * types so system headers that include <linux/types.h> keep working.
 */
#ifndef ZBW_SHIM_LINUX_TYPES_H
#define ZBW_SHIM_LINUX_TYPES_H

#include <asm/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#endif
