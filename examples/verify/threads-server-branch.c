/* mpiverify-test: np=3 record=ok verify=deadlock verify-runs=3
 * A server thread of rank 0 takes the first request from any worker and notes who sent it;
 * main joins the thread and acts on that: if rank 2 asked first, it waits for a message
 * rank 1 never sends. Rank 2 asks late, so the first run has rank 1 first and completes.
 * verify steers the server thread's receive (the thread named by its path, 0.1: the first
 * thread main made) to rank 2's request and confirms the deadlock main then falls into,
 * a branch of another thread on what the server took. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int first = -1;

static void *server(void *arg)
{
	int v;
	MPI_Status st;

	(void)arg;
	MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &st);
	first = st.MPI_SOURCE;
	MPI_Recv(&v, 1, MPI_INT, 3 - first, 1, MPI_COMM_WORLD, &st);
	return NULL;
}

int main(int argc, char **argv)
{
	int provided, rank, v = 0;
	pthread_t t;

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided < MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "MPI_THREAD_MULTIPLE not provided\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		pthread_create(&t, NULL, server, NULL);
		pthread_join(t, NULL);
		if (first == 2)
			MPI_Recv(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		if (rank == 2)
			usleep(100000);
		MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
