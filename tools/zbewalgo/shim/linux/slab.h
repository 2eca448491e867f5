/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for the allocators of <linux/slab.h>. */
#ifndef ZBW_SHIM_LINUX_SLAB_H
#define ZBW_SHIM_LINUX_SLAB_H

#include <stdlib.h>
#include <linux/types.h>

typedef unsigned int gfp_t;
#define GFP_KERNEL	0u

static inline void *kvzalloc(size_t size, gfp_t flags)
{
	(void)flags;
	return calloc(1, size ? size : 1);
}

static inline void *kvmalloc(size_t size, gfp_t flags)
{
	(void)flags;
	return malloc(size ? size : 1);
}

static inline void kvfree(const void *p)
{
	free((void *)p);
}

#endif
