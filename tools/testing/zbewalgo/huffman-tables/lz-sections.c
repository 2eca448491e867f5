// SPDX-License-Identifier: GPL-2.0-only
/*
 * lz-sections: the training data of the predefined Huffman tables.
 *
 * Encodes every page of the given files with the lz step alone and prints
 * its five sections, Huffman coded or not, decoded: one line per section,
 * "SECTION HEX" (SECTION 0..4 in lz's order).  Pages of one repeated
 * 8-byte word, which zram stores without compressing, are skipped.
 * gen.py reads the lines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zbewalgo_internal.h"

#define PAGE		4096
#define NR_SECTIONS	5

static void dump(const u8 *page, unsigned int n, u8 *out, u8 *buf,
		 void *scratch)
{
	unsigned int cap = zbewalgo_stage_cap(n), k, s, i;
	const u8 *p, *end;
	int len;
	u32 v;

	len = zbewalgo_step_LZ.encode(page, n, out, cap, scratch);
	if (len < 0) {
		fprintf(stderr, "lz-sections: lz_encode: %d\n", len);
		exit(1);
	}
	p = out;
	end = out + len;
	p += zbw_get_len(p, end, &v);
	for (s = 0; s < NR_SECTIONS; s++) {
		const u8 *sec;
		int sl;

		k = zbw_get_len(p, end, &v);
		if (!k)
			exit(1);
		p += k;
		if (v & 1) {
			sl = zbewalgo_step_HUFFMAN.decode(p, v >> 1, buf, cap,
							  scratch);
			if (sl < 0)
				exit(1);
			sec = buf;
		} else {
			sl = v >> 1;
			sec = p;
		}
		printf("%u ", s);
		for (i = 0; i < (unsigned int)sl; i++)
			printf("%02x", sec[i]);
		printf("\n");
		p += v >> 1;
	}
}

int main(int argc, char **argv)
{
	static u8 page[PAGE], out[2 * PAGE + 64], buf[2 * PAGE + 64];
	void *scratch = malloc(zbewalgo_step_LZ.scratch_size(PAGE));
	unsigned int n;
	int a;

	if (!scratch)
		return 1;
	for (a = 1; a < argc; a++) {
		FILE *f = fopen(argv[a], "rb");

		if (!f) {
			perror(argv[a]);
			return 1;
		}
		while ((n = fread(page, 1, PAGE, f)) > 0) {
			if (n % 8 || n < 16 || memcmp(page, page + 8, n - 8))
				dump(page, n, out, buf, scratch);
		}
		fclose(f);
	}
	free(scratch);
	return 0;
}
