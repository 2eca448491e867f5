/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zbewalgo shared configuration: what sysfs changes and streams use.
 * Kernel only; not part of the algorithm core.  The configuration's
 * lifetime and statistics are config.c's, the streams stream.c's, its
 * files tuning/sysfs.c's and debugfs.c's, and module.c sets them up.
 */
#ifndef __ZBEWALGO_STREAM_H
#define __ZBEWALGO_STREAM_H

#include <linux/kref.h>
#include <linux/rcupdate.h>
#include <linux/u64_stats_sync.h>
#include <linux/zbewalgo.h>

#include "core/zbewalgo_internal.h"

/**
 * struct zbewalgo_stats - per-CPU counters of one table
 * @syncp: makes the counters' reads whole on 32-bit kernels
 * @pages: pages compressed
 * @tried: combinations tried, summed over pages
 * @stored: pages written in stored (incompressible) form
 * @wins: pages won by each table entry
 *
 * Written by the CPU they belong to only, with preemption disabled;
 * read with zbewalgo_stats_sum().
 */
struct zbewalgo_stats {
	struct u64_stats_sync syncp;
	u64_stats_t pages;
	u64_stats_t tried;
	u64_stats_t stored;
	u64_stats_t wins[ZBEWALGO_MAX_COMBINATIONS];
};

/**
 * struct zbewalgo_stats_sum - counters of struct zbewalgo_stats, summed
 *	over the CPUs
 * @pages: pages compressed
 * @tried: combinations tried, summed over pages
 * @stored: pages written in stored (incompressible) form
 * @wins: pages won by each table entry
 */
struct zbewalgo_stats_sum {
	u64 pages;
	u64 tried;
	u64 stored;
	u64 wins[ZBEWALGO_MAX_COMBINATIONS];
};

/**
 * struct zbewalgo_stats_set - statistics of one table
 * @ref: references: every configuration with that table
 * @cpu: the per-CPU counters
 *
 * Configurations that differ only in their thresholds share one set, so a
 * threshold write keeps the statistics; a new table gets a new set (@wins
 * counts per table entry).
 */
struct zbewalgo_stats_set {
	struct kref ref;
	struct zbewalgo_stats __percpu *cpu;
};

/**
 * struct zbewalgo_config - one published set of shared settings
 * @ref: references: the published pointer and every stream using it
 * @rcu: frees it after readers of the published pointer are done
 * @own_table: @table was chosen for this configuration (a device's), and
 *	takes the place of a level's preset
 * @table: combination table
 * @params: thresholds
 * @dict: a device's zstd dictionary, or NULL; never in a published one
 * @stats: counters gathered under this configuration's table; holds a
 *	reference
 * @device: made for a device (zbewalgo_config_create()): @stats counts
 *	every page of its streams, those of a preset level too
 * @shared: the shared statistics, which a device that sets nothing counts
 *	in too (as sysfs shows them), or NULL; holds a reference
 * @level: a device's level (zbewalgo_config_create()), 0 for none
 * @debugfs: a device's directory in debugfs, or NULL
 */
struct zbewalgo_config {
	struct kref ref;
	struct rcu_head rcu;
	bool own_table;
	struct zbewalgo_table table;
	struct zbewalgo_params params;
	struct zbewalgo_dict *dict;
	struct zbewalgo_stats_set *stats;
	bool device;
	struct zbewalgo_stats_set *shared;
	int level;
	struct dentry *debugfs;
};

/* The published configuration: NULL until zbewalgo_init() succeeded */
extern struct zbewalgo_config __rcu *zbw_config;

/* Whether @a and @b hold the same combinations in the same order */
static inline bool zbw_table_same(const struct zbewalgo_table *a,
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

#ifdef CONFIG_ZBEWALGO_TUNING
int zbewalgo_config_update(int (*edit)(struct zbewalgo_config *cfg,
				       const void *arg),
			   const void *arg);
#endif

int zbewalgo_check_params(const struct zbewalgo_params *params);
int zbewalgo_table_error(int ret);

void zbewalgo_stats_sum(const struct zbewalgo_config *cfg,
			struct zbewalgo_stats_sum *sum);
const struct zbewalgo_table *
zbewalgo_config_table(const struct zbewalgo_config *cfg);

int zbewalgo_core_init(struct zbewalgo_config __rcu **slot,
		       int (*setup)(void));
void zbewalgo_core_exit(struct zbewalgo_config __rcu **slot);
#if IS_ENABLED(CONFIG_KUNIT)
int zbewalgo_nr_configs(void);
#endif

/* Set up after the first configuration, taken down before the last */
#ifdef CONFIG_ZBEWALGO_TUNING
int zbewalgo_sysfs_init(void);
void zbewalgo_sysfs_exit(void);
#else
static inline int zbewalgo_sysfs_init(void)
{
	return 0;
}

static inline void zbewalgo_sysfs_exit(void)
{
}
#endif

void zbewalgo_debugfs_init(void);
void zbewalgo_debugfs_exit(void);

#endif /* __ZBEWALGO_STREAM_H */
