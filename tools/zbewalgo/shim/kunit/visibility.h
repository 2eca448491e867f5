/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for <kunit/visibility.h>: nothing to export here. */
#ifndef ZBW_SHIM_KUNIT_VISIBILITY_H
#define ZBW_SHIM_KUNIT_VISIBILITY_H

#define VISIBLE_IF_KUNIT
#define EXPORT_SYMBOL_IF_KUNIT(symbol)

#endif
