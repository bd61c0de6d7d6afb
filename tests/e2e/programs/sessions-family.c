/* The Sessions model (MPI-4.1 11.3) as programs use it, for tests/e2e/sessions.sh, three ranks:
 *
 *   START 1: the program calls MPI_Init and works on MPI_COMM_WORLD; a library makes a session
 *            of its own (LIB). 2: no MPI_Init: the program makes a session, the group of
 *            mpi://WORLD and a communicator of it (MPI_Comm_create_from_group), and ends with
 *            MPI_Session_finalize. 3: the same twice, one session after the other: the
 *            first for a sum, the second for the work (the process finishes only with the
 *            second). 4: a session for a sum, then MPI_Init, the session's end, and the work
 *            on MPI_COMM_WORLD (MPI_Finalize, not the session's end, ends the process).
 *   LIB    0: no library session. 1: a library makes a session, a communicator from the group
 *            of PSET, a sum over it, frees it, ends the session. 2: the same, the communicator
 *            freed only after the session ended (its end may then synchronise with the
 *            members: check refuses the trace).
 *   PSET   1: "mpi://WORLD"; 2: "mpi://SELF".
 *   BUG    0: the workers send rank 0 a result each, taken from MPI_ANY_SOURCE, and rank 0
 *            broadcasts the total: correct. 1: rank 0 takes one result from anybody, then rank
 *            1's: a deadlock where the first was rank 1's (rank 1 comes late, so the recorded
 *            run completes). 2: ranks 0 and 1 send each other 4 bytes before receiving: a
 *            deadlock only where standard sends are not buffered.
 */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

/* A library's own session: made, used for a sum, ended (and the communicator freed before
 * or after, LIB). */
static int library_sum(int value)
{
	MPI_Session session;
	MPI_Group group;
	MPI_Comm comm;
	int sum = -1;

	MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
	MPI_Group_from_session_pset(session, PSET == 1 ? "mpi://WORLD" : "mpi://SELF", &group);
	MPI_Comm_create_from_group(group, "library", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &comm);
	MPI_Group_free(&group);
	MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, comm);
	if (LIB == 1)
		MPI_Comm_free(&comm);
	MPI_Session_finalize(&session);
	if (LIB == 2)
		MPI_Comm_free(&comm);
	return sum;
}

static void work(MPI_Comm comm)
{
	int rank, size, val, i, total = 0;

	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	if (LIB)
		(void)library_sum(rank);
	if (BUG == 2) {
		if (rank < 2) {
			val = rank;
			MPI_Send(&val, 1, MPI_INT, 1 - rank, 0, comm);
			MPI_Recv(&val, 1, MPI_INT, 1 - rank, 0, comm, MPI_STATUS_IGNORE);
		}
		return;
	}
	if (rank == 0) {
		for (i = 1; i < size; i++) {
			MPI_Recv(&val, 1, MPI_INT, BUG == 1 && i == 2 ? 1 : MPI_ANY_SOURCE, 0, comm,
				 MPI_STATUS_IGNORE);
			total += val;
		}
	} else {
		if (BUG == 1 && rank == 1)
			usleep(300000);
		val = rank;
		MPI_Send(&val, 1, MPI_INT, 0, 0, comm);
	}
	MPI_Bcast(&total, 1, MPI_INT, 0, comm);
}

/* A session of the program's, its communicator of mpi://WORLD for the work or for a sum,
 * freed; the session is left for the caller to end. */
static void session_run(int working, MPI_Session *session)
{
	MPI_Group world;
	MPI_Comm comm;
	int one = 1, sum = 0;

	MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, session);
	MPI_Group_from_session_pset(*session, "mpi://WORLD", &world);
	MPI_Comm_create_from_group(world, working ? "program" : "first", MPI_INFO_NULL,
				   MPI_ERRORS_ARE_FATAL, &comm);
	MPI_Group_free(&world);
	if (working)
		work(comm);
	else
		MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm);
	MPI_Comm_free(&comm);
}

int main(int argc, char **argv)
{
	if (START == 1 || START == 4) {
		MPI_Session session;

		if (START == 4)
			session_run(0, &session);
		MPI_Init(&argc, &argv);
		if (START == 4)
			MPI_Session_finalize(&session);
		work(MPI_COMM_WORLD);
		MPI_Finalize();
	} else {
		MPI_Session session;

		if (START == 3) {
			session_run(0, &session);
			MPI_Session_finalize(&session);
		}
		session_run(1, &session);
		MPI_Session_finalize(&session);
	}
	return 0;
}
