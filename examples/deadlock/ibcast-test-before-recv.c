/* mpiverify-test: np=2 record=ok verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * ibcast-wait-before-recv with the root polling for its broadcast with MPI_Test instead of
 * waiting: rank 1 sends to rank 0 before it starts the broadcast, and rank 0 tests it until
 * it completes before it receives. MPICH completes a small MPI_Ibcast at its root alone and
 * buffers the send, so the run completes; but a portable program must allow the broadcast
 * to complete only once every member started it, and the send to wait for its receive: then
 * rank 0 polls for ever while rank 1 waits in its send. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, v = 0, msg = 7, done = 0;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		v = 42;
		MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
		while (!done)
			MPI_Test(&req, &done, MPI_STATUS_IGNORE);
		MPI_Recv(&msg, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		printf("rank 0: broadcast, then received %d\n", msg);
	} else {
		MPI_Send(&msg, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
