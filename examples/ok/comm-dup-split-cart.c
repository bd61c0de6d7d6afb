/* mpiverify-test: np=4 record=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * A library-style program on derived communicators: a private duplicate of MPI_COMM_WORLD
 * for its own messages, rows of a 2x2 grid by MPI_Comm_split (ranked in reverse), and a
 * periodic 1-D ring by MPI_Cart_create. Each exchange posts its receive first, so no send
 * needs buffering; the same tag is used on every communicator, which is safe because
 * messages on different communicators never match. Everything is freed at the end. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, row_rank, sum, out, in, left, right;
	int dims[1] = {0}, periods[1] = {1};
	MPI_Comm lib, row, ring;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_dup(MPI_COMM_WORLD, &lib);
	MPI_Comm_split(MPI_COMM_WORLD, rank / 2, -rank, &row);
	MPI_Comm_rank(row, &row_rank);
	MPI_Dims_create(size, 1, dims);
	MPI_Cart_create(lib, 1, dims, periods, 0, &ring);
	MPI_Cart_shift(ring, 0, 1, &left, &right);

	/* around the ring, receive posted first */
	out = rank;
	MPI_Irecv(&in, 1, MPI_INT, left, 0, ring, &req);
	MPI_Send(&out, 1, MPI_INT, right, 0, ring);
	MPI_Wait(&req, MPI_STATUS_IGNORE);

	/* within a row: rank 0 of the row (the higher world rank) receives, then answers */
	if (row_rank == 0) {
		MPI_Recv(&in, 1, MPI_INT, 1, 0, row, MPI_STATUS_IGNORE);
		MPI_Send(&out, 1, MPI_INT, 1, 0, row);
	} else {
		MPI_Irecv(&in, 1, MPI_INT, 0, 0, row, &req);
		MPI_Send(&out, 1, MPI_INT, 0, 0, row);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
	}
	MPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM, row);
	MPI_Bcast(&sum, 1, MPI_INT, 0, lib);
	MPI_Barrier(ring);

	MPI_Comm_free(&ring);
	MPI_Comm_free(&row);
	MPI_Comm_free(&lib);
	MPI_Finalize();
	return 0;
}
