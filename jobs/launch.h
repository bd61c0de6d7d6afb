/* Running the user's job for record and replay: start the launcher with our preload library,
 * watch it without blocking, and end it (launcher, its process group and the local ranks)
 * without leaving a process behind. */
#ifndef MPIV_LAUNCH_H
#define MPIV_LAUNCH_H

#include <sys/types.h>

/* One variable to set in the job's environment; a list ends with a NULL name. */
struct launch_var {
	const char *name;  /* MPIV_ENV_TRACE_DIR (environment.h) */
	const char *value; /* not copied: must live until launch_start() returns */
};

/* A started launcher. */
struct launch {
	pid_t pid;	  /* the launcher, also its process group id; 0 if none */
	int status;	  /* its wait status, valid once exited */
	int exited;	  /* 1 once the launcher has been reaped */
	char *status_dir; /* where the ranks write rank-N.status, owned; NULL if unknown */
	int out[2];	  /* read ends of the job's stdout and stderr, -1 once closed */
	/* the job is being ended: what it prints now (the launcher's
	 * report of the ranks we killed) is dropped */
	int muted;
	/* > 0: the job's stdout and stderr go to this descriptor
	 * rather than to ours (set after launch_start()) */
	int sink;
};

/* Start argv[0] (found on PATH, never through a shell) with argv, in a process group of its
 * own, with the caller's environment plus: LD_PRELOAD = preload, then any LD_PRELOAD already
 * set; and every variable of vars (which replace same-named ones). status_dir, which may be
 * NULL, is where the job's ranks report; launch_end() kills the local ranks it names.
 * Also makes this process a subreaper, so that processes the launcher orphans stay ours to
 * reap and to kill, and turns SIGINT, SIGTERM and SIGHUP into a flag (launch_interrupted()).
 * Returns 0; or -1 with errno set, and l->pid 0, when the launcher could not be executed
 * (ENOENT: not found) or forked, or when preload contains a ':' or a space (EINVAL). */
int launch_start(struct launch *l, char *const *argv, const char *preload,
		 const struct launch_var *vars, const char *status_dir);

/* Pass on what the job printed to its stdout and stderr, for up to ms milliseconds (0: only
 * what is there now); returns early when a signal arrives. The job's output goes through
 * mpiverify so that ending a job does not end in the launcher's own alarm about it. */
void launch_relay(struct launch *l, long ms);

/* After the launcher exited: pass on the rest of its output, until it is closed or nothing
 * came for a while. */
void launch_flush(struct launch *l);

/* Reap the launcher if it has exited, without blocking (also reaps orphans handed to us).
 * Returns 1 once it has exited, else 0. */
int launch_poll(struct launch *l);

/* The launcher's exit status as a shell reports it: its exit code, or 128 + the signal that
 * killed it; -1 while it has not exited. */
int launch_exit_code(const struct launch *l);

/* "exit status 3" or "killed by signal 9 (Killed)" for messages, into buf. */
void launch_describe_exit(const struct launch *l, char *buf, unsigned long size);

/* End the whole job, on this host: SIGTERM to the launcher (Hydra forwards it to the ranks)
 * and to its process group; after up to 3 s, SIGKILL to the group, to every process this one
 * still has below it, and to each rank whose status file says it runs on this host (checked
 * to belong to this job before it is killed). Ranks on other hosts are left to the launcher.
 * Reaps the launcher, and removes the session directory of one that died of a signal
 * (jobs/launcher_dirs.h). Returns 0, or -1 if something of the job could not be made to exit. */
int launch_end(struct launch *l);

/* 1 if every rank of the job has ended on this host, and one at least is a zombie that its
 * parent (the launcher, or its proxy) has not collected: the launcher is not attending to its
 * ranks. Read from the status files and /proc; 0 while a rank is alive, runs elsewhere or has
 * no status file, and when the launcher side collected every rank (a script around the launcher
 * may well go on after it). */
int launch_ranks_ended(const struct launch *l);

/* The signal (SIGINT, SIGTERM, SIGHUP) mpiverify received since launch_start(), or 0. */
int launch_interrupted(void);

/* Free what l owns; the job must have ended. */
void launch_release(struct launch *l);

#endif
