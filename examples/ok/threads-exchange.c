/* mpiverify-test: np=2 record=ok verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Under MPI_THREAD_MULTIPLE each rank runs two threads (NTHREADS), and thread t of rank 0
 * exchanges ROUNDS messages with thread t of rank 1 on tag t: receive first on rank 0, send
 * first on rank 1, so each pair is safe whatever the buffering. The pairs run side by side,
 * and their calls interleave in the traces differently on every run: read as one sequence
 * per rank they would wait for each other, but each thread is its own sequence
 * (doc/semantics.md 1.3), and receives of different threads are not ordered. No two
 * threads can meet one message, so the first run leaves verify nothing to steer. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#ifndef ROUNDS
#define ROUNDS 50
#endif
#ifndef NTHREADS
#define NTHREADS 2
#endif

static int rank;

static void *exchange(void *arg)
{
	int tag = (int)(long)arg, x = 0, i;

	for (i = 0; i < ROUNDS; i++) {
		if (rank == 0) {
			MPI_Recv(&x, 1, MPI_INT, 1, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(&x, 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
		} else {
			MPI_Send(&x, 1, MPI_INT, 0, tag, MPI_COMM_WORLD);
			MPI_Recv(&x, 1, MPI_INT, 0, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int provided;
	pthread_t t[NTHREADS];
	long k;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided < MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "MPI_THREAD_MULTIPLE not provided\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (k = 0; k < NTHREADS; k++)
		pthread_create(&t[k], NULL, exchange, (void *)k);
	for (k = 0; k < NTHREADS; k++)
		pthread_join(t[k], NULL);
	MPI_Finalize();
	return 0;
}
