/* mpiverify-test: np=2 record=hang mpi=4 verify=deadlock
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * Rank 0 starts a partitioned send to rank 1 but readies its partitions only after it has
 * received rank 1's reply; rank 1 replies once its partitioned receive is complete. Starting
 * a partitioned send sends nothing (MPI-4.1 4.2.2): the message goes when its last partition
 * is ready (doc/semantics.md 4.9), so each rank waits for the other, whatever the
 * buffering. A model that sent at the start would find nothing wrong. */
#include <mpi.h>

#define PARTS 4

int main(int argc, char **argv)
{
	int rank, reply = 0;
	double buf[PARTS] = {0};
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Psend_init(buf, PARTS, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
			       &req);
		MPI_Start(&req);
		MPI_Recv(&reply, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Pready_range(0, PARTS - 1, req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		MPI_Request_free(&req);
	} else if (rank == 1) {
		MPI_Precv_init(buf, PARTS, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
			       &req);
		MPI_Start(&req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		MPI_Send(&reply, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
		MPI_Request_free(&req);
	}
	MPI_Finalize();
	return 0;
}
