/* Two ranks each send themselves ROUNDS messages (argv[1]; MPI_Isend, MPI_Recv, MPI_Wait),
 * then send each other one with MPI_Ssend before receiving: a hang after a trace of three
 * events a round. record judges a standstill on the traces only while they are short. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, x = 0, y, i, rounds = argc > 1 ? atoi(argv[1]) : 1000;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (i = 0; i < rounds; i++) {
		MPI_Isend(&x, 1, MPI_INT, rank, i & 7, MPI_COMM_WORLD, &req);
		MPI_Recv(&y, 1, MPI_INT, rank, i & 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
	}
	MPI_Ssend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
	MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
