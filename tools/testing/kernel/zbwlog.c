// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbwlog: a swap stream logged by dm-log-writes, captured and replayed
 * (realprog.sh; built static for the guest, and for the host).
 *
 * The log format is the kernel's (drivers/md/dm-log-writes.c,
 * Documentation/admin-guide/device-mapper/log-writes.rst): a super block
 * in the log device's first sector (magic, version, nr_entries,
 * sectorsize), then from the second sector on one entry per logged
 * request: a sector holding the entry (sector, nr_sectors, flags,
 * data_len; a mark's text follows it in that sector) and, for a write,
 * nr_sectors sectors of its data. Sectors are the data device's logical
 * blocks (sectorsize bytes). Entries are in the order the requests
 * completed, flushed: the order of the swap stream.
 *
 * Capture (in the guest, no dmsetup there; the device-mapper ioctls):
 *   zbwlog create NAME DEV LOGDEV   a log-writes device over DEV, logging
 *                                   to LOGDEV; prints its node, /dev/dm-N
 *   zbwlog mark NAME TEXT           a mark entry in the log
 *   zbwlog status NAME              "<entries> <highest log sector>"
 *   zbwlog remove NAME              removes it (the target logs what is
 *                                   still pending and a last mark)
 *   zbwlog flush DEV MS STOPFILE    fsync(DEV) every MS ms until STOPFILE
 *                                   exists: dm-log-writes logs a write
 *                                   only at the next flush, and keeps a
 *                                   copy of it in memory until then
 * Reading (host or guest):
 *   zbwlog info LOG                 counts, and bytes=: the log's length
 *   zbwlog cut LOG OUT [SKIP]       every page written, in log order, to
 *                                   OUT (pages of the first SKIP pages of
 *                                   the device, e.g. 1: the swap header,
 *                                   left out)
 *   zbwlog replay LOG DEV [-s N] [-r N] [-S SYSDIR] [-c FILE] [-v]
 *	Writes every logged write to DEV (a zram device) at its offset with
 *	O_DIRECT and every discard as BLKDISCARD, in log order, pinned to
 *	CPU 0 (zram's per-CPU streams: the same stream every time). Every N
 *	pages written (-s, 64) it reads SYSDIR/mm_stat (SYSDIR:
 *	/sys/block/NAME) and keeps the sample where mem_used_total was
 *	largest; with -r N, every N pages written a recompression round runs
 *	as realprog's live loop does: "type=huge" and "type=idle" into
 *	recompress, then "all" into idle (a fixed schedule in log time).
 *	Right after the log's last write (before the frees that follow a
 *	program's exit) it notes mm_stat, copies the zsmalloc size-class
 *	table (-c FILE, from debugfs) and reads every page still stored back
 *	with O_DIRECT, page by page, timing each read (p50/p99) and
 *	comparing it with the log's data (-v: mismatches are an error).
 *	Prints one line "zbwlog-replay: KEY=VALUE ..."; mm_stat lines are
 *	its nine fields joined by commas.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/dm-ioctl.h>
#include <linux/fs.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define LOG_FLUSH	(1 << 0)
#define LOG_FUA		(1 << 1)
#define LOG_DISCARD	(1 << 2)
#define LOG_MARK	(1 << 3)
#define LOG_MAGIC	0x6a736677736872ULL
#define PG		4096

struct lw_super {
	uint64_t magic, version, nr_entries;
	uint32_t sectorsize;
} __attribute__((packed));

struct lw_entry {
	uint64_t sector, nr_sectors, flags, data_len;
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "zbwlog: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "%s%s\n", errno ? ": " : "", errno ? strerror(errno) : "");
	exit(1);
}

/* ---- device-mapper ioctls ---------------------------------------------- */

static char dmbuf[16384] __attribute__((aligned(8)));

static struct dm_ioctl *dm_init(const char *name)
{
	struct dm_ioctl *io = (struct dm_ioctl *)dmbuf;

	memset(dmbuf, 0, sizeof(dmbuf));
	io->version[0] = DM_VERSION_MAJOR;
	io->data_size = sizeof(dmbuf);
	io->data_start = sizeof(*io);
	snprintf(io->name, sizeof(io->name), "%s", name);
	return io;
}

static void dm_call(unsigned long cmd, struct dm_ioctl *io, const char *what)
{
	int fd = open("/dev/mapper/control", O_RDWR);

	if (fd < 0)
		die("%s", "/dev/mapper/control");
	if (ioctl(fd, cmd, io) < 0)
		die("device-mapper %s failed", what);
	close(fd);
}

static uint64_t dev_bytes(const char *dev)
{
	uint64_t n = 0;
	int fd = open(dev, O_RDONLY);

	if (fd < 0 || ioctl(fd, BLKGETSIZE64, &n) < 0)
		die("%s: size", dev);
	close(fd);
	return n;
}

static int dm_create(const char *name, const char *dev, const char *logdev)
{
	struct dm_ioctl *io = dm_init(name);
	struct dm_target_spec *t;
	unsigned int mn;

	dm_call(DM_DEV_CREATE, io, "create");
	mn = minor(io->dev);
	io = dm_init(name);
	io->target_count = 1;
	t = (struct dm_target_spec *)(dmbuf + io->data_start);
	t->sector_start = 0;
	t->length = dev_bytes(dev) >> 9;
	snprintf(t->target_type, sizeof(t->target_type), "log-writes");
	snprintf((char *)(t + 1), 512, "%s %s", dev, logdev);
	t->next = sizeof(*t) + ((strlen((char *)(t + 1)) + 8) & ~7);
	dm_call(DM_TABLE_LOAD, io, "table load");
	io = dm_init(name);		/* no DM_SUSPEND_FLAG: resume */
	dm_call(DM_DEV_SUSPEND, io, "resume");
	printf("/dev/dm-%u\n", mn);
	return 0;
}

static int dm_mark(const char *name, const char *text)
{
	struct dm_ioctl *io = dm_init(name);
	struct dm_target_msg *m = (struct dm_target_msg *)(dmbuf + io->data_start);

	m->sector = 0;
	snprintf(m->message, 400, "mark %s", text);
	dm_call(DM_TARGET_MSG, io, "message");
	return 0;
}

static int dm_status(const char *name)
{
	struct dm_ioctl *io = dm_init(name);
	struct dm_target_spec *t;

	dm_call(DM_TABLE_STATUS, io, "status");
	if (io->target_count != 1)
		die("%s: no table", name);
	t = (struct dm_target_spec *)(dmbuf + io->data_start);
	printf("%s\n", (char *)(t + 1));
	return 0;
}

static int dm_remove(const char *name)
{
	dm_call(DM_DEV_REMOVE, dm_init(name), "remove");
	return 0;
}

static int flush_loop(const char *dev, int ms, const char *stop)
{
	int fd = open(dev, O_RDONLY);
	struct timespec t = { ms / 1000, (ms % 1000) * 1000000L };

	if (fd < 0)
		die("%s", dev);
	for (;;) {
		int last = access(stop, F_OK) == 0;

		if (fsync(fd) < 0)
			die("fsync %s", dev);
		if (last)
			return 0;
		nanosleep(&t, NULL);
	}
}

/* ---- the log ----------------------------------------------------------- */

struct rec {
	uint64_t pos;		/* of the entry in the log (bytes) */
	uint64_t off, len;	/* on the device (bytes) */
	uint32_t flags;
};

struct log {
	int fd;
	uint32_t ss;
	uint64_t n, bytes;
	struct rec *r;
	uint64_t writes, wpages, discards, dpages, flushes, marks, other;
};

static void log_open(struct log *l, const char *path)
{
	struct lw_super s;
	char sec[4096];
	uint64_t i, pos;

	memset(l, 0, sizeof(*l));
	l->fd = open(path, O_RDONLY);
	if (l->fd < 0)
		die("%s", path);
	if (pread(l->fd, &s, sizeof(s), 0) != sizeof(s) || s.magic != LOG_MAGIC || s.version != 1)
		die("%s: not a dm-log-writes log (magic, version 1)", path);
	l->ss = s.sectorsize;
	if (l->ss < 512 || l->ss > sizeof(sec) || (l->ss & (l->ss - 1)))
		die("%s: odd sectorsize", path);
	l->r = calloc(s.nr_entries + 1, sizeof(*l->r));
	if (!l->r)
		die("%s", "out of memory");
	pos = l->ss;
	for (i = 0; i < s.nr_entries; i++) {
		struct lw_entry e;
		struct rec *r = &l->r[l->n];

		if (pread(l->fd, sec, l->ss, pos) != (ssize_t)l->ss)
			die("%s: truncated log", path);
		memcpy(&e, sec, sizeof(e));
		r->pos = pos;
		r->off = e.sector * l->ss;
		r->len = e.nr_sectors * l->ss;
		r->flags = e.flags;
		pos += l->ss;
		if (e.flags & LOG_MARK) {
			l->marks++;
		} else if (e.flags & LOG_DISCARD) {
			l->discards++;
			l->dpages += r->len / PG;
		} else if (e.nr_sectors) {
			l->writes++;
			l->wpages += r->len / PG;
			pos += r->len;
		} else if (e.flags & LOG_FLUSH) {
			l->flushes++;
		} else {
			l->other++;
		}
		l->n++;
	}
	l->bytes = pos;
}

static int is_write(const struct rec *r)
{
	return !(r->flags & (LOG_MARK | LOG_DISCARD)) && r->len;
}

static int log_info(const char *path)
{
	struct log l;
	uint64_t i, last = 0;
	char text[4096];

	log_open(&l, path);
	for (i = 0; i < l.n; i++) {
		if (l.r[i].flags & LOG_MARK) {
			ssize_t n = pread(l.fd, text, l.ss, l.r[i].pos);

			if (n == (ssize_t)l.ss) {
				text[l.ss - 1] = 0;
				printf("mark %" PRIu64 " %s\n", i, text + sizeof(struct lw_entry));
			}
		}
		if (is_write(&l.r[i]))
			last = i;
	}
	printf("entries=%" PRIu64 " writes=%" PRIu64 " wpages=%" PRIu64 " discards=%" PRIu64
	       " dpages=%" PRIu64 " flushes=%" PRIu64 " marks=%" PRIu64 " other=%" PRIu64
	       " last_write=%" PRIu64 " sectorsize=%u bytes=%" PRIu64 "\n",
	       l.n, l.writes, l.wpages, l.discards, l.dpages, l.flushes, l.marks, l.other,
	       last, l.ss, l.bytes);
	return 0;
}

static int log_cut(const char *path, const char *outp, uint64_t skip)
{
	struct log l;
	uint64_t i, p, n = 0, zero = 0, skipped = 0, odd = 0;
	static char page[PG], zpage[PG];
	FILE *out;

	log_open(&l, path);
	out = fopen(outp, "w");
	if (!out)
		die("%s", outp);
	for (i = 0; i < l.n; i++) {
		const struct rec *r = &l.r[i];

		if (!is_write(r))
			continue;
		if (r->off % PG || r->len % PG) {
			odd++;
			continue;
		}
		for (p = 0; p < r->len / PG; p++) {
			if (r->off / PG + p < skip) {
				skipped++;
				continue;
			}
			if (pread(l.fd, page, PG, r->pos + l.ss + p * PG) != PG)
				die("%s: short read", path);
			if (!memcmp(page, zpage, PG))
				zero++;
			if (fwrite(page, PG, 1, out) != 1)
				die("%s", outp);
			n++;
		}
	}
	if (fclose(out))
		die("%s", outp);
	printf("pages=%" PRIu64 " zero=%" PRIu64 " skipped=%" PRIu64 " unaligned=%" PRIu64 "\n",
	       n, zero, skipped, odd);
	return 0;
}

/* ---- replay ------------------------------------------------------------ */

static char sysdir[256];

static int read_mm(uint64_t v[9])
{
	char path[300], buf[512];
	int fd, n, i;
	char *s = buf, *e;

	snprintf(path, sizeof(path), "%s/mm_stat", sysdir);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die("%s", path);
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		die("%s", path);
	buf[n] = 0;
	for (i = 0; i < 9; i++) {
		v[i] = strtoull(s, &e, 10);
		if (e == s)
			v[i] = 0;
		s = e;
	}
	return 0;
}

static void fmt_mm(char *out, const uint64_t v[9])
{
	int i, k = 0;

	for (i = 0; i < 9; i++)
		k += sprintf(out + k, "%s%" PRIu64, i ? "," : "", v[i]);
}

static int sys_write(const char *attr, const char *val)
{
	char path[300];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", sysdir, attr);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

static double now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	if (in < 0)
		return;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out >= 0) {
		while ((n = read(in, buf, sizeof(buf))) > 0)
			if (write(out, buf, n) != n)
				break;
		close(out);
	}
	close(in);
}

static int replay(int argc, char **argv)
{
	const char *logp = argv[2], *dev = argv[3], *classes = NULL;
	uint64_t sample = 64, recomp = 0, i, p, last = 0, npages, since_s = 0, since_r = 0;
	uint64_t mm[9], peak[9] = { 0 }, atlast[9] = { 0 }, maxorig = 0, rounds = 0, rfail = 0;
	uint64_t odd = 0, derr = 0, live = 0, bad = 0, rerr = 0, *where;
	double wus = 0, rus = 0, t, *lat;
	int verify = 0, fd, opt;
	char *buf, *ref, s1[300], s2[300], s3[300];
	struct log l;
	cpu_set_t cpus;

	optind = 4;
	snprintf(sysdir, sizeof(sysdir), "/sys/block/%s", strrchr(dev, '/') ? strrchr(dev, '/') + 1 : dev);
	while ((opt = getopt(argc, argv, "s:r:S:c:v")) != -1) {
		switch (opt) {
		case 's': sample = strtoull(optarg, NULL, 0); break;
		case 'r': recomp = strtoull(optarg, NULL, 0); break;
		case 'S': snprintf(sysdir, sizeof(sysdir), "%s", optarg); break;
		case 'c': classes = optarg; break;
		case 'v': verify = 1; break;
		default: die("%s", "usage: zbwlog replay LOG DEV [-s N] [-r N] [-S SYSDIR] [-c FILE] [-v]");
		}
	}
	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		die("%s", "sched_setaffinity");
	log_open(&l, logp);
	fd = open(dev, O_RDWR | O_DIRECT);
	if (fd < 0)
		die("%s", dev);
	npages = dev_bytes(dev) / PG;
	/* where[slot]: 1 + the log index of the write the slot holds, 0: none. */
	where = calloc(npages, sizeof(*where));
	if (posix_memalign((void **)&buf, PG, 1 << 20) || posix_memalign((void **)&ref, PG, PG) || !where)
		die("%s", "out of memory");
	for (i = 0; i < l.n; i++)
		if (is_write(&l.r[i]))
			last = i;
	for (i = 0; i < l.n; i++) {
		const struct rec *r = &l.r[i];

		if (r->flags & LOG_MARK || !r->len)
			continue;
		if (r->off % PG || r->len % PG || r->off + r->len > npages * PG) {
			odd++;
			continue;
		}
		if (r->flags & LOG_DISCARD) {
			uint64_t range[2] = { r->off, r->len };

			if (ioctl(fd, BLKDISCARD, range))
				derr++;
			for (p = 0; p < r->len / PG; p++)
				where[r->off / PG + p] = 0;
			continue;
		}
		for (p = 0; p < r->len; p += 1 << 20) {
			uint64_t n = r->len - p < (1 << 20) ? r->len - p : (1 << 20);

			if (pread(l.fd, buf, n, r->pos + l.ss + p) != (ssize_t)n)
				die("%s: short read", logp);
			t = now_us();
			if (pwrite(fd, buf, n, r->off + p) != (ssize_t)n)
				die("%s: write", dev);
			wus += now_us() - t;
		}
		for (p = 0; p < r->len / PG; p++)
			where[r->off / PG + p] = i + 1;
		since_s += r->len / PG;
		since_r += r->len / PG;
		if (since_s >= sample || i == last) {
			since_s = 0;
			read_mm(mm);
			if (mm[2] > peak[2])
				memcpy(peak, mm, sizeof(mm));
			if (mm[0] > maxorig)
				maxorig = mm[0];
		}
		if (recomp && since_r >= recomp) {
			since_r = 0;
			rounds++;
			rfail += sys_write("recompress", "type=huge") < 0;
			rfail += sys_write("recompress", "type=idle") < 0;
			rfail += sys_write("idle", "all") < 0;
		}
		if (i != last)
			continue;
		/* Right after the last write: the state, the classes, read back. */
		read_mm(atlast);
		if (classes) {
			snprintf(s1, sizeof(s1), "/sys/kernel/debug/zsmalloc/%s/classes", strrchr(sysdir, '/') + 1);
			copy_file(s1, classes);
		}
		for (p = 0; p < npages; p++)
			live += where[p] != 0;
		lat = calloc(live + 1, sizeof(*lat));
		live = 0;
		for (p = 0; p < npages; p++) {
			const struct rec *w;

			if (!where[p])
				continue;
			t = now_us();
			if (pread(fd, buf, PG, p * PG) != PG) {
				rerr++;
				continue;
			}
			lat[live] = now_us() - t;
			rus += lat[live++];
			w = &l.r[where[p] - 1];
			if (verify) {
				if (pread(l.fd, ref, PG, w->pos + l.ss + (p * PG - w->off)) != PG)
					die("%s: short read", logp);
				bad += memcmp(buf, ref, PG) != 0;
			}
		}
		qsort(lat, live, sizeof(*lat), cmp_d);
		snprintf(s3, sizeof(s3), "read_pages=%" PRIu64 " read_us=%.0f p50_us=%.1f p99_us=%.1f",
			 live, rus, live ? lat[live / 2] : 0, live ? lat[live * 99 / 100] : 0);
		free(lat);
	}
	read_mm(mm);
	fmt_mm(s1, peak);
	fmt_mm(s2, atlast);
	printf("zbwlog-replay: entries=%" PRIu64 " wpages=%" PRIu64 " discards=%" PRIu64
	       " unaligned=%" PRIu64 " discard_err=%" PRIu64 " rounds=%" PRIu64 " round_err=%" PRIu64
	       " write_us=%.0f %s read_err=%" PRIu64 " mismatch=%s max_orig=%" PRIu64 " peak=%s last=%s",
	       l.n, l.wpages, l.discards, odd, derr, rounds, rfail, wus, l.writes ? s3 : "read_pages=0",
	       rerr, verify ? (bad ? "yes" : "0") : "-", maxorig, s1, s2);
	fmt_mm(s1, mm);
	printf(" end=%s\n", s1);
	if (verify && bad)
		fprintf(stderr, "zbwlog: %" PRIu64 " pages read back differ from the log\n", bad);
	return (verify && bad) || rerr || odd ? 1 : 0;
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : "";

	if (!strcmp(c, "create") && argc == 5)
		return dm_create(argv[2], argv[3], argv[4]);
	if (!strcmp(c, "mark") && argc == 4)
		return dm_mark(argv[2], argv[3]);
	if (!strcmp(c, "status") && argc == 3)
		return dm_status(argv[2]);
	if (!strcmp(c, "remove") && argc == 3)
		return dm_remove(argv[2]);
	if (!strcmp(c, "flush") && argc == 5)
		return flush_loop(argv[2], atoi(argv[3]), argv[4]);
	if (!strcmp(c, "info") && argc == 3)
		return log_info(argv[2]);
	if (!strcmp(c, "cut") && (argc == 4 || argc == 5))
		return log_cut(argv[2], argv[3], argc == 5 ? strtoull(argv[4], NULL, 0) : 0);
	if (!strcmp(c, "replay") && argc >= 4)
		return replay(argc, argv);
	fprintf(stderr, "usage: zbwlog create NAME DEV LOGDEV | mark NAME TEXT | status NAME | remove NAME\n"
		"       zbwlog flush DEV MS STOPFILE | info LOG | cut LOG OUT [SKIP]\n"
		"       zbwlog replay LOG DEV [-s N] [-r N] [-S SYSDIR] [-c FILE] [-v]\n");
	return 2;
}
