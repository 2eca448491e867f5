/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for <linux/minmax.h> (no type checking here). */
#ifndef ZBW_SHIM_LINUX_MINMAX_H
#define ZBW_SHIM_LINUX_MINMAX_H

#define min(a, b)	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
			   _a < _b ? _a : _b; })
#define max(a, b)	({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); \
			   _a > _b ? _a : _b; })
#define min_t(t, a, b)	min((t)(a), (t)(b))
#define max_t(t, a, b)	max((t)(a), (t)(b))
#define swap(a, b)	do { __typeof__(a) _t = (a); (a) = (b); (b) = _t; } \
			while (0)

#endif
