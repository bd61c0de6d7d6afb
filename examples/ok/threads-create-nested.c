/* mpiverify-test: np=2 record=ok verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * As ok/threads-create-after-reply.c, through a thread that makes no MPI call: rank 1
 * receives rank 0's first tag-0 message and replies on tag 5, then creates a helper thread,
 * which creates the thread that receives the second tag-0 message, and joins it. The helper
 * is in no trace's events, but the order passes through it (doc/semantics.md 1.3): the
 * receiving thread exists only after its grandparent's receive returned, so it cannot take
 * the first message. Without that order check would report a deadlock no run can have. */
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

/* no MPI call of its own: it only starts the receiving thread and waits for it */
static void *helper(void *arg)
{
	pthread_t t;

	(void)arg;
	pthread_create(&t, NULL, second, NULL);
	pthread_join(t, NULL);
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
		pthread_create(&t, NULL, helper, NULL);
		pthread_join(t, NULL);
	}
	MPI_Finalize();
	return 0;
}
