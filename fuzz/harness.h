/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared driver of the zbewalgo fuzz harnesses.
 *
 * Every harness defines LLVMFuzzerTestOneInput() and includes this header.
 * The build chooses the engine:
 *
 *   (default)          libFuzzer: clang -fsanitize=fuzzer supplies main()
 *   -DZBW_FUZZ_AFL     AFL++ persistent mode with shared-memory test cases
 *                      (afl-clang-fast)
 *   -DZBW_FUZZ_REPLAY  plain main() that runs every file (or every file in
 *                      every directory) named on the command line once;
 *                      any compiler, used for triage and corpus replay
 *
 * A harness reports a bug by abort(); the sanitizers report the rest.
 */
#ifndef ZBW_FUZZ_HARNESS_H
#define ZBW_FUZZ_HARNESS_H

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/zbewalgo/core/zbewalgo_internal.h"

#define FUZZ_PAGE	4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Prints a reason and aborts, so every engine records a crash. */
#define FUZZ_ASSERT(cond, ...) do {					\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: %s: ", __FILE__,	\
				__LINE__, #cond);			\
			fprintf(stderr, __VA_ARGS__);			\
			fputc('\n', stderr);				\
			abort();					\
		}							\
	} while (0)

/* Exact-size heap copy; ASan flags any access beyond @len (even len 0). */
static inline uint8_t *fuzz_dup(const void *p, size_t len)
{
	uint8_t *d = malloc(len);

	if (!d && len)
		abort();
	if (len)
		memcpy(d, p, len);
	return d;
}

static inline void *fuzz_alloc(size_t len)
{
	void *d = malloc(len);

	if (!d && len)
		abort();
	return d;
}

/* Little-endian bytes of the input, 0 past its end. */
static inline unsigned int fuzz_byte(const uint8_t *data, size_t size,
				     size_t i)
{
	return i < size ? data[i] : 0;
}

/*
 * A combination table chosen by the input, shared by roundtrip and
 * dst-too-small.  Consumes a prefix of the input and returns its length.
 *
 * byte 0, bits 0-1: 0 default table, 1 preset 1..3 (bits 2-3),
 *   2 and 3: 1..4 combinations (bits 2-3) built from the next bytes,
 *   each a length byte (1..7 steps) and that many step-id bytes.
 * byte 1: the thresholds (see fuzz_params()).
 */
static inline size_t fuzz_table(const uint8_t *data, size_t size,
				struct zbewalgo_table *t,
				struct zbewalgo_params *params)
{
	unsigned int b0 = fuzz_byte(data, size, 0);
	unsigned int b1 = fuzz_byte(data, size, 1);
	size_t pos = 2;
	unsigned int i, k;

	memset(t, 0, sizeof(*t));
	switch (b0 & 3) {
	case 0:
		*t = *zbewalgo_table_default();
		break;
	case 1:
		*t = *zbewalgo_preset_table(1 + ((b0 >> 2) & 3) % 3);
		break;
	default:
		t->nr = 1 + ((b0 >> 2) & 3);
		for (i = 0; i < t->nr; i++) {
			struct zbewalgo_combination *c = &t->comb[i];

			c->nr_steps = 1 + fuzz_byte(data, size, pos++) %
					  ZBEWALGO_MAX_STEPS;
			for (k = 0; k < c->nr_steps; k++)
				c->ids[k] = 1 + fuzz_byte(data, size, pos++) %
						(ZBEWALGO_NR_STEP_IDS - 1);
		}
		break;
	}

	/*
	 * byte 1, bits 0-1: early_abort_size default / 0 / page / huge;
	 * bits 2-3: max_output_size default / page+8 (never store) / page/4 /
	 * 0; bits 4-5: tolerance_shift 0..3; bit 6: no incompressibility test
	 * (store_entropy 0), so random-looking inputs reach the chains too.
	 */
	zbewalgo_default_params(params, FUZZ_PAGE);
	switch (b1 & 3) {
	case 1:
		params->early_abort_size = 0;
		break;
	case 2:
		params->early_abort_size = FUZZ_PAGE;
		break;
	case 3:
		params->early_abort_size = 0xffffffffu;
		break;
	}
	switch ((b1 >> 2) & 3) {
	case 1:
		params->max_output_size = FUZZ_PAGE + 8;
		break;
	case 2:
		params->max_output_size = FUZZ_PAGE / 4;
		break;
	case 3:
		params->max_output_size = 0;
		break;
	}
	params->tolerance_shift = (b1 >> 4) & 3;
	if (b1 & 0x40)
		params->store_entropy = 0;
	return pos < size ? pos : size;
}

#if defined(ZBW_FUZZ_AFL)

__AFL_FUZZ_INIT();

int main(void)
{
	__AFL_INIT();
	{
		const uint8_t *buf = __AFL_FUZZ_TESTCASE_BUF;

		while (__AFL_LOOP(100000)) {
			size_t len = __AFL_FUZZ_TESTCASE_LEN;
			/* Exact-size copy: the shared buffer has slack. */
			uint8_t *copy = fuzz_dup(buf, len);

			LLVMFuzzerTestOneInput(copy, len);
			free(copy);
		}
	}
	return 0;
}

#elif defined(ZBW_FUZZ_REPLAY)

static unsigned long fuzz_replayed;

static void fuzz_replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long len;

	if (!f) {
		perror(path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = fuzz_alloc(len);
	if (len && fread(buf, 1, len, f) != (size_t)len) {
		perror(path);
		exit(2);
	}
	fclose(f);
	if (getenv("ZBW_FUZZ_VERBOSE"))
		fprintf(stderr, "%s\n", path);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	fuzz_replayed++;
}

static void fuzz_replay_path(const char *path)
{
	struct dirent **ents;
	struct stat st;
	int i, n;

	if (stat(path, &st)) {
		perror(path);
		exit(2);
	}
	if (!S_ISDIR(st.st_mode)) {
		fuzz_replay_file(path);
		return;
	}
	n = scandir(path, &ents, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (ents[i]->d_name[0] != '.') {
			size_t l = strlen(path) + strlen(ents[i]->d_name) + 2;
			char *p = fuzz_alloc(l);

			snprintf(p, l, "%s/%s", path, ents[i]->d_name);
			fuzz_replay_path(p);
			free(p);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++)
		fuzz_replay_path(argv[i]);
	printf("%s: %lu inputs, no crash\n", argv[0], fuzz_replayed);
	return 0;
}

#endif

#endif /* ZBW_FUZZ_HARNESS_H */
