/* mpiverify-test: np=2 record=ok mpi=4 verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * MPI-4's large-count calls that make windows and detach the buffer of buffered sends
 * (MPI-4.1 2.5.8): windows made by MPI_Win_create_c, MPI_Win_allocate_c and
 * MPI_Win_allocate_shared_c (their displacement unit an MPI_Aint), each written with MPI_Put_c
 * or read with MPI_Get_c between fences, or under MPI_Win_lock_all with the request-based
 * MPI_Rput_c, MPI_Rget_c, MPI_Raccumulate_c and MPI_Rget_accumulate_c, the shared one queried
 * with MPI_Win_shared_query_c; then a buffered exchange, MPI_Bsend_c in a buffer attached with
 * MPI_Buffer_attach_c, whose MPI_Buffer_detach_c returns the size as an MPI_Count. Every unit
 * and size fits an int, so each call is followed as its int-count twin (doc/mpi-calls.md);
 * the ranks call the same collectives in the same order and the buffered sends need no
 * receive to complete: correct whatever the buffering. The message and the detached buffer
 * are checked (what the windows hold is not: the point is who waits). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, other, mine[2] = {0, 0}, got = -1, *mem, *shared, qunit, in = -1;
	MPI_Aint unit = sizeof(int), qsize;
	MPI_Count bsize = MPI_BSEND_OVERHEAD + sizeof(int), detached = 0;
	void *buf, *back;
	MPI_Win win;
	MPI_Request req[2];
	MPI_Status st[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	other = 1 - rank;

	/* each rank puts its rank into the other's window */
	MPI_Win_create_c(mine, sizeof(mine), unit, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	MPI_Win_fence(0, win);
	MPI_Put_c(&rank, 1, MPI_INT, other, 1, 1, MPI_INT, win);
	MPI_Win_fence(0, win);
	MPI_Win_free(&win);

	/* each rank reads the other's allocated window */
	MPI_Win_allocate_c(2 * sizeof(int), unit, MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
	mem[0] = 100 + rank;
	MPI_Win_fence(0, win);
	MPI_Get_c(&got, 1, MPI_INT, other, 0, 1, MPI_INT, win);
	MPI_Win_fence(0, win);
	MPI_Win_free(&win);

	/* passive target, request-based: each rank writes, reads and adds into the other's */
	MPI_Win_create_c(mine, sizeof(mine), unit, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
	MPI_Win_lock_all(0, win);
	MPI_Rput_c(&rank, 1, MPI_INT, other, 0, 1, MPI_INT, win, &req[0]);
	MPI_Wait(&req[0], MPI_STATUS_IGNORE);
	MPI_Rget_c(&got, 1, MPI_INT, other, 0, 1, MPI_INT, win, &req[0]);
	MPI_Raccumulate_c(&rank, 1, MPI_INT, other, 1, 1, MPI_INT, MPI_SUM, win, &req[1]);
	MPI_Waitall(2, req, st);
	MPI_Rget_accumulate_c(&rank, 1, MPI_INT, &got, 1, MPI_INT, other, 1, 1, MPI_INT, MPI_SUM,
			      win, &req[0]);
	MPI_Wait(&req[0], MPI_STATUS_IGNORE);
	MPI_Win_unlock_all(win);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Win_free(&win);

	/* shared memory: rank 0's, written by rank 0 between fences */
	MPI_Win_allocate_shared_c(sizeof(int), unit, MPI_INFO_NULL, MPI_COMM_WORLD, &shared, &win);
	MPI_Win_shared_query(win, 0, &qsize, &qunit, &shared);
	MPI_Win_shared_query_c(win, 0, &qsize, &unit, &shared);
	MPI_Win_fence(0, win);
	if (rank == 0)
		*shared = 42;
	MPI_Win_fence(0, win);
	MPI_Win_free(&win);

	/* buffered: the send completes in the buffer, before its receive */
	buf = malloc((size_t)bsize);
	MPI_Buffer_attach_c(buf, bsize);
	MPI_Bsend_c(&rank, 1, MPI_INT, other, 0, MPI_COMM_WORLD);
	MPI_Recv_c(&in, 1, MPI_INT, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Buffer_detach_c(&back, &detached);
	if (in != other || back != buf || detached != bsize) {
		fprintf(stderr, "rank %d: received %d, detached %lld bytes\n", rank, in,
			(long long)detached);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	free(buf);
	if (rank == 0)
		printf("windows and buffer as expected\n");
	MPI_Finalize();
	return 0;
}
