/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Out-of-tree builds only (Kbuild adds this directory for kernels without
 * linux/unaligned.h): before 6.12 the header was asm/unaligned.h.
 */
#ifndef ZBW_COMPAT_LINUX_UNALIGNED_H
#define ZBW_COMPAT_LINUX_UNALIGNED_H

#include <asm/unaligned.h>

#endif
