// SPDX-License-Identifier: GPL-2.0-only
/*
 * A file's pages, for the test programs that take files (load_pages.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_pages.h"

unsigned char *load_pages(const char *path, size_t page, bool pad,
			  size_t *pages)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t n = 0, got;

	if (!f) {
		perror(path);
		exit(2);
	}
	do {
		buf = realloc(buf, (n + 1) * page);
		if (!buf)
			exit(2);
		got = fread(buf + n * page, 1, page, f);
		if (pad && got)
			memset(buf + n * page + got, 0, page - got);
		n += got == page || (pad && got);
	} while (got == page);
	fclose(f);
	*pages = n;
	return buf;
}
