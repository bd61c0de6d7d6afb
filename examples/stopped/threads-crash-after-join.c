/* mpiverify-test: np=2 record=fail verify=crash
 * mpiverify-test: buffering=zero expect=inconclusive
 * mpiverify-test: buffering=infinite expect=inconclusive
 * Rank 1 makes a thread that exchanges with rank 0, joins it, and then dies of SIGSEGV in
 * main; rank 0 waits in a barrier until the launcher ends the job. The run of threads leaves
 * nothing to steer, so verify answers from it (doc/verify.md, section 4): its traces are not a
 * whole run and its model says nothing more, but the rank died of a signal of its own on the
 * path the library took, a crash confirmed (exit 1), where verify once answered
 * inconclusive. */
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

static void *exchange(void *arg)
{
	int x = 1;

	(void)arg;
	MPI_Send(&x, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
	MPI_Recv(&x, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	return NULL;
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
		MPI_Recv(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(&x, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
	} else {
		pthread_create(&t, NULL, exchange, NULL);
		pthread_join(t, NULL);
		MPI_Barrier(MPI_COMM_SELF); /* its last call, in main */
		raise(SIGSEGV); /* a crash, without a compiler free to reason about it */
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
