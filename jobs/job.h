/* One run of the user's job under a preload library, for every command that runs the program
 * (record, replay, verify's runs): prepare the directory the ranks report to, start the
 * launcher with the library preload_pick() chose preloaded and the variables set, watch it
 * with the monitor until an outcome, end it. The caller decides what the outcome means and
 * prints it.
 *
 *	struct job job;
 *	job_init(&job);
 *	if ((rc = preload_pick(&preload, command, PRELOAD_RECORDER, 0)) ||
 *	    (rc = job_prepare_dir(&job, out, stale)) ||
 *	    (rc = job_start(&job, &preload, command, vars, timeout)))
 *		goto out;
 *	res = job_watch(&job);
 *	... job_end(&job) once the outcome is known ...
 *	out: job_release(&job); preload_release(&preload);
 */
#ifndef MPIV_JOB_H
#define MPIV_JOB_H

#include "launch.h"
#include "monitor.h"
#include "mpi_pick.h"

struct job {
	char *lib;		       /* the preload library, absolute; owned */
	const struct mpiv_mpilib *mpi; /* the MPI library the job runs on */
	char *dir;		       /* where the ranks write rank-N.status, absolute; owned */
	int lock;		       /* holds dir (outdir_prepare()) until job_release(), or -1 */
	int started;		       /* launch holds a started launcher */
	struct launch launch;
	struct monitor_result res; /* what job_watch() saw */
	/* > 0: where the job's output goes (verify's runs), set
	 * before job_start(); 0: ours */
	int sink;
	/* set before job_watch(): the deadlock the
	 * run should end in (verify), or NULL */
	const struct monitor_expect *expect;
	/* set before job_start(), for a job spread over a Slurm allocation's nodes (nodes.h):
	 * the directories its ranks write into, made anew on every node, and the files they
	 * read, sent to every node (NULL-terminated lists, or NULL) */
	const char *const *put_dirs;
	const char *const *put_files;
	/* where the ranks write rank-N.status: dir, or for a job
	 * spread over nodes a directory of each node's own
	 * (nodes_status_dir()); owned */
	char *status_dir;
	struct node_watch *nodes; /* that job's node helpers while it runs, else NULL */
	double timeout;		  /* job_start()'s */
};

/* An empty job; call job_release() in the end. */
void job_init(struct job *j);

/* Make dir the job's directory (outdir_prepare(): created, writable, stale files of an earlier
 * run removed). Returns 0, or MPIV_EXIT_BAD_INPUT after an error. */
int job_prepare_dir(struct job *j, const char *dir, const char *const *stale);

/* Start command (argv[0] found on PATH) with p's library preloaded, the job's directory as
 * MPIVERIFY_STATUS_DIR and every variable of vars (a list ending with a NULL name); for a
 * launcher that passes only the variables it is told of to the ranks (Open MPI's: struct
 * mpiv_mpilib, forward_env), it is told of these and LD_PRELOAD. A job spread over a Slurm
 * allocation's nodes gets its nodes' helpers first (nodes_watch_start()). timeout is the
 * deadlock timeout job_watch() watches it with. Returns 0, or MPIV_EXIT_TOOL after an error
 * (the launcher cannot be run). */
int job_start(struct job *j, const struct preload *p, char *const *command,
	      const struct launch_var *vars, double timeout);

/* Watch the started job (monitor_run()) until it completes, deadlocks (no progress for
 * job_start()'s timeout seconds), a rank diverges or fails, or mpiverify is interrupted. The
 * job is left running: end it with job_end(). Returns the result, which the job owns. A job
 * spread over a Slurm allocation's nodes (nodes_active()) is watched through its nodes'
 * helpers, then ended here, and its files gathered into dir from every node: the result's
 * ranks are read from there (monitor_rescan()). */
const struct monitor_result *job_watch(struct job *j);

/* End the job: every process of it on this host (launch_end()); warns if some could not be
 * made to exit. */
void job_end(struct job *j);

/* Free what j owns; the job must have ended. */
void job_release(struct job *j);

#endif
