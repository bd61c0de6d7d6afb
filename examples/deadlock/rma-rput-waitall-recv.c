/* mpiverify-test: np=2 record=hang verify=deadlock verify-runs=1
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * A request-based one-sided call waited for with a receive: rank 0 locks rank 1's window,
 * makes MPI_Rput and MPI_Irecv from rank 1, and waits for both in MPI_Waitall; rank 1
 * receives from rank 0 before it sends. The MPI_Rput's request completes without rank 1
 * (MPI-4.1 13.7.3), the receive's needs rank 1's send, which waits for a message rank 0
 * sends only after its MPI_Waitall: a deadlock whatever the buffering, on every library. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, slot = 0, v = 7, in = -1;
	MPI_Request r[2];
	MPI_Status st[2];
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Win_create(&slot, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	if (rank == 0) {
		MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
		MPI_Rput(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win, &r[0]);
		MPI_Irecv(&in, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[1]);
		MPI_Waitall(2, r, st);
		MPI_Win_unlock(1, win);
		MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	} else {
		MPI_Recv(&in, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Win_free(&win);
	printf("rank %d: done\n", rank);
	MPI_Finalize();
	return 0;
}
