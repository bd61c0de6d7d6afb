/* The recorder's quick way of MPI_Send, Isend, Recv, Irecv and Wait must record what its
 * common way does (tests/e2e/recorder.sh): this program runs once with MPI_Init (the quick
 * way) and once with MPI_Init_thread(MPI_THREAD_MULTIPLE) (the common way: calls may
 * overlap), and the two traces must have the same events. Two ranks, every call made from
 * one site in a loop (records copied) and with arguments or results that change: tags, the
 * data sent and received (their digests), a duplicated communicator, MPI_COMM_SELF, a derived
 * datatype freed and made again with another size, a communicator freed and duplicated
 * again, wildcard receives, MPI_PROC_NULL, a null request, an error returned, a receive
 * blocked for over two seconds (written as blocked, then complete), and enough calls for the
 * recorder's 1 MiB buffer to wrap.
 * Usage: rec-quick single|multiple */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LOOPS 20000 /* iterations of the loop: about 2 MB of trace */

static int rank, peer;

/* One message each way on comm with tag, from one site whatever the communicator; its data
 * are the rank's plus data. */
static void exchange(MPI_Comm comm, int tag, int data)
{
	int out = rank + data, in = -1;
	MPI_Request req;
	MPI_Status st;

	MPI_Isend(&out, 1, MPI_INT, comm == MPI_COMM_SELF ? 0 : peer, tag, comm, &req);
	MPI_Recv(&in, 1, MPI_INT, MPI_ANY_SOURCE, tag, comm, &st);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
}

/* count elements of type each way, from one site whatever the type. */
static void typed(MPI_Datatype type, int count)
{
	int buf[16] = {0}, in[16];

	if (rank == 0) {
		MPI_Send(buf, count, type, peer, 7, MPI_COMM_WORLD);
		MPI_Recv(in, count, type, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(in, count, type, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Send(buf, count, type, peer, 7, MPI_COMM_WORLD);
	}
}

/* Nonblocking receives completed out of order, one of them with any tag. */
static void out_of_order(int i)
{
	int out[2] = {rank, rank}, in[2];
	MPI_Request r[2];
	MPI_Status st;

	MPI_Irecv(&in[0], 1, MPI_INT, peer, 1, MPI_COMM_WORLD, &r[0]);
	MPI_Irecv(&in[1], 1, MPI_INT, peer, MPI_ANY_TAG, MPI_COMM_WORLD, &r[1]);
	MPI_Send(&out[0], 1, MPI_INT, peer, 1, MPI_COMM_WORLD);
	MPI_Send(&out[1], 1, MPI_INT, peer, 2 + i % 3, MPI_COMM_WORLD);
	MPI_Wait(&r[1], &st);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
	int multiple = argc > 1 && !strcmp(argv[1], "multiple");
	int provided, i, v = 0, rc;
	MPI_Comm dup;
	MPI_Datatype vec;
	MPI_Request none = MPI_REQUEST_NULL;

	if (multiple) {
		MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
		if (provided != MPI_THREAD_MULTIPLE) {
			printf("no MPI_THREAD_MULTIPLE\n");
			MPI_Abort(MPI_COMM_WORLD, 3);
		}
	} else {
		MPI_Init(&argc, &argv);
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	peer = 1 - rank;
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	for (i = 0; i < LOOPS; i++) {
		/* other data every third round */
		exchange(MPI_COMM_WORLD, i % 2, i / 3 % 4);
		exchange(dup, 0, 0);
		exchange(MPI_COMM_SELF, 0, 0);
		if (i % 1000 == 0) {
			typed(vec, 1);
			typed(MPI_INT, 3);
			out_of_order(i);
			MPI_Send(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
			MPI_Recv(&v, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Wait(&none, MPI_STATUS_IGNORE);
		}
	}
	/* a type and a communicator made again, perhaps in their old handles */
	MPI_Type_free(&vec);
	MPI_Type_contiguous(3, MPI_INT, &vec);
	MPI_Type_commit(&vec);
	typed(vec, 1);
	MPI_Comm_free(&dup);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	exchange(dup, 0, 0);
	/* an error returned: a send to a rank that does not exist */
	MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
	rc = MPI_Send(&v, 1, MPI_INT, 5, 0, dup);
	if (rc == MPI_SUCCESS)
		printf("rank %d: a send to rank 5 of 2 succeeded\n", rank);
	/* blocked for over two seconds: the recorder writes it as blocked, then complete */
	if (rank == 1)
		sleep(3);
	exchange(MPI_COMM_WORLD, 0, 0);
	MPI_Type_free(&vec);
	MPI_Comm_free(&dup);
	MPI_Finalize();
	if (rank == 0)
		printf("done\n");
	return 0;
}
