/* The operations of a recorded run, or of a counterexample's way to its deadlock, on one time
 * line: each rank's operations in program order, when each was entered and left, and which
 * send each receive took its message from. A trace recorded with times (record --timestamps)
 * keeps its own; otherwise, and for a counterexample, the times are synthetic: one step per
 * operation, the completion of a receive (a blocking one, or the wait of a nonblocking one)
 * after the send it took (a logical clock). For the OTF2 export (reports/otf2_write.c). */
#ifndef MPIV_TR_TIMELINE_H
#define MPIV_TR_TIMELINE_H

#include <stddef.h>
#include <stdint.h>

#include "cex.h"
#include "error.h"
#include "tr_comm.h"
#include "trace.h"

#define TL_STEP 1000 /* synthetic times: nanoseconds between operations */

/* One operation of a rank. */
struct tl_op {
	uint32_t ev;	       /* its event in the rank's trace */
	uint64_t enter, leave; /* nanoseconds from the time line's start */
	/* a receive: the rank of the send it took the message of, else
	 * -1 */
	int32_t from_rank;
	uint32_t from_ev; /* ... and that send's event */
	int blocked;	  /* it never returned: left at the time line's end */
};

/* An operation (op, an index into its rank's ops) that completes a receive of the message a
 * send (rank, ev) sent: it comes after the send. */
struct tl_dep {
	size_t op;
	int32_t rank;
	uint32_t ev;
};

struct tr_timeline {
	const struct mpiv_traceset *ts;
	int nranks;
	struct tl_op **ops; /* per rank, in program order */
	size_t *nops;
	struct tl_dep **deps; /* per rank, by op */
	size_t *ndeps;
	uint64_t end; /* the last time, nanoseconds from the start */
	/* recorded times: the start as nanoseconds since the epoch
	 * (mpiv_trace_realtime()); 0 when synthetic */
	int64_t start;
	int synthetic;	       /* the times are steps, not the run's */
	struct tr_comms comms; /* (rank, trace comm id) -> communicators of all ranks */
	/* by communicator: 0 MPI_COMM_WORLD, 1 + r rank r's
	 * MPI_COMM_SELF, then those the ranks made */
	struct eng_comm *comm;
	int32_t ncomms;
};

/* The time line of ts, or, with cex (checked against ts), of the counterexample's
 * operations. Returns 0, or -1 with err filled (BAD_INPUT: a communicator the traces cannot
 * agree on). */
int tr_timeline_build(struct tr_timeline *tl, const struct mpiv_traceset *ts,
		      const struct mpiv_cex *cex, struct mpiv_error *err);

void tr_timeline_release(struct tr_timeline *tl);

#endif
