/* mpiverify-test: np=3 record=ok
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * A non-periodic Cartesian line 0 - 1 - 2: ranks 0 and 2 are not neighbours. Rank 2 receives
 * from rank 0 on MPI_COMM_WORLD before MPI_Neighbor_alltoall on the line; rank 0 sends to it
 * only after that collective. A neighbourhood collective needs data from the in-neighbours
 * alone: rank 0 needs only rank 1's (its other side is MPI_PROC_NULL), so where the library
 * does not synchronise it, rank 0 goes on, sends, and rank 2 joins the collective later, as
 * MPICH and Open MPI do. But a collective may synchronise every member (MPI-4.1 chapter 6,
 * "Correctness"), whatever the library buffers: then rank 0 waits in it for rank 2, which
 * waits for rank 0's send (with buffering, check finds it where collectives synchronise). */
#include <mpi.h>

int main(int argc, char **argv)
{
	int dims[1] = {3}, periods[1] = {0}, rank, size, out[2], in[2], msg = 7;
	MPI_Comm line;

	MPI_Init(&argc, &argv);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 3)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
	MPI_Comm_rank(line, &rank);
	out[0] = out[1] = rank;
	if (rank == 2)
		MPI_Recv(&msg, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, line);
	if (rank == 0)
		MPI_Send(&msg, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
	MPI_Comm_free(&line);
	MPI_Finalize();
	return 0;
}
