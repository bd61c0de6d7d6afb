/* Watching a running job through its ranks' status files, for record and replay alike: tells a
 * deadlock from slow progress, notices a divergence, and reports where each rank is blocked.
 * Detection reads only the shared status directory, never /proc, so ranks may be remote. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "event.h"
#include "launch.h"
#include "monitor.h"
#include "srcloc.h"
#include "trace.h"
#include "xalloc.h"

#define MAX_RANKS (1 << 22)	/* a size beyond this is a damaged file, not a world */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int read_once(int fd, struct mpiv_status *st)
{
	ssize_t got;

	do {
		got = pread(fd, st, sizeof(*st), 0);
	} while (got < 0 && errno == EINTR);
	return got == (ssize_t)sizeof(*st) ? 0 : -1;
}

int monitor_read_status(const char *dir, int rank, struct mpiv_status *st)
{
	char path[4096];
	struct mpiv_status again;
	int fd, tries, rc = -1;

	snprintf(path, sizeof(path), "%s/" MPIV_STATUS_FILE, dir, rank);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	/* The rank rewrites the file in place while we read it; two equal reads in a row are
	 * not a torn one. */
	for (tries = 0; tries < 3; tries++) {
		if (read_once(fd, st) < 0 || read_once(fd, &again) < 0)
			break;
		if (!memcmp(st, &again, sizeof(again))) {
			rc = 0;
			break;
		}
	}
	close(fd);
	if (rc < 0)
		return -1;
	if (st->magic != MPIV_STATUS_MAGIC || st->version != MPIV_STATUS_VERSION)
		return -1;
	if (st->rank != rank || st->size <= 0 || st->size > MAX_RANKS || st->rank >= st->size)
		return -1;
	if (st->state > MPIV_ST_FAILED)
		return -1;
	st->host[sizeof(st->host) - 1] = '\0';
	st->text[sizeof(st->text) - 1] = '\0';
	st->module[sizeof(st->module) - 1] = '\0';
	st->stack[sizeof(st->stack) - 1] = '\0';
	return 0;
}

int monitor_find_size(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct mpiv_status st;
	int size = 0;

	if (!d)
		return 0;
	for (de = readdir(d); de && !size; de = readdir(d)) {
		int rank, end = 0;

		if (sscanf(de->d_name, "rank-%d.status%n", &rank, &end) != 1 || rank < 0 ||
		    de->d_name[end] != '\0' || end == 0)
			continue;
		if (monitor_read_status(dir, rank, &st) == 0)
			size = st.size;
	}
	closedir(d);
	return size;
}

static const char *call_name(unsigned call)
{
	const char *name = mpiv_call_name(call);

	return name ? name : "an unknown MPI call";
}

/* Whether a rank in state is running, in MPI or out of it. */
static int in_or_out(uint32_t state)
{
	return state == MPIV_ST_RUNNING || state == MPIV_ST_IN_CALL;
}

/* Read every rank's status once; note the time of changes. */
static void scan(const char *dir, struct monitor_result *res, double t)
{
	struct mpiv_status st;
	int r;

	if (!res->size) {
		res->size = monitor_find_size(dir);
		if (!res->size)
			return;
		res->ranks = xcalloc(res->size, sizeof(*res->ranks));
	}
	for (r = 0; r < res->size; r++) {
		struct monitor_rank *m = &res->ranks[r];

		/* a missing or damaged read keeps what was seen last */
		if (monitor_read_status(dir, r, &st) < 0 || st.size != res->size)
			continue;
		if (!m->seen || st.progress != m->progress || st.state != m->state ||
		    st.call != m->call || st.op != m->op)
			m->changed = t;
		if (!m->seen || st.beat != m->beat)
			m->beat_changed = t;
		/* a rank that polls goes in and out of MPI all the time: that is no change */
		if (!m->seen || st.progress != m->progress ||
		    (st.state != m->state && (!in_or_out(st.state) || !in_or_out(m->state)))) {
			m->progress_changed = t;
			m->polls_base = st.polls;
		}
		if (!m->seen || st.polls != m->polls)
			m->polls_changed = t;
		m->polls = st.polls;
		m->seen = 1;
		m->state = st.state;
		m->call = st.call;
		m->call_name = call_name(st.call);
		m->op = st.op;
		m->progress = st.progress;
		m->beat = st.beat;
		m->site = st.site;
		m->pid = st.pid;
		memcpy(m->host, st.host, sizeof(m->host));
		memcpy(m->text, st.text, sizeof(m->text));
		memcpy(m->module, st.module, sizeof(m->module));
		memcpy(m->stack, st.stack, sizeof(m->stack));
		m->stack_op = st.stack_op;
		m->nframes = st.nframes;
	}
}

/* Whether a rank is in state (a sticky one: DIVERGED, FAILED). */
static int any_in(const struct monitor_result *res, enum mpiv_rank_state state)
{
	int r;

	for (r = 0; r < res->size; r++)
		if (res->ranks[r].seen && res->ranks[r].state == state)
			return 1;
	return 0;
}

/* How long a rank's beat may stand still before the rank counts as stopped rather than
 * blocked. A live rank beats every MPIV_STATUS_PERIOD_MS; the slack is for a loaded host and
 * for a shared file system that shows another node's writes late, without letting a rank
 * stopped a few seconds before the deadline pass for deadlocked. */
static double beat_limit(double timeout)
{
	double limit = timeout / 3;

	if (limit < 2)
		limit = 2;
	return limit < timeout ? limit : timeout;
}

/* Whether m polls without progress: it made failed polls since its progress last changed, and
 * recently, and is between polls or in one (not in another call, which would block). */
static int polling(const struct monitor_rank *m, double t, double timeout)
{
	if (m->state != MPIV_ST_RUNNING && m->state != MPIV_ST_IN_CALL)
		return 0;
	if (m->polls == m->polls_base || t - m->polls_changed >= beat_limit(timeout))
		return 0;
	return m->state == MPIV_ST_RUNNING || (mpiv_call_flags(m->call) & MPIV_F_POLL);
}

/* The deadlock rule of monitor_run(). warned[r] keeps a stopped rank's warning to one. */
static int deadlocked(struct monitor_result *res, double t, double timeout, char *warned)
{
	double last = 0;
	int r, in_call = 0, stopped = 0, npolling = 0;

	if (!res->size)
		return 0;
	for (r = 0; r < res->size; r++) {
		struct monitor_rank *m = &res->ranks[r];

		if (!m->seen)
			return 0;
		m->polling = polling(m, t, timeout);
		if (m->polling) {
			npolling++;
			if (m->progress_changed > last)
				last = m->progress_changed;
			continue;
		}
		if (m->state == MPIV_ST_IN_CALL)
			in_call++;
		else if (m->state != MPIV_ST_FINALIZED)
			return 0;
		if (m->changed > last)
			last = m->changed;
	}
	if ((!in_call && !npolling) || t - last < timeout)
		return 0;
	/* A rank that does not even rewrite its status is stopped (a debugger, SIGSTOP) or
	 * gone, not blocked: ending the job would be wrong. */
	for (r = 0; r < res->size; r++) {
		const struct monitor_rank *m = &res->ranks[r];

		if (m->polling || m->state != MPIV_ST_IN_CALL ||
		    t - m->beat_changed < beat_limit(timeout))
			continue;
		stopped = 1;
		if (!warned[r]) {
			warning("rank %d (pid %d on '%s') has not updated its status for %.0f s: "
				"it looks stopped or unreachable, so the job is not counted as "
				"deadlocked", r, m->pid, m->host, t - m->beat_changed);
			warned[r] = 1;
		}
	}
	if (stopped)
		return 0;
	res->stalled = t - last;
	res->npolling = npolling;
	return 1;
}

void monitor_run(struct launch *l, const char *status_dir, double timeout,
		 struct monitor_result *res)
{
	double start = now(), t;
	char *warned = NULL;
	int warned_none = 0, done;

	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
	for (;;) {
		/* The launcher's exit is taken before the scan, so that the last scan sees the
		 * ranks' final word (a rank that diverged and then aborted the job). */
		done = launch_poll(l);
		t = now();
		scan(status_dir, res, t);
		if (res->size && !warned)
			warned = xcalloc(res->size, 1);
		/* a rank that cannot replay says why, whatever the others did */
		if (any_in(res, MPIV_ST_FAILED)) {
			res->outcome = MONITOR_FAILED;
			break;
		}
		if (any_in(res, MPIV_ST_DIVERGED)) {
			res->outcome = MONITOR_DIVERGED;
			break;
		}
		if (done) {
			res->outcome = MONITOR_COMPLETED;
			break;
		}
		if (launch_interrupted()) {
			res->outcome = MONITOR_INTERRUPTED;
			res->signal = launch_interrupted();
			break;
		}
		if (deadlocked(res, t, timeout, warned)) {
			res->outcome = MONITOR_DEADLOCK;
			break;
		}
		/* No status at all: the ranks may not have started yet, or may not load our
		 * library, or may not see the directory. A program may also compute for long
		 * before MPI_Init, so this is no reason to end it; only say why hangs cannot be
		 * caught, and keep watching. */
		if (!res->size && !warned_none && t - start >= timeout) {
			warning("no rank has reported to '%s' after %.0f s: hangs cannot be detected "
				"until one does (is the program a dynamically linked MPI program, "
				"and is the directory shared with every node?)", status_dir,
				t - start);
			warned_none = 1;
		}
		launch_relay(l, MPIV_STATUS_PERIOD_MS);
	}
	if (res->outcome == MONITOR_COMPLETED)
		launch_flush(l);
	free(warned);
	res->exit_code = launch_exit_code(l);
}

void monitor_result_release(struct monitor_result *res)
{
	free(res->ranks);
	memset(res, 0, sizeof(*res));
	res->exit_code = -1;
}

/* Load rank r's trace from dir, binary or JSON. Returns 0, or -1 (t empty). */
static int load_trace(const char *dir, int r, struct mpiv_rank_trace *t)
{
	char path[4096];
	struct mpiv_error err;

	mpiv_error_init(&err);
	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "%s/" MPIV_TRACE_BIN_FILE, dir, r);
	if (access(path, R_OK) == 0)
		return mpiv_trace_load_bin(path, t, &err);
	snprintf(path, sizeof(path), "%s/" MPIV_TRACE_JSON_FILE, dir, r);
	if (access(path, R_OK) == 0)
		return mpiv_trace_load_json(path, t, &err);
	return -1;
}

/* The module path comes from the status, else from the module table of the rank's trace. */
void monitor_site(const struct monitor_rank *m, int r, const char *trace_dir, char *buf,
		  size_t size)
{
	const char *module = NULL;
	struct mpiv_rank_trace t;
	struct mpiv_cex_site s;
	char where[1024];
	int ok = 0, have_trace = 0;

	buf[0] = '\0';
	if (!m->site)
		return;
	memset(&s, 0, sizeof(s));
	if (m->module[0] == '/') {
		module = m->module;
		ok = mpiv_srcloc_resolve(module, MPIV_SITE_ADDR(m->site), &s) == 0;
	}
	/* the whole trace is read only when the status did not do */
	if (!ok && trace_dir)
		have_trace = load_trace(trace_dir, r, &t) == 0;
	if (have_trace && mpiv_trace_module(&t, m->site)) {
		mpiv_cex_site_release(&s);
		module = mpiv_trace_module(&t, m->site);
		ok = mpiv_srcloc_resolve(module, MPIV_SITE_ADDR(m->site), &s) == 0;
	}
	if (ok) {
		mpiv_srcloc_format(&s, where, sizeof(where));
		snprintf(buf, size, " at %s", where);
	} else if (module) {
		snprintf(buf, size, " at %s+0x%llx", module,
			 (unsigned long long)MPIV_SITE_ADDR(m->site));
	} else {
		snprintf(buf, size, " at site 0x%016llx", (unsigned long long)m->site);
	}
	mpiv_cex_site_release(&s);
	if (have_trace)
		mpiv_rank_trace_release(&t);
}

/* Print the status text, each line indented, e.g. what diverged. */
static void print_text(FILE *f, const char *text)
{
	const char *p = text, *nl;

	while (*p) {
		nl = strchr(p, '\n');
		if (!nl) {
			fprintf(f, "    %s\n", p);
			break;
		}
		if (nl > p)
			fprintf(f, "    %.*s\n", (int)(nl - p), p);
		p = nl + 1;
	}
}

/* Print the stack m took in its current call, one "    #N file.c:12 (func)" line a frame,
 * up to main; a frame that cannot be resolved shows its module and offset. Nothing if the
 * stack is missing or was taken in another call. */
static void print_stack(FILE *f, const struct monitor_rank *m)
{
	const char *p = m->stack, *nl, *plus;
	char path[4096], where[1200];
	struct mpiv_cex_site s;
	unsigned long long addr;
	int n = 0;
	size_t len;

	if (!m->nframes || m->stack_op != (uint32_t)m->op)
		return;
	for (; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		/* "PATH+0xADDR": the path may hold '+', the address is after the last one */
		plus = p + (nl - p);
		while (plus > p && *plus != '+')
			plus--;
		len = (size_t)(plus - p);
		if (plus == p || len >= sizeof(path) || sscanf(plus + 1, "0x%llx", &addr) != 1)
			continue;
		memcpy(path, p, len);
		path[len] = '\0';
		memset(&s, 0, sizeof(s));
		if (path[0] == '/' && mpiv_srcloc_resolve(path, addr, &s) == 0) {
			mpiv_srcloc_format(&s, where, sizeof(where));
			fprintf(f, "    #%d %s\n", n++, where);
			if (s.function && !strcmp(s.function, "main")) {
				mpiv_cex_site_release(&s);
				break;
			}
		} else {
			const char *base = strrchr(path, '/');

			fprintf(f, "    #%d %s+0x%llx\n", n++, base ? base + 1 : path, addr);
		}
		mpiv_cex_site_release(&s);
	}
}

static void print_prediction(FILE *f, const struct mpiv_cex_rank *cr, int differs)
{
	char where[1024];

	if (cr->blocked_op < 0) {
		fprintf(f, "    predicted: finished%s\n", differs ? " (differs)" : "");
		return;
	}
	where[0] = '\0';
	if (cr->site.function || cr->site.file) {
		char loc[1000];

		mpiv_srcloc_format(&cr->site, loc, sizeof(loc));
		snprintf(where, sizeof(where), " at %s", loc);
	}
	fprintf(f, "    predicted: blocked in %s (event %ld)%s%s\n",
		cr->blocked_call ? cr->blocked_call : "an MPI call", cr->blocked_op, where,
		differs ? " (differs)" : "");
}

/* What rank m is doing, as "blocked in MPI_Recv (event 5)"; a call is only said to block in a
 * deadlock (after a crash, say, the rank was merely in it). */
static void describe(const struct monitor_rank *m, enum monitor_outcome outcome, char *buf,
		     size_t size)
{
	switch (m->state) {
	case MPIV_ST_STARTING:
		snprintf(buf, size, "starting (MPI_Init has not returned)");
		break;
	case MPIV_ST_RUNNING:
	case MPIV_ST_IN_CALL:
		if (m->polling && outcome == MONITOR_DEADLOCK) {
			snprintf(buf, size, "polling without progress: %llu failed %s (last: "
				 "event %ld)", (unsigned long long)(m->polls - m->polls_base),
				 m->call_name, m->op);
			break;
		}
		if (m->state == MPIV_ST_RUNNING) {
			snprintf(buf, size, "running outside MPI (after event %ld)", m->op);
			break;
		}
		snprintf(buf, size, "%s %s (event %ld)",
			 outcome == MONITOR_DEADLOCK ? "blocked in" : "in", m->call_name, m->op);
		break;
	case MPIV_ST_FINALIZED:
		snprintf(buf, size, "finished");
		break;
	case MPIV_ST_DIVERGED:
		snprintf(buf, size, "diverged in %s (event %ld)", m->call_name, m->op);
		break;
	case MPIV_ST_FAILED:
		snprintf(buf, size, "cannot replay");
		break;
	}
}

int monitor_report(FILE *f, const struct monitor_result *res, const char *trace_dir,
		   const struct mpiv_cex *cex)
{
	int n = res->size, r, differ = 0;

	if (cex && cex->nranks > n)
		n = cex->nranks;
	if (!n)
		fprintf(f, "no rank reported its status\n");
	for (r = 0; r < n; r++) {
		const struct monitor_rank *m = r < res->size ? &res->ranks[r] : NULL;
		const struct mpiv_cex_rank *cr = cex && r < cex->nranks ? &cex->ranks[r] : NULL;
		int finished, differs;
		char what[256], where[1200];

		finished = m && m->seen && m->state == MPIV_ST_FINALIZED;
		if (cr) {
			if (finished)
				differs = cr->blocked_op >= 0;
			else
				differs = !m || !m->seen || m->state != MPIV_ST_IN_CALL ||
					  m->op != cr->blocked_op;
		} else {
			differs = 0;
		}
		differ += differs;
		/* finished ranks are not news, unless the counterexample has them blocked */
		if (finished && !differs)
			continue;
		if (!m || !m->seen) {
			fprintf(f, "rank %d: no status reported\n", r);
			if (cr)
				print_prediction(f, cr, differs);
			continue;
		}
		describe(m, res->outcome, what, sizeof(what));
		where[0] = '\0';
		if (m->state == MPIV_ST_IN_CALL || m->state == MPIV_ST_DIVERGED || m->polling)
			monitor_site(m, r, trace_dir, where, sizeof(where));
		fprintf(f, "rank %d: %s%s\n", r, what, where);
		if (m->state == MPIV_ST_IN_CALL && !m->polling)
			print_stack(f, m);
		/* DIVERGED's and FAILED's text says why; the notes are for replay's own report */
		if (m->state == MPIV_ST_DIVERGED || m->state == MPIV_ST_FAILED)
			print_text(f, m->text);
		if (cr)
			print_prediction(f, cr, differs);
	}
	return differ;
}

/* mkdir -p: every missing component of path, in turn. */
static int make_dirs(const char *path)
{
	char *p, *s, c;
	int rc = 0;

	if (!*path) {
		errno = ENOENT;
		return -1;
	}
	p = xstrdup(path);
	for (s = p + 1;; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		c = *s;
		*s = '\0';
		if (mkdir(p, 0777) < 0 && errno != EEXIST) {
			rc = -1;
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return rc;
}

/* Whether name is rank-N<ext>, N a decimal number. */
static int is_rank_file(const char *name, const char *ext)
{
	const char *p = name + 5;

	if (strncmp(name, "rank-", 5) || !isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	return !strcmp(p, ext);
}

static int is_stale(const char *name, const char *const *stale)
{
	size_t i;

	for (i = 0; stale && stale[i]; i++) {
		if (stale[i][0] == '.' ? is_rank_file(name, stale[i]) : !strcmp(name, stale[i]))
			return 1;
	}
	return 0;
}

/* Hold directory abs (dir as the user gave it) for this process: an exclusive flock(2) on
 * its lock file, which the kernel drops when the process ends, however it ends. The file
 * stays open, close-on-exec so that the job does not inherit it, until then. Returns 0, or
 * -1 after printing an error (another mpiverify holds it: two runs would mix their files). */
static int lock_dir(const char *abs, const char *dir)
{
	char path[4200], pid[32];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/" MONITOR_LOCK_FILE, abs);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot create the lock file '%s': %s", path, strerror(errno));
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		if (errno == EWOULDBLOCK) {
			n = pread(fd, pid, sizeof(pid) - 1, 0);
			pid[n > 0 ? n : 0] = '\0';
			pid[strcspn(pid, "\n")] = '\0';
			error("'%s' is in use by another mpiverify%s%s%s writing into it: wait for "
			      "it to end, or give another directory with -o", dir,
			      pid[0] ? " (pid " : "", pid, pid[0] ? ")" : "");
		} else {
			error("cannot lock '%s': %s", path, strerror(errno));
		}
		close(fd);
		return -1;
	}
	/* who holds it, for the message another one prints */
	n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	if (ftruncate(fd, 0) != 0 || pwrite(fd, pid, (size_t)n, 0) != n)
		warning("cannot write into the lock file '%s': %s", path, strerror(errno));
	return 0;
}

char *monitor_prepare_dir(const char *dir, const char *const *stale)
{
	struct stat st;
	struct dirent *de;
	char *abs, probe[4200];
	DIR *d;
	int fd;

	if (make_dirs(dir) < 0) {
		error("cannot create directory '%s': %s", dir, strerror(errno));
		return NULL;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		error("'%s' is not a directory", dir);
		return NULL;
	}
	abs = realpath(dir, NULL);
	if (!abs) {
		error("cannot resolve directory '%s': %s", dir, strerror(errno));
		return NULL;
	}
	/* Really create a file: access() misses read-only mounts and ACLs, and the ranks must
	 * be able to create theirs. */
	snprintf(probe, sizeof(probe), "%s/.mpiverify-probe-XXXXXX", abs);
	fd = mkstemp(probe);
	if (fd < 0) {
		error("cannot write into directory '%s': %s", dir, strerror(errno));
		free(abs);
		return NULL;
	}
	close(fd);
	unlink(probe);
	/* before anything in it is removed: it may be another run's */
	if (lock_dir(abs, dir) < 0) {
		free(abs);
		return NULL;
	}
	d = opendir(abs);
	if (!d) {
		error("cannot read directory '%s': %s", dir, strerror(errno));
		free(abs);
		return NULL;
	}
	for (de = readdir(d); de; de = readdir(d)) {
		char path[4400];

		if (!is_stale(de->d_name, stale))
			continue;
		snprintf(path, sizeof(path), "%s/%s", abs, de->d_name);
		if (unlink(path) < 0 && errno != ENOENT) {
			error("cannot remove '%s' left by an earlier run: %s", path, strerror(errno));
			closedir(d);
			free(abs);
			return NULL;
		}
	}
	closedir(d);
	return abs;
}

int monitor_parse_seconds(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	/* isfinite() without libm: NaN fails v > 0, infinity fails v <= 1e7 */
	if (errno || end == s || *end || !(v > 0) || v > 1e7)
		return -1;
	*out = v;
	return 0;
}
