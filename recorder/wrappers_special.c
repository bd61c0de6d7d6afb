/* The recorder's hand-written wrappers (MPIV_SPECIAL in mpi_calls.def): MPI_Init and
 * MPI_Init_thread open the trace and start the status thread; MPI_Finalize writes the trace
 * out before MPI gets a chance to wait, and closes it, finished, once PMPI_Finalize returned;
 * MPI_Abort closes it before MPI ends the job. A process of the Sessions model starts at its
 * first MPI_Session_init and ends at the end of its last session likewise. */
#include <stdlib.h>
#include <string.h>

#include "environment.h"
#include "recorder.h"
#include "calm.h"
#include "rec_comm.h"
#include "rec_site.h"
#include "rec_status.h"
#include "rec_threads.h"

/* Whether the recording started (rec_start()), by MPI_Init or the first session: once; and
 * whether MPI_Init was called (then MPI_Finalize, not a session's end, ends the rank). */
static int rec_started, rec_world;

/* MPI is up: open the trace and the status file, as the process of rank of size. A tool
 * problem is reported in one line and the program runs on, unrecorded. */
static void rec_start(int rank, int size, int thread_level)
{
	const char *dir = getenv(MPIV_ENV_STATUS_DIR);
	char why[512];
	int tracing, watching = 0;

	rec_started = 1;
	rec_msg_set_rank("recorder", rank);
	tracing = rec_output_open(rank, size, thread_level) == 0;
	/* only this thread runs MPI calls yet: the call tables' locks can be set up now */
	if (tracing)
		rec_call_set_threads(thread_level == MPI_THREAD_MULTIPLE);
	/* a run of verify's, there to decide, or ranks that outnumber the node's CPUs: the
	 * blocked ones leave the cores to the others */
	if (getenv(MPIV_ENV_CALM) || calm_oversubscribed())
		calm_start();
	rec_steer_load(rank);
	/* Module records for the sites seen so far (MPI_Init's), then for each new module. */
	if (tracing)
		rec_site_set_hook(rec_output_module);

	/* The status goes beside the trace by default; if the trace could not be opened there,
	 * one line already said why. */
	if ((!dir || !*dir) && tracing)
		dir = getenv(MPIV_ENV_TRACE_DIR);
	if (dir && *dir) {
		rec_status_set_tick(rec_call_watch);
		watching = rec_status_init(rank, size, dir, why, sizeof(why)) == 0;
		if (!watching)
			rec_msg("%s", why);
	}
	if (!tracing && !watching) {
		rec_call_disable();
		return;
	}
	rec_reduce_init();
	rec_quick_allow();
}

/* MPI_Init or MPI_Init_thread returned: start, as MPI_COMM_WORLD's rank. */
static void rec_start_world(int thread_level)
{
	int rank = 0, size = 0;

	rec_world = 1;
	if (rec_started)
		return;
	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	PMPI_Comm_size(MPI_COMM_WORLD, &size);
	rec_msg_set_rank("recorder", rank);
	if (rec_comm_spawned(rank, size, "recorded")) {
		rec_started = 1;
		rec_call_disable();
		return;
	}
	rec_start(rank, size, thread_level);
}

MPIV_EXPORT int MPI_Init(int *argc, char ***argv)
{
	struct rec_call c;
	int rc, level = MPI_THREAD_SINGLE;

	rec_thread_make_main();
	if (!rec_call_enter(&c, MPIV_CALL_Init, __builtin_return_address(0)))
		return PMPI_Init(argc, argv);
	rc = PMPI_Init(argc, argv);
	if (rc == MPI_SUCCESS) {
		PMPI_Query_thread(&level);
		rec_start_world(level);
	}
	rec_call_leave(&c);
	/* at once: a rank killed soon after (its peer aborted) still says it started */
	rec_output_flush();
	return rc;
}

MPIV_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
	struct rec_call c;
	int rc;

	rec_thread_make_main();
	if (!rec_call_enter(&c, MPIV_CALL_Init_thread, __builtin_return_address(0)))
		return PMPI_Init_thread(argc, argv, required, provided);
	rc = PMPI_Init_thread(argc, argv, required, provided);
	if (rc == MPI_SUCCESS)
		rec_start_world(*provided);
	rec_call_leave(&c);
	rec_output_flush();
	return rc;
}

MPIV_EXPORT int MPI_Finalize(void)
{
	struct rec_call c;
	int rc;

	if (!rec_call_enter(&c, MPIV_CALL_Finalize, __builtin_return_address(0)))
		return PMPI_Finalize();
	/* The rank has made its last call that others may wait for once it gets here: say so
	 * before PMPI_Finalize, which may itself wait for the other ranks. */
	rec_call_leave(&c);
	/* a thread that did not take its steered decisions says so while the status is read */
	rec_steer_release();
	/* Written out now: the status thread, which flushes the trace, stops here, and the job
	 * may be ended while PMPI_Finalize waits for the other ranks. */
	rec_output_flush();
	rec_status_finalize();
	rec_comm_release();
	/* Calls MPI makes from inside PMPI_Finalize (attribute callbacks) are not the
	 * program's: keep the guard. */
	rec_guard_take();
	rc = PMPI_Finalize();
	rec_guard_drop();
	/* Only now has the rank finished (doc/semantics.md 8.1). */
	rec_output_close(MPIV_END_FINALIZED, 0);
	return rc;
}

#if MPI_VERSION >= 4
/* The Sessions model (MPI-4.1 11.3): sessions alive, and whether the recording started with
 * one (no MPI_Init before it), to end with the last. */
static int rec_sessions, rec_by_session;

/* The thread support a session was given (its info's "thread_level"). */
static int session_thread_level(MPI_Session session)
{
	static const struct {
		const char *name;
		int level;
	} levels[] = {{"MPI_THREAD_MULTIPLE", MPI_THREAD_MULTIPLE},
		      {"MPI_THREAD_SERIALIZED", MPI_THREAD_SERIALIZED},
		      {"MPI_THREAD_FUNNELED", MPI_THREAD_FUNNELED}};
	MPI_Info info = MPI_INFO_NULL;
	char value[64] = "";
	int len = (int)sizeof(value), flag = 0, level = MPI_THREAD_SINGLE;
	size_t i;

	if (PMPI_Session_get_info(session, &info) != MPI_SUCCESS)
		return level;
	if (PMPI_Info_get_string(info, "thread_level", &len, value, &flag) == MPI_SUCCESS && flag)
		for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
			if (!strcmp(value, levels[i].name))
				level = levels[i].level;
	PMPI_Info_free(&info);
	return level;
}

/* The first session of a process that did not call MPI_Init: start, as the rank of the
 * process set "mpi://WORLD" (MPI-4.1 11.3.2), the model's world. */
static void rec_start_session(MPI_Session session)
{
	int rank = 0, size = 0;

	if (rec_comm_session_world(session, &rank, &size) < 0) {
		rec_started = 1;
		rec_msg("MPI_Session_init: no process set mpi://WORLD to number the ranks by: "
			"this process is not recorded");
		rec_call_disable();
		return;
	}
	rec_by_session = 1;
	rec_start(rank, size, session_thread_level(session));
}

MPIV_EXPORT int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session)
{
	struct rec_call c;
	int rc;

	if (!rec_call_enter(&c, MPIV_CALL_Session_init, __builtin_return_address(0)))
		return PMPI_Session_init(info, errhandler, session);
	if (rec_by_session && !rec_world && !rec_sessions) {
		/* a session again after the last ended: the rank had not finished after all */
		rec_output_sessions_ended(0);
		rec_status_set_final(0);
	}
	rc = PMPI_Session_init(info, errhandler, session);
	if (rc == MPI_SUCCESS) {
		rec_sessions++;
		if (!rec_started)
			rec_start_session(*session);
	}
	rec_call_leave(&c);
	rec_output_flush();
	return rc;
}

/* The end of the last session of a process that started with one is its finish, as
 * MPI_Finalize's return, unless it begins another later: the trace stays open, and is closed
 * at its exit as finished (rec_output_sessions_ended()). The end of another session is an
 * event like any. */
MPIV_EXPORT int MPI_Session_finalize(MPI_Session *session)
{
	struct rec_call c;
	int rc;

	if (!rec_call_enter(&c, MPIV_CALL_Session_finalize, __builtin_return_address(0)))
		return PMPI_Session_finalize(session);
	if (!rec_by_session || rec_world || rec_sessions != 1) {
		rc = PMPI_Session_finalize(session);
		rec_call_leave(&c);
	} else {
		/* As MPI_Finalize: said, and written out, before MPI's end, which may wait for
		 * the others (and the job be ended meanwhile); MPI's own calls inside it are not
		 * the program's. */
		rec_call_leave(&c);
		rec_output_flush();
		rec_output_sessions_ended(1);
		rec_status_set_final(1);
		rec_guard_take();
		rc = PMPI_Session_finalize(session);
		rec_guard_drop();
	}
	if (rc == MPI_SUCCESS)
		rec_sessions--;
	return rc;
}
#endif

MPIV_EXPORT int MPI_Abort(MPI_Comm comm, int errorcode)
{
	struct rec_call c;
	int rc;

	if (!rec_call_enter(&c, MPIV_CALL_Abort, __builtin_return_address(0)))
		return PMPI_Abort(comm, errorcode);
	c.ev.comm = rec_comm_id(comm);
	rec_call_leave(&c);
	/* The job ends inside PMPI_Abort, this rank perhaps by a signal: the trace must be
	 * complete and closed before. */
	rec_output_close(MPIV_END_ABORTED, errorcode);
	rec_guard_take();
	rc = PMPI_Abort(comm, errorcode);
	rec_guard_drop();
	return rc;
}
