/* mpiverify-test: np=2 record=hang verify=deadlock
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * Rank 1 creates a thread that sends rank 0 its first message and ends with pthread_exit();
 * then both ranks wait for a message the other never sends: a deadlock in every order and
 * buffering. The run hangs and record ends it. The thread's end is recorded as a return's
 * is (preload/rec_threads.c): it is no thread that might have gone on, so check answers
 * "deadlock" and not "inconclusive: a rank did not finish". */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

static void *first(void *arg)
{
	int x = 1;

	(void)arg;
	MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
	pthread_exit(NULL);
}

int main(int argc, char **argv)
{
	int provided, rank, x = 0;
	pthread_t t;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided < MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "MPI_THREAD_MULTIPLE not provided\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Recv(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		pthread_create(&t, NULL, first, NULL);
		MPI_Recv(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		pthread_join(t, NULL);
	}
	MPI_Finalize();
	return 0;
}
