/* mpiverify-test: np=2 record=ok verify=ok verify-runs=1
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * mpiverify-test: warn=pending-at-disconnect
 * Rank 0 starts a send on a duplicate of MPI_COMM_WORLD, disconnects the duplicate, and only
 * then waits for the send; rank 1 receives the message before it disconnects. No deadlock in
 * any buffering mode, and the run completes on MPICH and Open MPI. But MPI allows
 * MPI_Comm_disconnect "only if all communication is complete and matched" (MPI-4.1 11.10.4),
 * and MPICH waits inside it for the pending send: check warns of the request still pending
 * at the disconnect. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, v = 11;
	MPI_Comm dup;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	if (rank == 0) {
		MPI_Isend(&v, 1, MPI_INT, 1, 0, dup, &req);
		MPI_Comm_disconnect(&dup);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		MPI_Recv(&v, 1, MPI_INT, 0, 0, dup, MPI_STATUS_IGNORE);
		MPI_Comm_disconnect(&dup);
	}
	printf("rank %d: %d\n", rank, v);
	MPI_Finalize();
	return 0;
}
