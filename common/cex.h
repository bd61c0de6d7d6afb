/* The counterexample, cex.json (doc/cex-format.md): what check writes for each deadlock and
 * replay consumes. Loading validates the document; nothing here prints or exits, and it uses
 * plain malloc so that the replayer can load it inside the user's program. */
#ifndef MPIV_CEX_H
#define MPIV_CEX_H

#include <stddef.h>
#include <stdint.h>

#include "buffering.h"
#include "error.h"

#define MPIV_CEX_FORMAT "mpiverify-cex"
#define MPIV_CEX_VERSION 2 /* written; version 1 (buffering as a string) is still read */

/* Where a call was made, resolved at check time. Strings may be NULL when unknown. */
struct mpiv_cex_site {
	char *function;
	char *file;
	int line; /* 0 when unknown */
};

/* One operation a rank executed on the way to the deadlock, in program order. */
struct mpiv_cex_op {
	uint32_t op;	    /* event index in the rank's trace */
	int32_t match_rank; /* receive: world rank of the matched send's rank, else -1 */
	int32_t match_op;   /* receive: event index of the matched send, else -1 */
	/* standard send: 1 unbuffered (waits for its receive), 0 buffered;
	 * -1 for every other operation */
	int sync;
	int wildcard; /* receive posted with MPI_ANY_SOURCE: the match is a choice */
	/* send or receive the program cancelled (doc/semantics.md 4.7):
	 * 1 the cancellation succeeded (its message, or the receive,
	 * withdrawn unmatched), 2 it failed (matched, or the send went
	 * on), 0 no cancel reached */
	int cancelled;
	/* 1: the operation posted a receive that nothing matched (a
	 * receive, or MPI_Sendrecv's receive half); check's own, not in
	 * cex.json */
	int recv_open;
};

/* Where one thread of a rank whose threads call MPI ended in the deadlock state. */
struct mpiv_cex_thread {
	int thread;		   /* the recorder's thread number, 0 for the main thread */
	long blocked_op;	   /* event index of the call it is stuck in, -1 if done */
	char *blocked_desc;	   /* as struct mpiv_cex_rank's, NULL if done */
	struct mpiv_cex_site site; /* of the blocked call */
};

/* Where a rank ended in the deadlock state. */
struct mpiv_cex_rank {
	int rank;
	/* executed operations, in the order the model ran them: program order, or with threads
	 * their events interleaved, each once */
	struct mpiv_cex_op *ops;
	size_t nops;
	int in_order; /* the ops' events increase (mpiv_cex_find() searches them by halves) */
	/* event index of the call it is stuck in, -1 if done (with
	 * threads: the first blocked thread's) */
	long blocked_op;
	char *blocked_call;	   /* "MPI_Recv", NULL if done */
	char *blocked_desc;	   /* "MPI_Recv(source=1, tag=0, comm=WORLD)", NULL if done */
	struct mpiv_cex_site site; /* of the blocked call */
	/* its trace ends without it finishing (it crashed, was
	 * killed, ...): it is not blocked, but never moves */
	int stopped;
	struct mpiv_cex_thread *threads; /* one per thread, when several call MPI */
	size_t nthreads;
};

/* One edge of the wait-for graph: `rank` blocked at `op` waits for `waits_for`. */
struct mpiv_cex_edge {
	int rank;
	long op;
	int waits_for;
};

/* A match made on the way, in execution order. */
struct mpiv_cex_match {
	int recv_rank;
	long recv_op; /* event index of the receive */
	int send_rank;
	long send_op; /* event index of the send */
	int wildcard; /* the receive named MPI_ANY_SOURCE: this match was a choice */
	/* 1: the recorded run made this match too; 0: it took another
	 * sender's message there; -1: the trace does not say */
	int as_recorded;
};

struct mpiv_cex {
	char *trace_dir;		 /* trace directory the deadlock was found in */
	struct mpiv_buffering buffering; /* of the search that found it */
	char **command;			 /* the recorded launcher command line, NULL-terminated */
	char *cwd;			 /* the directory it ran in; NULL if unknown */
	int nranks;
	struct mpiv_cex_rank *ranks; /* nranks entries, by rank */
	struct mpiv_cex_edge *cycle; /* the wait-for cycle or knot */
	size_t ncycle;
	struct mpiv_cex_edge *edges; /* every blocked rank's waits-for edges (no repeats) */
	size_t nedges;
	struct mpiv_cex_match *matches; /* every match, in execution order */
	size_t nmatches;
	/* ranks are stuck in collectives that do not match (different
	 * calls or roots at the same place): an erroneous program */
	int mismatch;
	/* 1 + the rank whose ready send (its blocked call) was started with
	 * no matching receive posted (an erroneous program); 0 if none */
	int ready_send;
	/* 1 + the rank whose buffered send (its blocked call) does not
	 * fit its attached buffer (an erroneous program); 0 if none */
	int bsend_overflow;
};

/* Read and validate path. On error returns -1, fills err (exit code BAD_INPUT, the file and
 * the JSON path at fault) and leaves cex empty. */
int mpiv_cex_load(const char *path, struct mpiv_cex *cex, struct mpiv_error *err);

/* Write cex to path as JSON. Returns 0, or -1 with err filled. */
int mpiv_cex_save(const char *path, const struct mpiv_cex *cex, struct mpiv_error *err);

struct mpiv_traceset;

/* Check that cex, read from path, is one of the trace set ts: as many ranks, every event it
 * names (executed, matched, blocked, on the cycle) one the trace has, a match only on a
 * receive, buffering only on a send. Returns 0, or -1 with err filled (BAD_INPUT, the rank
 * and event at fault). */
int mpiv_cex_check_trace(const struct mpiv_cex *cex, const struct mpiv_traceset *ts,
			 const char *path, struct mpiv_error *err);

/* The op entry for event index op of rank r, or NULL if r did not execute it. */
const struct mpiv_cex_op *mpiv_cex_find(const struct mpiv_cex_rank *r, uint32_t op);

/* Where a replay finds rank cr stuck: the call of its threads in a call that came first (the
 * lowest event; a rank's status names that one), or the rank's own where one thread calls
 * MPI. Returns its event, -1 if the rank finishes; *desc and *site (either may be NULL) get
 * its description ("MPI_Recv(source=1, ...)") and call site. */
long mpiv_cex_first_blocked(const struct mpiv_cex_rank *cr, const char **desc,
			    const struct mpiv_cex_site **site);

/* Free everything cex owns and zero it. */
void mpiv_cex_release(struct mpiv_cex *cex);

#endif
