/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Decoder robustness cases, written once and run by the KUnit suites
 * (zbewalgo_kunit_*.c, under KASAN) and by the library's user-space
 * tests (under ASan and UBSan), each on its own pages.  Before including
 * this file, define
 *
 *	ZBW_CASE_CHECK(env, cond, fmt, ...)
 *
 * to record a failed check with its message; @env is what the includer
 * passed to the case (KUnit's struct kunit).  Every buffer is allocated
 * at its exact size, so the sanitizers report any access outside it; the
 * user-space shim maps kmalloc() and friends to malloc().
 */
#ifndef __ZBEWALGO_CASES_H
#define __ZBEWALGO_CASES_H

/* A page to compress, with a name for the messages */
struct zbw_case_page {
	const u8 *data;
	size_t len;
	const char *name;
};

/* What zbw_case_corrupted() tried, for the report */
struct zbw_case_stats {
	unsigned long cuts;
	unsigned long flips;
	unsigned long detected;
};

static inline u32 zbw_case_rnd(u32 *state)
{
	*state ^= *state << 13;
	*state ^= *state >> 17;
	*state ^= *state << 5;
	return *state;
}

/* Truncation lengths: every one up to 16, then growing steps, and the last four */
static inline size_t zbw_case_next_cut(size_t cut, size_t clen)
{
	size_t next = cut + 1 + cut / 16;

	return clen > 4 && cut < clen - 4 && next > clen - 4 ? clen - 4 : next;
}

/*
 * @c, @clen bytes at their exact size, compressed from @pg: every
 * truncation is rejected (-EINVAL); a page with a flipped bit (and, every
 * other time, a random byte) decodes to an error or to a page no longer
 * than the buffer, @max_len bytes (the format has no checksum, like lz4's:
 * a caller takes a length other than the page's as an error, counted as
 * detected).
 */
static inline void zbw_case_corrupted(void *env, const struct zbw_case_page *pg,
				      const u8 *c, size_t clen, void *scratch,
				      size_t max_len, unsigned int flips, u32 *rng,
				      struct zbw_case_stats *st)
{
	u8 *out = kmalloc(max_len, GFP_KERNEL);
	unsigned int k;
	size_t cut;
	int ret;

	ZBW_CASE_CHECK(env, out, "out of memory");
	if (!out)
		return;
	for (cut = 0; cut < clen; cut = zbw_case_next_cut(cut, clen)) {
		u8 *t = kmemdup(c, cut ?: 1, GFP_KERNEL);
		size_t olen = max_len;

		ZBW_CASE_CHECK(env, t, "out of memory");
		if (!t)
			break;
		ret = zbewalgo_decompress(t, cut, out, &olen, scratch);
		ZBW_CASE_CHECK(env, ret == -EINVAL,
			       "%s: cut to %zu of %zu bytes gave %d", pg->name,
			       cut, clen, ret);
		st->cuts++;
		kfree(t);
	}
	for (k = 0; k < flips && clen; k++) {
		u8 *t = kmemdup(c, clen, GFP_KERNEL);
		size_t olen = max_len;

		ZBW_CASE_CHECK(env, t, "out of memory");
		if (!t)
			break;
		t[zbw_case_rnd(rng) % clen] ^= 1 << (zbw_case_rnd(rng) % 8);
		if (k & 1)
			t[zbw_case_rnd(rng) % clen] = zbw_case_rnd(rng);
		ret = zbewalgo_decompress(t, clen, out, &olen, scratch);
		ZBW_CASE_CHECK(env, ret == 0 || ret == -EINVAL || ret == -ENOSPC,
			       "%s: corrupted page gave %d", pg->name, ret);
		ZBW_CASE_CHECK(env, ret || olen <= max_len,
			       "%s: corrupted page decoded to %zu bytes",
			       pg->name, olen);
		st->flips++;
		st->detected += ret || olen != pg->len;
		kfree(t);
	}
	kfree(out);
}

/*
 * One encoding per page: @c (@clen bytes, compressed from @pg) with a byte
 * appended is not a page.
 */
static inline void zbw_case_trailing(void *env, const struct zbw_case_page *pg,
				     const u8 *c, size_t clen, void *scratch,
				     size_t max_len, u32 *rng)
{
	u8 *t = kmalloc(clen + 1, GFP_KERNEL);
	u8 *out = kmalloc(max_len, GFP_KERNEL);
	size_t olen = max_len;
	int ret;

	ZBW_CASE_CHECK(env, t && out, "out of memory");
	if (t && out) {
		memcpy(t, c, clen);
		t[clen] = zbw_case_rnd(rng);
		ret = zbewalgo_decompress(t, clen + 1, out, &olen, scratch);
		ZBW_CASE_CHECK(env, ret == -EINVAL,
			       "%s (%zu bytes) with a trailing byte gave %d",
			       pg->name, pg->len, ret);
	}
	kfree(out);
	kfree(t);
}

/*
 * @n random inputs of up to 400 bytes, every other one behind a valid
 * header naming random steps, so that the step decoders see them:
 * errors only, or a page no longer than @max_len.
 */
static inline void zbw_case_random(void *env, void *scratch, size_t max_len,
				   unsigned int n, u32 *rng)
{
	u8 *out = kmalloc(max_len, GFP_KERNEL);
	unsigned int i, k, steps;

	ZBW_CASE_CHECK(env, out, "out of memory");
	if (!out)
		return;
	for (i = 0; i < n; i++) {
		size_t len = zbw_case_rnd(rng) % 400, olen = max_len;
		u8 *p = kmalloc(len ?: 1, GFP_KERNEL);
		int ret;

		ZBW_CASE_CHECK(env, p, "out of memory");
		if (!p)
			break;
		for (k = 0; k < len; k++)
			p[k] = zbw_case_rnd(rng);
		if (len > 4 && (i & 1)) {
			steps = 1 + zbw_case_rnd(rng) % 7;
			p[0] = zbw_page_byte0(steps);
			for (k = 1; k <= steps && k < len; k++)
				p[k] = 1 + zbw_case_rnd(rng) %
					   (ZBEWALGO_NR_STEP_IDS - 1);
		}
		ret = zbewalgo_decompress(p, len, out, &olen, scratch);
		ZBW_CASE_CHECK(env, ret == -EINVAL || ret == -ENOSPC ||
			       (!ret && olen <= max_len),
			       "random input %u (%zu bytes) gave %d", i, len,
			       ret);
		kfree(p);
	}
	kfree(out);
}

/*
 * A page of @len bytes that a dictionary @dict (@dlen bytes) compresses
 * well: 96-byte pieces of its second half (its content, after the
 * entropy tables) from random places, each after a random byte.
 */
static inline void zbw_case_dict_page(u8 *page, size_t len, const u8 *dict,
				      size_t dlen, u32 *rng)
{
	size_t pos = 0, n;

	while (pos < len) {
		page[pos++] = zbw_case_rnd(rng);
		n = min_t(size_t, 96, len - pos);
		memcpy(page + pos, dict + dlen / 2 +
		       zbw_case_rnd(rng) % (dlen / 2 - 96), n);
		pos += n;
	}
}

/* The contexts of zbw_case_dict(), for pages of up to @max_len bytes */
struct zbw_case_dict_ctxs {
	struct zbewalgo_ctx *dict;	/* with the dictionary */
	struct zbewalgo_ctx *other;	/* with one of another id */
	struct zbewalgo_ctx *none;	/* without */
	void *scratch;			/* for zbewalgo_decompress() */
	size_t max_len;
	/* bytes of the pages compressed with and without the dictionary */
	unsigned long long with_bytes, without_bytes;
};

/* Decodes @c on @ctx, or with the scratch for @ctx NULL, into @out */
static inline int zbw_case_decode(struct zbw_case_dict_ctxs *x,
				  struct zbewalgo_ctx *ctx, const u8 *c, size_t clen,
				  u8 *out, size_t *olen)
{
	*olen = x->max_len;
	return ctx ? zbewalgo_ctx_decompress(ctx, c, clen, out, olen) :
		     zbewalgo_decompress(c, clen, out, olen, x->scratch);
}

/*
 * zram's dict=: @pg compressed with the dictionary comes out the same
 * twice and decodes with it; without it, it decodes to @pg or is refused,
 * and when refused (it needs the dictionary) it is refused with another
 * id too, and every cut of it is refused with the dictionary.  Pages
 * compressed without decode with it.  Returns whether @pg needs the
 * dictionary.  (A chain the dictionary shrinks can end the search before
 * a chain that does better without it: a page may come out longer, the
 * sum of many should not.)
 */
static inline bool zbw_case_dict(void *env, const struct zbw_case_page *pg,
				 struct zbw_case_dict_ctxs *x)
{
	size_t cap = ZBEWALGO_STORED_SIZE(pg->len), l1 = cap, l2 = cap;
	size_t l0 = cap, olen, cut;
	u8 *c1 = kmalloc(cap, GFP_KERNEL), *c2 = kmalloc(cap, GFP_KERNEL);
	u8 *c0 = kmalloc(cap, GFP_KERNEL), *out = kmalloc(x->max_len, GFP_KERNEL);
	bool used = false;
	int ret;

	ZBW_CASE_CHECK(env, c0 && c1 && c2 && out, "out of memory");
	if (!c0 || !c1 || !c2 || !out)
		goto out;
	ret = zbewalgo_compress(x->dict, pg->data, pg->len, c1, &l1);
	ret = ret ?: zbewalgo_compress(x->dict, pg->data, pg->len, c2, &l2);
	ret = ret ?: zbewalgo_compress(x->none, pg->data, pg->len, c0, &l0);
	ZBW_CASE_CHECK(env, !ret, "%s: compression gave %d", pg->name, ret);
	if (ret)
		goto out;
	ZBW_CASE_CHECK(env, l1 == l2 && !memcmp(c1, c2, l1),
		       "%s: compressed twice with the dictionary, %zu and %zu bytes",
		       pg->name, l1, l2);
	x->with_bytes += l1;
	x->without_bytes += l0;
	ret = zbw_case_decode(x, x->dict, c1, l1, out, &olen);
	ZBW_CASE_CHECK(env, !ret && olen == pg->len &&
		       !memcmp(out, pg->data, olen),
		       "%s: no round trip with the dictionary (%d)", pg->name,
		       ret);
	ret = zbw_case_decode(x, x->dict, c0, l0, out, &olen);
	ZBW_CASE_CHECK(env, !ret && olen == pg->len &&
		       !memcmp(out, pg->data, olen),
		       "%s: compressed without, not decoded with it (%d)",
		       pg->name, ret);
	ret = zbw_case_decode(x, x->none, c1, l1, out, &olen);
	ZBW_CASE_CHECK(env, ret == -EINVAL || (!ret && olen == pg->len &&
					       !memcmp(out, pg->data, olen)),
		       "%s: decoded without the dictionary to other bytes (%d)",
		       pg->name, ret);
	used = ret != 0;
	if (!used)
		goto out;
	ret = zbw_case_decode(x, NULL, c1, l1, out, &olen);
	ZBW_CASE_CHECK(env, ret == -EINVAL,
		       "%s: decoded without a context's dictionary (%d)",
		       pg->name, ret);
	ret = zbw_case_decode(x, x->other, c1, l1, out, &olen);
	ZBW_CASE_CHECK(env, ret == -EINVAL,
		       "%s: decoded with another dictionary (%d)", pg->name,
		       ret);
	for (cut = 0; cut < l1; cut = zbw_case_next_cut(cut, l1)) {
		u8 *t = kmemdup(c1, cut ?: 1, GFP_KERNEL);

		ZBW_CASE_CHECK(env, t, "out of memory");
		if (!t)
			break;
		ret = zbw_case_decode(x, x->dict, t, cut, out, &olen);
		ZBW_CASE_CHECK(env, ret == -EINVAL,
			       "%s: cut to %zu of %zu bytes gave %d with the dictionary",
			       pg->name, cut, l1, ret);
		kfree(t);
	}
out:
	kfree(out);
	kfree(c0);
	kfree(c2);
	kfree(c1);
	return used;
}

/* The num steps' cases */
#include "zbewalgo_cases_num.h"

#endif /* __ZBEWALGO_CASES_H */
