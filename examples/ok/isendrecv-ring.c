/* mpiverify-test: np=3 record=ok mpi=4 verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * A ring shift with MPI-4's MPI_Isendrecv and MPI_Isendrecv_replace: each starts its send and
 * its receive at once, as one request, completed by MPI_Wait or MPI_Waitall. As with
 * MPI_Sendrecv, the ring cannot deadlock even when no send is buffered. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, right, left, out, in[2], i;
	MPI_Request req[2];
	MPI_Status st[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (rank + 1) % size;
	left = (rank + size - 1) % size;
	out = rank;
	for (i = 0; i < 2; i++) {
		MPI_Isendrecv(&out, 1, MPI_INT, right, i, &in[0], 1, MPI_INT, left, i,
			      MPI_COMM_WORLD, &req[0]);
		MPI_Wait(&req[0], MPI_STATUS_IGNORE);
		out = in[0];
	}
	/* both directions at once, one request each */
	in[1] = out;
	MPI_Isendrecv(&out, 1, MPI_INT, right, 7, &in[0], 1, MPI_INT, left, 7, MPI_COMM_WORLD,
		      &req[0]);
	MPI_Isendrecv_replace(&in[1], 1, MPI_INT, left, 8, right, 8, MPI_COMM_WORLD, &req[1]);
	MPI_Waitall(2, req, st);
	if (rank == 0)
		printf("ring shifted: rank 0 holds %d and %d\n", in[0], in[1]);
	MPI_Finalize();
	return 0;
}
