/* Envelopes of the one-sided calls (env.h): the window's id (rec_win.c), the target of lock,
 * flush and data calls as a world rank, a creation's communicator and size, a data call's
 * origin bytes (recorded, not compared). The id of a window being made is known only when
 * its creation returns: recorder/rec_rma.c and replayer/rep_win.c number it. */
#include "env.h"
#include "rec_comm.h"
#include "rec_win.h"

/* A creation's: its communicator, and the bytes this rank exposes. */
static void env_creation(struct mpiv_env *e, MPI_Comm comm, MPI_Aint size)
{
	e->comm = rec_comm_id(comm);
	e->bytes = size > 0 ? (uint64_t)size : 0;
}

void env_Win_create(struct mpiv_env *e, void *base, MPI_Aint size, int disp_unit, MPI_Info info,
		    MPI_Comm comm, MPI_Win *win)
{
	env_creation(e, comm, size);
}

void env_Win_allocate(struct mpiv_env *e, MPI_Aint size, int disp_unit, MPI_Info info,
		      MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	env_creation(e, comm, size);
}

void env_Win_allocate_shared(struct mpiv_env *e, MPI_Aint size, int disp_unit, MPI_Info info,
			     MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	env_creation(e, comm, size);
}

/* memory is attached later (MPI_Win_attach, which does not synchronise): none at creation */
void env_Win_create_dynamic(struct mpiv_env *e, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	env_creation(e, comm, 0);
}

void env_Win_free(struct mpiv_env *e, MPI_Win *win)
{
	e->win = rec_win_id(*win);
}

void env_Win_fence(struct mpiv_env *e, int assert, MPI_Win win)
{
	e->win = rec_win_id(win);
}

void env_Win_post(struct mpiv_env *e, MPI_Group group, int assert, MPI_Win win)
{
	e->win = rec_win_id(win);
}

void env_Win_start(struct mpiv_env *e, MPI_Group group, int assert, MPI_Win win)
{
	e->win = rec_win_id(win);
}

void env_Win_complete(struct mpiv_env *e, MPI_Win win)
{
	e->win = rec_win_id(win);
}

void env_Win_wait(struct mpiv_env *e, MPI_Win win)
{
	e->win = rec_win_id(win);
}

void env_Win_test(struct mpiv_env *e, MPI_Win win, int *flag)
{
	e->win = rec_win_id(win);
}

/* A call naming a target rank of its window. */
static void env_target(struct mpiv_env *e, int rank, MPI_Win win)
{
	e->win = rec_win_id(win);
	e->peer = rec_win_to_world(win, rank);
}

void env_Win_lock(struct mpiv_env *e, int lock_type, int rank, int assert, MPI_Win win)
{
	env_target(e, rank, win);
}

void env_Win_unlock(struct mpiv_env *e, int rank, MPI_Win win)
{
	env_target(e, rank, win);
}

void env_Win_lock_all(struct mpiv_env *e, int assert, MPI_Win win)
{
	e->win = rec_win_id(win);
}

void env_Win_unlock_all(struct mpiv_env *e, MPI_Win win)
{
	e->win = rec_win_id(win);
}

void env_Win_flush(struct mpiv_env *e, int rank, MPI_Win win)
{
	env_target(e, rank, win);
}

void env_Win_flush_all(struct mpiv_env *e, MPI_Win win)
{
	e->win = rec_win_id(win);
}

void env_Win_flush_local(struct mpiv_env *e, int rank, MPI_Win win)
{
	env_target(e, rank, win);
}

void env_Win_flush_local_all(struct mpiv_env *e, MPI_Win win)
{
	e->win = rec_win_id(win);
}

/* A data call's: its target, and the origin's bytes. */
static void env_data(struct mpiv_env *e, int rank, int count, MPI_Datatype type, MPI_Win win)
{
	env_target(e, rank, win);
	e->bytes = rec_comm_bytes(count, type);
}

void env_Put(struct mpiv_env *e, const void *origin_addr, int origin_count,
	     MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
	     MPI_Datatype target_datatype, MPI_Win win)
{
	env_data(e, target_rank, origin_count, origin_datatype, win);
}

void env_Get(struct mpiv_env *e, void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	     int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
	     MPI_Win win)
{
	env_data(e, target_rank, origin_count, origin_datatype, win);
}

void env_Accumulate(struct mpiv_env *e, const void *origin_addr, int origin_count,
		    MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		    int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	env_data(e, target_rank, origin_count, origin_datatype, win);
}

void env_Get_accumulate(struct mpiv_env *e, const void *origin_addr, int origin_count,
			MPI_Datatype origin_datatype, void *result_addr, int result_count,
			MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
			int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
	env_data(e, target_rank, origin_count, origin_datatype, win);
}

/* The request-based ones: also the request they make. */
void env_Rput(struct mpiv_env *e, const void *origin_addr, int origin_count,
	      MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp, int target_count,
	      MPI_Datatype target_datatype, MPI_Win win, MPI_Request *request)
{
	env_data(e, target_rank, origin_count, origin_datatype, win);
	e->request = request;
}

void env_Rget(struct mpiv_env *e, void *origin_addr, int origin_count, MPI_Datatype origin_datatype,
	      int target_rank, MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype,
	      MPI_Win win, MPI_Request *request)
{
	env_data(e, target_rank, origin_count, origin_datatype, win);
	e->request = request;
}

void env_Raccumulate(struct mpiv_env *e, const void *origin_addr, int origin_count,
		     MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
		     int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
		     MPI_Request *request)
{
	env_data(e, target_rank, origin_count, origin_datatype, win);
	e->request = request;
}

void env_Rget_accumulate(struct mpiv_env *e, const void *origin_addr, int origin_count,
			 MPI_Datatype origin_datatype, void *result_addr, int result_count,
			 MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
			 int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
			 MPI_Request *request)
{
	env_data(e, target_rank, origin_count, origin_datatype, win);
	e->request = request;
}

void env_Fetch_and_op(struct mpiv_env *e, const void *origin_addr, void *result_addr,
		      MPI_Datatype datatype, int target_rank, MPI_Aint target_disp, MPI_Op op,
		      MPI_Win win)
{
	env_data(e, target_rank, 1, datatype, win);
}

void env_Compare_and_swap(struct mpiv_env *e, const void *origin_addr, const void *compare_addr,
			  void *result_addr, MPI_Datatype datatype, int target_rank,
			  MPI_Aint target_disp, MPI_Win win)
{
	env_data(e, target_rank, 1, datatype, win);
}
