/* Windows in the replayer: creation and free keep the table of window ids (preload/rec_win.c)
 * exactly as the recorder does, so that the window every later call names can be checked
 * against the trace; MPI_Win_test says whether it found its epoch complete, so that a polling
 * loop lines up with the recorded one as MPI_Test's does. Nothing is forced. */
#include "replayer.h"
#include "rec_win.h"

/* A window creation returned rc: number the new window, as the recorder does. */
static int made(int rc, const MPI_Win *win)
{
	if (rc == MPI_SUCCESS)
		rec_win_add(*win);
	return rc;
}

int rep_Win_create(struct rep_call *c, void *base, MPI_Aint size, int disp_unit, MPI_Info info,
		   MPI_Comm comm, MPI_Win *win)
{
	return made(PMPI_Win_create(base, size, disp_unit, info, comm, win), win);
}

int rep_Win_allocate(struct rep_call *c, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
		     void *baseptr, MPI_Win *win)
{
	return made(PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win), win);
}

int rep_Win_allocate_shared(struct rep_call *c, MPI_Aint size, int disp_unit, MPI_Info info,
			    MPI_Comm comm, void *baseptr, MPI_Win *win)
{
	return made(PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win), win);
}

int rep_Win_create_dynamic(struct rep_call *c, MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
	return made(PMPI_Win_create_dynamic(info, comm, win), win);
}

int rep_Win_free(struct rep_call *c, MPI_Win *win)
{
	MPI_Win w = *win;
	int rc = PMPI_Win_free(win);

	(void)c;
	if (rc == MPI_SUCCESS)
		rec_win_remove(w);
	return rc;
}

int rep_Win_test(struct rep_call *c, MPI_Win win, int *flag)
{
	int rc = PMPI_Win_test(win, flag);

	c->poll = 1;
	c->found = rc != MPI_SUCCESS || *flag; /* an error ends a loop too */
	return rc;
}
