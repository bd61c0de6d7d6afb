/* mpiverify-test: np=2 record=ok verify=deadlock
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * threads-receive-race.c with nonblocking receives: rank 1 creates a thread, then posts an
 * MPI_Irecv for rank 0's first tag-0 message, waits for it and replies on tag 5; the thread
 * posts an MPI_Irecv for the second, which rank 0 sends only after the reply. What a
 * receive takes is decided when it is posted: if the thread's MPI_Irecv is posted first, it
 * takes the first message, and the creator waits for the second, which never comes, while
 * rank 0 waits for the reply. The thread posts a little late, so the recorded run completes;
 * check finds the other order, and replay forces it by holding the creator's MPI_Irecv back
 * until the thread's has been posted. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *second(void *arg)
{
	MPI_Request req;
	int x;

	(void)arg;
	usleep(200000);
	MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	return NULL;
}

int main(int argc, char **argv)
{
	int provided, rank, x = 1;
	MPI_Request req;
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
		pthread_create(&t, NULL, second, NULL);
		MPI_Irecv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		MPI_Send(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
		pthread_join(t, NULL);
	}
	MPI_Finalize();
	return 0;
}
