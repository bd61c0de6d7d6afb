/* The collective handlers' common parts (rec_coll.c), which the large-count collectives'
 * handlers (rec_large.gen.c, base/gen_large_count.py) share: each macro is a handler's whole
 * body after what it records itself, with `c` its struct rec_call, and returns. */
#ifndef MPIV_REC_COLL_H
#define MPIV_REC_COLL_H

#include <mpi.h>

#include "recorder.h"

#pragma GCC visibility push(hidden)

/* Nonblocking collectives make a request, completed at its wait (synchronising there under
 * zero steering). */
void rec_coll_request(struct rec_call *c, int rc, MPI_Request *request, MPI_Comm comm);

/* A neighbourhood collective's event: the caller's in-neighbours as its group (rec_topo.h),
 * which is whom it waits for with buffering. */
void rec_coll_neighbors(struct rec_call *c, MPI_Comm comm);

/* A persistent collective's request, made by a call that does not wait (MPI-4.1 6.13): each
 * MPI_Start lists it (rec_request.c). */
#define COLL_PERSISTENT(call, request)                                                   \
	do {                                                                             \
		int rc_ = call;                                                          \
                                                                                         \
		if (rc_ == MPI_SUCCESS)                                                  \
			rec_call_add_req(c, rec_request_add(request, 0, MPI_COMM_WORLD), \
					 MPIV_NONE, MPIV_NONE);                          \
		return rc_;                                                              \
	} while (0)

/* The handlers are all alike: call PMPI while posted. */
#define COLL_BLOCKING(call, comm)          \
	do {                               \
		int rc_;                   \
                                           \
		rec_call_posted(c);        \
		rec_steer_coll_sync(comm); \
		rc_ = call;                \
		rec_call_returned(c);      \
		return rc_;                \
	} while (0)
#define COLL_NONBLOCKING(call, request, comm)            \
	do {                                             \
		int rc_;                                 \
                                                         \
		rc_ = call;                              \
		rec_coll_request(c, rc_, request, comm); \
		return rc_;                              \
	} while (0)
/* The same for reductions, with the reduction check's hooks around the call when it is on
 * (rec_reduce.h); the last arguments are the fields of a struct rec_red_args. */
#define COLL_REDUCE(call, comm, ...)                                                  \
	do {                                                                          \
		struct rec_red_args a_ = {__VA_ARGS__};                               \
		struct rec_red *r_ = rec_reduce_on ? rec_reduce_begin(c, &a_) : NULL; \
		int rc_;                                                              \
                                                                                      \
		rec_call_posted(c);                                                   \
		rec_steer_coll_sync(comm);                                            \
		rc_ = call;                                                           \
		if (r_)                                                               \
			rec_reduce_end(r_, c, rc_);                                   \
		rec_call_returned(c);                                                 \
		return rc_;                                                           \
	} while (0)
#define COLL_IREDUCE(call, request, comm, ...)                                        \
	do {                                                                          \
		struct rec_red_args a_ = {__VA_ARGS__};                               \
		struct rec_red *r_ = rec_reduce_on ? rec_reduce_begin(c, &a_) : NULL; \
		int rc_;                                                              \
                                                                                      \
		rc_ = call;                                                           \
		rec_coll_request(c, rc_, request, comm);                              \
		if (r_)                                                               \
			rec_reduce_started(r_, c, rc_, request);                      \
		return rc_;                                                           \
	} while (0)

#pragma GCC visibility pop

#endif
