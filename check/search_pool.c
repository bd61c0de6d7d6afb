/* check's searches side by side (search_pool.h): a child process per search, its result back
 * through a pipe; a child whose parent dies gets SIGTERM (spin_catch_signals() then ends its
 * pan), so that an interrupted check leaves no search running. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "search_pool.h"
#include "xalloc.h"

/* What a child writes: this, then each trail name with its NUL. */
struct pool_reply {
	int rc;
	struct mpiv_error err;
	int complete;
	char why[256];
	int errors;
	long states;
	double seconds;
	int ntrails;
	long lead;
	int own;
};

static void child(search_fn search, void *ctx, int i, int fd)
{
	struct pool_reply rep;
	struct spin_result res;
	int k;

	prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
	memset(&rep, 0, sizeof(rep));
	memset(&res, 0, sizeof(res));
	mpiv_error_init(&rep.err);
	rep.rc = search(ctx, i, &res, &rep.err);
	rep.complete = res.complete;
	memcpy(rep.why, res.why, sizeof(rep.why));
	rep.errors = res.errors;
	rep.states = res.states;
	rep.seconds = res.seconds;
	rep.lead = res.lead;
	rep.own = res.own;
	rep.ntrails = rep.rc ? 0 : res.ntrails;
	if (child_write_all(fd, &rep, sizeof(rep)) < 0)
		_exit(1);
	for (k = 0; k < rep.ntrails; k++)
		if (child_write_all(fd, res.trails[k], strlen(res.trails[k]) + 1) < 0)
			_exit(1);
	_exit(0);
}

/* Search i's reply into res, err and rc. */
static void take_reply(int fd, pid_t pid, struct spin_result *res, struct mpiv_error *err, int *rc)
{
	struct pool_reply rep;
	size_t len = 0, off;
	char *buf = xread_fd(fd, &len); /* NULL, len 0, if the pipe cannot be read */
	int k;

	close(fd);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	memset(res, 0, sizeof(*res));
	if (len < sizeof(rep)) {
		*rc = mpiv_error_set(err, MPIV_EXIT_TOOL, "", -1, -1,
				     "a search ended without a result (it was killed)");
		free(buf);
		return;
	}
	memcpy(&rep, buf, sizeof(rep));
	*err = rep.err;
	*rc = rep.rc;
	res->complete = rep.complete;
	memcpy(res->why, rep.why, sizeof(res->why));
	res->why[sizeof(res->why) - 1] = '\0';
	res->errors = rep.errors;
	res->states = rep.states;
	res->seconds = rep.seconds;
	res->lead = rep.lead;
	res->own = rep.own;
	res->trails = xcalloc((size_t)rep.ntrails + 1, sizeof(*res->trails));
	for (k = 0, off = sizeof(rep); k < rep.ntrails && off < len; k++) {
		size_t n = strnlen(buf + off, len - off);

		if (off + n >= len)
			break; /* a name cut short: the reply is damaged */
		res->trails[res->ntrails++] = xstrdup(buf + off);
		off += n + 1;
	}
	if (res->ntrails != rep.ntrails && !*rc)
		*rc = mpiv_error_set(err, MPIV_EXIT_TOOL, "", -1, -1,
				     "a search's result came back damaged");
	free(buf);
}

void search_pool_run(search_fn search, void *ctx, int n, int slots, struct spin_result *res,
		     struct mpiv_error *err, int *rc)
{
	pid_t *pids;
	int *fds, i, next = 0, running = 0;

	for (i = 0; i < n; i++)
		mpiv_error_init(&err[i]);
	if (slots <= 1 || n <= 1) {
		for (i = 0; i < n; i++) {
			memset(&res[i], 0, sizeof(res[i]));
			rc[i] = search(ctx, i, &res[i], &err[i]);
		}
		return;
	}
	pids = xcalloc((size_t)n, sizeof(*pids));
	fds = xcalloc((size_t)n, sizeof(*fds));
	while (next < n || running) {
		while (next < n && running < slots) {
			int p[2];

			memset(&res[next], 0, sizeof(res[next]));
			fflush(NULL);
			p[0] = p[1] = -1;
			if (pipe(p) < 0 || (pids[next] = fork()) < 0) {
				/* no child: this search runs here */
				if (p[0] >= 0) {
					close(p[0]);
					close(p[1]);
				}
				rc[next] = search(ctx, next, &res[next], &err[next]);
				fds[next] = -1;
				next++;
				continue;
			}
			if (pids[next] == 0) {
				close(p[0]);
				child(search, ctx, next, p[1]);
			}
			close(p[1]);
			fds[next++] = p[0];
			running++;
		}
		if (!running)
			break;
		/* the children's replies are read in order: a later one that ends first waits in
		 * its pipe (a reply is small), and the next slot opens when the one read ends */
		for (i = 0; i < next; i++)
			if (fds[i] >= 0) {
				take_reply(fds[i], pids[i], &res[i], &err[i], &rc[i]);
				fds[i] = -1;
				running--;
				break;
			}
	}
	free(pids);
	free(fds);
}
