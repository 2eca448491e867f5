/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pages of the user-space tests: the files of the test data
 * directories.  Included by the unit tests (zbewalgo_test.c in this
 * directory) and by the fuzz seed generator (fuzz/gen_seeds.c), so that
 * both read the same files in the same order.
 */
#ifndef ZBW_TEST_PAGES_H
#define ZBW_TEST_PAGES_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/*
 * Calls @file with the path of every regular file below @dir, in
 * alphasort order so that the pages come in the same order on every
 * machine.  Dot files and dot directories are skipped: they are no test
 * data (a checkout's .git, an editor's swap file).
 */
static inline void test_walk_dir(const char *dir,
				 void (*file)(const char *path))
{
	struct dirent **ents;
	int i, n = scandir(dir, &ents, NULL, alphasort);

	for (i = 0; i < n; i++) {
		const char *name = ents[i]->d_name;
		char path[4096];
		struct stat st;

		/* A path too long for @path is skipped, not cut short. */
		if (name[0] != '.' &&
		    snprintf(path, sizeof(path), "%s/%s", dir, name) <
		    (int)sizeof(path) && !stat(path, &st)) {
			if (S_ISDIR(st.st_mode))
				test_walk_dir(path, file);
			else if (S_ISREG(st.st_mode))
				file(path);
		}
		free(ents[i]);
	}
	if (n >= 0)
		free(ents);
}

#endif /* ZBW_TEST_PAGES_H */
