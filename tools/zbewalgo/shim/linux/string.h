/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for <linux/string.h>. */
#ifndef ZBW_SHIM_LINUX_STRING_H
#define ZBW_SHIM_LINUX_STRING_H

#include <string.h>
#include <linux/types.h>

#endif
