/* libreplayer.so internals (every symbol hidden): call numbering that lines up with the
 * recorder's, the counterexample's schedule for this rank, and the forcing handlers. */
#ifndef MPIV_REPLAYER_H
#define MPIV_REPLAYER_H

#include <stdint.h>

#include <mpi.h>

#include "cex.h"
#include "event.h"	/* before MPIV_SPECIAL is redefined below: its enum needs every call */
#include "rec_msg.h"

#pragma GCC visibility push(hidden)

/* Exported MPI_* wrappers are the only symbols with default visibility. */
#define MPIV_EXPORT __attribute__((visibility("default")))
/* (a, b, c) -> a, b, c: lets a .def parameter list follow another parameter. */
#define MPIV_UNPAREN(...) __VA_ARGS__

/* One intercepted call, on the wrapper's stack. */
struct rep_call {
	unsigned call;		/* enum mpiv_call */
	uint32_t index;		/* event index: the same number the recorder gave this call */
	uint64_t site;		/* call site, MPIV_SITE() */
};

/* ---- wrappers.c: the life of a call ---- */

/* Start a call: re-entry guard, event index, live status, then the divergence check. Returns
 * 1, or 0 for a call the tool itself makes, which goes straight to PMPI uncounted. */
int rep_call_enter(struct rep_call *c, unsigned call, const void *ret);

/* The call returned: status, guard. */
void rep_call_leave(struct rep_call *c);

/* The re-entry guard alone (MPI_Finalize keeps it across PMPI_Finalize). */
void rep_guard_take(void);
void rep_guard_drop(void);

/* ---- rep_schedule.c: what the counterexample wants of this rank ---- */

/* Load $MPIVERIFY_CEX and find this rank in it. Returns 0, or -1 after printing one line (the
 * caller then aborts the job: replaying without the schedule would prove nothing). */
int rep_schedule_load(int rank, int size);

void rep_schedule_release(void);

/* This rank's cex entry for event index, or NULL if the counterexample does not have it
 * (after the deadlock point, or no schedule). */
const struct mpiv_cex_op *rep_schedule_op(uint32_t index);

/* Check that call c is the one the trace has at c->index; on mismatch reports divergence. */
void rep_schedule_check(const struct rep_call *c);

/* The source a receive must use: source itself unless it is MPI_ANY_SOURCE and the
 * counterexample pins the match, then the pinned sender as a rank of comm. */
int rep_schedule_source(const struct rep_call *c, int source, MPI_Comm comm);

/* 1 if the counterexample needs this standard send unbuffered (made synchronous). */
int rep_schedule_sync(const struct rep_call *c);

/* The program left the recorded path at call c: one line on stderr and the status file says
 * DIVERGED. The run goes on, unchanged, for the monitor to end it. */
void rep_diverged(const struct rep_call *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));


/* ---- rep_force.c: handlers of the FORCE entries of mpi_calls.def ----
 * Declared weak for every ordinary entry: a wrapper calls rep_<name>() when rep_force.c
 * defines it and passes the call to PMPI_<name> otherwise. The prototypes come from the .def,
 * so a handler that disagrees with mpi.h does not compile. */
#define MPIV_SPECIAL(name, kind, flags, params, args)
#define MPIV_CALL(name, kind, flags, params, args) \
	int rep_##name(struct rep_call *c, MPIV_UNPAREN params) __attribute__((weak));
#include "mpi_calls.def"
#undef MPIV_CALL
#undef MPIV_SPECIAL

#pragma GCC visibility pop

#endif
