/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef LZO_RLE_COMPAT_MODULE_H
#define LZO_RLE_COMPAT_MODULE_H
#define EXPORT_SYMBOL_GPL(sym)
#define MODULE_LICENSE(s)
#define MODULE_DESCRIPTION(s)
#endif
