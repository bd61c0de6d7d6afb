/* The node helpers of a job spread over a Slurm allocation (nodes.h): their job steps, and
 * what mpiverify does with what they send. */
#define _GNU_SOURCE /* pipe2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "diag.h"
#include "filestream.h"
#include "nodes.h"
#include "slurm.h"
#include "status.h"
#include "xalloc.h"

#define STOP_MS 3000	      /* for a helper step to end once told, before it is killed */
#define QUIET_MS 60000	      /* a helper step that sends nothing for this long is stuck */
#define NODES_READY_WAIT 10.0 /* seconds for the watch's helpers to report before the job */

void node_summary_format(const struct node_summary *s, char *buf, size_t size)
{
	snprintf(buf, size, "node %s %d %d %d %d %d %d %d %d %d %.3f %" PRIu64, s->host, s->size,
		 s->n, s->finalized, s->in_call, s->polling, s->other, s->diverged, s->failed,
		 s->stopped, s->still, s->progress);
}

int node_summary_parse(const char *line, struct node_summary *s)
{
	int end = 0;

	memset(s, 0, sizeof(*s));
	if (sscanf(line, "node %63s %d %d %d %d %d %d %d %d %d %lf %" SCNu64 "%n", s->host,
		   &s->size, &s->n, &s->finalized, &s->in_call, &s->polling, &s->other,
		   &s->diverged, &s->failed, &s->stopped, &s->still, &s->progress, &end) != 12 ||
	    line[end] != '\0')
		return -1;
	if (s->size < 0 || s->n < 0 || s->n > s->size || s->still < 0 ||
	    s->finalized + s->in_call + s->polling + s->other + s->diverged + s->failed != s->n)
		return -1;
	return 0;
}

/* The nodes of the allocation: SLURM_JOB_NUM_NODES (SLURM_NNODES), 0 if unknown. */
static int allocation_nodes(void)
{
	const char *s = getenv("SLURM_JOB_NUM_NODES");
	char *end;
	long n;

	if (!s || !*s)
		s = getenv("SLURM_NNODES");
	if (!s || !*s)
		return 0;
	n = strtol(s, &end, 10);
	return *end || n < 1 || n > 1 << 20 ? 0 : (int)n;
}

int nodes_active(char *const *command)
{
	return slurm_in_allocation() && slurm_is_srun(command) && allocation_nodes() > 1;
}

char *nodes_status_dir(const char *dir)
{
	uint64_t h = 14695981039346656037ULL; /* FNV-1a: a name of fixed length for any dir */
	const char *p;
	char buf[96];

	for (p = dir; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	snprintf(buf, sizeof(buf), "/tmp/mpiverify-%u-%016" PRIx64, (unsigned)getuid(), h);
	return xstrdup(buf);
}

/* A handler that does nothing (as launch.c's): a helper step that died must not kill
 * mpiverify with SIGPIPE, and exec resets it for the step. */
static void on_sigpipe(int sig)
{
	(void)sig;
}

/* Start `srun ... mpiverify node-agent MODE ARGS` on every node, one task a node, its input
 * and output through pipes (*in, *out). label: srun prefixes each output line with its task.
 * Returns the pid, or 0 after an error. */
static pid_t spawn(const char *mode, const char *arg1, const char *arg2, int label, int *in,
		   int *out, int *ntasks)
{
	char exe[PATH_MAX], nodes[16];
	char *argv[24];
	int pin[2], pout[2], k = 0;
	ssize_t n;
	pid_t pid;
	struct sigaction sa, old;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		error("cannot find mpiverify's own executable: %s", strerror(errno));
		return 0;
	}
	exe[n] = '\0';
	*ntasks = allocation_nodes();
	snprintf(nodes, sizeof(nodes), "%d", *ntasks);
	argv[k++] = "srun";
	/* beside the program's step, on CPUs it holds; one task a node of the allocation */
	argv[k++] = "--overlap";
	argv[k++] = "--quiet";
	argv[k++] = "--mpi=none";
	argv[k++] = "-c1";
	argv[k++] = "-N";
	argv[k++] = nodes;
	argv[k++] = "-n";
	argv[k++] = nodes;
	argv[k++] = "--ntasks-per-node=1";
	if (label)
		argv[k++] = "--label";
	argv[k++] = exe;
	argv[k++] = "node-agent";
	argv[k++] = (char *)mode;
	if (arg1)
		argv[k++] = (char *)arg1;
	if (arg2)
		argv[k++] = (char *)arg2;
	argv[k] = NULL;
	if (sigaction(SIGPIPE, NULL, &old) == 0 && old.sa_handler == SIG_DFL) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigpipe;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGPIPE, &sa, NULL);
	}
	if (pipe2(pin, O_CLOEXEC) < 0)
		return error("cannot make a pipe: %s", strerror(errno)), 0;
	if (pipe2(pout, O_CLOEXEC) < 0) {
		close(pin[0]);
		close(pin[1]);
		return error("cannot make a pipe: %s", strerror(errno)), 0;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(pin[0], STDIN_FILENO);
		dup2(pout[1], STDOUT_FILENO);
		/* a group of its own: Ctrl-C at the terminal is mpiverify's to pass on */
		setpgid(0, 0);
		execvp(argv[0], argv);
		dprintf(2, "mpiverify: cannot run 'srun': %s\n", strerror(errno));
		_exit(127);
	}
	close(pin[0]);
	close(pout[1]);
	if (pid < 0) {
		error("cannot fork: %s", strerror(errno));
		close(pin[1]);
		close(pout[0]);
		return 0;
	}
	setpgid(pid, pid);
	*in = pin[1];
	*out = pout[0];
	return pid;
}

/* The exit status of the helper step pid, as a shell reports it (-1 if it cannot be had). */
static int step_status(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* Lines read from a pipe. */
struct lines {
	char *buf;
	size_t len, cap;
	size_t used; /* the bytes of the line returned last, dropped on the next call */
};

/* The next whole line of fd, without its newline, into *line: 1; 0 at the end of the file;
 * -1 on an error, a line longer than max, or nothing read for QUIET_MS (errno ETIMEDOUT). */
static int next_line(int fd, struct lines *l, char **line, size_t max)
{
	char *nl;
	ssize_t n;

	if (l->used) {
		memmove(l->buf, l->buf + l->used, l->len - l->used);
		l->len -= l->used;
		l->used = 0;
	}
	for (;;) {
		nl = l->len ? memchr(l->buf, '\n', l->len) : NULL;
		if (nl) {
			*nl = '\0';
			*line = l->buf;
			l->used = (size_t)(nl - l->buf) + 1;
			return 1;
		}
		if (l->len > max)
			return -1;
		xgrow((void **)&l->buf, &l->cap, l->len + 65536, 1);
		{
			struct pollfd p = {.fd = fd, .events = POLLIN};
			int rc = poll(&p, 1, QUIET_MS);

			if (rc < 0 && errno == EINTR)
				continue;
			if (rc == 0)
				errno = ETIMEDOUT;
			if (rc <= 0)
				return -1;
		}
		n = read(fd, l->buf + l->len, l->cap - l->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		l->len += (size_t)n;
	}
}

/* The line of task t without srun's label ("  3: "), or NULL if it has none. */
static char *unlabel(char *line, int *task)
{
	char *end;
	long t;

	while (*line == ' ')
		line++;
	t = strtol(line, &end, 10);
	if (end == line || t < 0 || t > 1 << 20 || end[0] != ':' || end[1] != ' ')
		return NULL;
	*task = (int)t;
	return end + 2;
}

int nodes_put(const char *const *dirs, const char *const *files)
{
	struct lines lines = {0};
	char *line, *data;
	size_t len, cap = 0, size;
	int in, out, ntasks, oks = 0, rc = 0, st;
	FILE *f;
	pid_t pid = spawn("put", NULL, NULL, 0, &in, &out, &ntasks);

	if (!pid)
		return -1;
	f = fdopen(in, "w");
	if (!f)
		die(MPIV_EXIT_TOOL, "cannot write to the helper step: %s", strerror(errno));
	mpiv_fs_write_header(f);
	for (; dirs && *dirs && !rc; dirs++)
		if (mpiv_fs_write_dir(f, *dirs) < 0)
			rc = error("cannot send the directory '%s' to the nodes: %s", *dirs,
				   errno == EINVAL ? "not an absolute, plain path" :
						     strerror(errno));
	for (; files && *files && !rc; files++) {
		FILE *src = fopen(*files, "rb");

		if (!src) {
			error("cannot read '%s' to send it to the nodes: %s", *files,
			      strerror(errno));
			rc = -1;
			break;
		}
		data = NULL;
		size = 0;
		for (;;) {
			xgrow((void **)&data, &cap, size + 65536, 1);
			len = fread(data + size, 1, cap - size, src);
			if (!len)
				break;
			size += len;
		}
		fclose(src);
		if (mpiv_fs_write_file(f, *files, data, size) < 0) {
			error("cannot send '%s' to the nodes: %s", *files,
			      errno == EINVAL ? "not an absolute, plain path" : strerror(errno));
			rc = -1;
		}
		free(data);
		cap = 0;
		if (rc)
			break;
	}
	if (!rc)
		mpiv_fs_write_end(f);
	fclose(f); /* the helpers see the end of their input */
	while (next_line(out, &lines, &line, 1 << 16) > 0)
		if (!strncmp(line, "ok ", 3))
			oks++;
	close(out);
	free(lines.buf);
	st = step_status(pid);
	if (!rc && (st != 0 || oks != ntasks)) {
		error("the step that prepares the run's directories on the %d nodes failed (%s %d, "
		      "%d of them done)",
		      ntasks, st < 0 ? "status" : "exit status", st, oks);
		rc = -1;
	}
	return rc;
}

int nodes_watch_start(struct node_watch *w, const char *status_dir, double timeout)
{
	struct pollfd out;
	char t[32];
	double until;
	int ntasks;

	memset(w, 0, sizeof(*w));
	w->in = -1;
	w->out = -1;
	snprintf(t, sizeof(t), "%g", timeout);
	w->pid = spawn("watch", status_dir, t, 1, &w->in, &w->out, &ntasks);
	if (!w->pid)
		return -1;
	fcntl(w->out, F_SETFL, O_NONBLOCK);
	/* until every node's helper has said it runs: slurmd 22.05 has crashed taking two
	 * step launches at once, this one and the job's, which comes next */
	until = mpiv_now() + NODES_READY_WAIT;
	out.fd = w->out;
	out.events = POLLIN;
	while (w->nnodes < ntasks && w->out >= 0 && mpiv_now() < until) {
		if (poll(&out, 1, MPIV_STATUS_PERIOD_MS) < 0 && errno != EINTR)
			break;
		nodes_watch_poll(w, mpiv_now());
	}
	return 0;
}

/* Note summary s, received at t. */
static void take_summary(struct node_watch *w, struct node_summary *s, double t)
{
	int i;

	s->received = t;
	for (i = 0; i < w->nnodes; i++)
		if (!strcmp(w->nodes[i].host, s->host))
			break;
	if (i == w->nnodes) {
		xgrow((void **)&w->nodes, &w->capnodes, (size_t)w->nnodes + 1, sizeof(*w->nodes));
		w->warned = xrealloc(w->warned, (size_t)w->nnodes + 1);
		w->warned[w->nnodes++] = 0;
	}
	w->nodes[i] = *s;
}

void nodes_watch_poll(struct node_watch *w, double t)
{
	struct node_summary s;
	char *nl, *line;
	ssize_t n;
	int task;

	while (w->out >= 0) {
		xgrow((void **)&w->buf, &w->cap, w->len + 4096, 1);
		n = read(w->out, w->buf + w->len, w->cap - w->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (n < 0 && errno != EAGAIN)) {
			close(w->out);
			w->out = -1;
		}
		if (n <= 0)
			break;
		w->len += (size_t)n;
	}
	while ((nl = w->len ? memchr(w->buf, '\n', w->len) : NULL)) {
		*nl = '\0';
		line = unlabel(w->buf, &task);
		/* anything else (a helper's complaint) is no summary: the node's stays old */
		if (line && node_summary_parse(line, &s) == 0)
			take_summary(w, &s, t);
		w->len -= (size_t)(nl + 1 - w->buf);
		memmove(w->buf, nl + 1, w->len);
	}
	if (w->len > 1 << 16)
		w->len = 0; /* no line is that long: drop it */
}

/* Remove the status files of dir. */
static void empty_dir(const char *dir)
{
	char path[8192];
	struct dirent *de;
	DIR *d = opendir(dir);
	int rank, end;

	while (d && (de = readdir(d))) {
		end = 0;
		if (sscanf(de->d_name, "rank-%d.status%n", &rank, &end) == 1 && !de->d_name[end]) {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			unlink(path);
		}
	}
	if (d)
		closedir(d);
}

void nodes_watch_stop(struct node_watch *w)
{
	double start = mpiv_now();
	int killed = 0;

	if (w->in >= 0)
		close(w->in);
	w->in = -1;
	while (w->pid && w->out >= 0) {
		struct pollfd p = {.fd = w->out, .events = POLLIN};

		if (!killed && mpiv_now() - start > STOP_MS / 1000.0) {
			/* srun ends its step on SIGTERM */
			kill(-w->pid, SIGTERM);
			killed = 1;
		} else if (killed && mpiv_now() - start > 2 * STOP_MS / 1000.0) {
			kill(-w->pid, SIGKILL);
			break;
		}
		poll(&p, 1, 100);
		nodes_watch_poll(w, mpiv_now());
	}
	if (w->out >= 0)
		close(w->out);
	if (w->peek_dir) {
		empty_dir(w->peek_dir);
		rmdir(w->peek_dir);
		free(w->peek_dir);
	}
	/* the monitor's reaping may have collected it already */
	if (w->pid)
		waitpid(w->pid, NULL, WNOHANG);
	free(w->buf);
	free(w->nodes);
	free(w->warned);
	memset(w, 0, sizeof(*w));
	w->in = -1;
	w->out = -1;
}

/* One node's stream being written into dir. */
struct get_task {
	struct mpiv_fs_reader r;
	int fd;		 /* the file being written, -1 if skipped or none */
	char tmp[4210];	 /* its name while it is written */
	char path[4200]; /* its name once complete */
	int ended;	 /* its end record came */
};

/* Begin the file of the record r reads, into dir (the status files of status_dir too);
 * those dir has already are skipped. Returns 0, or -1 after an error. */
static int get_begin(struct get_task *g, const char *dir, const char *status_dir)
{
	const char *base = strrchr(g->r.path, '/');
	size_t dlen = (size_t)(base - g->r.path);
	struct stat sb;

	g->fd = -1;
	if (!((dlen == strlen(dir) && !strncmp(g->r.path, dir, dlen)) ||
	      (dlen == strlen(status_dir) && !strncmp(g->r.path, status_dir, dlen))))
		return error("a node sent '%s', outside the run's directories", g->r.path), -1;
	snprintf(g->path, sizeof(g->path), "%s%s", dir, base);
	if (stat(g->path, &sb) == 0)
		return 0; /* written here (this node's, or a shared directory) */
	snprintf(g->tmp, sizeof(g->tmp), "%s.part", g->path);
	g->fd = open(g->tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (g->fd < 0)
		return error("cannot create '%s': %s", g->tmp, strerror(errno)), -1;
	return 0;
}

static int get_finish(struct get_task *g)
{
	int rc = 0;

	if (g->fd < 0)
		return 0;
	if (close(g->fd) < 0 || rename(g->tmp, g->path) < 0)
		rc = error("cannot write '%s': %s", g->path, strerror(errno));
	g->fd = -1;
	return rc;
}

int nodes_get(const char *dir, const char *status_dir)
{
	struct get_task *tasks;
	struct lines lines = {0};
	char *line, *rest, why[256];
	int in, out, ntasks, t, task, got, more, rc = 0, st;
	pid_t pid = spawn("get", dir, status_dir, 1, &in, &out, &ntasks);

	if (!pid)
		return -1;
	close(in);
	tasks = xcalloc((size_t)ntasks, sizeof(*tasks));
	for (t = 0; t < ntasks; t++) {
		mpiv_fs_reader_init(&tasks[t].r);
		tasks[t].fd = -1;
	}
	while ((more = next_line(out, &lines, &line, 1 << 16)) > 0) {
		struct get_task *g;

		rest = unlabel(line, &task);
		if (!rest || task >= ntasks) {
			if (!rc)
				rc = error("the step that gathers the nodes' files wrote '%.80s'",
					   line);
			continue;
		}
		g = &tasks[task];
		if (rc || g->r.state < 0)
			continue;
		got = mpiv_fs_line(&g->r, rest, strlen(rest), why, sizeof(why));
		if (got < 0) {
			rc = error("the files of node task %d: %s", task, why);
		} else if (got == MPIV_FS_FILE) {
			rc = get_begin(g, dir, status_dir);
			if (!rc && g->r.done)
				rc = get_finish(g);
		} else if (got == MPIV_FS_DATA) {
			if (g->fd >= 0 &&
			    write(g->fd, g->r.chunk, g->r.chunk_len) != (ssize_t)g->r.chunk_len)
				rc = error("cannot write '%s': %s", g->tmp, strerror(errno));
			if (!rc && g->r.done)
				rc = get_finish(g);
		} else if (got == MPIV_FS_END) {
			g->ended = 1;
		} else if (got == MPIV_FS_DIR) {
			rc = error("the files of node task %d: a dir record", task);
		}
	}
	if (more < 0 && errno == ETIMEDOUT) {
		if (!rc)
			rc = error("the step that gathers the nodes' files sent nothing for %d s: "
				   "ending it",
				   QUIET_MS / 1000);
		kill(-pid, SIGTERM);
	}
	close(out);
	free(lines.buf);
	st = step_status(pid);
	for (t = 0; t < ntasks; t++) {
		if (tasks[t].fd >= 0) {
			close(tasks[t].fd);
			unlink(tasks[t].tmp);
		}
		if (!rc && !tasks[t].ended)
			rc = error("the files of node task %d were cut short (the step's exit "
				   "status %d)",
				   t, st);
	}
	free(tasks);
	return rc;
}

int nodes_peek(struct node_watch *w, const char *status_dir)
{
	if (mkdir(w->peek_dir, 0777) < 0 && errno != EEXIST)
		return error("cannot create directory '%s': %s", w->peek_dir, strerror(errno));
	empty_dir(w->peek_dir);
	return nodes_get(w->peek_dir, status_dir);
}
