// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo run-time tuning: /sys/kernel/zbewalgo/, documented in
 * Documentation/ABI/testing/sysfs-kernel-zbewalgo.
 *
 * Every write builds a new configuration and publishes it (see
 * ../config.c); a write that does not parse returns -EINVAL and changes
 * nothing.  The statistics stay until the table changes.
 */

#include <linux/kobject.h>
#include <linux/kstrtox.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "../core/zbewalgo_internal.h"
#include "../stream.h"

static struct kobject *zbw_kobj;

static int zbw_edit_table(struct zbewalgo_config *cfg, const void *cmd)
{
	return zbewalgo_table_command(&cfg->table, cmd);
}

static ssize_t combinations_show(struct kobject *kobj,
				 struct kobj_attribute *attr, char *buf)
{
	struct zbewalgo_config *cfg = zbewalgo_config_get();
	int n = zbewalgo_table_format(&cfg->table, buf, PAGE_SIZE);

	zbewalgo_config_put(cfg);
	/* A table too long for one page shows its first whole lines. */
	return min_t(int, n, strlen(buf));
}

static ssize_t combinations_store(struct kobject *kobj,
				  struct kobj_attribute *attr,
				  const char *buf, size_t count)
{
	int ret = zbewalgo_config_update(zbw_edit_table, buf);

	ret = zbewalgo_table_error(ret);
	return ret ?: count;
}

struct zbw_param_edit {
	size_t offset;
	u32 val;
};

static int zbw_edit_param(struct zbewalgo_config *cfg, const void *arg)
{
	const struct zbw_param_edit *e = arg;

	*(u32 *)((u8 *)&cfg->params + e->offset) = e->val;
	return zbewalgo_check_params(&cfg->params);
}

/* A threshold's attribute: where in struct zbewalgo_params it is kept */
struct zbw_param_attr {
	struct kobj_attribute attr;
	size_t offset;
};

static size_t zbw_param_offset(struct kobj_attribute *attr)
{
	return container_of(attr, struct zbw_param_attr, attr)->offset;
}

static ssize_t zbw_param_show(struct kobject *kobj,
			      struct kobj_attribute *attr, char *buf)
{
	struct zbewalgo_config *cfg = zbewalgo_config_get();
	u32 val = *(u32 *)((u8 *)&cfg->params + zbw_param_offset(attr));

	zbewalgo_config_put(cfg);
	return sysfs_emit(buf, "%u\n", val);
}

static ssize_t zbw_param_store(struct kobject *kobj,
			       struct kobj_attribute *attr,
			       const char *buf, size_t count)
{
	struct zbw_param_edit e = { .offset = zbw_param_offset(attr) };
	int ret = kstrtou32(buf, 0, &e.val);

	if (ret)
		return -EINVAL;
	ret = zbewalgo_config_update(zbw_edit_param, &e);
	return ret ?: count;
}

static struct zbw_param_attr early_abort_size_attr = {
	.attr = __ATTR(early_abort_size, 0644, zbw_param_show, zbw_param_store),
	.offset = offsetof(struct zbewalgo_params, early_abort_size),
};

static struct zbw_param_attr max_output_size_attr = {
	.attr = __ATTR(max_output_size, 0644, zbw_param_show, zbw_param_store),
	.offset = offsetof(struct zbewalgo_params, max_output_size),
};

static ssize_t zbw_stats_show(char *buf, bool wins)
{
	struct zbewalgo_config *cfg = zbewalgo_config_get();
	struct zbewalgo_stats_sum *sum = kmalloc(sizeof(*sum), GFP_KERNEL);
	ssize_t len;

	if (!sum) {
		zbewalgo_config_put(cfg);
		return -ENOMEM;
	}
	zbewalgo_stats_sum(cfg, sum);
	if (!wins) {
		len = sysfs_emit(buf, "%llu %llu %llu\n", sum->pages,
				 sum->tried, sum->stored);
	} else {
		/* Like combinations: whole lines only, as many as fit. */
		zbewalgo_table_format_counts(&cfg->table, sum->wins, buf,
					     PAGE_SIZE);
		len = strlen(buf);
	}
	kfree(sum);
	zbewalgo_config_put(cfg);
	return len;
}

static ssize_t stats_show(struct kobject *kobj, struct kobj_attribute *attr,
			  char *buf)
{
	return zbw_stats_show(buf, false);
}

static ssize_t wins_show(struct kobject *kobj, struct kobj_attribute *attr,
			 char *buf)
{
	return zbw_stats_show(buf, true);
}

static struct kobj_attribute combinations_attr = __ATTR_RW(combinations);
static struct kobj_attribute stats_attr = __ATTR_RO(stats);
static struct kobj_attribute wins_attr = __ATTR_RO(wins);

static struct attribute *zbw_attrs[] = {
	&combinations_attr.attr,
	&early_abort_size_attr.attr.attr,
	&max_output_size_attr.attr.attr,
	&stats_attr.attr,
	&wins_attr.attr,
	NULL,
};

static const struct attribute_group zbw_attr_group = {
	.attrs = zbw_attrs,
};

int zbewalgo_sysfs_init(void)
{
	int ret;

	zbw_kobj = kobject_create_and_add("zbewalgo", kernel_kobj);
	if (!zbw_kobj)
		return -ENOMEM;
	ret = sysfs_create_group(zbw_kobj, &zbw_attr_group);
	if (ret)
		kobject_put(zbw_kobj);
	return ret;
}

void zbewalgo_sysfs_exit(void)
{
	kobject_put(zbw_kobj);
}
