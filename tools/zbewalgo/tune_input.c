// SPDX-License-Identifier: GPL-2.0-only
/*
 * zbewalgo tune: reading pages from files, block devices and process
 * memory, and taking the deterministic sample (see tune.c).
 */
#include "tune.h"

/* ---- reading pages ------------------------------------------------------- */

static int add_extent(struct source *s, unsigned long long off, size_t n)
{
	struct extent *e;

	e = tune_grow(s->ext, &s->cap, s->next + 1, sizeof(*e));
	if (!e)
		return -1;
	s->ext = e;
	e[s->next].off = off;
	e[s->next].first = s->npages;
	e[s->next].n = n;
	s->next++;
	s->npages += n;
	return 0;
}

int tune_open_path(struct source *s, const char *path, size_t page)
{
	struct stat st;
	FILE *f;

	s->fd = -1;
	s->name = strcmp(path, "-") ? path : "stdin";
	if (strcmp(path, "-")) {
		s->fd = open(path, O_RDONLY);
		if (s->fd < 0) {
			fprintf(stderr, "zbewalgo: %s: %s\n", path,
				strerror(errno));
			return -1;
		}
		if (!fstat(s->fd, &st) &&
		    (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) {
			off_t end = lseek(s->fd, 0, SEEK_END);

			if (end < 0) {
				fprintf(stderr, "zbewalgo: %s: %s\n", path,
					strerror(errno));
				return -1;
			}
			s->len = end;
			return add_extent(s, 0, (s->len + page - 1) / page);
		}
	}
	/* A pipe or character device: read it whole. */
	f = s->fd >= 0 ? fdopen(s->fd, "rb") : stdin;
	if (!f) {
		fprintf(stderr, "zbewalgo: %s: %s\n", path, strerror(errno));
		return -1;
	}
	{
		size_t len;
		int err = tool_read_all(f, &s->data, &len);

		if (f != stdin)
			fclose(f);
		s->fd = -1;
		if (err)
			return -1;
		s->len = len;
	}
	return add_extent(s, 0, (s->len + page - 1) / page);
}

/* Mappings whose pages can end up in zram (swap): anonymous memory. */
static bool swappable(const char *perms, const char *path)
{
	static const char *const special[] = {
		"[vvar]", "[vvar_vclock]", "[vdso]", "[vsyscall]",
	};
	static const char *const shmem[] = {
		"/dev/zero", "/SYSV", "/memfd:", "/dev/shm/",
	};
	size_t i;

	if (perms[0] != 'r')
		return false;
	for (i = 0; i < sizeof(special) / sizeof(special[0]); i++)
		if (!strcmp(path, special[i]))
			return false;
	if (!*path || path[0] == '[')
		return true;		/* anonymous, [heap], [stack], [anon:] */
	if (perms[3] == 's') {		/* shared: only shmem is swapped */
		for (i = 0; i < sizeof(shmem) / sizeof(shmem[0]); i++)
			if (!strncmp(path, shmem[i], strlen(shmem[i])))
				return true;
		return false;
	}
	/* private file mapping: written pages (data, bss) are anonymous */
	return perms[1] == 'w';
}

/*
 * Process memory, the way gcore reads it: the mappings of /proc/PID/maps
 * through /proc/PID/mem.  Only pages that are resident or swapped out
 * (/proc/PID/pagemap) are taken: untouched pages never reach zram.
 */
int tune_open_pid(struct source *s, const char *pidstr, size_t page)
{
	long sys = sysconf(_SC_PAGESIZE);
	char path[64], line[4096];
	int pm = -1, ret = -1;
	uint64_t *ent = NULL;
	FILE *maps;

	s->fd = -1;
	s->mem = true;
	snprintf(s->pidname, sizeof(s->pidname), "pid %s", pidstr);
	s->name = s->pidname;
	snprintf(path, sizeof(path), "/proc/%s/maps", pidstr);
	maps = fopen(path, "r");
	if (maps) {
		snprintf(path, sizeof(path), "/proc/%s/mem", pidstr);
		s->fd = open(path, O_RDONLY);
	}
	if (!maps || s->fd < 0) {
		fprintf(stderr, "zbewalgo: %s: %s\n", path, strerror(errno));
		goto out;
	}
	if (sys > 0 && (size_t)sys == page) {
		snprintf(path, sizeof(path), "/proc/%s/pagemap", pidstr);
		pm = open(path, O_RDONLY);
		ent = malloc(4096 * sizeof(*ent));
		if (!ent)
			goto out;
	}
	while (fgets(line, sizeof(line), maps)) {
		unsigned long long lo, hi, a;
		char perms[8] = "", *p;
		int n = 0;

		if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %n", &lo, &hi, perms,
			   &n) < 3)
			continue;
		p = n ? line + n : line + strlen(line);
		p[strcspn(p, "\n")] = '\0';
		if (strlen(perms) < 4 || !swappable(perms, p))
			continue;
		lo = (lo + page - 1) / page * page;
		hi = hi / page * page;
		if (pm < 0) {
			if (hi > lo && add_extent(s, lo, (hi - lo) / page))
				goto out;
			continue;
		}
		for (a = lo; a < hi;) {
			size_t want = (hi - a) / page, i, run = 0;
			ssize_t got;

			if (want > 4096)
				want = 4096;
			got = pread(pm, ent, want * sizeof(*ent),
				    a / page * sizeof(*ent));
			if (got <= 0)
				break;
			want = got / sizeof(*ent);
			/* bit 63: present, bit 62: swapped */
			for (i = 0; i <= want; i++) {
				if (i < want && (ent[i] >> 62)) {
					run++;
					continue;
				}
				if (run && add_extent(s, a + (i - run) * page,
						      run))
					goto out;
				run = 0;
			}
			a += want * page;
		}
	}
	ret = 0;
out:
	free(ent);
	if (pm >= 0)
		close(pm);
	if (maps)
		fclose(maps);
	return ret;
}

/* Reads page @idx of @s into @buf; -1 when it cannot be read. */
int tune_read_page(const struct source *s, size_t idx, size_t page,
		   unsigned char *buf)
{
	size_t lo = 0, hi = s->next, want, done = 0;
	unsigned long long off;
	const struct extent *e;

	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;

		if (s->ext[mid].first <= idx)
			lo = mid;
		else
			hi = mid;
	}
	e = &s->ext[lo];
	off = e->off + (unsigned long long)(idx - e->first) * page;
	want = page;
	if (!s->mem)
		want = s->len - off < page ? s->len - off : page;
	memset(buf + want, 0, page - want);
	if (s->data) {
		memcpy(buf, s->data + off, want);
		return 0;
	}
	while (done < want) {
		ssize_t r = pread(s->fd, buf + done, want - done, off + done);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		done += r;
	}
	return 0;
}

static const unsigned char *slot_page(const struct sampler *sp, uint64_t v)
{
	const struct pageset *ps = sp->sets[!!(v & HOLD_BIT)];

	return ps->data + ((v & ~HOLD_BIT) - 1) * sp->page;
}

static int take_page(struct sampler *sp, size_t g, struct pageset *ps)
{
	size_t i = 0, k = 0, page = sp->page;
	unsigned char *dst, *d;

	while (i + 1 < sp->nsrc && sp->start[i + 1] <= g)
		i++;
	d = tune_grow(ps->data, &ps->cap, ps->n + 1, page);
	if (!d)
		return -1;
	ps->data = d;
	dst = d + ps->n * page;
	if (tune_read_page(&sp->src[i], g - sp->start[i], page, dst)) {
		sp->unreadable++;
		return 0;
	}
	if (tool_same_filled(dst, page)) {
		if (sp->drop) {
			sp->same++;
			return 0;
		}
		sp->same_kept++;
	}
	if (sp->drop) {
		k = tool_page_hash(dst, page) & (sp->nslots - 1);
		while (sp->slot[k] &&
		       memcmp(slot_page(sp, sp->slot[k]), dst, page))
			k = (k + 1) & (sp->nslots - 1);
		if (sp->slot[k]) {
			sp->dups++;
			return 0;
		}
	}
	ps->n++;
	if (sp->drop)
		sp->slot[k] = ps->n | (ps == sp->sets[1] ? HOLD_BIT : 0);
	return 0;
}

/*
 * Runs of RUN_PAGES pages: @want_t / RUN_PAGES runs evenly spread for the
 * sample, the hold-out runs in between (all other runs when there are not
 * enough).  Deterministic: the same input gives the same sample.
 */
int tune_sample(struct sampler *sp, size_t want_t, size_t want_h,
		struct pageset *train, struct pageset *hold)
{
	size_t q = (sp->total + RUN_PAGES - 1) / RUN_PAGES;
	size_t nt = (want_t + RUN_PAGES - 1) / RUN_PAGES;
	size_t nh = (want_h + RUN_PAGES - 1) / RUN_PAGES;
	unsigned char *used = calloc(q / 8 + 1, 1);
	size_t j, r, p;
	int ret = -1;

	if (!used)
		return -1;
	if (!q) {
		free(used);
		return 0;
	}
	sp->sets[0] = train;
	sp->sets[1] = hold;
	if (sp->drop) {
		sp->nslots = 1;
		while (sp->nslots < 2 * (nt + nh) * RUN_PAGES + 2)
			sp->nslots <<= 1;
		sp->slot = calloc(sp->nslots, sizeof(*sp->slot));
		if (!sp->slot)
			goto out;
	}
	/* Too few pages for both: share them in proportion. */
	if (nt + nh > q) {
		nt = nh ? (size_t)((double)q * nt / (nt + nh)) : q;
		if (!nt)
			nt = 1;
	}
	for (j = 0; j < nt; j++) {
		r = (size_t)((double)j * q / nt);
		used[r / 8] |= 1 << r % 8;
	}
	if (nh > q - nt)
		nh = q - nt;
	for (j = 0; j < nh; j++) {
		r = (size_t)((2.0 * j + 1) * q / (2.0 * nh)) % q;
		while (used[r / 8] & (1 << r % 8))
			r = (r + 1) % q;
		used[r / 8] |= 1 << r % 8;
	}
	/*
	 * In page order: the sample's runs are at j * q / nt, every other
	 * marked run is hold-out.
	 */
	for (j = 0, r = 0; r < q; r++) {
		bool is_train;

		if (!(used[r / 8] & (1 << r % 8)))
			continue;
		is_train = j < nt && r == (size_t)((double)j * q / nt);
		if (is_train)
			j++;
		for (p = r * RUN_PAGES; p < (r + 1) * RUN_PAGES &&
					p < sp->total; p++)
			if (take_page(sp, p, is_train ? train : hold))
				goto out;
	}
	ret = 0;
out:
	free(used);
	return ret;
}
