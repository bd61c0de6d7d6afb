/* The threaded exchanges verify answers from one run (tests/e2e/threads.sh): each of NT
 * threads of rank 0 exchanges ROUNDS messages with thread t of rank 1, written as BY says:
 *   0  MPI_Send and MPI_Recv on a tag per thread
 *   1  the same on a communicator per thread (MPI_Comm_dup), every thread on tag 0
 *   2  a tag per thread, rank 0 receiving with MPI_Mprobe and MPI_Mrecv
 *   3  MPI_Irecv, MPI_Isend and MPI_Waitall on a tag per thread, both ranks alike
 *   4  one tag and one communicator for every thread: which thread takes which message is
 *      the threads' timing
 *   5  the same, every message the same value: whichever a thread takes, it gets the same
 * Correct in every form; 0 to 3 and 5 leave nothing to steer, 4 does. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>

#ifndef BY
#define BY 0
#endif
#ifndef NT
#define NT 3
#endif
#ifndef ROUNDS
#define ROUNDS 5
#endif

static int rank;
static MPI_Comm comms[NT];

static void *work(void *arg)
{
	int t = (int)(long)arg, x = BY == 5 ? 7 : t, i, peer = 1 - rank;
	int tag = BY == 1 || BY >= 4 ? 0 : t;
	MPI_Comm c = BY == 1 ? comms[t] : MPI_COMM_WORLD;
	MPI_Request r[2];
	MPI_Status st[2];
	MPI_Message m;

	for (i = 0; i < ROUNDS; i++) {
		if (BY == 3) {
			MPI_Irecv(&x, 1, MPI_INT, peer, tag, c, &r[0]);
			MPI_Isend(&t, 1, MPI_INT, peer, tag, c, &r[1]);
			MPI_Waitall(2, r, st);
		} else if (rank == 0) {
			MPI_Send(&x, 1, MPI_INT, peer, tag, c);
			if (BY == 2) {
				MPI_Mprobe(peer, tag, c, &m, MPI_STATUS_IGNORE);
				MPI_Mrecv(&x, 1, MPI_INT, &m, MPI_STATUS_IGNORE);
			} else {
				MPI_Recv(&x, 1, MPI_INT, peer, tag, c, MPI_STATUS_IGNORE);
			}
		} else {
			MPI_Recv(&x, 1, MPI_INT, peer, tag, c, MPI_STATUS_IGNORE);
			MPI_Send(&x, 1, MPI_INT, peer, tag, c);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int provided;
	long k;
	pthread_t th[NT];

	MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
	if (provided < MPI_THREAD_MULTIPLE) {
		fprintf(stderr, "MPI_THREAD_MULTIPLE not provided\n");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (k = 0; k < NT; k++)
		MPI_Comm_dup(MPI_COMM_WORLD, &comms[k]);
	for (k = 0; k < NT; k++)
		pthread_create(&th[k], NULL, work, (void *)k);
	for (k = 0; k < NT; k++)
		pthread_join(th[k], NULL);
	for (k = 0; k < NT; k++)
		MPI_Comm_free(&comms[k]);
	MPI_Finalize();
	return 0;
}
