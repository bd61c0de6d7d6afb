/* mpiverify-test: np=3 record=ok verify=deadlock verify-runs=3
 * Rank 0 waits for the first of two receives with MPI_Waitany and acts on the index it
 * returns. Rank 2 answers late, so the first run gets index 0 and goes on correctly. When
 * rank 2's message completes first, rank 0 waits for a second message from rank 2 (tag 1)
 * that is never sent. verify runs the program with MPI_Waitany forced to return index 1 and
 * confirms the deadlock. */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, x = 0, y = 0, idx;
	MPI_Request req[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Irecv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req[0]);
		MPI_Irecv(&y, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &req[1]);
		MPI_Waitany(2, req, &idx, MPI_STATUS_IGNORE);
		if (idx == 1) /* rank 2 first */
			MPI_Recv(&y, 1, MPI_INT, 2, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Wait(&req[1 - idx], MPI_STATUS_IGNORE);
	} else {
		if (rank == 2)
			usleep(200000);
		MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
