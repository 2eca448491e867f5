/* SPDX-License-Identifier: GPL-2.0-only */
/* User-space stand-in for the allocators of <linux/slab.h>. */
#ifndef ZBW_SHIM_LINUX_SLAB_H
#define ZBW_SHIM_LINUX_SLAB_H

#include <stdlib.h>
#include <string.h>
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

static inline void *kmalloc(size_t size, gfp_t flags)
{
	(void)flags;
	return malloc(size ? size : 1);
}

static inline void *kzalloc(size_t size, gfp_t flags)
{
	return kvzalloc(size, flags);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

/* An exact-size copy: ASan reports any access past @len */
static inline void *kmemdup(const void *src, size_t len, gfp_t flags)
{
	void *p = kmalloc(len, flags);

	if (p && len)
		memcpy(p, src, len);
	return p;
}

#endif
