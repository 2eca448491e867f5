/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A file's pages, read whole into memory, for the small test programs
 * that take files: zbewalgo_retry (retry.c in this directory) and
 * zbewalgo_pagesizes (bench/pagesizes.c).
 */
#ifndef ZBW_LOAD_PAGES_H
#define ZBW_LOAD_PAGES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The pages of file @path, @page bytes each, and their number in @pages.
 * With @pad a last partial page is zero-padded and counted, as zram
 * would see it; without, it is left out.  Exits with status 2 when the
 * file cannot be opened or memory runs out.
 */
unsigned char *load_pages(const char *path, size_t page, bool pad,
			  size_t *pages);

#endif /* ZBW_LOAD_PAGES_H */
