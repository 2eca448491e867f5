// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo's shared configuration: the settings sysfs publishes, those a
 * device keeps for itself, and the statistics gathered under them.
 *
 * The combination table and thresholds live in a reference-counted
 * configuration that is replaced, never edited, when sysfs changes it, and
 * published with RCU; the streams that compress with it are stream.c's.
 * Statistics are per-CPU counters of the table they were gathered under,
 * shared by every configuration with that table: a threshold write keeps
 * them.  Nothing here calls tuning/sysfs.c or debugfs.c, which show and
 * change a configuration.
 */

#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/export.h>
#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "stream.h"

/* NULL until zbewalgo_init() succeeded; then never NULL until exit. */
struct zbewalgo_config __rcu *zbw_config;
static DEFINE_MUTEX(zbw_config_lock);
/* Configurations allocated and not yet freed, RCU callbacks included. */
static atomic_t zbw_nr_configs = ATOMIC_INIT(0);
/* zbewalgo_default_params() for PAGE_SIZE: the first configuration's */
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
 * @level: the level of its streams (a preset, zbewalgo_preset_table()),
 *	0 for none
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
 * or an ERR_PTR(): -EINVAL for a level that is no preset's, a table that
 * does not parse or thresholds that sysfs would refuse, -ENOMEM, -ENODEV
 * when zbewalgo_init() failed.
 */
struct zbewalgo_config *zbewalgo_config_create(int level, const char *table,
					       int early_abort_size,
					       int max_output_size)
{
	struct zbewalgo_config *old, *cfg;
	int ret;

	if (level && !zbewalgo_preset_table(level))
		return ERR_PTR(-EINVAL);
	mutex_lock(&zbw_config_lock);
	old = rcu_dereference_protected(zbw_config,
					lockdep_is_held(&zbw_config_lock));
	cfg = old ? zbw_config_alloc(old) : NULL;
	mutex_unlock(&zbw_config_lock);
	if (!cfg)
		return ERR_PTR(old ? -ENOMEM : -ENODEV);
	cfg->device = true;
	cfg->level = level;
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
			     size_t len)
{
	struct zbewalgo_dict *dict;
	int ret;

	if (cfg->dict)
		return -EBUSY;
	ret = zbewalgo_dict_create(data, len,
				   cfg->level ?: ZBEWALGO_DEFAULT_LEVEL,
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
 * preset unless it has a table of its own.
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

#ifdef CONFIG_ZBEWALGO_TUNING
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
#endif

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
int zbewalgo_core_init(struct zbewalgo_config __rcu **slot,
		       int (*setup)(void))
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
void zbewalgo_core_exit(struct zbewalgo_config __rcu **slot)
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
