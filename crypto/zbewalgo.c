// SPDX-License-Identifier: GPL-2.0-only
/*
 * Crypto API glue for zbewalgo: an scomp algorithm, as zswap uses them.
 *
 * Incompressible pages: zbewalgo writes them in stored form, which fits the
 * two pages zram gives; zswap gives one page and gets -ENOSPC, which it
 * treats as "keep the page uncompressed".  See
 * Documentation/staging/zbewalgo.rst.
 */

#include <linux/err.h>
#include <linux/init.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/crypto.h>
#include <linux/zbewalgo.h>
#include <crypto/internal/scompress.h>

/*
 * zswap compresses with bottom halves off: level 1's preset, whose
 * slowest page takes a few times zstd-3's where the default level's takes
 * over ten.  With CONFIG_ZBEWALGO_TUNING the streams follow the table and
 * thresholds of /sys/kernel/zbewalgo instead, page by page.
 */
#ifdef CONFIG_ZBEWALGO_TUNING
#define ZBEWALGO_SCOMP_LEVEL	0
#else
#define ZBEWALGO_SCOMP_LEVEL	1
#endif

static void *zbewalgo_alloc_stream(void)
{
	return zbewalgo_stream_create(PAGE_SIZE, ZBEWALGO_SCOMP_LEVEL, NULL);
}

static void zbewalgo_free_stream(void *ctx)
{
	zbewalgo_stream_destroy(ctx);
}

/*
 * A page that does not fit in *dlen under the shared settings gets -ENOSPC,
 * which zswap takes as "keep the page as it is": compressed with bottom
 * halves off, it is not searched a second time.
 */
static int zbewalgo_comp(void *ctx, const u8 *src, unsigned int slen,
			 u8 *dst, unsigned int *dlen)
{
	size_t len = *dlen;
	int ret = zbewalgo_stream_compress(ctx, src, slen, dst, &len);

	if (!ret)
		*dlen = len;
	return ret;
}

static int zbewalgo_decomp(void *ctx, const u8 *src, unsigned int slen,
			   u8 *dst, unsigned int *dlen)
{
	/* The stream refuses pages longer than PAGE_SIZE itself. */
	size_t len = *dlen;
	int ret = zbewalgo_stream_decompress(ctx, src, slen, dst, &len);

	if (!ret)
		*dlen = len;
	return ret;
}

static int zbewalgo_scompress(struct crypto_scomp *tfm, const u8 *src,
			      unsigned int slen, u8 *dst, unsigned int *dlen,
			      void *ctx)
{
	return zbewalgo_comp(ctx, src, slen, dst, dlen);
}

static int zbewalgo_sdecompress(struct crypto_scomp *tfm, const u8 *src,
				unsigned int slen, u8 *dst, unsigned int *dlen,
				void *ctx)
{
	return zbewalgo_decomp(ctx, src, slen, dst, dlen);
}

#ifndef ZBEWALGO_SCOMP_STREAMS
/*
 * scomp contexts: allocated per tfm up to 6.14, per CPU stream from 6.15
 * on.  The build defines ZBEWALGO_SCOMP_STREAMS when the kernel's scomp
 * has streams (struct crypto_acomp_streams); a tree that has them needs
 * no other path.
 */
static void *zbewalgo_alloc_ctx(struct crypto_scomp *tfm)
{
	return zbewalgo_alloc_stream();
}

static void zbewalgo_free_ctx(struct crypto_scomp *tfm, void *ctx)
{
	zbewalgo_free_stream(ctx);
}
#endif

static struct scomp_alg zbewalgo_scomp = {
#ifdef ZBEWALGO_SCOMP_STREAMS
	.streams = {
		.alloc_ctx	= zbewalgo_alloc_stream,
		.free_ctx	= zbewalgo_free_stream,
	},
#else
	.alloc_ctx		= zbewalgo_alloc_ctx,
	.free_ctx		= zbewalgo_free_ctx,
#endif
	.compress		= zbewalgo_scompress,
	.decompress		= zbewalgo_sdecompress,
	.base			= {
		.cra_name	= "zbewalgo",
		.cra_driver_name = "zbewalgo-scomp",
		.cra_module	= THIS_MODULE,
	}
};

#ifdef CRYPTO_ALG_TYPE_COMPRESS
/*
 * The legacy comp type, through which zram up to 6.11 allocates: one tfm
 * per CPU and device.  zram compresses a page again when its first
 * allocation fails, maybe on another CPU's tfm, and copies the result into
 * the object sized for the first: all these tfms keep the configuration
 * the first of them found, until the last is freed, so that a sysfs write
 * never reaches a device that holds data.
 */
struct zbewalgo_tfm_ctx {
	void *stream;
};

static DEFINE_MUTEX(zbewalgo_comp_lock);
static struct zbewalgo_config *zbewalgo_comp_config;
static unsigned int zbewalgo_comp_tfms;

static int zbewalgo_init_tfm(struct crypto_tfm *tfm)
{
	struct zbewalgo_tfm_ctx *c = crypto_tfm_ctx(tfm);
	int ret = 0;

	mutex_lock(&zbewalgo_comp_lock);
	if (!zbewalgo_comp_tfms)
		zbewalgo_comp_config = zbewalgo_config_get();
	c->stream = zbewalgo_stream_create(PAGE_SIZE, 0, zbewalgo_comp_config);
	if (!IS_ERR(c->stream)) {
		zbewalgo_comp_tfms++;
	} else {
		ret = PTR_ERR(c->stream);
		if (!zbewalgo_comp_tfms) {
			zbewalgo_config_put(zbewalgo_comp_config);
			zbewalgo_comp_config = NULL;
		}
	}
	mutex_unlock(&zbewalgo_comp_lock);
	return ret;
}

static void zbewalgo_exit_tfm(struct crypto_tfm *tfm)
{
	struct zbewalgo_tfm_ctx *c = crypto_tfm_ctx(tfm);

	zbewalgo_free_stream(c->stream);
	mutex_lock(&zbewalgo_comp_lock);
	if (!--zbewalgo_comp_tfms) {
		zbewalgo_config_put(zbewalgo_comp_config);
		zbewalgo_comp_config = NULL;
	}
	mutex_unlock(&zbewalgo_comp_lock);
}

static int zbewalgo_compress_tfm(struct crypto_tfm *tfm, const u8 *src,
				 unsigned int slen, u8 *dst,
				 unsigned int *dlen)
{
	struct zbewalgo_tfm_ctx *c = crypto_tfm_ctx(tfm);

	return zbewalgo_comp(c->stream, src, slen, dst, dlen);
}

static int zbewalgo_decompress_tfm(struct crypto_tfm *tfm, const u8 *src,
				   unsigned int slen, u8 *dst,
				   unsigned int *dlen)
{
	struct zbewalgo_tfm_ctx *c = crypto_tfm_ctx(tfm);

	return zbewalgo_decomp(c->stream, src, slen, dst, dlen);
}

static struct crypto_alg zbewalgo_alg = {
	.cra_name		= "zbewalgo",
	.cra_driver_name	= "zbewalgo-generic",
	.cra_flags		= CRYPTO_ALG_TYPE_COMPRESS,
	.cra_ctxsize		= sizeof(struct zbewalgo_tfm_ctx),
	.cra_module		= THIS_MODULE,
	.cra_init		= zbewalgo_init_tfm,
	.cra_exit		= zbewalgo_exit_tfm,
	.cra_u			= { .compress = {
		.coa_compress	= zbewalgo_compress_tfm,
		.coa_decompress	= zbewalgo_decompress_tfm } }
};
#endif

static int __init zbewalgo_mod_init(void)
{
	int ret;

	/*
	 * Built in, after the library's init (postcore_initcall); had that
	 * failed, every stream would, and so would the self-tests.
	 */
#ifdef CRYPTO_ALG_TYPE_COMPRESS
	ret = crypto_register_alg(&zbewalgo_alg);
	if (ret)
		return ret;
	ret = crypto_register_scomp(&zbewalgo_scomp);
	if (ret)
		crypto_unregister_alg(&zbewalgo_alg);
#else
	ret = crypto_register_scomp(&zbewalgo_scomp);
#endif
	return ret;
}

static void __exit zbewalgo_mod_fini(void)
{
	crypto_unregister_scomp(&zbewalgo_scomp);
#ifdef CRYPTO_ALG_TYPE_COMPRESS
	crypto_unregister_alg(&zbewalgo_alg);
#endif
}

subsys_initcall(zbewalgo_mod_init);
module_exit(zbewalgo_mod_fini);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("zbewalgo compression algorithm");
MODULE_ALIAS_CRYPTO("zbewalgo");
