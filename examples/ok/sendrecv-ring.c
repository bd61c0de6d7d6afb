/* mpiverify-test: np=3 record=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * A ring shift with MPI_Sendrecv and MPI_Sendrecv_replace: each call posts its send and its
 * receive together, so the ring cannot deadlock even when no send is buffered. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, right, left, out, in, i;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (rank + 1) % size;
	left = (rank + size - 1) % size;
	out = rank;
	for (i = 0; i < 3; i++) {
		MPI_Sendrecv(&out, 1, MPI_INT, right, i, &in, 1, MPI_INT, left, i, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		out = in;
	}
	MPI_Sendrecv_replace(&out, 1, MPI_INT, left, 9, right, 9, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
	if (rank == 0)
		printf("ring shifted: rank 0 holds %d\n", out);
	MPI_Finalize();
	return 0;
}
