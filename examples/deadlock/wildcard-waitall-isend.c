/* mpiverify-test: np=3 record=ok
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * mpiverify-test: matches=other
 * Rank 0 waits for its MPI_Irecv from MPI_ANY_SOURCE and its MPI_Isend to rank 1 in one
 * MPI_Waitall, then receives once more from anyone. Rank 1 sends to rank 0 and then receives
 * from it; rank 2 sends to rank 0. When the wildcard takes rank 2's message and standard sends
 * are not buffered, rank 1 stays in its send (nobody receives it) and rank 0 in its wait (rank
 * 1 never receives its message). */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, in = 0, out = 0, val;
	MPI_Request reqs[2];
	MPI_Status st, sts[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Irecv(&in, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &reqs[0]);
		MPI_Isend(&out, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &reqs[1]);
		MPI_Waitall(2, reqs, sts);
		MPI_Recv(&val, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
		printf("rank 0: the second receive matched rank %d\n", st.MPI_SOURCE);
	} else {
		/* Rank 2 arrives late, so the run we watch matches rank 1 first and completes. */
		if (rank == 2)
			usleep(300000);
		val = rank;
		MPI_Send(&val, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		if (rank == 1)
			MPI_Recv(&val, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
