// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbwblk: timed direct I/O on a zram device for demo.sh (built static).
 *
 *   zbwblk write DEV FILE...
 *	Writes the FILEs one after the other to DEV with O_DIRECT.
 *   zbwblk read DEV BYTES
 *	Reads BYTES from DEV with O_DIRECT and discards them.
 *   zbwblk sysfs FILE VALUE
 *	Writes VALUE to FILE in one write() (e.g. a zram "recompress" pass,
 *	which runs inside that write) and times it.
 *
 * Prints "zbwblk: BYTES bytes in MS ms", where MS counts only the time
 * spent in pwrite()/pread() on DEV: zram compresses in the write and
 * decompresses in the read before they return, so this is the algorithm
 * plus zram's own work, without starting processes (which costs more than
 * the I/O under qemu's TCG) or reading the FILEs.  Sizes must be whole
 * pages (O_DIRECT).  Exits 1 on a short or failed transfer.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK 1048576		/* bytes per pwrite/pread, as dd bs=1M */

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int do_write(const char *dev, int nfiles, char **files, char *buf)
{
	int fd = open(dev, O_WRONLY | O_DIRECT), in, i;
	long long off = 0;
	double ms = 0, t;
	ssize_t n;

	if (fd < 0)
		return perror(dev), 1;
	for (i = 0; i < nfiles; i++) {
		in = open(files[i], O_RDONLY);
		if (in < 0)
			return perror(files[i]), 1;
		while ((n = read(in, buf, CHUNK)) > 0) {
			t = now_ms();
			if (pwrite(fd, buf, n, off) != n)
				return perror("zbwblk: write"), 1;
			ms += now_ms() - t;
			off += n;
		}
		if (n < 0)
			return perror(files[i]), 1;
		close(in);
	}
	if (close(fd))
		return perror(dev), 1;
	printf("zbwblk: %lld bytes in %.3f ms\n", off, ms);
	return 0;
}

static int do_read(const char *dev, long long bytes, char *buf)
{
	int fd = open(dev, O_RDONLY | O_DIRECT);
	long long off = 0;
	double ms = 0, t;
	ssize_t n, want;

	if (fd < 0)
		return perror(dev), 1;
	while (off < bytes) {
		want = bytes - off < CHUNK ? bytes - off : CHUNK;
		t = now_ms();
		n = pread(fd, buf, want, off);
		ms += now_ms() - t;
		if (n != want)
			return perror("zbwblk: read"), 1;
		off += n;
	}
	close(fd);
	printf("zbwblk: %lld bytes in %.3f ms\n", off, ms);
	return 0;
}

static int do_sysfs(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	size_t len = strlen(val);
	double t;

	if (fd < 0)
		return perror(path), 1;
	t = now_ms();
	if (write(fd, val, len) != (ssize_t)len)
		return perror(path), 1;
	t = now_ms() - t;
	if (close(fd))
		return perror(path), 1;
	printf("zbwblk: %zu bytes in %.3f ms\n", len, t);
	return 0;
}

int main(int argc, char **argv)
{
	char *buf;

	/* O_DIRECT wants an aligned buffer. */
	if (posix_memalign((void **)&buf, 4096, CHUNK))
		return perror("zbwblk"), 1;
	if (argc >= 4 && !strcmp(argv[1], "write"))
		return do_write(argv[2], argc - 3, argv + 3, buf);
	if (argc == 4 && !strcmp(argv[1], "read"))
		return do_read(argv[2], atoll(argv[3]), buf);
	if (argc == 4 && !strcmp(argv[1], "sysfs"))
		return do_sysfs(argv[2], argv[3]);
	fprintf(stderr, "usage: zbwblk write DEV FILE...\n"
		"       zbwblk read DEV BYTES\n"
		"       zbwblk sysfs FILE VALUE\n");
	return 2;
}
