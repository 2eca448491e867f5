// SPDX-License-Identifier: GPL-2.0-only
/*
 * zram backend for zbewalgo.
 *
 * algorithm_params level=1, 2 or 3 selects a preset combination table
 * (fast, default, thorough), any other level is refused; without a level
 * the streams use the default table (with CONFIG_ZBEWALGO_TUNING, the
 * table tuned in /sys/kernel/zbewalgo, and the keys zbewalgo.table,
 * zbewalgo.early_abort_size and zbewalgo.max_output_size give a device
 * settings of its own, in the form sysfs takes them; a table given so
 * replaces the level's preset).  A device keeps the settings in force when
 * it was set up until it is reset: zram may compress a page twice and
 * trust the first length.  dict= gives the device's zstd step a
 * dictionary in zstd's format (zstd --train, zbewalgo train-dict), loaded
 * once for the device.  Each device counts its pages in statistics of its
 * own, in debugfs (zbewalgo/N/).
 * Incompressible pages come back in stored form, larger than zram's
 * huge-class size, so zram keeps them as-is: compression never fails for
 * a valid page.
 */

#include <linux/err.h>
#include <linux/mm.h>
#include <linux/printk.h>
#include <linux/zbewalgo.h>

#include "backend_zbewalgo.h"

#ifndef ZCOMP_PARAM_NOT_SET
/* 6.12 calls zram's "no level= given" marker ZCOMP_PARAM_NO_LEVEL. */
#define ZCOMP_PARAM_NOT_SET ZCOMP_PARAM_NO_LEVEL
#endif

#ifdef CONFIG_ZBEWALGO_TUNING
/* A threshold key: -1 when not given (the shared value), else its value. */
static int zbewalgo_zram_size(s32 val, int *size)
{
	if (val < 0 && val != ZCOMP_PARAM_NOT_SET)
		return -EINVAL;
	*size = val == ZCOMP_PARAM_NOT_SET ? -1 : val;
	return 0;
}
#endif

static int zbewalgo_zram_setup_params(struct zcomp_params *params)
{
	struct zbewalgo_config *cfg;
	const char *table = NULL;
	int early = -1, max = -1, ret;

	/*
	 * No level means the shared table (stream level 0).  Only the
	 * presets are levels: zbewalgo_preset_table() refuses 0 and negative
	 * ones like any other.
	 */
	if (params->level == ZCOMP_PARAM_NOT_SET)
		params->level = 0;
	else if (!zbewalgo_preset_table(params->level))
		return -EINVAL;
#ifdef CONFIG_ZBEWALGO_TUNING
	if (zbewalgo_zram_size(params->zbewalgo.early_abort_size, &early) ||
	    zbewalgo_zram_size(params->zbewalgo.max_output_size, &max))
		return -EINVAL;
	table = params->zbewalgo.table;
#endif
	cfg = zbewalgo_config_create(params->level, table, early, max);
	if (IS_ERR(cfg))
		return PTR_ERR(cfg);
	if (params->dict_sz) {
		/* One copy of the dictionary for all of the device's streams */
		ret = zbewalgo_config_set_dict(cfg, params->dict,
					       params->dict_sz);
		if (ret == -EINVAL)
			pr_err("zbewalgo: dict= is not a zstd dictionary with an id (zstd --train)\n");
		if (ret) {
			zbewalgo_config_put(cfg);
			return ret;
		}
	}
	zbewalgo_debugfs_add(cfg);
	params->drv_data = cfg;
	return 0;
}

static void zbewalgo_zram_release_params(struct zcomp_params *params)
{
	zbewalgo_debugfs_remove(params->drv_data);
	zbewalgo_config_put(params->drv_data);
	params->drv_data = NULL;
}

static int zbewalgo_zram_create(struct zcomp_params *params,
				struct zcomp_ctx *ctx)
{
	/* the device's own pages only: room for its table's steps only */
	struct zbewalgo_stream *s =
		zbewalgo_stream_create_device(PAGE_SIZE, params->level,
					      params->drv_data);

	if (IS_ERR(s))
		return PTR_ERR(s);
	ctx->context = s;
	return 0;
}

static void zbewalgo_zram_destroy(struct zcomp_ctx *ctx)
{
	zbewalgo_stream_destroy(ctx->context);
}

static int zbewalgo_zram_compress(struct zcomp_params *params,
				  struct zcomp_ctx *ctx,
				  struct zcomp_req *req)
{
	size_t len = req->dst_len;
	int ret;

	ret = zbewalgo_stream_compress(ctx->context, req->src, req->src_len,
				       req->dst, &len);
	if (ret)
		return ret;
	req->dst_len = len;
	return 0;
}

static int zbewalgo_zram_decompress(struct zcomp_params *params,
				    struct zcomp_ctx *ctx,
				    struct zcomp_req *req)
{
	size_t len = req->dst_len;
	int ret;

	ret = zbewalgo_stream_decompress(ctx->context, req->src, req->src_len,
					 req->dst, &len);
	if (ret)
		return ret;
	/* zram expects exactly the page it stored. */
	return len == req->dst_len ? 0 : -EINVAL;
}

const struct zcomp_ops backend_zbewalgo = {
	.compress	= zbewalgo_zram_compress,
	.decompress	= zbewalgo_zram_decompress,
	.create_ctx	= zbewalgo_zram_create,
	.destroy_ctx	= zbewalgo_zram_destroy,
	.setup_params	= zbewalgo_zram_setup_params,
	.release_params	= zbewalgo_zram_release_params,
	.name		= "zbewalgo",
};
