/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for <linux/export.h>: nothing to export here. */
#ifndef ZBW_SHIM_LINUX_EXPORT_H
#define ZBW_SHIM_LINUX_EXPORT_H

#define EXPORT_SYMBOL(sym)
#define EXPORT_SYMBOL_GPL(sym)

#endif
