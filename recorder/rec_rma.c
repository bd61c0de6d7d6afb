/* One-sided (RMA) handlers of the recorder: every call names its window by the trace's window
 * id (rec_win.c); creation records the window's communicator and group, MPI_Win_post and
 * MPI_Win_start their group, and lock, flush and data calls their target, all as world ranks
 * (the window's id, the communicator and the target are the wrapper's, env_rma.c).
 * What check makes of them: doc/semantics.md 7. */
#include <stdlib.h>

#include "recorder.h"
#include "rec_comm.h"
#include "rec_win.h"

/* A call that may block: PMPI while posted. */
#define WIN_BLOCKING(call)            \
	do {                          \
		int rc_;              \
                                      \
		rec_call_posted(c);   \
		rc_ = call;           \
		rec_call_returned(c); \
		return rc_;           \
	} while (0)

/* A window creation: PMPI while posted, then the new window's id and its group. */
#define WIN_CREATION(call, win)                                             \
	do {                                                                \
		int rc_;                                                    \
                                                                            \
		rec_call_posted(c);                                         \
		rc_ = call;                                                 \
		rec_call_returned(c);                                       \
		if (rc_ == MPI_SUCCESS) {                                   \
			c->ev.win = rec_win_add(*(win));                    \
			c->ev.group = rec_win_group(*(win), &c->ev.ngroup); \
		}                                                           \
		return rc_;                                                 \
	} while (0)

int rec_Win_create(struct rec_call *c, void *base, MPI_Aint size, int disp_unit, MPI_Info info,
		   MPI_Comm comm, MPI_Win *win)
{
	WIN_CREATION(PMPI_Win_create(base, size, disp_unit, info, comm, win), win);
}

int rec_Win_allocate(struct rec_call *c, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
		     void *baseptr, MPI_Win *win)
{
	WIN_CREATION(PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win), win);
}

int rec_Win_allocate_shared(struct rec_call *c, MPI_Aint size, int disp_unit, MPI_Info info,
			    MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	WIN_CREATION(PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win), win);
}

int rec_Win_create_dynamic(struct rec_call *c, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	WIN_CREATION(PMPI_Win_create_dynamic(info, comm, win), win);
}

int rec_Win_free(struct rec_call *c, MPI_Win *win)
{
	MPI_Win w = *win;
	int rc;

	rec_call_posted(c);
	rc = PMPI_Win_free(win);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS)
		rec_win_remove(w);
	return rc;
}

int rec_Win_fence(struct rec_call *c, int assert, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_fence(assert, win));
}

int rec_Win_post(struct rec_call *c, MPI_Group group, int assert, MPI_Win win)
{
	c->ev.group = rec_group_to_world(group, &c->ev.ngroup);
	WIN_BLOCKING(PMPI_Win_post(group, assert, win));
}

int rec_Win_start(struct rec_call *c, MPI_Group group, int assert, MPI_Win win)
{
	c->ev.group = rec_group_to_world(group, &c->ev.ngroup);
	WIN_BLOCKING(PMPI_Win_start(group, assert, win));
}

int rec_Win_complete(struct rec_call *c, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_complete(win));
}

int rec_Win_wait(struct rec_call *c, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_wait(win));
}

int rec_Win_test(struct rec_call *c, MPI_Win win, int *flag)
{
	int rc;

	rc = PMPI_Win_test(win, flag);
	if (rc == MPI_SUCCESS && !*flag)
		c->ev.flags |= MPIV_EV_NOT_DONE;
	rec_call_polled(c, rc); /* no progress, for record's monitor */
	return rc;
}

int rec_Win_lock(struct rec_call *c, int lock_type, int rank, int assert, MPI_Win win)
{
	c->ev.lock = lock_type == MPI_LOCK_EXCLUSIVE ? MPIV_LOCK_EXCLUSIVE : MPIV_LOCK_SHARED;
	WIN_BLOCKING(PMPI_Win_lock(lock_type, rank, assert, win));
}

int rec_Win_unlock(struct rec_call *c, int rank, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_unlock(rank, win));
}

int rec_Win_lock_all(struct rec_call *c, int assert, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_lock_all(assert, win));
}

int rec_Win_unlock_all(struct rec_call *c, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_unlock_all(win));
}

int rec_Win_flush(struct rec_call *c, int rank, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_flush(rank, win));
}

int rec_Win_flush_all(struct rec_call *c, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_flush_all(win));
}

int rec_Win_flush_local(struct rec_call *c, int rank, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_flush_local(rank, win));
}

int rec_Win_flush_local_all(struct rec_call *c, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_flush_local_all(win));
}

/* The data calls (their target and the origin's bytes: env_rma.c). They may block in a
 * library's progress, so they are posted like any other call. */
int rec_Put(struct rec_call *c, const void *origin_addr, int origin_count,
	    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
	    MPI_Datatype target_datatype, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Put(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
			      target_count, target_datatype, win));
}

int rec_Get(struct rec_call *c, void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	    int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
	    MPI_Win win)
{
	WIN_BLOCKING(PMPI_Get(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
			      target_count, target_datatype, win));
}

int rec_Accumulate(struct rec_call *c, const void *origin_addr, int origin_count,
		   MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		   int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Accumulate(origin_addr, origin_count, origin_datatype, target_rank,
				     target_disp, target_count, target_datatype, op, win));
}

int rec_Get_accumulate(struct rec_call *c, const void *origin_addr, int origin_count,
		       MPI_Datatype origin_datatype, void *result_addr, int result_count,
		       MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
		       int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Get_accumulate(origin_addr, origin_count, origin_datatype, result_addr,
					 result_count, result_datatype, target_rank, target_disp,
					 target_count, target_datatype, op, win));
}

/* The request-based data calls: posted like the others, and the request they make, which
 * completes without the target's calls (doc/semantics.md 7.4). */
#define RMA_REQUEST(call, request)                         \
	do {                                               \
		int rc_;                                   \
                                                           \
		rec_call_posted(c);                        \
		rc_ = call;                                \
		rec_call_returned(c);                      \
		if (rc_ == MPI_SUCCESS)                    \
			rec_call_made_request(c, request); \
		return rc_;                                \
	} while (0)

int rec_Rput(struct rec_call *c, const void *origin_addr, int origin_count,
	     MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
	     MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
	RMA_REQUEST(PMPI_Rput(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
			      target_count, target_datatype, win, request),
		    request);
}

int rec_Rget(struct rec_call *c, void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	     int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
	     MPI_Win win, MPI_Request *request)
{
	RMA_REQUEST(PMPI_Rget(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
			      target_count, target_datatype, win, request),
		    request);
}

int rec_Raccumulate(struct rec_call *c, const void *origin_addr, int origin_count,
		    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		    int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
		    MPI_Request *request)
{
	RMA_REQUEST(PMPI_Raccumulate(origin_addr, origin_count, origin_datatype, target_rank,
				     target_disp, target_count, target_datatype, op, win, request),
		    request);
}

int rec_Rget_accumulate(struct rec_call *c, const void *origin_addr, int origin_count,
			MPI_Datatype origin_datatype, void *result_addr, int result_count,
			MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
			int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
			MPI_Request *request)
{
	RMA_REQUEST(PMPI_Rget_accumulate(origin_addr, origin_count, origin_datatype, result_addr,
					 result_count, result_datatype, target_rank, target_disp,
					 target_count, target_datatype, op, win, request),
		    request);
}

int rec_Fetch_and_op(struct rec_call *c, const void *origin_addr, void *result_addr,
		     MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Op op,
		     MPI_Win win)
{
	WIN_BLOCKING(PMPI_Fetch_and_op(origin_addr, result_addr, datatype, target_rank, target_disp,
				       op, win));
}

int rec_Compare_and_swap(struct rec_call *c, const void *origin_addr, const void *compare_addr,
			 void *result_addr, MPI_Datatype datatype, int target_rank,
			 MPI_Aint target_disp, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Compare_and_swap(origin_addr, compare_addr, result_addr, datatype,
					   target_rank, target_disp, win));
}

#if MPI_VERSION >= 4
/* A local query: no envelope, and nothing the model needs (its twin is not even recorded). */
int rec_Win_shared_query_c(struct rec_call *c, MPI_Win win, int rank, MPI_Aint *size,
			   MPI_Aint *disp_unit, void *baseptr)
{
	WIN_BLOCKING(PMPI_Win_shared_query_c(win, rank, size, disp_unit, baseptr));
}
#endif
