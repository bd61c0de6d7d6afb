/* mpiverify-test: np=3 record=ok mpi=4 verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * mpiverify-test: matches=other
 * The Sessions model (MPI-4.1 11.3): no MPI_Init, no MPI_COMM_WORLD. Each process makes a
 * session, the group of the process set "mpi://WORLD", and a communicator of it
 * (MPI_Comm_create_from_group); it ends with MPI_Session_finalize. On that communicator rank 0
 * receives from MPI_ANY_SOURCE, then from rank 1: if the wildcard takes rank 1's message, the
 * second receive waits forever (rank 2's message is never received), whatever the buffering.
 * Rank 1 comes late, so the recorded run takes rank 2's first and completes. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	MPI_Session session;
	MPI_Group world;
	MPI_Comm comm;
	MPI_Status st;
	int rank, val;

	MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
	MPI_Group_from_session_pset(session, "mpi://WORLD", &world);
	MPI_Comm_create_from_group(world, "sessions-wildcard-order", MPI_INFO_NULL,
				   MPI_ERRORS_ARE_FATAL, &comm);
	MPI_Group_free(&world);
	MPI_Comm_rank(comm, &rank);
	if (rank == 0) {
		MPI_Recv(&val, 1, MPI_INT, MPI_ANY_SOURCE, 0, comm, &st);
		printf("rank 0: the wildcard receive matched rank %d\n", st.MPI_SOURCE);
		fflush(stdout);
		MPI_Recv(&val, 1, MPI_INT, 1, 0, comm, MPI_STATUS_IGNORE);
		printf("rank 0: received from rank 1, done\n");
	} else {
		if (rank == 1)
			usleep(300000);
		val = rank;
		MPI_Send(&val, 1, MPI_INT, 0, 0, comm);
	}
	MPI_Comm_free(&comm);
	MPI_Session_finalize(&session);
	return 0;
}
