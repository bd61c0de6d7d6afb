/* mpiverify-test: np=4 record=ok verify=ok verify-runs=60
 * A master/worker code that probes for the next result with MPI_ANY_SOURCE, receives it from
 * the source the probe found, and sends the worker its next row, as Mandelbrot codes often
 * do; a row number of -1 (sent from a call of its own) stops a worker. Correct on every
 * path: no deadlock, every decision explored. */
#include <mpi.h>

#define NROWS 8

int main(int argc, char **argv)
{
	int rank, size, row = 0, done = 0, w, result, stop = -1;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		for (w = 1; w < size; w++, row++)
			MPI_Send(&row, 1, MPI_INT, w, 0, MPI_COMM_WORLD);
		while (done < NROWS) {
			MPI_Probe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
			MPI_Recv(&result, 1, MPI_INT, st.MPI_SOURCE, 0, MPI_COMM_WORLD, &st);
			done++;
			if (row < NROWS) {
				MPI_Send(&row, 1, MPI_INT, st.MPI_SOURCE, 0, MPI_COMM_WORLD);
				row++;
			} else {
				MPI_Send(&stop, 1, MPI_INT, st.MPI_SOURCE, 0, MPI_COMM_WORLD);
			}
		}
	} else {
		for (;;) {
			MPI_Recv(&row, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			if (row < 0)
				break;
			result = row * row;
			MPI_Send(&result, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		}
	}
	MPI_Finalize();
	return 0;
}
