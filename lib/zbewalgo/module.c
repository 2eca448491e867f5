// SPDX-License-Identifier: GPL-2.0-only
/*
 * The zbewalgo library's init and exit: the shared configuration
 * (config.c) first, then what shows and changes it, /sys/kernel/zbewalgo
 * (tuning/sysfs.c) and the devices' debugfs directories (debugfs.c).  The
 * configuration and the streams call neither.
 */

#include <linux/init.h>
#include <linux/mm.h>
#include <linux/module.h>

#include "stream.h"

/*
 * The page format holds pages of up to ZBEWALGO_MAX_INPUT bytes (64 KiB):
 * Kconfig keeps zbewalgo off kernels with larger pages
 * (PAGE_SIZE_LESS_THAN_256KB), and an out-of-tree build stops here
 * instead of registering an algorithm whose every stream would fail.
 */
static_assert(PAGE_SIZE <= ZBEWALGO_MAX_INPUT,
	      "zbewalgo supports pages of at most 64 KiB");

static int __init zbewalgo_init(void)
{
	int ret = zbewalgo_core_init(&zbw_config, zbewalgo_sysfs_init);

	if (!ret)
		zbewalgo_debugfs_init();
	return ret;
}

static void __exit zbewalgo_exit(void)
{
	zbewalgo_debugfs_exit();
	zbewalgo_sysfs_exit();
	zbewalgo_core_exit(&zbw_config);
}

/* Before the crypto algorithms register (subsys_initcall) when built in. */
postcore_initcall(zbewalgo_init);
module_exit(zbewalgo_exit);
