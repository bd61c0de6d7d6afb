/* mpiverify-test: np=3 record=ok mpi=4 verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * MPI-4's large-count collectives with arrays of counts and displacements (MPI-4.1 2.5.8):
 * MPI_Gatherv_c, MPI_Scatterv_c, MPI_Allgatherv_c, MPI_Alltoallv_c, MPI_Alltoallw_c and
 * MPI_Reduce_scatter_c; the nonblocking MPI_Iallgatherv_c and MPI_Ialltoallw_c, each
 * completed by MPI_Wait; a persistent MPI_Alltoallv_init_c started twice; and on a periodic
 * ring of the three ranks MPI_Neighbor_alltoallv_c and MPI_Ineighbor_allgatherv_c. Every
 * count and displacement fits an int, so each call is followed as its int-count twin
 * (doc/mpi-calls.md), and every rank calls the same collectives in the same order: correct
 * whatever the buffering. The results are checked; a wrong one aborts the run. */
#include <mpi.h>
#include <stdio.h>

#define N 3 /* ranks */

static void expect(int got, int want, const char *what)
{
	if (got != want) {
		fprintf(stderr, "%s: got %d, want %d\n", what, got, want);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
}

int main(int argc, char **argv)
{
	MPI_Count counts[N] = {1, 1, 1}, nbcounts[2] = {1, 1};
	MPI_Aint displs[N] = {0, 1, 2}, wdispls[N], nbdispls[2] = {0, 1};
	MPI_Datatype types[N] = {MPI_INT, MPI_INT, MPI_INT};
	int rank, size, i, one, out[N], in[N], nbin[2], dims[1] = {N}, periods[1] = {1};
	MPI_Request req;
	MPI_Comm ring;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != N) {
		fprintf(stderr, "run with %d ranks\n", N);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	for (i = 0; i < N; i++) {
		out[i] = 10 * rank + i;
		wdispls[i] = (MPI_Aint)(i * sizeof(int)); /* MPI_Alltoallw's are in bytes */
	}

	/* rooted: every rank's value to rank 0, then rank 0's i-th value to rank i */
	MPI_Gatherv_c(&rank, 1, MPI_INT, in, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
	if (rank == 0)
		for (i = 0; i < N; i++)
			expect(in[i], i, "MPI_Gatherv_c");
	MPI_Scatterv_c(out, counts, displs, MPI_INT, &one, 1, MPI_INT, 0, MPI_COMM_WORLD);
	expect(one, rank, "MPI_Scatterv_c");

	/* to everybody */
	MPI_Allgatherv_c(&rank, 1, MPI_INT, in, counts, displs, MPI_INT, MPI_COMM_WORLD);
	for (i = 0; i < N; i++)
		expect(in[i], i, "MPI_Allgatherv_c");
	MPI_Alltoallv_c(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT, MPI_COMM_WORLD);
	for (i = 0; i < N; i++)
		expect(in[i], 10 * i + rank, "MPI_Alltoallv_c");
	MPI_Alltoallw_c(out, counts, wdispls, types, in, counts, wdispls, types, MPI_COMM_WORLD);
	for (i = 0; i < N; i++)
		expect(in[i], 10 * i + rank, "MPI_Alltoallw_c");
	MPI_Reduce_scatter_c(out, &one, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	expect(one, 10 * (0 + 1 + 2) + N * rank, "MPI_Reduce_scatter_c");

	/* nonblocking */
	MPI_Iallgatherv_c(&rank, 1, MPI_INT, in, counts, displs, MPI_INT, MPI_COMM_WORLD, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	for (i = 0; i < N; i++)
		expect(in[i], i, "MPI_Iallgatherv_c");
	MPI_Ialltoallw_c(out, counts, wdispls, types, in, counts, wdispls, types, MPI_COMM_WORLD,
			 &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	for (i = 0; i < N; i++)
		expect(in[i], 10 * i + rank, "MPI_Ialltoallw_c");

	/* persistent: the arrays stay the program's until the request is freed */
	MPI_Alltoallv_init_c(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT,
			     MPI_COMM_WORLD, MPI_INFO_NULL, &req);
	for (one = 0; one < 2; one++) {
		MPI_Start(&req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		for (i = 0; i < N; i++)
			expect(in[i], 10 * i + rank, "MPI_Alltoallv_init_c");
	}
	MPI_Request_free(&req);

	/* neighbourhood: the rank before and the one after on a ring, each sent the rank */
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
	out[0] = out[1] = rank;
	MPI_Neighbor_alltoallv_c(out, nbcounts, nbdispls, MPI_INT, nbin, nbcounts, nbdispls,
				 MPI_INT, ring);
	expect(nbin[0], (rank + N - 1) % N, "MPI_Neighbor_alltoallv_c");
	expect(nbin[1], (rank + 1) % N, "MPI_Neighbor_alltoallv_c");
	MPI_Ineighbor_allgatherv_c(&rank, 1, MPI_INT, nbin, nbcounts, nbdispls, MPI_INT, ring,
				   &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	expect(nbin[0], (rank + N - 1) % N, "MPI_Ineighbor_allgatherv_c");
	expect(nbin[1], (rank + 1) % N, "MPI_Ineighbor_allgatherv_c");
	MPI_Comm_free(&ring);

	if (rank == 0)
		printf("all large-count collectives agree\n");
	MPI_Finalize();
	return 0;
}
