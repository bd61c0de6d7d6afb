/* The eager threshold's probe (bench/eager-threshold.sh): ranks 0 and 1 each MPI_Send N bytes
 * (argv[1]) to the other before either receives. The run completes only when the library
 * completes a standard send of N bytes before its receive is posted. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	int rank, n = argc > 1 ? atoi(argv[1]) : 1;
	char *out = calloc((size_t)n + 1, 1), *in = calloc((size_t)n + 1, 1);

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank < 2) {
		MPI_Send(out, n, MPI_CHAR, 1 - rank, 0, MPI_COMM_WORLD);
		MPI_Recv(in, n, MPI_CHAR, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	free(out);
	free(in);
	return 0;
}
