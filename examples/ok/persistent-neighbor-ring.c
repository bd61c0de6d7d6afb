/* mpiverify-test: np=3 record=ok mpi=4
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * A persistent neighbourhood collective (MPI_Neighbor_allgather_init) on a periodic ring
 * (MPI_Cart_create), started three times, each start completed by MPI_Wait before the next;
 * between the rounds every rank sends its right neighbour a message and receives its left
 * one's (MPI_Sendrecv). Each start is the nonblocking neighbourhood collective (MPI-4.1
 * 7.8, 7.13): with buffering a rank waits for its in-neighbours alone. Correct. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, dims[1], periods[1] = {1}, out, in[2], x, round;
	MPI_Request req;
	MPI_Comm ring;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	dims[0] = size;
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
	MPI_Neighbor_allgather_init(&out, 1, MPI_INT, in, 1, MPI_INT, ring, MPI_INFO_NULL, &req);
	for (round = 0; round < 3; round++) {
		out = rank + round;
		MPI_Start(&req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		MPI_Sendrecv(&out, 1, MPI_INT, (rank + 1) % size, 0, &x, 1, MPI_INT,
			     (rank + size - 1) % size, 0, ring, MPI_STATUS_IGNORE);
	}
	MPI_Request_free(&req);
	MPI_Comm_free(&ring);
	MPI_Finalize();
	return 0;
}
