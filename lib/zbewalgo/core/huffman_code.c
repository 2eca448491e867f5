// SPDX-License-Identifier: GPL-2.0-only
/*
 * Canonical prefix codes for the huffman step: code lengths from symbol
 * weights, limited in length, the first code of each length, and decoding
 * tables.
 */
#include "huffman.h"

/*
 * First canonical code of each length 1..@bits for the lengths @len of
 * @nsym <= 256 symbols (all <= @bits), and unless @count is NULL the
 * number of symbols of each length 1..@bits.  Returns the Kraft sum
 * scaled by 2^@bits, which is exactly 2^@bits for a complete code.
 */
u32 zbw_huf_canon(const u8 *len, unsigned int nsym, unsigned int bits,
		  u32 *next, u16 *count)
{
	/*
	 * four counters: equal lengths in a row do not wait on each other.
	 * With @nsym <= 256 each counts at most 256 / 4 + 3 symbols, so a
	 * byte holds it (and the frame stays small).
	 */
	u8 bl[4][ZBW_HUF_MAX_BITS + 1];
	u32 code = 0, kraft = 0, prev = 0, cnt;
	unsigned int i;

	memset(bl, 0, sizeof(bl));
	for (i = 0; i + 4 <= nsym; i += 4) {
		bl[0][len[i]]++;
		bl[1][len[i + 1]]++;
		bl[2][len[i + 2]]++;
		bl[3][len[i + 3]]++;
	}
	for (; i < nsym; i++)
		bl[0][len[i]]++;
	for (i = 1; i <= bits; i++) {
		code = (code + prev) << 1;
		next[i] = code;
		cnt = bl[0][i] + bl[1][i] + bl[2][i] + bl[3][i];
		if (count)
			count[i] = cnt;
		kraft += cnt << (bits - i);
		prev = cnt;
	}
	return kraft;
}

/* Sort @k keys (weight << 8 | symbol) by weight; returns the sorted copy */
static u32 *zbw_huf_sort(u32 *a, u32 *b, u16 *cnt, unsigned int k, u32 maxkey)
{
	unsigned int i, j, shift;
	u32 v, *t;

	if (k <= 40) {
		for (i = 1; i < k; i++) {
			v = a[i];
			for (j = i; j > 0 && a[j - 1] > v; j--)
				a[j] = a[j - 1];
			a[j] = v;
		}
		return a;
	}
	for (shift = 8; shift < 32 && (maxkey >> shift); shift += 8) {
		memset(cnt, 0, 256 * sizeof(*cnt));
		for (i = 0; i < k; i++)
			cnt[(a[i] >> shift) & 0xff]++;
		zbw_count_starts(cnt);
		for (i = 0; i < k; i++)
			b[cnt[(a[i] >> shift) & 0xff]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	return a;
}

/*
 * Huffman code lengths (at most @limit) for the symbols 0..@nsym-1 with
 * weights @freq (< 2^24, total <= ZBW_LEN_MAX); 0 for unused symbols.  A
 * lone used symbol gets a sibling so the code is complete.  @buf holds
 * 3 * 256 words.  Returns the number of used symbols.
 */
unsigned int zbw_huf_lengths(const u32 *freq, unsigned int nsym,
			     unsigned int limit, u8 *len, u32 *buf)
{
	/* codes per length, where the sort kept its counts: off the stack */
	u16 *bl = (u16 *)(buf + 512);
	u32 *key = buf, *w, maxkey = 0;
	unsigned int i, j, k = 0, root, leaf, next, avbl, used, depth;

	memset(len, 0, nsym);
	for (i = 0; i < nsym; i++) {
		if (freq[i]) {
			key[k] = freq[i] << 8 | i;
			maxkey |= key[k++];
		}
	}
	if (k <= 1) {
		if (k)
			len[key[0] & 0xff] = 1;
		if (k && nsym > 1)
			len[(key[0] & 0xff) ^ 1] = 1;
		return k;
	}
	key = zbw_huf_sort(key, buf + 256, bl, k, maxkey);
	w = key == buf ? buf + 256 : buf;
	for (i = 0; i < k; i++)
		w[i] = key[i] >> 8;

	/* Moffat and Katajainen, in-place minimum-redundancy code, 1995 */
	w[0] += w[1];
	root = 0;
	leaf = 2;
	for (next = 1; next < k - 1; next++) {
		if (leaf >= k || w[root] < w[leaf]) {
			w[next] = w[root];
			w[root++] = next;
		} else {
			w[next] = w[leaf++];
		}
		if (leaf >= k || (root < next && w[root] < w[leaf])) {
			w[next] += w[root];
			w[root++] = next;
		} else {
			w[next] += w[leaf++];
		}
	}
	w[k - 2] = 0;
	for (i = k - 2; i-- > 0;)
		w[i] = w[w[i]] + 1;
	avbl = 1;
	used = 0;
	depth = 0;
	root = k - 2;
	memset(bl, 0, ZBW_HUF_DEPTH_MAX * sizeof(*bl));
	while (avbl > 0) {
		while (root < k && w[root] == depth) {
			used++;
			root--;		/* wraps to UINT_MAX: ends the loop */
		}
		while (avbl > used) {
			bl[depth]++;
			avbl--;
		}
		avbl = 2 * used;
		depth++;
		used = 0;
	}
	depth--;

	/* JPEG (ITU T.81 Annex K.3) length limiting keeps the code complete */
	for (i = depth; i > limit;) {
		if (!bl[i]) {
			i--;
			continue;
		}
		for (j = i - 2; !bl[j]; j--)
			;
		bl[i] -= 2;
		bl[i - 1]++;
		bl[j + 1] += 2;
		bl[j]--;
	}
	if (depth > limit)
		depth = limit;

	/* Longest codes to the rarest symbols */
	for (i = 0; depth > 0; depth--)
		for (j = bl[depth]; j > 0; j--)
			len[key[i++] & 0xff] = depth;
	return k;
}

/*
 * Decoding table of 2^@bits entries (length | symbol << 8) for the lengths
 * @len (<= @bits) of @nsym <= 256 symbols; -EINVAL unless they form a
 * complete prefix code, so every table entry is valid.  @order: room for
 * @nsym symbols.  With @add, each symbol's length there is its code's plus
 * @add[symbol] (the bits that follow it, for a decoder that takes both in
 * one shift), at most 255 in all.
 *
 * The stream is LSB-first, so a code of length l owns the entries whose
 * low l bits are its reversed code.  Rather than writing each of them
 * (2^@bits stores and a loop step each), the table grows from 2 entries
 * to 2^@bits: the codes of length l go in once the table has 2^l
 * entries, then it is doubled by a copy of itself.  That takes the
 * symbols by length: a counting sort into @order.
 */
int zbw_huf_table(const u8 *len, unsigned int nsym, unsigned int bits,
		  u16 *tab, u8 *order, const u8 *add)
{
	u32 next[ZBW_HUF_MAX_BITS + 1];
	u16 first[ZBW_HUF_MAX_BITS + 1];
	unsigned int s, l, k;

	if (zbw_huf_canon(len, nsym, bits, next, first) != 1u << bits)
		return -EINVAL;
	/* first[l]: where the symbols of length l start in @order */
	for (k = 0, l = 1; l <= bits; l++) {
		s = first[l];
		first[l] = k;
		k += s;
	}
	for (s = 0; s < nsym; s++)
		if (len[s] && len[s] <= bits)
			order[first[len[s]]++] = s;
	/* first[l] is now where the symbols of length l end */
	for (k = 0, l = 1; l <= bits; l++) {
		if (l > 1)
			memcpy(tab + (1u << (l - 1)), tab,
			       sizeof(*tab) << (l - 1));
		for (; k < first[l]; k++) {
			s = order[k];
			tab[zbw_huf_rev(next[l]++, l)] =
				(l + (add ? add[s] : 0)) | s << 8;
		}
	}
	return 0;
}
