/* One recorded run of the user's job: what record does, as a function, for record itself and
 * for verify's runs (which are steered, watched for an expected deadlock and quiet). */
#ifndef MPIV_RECORD_RUN_H
#define MPIV_RECORD_RUN_H

#include "monitor.h"
#include "mpi_pick.h"

struct record_opts {
	const char *dir; /* the trace directory (created; stale traces removed) */
	char **command;	 /* launcher and arguments */
	/* the recorder picked for command (verify: once for
	 * all its runs), or NULL: record_run() picks it */
	const struct preload *preload;
	double timeout;	   /* --deadlock-timeout */
	const char *steer; /* verify: the steering file ($MPIVERIFY_STEER), or NULL */
	/* --check-reductions' value ($MPIVERIFY_CHECK_REDUCTIONS),
	 * or NULL */
	const char *reductions;
	/* --timestamps: events carry their times
	 * ($MPIVERIFY_TIMESTAMPS) */
	int timestamps;
	/* --last N: each rank keeps only its last N to 2N calls
	 * ($MPIVERIFY_LAST), or NULL: the whole run */
	const char *last;
	const struct monitor_expect *expect; /* verify: the deadlock it should end in */
	int calm;			     /* verify: blocked calls sleep ($MPIVERIFY_CALM) */
	int sink;			     /* > 0: the job's output goes there, not to ours */
	int quiet;			     /* no "traces in" / "deadlocked" lines on stderr */
};

struct record_result {
	/* what record exits with (enum mpiv_exit, or the
	 * program's own status) */
	int rc;
	int job;		   /* enum mpiv_job_end */
	int status;		   /* the job's exit status as meta.json keeps it */
	struct monitor_result res; /* what the monitor saw (owned) */
	/* a hang: every rank's blocked call and stack, as
	 * monitor_report() prints them (malloc'ed), else NULL */
	char *report;
	char *dir;  /* the trace directory, absolute (malloc'ed) */
	int traced; /* some rank wrote a trace */
};

/* Run the job with the recorder preloaded as opts say; write meta.json. Returns r->rc (and
 * fills r: release it with record_result_release()). Messages go to stderr. */
int record_run(const struct record_opts *opts, struct record_result *r);

void record_result_release(struct record_result *r);

#endif
