/* The replayer's hand-written wrappers (MPIV_SPECIAL in mpi_calls.def): MPI_Init and
 * MPI_Init_thread load the counterexample and start the status thread; MPI_Finalize ends it;
 * MPI_Abort is counted, as the recorder records it, and passed through. */
#include <stdlib.h>

#include "environment.h"
#include "exit.h"
#include "replayer.h"
#include "rec_comm.h"
#include "rec_status.h"

/* MPI is up: status file, then the schedule and the recorded trace. Without them there is
 * nothing to replay: the status file says FAILED, for mpiverify to end the job and say why;
 * with no status file to say it, the job is aborted (through PMPI_Abort: never exit() in the
 * user's program). */
static void rep_start(void)
{
	const char *dir = getenv(MPIV_ENV_STATUS_DIR);
	char why[512];
	int rank = 0, size = 0, watched = 0;
	MPI_Comm parent = MPI_COMM_NULL;

	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	rec_msg_set_rank("replayer", rank);
	/* a process MPI_Comm_spawn started: no trace has its calls (the recorder's rec_start()) */
	PMPI_Comm_get_parent(&parent);
	if (parent != MPI_COMM_NULL) {
		if (rank == 0)
			rec_msg("this job was started by MPI_Comm_spawn: its %d rank(s) are not "
				"replayed (dynamic processes are not modelled)",
				size);
		rep_call_off();
		return;
	}
	if (!dir || !*dir)
		rec_msg(MPIV_ENV_STATUS_DIR " is not set: no status file");
	else if (rec_status_init(rank, size, dir, why, sizeof(why)) != 0)
		rec_msg("%s", why);
	else
		watched = 1;
	if (rep_schedule_load(rank, size) != 0 && !watched)
		PMPI_Abort(MPI_COMM_WORLD, MPIV_EXIT_BAD_INPUT);
	rep_coll_adopt(MPI_COMM_WORLD);
}

MPIV_EXPORT int MPI_Init(int *argc, char ***argv)
{
	struct rep_call c;
	int rc;

	if (!rep_call_enter(&c, MPIV_CALL_Init, __builtin_return_address(0)))
		return PMPI_Init(argc, argv);
	rc = PMPI_Init(argc, argv);
	if (rc == MPI_SUCCESS) {
		rep_start();
		rep_schedule_check(&c, c.thread);
	}
	rep_call_leave(&c);
	return rc;
}

MPIV_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	struct rep_call c;
	int rc;

	if (!rep_call_enter(&c, MPIV_CALL_Init_thread, __builtin_return_address(0)))
		return PMPI_Init_thread(argc, argv, required, provided);
	rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc == MPI_SUCCESS) {
		rep_start();
		rep_schedule_check(&c, c.thread);
	}
	rep_call_leave(&c);
	return rc;
}

MPIV_EXPORT int MPI_Finalize(void)
{
	struct rep_call c;
	int rc;

	if (!rep_call_enter(&c, MPIV_CALL_Finalize, __builtin_return_address(0)))
		return PMPI_Finalize();
	rep_schedule_check(&c, c.thread);
	/* Done as far as deadlocks go: say so before PMPI_Finalize, which may wait. */
	rep_call_leave(&c);
	rec_status_finalize();
	rep_coll_release();
	rec_comm_release();
	rep_guard_take(); /* as the recorder: MPI's own calls inside Finalize are not counted */
	rc = PMPI_Finalize();
	rep_guard_drop();
	rep_schedule_release();
	rep_request_release();
	return rc;
}

MPIV_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
	struct rep_call c;
	int rc;

	if (!rep_call_enter(&c, MPIV_CALL_Abort, __builtin_return_address(0)))
		return PMPI_Abort(comm, errorcode);
	rep_schedule_check(&c, c.thread);
	rep_call_leave(&c);
	rep_guard_take(); /* as the recorder: the job ends inside */
	rc = PMPI_Abort(comm, errorcode);
	rep_guard_drop();
	return rc;
}
