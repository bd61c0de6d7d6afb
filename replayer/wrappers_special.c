/* The replayer's hand-written wrappers (MPIV_SPECIAL in mpi_calls.def): MPI_Init and
 * MPI_Init_thread load the counterexample and start the status thread; MPI_Finalize ends it;
 * MPI_Abort is counted, as the recorder records it, and passed through. MPI_Session_init and
 * MPI_Session_finalize start and end a process of the Sessions model likewise. */
#include <stdlib.h>

#include "environment.h"
#include "exit.h"
#include "replayer.h"
#include "calm.h"
#include "rec_comm.h"
#include "rec_status.h"
#include "rec_threads.h"

/* by MPI_Init or the first session: once; and whether MPI_Init was called (then
 * MPI_Finalize, not a session's end, ends the rank) */
static int rep_started, rep_world;

/* MPI is up: status file, then the schedule and the recorded trace. Without them there is
 * nothing to replay: the status file says FAILED, for mpiverify to end the job and say why.
 * Returns -1 if there is no status file to say it either. */
static int rep_start(int rank, int size)
{
	const char *dir = getenv(MPIV_ENV_STATUS_DIR);
	char why[512];
	int watched = 0;

	rep_started = 1;
	rec_msg_set_rank("replayer", rank);
	/* a replay is there to confirm: its blocked ranks leave the cores to the others */
	calm_start();
	if (!dir || !*dir)
		rec_msg(MPIV_ENV_STATUS_DIR " is not set: no status file");
	else if (rec_status_init(rank, size, dir, why, sizeof(why)) != 0)
		rec_msg("%s", why);
	else
		watched = 1;
	return rep_schedule_load(rank, size) != 0 && !watched ? -1 : 0;
}

/* MPI_Init or MPI_Init_thread returned: start as MPI_COMM_WORLD's rank. */
static void rep_start_world(void)
{
	int rank = 0, size = 0;

	rep_world = 1;
	if (rep_started)
		return;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	rec_msg_set_rank("replayer", rank);
	if (rec_comm_spawned(rank, size, "replayed")) {
		rep_started = 1;
		rep_call_off();
		return;
	}
	/* the job is aborted then (through PMPI_Abort: never exit() in the user's program); a
	 * process of the Sessions model has no communicator to abort, and says why it runs on */
	if (rep_start(rank, size) < 0)
		PMPI_Abort(MPI_COMM_WORLD, MPIV_EXIT_BAD_INPUT);
	rep_coll_adopt(MPI_COMM_WORLD);
}

MPIV_EXPORT int MPI_Init(int *argc, char ***argv)
{
	struct rep_call c;
	int rc;

	rec_thread_make_main();
	if (!rep_call_enter(&c, MPIV_CALL_Init, __builtin_return_address(0)))
		return PMPI_Init(argc, argv);
	rc = PMPI_Init(argc, argv);
	if (rc == MPI_SUCCESS) {
		rep_start_world();
		rep_schedule_check(&c, c.thread);
	}
	rep_call_leave(&c);
	return rc;
}

MPIV_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	struct rep_call c;
	int rc;

	rec_thread_make_main();
	if (!rep_call_enter(&c, MPIV_CALL_Init_thread, __builtin_return_address(0)))
		return PMPI_Init_thread(argc, argv, required, provided);
	rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc == MPI_SUCCESS) {
		rep_start_world();
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

#if MPI_VERSION >= 4
/* The Sessions model, as the recorder has it (its wrappers_special.c): the first session of a
 * process without MPI_Init starts it, as the rank of the process set "mpi://WORLD"; the end
 * of its last session is its MPI_Finalize. */
static int rep_sessions, rep_by_session;

MPIV_EXPORT int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
	struct rep_call c;
	int rc, rank = 0, size = 0;

	if (!rep_call_enter(&c, MPIV_CALL_Session_init, __builtin_return_address(0)))
		return PMPI_Session_init(info, errhandler, session);
	if (rep_by_session && !rep_world && !rep_sessions)
		rec_status_set_final(0); /* a session again after the last ended */
	rc = PMPI_Session_init(info, errhandler, session);
	if (rc == MPI_SUCCESS) {
		rep_sessions++;
		if (!rep_started && rec_comm_session_world(*session, &rank, &size) == 0) {
			rep_by_session = 1;
			if (rep_start(rank, size) < 0)
				rec_msg("nothing to replay, and no status file to say so: this "
					"process runs unreplayed");
		}
		rep_schedule_check(&c, c.thread);
	}
	rep_call_leave(&c);
	return rc;
}

/* The end of the last session: finished as far as deadlocks go (said before MPI's end, which
 * may wait), unless the process begins another later. */
MPIV_EXPORT int MPI_Session_finalize(MPI_Session *session)
{
	struct rep_call c;
	int rc;

	if (!rep_call_enter(&c, MPIV_CALL_Session_finalize, __builtin_return_address(0)))
		return PMPI_Session_finalize(session);
	rep_schedule_check(&c, c.thread);
	if (!rep_by_session || rep_world || rep_sessions != 1) {
		rc = PMPI_Session_finalize(session);
		rep_call_leave(&c);
	} else {
		rep_call_leave(&c);
		rec_status_set_final(1);
		rep_guard_take(); /* MPI's own calls inside its end are not the program's */
		rc = PMPI_Session_finalize(session);
		rep_guard_drop();
	}
	if (rc == MPI_SUCCESS)
		rep_sessions--;
	return rc;
}
#endif

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
