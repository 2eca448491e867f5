/* SPDX-License-Identifier: GPL-2.0-only */
/* Shared helpers of the zbewalgo command-line tool. */
#ifndef ZBEWALGO_TOOL_H
#define ZBEWALGO_TOOL_H

#include <stddef.h>
#include <stdio.h>

FILE *tool_open(const char *path, const char *mode);
int tool_read_all(FILE *f, unsigned char **data, size_t *len);
int bench_main(int argc, char **argv);
int tune_main(int argc, char **argv);

#endif
