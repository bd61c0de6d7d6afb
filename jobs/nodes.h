/* A job's ranks on several nodes of a Slurm allocation, whose directories need not be shared
 * (doc/cluster.md, "Node-local directories"). mpiverify runs a small helper on every node of
 * the allocation as a job step of its own beside the program's (`srun --overlap`, one task a
 * node: `mpiverify node-agent`, node_agent.c), at three moments of each run:
 *   put    before the job: make its directories on every node and write there the files
 *          its ranks read (steering, counterexample, traces);
 *   watch  while it runs: each node sums up its own ranks' status files (in a directory of
 *          its own, never on a shared file system) into one line a period, so that the
 *          monitor reads one line per node, not one file per rank (monitor.c);
 *   get    once it has ended: every node's traces and status files are brought back into
 *          the run's directory on mpiverify's node, for check and for the hang report.
 * The files travel as a filestream.h stream through the steps' standard input and output. */
#ifndef MPIV_NODES_H
#define MPIV_NODES_H

#include <stdint.h>
#include <sys/types.h>

/* One node's ranks, as its helper sums them up each period (monitor_summarise()). */
struct node_summary {
	char host[64];
	int size;	   /* the world size its ranks report; 0 when it has none */
	int n;		   /* its ranks seen */
	int finalized;	   /* ... FINALIZED */
	int in_call;	   /* ... blocked in a call (IN_CALL, not polling) */
	int polling;	   /* ... polling without progress */
	int other;	   /* ... running, starting, or polling with progress */
	int diverged;	   /* ... DIVERGED */
	int failed;	   /* ... FAILED */
	int stopped;	   /* blocked ranks whose beat has stood still (stopped, not blocked) */
	double still;	   /* seconds since one of its ranks last changed (progress, call) */
	uint64_t progress; /* its ranks' completed calls, summed */
	double received;   /* mpiverify: when the line came (monotonic clock) */
};

/* The line of a summary: "node HOST SIZE N FIN IN_CALL POLLING OTHER DIVERGED FAILED STOPPED
 * STILL PROGRESS". Writes it into buf; parses it back, returning 0 or -1. */
void node_summary_format(const struct node_summary *s, char *buf, size_t size);
int node_summary_parse(const char *line, struct node_summary *s);

/* The watch of a running job: the helper step and the nodes' latest summaries. */
struct node_watch {
	pid_t pid; /* srun of the helper step, 0 if none */
	int in;	   /* its standard input (closing it ends the helpers), or -1 */
	int out;   /* its standard output, or -1 at its end */
	char *buf; /* output not yet a whole line */
	size_t len, cap;
	struct node_summary *nodes; /* by host, in the order they first reported */
	char *warned;		    /* per node: its silence or a stopped rank was warned of */
	int nnodes;
	size_t capnodes;
	/* where nodes_peek() gathers the status files (owned, set after
	 * nodes_watch_start()), or NULL: no peeking */
	char *peek_dir;
	double peeked; /* when the last peek was (monotonic), 0 if none */
};

/* Whether a job of command runs under the node helpers: inside a Slurm allocation of more
 * than one node, with srun as the launcher. Elsewhere the ranks' status files are read where
 * they are written, in the run's directory (as on one machine). */
int nodes_active(char *const *command);

/* The node-local directory of the status files of the run whose directory is dir (absolute):
 * the same path on every node, under /tmp. Returns it malloc'ed. */
char *nodes_status_dir(const char *dir);

/* put: on every node of the allocation, make each directory of dirs (NULL-terminated),
 * removing what an earlier run left in it, and write each file of files (absolute paths on
 * this node, NULL-terminated) to the same path. Returns 0, or -1 after an error. */
int nodes_put(const char *const *dirs, const char *const *files);

/* Start watching status_dir on every node (a deadlock timeout of timeout seconds tells
 * polling from blocked, as monitor_run() says), before the job starts: returns once every
 * node's helper has reported, so that the job's step is not launched with the helpers' (or
 * after some seconds without). Returns 0, or -1 after an error. */
int nodes_watch_start(struct node_watch *w, const char *status_dir, double timeout);

/* Take the summaries the helpers sent since the last call, stamped t. */
void nodes_watch_poll(struct node_watch *w, double t);

/* Gather every node's status files now, while the job runs, into w->peek_dir (emptied
 * first): what each rank is blocked in, once the summaries say that every rank is still.
 * Returns 0, or -1 after an error. */
int nodes_peek(struct node_watch *w, const char *status_dir);

/* End the helper step (at once: its tasks exit when their input closes) and free w, its
 * peek directory removed. */
void nodes_watch_stop(struct node_watch *w);

/* get: from every node, the status files of status_dir and the traces of dir, into dir on
 * this node (those there already are kept). Returns 0, or -1 after an error. */
int nodes_get(const char *dir, const char *status_dir);

/* node_agent.c: `mpiverify node-agent put|watch|get ...`, run by the steps above. */
int cmd_node_agent(int argc, char **argv);

#endif
