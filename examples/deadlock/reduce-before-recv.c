/* mpiverify-test: np=2 record=ok verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 0, the root of a reduction, sends to rank 1 before it enters the reduction; rank 1
 * reduces first and receives after. A non-root may leave MPI_Reduce once its data is on its
 * way, as MPICH and Open MPI let it, and the send is buffered: the run completes. But a
 * portable program must allow the reduction to synchronise and the send to wait for its
 * receive: then rank 0 waits in its send for rank 1, which waits in the reduction for
 * rank 0. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, v, sum = 0, msg = 7;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	v = rank + 1;
	if (rank == 0) {
		MPI_Send(&msg, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
		MPI_Reduce(&v, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
		printf("rank 0: sent, then reduced %d\n", sum);
	} else {
		MPI_Reduce(&v, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
		MPI_Recv(&msg, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
