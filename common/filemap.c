/* Files mapped for reading (filemap.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "filemap.h"
#include "xalloc.h"

/* bytes read between two drops: a few pages, since check reads every rank's file at once and
 * holds this much of each */
#define FORGET_STEP (64 << 10)
/* A read fault maps the pages around the one read that the page cache has (Linux's
 * fault-around: an aligned block of fault_around_bytes, 64 KiB by default, at most a page
 * table's span, 2 MiB): pages below the lowest byte read may be mapped too, and each drop
 * reaches this far below it. */
#define FAULT_AROUND (2 << 20)

/* The whole of f read into memory, for what cannot be mapped. */
static int read_all(FILE *f, struct mpiv_filemap *m)
{
	size_t cap = 1 << 16, n = 0, got;
	char *buf = xmalloc(cap);

	while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
	}
	if (ferror(f)) {
		int e = errno;

		free(buf);
		errno = e ? e : EIO;
		return -1;
	}
	m->data = buf;
	m->len = n;
	return 0;
}

int mpiv_map_file(const char *path, struct mpiv_filemap *m)
{
	struct stat st;
	FILE *f;
	void *p;
	int rc;

	memset(m, 0, sizeof(*m));
	f = fopen(path, "rb");
	if (!f)
		return -1;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (unsigned long long)st.st_size <= (size_t)-1) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fileno(f), 0);
		if (p != MAP_FAILED) {
			fclose(f);
			m->data = p;
			m->len = (size_t)st.st_size;
			m->mapped = 1;
			return 0;
		}
	}
	rc = read_all(f, m) ? -2 : 0;
	fclose(f);
	return rc;
}

void mpiv_map_forget(struct mpiv_filemap *m, size_t from, size_t to)
{
	size_t page, end;

	if (!m->mapped)
		return;
	if (from < m->lo)
		m->lo = from;
	if (to > from)
		m->read += to - from;
	if (m->read < FORGET_STEP || to > m->len)
		return;
	page = (size_t)sysconf(_SC_PAGESIZE);
	end = to / page * page;
	m->lo = m->lo > FAULT_AROUND ? (m->lo - FAULT_AROUND) / page * page : 0;
	/* the pages of a private mapping never written come back from the file if read again */
	if (end > m->lo)
		madvise((char *)m->data + m->lo, end - m->lo, MADV_DONTNEED);
	m->lo = end;
	m->read = 0;
}

void mpiv_map_release(struct mpiv_filemap *m)
{
	if (m->mapped)
		munmap((void *)m->data, m->len);
	else
		free((void *)m->data);
	memset(m, 0, sizeof(*m));
}
