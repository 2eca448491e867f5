/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for <linux/overflow.h>: struct_size() saturating. */
#ifndef ZBW_SHIM_LINUX_OVERFLOW_H
#define ZBW_SHIM_LINUX_OVERFLOW_H

#include <stdint.h>

#define struct_size(p, member, count)					\
	((size_t)(count) > (SIZE_MAX - sizeof(*(p))) /			\
			   sizeof(*(p)->member) ? SIZE_MAX :		\
	 sizeof(*(p)) + sizeof(*(p)->member) * (size_t)(count))

#endif
