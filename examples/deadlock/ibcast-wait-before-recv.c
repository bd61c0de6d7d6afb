/* mpiverify-test: np=2 record=ok verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * The nonblocking form of bcast-before-recv: rank 1 sends to rank 0 before it starts a
 * broadcast, whose root, rank 0, waits for the broadcast before it receives. MPICH lets the
 * root complete a small MPI_Ibcast alone and buffers the send, so the run completes; but a
 * portable program must allow the broadcast to synchronise at its wait and the send to wait
 * for its receive, and then each rank waits for the other. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, v = 0, msg = 7;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		v = 42;
		MPI_Ibcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
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
