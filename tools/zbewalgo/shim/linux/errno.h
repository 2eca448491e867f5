/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for <linux/errno.h>: the UAPI values are the same. */
#ifndef ZBW_SHIM_LINUX_ERRNO_H
#define ZBW_SHIM_LINUX_ERRNO_H

#include <asm/errno.h>

#endif
