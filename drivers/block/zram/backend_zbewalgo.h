/* SPDX-License-Identifier: GPL-2.0-only */

#ifndef __BACKEND_ZBEWALGO_H__
#define __BACKEND_ZBEWALGO_H__

#include "zcomp.h"

extern const struct zcomp_ops backend_zbewalgo;

#endif /* __BACKEND_ZBEWALGO_H__ */
