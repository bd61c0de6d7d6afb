/* mpiverify-test: np=2 record=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * mpiverify-test: warn=unreceived,uncompleted-request,unfreed-communicator
 * No deadlock, but three bugs check reports as warnings from the recorded run: rank 1 buffers
 * two messages with MPI_Bsend and rank 0 receives only one (the second is never received),
 * rank 0's MPI_Isend request is never completed by a wait or test, and the communicator
 * MPI_Comm_dup makes is never freed. The buffer stays attached until MPI_Finalize:
 * MPI_Buffer_detach would wait for the message nobody receives, a deadlock wherever the
 * library keeps it (examples/deadlock/bsend-detach.c). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, v[2] = {0, 0}, size = 2 * (MPI_BSEND_OVERHEAD + (int)sizeof(int));
	void *buf = malloc((size_t)size);
	MPI_Request req;
	MPI_Comm dup;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Buffer_attach(buf, size);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	if (rank == 1) {
		MPI_Bsend(&v[0], 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
		MPI_Bsend(&v[1], 1, MPI_INT, 0, 7, MPI_COMM_WORLD);
		MPI_Recv(&v[0], 1, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(&v[0], 1, MPI_INT, 1, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Isend(&v[1], 1, MPI_INT, 1, 3, MPI_COMM_WORLD, &req);
		printf("rank 0: received one of rank 1's two messages\n");
	}
	MPI_Barrier(dup);
	MPI_Finalize();
	free(buf);
	return 0;
}
