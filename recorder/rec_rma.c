/* One-sided (RMA) handlers of the recorder: every call names its window by the trace's window
 * id (rec_win.c); creation records the window's communicator and group, MPI_Win_post and
 * MPI_Win_start their group, and lock, flush and data calls their target, all as world ranks.
 * What check makes of them: doc/semantics.md 7. */
#include <stdlib.h>

#include "recorder.h"
#include "rec_comm.h"
#include "rec_win.h"

/* A call on window win that may block: its id, then PMPI while posted. */
#define WIN_BLOCKING(call, win)			\
	do {					\
		int rc_;			\
						\
		c->ev.win = rec_win_id(win);	\
		rec_call_posted(c);		\
		rc_ = call;			\
		rec_call_returned(c);		\
		return rc_;			\
	} while (0)

/* A window creation on comm of size bytes: PMPI while posted, then the new window's id and
 * its group. */
#define WIN_CREATION(call, comm, size, win)				\
	do {								\
		int rc_;						\
									\
		c->ev.comm = rec_comm_id(comm);				\
		c->ev.bytes = (size) > 0 ? (uint64_t)(size) : 0;	\
		rec_call_posted(c);					\
		rc_ = call;						\
		rec_call_returned(c);					\
		if (rc_ == MPI_SUCCESS) {				\
			c->ev.win = rec_win_add(*(win));		\
			c->ev.group = rec_win_group(*(win), &c->ev.ngroup);	\
		}							\
		return rc_;						\
	} while (0)

int rec_Win_create(struct rec_call *c, void *base, MPI_Aint size, int disp_unit, MPI_Info info,
		   MPI_Comm comm, MPI_Win *win)
{
	WIN_CREATION(PMPI_Win_create(base, size, disp_unit, info, comm, win), comm, size, win);
}

int rec_Win_allocate(struct rec_call *c, MPI_Aint size, int disp_unit, MPI_Info info,
		     MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	WIN_CREATION(PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win), comm, size, win);
}

int rec_Win_allocate_shared(struct rec_call *c, MPI_Aint size, int disp_unit, MPI_Info info,
			    MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	WIN_CREATION(PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win), comm,
		     size, win);
}

/* memory is attached later (MPI_Win_attach, which does not synchronise): none at creation */
int rec_Win_create_dynamic(struct rec_call *c, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	WIN_CREATION(PMPI_Win_create_dynamic(info, comm, win), comm, 0, win);
}

int rec_Win_free(struct rec_call *c, MPI_Win *win)
{
	MPI_Win w = *win;
	int rc;

	c->ev.win = rec_win_id(w);
	rec_call_posted(c);
	rc = PMPI_Win_free(win);
	rec_call_returned(c);
	if (rc == MPI_SUCCESS)
		rec_win_remove(w);
	return rc;
}

int rec_Win_fence(struct rec_call *c, int assert, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_fence(assert, win), win);
}

int rec_Win_post(struct rec_call *c, MPI_Group group, int assert, MPI_Win win)
{
	c->ev.group = rec_group_to_world(group, &c->ev.ngroup);
	WIN_BLOCKING(PMPI_Win_post(group, assert, win), win);
}

int rec_Win_start(struct rec_call *c, MPI_Group group, int assert, MPI_Win win)
{
	c->ev.group = rec_group_to_world(group, &c->ev.ngroup);
	WIN_BLOCKING(PMPI_Win_start(group, assert, win), win);
}

int rec_Win_complete(struct rec_call *c, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_complete(win), win);
}

int rec_Win_wait(struct rec_call *c, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_wait(win), win);
}

int rec_Win_test(struct rec_call *c, MPI_Win win, int *flag)
{
	int rc;

	c->ev.win = rec_win_id(win);
	rc = PMPI_Win_test(win, flag);
	if (rc == MPI_SUCCESS && !*flag)
		c->ev.flags |= MPIV_EV_NOT_DONE;
	rec_call_polled(c, rc);	/* no progress, for record's monitor */
	return rc;
}

int rec_Win_lock(struct rec_call *c, int lock_type, int rank, int assert, MPI_Win win)
{
	c->ev.peer = rec_win_to_world(win, rank);
	c->ev.lock = lock_type == MPI_LOCK_EXCLUSIVE ? MPIV_LOCK_EXCLUSIVE : MPIV_LOCK_SHARED;
	WIN_BLOCKING(PMPI_Win_lock(lock_type, rank, assert, win), win);
}

int rec_Win_unlock(struct rec_call *c, int rank, MPI_Win win)
{
	c->ev.peer = rec_win_to_world(win, rank);
	WIN_BLOCKING(PMPI_Win_unlock(rank, win), win);
}

int rec_Win_lock_all(struct rec_call *c, int assert, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_lock_all(assert, win), win);
}

int rec_Win_unlock_all(struct rec_call *c, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_unlock_all(win), win);
}

int rec_Win_flush(struct rec_call *c, int rank, MPI_Win win)
{
	c->ev.peer = rec_win_to_world(win, rank);
	WIN_BLOCKING(PMPI_Win_flush(rank, win), win);
}

int rec_Win_flush_all(struct rec_call *c, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_flush_all(win), win);
}

int rec_Win_flush_local(struct rec_call *c, int rank, MPI_Win win)
{
	c->ev.peer = rec_win_to_world(win, rank);
	WIN_BLOCKING(PMPI_Win_flush_local(rank, win), win);
}

int rec_Win_flush_local_all(struct rec_call *c, MPI_Win win)
{
	WIN_BLOCKING(PMPI_Win_flush_local_all(win), win);
}

/* The data calls: target and the origin's bytes. They may block in a library's progress, so
 * they are posted like any other call. */
int rec_Put(struct rec_call *c, const void *origin_addr, int origin_count,
	    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
	    MPI_Datatype target_datatype, MPI_Win win)
{
	c->ev.peer = rec_win_to_world(win, target_rank);
	c->ev.bytes = rec_comm_bytes(origin_count, origin_datatype);
	WIN_BLOCKING(PMPI_Put(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
			      target_count, target_datatype, win), win);
}

int rec_Get(struct rec_call *c, void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	    int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
	    MPI_Win win)
{
	c->ev.peer = rec_win_to_world(win, target_rank);
	c->ev.bytes = rec_comm_bytes(origin_count, origin_datatype);
	WIN_BLOCKING(PMPI_Get(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
			      target_count, target_datatype, win), win);
}

int rec_Accumulate(struct rec_call *c, const void *origin_addr, int origin_count,
		   MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		   int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	c->ev.peer = rec_win_to_world(win, target_rank);
	c->ev.bytes = rec_comm_bytes(origin_count, origin_datatype);
	WIN_BLOCKING(PMPI_Accumulate(origin_addr, origin_count, origin_datatype, target_rank,
				     target_disp, target_count, target_datatype, op, win), win);
}
