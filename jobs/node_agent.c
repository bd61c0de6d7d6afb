/* `mpiverify node-agent`: what runs on each node of a Slurm allocation for a job spread over
 * it (nodes.h), one task a node, started by mpiverify, never by a user:
 *
 *	node-agent put			read a file stream (filestream.h) on the standard input:
 *					make its directories, write its files; say "ok HOST"
 *	node-agent watch DIR TIMEOUT	every period, one line summing up the status files of
 *					this node's ranks in DIR (node_summary_format()), until
 *					the standard input ends
 *	node-agent get DIR STATUSDIR	write the ranks' traces of DIR and status files of
 *					STATUSDIR as a file stream on the standard output
 *
 * Exit status: 0, or 4 after a message on the standard error. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "diag.h"
#include "exit.h"
#include "filestream.h"
#include "monitor.h"
#include "nodes.h"
#include "outdir.h"
#include "status.h"
#include "status_file.h"
#include "xalloc.h"

/* Whether name is a file a rank or record writes into a run's directory ("rank-3.mpivt",
 * "rank-3.json", "rank-3.status", "meta.json"); *rank gets N of rank-N (-1 for meta.json),
 * *ext its extension. */
static int run_file(const char *name, int *rank, const char **ext)
{
	int end = 0;

	*rank = -1;
	*ext = NULL;
	if (!strcmp(name, "meta.json"))
		return 1;
	if (sscanf(name, "rank-%d%n", rank, &end) != 1 || *rank < 0 || name[end] != '.')
		return 0;
	*ext = name + end;
	return !strcmp(*ext, ".mpivt") || !strcmp(*ext, ".json") || !strcmp(*ext, ".status");
}

static void host_name(char *host, size_t size)
{
	if (gethostname(host, size - 1) != 0)
		snprintf(host, size, "unknown");
	host[size - 1] = '\0';
}

/* put's dir record: make it, without what an earlier run left in it. */
static int put_dir(const char *path)
{
	DIR *d;
	struct dirent *de;
	const char *ext;
	char file[8192];
	int rank;

	if (outdir_make(path) < 0)
		return error("cannot create directory '%s': %s", path, strerror(errno));
	d = opendir(path);
	if (!d)
		return error("cannot read directory '%s': %s", path, strerror(errno));
	while ((de = readdir(d)))
		if (run_file(de->d_name, &rank, &ext)) {
			snprintf(file, sizeof(file), "%s/%s", path, de->d_name);
			if (unlink(file) < 0 && errno != ENOENT) {
				closedir(d);
				return error("cannot remove '%s': %s", file, strerror(errno));
			}
		}
	closedir(d);
	return 0;
}

static int agent_put(void)
{
	struct mpiv_fs_reader r;
	char *line = NULL, why[256], tmp[8300], host[64], *slash;
	size_t cap = 0;
	ssize_t len;
	int fd = -1, got;

	host_name(host, sizeof(host));
	mpiv_fs_reader_init(&r);
	while ((len = getline(&line, &cap, stdin)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		got = mpiv_fs_line(&r, line, (size_t)len, why, sizeof(why));
		if (got < 0)
			return error("the files to prepare: %s", why), MPIV_EXIT_TOOL;
		if (got == MPIV_FS_DIR && put_dir(r.path) < 0)
			return MPIV_EXIT_TOOL;
		if (got == MPIV_FS_FILE) {
			/* several nodes may write one shared file: each its own temporary */
			snprintf(tmp, sizeof(tmp), "%s.part.%s.%d", r.path, host, (int)getpid());
			slash = strrchr(tmp, '/');
			*slash = '\0';
			if (outdir_make(tmp) < 0)
				return error("cannot create directory '%s': %s", tmp,
					     strerror(errno)),
				       MPIV_EXIT_TOOL;
			*slash = '/';
			fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
			if (fd < 0)
				return error("cannot create '%s': %s", tmp, strerror(errno)),
				       MPIV_EXIT_TOOL;
		}
		if (got == MPIV_FS_DATA && write(fd, r.chunk, r.chunk_len) != (ssize_t)r.chunk_len)
			return error("cannot write '%s': %s", tmp, strerror(errno)), MPIV_EXIT_TOOL;
		if ((got == MPIV_FS_FILE || got == MPIV_FS_DATA) && r.done) {
			if (close(fd) < 0 || rename(tmp, r.path) < 0)
				return error("cannot write '%s': %s", r.path, strerror(errno)),
				       MPIV_EXIT_TOOL;
			fd = -1;
		}
		if (got == MPIV_FS_END)
			break;
	}
	free(line);
	if (r.state != 3)
		return error("the files to prepare were cut short"), MPIV_EXIT_TOOL;
	printf("ok %s\n", host);
	return fflush(stdout) ? MPIV_EXIT_TOOL : MPIV_EXIT_OK;
}

/* This node's ranks: those whose status file is in the directory. */
struct local_ranks {
	struct monitor_rank **by_rank; /* world size entries once known; NULL: not here */
	struct monitor_rank **list;    /* the ranks seen, in the order they appeared */
	int size, n;
	size_t cap;
};

/* Read the status files in dir once, at t. */
static void watch_scan(const char *dir, struct local_ranks *lr, double t)
{
	struct mpiv_status st;
	struct dirent *de;
	const char *ext;
	DIR *d = opendir(dir);
	int rank;

	if (!d)
		return;
	while ((de = readdir(d))) {
		struct monitor_rank *m;

		if (!run_file(de->d_name, &rank, &ext) || rank < 0 || strcmp(ext, ".status"))
			continue;
		if (status_file_read(dir, rank, &st) < 0 || (lr->size && st.size != lr->size))
			continue; /* torn, damaged or of another run: what was seen stays */
		if (!lr->size) {
			lr->size = st.size;
			lr->by_rank = xcalloc((size_t)st.size, sizeof(*lr->by_rank));
		}
		m = lr->by_rank[rank];
		if (!m) {
			m = lr->by_rank[rank] = xcalloc(1, sizeof(*m));
			xgrow((void **)&lr->list, &lr->cap, (size_t)lr->n + 1, sizeof(*lr->list));
			lr->list[lr->n++] = m;
		}
		monitor_rank_update(m, &st, t);
	}
	closedir(d);
}

static int agent_watch(const char *dir, const char *timeout_arg)
{
	struct local_ranks lr;
	struct node_summary s;
	char line[256], host[64];
	double timeout = strtod(timeout_arg, NULL), t;
	struct pollfd in = {.fd = STDIN_FILENO, .events = POLLIN};
	char drain[512];

	if (timeout <= 0)
		return error("invalid timeout '%s'", timeout_arg), MPIV_EXIT_TOOL;
	host_name(host, sizeof(host));
	memset(&lr, 0, sizeof(lr));
	for (;;) {
		/* the period's wait, cut short by the end of the input: mpiverify is done */
		if (poll(&in, 1, MPIV_STATUS_PERIOD_MS) > 0) {
			if (read(STDIN_FILENO, drain, sizeof(drain)) <= 0)
				break;
		}
		t = mpiv_now();
		watch_scan(dir, &lr, t);
		memset(&s, 0, sizeof(s));
		snprintf(s.host, sizeof(s.host), "%s", host);
		s.size = lr.size;
		monitor_summarise(lr.list, lr.n, t, timeout, &s);
		node_summary_format(&s, line, sizeof(line));
		if (printf("%s\n", line) < 0 || fflush(stdout))
			break; /* nobody listens any more */
	}
	return MPIV_EXIT_OK;
}

/* Write the run files of dir (those of kind ".status" only if status, the others if not). */
static int get_dir(const char *dir, int status)
{
	struct mpiv_status st;
	struct dirent *de;
	const char *ext;
	char path[8192], *data = NULL;
	size_t cap = 0, size, got;
	DIR *d = opendir(dir);
	int rank, rc = 0;

	if (!d)
		return 0; /* nothing ran here */
	while ((de = readdir(d)) && !rc) {
		FILE *f;

		if (!run_file(de->d_name, &rank, &ext) || rank < 0 ||
		    !strcmp(ext, ".status") != !!status)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (status) {
			/* read as the monitor reads it: not torn by a last rewrite */
			if (status_file_read(dir, rank, &st) == 0)
				rc = mpiv_fs_write_file(stdout, path, &st, sizeof(st));
			continue;
		}
		f = fopen(path, "rb");
		if (!f)
			continue;
		for (size = 0;; size += got) {
			xgrow((void **)&data, &cap, size + 65536, 1);
			got = fread(data + size, 1, cap - size, f);
			if (!got)
				break;
		}
		fclose(f);
		rc = mpiv_fs_write_file(stdout, path, data, size);
	}
	closedir(d);
	free(data);
	return rc;
}

static int agent_get(const char *dir, const char *status_dir)
{
	if (mpiv_fs_write_header(stdout) < 0 || get_dir(dir, 0) < 0 || get_dir(status_dir, 1) < 0 ||
	    mpiv_fs_write_end(stdout) < 0)
		return error("cannot send this node's files: %s", strerror(errno)), MPIV_EXIT_TOOL;
	return MPIV_EXIT_OK;
}

int cmd_node_agent(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "put"))
		return agent_put();
	if (argc == 4 && !strcmp(argv[1], "watch"))
		return agent_watch(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "get"))
		return agent_get(argv[2], argv[3]);
	error("node-agent is run by mpiverify on a cluster's nodes: put | watch DIR TIMEOUT | "
	      "get DIR STATUSDIR");
	return MPIV_EXIT_USAGE;
}
