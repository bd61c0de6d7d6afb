/* mpiverify-test: np=2 record=ok verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * mpiverify-test: buffering=eager:1024 expect=deadlock
 * mpiverify-test: lib=openmpi record=hang
 * Rank 0 disconnects a duplicate of MPI_COMM_WORLD and then sends to rank 1, which receives
 * that message before it disconnects the duplicate. MPI_Comm_disconnect "is a collective
 * operation" (MPI-4.1 11.10.4) and may synchronise: MPICH's waits only for the rank's own
 * pending communication, so the run completes there, but Open MPI's is a barrier, and the
 * run hangs there: rank 0 waits in the disconnect for rank 1, which waits in its receive for
 * rank 0. Found in every buffering mode (with buffering, in the search where collectives
 * synchronise); replay confirms it on MPICH with a barrier before the disconnect. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, v = 7;
	MPI_Comm dup;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	if (rank == 0) {
		MPI_Comm_disconnect(&dup);
		MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Comm_disconnect(&dup);
	}
	printf("rank %d: %d\n", rank, v);
	MPI_Finalize();
	return 0;
}
