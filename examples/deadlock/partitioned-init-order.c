/* mpiverify-test: np=2 record=hang mpi=4 verify=deadlock
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=inconclusive
 * Partitioned requests meet in the order they were made, not the order they are started
 * (MPI-4.1 4.2.2): rank 0 makes sends A then B, rank 1 receives X then Y, so A meets X and B
 * meets Y. Rank 0 starts B first and waits for it before it starts A; rank 1 starts Y only
 * once X is complete. Without buffering B waits for Y, Y for X, X for A and A for B; with it
 * B's message would wait in the library for Y and all four complete. MPICH does not buffer
 * them: the recorded run hangs, and with buffering the rest of it is unknown (inconclusive).
 * Matched as they start, as other persistent requests are, B would meet X and nothing would
 * wait. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank;
	double a = 1, b = 2, x, y;
	MPI_Request r[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Psend_init(&a, 1, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
		MPI_Psend_init(&b, 1, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
		MPI_Start(&r[1]);
		MPI_Pready(0, r[1]);
		MPI_Wait(&r[1], MPI_STATUS_IGNORE);
		MPI_Start(&r[0]);
		MPI_Pready(0, r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		MPI_Precv_init(&x, 1, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);
		MPI_Precv_init(&y, 1, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
		MPI_Start(&r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		MPI_Start(&r[1]);
		MPI_Wait(&r[1], MPI_STATUS_IGNORE);
	}
	MPI_Request_free(&r[0]);
	MPI_Request_free(&r[1]);
	MPI_Finalize();
	return 0;
}
