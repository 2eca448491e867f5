/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zbewalgo - a container compressor for single memory pages
 *
 * A page is compressed by a chain of small steps (transforms and entropy
 * coders).  A combination table lists the chains worth trying; the engine
 * tries them per page, the one a probe of the page expects to do best
 * first.  The result depends on the page, the table, the thresholds and
 * the level only: a page compressed twice with the same settings comes out
 * the same on any context.  Compressed data names the steps it used by
 * stable ids, so it can be decompressed without the table that produced
 * it.
 *
 * The page format is described in Documentation/staging/zbewalgo.rst.
 */
#ifndef __LINUX_ZBEWALGO_H
#define __LINUX_ZBEWALGO_H

#include <linux/types.h>

/* Most steps in one combination; fixed by the page format. */
#define ZBEWALGO_MAX_STEPS		7
/*
 * Most steps in one table, summed over its combinations: a page runs each
 * at most once, so this bounds the work per page (which zswap does with
 * bottom halves disabled).  The level 3 preset has 31.
 */
#define ZBEWALGO_MAX_TABLE_STEPS	64
/* Most combinations in one table: each has a step at least. */
#define ZBEWALGO_MAX_COMBINATIONS	ZBEWALGO_MAX_TABLE_STEPS
/*
 * Most work of one table on one page, summed over its steps in units of a
 * sixteenth of zstd's slowest page (see zbewalgo_table_cost()): with
 * every combination tried, no page takes longer than about 64 times
 * zstd's slowest page at level 3, whatever the table.
 */
#define ZBEWALGO_MAX_TABLE_COST		1024
/* Largest input one call can compress (a 64 KiB page). */
#define ZBEWALGO_MAX_INPUT		65536
/*
 * Compression levels: how much work the steps that can do more (zstd) do
 * per page; each level also has a preset table, zbewalgo_preset_table().
 */
#define ZBEWALGO_MAX_LEVEL		3
#define ZBEWALGO_DEFAULT_LEVEL		2
/* Current page format version, see the format documentation. */
#define ZBEWALGO_FORMAT_VERSION		1

/**
 * zbewalgo_stage_cap() - bound on intermediate results of a chain
 * @n: input length
 *
 * Part of the format: decoders reject longer intermediate data.
 *
 * Return: the largest size of any intermediate result for @n input bytes.
 */
static inline size_t zbewalgo_stage_cap(size_t n)
{
	return n + (n >> 1) + 64;
}

/*
 * Size of the stored form of an @n byte input (header, length, raw bytes).
 * A destination of at least this size never makes compression fail.
 */
#define ZBEWALGO_STORED_SIZE(n)		((n) + 4)

/**
 * struct zbewalgo_combination - one chain of steps
 * @nr_steps: number of valid entries in @ids, 1..ZBEWALGO_MAX_STEPS
 * @ids: stable step ids, in the order they are applied when compressing
 */
struct zbewalgo_combination {
	u8 nr_steps;
	u8 ids[ZBEWALGO_MAX_STEPS];
};

/**
 * struct zbewalgo_table - the combinations tried when compressing
 * @nr: number of valid entries in @comb
 * @comb: combinations; the engine tries them in the order of its
 *	estimates for the page, equal estimates in table order
 *
 * A table is plain data: callers that change it while other threads
 * compress must publish a new copy (RCU or similar) and never edit the
 * one in use.
 */
struct zbewalgo_table {
	unsigned int nr;
	struct zbewalgo_combination comb[ZBEWALGO_MAX_COMBINATIONS];
};

/**
 * struct zbewalgo_params - thresholds of the combination search
 * @early_abort_size: stop searching once a result is smaller than this
 * @max_output_size: a page whose best result is not smaller than this is
 *	stored uncompressed (zram's huge-class size is the natural value)
 * @tolerance_shift: after a combination, go on with the next only when
 *	its estimate is at most the best one's estimate e plus
 *	e >> @tolerance_shift and the best result is over one and a half
 *	times its estimate, or when it has the best one's layout (the probe
 *	cannot tell their coders apart); 0 tries every combination
 * @store_entropy: store a page without trying more combinations when
 *	its estimated entropy per byte (sampled, per byte lane, and of the
 *	differences of neighbouring bytes) is at least @store_entropy / 256
 *	bits and no repeated block shows, before any try (0 disables the
 *	test; so does a @max_output_size not below the page length)
 */
struct zbewalgo_params {
	u32 early_abort_size;
	u32 max_output_size;
	u32 tolerance_shift;
	u32 store_entropy;
};

/*
 * Default store_entropy: 7.45 bits per byte.  Random pages measure 7.7 to
 * 8, the most random-looking compressible pages measured 7.15.
 */
#define ZBEWALGO_STORE_ENTROPY		1907

/**
 * struct zbewalgo_result - what the last compression did
 * @comb: table index of the winning combination, -1 when stored
 * @nr_steps: steps of that combination actually kept (a prefix may win)
 * @tried: combinations tried for the page
 * @stored: the page was written in stored (uncompressed) form
 * @plain: the page looked like a stream of bytes, so the chains without
 *	layout steps were tried first and it was not probed
 */
struct zbewalgo_result {
	int comb;
	unsigned int nr_steps;
	unsigned int tried;
	bool stored;
	bool plain;
};

/*
 * Contexts, dictionaries, tables and steps: the core, which user space
 * builds too.  Modules compress through the kernel streams below; of
 * these calls only zbewalgo_preset_table() is exported to them, and most
 * others to the KUnit tests only.
 */
struct zbewalgo_ctx;
struct zbewalgo_dict;

size_t zbewalgo_ctx_size(size_t max_len);
size_t zbewalgo_ctx_size_for(size_t max_len,
			     const struct zbewalgo_table *table, int level,
			     bool dict);
struct zbewalgo_ctx *zbewalgo_ctx_create(size_t max_len);
struct zbewalgo_ctx *zbewalgo_ctx_create_for(size_t max_len,
					     const struct zbewalgo_table *table,
					     int level, bool dict);
void zbewalgo_ctx_destroy(struct zbewalgo_ctx *ctx);
void zbewalgo_ctx_set_table(struct zbewalgo_ctx *ctx,
			    const struct zbewalgo_table *table);
void zbewalgo_ctx_set_params(struct zbewalgo_ctx *ctx,
			     const struct zbewalgo_params *params);
int zbewalgo_ctx_set_level(struct zbewalgo_ctx *ctx, int level);
const struct zbewalgo_result *
zbewalgo_ctx_last_result(const struct zbewalgo_ctx *ctx);

/* zstd dictionaries (zram's dict=) */
int zbewalgo_dict_create(const void *data, size_t len, int level,
			 size_t max_len, struct zbewalgo_dict **dictp);
void zbewalgo_dict_destroy(struct zbewalgo_dict *dict);
u32 zbewalgo_dict_id(const struct zbewalgo_dict *dict);
int zbewalgo_ctx_set_dict(struct zbewalgo_ctx *ctx,
			  const struct zbewalgo_dict *dict);

void zbewalgo_default_params(struct zbewalgo_params *params, size_t page_len);

int zbewalgo_compress(struct zbewalgo_ctx *ctx, const void *src, size_t slen,
		      void *dst, size_t *dlen);
size_t zbewalgo_decompress_scratch_size(size_t max_len);
int zbewalgo_decompress(const void *src, size_t slen, void *dst,
			size_t *dlen, void *scratch);
int zbewalgo_ctx_decompress(struct zbewalgo_ctx *ctx, const void *src,
			    size_t slen, void *dst, size_t *dlen);

/* Combination tables and their text form "bwt-mtf-huffman". */
const struct zbewalgo_table *zbewalgo_table_default(void);
const struct zbewalgo_table *zbewalgo_preset_table(int level);
void zbewalgo_table_reset(struct zbewalgo_table *table);
unsigned int zbewalgo_table_steps(const struct zbewalgo_table *table);
unsigned int zbewalgo_table_cost(const struct zbewalgo_table *table);
int zbewalgo_table_parse(struct zbewalgo_table *table, const char *text);
int zbewalgo_table_add(struct zbewalgo_table *table, const char *text);
int zbewalgo_table_remove(struct zbewalgo_table *table, const char *text);
int zbewalgo_table_command(struct zbewalgo_table *table, const char *cmd);
int zbewalgo_table_format(const struct zbewalgo_table *table, char *buf,
			  size_t size);
int zbewalgo_table_format_counts(const struct zbewalgo_table *table,
				 const u64 *counts, char *buf, size_t size);
int zbewalgo_combination_format(const struct zbewalgo_combination *comb,
				char *buf, size_t size);

int zbewalgo_step_id(const char *name, size_t len);
const char *zbewalgo_step_name(unsigned int id);

/*
 * Kernel streams: a context bound to the shared, sysfs-tunable table and
 * thresholds under /sys/kernel/zbewalgo (a configuration), with
 * statistics.  Used by the crypto API glue and the zram backend.
 */
struct zbewalgo_stream;
struct zbewalgo_config;

struct zbewalgo_config *zbewalgo_config_get(void);
struct zbewalgo_config *zbewalgo_config_create(int level, const char *table,
					       int early_abort_size,
					       int max_output_size);
int zbewalgo_config_set_dict(struct zbewalgo_config *cfg, const void *data,
			     size_t len);
void zbewalgo_config_put(struct zbewalgo_config *cfg);
void zbewalgo_debugfs_add(struct zbewalgo_config *cfg);
void zbewalgo_debugfs_remove(struct zbewalgo_config *cfg);

struct zbewalgo_stream *zbewalgo_stream_create(size_t page_len, int level,
					       struct zbewalgo_config *cfg);
struct zbewalgo_stream *zbewalgo_stream_create_device(size_t page_len,
						      int level,
						      struct zbewalgo_config *cfg);
void zbewalgo_stream_destroy(struct zbewalgo_stream *s);
int zbewalgo_stream_compress(struct zbewalgo_stream *s, const void *src,
			     size_t slen, void *dst, size_t *dlen);
int zbewalgo_stream_decompress(struct zbewalgo_stream *s, const void *src,
			       size_t slen, void *dst, size_t *dlen);

#endif /* __LINUX_ZBEWALGO_H */
