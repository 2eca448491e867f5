// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbwmem: memory workload for the booted-kernel tests (built static, runs as
 * the guest's only program besides busybox).
 *
 *   zbwmem fill MIB [PROCS [ROUNDS [STATFILE...]]]
 *	PROCS processes (default 2) each map MIB/PROCS of anonymous memory,
 *	fill every page with a pattern derived from its index, push it out
 *	with MADV_PAGEOUT once all have filled, and (after the STATFILEs are
 *	printed) read every page back and compare it with the pattern
 *	regenerated.  ROUNDS (default 1) repeats this with new patterns.
 *	Prints "zbwmem: verified=N mismatched=M"; exits 1 on any mismatch or
 *	a child that died (OOM kill, signal).  With ZBWMEM_HOLD=PATH in the
 *	environment it waits after the page-out until PATH exists, with the
 *	pages out, so that something can be done to them before the verify.
 *   zbwmem blk DEV MIB [PROCS [ROUNDS [STATFILE...]]]
 *	PROCS processes (default 2), process i pinned to CPU i (modulo the
 *	CPUs online), each write their share of the block device DEV's first
 *	MIB MiB with O_DIRECT, 64 KiB a write, pages of the patterns below,
 *	fsync; once all have written, each reads its share back with
 *	O_DIRECT and compares every page (a chunk that fails to read is read
 *	again page by page; a page that fails counts as a read error).
 *	ROUNDS (default 1) repeats this with new patterns; after each the
 *	counts so far and the STATFILEs are printed.  Prints
 *	"zbwmem: blk verified=N mismatched=M readerr=E"; exits 1 on any
 *	mismatch, read or write error or a child that died.
 *   zbwmem files DIR MIB
 *	Writes DIR/{text,float,random,zero}.dat, MIB/4 each.
 *   zbwmem check DIR MIB
 *	Compares those files with the patterns; exits 1 on a difference.
 *   zbwmem dump KIND PAGES
 *	Writes PAGES pages of one kind to stdout (to measure compressors).
 *   zbwmem pagesize
 *	Prints the kernel's page size (busybox has no getconf).
 *
 * Patterns mix what zram sees in practice: zero pages, random (stored
 * uncompressed), text, float32 fields (smooth and quantised), sparse pages
 * and integer counters.  Every non-zero page starts with its index and
 * seed, so a page read back at the wrong place is a mismatch too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <sched.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

#define PAGE 4096
enum { K_ZERO, K_RANDOM, K_TEXT, K_FLOAT, K_RAMP, K_SPARSE, K_INT, NR_KINDS };
static const char *const kind_name[NR_KINDS] = {
	"zero", "random", "text", "float", "ramp", "sparse", "int"
};

/*
 * Share of each kind in sixteenths. Even lz4 must keep the stored set small
 * enough for a 256 MiB guest, so random and smooth floats are rare.
 */
static const int kind_of_slot[16] = {
	K_ZERO, K_ZERO, K_ZERO, K_RANDOM, K_TEXT, K_TEXT, K_TEXT, K_TEXT,
	K_FLOAT, K_RAMP, K_RAMP, K_SPARSE, K_SPARSE, K_SPARSE, K_INT, K_INT,
};

static uint64_t mix(uint64_t x)		/* splitmix64 */
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/*
 * 4 KiB blocks per kernel page. One kind per kernel page, so that a 64 KiB
 * page of random bytes is stored whole (huge) there as a 4 KiB one is here.
 */
static size_t kind_span = 1;

static int page_kind(uint64_t seed, uint64_t idx)
{
	return kind_of_slot[mix(seed * 0x100000001b3ull ^ (idx / kind_span)) & 15];
}

static const char *const words[] = {
	"zram", "page", "swap", "the", "compressed", "memory", "of", "a",
	"kernel", "float", "matrix", "and", "lz4", "zstd", "zbewalgo", "is",
	"stored", "in", "zsmalloc", "pool", "with", "huge", "class", "size",
};

/* Fills one page of @kind; @seed and @idx make it unique. */
static void gen_page(unsigned char *p, int kind, uint64_t seed, uint64_t idx)
{
	uint64_t r = mix(seed ^ mix(idx));
	uint64_t *q = (uint64_t *)p;
	float *f = (float *)p;
	uint32_t *u = (uint32_t *)p;
	int i, n;

	memset(p, 0, PAGE);
	if (kind == K_ZERO)
		return;
	switch (kind) {
	case K_RANDOM:
		for (i = 0; i < PAGE / 8; i++) {
			r = mix(r);
			q[i] = r;
		}
		break;
	case K_TEXT:
		n = 0;
		while (n < PAGE) {
			const char *w = words[(r = mix(r)) % 24];
			size_t l = strlen(w);

			if (n + l + 1 > PAGE)
				break;
			memcpy(p + n, w, l);
			n += l;
			p[n++] = (r >> 40) % 11 ? ' ' : '\n';
		}
		break;
	case K_FLOAT: {	/* a smooth field, as simulations write */
		double a = 1 + (r & 1023), w = ((r >> 10) & 255) / 4096.0 + 0.001;
		double ph = (r >> 20) & 63;

		for (i = 0; i < PAGE / 4; i++)
			f[i] = (float)(a * sin(ph + w * i) + a * 0.5 * cos(w * 0.37 * i));
		break;
	}
	case K_RAMP:	/* quantised readings: each value held a few samples */
		for (i = 0; i < PAGE / 4; i++)
			f[i] = (float)((r & 255) + (double)(i / 4 * ((r >> 8) % 7 + 1)) / 16);
		break;
	case K_SPARSE:	/* a sparse matrix row: mostly zero doubles */
		for (i = 0; i < 24; i++) {
			r = mix(r);
			((double *)p)[r % (PAGE / 8)] = (double)(r >> 40) / 1024;
		}
		break;
	case K_INT:	/* small counters and indices, often repeated */
		u[0] = r & 1023;
		for (i = 1; i < PAGE / 4; i++) {
			r = mix(r);
			u[i] = r & 3 ? u[i - 1] : u[i - 1] + (uint32_t)(r >> 60);
		}
		break;
	}
	/* A tag that places the page: index and seed. */
	q[0] = idx;
	q[1] = seed;
}

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

struct tally {
	unsigned long pages, verified, mismatched, kinds[NR_KINDS];
	unsigned long readerr, writeerr;
};

/* Compares one page; reports the first few mismatches in detail. */
static void check_page(const unsigned char *got, int kind, uint64_t seed,
		       uint64_t idx, struct tally *t, const char *who)
{
	unsigned char want[PAGE];
	int off;

	gen_page(want, kind, seed, idx);
	t->pages++;
	t->kinds[kind]++;
	if (!memcmp(got, want, PAGE)) {
		t->verified++;
		return;
	}
	if (t->mismatched++ < 10) {
		for (off = 0; got[off] == want[off]; off++)
			;
		printf("zbwmem: MISMATCH %s page %llu (%s seed %llu) byte %d: got %02x want %02x\n",
		       who, (unsigned long long)idx, kind_name[kind],
		       (unsigned long long)seed, off, got[off], want[off]);
	}
}

static void cat_file(const char *path)
{
	char buf[512], *p;
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f) {
		printf("zbwmem: stat %s: %s\n", path, strerror(errno));
		return;
	}
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	while (n && buf[n - 1] == '\n')
		buf[--n] = 0;
	/* One line (debug_stat has two). */
	for (p = buf; (p = strchr(p, '\n')); )
		*p = ' ';
	printf("zbwmem: stat %s: %s\n", path, buf);
}

/* One child: fill, barrier, verify, for each round. */
static void child(int id, size_t pages, int rounds, int done_fd, int go_fd,
		  struct tally *t)
{
	unsigned char *m = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char who[16], c;
	int r;

	if (m == MAP_FAILED) {
		perror("zbwmem: mmap");
		_exit(2);
	}
	snprintf(who, sizeof(who), "proc%d", id);
	for (r = 0; r < rounds; r++) {
		uint64_t seed = (uint64_t)r << 16 | id;
		size_t i;

		for (i = 0; i < pages; i++)
			gen_page(m + i * PAGE, page_kind(seed, i), seed, i);
		if (write(done_fd, "f", 1) != 1 || read(go_fd, &c, 1) != 1)
			_exit(2);
		/*
		 * Once all have filled, push out what reclaim left, so every
		 * run swaps about the same set.  Without it (no
		 * CONFIG_ADVISE_SYSCALLS) memory pressure alone decides.
		 */
		if (madvise(m, pages * PAGE, MADV_PAGEOUT) && id == 0 && r == 0)
			printf("zbwmem: MADV_PAGEOUT: %s\n", strerror(errno));
		if (write(done_fd, "p", 1) != 1 || read(go_fd, &c, 1) != 1)
			_exit(2);
		for (i = 0; i < pages; i++)
			check_page(m + i * PAGE, page_kind(seed, i), seed, i, t, who);
		if (write(done_fd, "v", 1) != 1 || read(go_fd, &c, 1) != 1)
			_exit(2);
	}
	_exit(t->mismatched ? 1 : 0);
}

static pid_t pids[64];
static int gofd[64];		/* one pipe per child: a token is for that child */
static int nprocs;

/*
 * Waits for one byte from each child.  A child that dies (the OOM killer)
 * never writes, and the others keep the pipe open: poll and look for it.
 */
static int collect(int fd)
{
	int got = 0, i, st;
	char c;

	while (got < nprocs) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };

		if (poll(&pfd, 1, 1000) > 0) {
			if (read(fd, &c, 1) != 1)
				return -1;
			got++;
			continue;
		}
		for (i = 0; i < nprocs; i++) {
			if (pids[i] > 0 && waitpid(pids[i], &st, WNOHANG) == pids[i]) {
				printf("zbwmem: proc%d ended early (status 0x%x)\n", i, st);
				pids[i] = 0;
				return -1;
			}
		}
	}
	return 0;
}

static int release(void)
{
	int i;

	for (i = 0; i < nprocs; i++)
		if (pids[i] > 0 && write(gofd[i], "g", 1) != 1)
			return -1;
	return 0;
}

/*
 * The workers of fill and blk: MIB [PROCS [ROUNDS]] from @args (@nargs of
 * them), then the shared tallies and the "done" pipe.  Returns 0, or 2
 * after a message.
 */
struct workers {
	size_t mib, pages;	/* in all; each worker's */
	int rounds;
	struct tally *t;	/* one per worker, shared */
	int done[2];
};

static int workers_setup(struct workers *w, char **args, int nargs)
{
	long psz = sysconf(_SC_PAGESIZE);

	w->mib = strtoul(args[0], NULL, 0);
	nprocs = nargs > 1 ? atoi(args[1]) : 2;
	w->rounds = nargs > 2 ? atoi(args[2]) : 1;
	if (psz > PAGE)
		kind_span = psz / PAGE;
	if (nprocs < 1 || nprocs > 64 || w->rounds < 1 || !w->mib)
		return fprintf(stderr, "zbwmem: bad arguments\n"), 2;
	w->pages = (w->mib << 20) / PAGE / nprocs;
	w->t = mmap(NULL, sizeof(*w->t) * nprocs, PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (w->t == MAP_FAILED || pipe(w->done))
		return perror("zbwmem: setup"), 2;
	memset(w->t, 0, sizeof(*w->t) * nprocs);
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

static void blk_child(int id, const char *dev, size_t pages, int rounds,
		      int done_fd, int go_fd, struct tally *t);

/* Forks the workers: fill's, or with @dev blk's.  Returns 0 or 2. */
static int workers_start(struct workers *w, const char *dev)
{
	int go[2], i;

	for (i = 0; i < nprocs; i++) {
		if (pipe(go))
			return perror("zbwmem: pipe"), 2;
		pids[i] = fork();
		if (pids[i] == 0) {
			close(w->done[0]);
			close(go[1]);
			if (dev)
				blk_child(i, dev, w->pages, w->rounds, w->done[1],
					  go[0], &w->t[i]);
			child(i, w->pages, w->rounds, w->done[1], go[0], &w->t[i]);
		}
		close(go[0]);
		gofd[i] = go[1];
	}
	close(w->done[1]);
	return 0;
}

/*
 * Waits for the workers (after a failure the survivors would wait forever
 * for the go byte: killed).  Returns @bad, or 1 when one failed.
 */
static int workers_reap(int bad)
{
	int i, st;

	for (i = 0; i < nprocs; i++) {
		if (pids[i] <= 0)
			continue;
		if (bad)
			kill(pids[i], SIGKILL);
		if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st) > 1) {
			printf("zbwmem: proc%d failed (status 0x%x)\n", i, st);
			bad = 1;
		}
	}
	return bad;
}

/* The workers' tallies added up. */
static struct tally workers_sum(const struct workers *w)
{
	struct tally sum = { 0 };
	int i, k;

	for (i = 0; i < nprocs; i++) {
		sum.pages += w->t[i].pages;
		sum.verified += w->t[i].verified;
		sum.mismatched += w->t[i].mismatched;
		sum.readerr += w->t[i].readerr;
		sum.writeerr += w->t[i].writeerr;
		for (k = 0; k < NR_KINDS; k++)
			sum.kinds[k] += w->t[i].kinds[k];
	}
	return sum;
}

static void print_kinds(const struct tally *sum)
{
	int k;

	printf("zbwmem: kinds");
	for (k = 0; k < NR_KINDS; k++)
		printf(" %s=%lu", kind_name[k], sum->kinds[k]);
	printf("\n");
}

static int cmd_fill(int argc, char **argv)
{
	struct workers w;
	struct tally sum;
	int r, k, bad = 0;
	double t0 = now(), t1;
	const char *hold = getenv("ZBWMEM_HOLD");

	if (workers_setup(&w, argv + 2, argc - 2))
		return 2;
	printf("zbwmem: fill %zu MiB in %d processes, %d round(s)\n", w.mib,
	       nprocs, w.rounds);
	if (workers_start(&w, NULL))
		return 2;
	for (r = 0; r < w.rounds && !bad; r++) {
		if (collect(w.done[0])) {
			bad = 1;
			break;
		}
		t1 = now();
		printf("zbwmem: round %d filled %zu MiB in %.1fs\n", r, w.mib, t1 - t0);
		if (release() || collect(w.done[0])) {
			bad = 1;
			break;
		}
		t0 = now();
		printf("zbwmem: round %d paged out in %.1fs\n", r, t0 - t1);
		for (k = 5; k < argc; k++)
			cat_file(argv[k]);
		if (hold) {
			printf("zbwmem: round %d holding until %s exists\n", r, hold);
			while (access(hold, F_OK))
				sleep(1);
		}
		t1 = now();
		if (release() || collect(w.done[0])) {
			bad = 1;
			break;
		}
		t0 = now();
		printf("zbwmem: round %d verified in %.1fs\n", r, t0 - t1);
		bad = release();
	}
	bad = workers_reap(bad);
	sum = workers_sum(&w);
	print_kinds(&sum);
	printf("zbwmem: verified=%lu mismatched=%lu pages=%lu expected=%zu\n",
	       sum.verified, sum.mismatched, sum.pages,
	       w.pages * nprocs * w.rounds);
	if (sum.pages != w.pages * nprocs * w.rounds)
		bad = 1;
	return bad || sum.mismatched ? 1 : 0;
}

#define BLK_CHUNK 16	/* pages a write or read: 64 KiB */

/* Writes pages [first, first + n) of DEV with O_DIRECT, then fsync. */
static void blk_write(int fd, unsigned char *buf, size_t first, size_t n,
		      uint64_t seed, struct tally *t)
{
	size_t i, j, c;

	for (i = 0; i < n; i += c) {
		c = n - i < BLK_CHUNK ? n - i : BLK_CHUNK;
		for (j = 0; j < c; j++)
			gen_page(buf + j * PAGE, page_kind(seed, i + j), seed, i + j);
		if (pwrite(fd, buf, c * PAGE, (off_t)(first + i) * PAGE) != (ssize_t)(c * PAGE) &&
		    t->writeerr++ < 10)
			printf("zbwmem: blk write at page %zu: %s\n", first + i, strerror(errno));
	}
	if (fsync(fd) && t->writeerr++ < 10)
		printf("zbwmem: blk fsync: %s\n", strerror(errno));
}

/* Reads them back with O_DIRECT and compares every page. */
static void blk_verify(int fd, unsigned char *buf, size_t first, size_t n,
		       uint64_t seed, struct tally *t, const char *who)
{
	size_t i, j, c;

	for (i = 0; i < n; i += c) {
		c = n - i < BLK_CHUNK ? n - i : BLK_CHUNK;
		if (pread(fd, buf, c * PAGE, (off_t)(first + i) * PAGE) == (ssize_t)(c * PAGE)) {
			for (j = 0; j < c; j++)
				check_page(buf + j * PAGE, page_kind(seed, i + j), seed,
					   i + j, t, who);
			continue;
		}
		/* A page that does not decompress fails the whole read. */
		for (j = 0; j < c; j++) {
			if (pread(fd, buf, PAGE, (off_t)(first + i + j) * PAGE) == PAGE) {
				check_page(buf, page_kind(seed, i + j), seed, i + j, t, who);
				continue;
			}
			t->pages++;
			if (t->readerr++ < 10)
				printf("zbwmem: blk read %s page %zu: %s\n", who,
				       first + i + j, strerror(errno));
		}
	}
}

/* One writer: pinned to a CPU, its share of the device, each round. */
static void blk_child(int id, const char *dev, size_t pages, int rounds,
		      int done_fd, int go_fd, struct tally *t)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned char *buf;
	cpu_set_t set;
	char who[16], c;
	int fd, r;

	CPU_ZERO(&set);
	CPU_SET(ncpu > 0 ? id % ncpu : 0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		printf("zbwmem: proc%d: sched_setaffinity: %s\n", id, strerror(errno));
	fd = open(dev, O_RDWR | O_DIRECT);
	if (fd < 0 || posix_memalign((void **)&buf, PAGE, BLK_CHUNK * PAGE)) {
		printf("zbwmem: %s: %s\n", dev, strerror(errno));
		_exit(2);
	}
	snprintf(who, sizeof(who), "proc%d", id);
	for (r = 0; r < rounds; r++) {
		uint64_t seed = (uint64_t)(r + 100) << 16 | id;

		blk_write(fd, buf, id * pages, pages, seed, t);
		if (write(done_fd, "w", 1) != 1 || read(go_fd, &c, 1) != 1)
			_exit(2);
		blk_verify(fd, buf, id * pages, pages, seed, t, who);
		if (write(done_fd, "v", 1) != 1 || read(go_fd, &c, 1) != 1)
			_exit(2);
	}
	_exit(t->mismatched || t->readerr || t->writeerr ? 1 : 0);
}

static int cmd_blk(int argc, char **argv)
{
	struct workers w;
	struct tally sum;
	int r, k, bad = 0;
	double t0 = now();

	if (argc < 4 || workers_setup(&w, argv + 3, argc - 3))
		return 2;
	printf("zbwmem: blk %s %zu MiB in %d processes, %d round(s)\n", argv[2],
	       w.mib, nprocs, w.rounds);
	if (workers_start(&w, argv[2]))
		return 2;
	for (r = 0; r < w.rounds && !bad; r++) {
		/* All have written before any reads: a write overrunning its
		 * object lands in pages that are verified after it. */
		if (collect(w.done[0]) || release() || collect(w.done[0])) {
			bad = 1;
			break;
		}
		sum = workers_sum(&w);
		printf("zbwmem: blk round %d in %.1fs: verified=%lu mismatched=%lu readerr=%lu writeerr=%lu\n",
		       r, now() - t0, sum.verified, sum.mismatched, sum.readerr, sum.writeerr);
		for (k = 6; k < argc; k++)
			cat_file(argv[k]);
		t0 = now();
		bad = release();
	}
	bad = workers_reap(bad);
	sum = workers_sum(&w);
	print_kinds(&sum);
	printf("zbwmem: blk verified=%lu mismatched=%lu readerr=%lu writeerr=%lu pages=%lu expected=%zu\n",
	       sum.verified, sum.mismatched, sum.readerr, sum.writeerr, sum.pages,
	       w.pages * nprocs * w.rounds);
	if (sum.pages != w.pages * nprocs * w.rounds)
		bad = 1;
	return bad || sum.mismatched || sum.readerr || sum.writeerr ? 1 : 0;
}

/* The data set of the filesystem check: one file per kind. */
static const int file_kinds[] = { K_TEXT, K_FLOAT, K_RANDOM, K_ZERO };
static const char *const file_names[] = { "text", "float", "random", "zero" };

static int cmd_files(char **argv, int check)
{
	size_t pages = (strtoul(argv[3], NULL, 0) << 20) / PAGE / 4;
	unsigned char buf[PAGE], want[PAGE];
	struct tally t = { 0 };
	char path[4096];
	int f;
	size_t i;

	for (f = 0; f < 4; f++) {
		FILE *fp;

		snprintf(path, sizeof(path), "%s/%s.dat", argv[2], file_names[f]);
		fp = fopen(path, check ? "r" : "w");
		if (!fp)
			return perror(path), 2;
		for (i = 0; i < pages; i++) {
			if (!check) {
				gen_page(want, file_kinds[f], 1000 + f, i);
				if (fwrite(want, PAGE, 1, fp) != 1)
					return perror(path), 2;
			} else if (fread(buf, PAGE, 1, fp) == 1) {
				check_page(buf, file_kinds[f], 1000 + f, i, &t, path);
			} else {
				printf("zbwmem: %s: short at page %zu\n", path, i);
				return 1;
			}
		}
		if (fclose(fp))
			return perror(path), 2;
	}
	if (check)
		printf("zbwmem: files verified=%lu mismatched=%lu\n", t.verified, t.mismatched);
	return t.mismatched ? 1 : 0;
}

/* zbwmem dump KIND PAGES: pages of one kind on stdout, to measure compressors. */
static int cmd_dump(char **argv)
{
	unsigned char p[PAGE];
	long i, n = atol(argv[3]);
	int k;

	for (k = 0; k < NR_KINDS && strcmp(argv[2], kind_name[k]); k++)
		;
	if (k == NR_KINDS)
		return fprintf(stderr, "zbwmem: unknown kind %s\n", argv[2]), 2;
	for (i = 0; i < n; i++) {
		gen_page(p, k, 7, i);
		if (fwrite(p, PAGE, 1, stdout) != 1)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "dump"))
		return cmd_dump(argv);
	if (argc >= 3 && !strcmp(argv[1], "fill"))
		return cmd_fill(argc, argv);
	if (argc >= 4 && !strcmp(argv[1], "blk"))
		return cmd_blk(argc, argv);
	if (argc == 4 && !strcmp(argv[1], "files"))
		return cmd_files(argv, 0);
	if (argc == 4 && !strcmp(argv[1], "check"))
		return cmd_files(argv, 1);
	if (argc == 2 && !strcmp(argv[1], "pagesize"))
		return printf("%ld\n", sysconf(_SC_PAGESIZE)) < 0;
	fprintf(stderr, "usage: zbwmem fill MIB [PROCS [ROUNDS [STATFILE...]]]\n"
		"       zbwmem blk DEV MIB [PROCS [ROUNDS [STATFILE...]]]\n"
		"       zbwmem files|check DIR MIB\n"
		"       zbwmem dump KIND PAGES\n"
		"       zbwmem pagesize\n");
	return 2;
}
