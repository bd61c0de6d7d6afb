/* mpiverify-test: np=4 record=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * A halo exchange on a 2x2 Cartesian grid, periodic along the first dimension and not along
 * the second: MPI_Neighbor_alltoall sends one value to each of the four neighbours a rank has
 * (up, down, left, right, MPI-4.1 section 8.6) and receives one from each. Along the
 * non-periodic dimension one side of every rank is MPI_PROC_NULL: no data, and no one to
 * wait for. Every rank calls the same collectives in the same order, with nothing between
 * them that waits for another rank, so no mode can block it. The halo is exchanged twice
 * and checked, and a final MPI_Neighbor_alltoallv with counts of 1 does the same. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int dims[2] = {2, 2}, periods[2] = {1, 0}, rank, size, i, step;
	int out[4], in[4], counts[4] = {1, 1, 1, 1}, displs[4] = {0, 1, 2, 3};
	MPI_Comm grid;

	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 4)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
	MPI_Comm_rank(grid, &rank);
	for (step = 0; step < 2; step++) {
		for (i = 0; i < 4; i++) {
			out[i] = 100 * rank + step;
			in[i] = -1;
		}
		MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, grid);
		for (i = 0; i < 4; i++) {
			int src, dst;

			MPI_Cart_shift(grid, i / 2, 1, &src, &dst);
			/* neighbour i: the source of dimension i/2, then its destination */
			if ((i % 2 ? dst : src) == MPI_PROC_NULL ?
				    in[i] != -1 :
				    in[i] != 100 * (i % 2 ? dst : src) + step)
				MPI_Abort(MPI_COMM_WORLD, 2);
		}
	}
	MPI_Neighbor_alltoallv(out, counts, displs, MPI_INT, in, counts, displs, MPI_INT, grid);
	MPI_Comm_free(&grid);
	MPI_Finalize();
	return 0;
}
