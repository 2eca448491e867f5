/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for <linux/module.h>. */
#ifndef ZBW_SHIM_LINUX_MODULE_H
#define ZBW_SHIM_LINUX_MODULE_H

#include <linux/export.h>

#define MODULE_LICENSE(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_AUTHOR(x)

#endif
