/* mpiverify-test: np=4 record=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Each iteration posts both receives before both sends and completes all four with one Waitall:
 * no operation waits for another to be posted first, so the ring is safe without buffering. */
#include <mpi.h>

#define ITERATIONS 3

int main(int argc, char **argv)
{
	int rank, size, left, right, it;
	int out[2], in[2];
	MPI_Request req[4];
	MPI_Status st[4]; /* not MPI_STATUSES_IGNORE: GCC 12 warns on it (-Wstringop-overflow) */

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	left = (rank + size - 1) % size;
	right = (rank + 1) % size;
	for (it = 0; it < ITERATIONS; it++) {
		out[0] = out[1] = rank * 100 + it;
		/* Tag 0 travels rightwards, tag 1 leftwards. */
		MPI_Irecv(&in[0], 1, MPI_INT, left, 0, MPI_COMM_WORLD, &req[0]);
		MPI_Irecv(&in[1], 1, MPI_INT, right, 1, MPI_COMM_WORLD, &req[1]);
		MPI_Isend(&out[0], 1, MPI_INT, right, 0, MPI_COMM_WORLD, &req[2]);
		MPI_Isend(&out[1], 1, MPI_INT, left, 1, MPI_COMM_WORLD, &req[3]);
		MPI_Waitall(4, req, st);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
