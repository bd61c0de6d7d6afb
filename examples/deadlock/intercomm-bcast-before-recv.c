/* mpiverify-test: np=4 record=ok verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * mpiverify-test: buffering=eager:1024 expect=ok
 * Two groups (world ranks {0,1} and {2,3}) joined by MPI_Intercomm_create. World rank 0
 * broadcasts to the other group (MPI_ROOT; rank 1 passes MPI_PROC_NULL) and then receives
 * from world rank 2, which sends before it enters the broadcast: MPICH buffers the small
 * send and the run completes, but a broadcast may synchronise both groups, and then rank 0
 * waits in it for rank 2, which waits in its send for rank 0's receive. Both groups then
 * reduce over the intercommunicator and merge it (the odd group high) into one
 * intracommunicator, on which they reduce once more. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, me, v = 0, msg = 5, sum = 0, all = 0;
	MPI_Comm half, inter, merged;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &half);
	MPI_Comm_rank(half, &me);
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank < 2 ? 2 : 0, 9, &inter);
	if (rank == 0) {
		v = 42;
		MPI_Bcast(&v, 1, MPI_INT, MPI_ROOT, inter);
		MPI_Recv(&msg, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		MPI_Bcast(&v, 1, MPI_INT, MPI_PROC_NULL, inter);
	} else {
		if (rank == 2)
			MPI_Send(&msg, 1, MPI_INT, 0, 0, inter);
		/* the root is rank 0 of the remote group */
		MPI_Bcast(&v, 1, MPI_INT, 0, inter);
	}
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, inter);
	MPI_Intercomm_merge(inter, rank >= 2, &merged);
	MPI_Allreduce(&rank, &all, 1, MPI_INT, MPI_SUM, merged);
	printf("rank %d: %d %d %d\n", rank, v, sum, all);
	MPI_Comm_free(&merged);
	MPI_Comm_free(&inter);
	MPI_Comm_free(&half);
	MPI_Finalize();
	return 0;
}
