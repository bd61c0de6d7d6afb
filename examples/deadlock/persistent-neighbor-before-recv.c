/* mpiverify-test: np=3 record=hang mpi=4 verify=deadlock
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * A persistent neighbourhood collective (MPI_Neighbor_allgather_init) on a periodic ring of
 * three ranks: every rank starts it and waits for it, then sends rank 0 a message, but rank 0
 * first receives rank 1's message and only then starts the collective. Rank 1's wait needs
 * rank 0's data (rank 0 is its in-neighbour), whatever the buffering: rank 0 is in its
 * receive, ranks 1 and 2 in their waits, a deadlock. Started, the persistent collective is
 * its nonblocking one (MPI_Ineighbor_allgather): the in-neighbours are whom it waits for. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, dims[1], periods[1] = {1}, out, in[2], x = 0;
	MPI_Request req;
	MPI_Comm ring;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	dims[0] = size;
	out = rank;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
	MPI_Neighbor_allgather_init(&out, 1, MPI_INT, in, 1, MPI_INT, ring, MPI_INFO_NULL, &req);
	if (rank == 0)
		MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Start(&req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	if (rank == 1)
		MPI_Send(&out, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	MPI_Request_free(&req);
	MPI_Comm_free(&ring);
	MPI_Finalize();
	return 0;
}
