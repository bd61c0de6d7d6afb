/* A long run that ends in a way record --last must explain from its window: ROUNDS (or argv[2])
 * rounds of a ring exchange (Isend, Irecv, Waitall) and an Allreduce, each from its own call
 * site, then the ending argv[1] names:
 *   0 (hang)   every rank receives from its right neighbour: a cycle of blocked MPI_Recv;
 *   1 (abort)  rank 0 calls MPI_Abort, the others wait in MPI_Barrier;
 *   2 (crash)  rank 0 dies of SIGSEGV, the others wait in MPI_Barrier;
 *   3 (exit)   every rank calls MPI_Finalize;
 *   4 (late)   rank 0 receives from rank 1, which never sends, the others wait in MPI_Barrier;
 *   5 (wait)   every rank waits for an MPI_Irecv from its left neighbour, which never sends;
 *   6 (persist) the same for a persistent receive made before the rounds (MPI_Recv_init), far
 *              out of the window, started at the end;
 *   7 (half)   as 4, in halves: ranks 2k and 2k + 1 share a communicator made before the
 *              rounds (MPI_Comm_split); rank 0 receives from rank 1, which never sends, rank 1
 *              waits in a barrier of its half, the others pass theirs and wait in
 *              MPI_COMM_WORLD's. */
#include <mpi.h>
#include <signal.h>
#include <stdlib.h>

#ifndef ROUNDS
#define ROUNDS 100000
#endif

int main(int argc, char **argv)
{
	int rank, size, right, left, end = argc > 1 ? atoi(argv[1]) : 0, i, out, in = 0;
	int rounds = argc > 2 ? atoi(argv[2]) : ROUNDS;
	double x = 1, sum;
	MPI_Request r[2], persist;
	MPI_Comm half;
	MPI_Status st[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (rank + 1) % size;
	left = (rank + size - 1) % size;
	MPI_Recv_init(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &persist);
	MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &half);
	for (i = 0; i < rounds; i++) {
		out = i;
		MPI_Irecv(&in, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r[0]);
		MPI_Isend(&out, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &r[1]);
		MPI_Waitall(2, r, st);
		if (i % 1000 == 0)
			MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	}
	switch (end) {
	case 0:
		MPI_Recv(&in, 1, MPI_INT, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		break;
	case 4:
		if (rank == 0)
			MPI_Recv(&in, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Barrier(MPI_COMM_WORLD);
		break;
	case 5:
		MPI_Irecv(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, &r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		break;
	case 6:
		MPI_Start(&persist);
		MPI_Wait(&persist, MPI_STATUS_IGNORE);
		break;
	case 7:
		if (rank == 0)
			MPI_Recv(&in, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Barrier(half);
		MPI_Barrier(MPI_COMM_WORLD);
		break;
	case 1:
	case 2:
		if (rank == 0) {
			if (end == 1)
				MPI_Abort(MPI_COMM_WORLD, 3);
			raise(SIGSEGV);
		}
		MPI_Barrier(MPI_COMM_WORLD);
		break;
	}
	MPI_Request_free(&persist);
	MPI_Comm_free(&half);
	MPI_Finalize();
	return 0;
}
