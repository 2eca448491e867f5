// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo streams: the per-stream state used by the crypto API glue and
 * the zram backend, on a shared configuration (config.c).
 *
 * A stream either follows the published configuration, taking a
 * reference to the current one before a page (zswap: a change takes
 * effect at each stream's next page), or keeps the one it was created
 * with for good (zram, which may compress a page twice and trust the
 * first length: a change must not reach a device that holds data).
 * Either way it compresses without any lock held, so a change is safe
 * while every CPU compresses, and compression may sleep or migrate (zram
 * streams are preemptible since 6.15).  Each page counts in the per-CPU
 * statistics of the stream's configuration.
 */

#include <linux/export.h>
#include <linux/kref.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "stream.h"

/**
 * struct zbewalgo_stream - a context bound to the shared configuration
 * @ctx: the compression context
 * @config: the configuration @ctx last used; holds a reference
 * @preset: preset table chosen by level, or NULL for the shared table
 * @fixed: @config is the stream's for good, not the published one
 */
struct zbewalgo_stream {
	struct zbewalgo_ctx *ctx;
	struct zbewalgo_config *config;
	const struct zbewalgo_table *preset;
	bool fixed;
};

static void zbw_stream_apply(struct zbewalgo_stream *s)
{
	zbewalgo_ctx_set_params(s->ctx, &s->config->params);
	zbewalgo_ctx_set_table(s->ctx, s->preset ?: &s->config->table);
}

/* Points @s at the current configuration if it changed since last time. */
static void zbw_stream_refresh(struct zbewalgo_stream *s)
{
	struct zbewalgo_config *cfg, *old = NULL;

	if (s->fixed)
		return;
	rcu_read_lock();
	/*
	 * Never NULL here: streams exist only after zbewalgo_init() published
	 * it, and their users hold the module until they free them.
	 */
	cfg = rcu_dereference(zbw_config);
	/* A configuration whose count hit zero is already replaced. */
	if (cfg != s->config && kref_get_unless_zero(&cfg->ref)) {
		old = s->config;
		s->config = cfg;
	}
	rcu_read_unlock();
	if (!old)
		return;
	zbewalgo_config_put(old);
	zbw_stream_apply(s);
}

/*
 * A stream; with @own, one whose context has room only for the steps of
 * its fixed table (zbewalgo_stream_create_device()).
 */
static struct zbewalgo_stream *zbw_stream_new(size_t page_len, int level,
					      struct zbewalgo_config *cfg,
					      bool own)
{
	struct zbewalgo_stream *s = kzalloc(sizeof(*s), GFP_KERNEL);
	int ret;

	if (!s)
		return ERR_PTR(-ENOMEM);
	s->fixed = !!cfg;
	if (cfg)
		kref_get(&cfg->ref);
	s->config = cfg ?: zbewalgo_config_get();
	if (!s->config) {
		kfree(s);
		return ERR_PTR(-ENODEV);
	}
	if (level) {
		s->preset = zbewalgo_preset_table(level);
		if (!s->preset) {
			zbewalgo_stream_destroy(s);
			return ERR_PTR(-EINVAL);
		}
		if (s->config->own_table)
			s->preset = NULL;
	}
	/* a device's: its table, level and dictionary, fixed */
	if (own && s->fixed)
		ret = zbw_ctx_new(page_len, s->preset ?: &s->config->table,
				  level ?: ZBEWALGO_DEFAULT_LEVEL,
				  !!s->config->dict, &s->ctx);
	else
		ret = zbw_ctx_new(page_len, NULL, 0, !!s->config->dict,
				  &s->ctx);
	if (!ret && level)
		ret = zbewalgo_ctx_set_level(s->ctx, level);
	if (!ret)
		ret = zbewalgo_ctx_set_dict(s->ctx, s->config->dict);
	if (ret) {
		zbewalgo_stream_destroy(s);
		return ERR_PTR(ret);
	}
	zbw_stream_apply(s);
	return s;
}

/**
 * zbewalgo_stream_create() - a compression stream for kernel users
 * @page_len: largest input, normally PAGE_SIZE
 * @level: 0 for the shared (sysfs) table, or a preset level, see
 *	zbewalgo_preset_table(), whose table is used unless @cfg has one of
 *	its own
 * @cfg: the configuration to keep, from zbewalgo_config_get() or
 *	zbewalgo_config_create() (the stream takes a reference of its own),
 *	or NULL to follow the one sysfs publishes, page by page
 *
 * A stream with a configuration of its own compresses a page the same
 * whenever it is asked, as do all streams given the same configuration and
 * level: what a caller that compresses a page twice and trusts the first
 * length (zram) needs.  It decompresses any page.
 *
 * Context: may sleep.
 * Return: the stream, or an ERR_PTR(): -EINVAL for an unknown level or a
 * @page_len above ZBEWALGO_MAX_INPUT (the page format's limit), -ENOMEM
 * when out of memory, -ENODEV when the library failed to initialise, or
 * the error of the context's set-up (-EINVAL when zstd refuses its
 * workspace).
 */
struct zbewalgo_stream *zbewalgo_stream_create(size_t page_len, int level,
					       struct zbewalgo_config *cfg)
{
	return zbw_stream_new(page_len, level, cfg, false);
}
EXPORT_SYMBOL_GPL(zbewalgo_stream_create);

/**
 * zbewalgo_stream_create_device() - a stream for one device's own pages
 * @page_len: as for zbewalgo_stream_create()
 * @level: as for zbewalgo_stream_create()
 * @cfg: the device's configuration, kept for the stream's life
 *
 * zbewalgo_stream_create() for a caller that decompresses only pages it
 * compressed with @cfg and @level (a zram device, whose settings are
 * fixed while it holds data): the stream has room for the steps of its
 * table only, which for pages above 4 KiB is less than a stream for any
 * table takes, and refuses pages of other steps.
 *
 * Context: may sleep.
 * Return: as for zbewalgo_stream_create().
 */
struct zbewalgo_stream *zbewalgo_stream_create_device(size_t page_len,
						      int level,
						      struct zbewalgo_config *cfg)
{
	return zbw_stream_new(page_len, level, cfg, true);
}
EXPORT_SYMBOL_GPL(zbewalgo_stream_create_device);

/**
 * zbewalgo_stream_destroy() - free a stream
 * @s: stream from zbewalgo_stream_create(), or NULL
 */
void zbewalgo_stream_destroy(struct zbewalgo_stream *s)
{
	if (IS_ERR_OR_NULL(s))
		return;
	zbewalgo_config_put(s->config);
	zbewalgo_ctx_destroy(s->ctx);
	kfree(s);
}
EXPORT_SYMBOL_GPL(zbewalgo_stream_destroy);

/* Counts the page that gave @r in @set */
static void zbw_stats_count(struct zbewalgo_stats_set *set,
			    const struct zbewalgo_result *r)
{
	struct zbewalgo_stats *st;
	unsigned long flags;

	/*
	 * The stream may be preempted and migrate (zram since 6.15): pin
	 * the CPU whose counters these are.  _irqsave: a crypto API user
	 * may compress in softirq context, on top of a task doing so.
	 */
	st = get_cpu_ptr(set->cpu);
	flags = u64_stats_update_begin_irqsave(&st->syncp);
	u64_stats_inc(&st->pages);
	u64_stats_add(&st->tried, r->tried);
	if (r->stored)
		u64_stats_inc(&st->stored);
	else
		u64_stats_inc(&st->wins[r->comb]);
	u64_stats_update_end_irqrestore(&st->syncp, flags);
	put_cpu_ptr(st);
}

/**
 * zbewalgo_stream_compress() - compress a page with the shared settings
 * @s: the stream; not used concurrently
 * @src: input
 * @slen: input length
 * @dst: output buffer
 * @dlen: in: capacity of @dst; out: compressed length
 *
 * Like zbewalgo_compress(), with the stream's table and thresholds (the
 * current ones for a stream that follows sysfs), and counted in the
 * statistics (those of a device, zbewalgo_config_create(); the shared
 * ones unless the stream has a preset level), stored pages that did not
 * fit in *@dlen bytes included.  Runs without locks; may be preempted.
 *
 * Return: 0, -E2BIG or -ENOSPC as zbewalgo_compress().
 */
int zbewalgo_stream_compress(struct zbewalgo_stream *s, const void *src,
			     size_t slen, void *dst, size_t *dlen)
{
	const struct zbewalgo_result *r;
	int ret;

	zbw_stream_refresh(s);
	ret = zbewalgo_compress(s->ctx, src, slen, dst, dlen);
	r = zbewalgo_ctx_last_result(s->ctx);
	/*
	 * A stored page that does not fit counts all the same: zswap gives
	 * one page, and -ENOSPC is how it learns to keep the page as it is.
	 */
	if (ret && !(ret == -ENOSPC && r->stored))
		return ret;
	/*
	 * The shared statistics describe the shared table: a preset's pages
	 * count in neither stats nor wins there (its chains are not the
	 * table's).  A device's own count them against its preset.
	 */
	if (!s->preset || s->config->device)
		zbw_stats_count(s->config->stats, r);
	if (!s->preset && s->config->shared)
		zbw_stats_count(s->config->shared, r);
	return ret;
}
EXPORT_SYMBOL_GPL(zbewalgo_stream_compress);

/**
 * zbewalgo_stream_decompress() - decompress a page using a stream's scratch
 * @s: the stream; not used concurrently
 * @src: compressed data
 * @slen: its length
 * @dst: output buffer
 * @dlen: in: capacity of @dst; out: length
 *
 * Return: 0, -EINVAL for corrupt data, -ENOSPC as
 * zbewalgo_ctx_decompress() (also for pages longer than the stream's
 * page_len).
 */
int zbewalgo_stream_decompress(struct zbewalgo_stream *s, const void *src,
			       size_t slen, void *dst, size_t *dlen)
{
	return zbewalgo_ctx_decompress(s->ctx, src, slen, dst, dlen);
}
EXPORT_SYMBOL_GPL(zbewalgo_stream_decompress);
