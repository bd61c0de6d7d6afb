/* mpiverify-test: np=2 record=hang mpi=4 verify=deadlock
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * A persistent broadcast (MPI_Bcast_init) from rank 0, started on both ranks: rank 1 waits
 * for it, then sends rank 0 a message; rank 0 receives that message before it starts the
 * broadcast. Rank 1's wait needs the root's data, whatever the buffering: rank 0 is in its
 * receive, rank 1 in its wait, a deadlock. Started, a persistent collective is its
 * nonblocking one (MPI-4.1 6.13): as with MPI_Ibcast, the wait is where rank 1 blocks. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, value = 7, x = 0;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Bcast_init(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
	if (rank == 0) {
		MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Start(&req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		MPI_Start(&req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Request_free(&req);
	MPI_Finalize();
	return 0;
}
