// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo train-dict: a dictionary for zram's dict= from the pages of
 * files, block devices or processes, trained by libzstd's trainer on
 * page-sized samples (what zram compresses), as `zstd --train` would on
 * the same pages.  zram takes it for zstd (algorithm_params dict=PATH).
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <zdict.h>

#include "tune.h"

/* Pages trained on at most: libzstd's trainer is slow beyond that. */
#define TRAIN_MAX_PAGES		8192

static void train_usage(FILE *f)
{
	fprintf(f,
"usage: zbewalgo train-dict -o FILE [options] INPUT...\n"
"  -o, --output FILE         the dictionary (zram's dict= takes it)\n"
"  -s, --size BYTES          dictionary size (default 32768)\n"
"  -p, --page-size N         page size (default 4096)\n"
"      --pid PID             also the swappable memory of process PID\n"
"                            (repeatable)\n"
"INPUT is a file, a block device or '-'.  Same-filled pages, which zram\n"
"stores without compressing, are left out; of more than %d pages an\n"
"evenly spaced %d are used.\n", TRAIN_MAX_PAGES, TRAIN_MAX_PAGES);
}

int train_dict_main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "size", required_argument, NULL, 's' },
		{ "page-size", required_argument, NULL, 'p' },
		{ "pid", required_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ }
	};
	const char *out = NULL, **pids = calloc(argc, sizeof(*pids));
	size_t npids = 0, size = 32768, page = 4096, total = 0, n = 0, i, k;
	struct source *src = calloc(argc, sizeof(*src));
	size_t nsrc = 0, *sizes = NULL, dlen;
	unsigned char *samples = NULL, *dict = NULL;
	int c, ret = 1;
	struct tool_out o;
	double v;

	if (!pids || !src)
		goto out;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:s:p:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 's':
			if (tool_parse_num(optarg, 256, 1 << 24, &v) ||
			    v != (size_t)v) {
				fprintf(stderr, "zbewalgo: --size must be 256..16777216\n");
				ret = EXIT_USAGE;
				goto out;
			}
			size = v;
			break;
		case 'p':
			if (tool_parse_num(optarg, 64, ZBEWALGO_MAX_INPUT, &v) ||
			    v != (size_t)v) {
				fprintf(stderr, "zbewalgo: bad page size\n");
				ret = EXIT_USAGE;
				goto out;
			}
			page = v;
			break;
		case 'P':
			pids[npids++] = optarg;
			break;
		case 'h':
			train_usage(stdout);
			ret = 0;
			goto out;
		default:
			train_usage(stderr);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	if (!out || (optind == argc && !npids)) {
		fprintf(stderr, "zbewalgo: train-dict needs -o FILE and an input\n");
		train_usage(stderr);
		ret = EXIT_USAGE;
		goto out;
	}
	for (i = optind; i < (size_t)argc; i++, nsrc++)
		if (tune_open_path(&src[nsrc], argv[i], page))
			goto out;
	for (i = 0; i < npids; i++, nsrc++)
		if (tune_open_pid(&src[nsrc], pids[i], page))
			goto out;
	for (i = 0; i < nsrc; i++)
		total += src[i].npages;
	samples = malloc(page * (total < TRAIN_MAX_PAGES ? total :
				 TRAIN_MAX_PAGES) + 1);
	sizes = calloc(TRAIN_MAX_PAGES, sizeof(*sizes));
	dict = malloc(size);
	if (!samples || !sizes || !dict)
		goto out;
	/* An evenly spaced sample of the pages, in input order. */
	for (i = 0, k = 0; i < nsrc; i++) {
		size_t p;

		for (p = 0; p < src[i].npages; p++, k++) {
			unsigned char *dst = samples + n * page;

			if (total > TRAIN_MAX_PAGES &&
			    k * TRAIN_MAX_PAGES / total ==
			    (k + 1) * TRAIN_MAX_PAGES / total)
				continue;
			if (n == TRAIN_MAX_PAGES ||
			    tune_read_page(&src[i], p, page, dst) ||
			    tool_same_filled(dst, page))
				continue;
			sizes[n++] = page;
		}
	}
	if (n < 8) {
		fprintf(stderr, "zbewalgo: %zu pages to train on; 8 at least\n",
			n);
		goto out;
	}
	dlen = ZDICT_trainFromBuffer(dict, size, samples, sizes, n);
	if (ZDICT_isError(dlen)) {
		fprintf(stderr, "zbewalgo: training failed: %s\n",
			ZDICT_getErrorName(dlen));
		goto out;
	}
	/* replaced, as a report is, but never left half written */
	if (tool_out_open(&o, out, true, NULL))
		goto out;
	tool_out_write(&o, dict, dlen);
	if (tool_out_close(&o, true))
		goto out;
	printf("zbewalgo: %s: a %zu-byte dictionary from %zu of %zu pages\n",
	       out, dlen, n, total);
	ret = 0;
out:
	for (i = 0; i < nsrc; i++) {
		if (src[i].fd >= 0)
			close(src[i].fd);
		free(src[i].data);
		free(src[i].ext);
	}
	free(src);
	free(pids);
	free(samples);
	free(sizes);
	free(dict);
	return ret;
}
