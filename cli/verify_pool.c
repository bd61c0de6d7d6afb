/* verify's runs side by side (the explore_runner of verify.h): each run is made by a child
 * process of mpiverify of its own, which runs the job as verify_run() does (its launcher, its
 * monitor, its end) and hands back what it saw through a pipe. On one machine this pool is the
 * whole scheduler; on a cluster each run is a Slurm job step (slurm.h) and Slurm places it. */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "clock.h"
#include "diag.h"
#include "slurm.h"
#include "verify.h"
#include "xalloc.h"

/* What a child writes at its end, then report_len + key_len bytes. */
struct pool_result {
	int32_t ok;   /* verify_run() returned 0 */
	int32_t seen; /* enum xrun_seen */
	int32_t signal;
	int32_t left;
	uint32_t report_len;
	uint32_t key_len;
};

struct pool_child {
	pid_t pid;
	int fd; /* the read end of its result pipe, -1 once at its end */
	struct xrun *run;
	char *buf; /* what it wrote so far */
	size_t len, cap;
};

static struct pool_child *children;
static int nchildren;
static size_t capchildren;
static int forwarded; /* the signal mpiverify got was passed to the children */
static volatile sig_atomic_t pool_signal;

static void on_signal(int sig)
{
	pool_signal = sig;
}

int verify_pool_interrupted(void)
{
	return pool_signal;
}

void verify_pool_init(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa, old;
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		/* a signal ignored by whoever started us stays ignored (launch.c does the same) */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(sigs[i], &sa, NULL); /* no SA_RESTART: poll() returns at once */
	}
}

int verify_slots(void *ctx, const struct explore *x)
{
	const struct verify_opts *o = ctx;
	int ranks = x->nruns && x->runs[0]->usable ? x->runs[0]->ts.nranks : 0, cpus = 0;

	if (o->jobs > 0)
		return o->jobs;
	/* as many as the CPUs hold without oversubscribing them: one at a time for a 4-rank
	 * program on 2 cores */
	if (o->slurm)
		cpus = slurm_allocation_cpus();
	if (cpus <= 0)
		cpus = child_cpus();
	if (ranks <= 0 || cpus / ranks < 1)
		return 1;
	return cpus / ranks;
}

/* In the child: make the run, write what it saw, end. Never returns. */
static void child_main(struct verify_opts *o, struct explore *x, struct xrun *r, int fd)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct pool_result res;
	size_t i;
	int ok;

	/* until the run's launcher is started (launch.c takes these signals then), a signal
	 * ends this process: nothing of the job exists yet */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		struct sigaction old;

		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == on_signal)
			signal(sigs[i], SIG_DFL);
	}
	if (pool_signal)
		_exit(128 + pool_signal);
	ok = verify_run(o, x, r) == 0;
	memset(&res, 0, sizeof(res));
	res.ok = ok;
	res.seen = (int32_t)r->seen;
	res.signal = r->signal;
	res.left = r->left;
	res.report_len = r->report ? (uint32_t)strlen(r->report) : 0;
	res.key_len = r->hang_key ? (uint32_t)strlen(r->hang_key) : 0;
	if (child_write_all(fd, &res, sizeof(res)) < 0 ||
	    child_write_all(fd, r->report ? r->report : "", res.report_len) < 0 ||
	    child_write_all(fd, r->hang_key ? r->hang_key : "", res.key_len) < 0)
		_exit(MPIV_EXIT_TOOL);
	fflush(stderr);
	_exit(0);
}

int verify_start(void *ctx, struct explore *x, struct xrun *r)
{
	struct pool_child *c;
	int fds[2];
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return error("cannot make a pipe for run %d: %s", r->index, strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return error("cannot start run %d: %s", r->index, strerror(errno));
	}
	if (pid == 0) {
		int i;

		close(fds[0]);
		/* the other runs' pipes are theirs */
		for (i = 0; i < nchildren; i++)
			if (children[i].fd >= 0)
				close(children[i].fd);
		child_main(ctx, x, r, fds[1]);
	}
	close(fds[1]);
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	xgrow((void **)&children, &capchildren, (size_t)nchildren + 1, sizeof(*children));
	c = &children[nchildren++];
	memset(c, 0, sizeof(*c));
	c->pid = pid;
	c->fd = fds[0];
	c->run = r;
	r->started = mpiv_now();
	return 0;
}

/* Read what child c wrote; 1 at its end (the pipe closed), 0 if more may come. */
static int drain(struct pool_child *c)
{
	char buf[65536];
	ssize_t n;

	for (;;) {
		n = read(c->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return errno == EAGAIN ? 0 : 1;
		if (n == 0)
			return 1;
		xgrow((void **)&c->buf, &c->cap, c->len + (size_t)n, 1);
		memcpy(c->buf + c->len, buf, (size_t)n);
		c->len += (size_t)n;
		if ((size_t)n < sizeof(buf))
			return 0;
	}
}

static char *copy_bytes(const char *p, size_t n)
{
	char *s = xmalloc(n + 1);

	memcpy(s, p, n);
	s[n] = '\0';
	return s;
}

/* Child c's pipe closed: reap it and fill its run from what it wrote. */
static struct xrun *finish(struct pool_child *c)
{
	struct xrun *r = c->run;
	struct pool_result res;
	int st = 0;

	close(c->fd);
	c->fd = -1;
	r->ended = mpiv_now();
	while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
		;
	if (c->len >= sizeof(res)) {
		memcpy(&res, c->buf, sizeof(res));
		if (c->len != sizeof(res) + (size_t)res.report_len + res.key_len)
			res.ok = 0;
	} else {
		memset(&res, 0, sizeof(res));
	}
	if (c->len < sizeof(res) && (WIFSIGNALED(st) || (WIFEXITED(st) && WEXITSTATUS(st) > 128))) {
		/* ended by a signal before its job started */
		r->seen = XSEEN_INTERRUPTED;
		r->signal = WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st) - 128;
	} else if (!res.ok) {
		if (c->len < sizeof(res))
			error("run %d: its process ended without saying what the run showed (%s %d)",
			      r->index, WIFSIGNALED(st) ? "signal" : "exit status",
			      WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		r->failed = 1;
	} else {
		r->seen = (enum xrun_seen)res.seen;
		r->signal = res.signal;
		r->left = res.left;
		if (res.report_len)
			r->report = copy_bytes(c->buf + sizeof(res), res.report_len);
		if (res.key_len)
			r->hang_key = copy_bytes(c->buf + sizeof(res) + res.report_len,
						 res.key_len);
	}
	/* a signal mpiverify got, passed on: the run says the one it saw */
	if (r->seen == XSEEN_INTERRUPTED && pool_signal)
		r->signal = pool_signal;
	free(c->buf);
	*c = children[--nchildren];
	return r;
}

static void signal_children(int sig)
{
	int i;

	for (i = 0; i < nchildren; i++)
		kill(children[i].pid, sig);
}

struct xrun *verify_wait(void *ctx, struct explore *x, double deadline)
{
	struct pollfd *p;
	int i, n, ms;

	(void)ctx;
	(void)x;
	if (!nchildren)
		return NULL;
	p = xcalloc((size_t)nchildren, sizeof(*p));
	for (;;) {
		if (pool_signal && !forwarded) {
			/* the terminal's Ctrl-C reaches every run; a signal sent to mpiverify alone
			 * is passed on */
			signal_children(pool_signal);
			forwarded = 1;
		}
		ms = -1;
		if (deadline > 0) {
			double left = deadline - mpiv_now();

			if (left <= 0) {
				free(p);
				return NULL;
			}
			ms = left > 1e6 ? 1000000000 : (int)(left * 1000) + 1;
		}
		for (i = 0; i < nchildren; i++) {
			p[i].fd = children[i].fd;
			p[i].events = POLLIN;
			p[i].revents = 0;
		}
		n = poll(p, (nfds_t)nchildren, ms);
		if (n < 0 && errno != EINTR)
			die(MPIV_EXIT_TOOL, "cannot wait for the runs: %s", strerror(errno));
		for (i = 0; n > 0 && i < nchildren; i++) {
			if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (drain(&children[i])) {
				struct xrun *r = finish(&children[i]);

				free(p);
				return r;
			}
		}
	}
}

void verify_cancel(void *ctx)
{
	(void)ctx;
	/* each run ends its job (launch_end()) as on Ctrl-C, and says it was interrupted */
	signal_children(SIGTERM);
}
