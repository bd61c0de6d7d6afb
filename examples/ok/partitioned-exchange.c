/* mpiverify-test: np=2 record=ok mpi=4 verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * MPI-4 partitioned communication (MPI-4.1 chapter 4): each rank sends the other four
 * partitions of a buffer and receives four, over three rounds of the same persistent
 * requests. Each round starts both requests, then readies the send's partitions one way per
 * round (MPI_Pready one at a time, MPI_Pready_range, MPI_Pready_list), then waits for both.
 * A send's message goes once its last partition is ready (doc/semantics.md 4.9), and both
 * receives are started before either rank waits: correct whatever the buffering. */
#include <mpi.h>
#include <stdio.h>

#define PARTS 4
#define COUNT 8
#define ROUNDS 3

int main(int argc, char **argv)
{
	int rank, peer, round, p, list[PARTS];
	double out[PARTS * COUNT], in[PARTS * COUNT];
	MPI_Request req[2];
	MPI_Status st[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	peer = 1 - rank;
	MPI_Psend_init(out, PARTS, COUNT, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
		       &req[0]);
	MPI_Precv_init(in, PARTS, COUNT, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
		       &req[1]);
	for (round = 0; round < ROUNDS; round++) {
		MPI_Startall(2, req);
		for (p = 0; p < PARTS * COUNT; p++)
			out[p] = rank + round + p;
		if (round == 0) {
			for (p = 0; p < PARTS; p++)
				MPI_Pready(p, req[0]);
		} else if (round == 1) {
			MPI_Pready_range(0, PARTS - 1, req[0]);
		} else {
			for (p = 0; p < PARTS; p++)
				list[p] = PARTS - 1 - p;
			MPI_Pready_list(PARTS, list, req[0]);
		}
		MPI_Waitall(2, req, st);
	}
	MPI_Request_free(&req[0]);
	MPI_Request_free(&req[1]);
	if (rank == 0)
		printf("received %g\n", in[PARTS * COUNT - 1]);
	MPI_Finalize();
	return 0;
}
