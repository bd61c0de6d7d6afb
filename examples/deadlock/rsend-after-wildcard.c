/* mpiverify-test: np=2 record=ok
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * mpiverify-test: replay=not-reproduced
 * Rank 0 posts a wildcard MPI_Irecv, tells rank 1 to go on, and only then posts its second
 * receive. Rank 1 sends a message, which the wildcard receive may take at once, and then
 * uses MPI_Rsend, counting on a receive being posted: if rank 0 has not posted its second one
 * yet, the ready send is erroneous (MPI 3.4), also when the first send is buffered. MPICH
 * runs MPI_Rsend as a standard send, so the run completes and replay says "not reproduced". */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, a = 0, b = 0, go = 1;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Irecv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &req);
		MPI_Send(&go, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
		MPI_Recv(&b, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(&go, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Rsend(&go, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
