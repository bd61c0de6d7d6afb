/* mpiverify-test: np=2 record=ok mpi=4 verify=deadlock
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 0's MPI_Isendrecv sends rank 1 tag 0 and receives its tag 1, and rank 0 waits for
 * the request before it receives tag 2. Rank 1 sends tag 2 first, then tag 1, and receives
 * tag 0 last. The request completes only when its receive has taken tag 1 (MPI-4.1 3.10):
 * without buffering, rank 1's send of tag 2 waits for rank 0's receive of it, which comes
 * after the wait, which waits for tag 1, which rank 1 sends after tag 2. With buffering both
 * sends return at once and every message arrives. MPICH buffers 4 bytes, so the recorded run
 * completes. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, x = 0, y = 0;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Isendrecv(&x, 1, MPI_INT, 1, 0, &y, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		MPI_Recv(&x, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		MPI_Send(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
		MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
		MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
