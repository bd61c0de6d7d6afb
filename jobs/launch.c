/* Running the user's job for record and replay: the launcher is started from an argv vector
 * (never a shell line) in its own process group, polled without blocking, and ended so that
 * no process of the job survives on this host. */
#define _GNU_SOURCE /* execvpe */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "environment.h"
#include "launch.h"
#include "launcher_dirs.h"
#include "status.h"
#include "status_file.h"
#include "xalloc.h"

#define TERM_GRACE_MS 3000 /* between SIGTERM and SIGKILL */
#define KILL_GRACE_MS 1000 /* for SIGKILLed processes to be gone */
#define STEP_MS 50

extern char **environ;

static volatile sig_atomic_t interrupted;

static void on_interrupt(int sig)
{
	interrupted = sig;
}

/* SIGPIPE gets a handler that does nothing rather than SIG_IGN: a closed stdout must not
 * kill mpiverify before it has ended the job, and a handler, unlike SIG_IGN, is not
 * inherited by the launcher across exec. */
static void on_sigpipe(int sig)
{
	(void)sig;
}

static void catch_signal(int sig, void (*fn)(int))
{
	struct sigaction sa, old;

	/* A signal ignored by whoever started us (nohup, `cmd &` in a script) stays ignored, for
	 * us and, through exec, for the job. */
	if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: the monitor's sleep is cut short and it sees the flag at once */
	sigaction(sig, &sa, NULL);
}

int launch_interrupted(void)
{
	return interrupted;
}

static void sleep_ms(long ms)
{
	struct timespec ts;

	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	nanosleep(&ts, NULL);
}

static int is_var(const char *entry, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(entry, name, n) && entry[n] == '=';
}

static char *make_var(const char *name, const char *value)
{
	size_t n = strlen(name) + strlen(value) + 2;
	char *s = xmalloc(n);

	snprintf(s, n, "%s=%s", name, value);
	return s;
}

/* Our environment without LD_PRELOAD and the variables of vars, then those set. The strings
 * taken from environ are not copied: only the last 1 + nvars entries are owned (free_env). */
static char **build_env(const char *preload, const struct launch_var *vars)
{
	const char *old = getenv("LD_PRELOAD");
	size_t n = 0, nvars = 0, i, k = 0;
	char **envp, *pre;

	while (environ[n])
		n++;
	while (vars && vars[nvars].name)
		nvars++;
	envp = xcalloc(n + nvars + 2, sizeof(char *));
	for (i = 0; i < n; i++) {
		size_t j;
		int keep = !is_var(environ[i], "LD_PRELOAD");

		for (j = 0; keep && j < nvars; j++)
			if (is_var(environ[i], vars[j].name))
				keep = 0;
		if (keep)
			envp[k++] = environ[i];
	}
	if (old && *old) {
		size_t len = strlen(preload) + strlen(old) + 2;

		pre = xmalloc(len);
		/* ld.so takes ':' or ' ' between entries; ours comes first so that its MPI_*
		 * wrappers win over any other tool's */
		snprintf(pre, len, "%s:%s", preload, old);
	} else {
		pre = xstrdup(preload);
	}
	envp[k++] = make_var("LD_PRELOAD", pre);
	free(pre);
	for (i = 0; i < nvars; i++)
		envp[k++] = make_var(vars[i].name, vars[i].value);
	envp[k] = NULL;
	return envp;
}

static void free_env(char **envp, const struct launch_var *vars)
{
	size_t n = 0, nvars = 0, i;

	while (envp[n])
		n++;
	while (vars && vars[nvars].name)
		nvars++;
	/* the owned strings are the last nvars + 1 (LD_PRELOAD and vars) */
	for (i = n - nvars - 1; i < n; i++)
		free(envp[i]);
	free(envp);
}

int launch_start(struct launch *l, char *const *argv, const char *preload,
		 const struct launch_var *vars, const char *status_dir)
{
	char **envp;
	int fds[2], out[2], err[2], child_errno = 0, saved;
	ssize_t got;
	pid_t pid;

	memset(l, 0, sizeof(*l));
	l->out[0] = -1;
	l->out[1] = -1;
	if (strchr(preload, ':') || strchr(preload, ' ')) {
		errno = EINVAL;
		return -1;
	}
	/* Orphans of the launcher (ranks whose proxy died) are re-parented to us rather than to
	 * init: we can still reap and kill them. */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	catch_signal(SIGINT, on_interrupt);
	catch_signal(SIGTERM, on_interrupt);
	catch_signal(SIGHUP, on_interrupt);
	catch_signal(SIGPIPE, on_sigpipe);

	envp = build_env(preload, vars);
	/* The child reports a failed exec through this pipe; a successful exec closes it. */
	if (pipe2(fds, O_CLOEXEC) < 0) {
		saved = errno;
		free_env(envp, vars);
		errno = saved;
		return -1;
	}
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		saved = errno;
		close(fds[0]);
		close(fds[1]);
		free_env(envp, vars);
		errno = saved;
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		saved = errno;
		close(fds[0]);
		close(fds[1]);
		free_env(envp, vars);
		errno = saved;
		return -1;
	}
	if (pid == 0) {
		ssize_t w;
		int e;

		close(fds[0]);
		/* dup2 clears close-on-exec on the copies: the job writes into our relay */
		dup2(out[1], STDOUT_FILENO);
		dup2(err[1], STDERR_FILENO);
		setpgid(0, 0);
		execvpe(argv[0], argv, envp);
		e = errno;
		/* if even this fails, the parent sees the launcher exit with 127 */
		w = write(fds[1], &e, sizeof(e));
		(void)w;
		_exit(127);
	}
	/* Both sides set the group, so that it is in place whichever runs first. */
	setpgid(pid, pid);
	close(fds[1]);
	close(out[1]);
	close(err[1]);
	fcntl(out[0], F_SETFL, O_NONBLOCK);
	fcntl(err[0], F_SETFL, O_NONBLOCK);
	l->out[0] = out[0];
	l->out[1] = err[0];
	do {
		got = read(fds[0], &child_errno, sizeof(child_errno));
	} while (got < 0 && errno == EINTR);
	close(fds[0]);
	free_env(envp, vars);
	if (got == (ssize_t)sizeof(child_errno)) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		errno = child_errno;
		return -1;
	}
	l->pid = pid;
	l->status_dir = status_dir ? xstrdup(status_dir) : NULL;
	return 0;
}

/* Copy what is readable on the job's fd i to ours; close it at end of file. Returns the
 * number of bytes read (0 at end of file or when nothing was there). */
static ssize_t relay_one(struct launch *l, int i)
{
	char buf[65536];
	ssize_t n, off, w;

	n = read(l->out[i], buf, sizeof(buf));
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		close(l->out[i]);
		l->out[i] = -1;
		return 0;
	}
	if (n < 0)
		return 0;
	if (l->muted)
		return n;
	for (off = 0; off < n; off += w) {
		w = write(l->sink > 0 ? l->sink :
			  i	      ? STDERR_FILENO :
					STDOUT_FILENO,
			  buf + off, (size_t)(n - off));
		if (w < 0 && errno == EINTR) {
			w = 0;
			continue;
		}
		if (w <= 0)
			break; /* our own output is gone: the job's is dropped, the job goes on */
	}
	return n;
}

void launch_relay(struct launch *l, long ms)
{
	struct pollfd p[2];
	struct timespec t0, t;
	long left = ms;
	int i, n, rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		n = 0;
		for (i = 0; i < 2; i++) {
			if (l->out[i] < 0)
				continue;
			p[n].fd = l->out[i];
			p[n].events = POLLIN;
			p[n].revents = 0;
			n++;
		}
		if (n == 0) {
			if (left > 0)
				sleep_ms(left);
			return;
		}
		rc = poll(p, (nfds_t)n, (int)left);
		if (rc < 0)
			return; /* a signal: let the caller look at it */
		for (i = 0; i < 2; i++) {
			int j;

			for (j = 0; j < n; j++)
				if (l->out[i] == p[j].fd &&
				    (p[j].revents & (POLLIN | POLLHUP | POLLERR)))
					relay_one(l, i);
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		left = ms - ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0 || rc == 0)
			return;
	}
}

void launch_flush(struct launch *l)
{
	int quiet = 0;

	/* the ranks' output reaches us through the launcher; orphans may keep the pipes open,
	 * so stop after half a second without news */
	while ((l->out[0] >= 0 || l->out[1] >= 0) && quiet < 5) {
		struct pollfd p[2];
		int n = 0, i;

		for (i = 0; i < 2; i++)
			if (l->out[i] >= 0) {
				p[n].fd = l->out[i];
				p[n].events = POLLIN;
				n++;
			}
		if (poll(p, (nfds_t)n, 100) <= 0) {
			quiet++;
			continue;
		}
		quiet = 0;
		for (i = 0; i < 2; i++)
			if (l->out[i] >= 0)
				relay_one(l, i);
	}
}

/* Reap every child that has exited: the launcher, and orphans of the job re-parented to us. */
static void reap(struct launch *l)
{
	int st;
	pid_t r;

	for (;;) {
		r = waitpid(-1, &st, WNOHANG);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (r == l->pid && !l->exited) {
			l->exited = 1;
			l->status = st;
		}
	}
}

int launch_poll(struct launch *l)
{
	if (!l->pid)
		return 1;
	if (!l->exited)
		reap(l);
	return l->exited;
}

int launch_exit_code(const struct launch *l)
{
	if (!l->exited)
		return -1;
	if (WIFEXITED(l->status))
		return WEXITSTATUS(l->status);
	if (WIFSIGNALED(l->status))
		return 128 + WTERMSIG(l->status);
	return -1;
}

void launch_describe_exit(const struct launch *l, char *buf, unsigned long size)
{
	if (!l->exited)
		snprintf(buf, size, "still running");
	else if (WIFSIGNALED(l->status))
		snprintf(buf, size, "killed by signal %d (%s)", WTERMSIG(l->status),
			 strsignal(WTERMSIG(l->status)));
	else
		snprintf(buf, size, "exit status %d", WEXITSTATUS(l->status));
}

/* Process pid's state letter in /proc ('R', 'S', 'Z' for a zombie...), its parent in *ppid;
 * 0 if there is no such process. */
static char proc_state(pid_t pid, pid_t *ppid)
{
	char path[64], buf[512], *rp, state;
	int parent;
	size_t len;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len] = '\0';
	/* "pid (comm) state ppid ...": comm may hold spaces and parentheses */
	rp = strrchr(buf, ')');
	if (!rp || sscanf(rp + 1, " %c %d", &state, &parent) != 2)
		return 0;
	*ppid = (pid_t)parent;
	return state;
}

/* The processes below this one (children, and orphans re-parented to us), other processes'
 * zombies left out, read from /proc. Returns a malloc'ed array of *n pids. */
static pid_t *descendants(size_t *n)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	pid_t *pids = NULL, *ppids = NULL, *out;
	char *mark;
	size_t cap = 0, pcap = 0, np = 0, i, nout = 0;
	int changed;

	*n = 0;
	if (!d)
		return NULL;
	for (de = readdir(d); de; de = readdir(d)) {
		char *rp, state;
		pid_t ppid;
		long pid = strtol(de->d_name, &rp, 10);

		if (*rp || pid <= 0)
			continue;
		state = proc_state((pid_t)pid, &ppid);
		if (!state)
			continue;
		/* a zombie is dead, unless it is ours to reap: then it is counted until reap()
		 * has collected it, lest it outlive us */
		if (state == 'Z' && ppid != getpid())
			continue;
		xgrow((void **)&pids, &cap, np + 1, sizeof(*pids));
		xgrow((void **)&ppids, &pcap, np + 1, sizeof(*ppids));
		pids[np] = (pid_t)pid;
		ppids[np] = (pid_t)ppid;
		np++;
	}
	closedir(d);
	mark = xcalloc(np ? np : 1, 1);
	/* Mark children of ourself or of a marked process until nothing changes: the process
	 * tree is shallow (launcher, proxy, rank), so this takes a few passes. */
	do {
		changed = 0;
		for (i = 0; i < np; i++) {
			size_t j;
			int below = ppids[i] == getpid();

			for (j = 0; !below && j < np; j++)
				if (mark[j] && pids[j] == ppids[i])
					below = 1;
			if (below && !mark[i]) {
				mark[i] = 1;
				changed = 1;
			}
		}
	} while (changed);
	out = xcalloc(np ? np : 1, sizeof(*out));
	for (i = 0; i < np; i++)
		if (mark[i])
			out[nout++] = pids[i];
	free(mark);
	free(pids);
	free(ppids);
	*n = nout;
	return out;
}

/* Whether pid is a live process of this job: its environment names our status directory.
 * A pid read from a status file may since have been reused by an unrelated process. */
static int is_job_process(pid_t pid, const char *status_dir)
{
	char path[64], *buf, *p, *want;
	size_t cap = 1 << 16, len = 0, got, wlen;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	buf = xmalloc(cap + 1);
	for (;;) {
		got = fread(buf + len, 1, cap - len, f);
		if (!got)
			break;
		len += got;
		if (len == cap) {
			cap *= 2;
			buf = xrealloc(buf, cap + 1);
		}
	}
	fclose(f);
	buf[len] = '\0';
	want = make_var(MPIV_ENV_STATUS_DIR, status_dir);
	wlen = strlen(want);
	for (p = buf; p < buf + len; p += strlen(p) + 1) {
		if (strlen(p) == wlen && !memcmp(p, want, wlen)) {
			found = 1;
			break;
		}
	}
	free(want);
	free(buf);
	return found;
}

/* Host names compared up to the first dot: ranks may report "node1" or "node1.cluster". */
static int same_host(const char *a, const char *b)
{
	size_t la = strcspn(a, "."), lb = strcspn(b, ".");

	return la == lb && la > 0 && !strncmp(a, b, la);
}

/* The pids of the ranks that report running on this host and are still processes of this
 * job. Returns a malloc'ed array of *n pids. */
static pid_t *local_ranks(const struct launch *l, size_t *n)
{
	char host[256];
	struct mpiv_status st;
	pid_t *out;
	int size, r;

	*n = 0;
	if (!l->status_dir || gethostname(host, sizeof(host)) < 0)
		return NULL;
	host[sizeof(host) - 1] = '\0';
	size = status_file_size(l->status_dir);
	if (size <= 0)
		return NULL;
	out = xcalloc(size, sizeof(*out));
	for (r = 0; r < size; r++) {
		if (status_file_read(l->status_dir, r, &st) < 0)
			continue;
		st.host[sizeof(st.host) - 1] = '\0';
		if (st.pid <= 1 || st.pid == getpid() || !same_host(st.host, host))
			continue;
		if (is_job_process(st.pid, l->status_dir))
			out[(*n)++] = st.pid;
	}
	return out;
}

int launch_ranks_ended(const struct launch *l)
{
	char host[256];
	struct mpiv_status st;
	int size, r, uncollected = 0;
	pid_t ppid;

	if (!l->status_dir || gethostname(host, sizeof(host)) < 0)
		return 0;
	host[sizeof(host) - 1] = '\0';
	size = status_file_size(l->status_dir);
	if (size <= 0)
		return 0;
	for (r = 0; r < size; r++) {
		char state;

		if (status_file_read(l->status_dir, r, &st) < 0 || st.size != size)
			return 0;
		st.host[sizeof(st.host) - 1] = '\0';
		if (st.pid <= 1 || !same_host(st.host, host))
			return 0;
		/* a pid reused since by another process looks alive: the safe side */
		state = proc_state(st.pid, &ppid);
		if (state && state != 'Z' && state != 'X')
			return 0;
		/* our own zombies are collected by reap() */
		if (state == 'Z' && ppid != getpid())
			uncollected++;
	}
	return uncollected > 0;
}

/* Whether anything of the job is left on this host. */
static int job_alive(struct launch *l)
{
	size_t n;
	pid_t *p;

	reap(l);
	if (!l->exited)
		return 1;
	if (kill(-l->pid, 0) == 0)
		return 1;
	p = descendants(&n);
	free(p);
	if (n)
		return 1;
	p = local_ranks(l, &n);
	free(p);
	return n > 0;
}

/* Send sig to the job's processes on this host that are not in the launcher's group: those
 * below us (Hydra's proxies and ranks run in sessions of their own) and the local ranks named
 * by status files. The group has had its signal: Open MPI 4.1's mpirun takes a second SIGTERM
 * as the user's second Ctrl-C and exits at once, leaving its session directory in the temporary
 * directory (8 MB a job). */
static void signal_rest(struct launch *l, int sig)
{
	size_t n, i;
	pid_t *p;

	p = descendants(&n);
	for (i = 0; i < n; i++)
		if (getpgid(p[i]) != l->pid)
			kill(p[i], sig);
	free(p);
	p = local_ranks(l, &n);
	for (i = 0; i < n; i++)
		if (getpgid(p[i]) != l->pid)
			kill(p[i], sig);
	free(p);
}

/* Wait up to ms for the job to be gone. With term, the processes the launcher leaves behind
 * when it exits get a SIGTERM of their own: nobody else will forward one to them. */
static int wait_gone(struct launch *l, long ms, int term)
{
	long waited;
	int sent = 0;

	for (waited = 0; waited < ms; waited += STEP_MS) {
		if (!job_alive(l))
			return 1;
		if (term && !sent && l->exited) {
			signal_rest(l, SIGTERM);
			sent = 1;
		}
		launch_relay(l, STEP_MS);
	}
	return !job_alive(l);
}

static void kill_all(struct launch *l, int sig)
{
	kill(-l->pid, sig);
	signal_rest(l, sig);
}

/* A launcher that died of a signal cleaned nothing up: ours (SIGKILL), or its own. Open MPI
 * 4.1's mpirun now and then dies of SIGSEGV while it ends ranks that a SIGTERM of ours ended
 * first (about one job in fifteen on a loaded host), leaving its session directory. */
static int gone(struct launch *l)
{
	if (l->exited && WIFSIGNALED(l->status))
		launcher_dirs_remove(l->pid);
	return 0;
}

int launch_end(struct launch *l)
{
	if (!l->pid)
		return 0;
	reap(l);
	/* what the program printed so far is the user's; what the launcher says of the ranks
	 * we end is not */
	launch_relay(l, 0);
	l->muted = 1;
	if (!job_alive(l))
		return gone(l);
	/* Politely first: Hydra's mpiexec forwards SIGTERM to its proxies, which end the ranks
	 * on every node, remote ones included. The ranks on this host get theirs at once as well:
	 * Open MPI 4.1's mpirun sends its own only after a SIGCONT and a second's wait
	 * (odls_base_sigkill_timeout), a second every hang and every confirmed deadlock cost. */
	if (!l->exited && getpgid(l->pid) != l->pid)
		kill(l->pid, SIGTERM);
	kill(-l->pid, SIGTERM);
	signal_rest(l, SIGTERM);
	if (wait_gone(l, TERM_GRACE_MS, 1))
		return gone(l);
	kill_all(l, SIGKILL);
	if (!wait_gone(l, KILL_GRACE_MS, 0)) {
		/* a second round for processes forked while we were killing */
		kill_all(l, SIGKILL);
		if (!wait_gone(l, KILL_GRACE_MS, 0))
			return -1;
	}
	return gone(l);
}

void launch_release(struct launch *l)
{
	int i;

	for (i = 0; i < 2; i++)
		if (l->out[i] >= 0) {
			close(l->out[i]);
			l->out[i] = -1;
		}
	free(l->status_dir);
	l->status_dir = NULL;
	prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
}
