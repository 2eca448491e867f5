// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo's statistics per zram device: /sys/kernel/debug/zbewalgo/N/,
 * one directory for each device (and recompression priority) set up with
 * zbewalgo, numbered from 0 in the order they were set up.  zram does not
 * tell its backends a device's name: "settings" says which one it is.
 * A debugging aid, not an ABI.
 */

#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "core/zbewalgo_internal.h"
#include "stream.h"

static struct dentry *zbw_debugfs_root;
static atomic_t zbw_debugfs_next = ATOMIC_INIT(0);

/* "pages tried stored", as /sys/kernel/zbewalgo/stats */
static int zbw_dbg_stats_show(struct seq_file *m, void *v)
{
	struct zbewalgo_config *cfg = m->private;
	struct zbewalgo_stats_sum *sum = kmalloc(sizeof(*sum), GFP_KERNEL);

	if (!sum)
		return -ENOMEM;
	zbewalgo_stats_sum(cfg, sum);
	seq_printf(m, "%llu %llu %llu\n", sum->pages, sum->tried, sum->stored);
	kfree(sum);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(zbw_dbg_stats);

/* Pages won by each combination, as /sys/kernel/zbewalgo/wins */
static int zbw_dbg_wins_show(struct seq_file *m, void *v)
{
	struct zbewalgo_config *cfg = m->private;
	struct zbewalgo_stats_sum *sum = kmalloc(sizeof(*sum), GFP_KERNEL);
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);

	if (sum && buf) {
		zbewalgo_stats_sum(cfg, sum);
		zbewalgo_table_format_counts(zbewalgo_config_table(cfg),
					     sum->wins, buf, PAGE_SIZE);
		seq_puts(m, buf);
	}
	kfree(buf);
	kfree(sum);
	return sum && buf ? 0 : -ENOMEM;
}
DEFINE_SHOW_ATTRIBUTE(zbw_dbg_wins);

/* What the device was set up with, and its memory per stream */
static int zbw_dbg_settings_show(struct seq_file *m, void *v)
{
	struct zbewalgo_config *cfg = m->private;
	const struct zbewalgo_table *table = zbewalgo_config_table(cfg);
	char *buf = kmalloc(PAGE_SIZE, GFP_KERNEL);

	if (!buf)
		return -ENOMEM;
	seq_printf(m, "level %d\n", cfg->level);
	seq_printf(m, "early_abort_size %u\n", cfg->params.early_abort_size);
	seq_printf(m, "max_output_size %u\n", cfg->params.max_output_size);
	if (cfg->dict)
		seq_printf(m, "dict %u\n", zbewalgo_dict_id(cfg->dict));
	else
		seq_puts(m, "dict none\n");
	seq_printf(m, "stream_bytes %zu\n",
		   zbewalgo_ctx_size_for(PAGE_SIZE, table,
					 cfg->level ?: ZBEWALGO_DEFAULT_LEVEL,
					 !!cfg->dict));
	zbewalgo_table_format(table, buf, PAGE_SIZE);
	seq_printf(m, "combinations\n%s", buf);
	kfree(buf);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(zbw_dbg_settings);

/**
 * zbewalgo_debugfs_add() - show a device's settings and statistics
 * @cfg: the device's configuration, from zbewalgo_config_create(), with
 *	its dictionary if it has one; kept until zbewalgo_debugfs_remove()
 *
 * Creates /sys/kernel/debug/zbewalgo/N/ with "stats" and "wins" (as in
 * /sys/kernel/zbewalgo, for the device's pages only) and "settings".
 * Without debugfs, or when it fails, the device works all the same.
 *
 * Context: may sleep.
 */
void zbewalgo_debugfs_add(struct zbewalgo_config *cfg)
{
	char name[16];

	if (IS_ERR_OR_NULL(zbw_debugfs_root))
		return;
	snprintf(name, sizeof(name), "%d",
		 atomic_inc_return(&zbw_debugfs_next) - 1);
	cfg->debugfs = debugfs_create_dir(name, zbw_debugfs_root);
	debugfs_create_file("stats", 0444, cfg->debugfs, cfg,
			    &zbw_dbg_stats_fops);
	debugfs_create_file("wins", 0444, cfg->debugfs, cfg,
			    &zbw_dbg_wins_fops);
	debugfs_create_file("settings", 0444, cfg->debugfs, cfg,
			    &zbw_dbg_settings_fops);
}
EXPORT_SYMBOL_GPL(zbewalgo_debugfs_add);

/**
 * zbewalgo_debugfs_remove() - undo zbewalgo_debugfs_add()
 * @cfg: the device's configuration, or NULL; may be freed once this
 *	returns
 *
 * Context: may sleep.
 */
void zbewalgo_debugfs_remove(struct zbewalgo_config *cfg)
{
	if (!cfg)
		return;
	debugfs_remove_recursive(cfg->debugfs);
	cfg->debugfs = NULL;
}
EXPORT_SYMBOL_GPL(zbewalgo_debugfs_remove);

void zbewalgo_debugfs_init(void)
{
	zbw_debugfs_root = debugfs_create_dir("zbewalgo", NULL);
}

void zbewalgo_debugfs_exit(void)
{
	debugfs_remove_recursive(zbw_debugfs_root);
}
