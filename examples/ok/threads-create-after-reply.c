/* mpiverify-test: np=2 record=ok verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 1 receives rank 0's first tag-0 message, replies on tag 5, and only then creates a
 * thread that receives the second tag-0 message; rank 0 sends the second one after the reply.
 * Receives of two threads are not ordered (doc/semantics.md 1.3), but these are: the thread
 * does not exist before its creator's receive returned. Without the order pthread_create
 * puts between them, the thread's receive could take the first message and leave its creator
 * waiting for a message rank 0 sends only after the reply it never gets: a deadlock no run
 * can have. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static void *second(void *arg)
{
	int x;

	(void)arg;
	MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	return NULL;
}

int main(int argc, char **argv)
{
	int provided, rank, x = 1;
	pthread_t t;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided < MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "MPI_THREAD_MULTIPLE not provided\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
		MPI_Recv(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	} else if (rank == 1) {
		MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
		pthread_create(&t, NULL, second, NULL);
		pthread_join(t, NULL);
	}
	MPI_Finalize();
	return 0;
}
