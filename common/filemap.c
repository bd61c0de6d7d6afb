/* Files mapped for reading (filemap.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exit.h"
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

/* The files mapped now, for the SIGBUS handler (changed only outside it). */
struct mapped {
	const char *data;
	size_t len;
	char *path;
};
static struct mapped *mapped;
static size_t nmapped, capmapped;

static void say(const char *s)
{
	ssize_t n = write(2, s, strlen(s));

	(void)n;
}

/* A read of a mapped file's page past the end of the file raises SIGBUS: the file shrank
 * after it was mapped (another program wrote it). mpiverify names the file and exits as for
 * bad input, as it would have had it read the file then; any other SIGBUS is not ours. */
static void on_sigbus(int sig, siginfo_t *si, void *uc)
{
	const char *at = si->si_addr;
	size_t i;

	(void)uc;
	for (i = 0; i < nmapped; i++)
		if (at >= mapped[i].data && at < mapped[i].data + mapped[i].len) {
			say("mpiverify: error: '");
			say(mapped[i].path);
			say("': the file shrank while mpiverify read it (another program wrote "
			    "it)\n");
			_exit(MPIV_EXIT_BAD_INPUT);
		}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void add_mapped(const char *path, const struct mpiv_filemap *m)
{
	static int handled;

	if (!handled) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGBUS, &sa, NULL);
		handled = 1;
	}
	xgrow((void **)&mapped, &capmapped, nmapped + 1, sizeof(*mapped));
	mapped[nmapped].data = m->data;
	mapped[nmapped].len = m->len;
	mapped[nmapped].path = xstrdup(path);
	nmapped++;
}

static void remove_mapped(const char *data)
{
	size_t i;

	for (i = 0; i < nmapped; i++)
		if (mapped[i].data == data) {
			free(mapped[i].path);
			mapped[i] = mapped[--nmapped];
			return;
		}
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
			add_mapped(path, m);
			return 0;
		}
	}
	/* what cannot be mapped (a pipe, an empty file) is read whole */
	m->data = xread_fd(fileno(f), &m->len);
	rc = m->data ? 0 : -2;
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
	if (m->mapped) {
		remove_mapped(m->data);
		munmap((void *)m->data, m->len);
	} else
		free((void *)m->data);
	memset(m, 0, sizeof(*m));
}
