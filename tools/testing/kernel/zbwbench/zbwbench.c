// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbwbench - time page compression in the kernel, without zram or swap
 *
 * For each file of files= (comma-separated paths), the module reads up to
 * max_pages pages, leaves out the same-filled ones (zram stores those
 * without a compressor) and times, per algorithm, compressing every page
 * and then decompressing every result, rounds= times (the fastest round
 * counts):
 *
 *   zbewalgo  zbewalgo_stream_compress()/_decompress(), as zram's backend
 *             calls them (level= 0: the table in /sys/kernel/zbewalgo)
 *   lz4       LZ4_compress_fast() at acceleration 1, LZ4_decompress_safe(),
 *             as zram's lz4 backend
 *   zstd      zstd_compress_cctx()/zstd_decompress_dctx() at level 3 with
 *             the parameters for a page, as zram's zstd backend
 *
 * Every page must decompress byte-exact.  One line per file,
 *
 *   zbwbench: FILE same=S
 *
 * with the same-filled pages left out, then one per file and algorithm:
 *
 *   zbwbench: FILE ALG pages=N bytes=B huge=H comp_ns=C decomp_ns=D
 *
 * B sums the compressed sizes, H counts the results zram would store whole
 * (not below huge_size=).  Then one more pass times each page alone, for
 * the latency of a page as zram sees it, in ns (median, 99th percentile,
 * slowest and which page that was):
 *
 *   zbwbench: FILE ALG latency comp=P50,P99,MAX@PAGE decomp=P50,P99,MAX@PAGE
 *
 * Then the memory of one stream of zram's zstd backend, its two
 * workspaces at level 3 (a zbewalgo device shows its own in debugfs):
 *
 *   zbwbench: memory zstd=S
 *
 * and "zbwbench: done", or "zbwbench: FAIL ..." at the first failure.
 * Loading always fails with -ECANCELED once the figures are printed, so
 * nothing stays loaded.
 */

#define pr_fmt(fmt) "zbwbench: " fmt

#include <linux/err.h>
#include <linux/fs.h>
#include <linux/ktime.h>
#include <linux/lz4.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <linux/zbewalgo.h>
#include <linux/zstd.h>

static char *files;
module_param(files, charp, 0444);
MODULE_PARM_DESC(files, "comma-separated paths of the files to compress");
static int level;
module_param(level, int, 0444);
MODULE_PARM_DESC(level, "zbewalgo level: 1-3, or 0 for the sysfs table");
static unsigned int rounds = 3;
module_param(rounds, uint, 0444);
MODULE_PARM_DESC(rounds, "timed rounds per file and algorithm");
static unsigned int max_pages = 2048;
module_param(max_pages, uint, 0444);
MODULE_PARM_DESC(max_pages, "pages read from each file at most");
static unsigned int huge_size;
module_param(huge_size, uint, 0444);
MODULE_PARM_DESC(huge_size,
		 "results of this size or more count as huge (a zbewalgo device's max_output_size)");

/* Room for one page's worst result, whatever the coder. */
#define ZBB_SLOT	(2 * PAGE_SIZE)
#define ZBB_ZSTD_LEVEL	3

enum { ZBB_ZBEWALGO, ZBB_LZ4, ZBB_ZSTD, ZBB_NR };
static const char *const zbb_names[ZBB_NR] = { "zbewalgo", "lz4", "zstd" };

struct zbb {
	u8 *in;			/* the file's pages */
	u8 *out;		/* one compressed slot per page */
	u32 *len;		/* compressed length per page */
	u32 *ns;		/* time of each page, for its latency */
	u8 *page;		/* a decompressed page */
	struct zbewalgo_stream *zbw;
	void *lz4_mem;
	zstd_cctx *cctx;
	zstd_dctx *dctx;
	void *cctx_mem, *dctx_mem;
	zstd_parameters zparams;
};

static int zbb_compress(struct zbb *b, int alg, const u8 *src, u8 *dst,
			u32 *dlen)
{
	size_t n = ZBB_SLOT, ret;
	int r;

	switch (alg) {
	case ZBB_ZBEWALGO:
		r = zbewalgo_stream_compress(b->zbw, src, PAGE_SIZE, dst, &n);
		*dlen = n;
		return r;
	case ZBB_LZ4:
		r = LZ4_compress_fast(src, dst, PAGE_SIZE, ZBB_SLOT, 1,
				      b->lz4_mem);
		*dlen = r;
		return r > 0 ? 0 : -EINVAL;
	default:
		ret = zstd_compress_cctx(b->cctx, dst, ZBB_SLOT, src, PAGE_SIZE,
					 &b->zparams);
		*dlen = ret;
		return zstd_is_error(ret) ? -EINVAL : 0;
	}
}

static int zbb_decompress(struct zbb *b, int alg, const u8 *src, u32 slen,
			  u8 *dst)
{
	size_t n = PAGE_SIZE, ret;
	int r;

	switch (alg) {
	case ZBB_ZBEWALGO:
		r = zbewalgo_stream_decompress(b->zbw, src, slen, dst, &n);
		return r ?: (n == PAGE_SIZE ? 0 : -EINVAL);
	case ZBB_LZ4:
		r = LZ4_decompress_safe(src, dst, slen, PAGE_SIZE);
		return r == PAGE_SIZE ? 0 : -EINVAL;
	default:
		ret = zstd_decompress_dctx(b->dctx, dst, PAGE_SIZE, src, slen);
		return !zstd_is_error(ret) && ret == PAGE_SIZE ? 0 : -EINVAL;
	}
}

static int zbb_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

/*
 * "P50,P99,MAX@PAGE" of the @n times in b->ns, which are sorted after.
 * Nearest rank: the 99th percentile of 100 pages is the 99th slowest.
 */
static void zbb_latency(struct zbb *b, unsigned int n, char *buf,
			size_t size)
{
	unsigned int i, page = 0;
	u32 max;

	for (i = 1; i < n; i++)
		if (b->ns[i] > b->ns[page])
			page = i;
	max = b->ns[page];
	sort(b->ns, n, sizeof(*b->ns), zbb_cmp_u32, NULL);
	snprintf(buf, size, "%u,%u,%u@%u", b->ns[(n - 1) / 2],
		 b->ns[DIV_ROUND_UP(n * 99, 100) - 1], max, page);
}

/*
 * Each page of the @n compressed and decompressed once more, timed alone
 * (zram's calling pattern, timer included), then the line of latencies.
 */
static int zbb_pages(struct zbb *b, int alg, const char *name, unsigned int n)
{
	char comp[48], decomp[48];
	unsigned int i;
	u64 t;
	int ret;

	for (i = 0; i < n; i++) {
		t = ktime_get_ns();
		ret = zbb_compress(b, alg, b->in + i * PAGE_SIZE,
				   b->out + i * ZBB_SLOT, &b->len[i]);
		b->ns[i] = min_t(u64, ktime_get_ns() - t, U32_MAX);
		if (ret)
			return ret;
		cond_resched();
	}
	zbb_latency(b, n, comp, sizeof(comp));
	for (i = 0; i < n; i++) {
		t = ktime_get_ns();
		ret = zbb_decompress(b, alg, b->out + i * ZBB_SLOT, b->len[i],
				     b->page);
		b->ns[i] = min_t(u64, ktime_get_ns() - t, U32_MAX);
		if (ret)
			return ret;
		cond_resched();
	}
	zbb_latency(b, n, decomp, sizeof(decomp));
	pr_info("%s %s latency comp=%s decomp=%s\n", name, zbb_names[alg],
		comp, decomp);
	return 0;
}

/* Times one algorithm on @n pages and prints its lines. */
static int zbb_run(struct zbb *b, int alg, const char *name, unsigned int n)
{
	u64 best_c = U64_MAX, best_d = U64_MAX, t, bytes = 0;
	unsigned int r, i, huge = 0;
	int ret;

	for (r = 0; r < rounds; r++) {
		t = ktime_get_ns();
		for (i = 0; i < n; i++) {
			ret = zbb_compress(b, alg, b->in + i * PAGE_SIZE,
					   b->out + i * ZBB_SLOT, &b->len[i]);
			if (ret) {
				pr_err("FAIL %s %s page %u: compress %d\n",
				       name, zbb_names[alg], i, ret);
				return ret;
			}
			cond_resched();
		}
		best_c = min(best_c, ktime_get_ns() - t);

		t = ktime_get_ns();
		for (i = 0; i < n; i++) {
			ret = zbb_decompress(b, alg, b->out + i * ZBB_SLOT,
					     b->len[i], b->page);
			if (ret)
				break;
			cond_resched();
		}
		best_d = min(best_d, ktime_get_ns() - t);
		if (ret) {
			pr_err("FAIL %s %s page %u: decompress %d\n",
			       name, zbb_names[alg], i, ret);
			return ret;
		}
	}
	/* Outside the timer: every page decodes to what went in. */
	for (i = 0; i < n; i++) {
		ret = zbb_decompress(b, alg, b->out + i * ZBB_SLOT, b->len[i],
				     b->page);
		if (ret || memcmp(b->page, b->in + i * PAGE_SIZE, PAGE_SIZE)) {
			pr_err("FAIL %s %s page %u: round trip\n", name,
			       zbb_names[alg], i);
			return -EIO;
		}
		bytes += b->len[i];
		huge += b->len[i] >= huge_size;
	}
	pr_info("%s %s pages=%u bytes=%llu huge=%u comp_ns=%llu decomp_ns=%llu\n",
		name, zbb_names[alg], n, bytes, huge, best_c, best_d);
	ret = zbb_pages(b, alg, name, n);
	if (ret)
		pr_err("FAIL %s %s: latency pass %d\n", name, zbb_names[alg],
		       ret);
	return ret;
}

/* Whether every word of page @p is its first, as zram's page_same_filled() */
static bool zbb_same_filled(const u8 *p)
{
	const unsigned long *w = (const unsigned long *)p;
	unsigned int i;

	for (i = 1; i < PAGE_SIZE / sizeof(*w); i++)
		if (w[i] != w[0])
			return false;
	return true;
}

/*
 * Reads up to max_pages whole pages of @path into b->in, keeping those zram
 * would compress; the number kept, 0 on error.
 */
static unsigned int zbb_read(struct zbb *b, const char *path,
			     const char *name)
{
	struct file *f = filp_open(path, O_RDONLY, 0);
	unsigned int i, n = 0;
	loff_t pos = 0;
	ssize_t got;

	if (IS_ERR(f)) {
		pr_err("FAIL %s: open %ld\n", path, PTR_ERR(f));
		return 0;
	}
	got = kernel_read(f, b->in, (size_t)max_pages * PAGE_SIZE, &pos);
	filp_close(f, NULL);
	if (got < 0) {
		pr_err("FAIL %s: read %zd\n", path, got);
		return 0;
	}
	for (i = 0; i < got / PAGE_SIZE; i++) {
		if (zbb_same_filled(b->in + i * PAGE_SIZE))
			continue;
		if (n != i)
			memcpy(b->in + n * PAGE_SIZE, b->in + i * PAGE_SIZE,
			       PAGE_SIZE);
		n++;
	}
	pr_info("%s same=%u\n", name, (unsigned int)(got / PAGE_SIZE) - n);
	return n;
}

static int zbb_setup(struct zbb *b)
{
	size_t sz;

	b->in = vmalloc(array_size(max_pages, PAGE_SIZE));
	b->out = vmalloc(array_size(max_pages, ZBB_SLOT));
	b->len = vmalloc(array_size(max_pages, sizeof(*b->len)));
	b->ns = vmalloc(array_size(max_pages, sizeof(*b->ns)));
	b->page = kmalloc(PAGE_SIZE, GFP_KERNEL);
	b->lz4_mem = vmalloc(LZ4_MEM_COMPRESS);
	b->zbw = zbewalgo_stream_create(PAGE_SIZE, level, NULL);
	if (IS_ERR(b->zbw)) {
		int err = PTR_ERR(b->zbw);

		b->zbw = NULL;
		return err;
	}
	b->zparams = zstd_get_params(ZBB_ZSTD_LEVEL, PAGE_SIZE);
	sz = zstd_cctx_workspace_bound(&b->zparams.cParams);
	b->cctx_mem = vzalloc(sz);
	if (b->cctx_mem)
		b->cctx = zstd_init_cctx(b->cctx_mem, sz);
	sz = zstd_dctx_workspace_bound();
	b->dctx_mem = vzalloc(sz);
	if (b->dctx_mem)
		b->dctx = zstd_init_dctx(b->dctx_mem, sz);
	if (!b->in || !b->out || !b->len || !b->ns || !b->page || !b->lz4_mem ||
	    !b->zbw || !b->cctx || !b->dctx)
		return -ENOMEM;
	return 0;
}

static void zbb_free(struct zbb *b)
{
	vfree(b->dctx_mem);
	vfree(b->cctx_mem);
	if (b->zbw)
		zbewalgo_stream_destroy(b->zbw);
	vfree(b->lz4_mem);
	kfree(b->page);
	vfree(b->ns);
	vfree(b->len);
	vfree(b->out);
	vfree(b->in);
}

/* What zram's zstd backend allocates per stream at its default level. */
static size_t __init zbb_zstd_stream_size(void)
{
	zstd_parameters params = zstd_get_params(ZBB_ZSTD_LEVEL, PAGE_SIZE);

	return zstd_cctx_workspace_bound(&params.cParams) +
	       zstd_dctx_workspace_bound();
}

static int __init zbb_init(void)
{
	struct zbb b = { };
	char *list, *rest, *path;
	int alg, ret = -EINVAL;
	unsigned int n;

	if (!files || !rounds || !max_pages || !huge_size) {
		pr_err("FAIL: files=, rounds=, max_pages= and huge_size= must be set\n");
		return -EINVAL;
	}
	list = kstrdup(files, GFP_KERNEL);
	ret = list ? zbb_setup(&b) : -ENOMEM;
	if (ret) {
		pr_err("FAIL: setup %d\n", ret);
		goto out;
	}
	rest = list;
	while ((path = strsep(&rest, ","))) {
		const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 :
							path;

		n = zbb_read(&b, path, name);
		if (!n) {
			ret = -EINVAL;
			pr_err("FAIL %s: no page to compress\n", path);
			goto out;
		}
		for (alg = 0; alg < ZBB_NR; alg++) {
			ret = zbb_run(&b, alg, name, n);
			if (ret)
				goto out;
		}
	}
	pr_info("memory zstd=%zu\n", zbb_zstd_stream_size());
	pr_info("done\n");
	ret = -ECANCELED;
out:
	zbb_free(&b);
	kfree(list);
	return ret;
}
module_init(zbb_init);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("zbewalgo, lz4 and zstd page compression timed in the kernel");
