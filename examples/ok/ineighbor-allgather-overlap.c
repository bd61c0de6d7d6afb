/* mpiverify-test: np=3 record=ok verify=ok verify-runs=1
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * MPI_Ineighbor_allgather on a periodic Cartesian ring of three, overlapped with a
 * point-to-point exchange: each rank starts the collective, then MPI_Sendrecv's its rank to
 * the next rank and from the one before, then waits for the collective. Starting a
 * nonblocking collective never blocks; it completes at its wait, where every member (without
 * buffering) or the rank's two in-neighbours (with) have started it. Every rank starts it
 * before anything that can block, so every wait completes in every mode. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int dims[1] = {3}, periods[1] = {1}, rank, size, src, dst, mine, got[2], token;
	MPI_Comm ring;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 3)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
	MPI_Comm_rank(ring, &rank);
	MPI_Cart_shift(ring, 0, 1, &src, &dst);
	mine = rank;
	MPI_Ineighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, ring, &req);
	MPI_Sendrecv(&mine, 1, MPI_INT, dst, 0, &token, 1, MPI_INT, src, 0, ring,
		     MPI_STATUS_IGNORE);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	if (got[0] != src || got[1] != dst || token != src)
		MPI_Abort(MPI_COMM_WORLD, 2);
	MPI_Comm_free(&ring);
	MPI_Finalize();
	return 0;
}
