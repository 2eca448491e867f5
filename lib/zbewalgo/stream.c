// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo streams: the kernel's shared tunables and the per-stream state
 * used by the crypto API glue and the zram backend.
 *
 * The combination table and thresholds live in a reference-counted
 * configuration that is replaced, never edited, when sysfs changes it, and
 * published with RCU.  A stream either follows the published configuration,
 * taking a reference to the current one before a page (zswap: a change
 * takes effect at each stream's next page), or keeps the one it was
 * created with for good (zram, which may compress a page twice and trust
 * the first length: a change must not reach a device that holds data).
 * Either way it compresses without any lock held, so a change is safe
 * while every CPU compresses, and compression may sleep or migrate (zram
 * streams are preemptible since 6.15).  Statistics are per-CPU counters of
 * the table they were gathered under, shared by every configuration with
 * that table: a threshold write keeps them.
 */

#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/kref.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "zbewalgo_internal.h"
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

/* NULL until zbewalgo_init() succeeded; then never NULL until exit. */
static struct zbewalgo_config __rcu *zbw_config;
static DEFINE_MUTEX(zbw_config_lock);
/* Configurations allocated and not yet freed, RCU callbacks included. */
static atomic_t zbw_nr_configs = ATOMIC_INIT(0);
/*
 * zbewalgo_default_params() for PAGE_SIZE, worked out once: the first
 * configuration starts from it, and zbewalgo_stream_compress_default()
 * compares with it on every page that did not fit.
 */
static struct zbewalgo_params zbw_defaults;

static void zbw_stats_release(struct kref *ref)
{
	struct zbewalgo_stats_set *set = container_of(ref,
						      struct zbewalgo_stats_set,
						      ref);

	free_percpu(set->cpu);
	kfree(set);
}

static void zbw_stats_put(struct zbewalgo_stats_set *set)
{
	if (set)
		kref_put(&set->ref, zbw_stats_release);
}

static struct zbewalgo_stats_set *zbw_stats_alloc(void)
{
	struct zbewalgo_stats_set *set = kmalloc(sizeof(*set), GFP_KERNEL);
	int cpu;

	if (!set)
		return NULL;
	set->cpu = alloc_percpu(struct zbewalgo_stats);
	if (!set->cpu) {
		kfree(set);
		return NULL;
	}
	for_each_possible_cpu(cpu)
		u64_stats_init(&per_cpu_ptr(set->cpu, cpu)->syncp);
	kref_init(&set->ref);
	return set;
}

/* Whether @a and @b hold the same combinations in the same order */
static bool zbw_table_same(const struct zbewalgo_table *a,
			   const struct zbewalgo_table *b)
{
	unsigned int i;

	if (a->nr != b->nr)
		return false;
	for (i = 0; i < a->nr; i++)
		if (!zbw_comb_equal(&a->comb[i], &b->comb[i]))
			return false;
	return true;
}

/* Gives @cfg statistics of its own instead of those it shares. */
static int zbw_config_new_stats(struct zbewalgo_config *cfg)
{
	struct zbewalgo_stats_set *set = zbw_stats_alloc();

	if (!set)
		return -ENOMEM;
	zbw_stats_put(cfg->stats);
	cfg->stats = set;
	return 0;
}

static void zbw_config_free(struct zbewalgo_config *cfg)
{
	zbewalgo_dict_destroy(cfg->dict);
	zbw_stats_put(cfg->shared);
	zbw_stats_put(cfg->stats);
	kfree(cfg);
	atomic_dec(&zbw_nr_configs);
}

static void zbw_config_free_rcu(struct rcu_head *head)
{
	zbw_config_free(container_of(head, struct zbewalgo_config, rcu));
}

static void zbw_config_release(struct kref *ref)
{
	struct zbewalgo_config *cfg = container_of(ref, struct zbewalgo_config,
						   ref);

	/* Readers may still see it under rcu_read_lock(). */
	call_rcu(&cfg->rcu, zbw_config_free_rcu);
}

static void zbw_config_put(struct zbewalgo_config *cfg)
{
	if (cfg)
		kref_put(&cfg->ref, zbw_config_release);
}

/* A copy of @old sharing its statistics, or the defaults with new ones. */
static struct zbewalgo_config *zbw_config_alloc(const struct zbewalgo_config *old)
{
	struct zbewalgo_config *cfg = kmalloc(sizeof(*cfg), GFP_KERNEL);

	if (!cfg)
		return NULL;
	if (old) {
		cfg->stats = old->stats;
		kref_get(&cfg->stats->ref);
	} else {
		cfg->stats = zbw_stats_alloc();
		if (!cfg->stats) {
			kfree(cfg);
			return NULL;
		}
	}
	kref_init(&cfg->ref);
	atomic_inc(&zbw_nr_configs);
	cfg->own_table = false;
	cfg->dict = NULL;
	cfg->device = false;
	cfg->shared = NULL;
	cfg->level = 0;
	cfg->debugfs = NULL;
	if (old) {
		cfg->table = old->table;
		cfg->params = old->params;
	} else {
		zbewalgo_table_reset(&cfg->table);
		cfg->params = zbw_defaults;
	}
	return cfg;
}

/**
 * zbewalgo_config_get() - reference the current shared configuration
 *
 * The settings in force now (table and thresholds of /sys/kernel/zbewalgo),
 * to give streams that must keep them, zbewalgo_stream_create().
 *
 * Context: may sleep.
 * Return: the configuration, to be released with zbewalgo_config_put(),
 * or NULL when zbewalgo_init() failed.
 */
struct zbewalgo_config *zbewalgo_config_get(void)
{
	struct zbewalgo_config *cfg;

	mutex_lock(&zbw_config_lock);
	cfg = rcu_dereference_protected(zbw_config,
					lockdep_is_held(&zbw_config_lock));
	if (cfg)
		kref_get(&cfg->ref);
	mutex_unlock(&zbw_config_lock);
	return cfg;
}
EXPORT_SYMBOL_GPL(zbewalgo_config_get);

/**
 * zbewalgo_ready() - whether the library initialised
 *
 * Built in, the library's init may fail (out of memory, sysfs) while its
 * users still initialise; they must not register then.
 *
 * Return: true when streams can be created.
 */
bool zbewalgo_ready(void)
{
	return rcu_access_pointer(zbw_config);
}
EXPORT_SYMBOL_GPL(zbewalgo_ready);

/**
 * zbewalgo_check_params() - whether thresholds make sense together
 * @params: the thresholds
 *
 * Sizes beyond the largest stored page mean nothing, and a search that
 * stops below early_abort_size keeps results below max_output_size only:
 * with the first not below the second (a max_output_size of 0, say) every
 * page would be stored as it is.
 *
 * Return: 0, or -EINVAL.
 */
int zbewalgo_check_params(const struct zbewalgo_params *params)
{
	if (params->max_output_size > ZBEWALGO_STORED_SIZE(ZBEWALGO_MAX_INPUT) ||
	    params->early_abort_size >= params->max_output_size)
		return -EINVAL;
	return 0;
}

/*
 * A table function's error as the user sees it: -ENOMEM, or -EINVAL for
 * anything else (unknown step, duplicate, overflow); the log says why
 * where the user could not tell.
 */
int zbewalgo_table_error(int ret)
{
	if (ret == -ENOSPC)
		pr_warn_ratelimited("zbewalgo: table refused: more than %d steps, or more than %d of work per page\n",
				    ZBEWALGO_MAX_TABLE_STEPS,
				    ZBEWALGO_MAX_TABLE_COST);
	else if (ret == -EOPNOTSUPP)
		pr_warn_ratelimited("zbewalgo: table refused: it names a step this kernel is built without (CONFIG_ZBEWALGO_CLASSIC_STEPS)\n");
	return ret && ret != -ENOMEM ? -EINVAL : ret;
}

/**
 * zbewalgo_config_create() - settings of a device's own
 * @table: combinations in text form, as for zbewalgo_table_parse() (for
 *	example "delta4-zstd bitshuffle4-zstd"), or NULL for the shared
 *	table
 * @early_abort_size: the threshold, or negative for the shared one
 * @max_output_size: the threshold, or negative for the shared one
 *
 * The shared settings in force now with the changes given, for a caller
 * that keeps settings per device (zram's algorithm_params).  The result
 * is not published: sysfs neither shows nor changes it, and its streams
 * count every page in statistics of its own (zbewalgo_debugfs_add());
 * with no change given, in the shared statistics too, except the pages of
 * a preset level.  A table given here takes the place of the preset of a
 * stream's level; the level still sets how hard the steps work.
 *
 * Context: may sleep.
 * Return: the configuration, to be released with zbewalgo_config_put(),
 * or an ERR_PTR(): -EINVAL for a table that does not parse or thresholds
 * that sysfs would refuse, -ENOMEM, -ENODEV when zbewalgo_init() failed.
 */
struct zbewalgo_config *zbewalgo_config_create(const char *table,
					       int early_abort_size,
					       int max_output_size)
{
	struct zbewalgo_config *old, *cfg;
	int ret;

	mutex_lock(&zbw_config_lock);
	old = rcu_dereference_protected(zbw_config,
					lockdep_is_held(&zbw_config_lock));
	cfg = old ? zbw_config_alloc(old) : NULL;
	mutex_unlock(&zbw_config_lock);
	if (!cfg)
		return ERR_PTR(old ? -ENOMEM : -ENODEV);
	cfg->device = true;
	if (!table && early_abort_size < 0 && max_output_size < 0) {
		cfg->shared = cfg->stats;
		kref_get(&cfg->shared->ref);
	}
	/* Statistics of its own, besides the shared ones. */
	ret = zbw_config_new_stats(cfg);
	if (!ret && table) {
		ret = zbewalgo_table_error(zbewalgo_table_parse(&cfg->table,
								table));
		cfg->own_table = true;
	}
	if (early_abort_size >= 0)
		cfg->params.early_abort_size = early_abort_size;
	if (max_output_size >= 0)
		cfg->params.max_output_size = max_output_size;
	if (!ret)
		ret = zbewalgo_check_params(&cfg->params);
	if (ret) {
		zbw_config_put(cfg);
		return ERR_PTR(ret);
	}
	return cfg;
}
EXPORT_SYMBOL_GPL(zbewalgo_config_create);

/**
 * zbewalgo_config_set_dict() - give a device's settings a zstd dictionary
 * @cfg: from zbewalgo_config_create(), before any stream has it
 * @data: the dictionary in zstd's format (zram's dict=); copied
 * @len: its length
 * @level: the level of the device's streams, 0 for the default
 *
 * Streams of @cfg then compress with the dictionary where it makes a page
 * smaller, and decompress the pages that need it; see
 * zbewalgo_ctx_set_dict().  They count in @cfg's own statistics only.
 *
 * Context: may sleep.
 * Return: 0, or the error of zbewalgo_dict_create(): -EINVAL for data
 * that is not a zstd dictionary, -ENOMEM, -EOPNOTSUPP.
 */
int zbewalgo_config_set_dict(struct zbewalgo_config *cfg, const void *data,
			     size_t len, int level)
{
	struct zbewalgo_dict *dict;
	int ret;

	if (cfg->dict)
		return -EBUSY;
	ret = zbewalgo_dict_create(data, len, level ?: ZBEWALGO_DEFAULT_LEVEL,
				   PAGE_SIZE, &dict);
	if (ret)
		return ret;
	cfg->dict = dict;
	zbw_stats_put(cfg->shared);
	cfg->shared = NULL;
	return 0;
}
EXPORT_SYMBOL_GPL(zbewalgo_config_set_dict);

/*
 * The table a configuration's streams compress with: a device's level's
 * preset (zbewalgo_debugfs_add()) unless it has a table of its own.
 */
const struct zbewalgo_table *
zbewalgo_config_table(const struct zbewalgo_config *cfg)
{
	if (cfg->level && !cfg->own_table)
		return zbewalgo_preset_table(cfg->level);
	return &cfg->table;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_config_table);

/**
 * zbewalgo_config_put() - release a reference from zbewalgo_config_get()
 * @cfg: the configuration, or NULL
 */
void zbewalgo_config_put(struct zbewalgo_config *cfg)
{
	zbw_config_put(cfg);
}
EXPORT_SYMBOL_GPL(zbewalgo_config_put);

/**
 * zbewalgo_config_update() - publish a changed copy of the configuration
 * @edit: changes the copy; returns 0 or an error, in which case nothing is
 *	published
 * @arg: passed to @edit
 *
 * The configuration in use is never modified: running compressions keep
 * the one they started with.  Updates are serialised.  The copy keeps the
 * statistics unless @edit changed the table.
 *
 * Return: 0, -ENOMEM, or the error of @edit.
 */
int zbewalgo_config_update(int (*edit)(struct zbewalgo_config *cfg,
				       const void *arg),
			   const void *arg)
{
	struct zbewalgo_config *old, *new;
	int ret;

	mutex_lock(&zbw_config_lock);
	old = rcu_dereference_protected(zbw_config,
					lockdep_is_held(&zbw_config_lock));
	new = zbw_config_alloc(old);
	if (!new) {
		ret = -ENOMEM;
		goto out;
	}
	ret = edit(new, arg);
	if (!ret && !zbw_table_same(&new->table, &old->table))
		ret = zbw_config_new_stats(new);
	if (ret) {
		zbw_config_put(new);
		goto out;
	}
	rcu_assign_pointer(zbw_config, new);
	zbw_config_put(old);
out:
	mutex_unlock(&zbw_config_lock);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_config_update);

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
	zbw_config_put(old);
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
		ret = zbw_ctx_new(page_len, NULL, 0, true, &s->ctx);
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
	zbw_config_put(s->config);
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

/* One counter of @st, whole even while its CPU adds to it (32-bit) */
static u64 zbw_stat_read(const struct zbewalgo_stats *st,
			 const u64_stats_t *counter)
{
	unsigned int start;
	u64 val;

	do {
		start = u64_stats_fetch_begin(&st->syncp);
		val = u64_stats_read(counter);
	} while (u64_stats_fetch_retry(&st->syncp, start));
	return val;
}

/**
 * zbewalgo_stats_sum() - sum the per-CPU counters of a configuration
 * @cfg: the configuration, referenced by the caller
 * @sum: the sums; wins beyond the entries of its table in use
 *	(zbewalgo_config_table()) are 0
 *
 * Each counter is read whole, on 32-bit kernels too; pages compressed
 * meanwhile may count in some sums and not yet in others.
 */
void zbewalgo_stats_sum(const struct zbewalgo_config *cfg,
			struct zbewalgo_stats_sum *sum)
{
	unsigned int i, nr = zbewalgo_config_table(cfg)->nr;
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		const struct zbewalgo_stats *st = per_cpu_ptr(cfg->stats->cpu,
							      cpu);

		sum->pages += zbw_stat_read(st, &st->pages);
		sum->tried += zbw_stat_read(st, &st->tried);
		sum->stored += zbw_stat_read(st, &st->stored);
		for (i = 0; i < nr; i++)
			sum->wins[i] += zbw_stat_read(st, &st->wins[i]);
	}
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_stats_sum);

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
 * zbewalgo_stream_compress_default() - compress a page with the defaults
 * @s: the stream; not used concurrently
 * @src: input
 * @slen: input length
 * @dst: output buffer
 * @dlen: in: capacity of @dst; out: compressed length
 *
 * For a page that did not fit in *@dlen bytes under the stream's settings
 * (zbewalgo_stream_compress() said -ENOSPC): the same with the default
 * table and thresholds, so that a page the defaults compress is not lost
 * to a table or thresholds written to sysfs.  The crypto API's users
 * need that: testmgr checks that its vectors compress whatever sysfs
 * holds when the module loads, and zswap keeps a page it cannot compress
 * whole.  Not counted in the statistics (the first try was); the stream
 * keeps its own settings for the next page.
 *
 * Return: 0, -E2BIG or -ENOSPC as zbewalgo_compress(); -ENOSPC at once
 * for a stream with a preset level or with the default settings, where
 * the first try was this one.
 */
int zbewalgo_stream_compress_default(struct zbewalgo_stream *s,
				     const void *src, size_t slen, void *dst,
				     size_t *dlen)
{
	const struct zbewalgo_table *table = zbewalgo_table_default();
	int ret;

	if (s->preset || (zbw_table_same(&s->config->table, table) &&
			  !memcmp(&s->config->params, &zbw_defaults,
				  sizeof(zbw_defaults))))
		return -ENOSPC;
	zbewalgo_ctx_set_params(s->ctx, &zbw_defaults);
	zbewalgo_ctx_set_table(s->ctx, table);
	ret = zbewalgo_compress(s->ctx, src, slen, dst, dlen);
	zbw_stream_apply(s);
	return ret;
}
EXPORT_SYMBOL_GPL(zbewalgo_stream_compress_default);

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

/**
 * zbewalgo_core_init() - publish the defaults, then set up their users
 * @slot: where to publish them (the shared configuration; tests pass
 *	their own)
 * @setup: what may read @slot from now on, e.g. the sysfs files
 *
 * On failure nothing is left behind, not even an RCU callback (a module
 * whose init fails is freed at once): the configuration is freed after a
 * grace period, before returning.
 *
 * Return: 0, -ENOMEM or the error of @setup.
 */
VISIBLE_IF_KUNIT int
zbewalgo_core_init(struct zbewalgo_config __rcu **slot, int (*setup)(void))
{
	struct zbewalgo_config *cfg;
	int ret;

	zbewalgo_default_params(&zbw_defaults, PAGE_SIZE);
	cfg = zbw_config_alloc(NULL);
	if (!cfg)
		return -ENOMEM;
	rcu_assign_pointer(*slot, cfg);
	ret = setup();
	if (ret) {
		RCU_INIT_POINTER(*slot, NULL);
		synchronize_rcu();
		zbw_config_free(cfg);
	}
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_core_init);

/**
 * zbewalgo_core_exit() - undo zbewalgo_core_init(), after its setup
 * @slot: as given to zbewalgo_core_init()
 *
 * Returns once every configuration is freed; no stream may exist.
 */
VISIBLE_IF_KUNIT void zbewalgo_core_exit(struct zbewalgo_config __rcu **slot)
{
	struct zbewalgo_config *cfg = rcu_dereference_protected(*slot, true);

	RCU_INIT_POINTER(*slot, NULL);
	zbw_config_put(cfg);
	/* Wait for the configurations' RCU callbacks before unloading. */
	rcu_barrier();
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_core_exit);

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * zbewalgo_nr_configs() - configurations not yet freed
 *
 * Return: how many configurations exist, pending RCU frees included.
 */
int zbewalgo_nr_configs(void)
{
	return atomic_read(&zbw_nr_configs);
}
EXPORT_SYMBOL_IF_KUNIT(zbewalgo_nr_configs);
#endif

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
