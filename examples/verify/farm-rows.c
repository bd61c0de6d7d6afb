/* mpiverify-test: np=4 record=ok verify=ok verify-runs=60
 * A matrix-vector product in master/worker style, as textbook codes write it: the master
 * sends each worker a row (the tag says which), receives results with MPI_ANY_SOURCE and
 * MPI_ANY_TAG (the tag tells which row the result is), stores it, and sends the worker that
 * answered (status.MPI_SOURCE) the next row, or a message of tag NROWS to stop it. Correct
 * on every path. */
#include <mpi.h>

#define NROWS 6
#define N 4

int main(int argc, char **argv)
{
	double a[NROWS][N], x[N], y[NROWS], row[N], dot;
	int rank, size, sent = 0, done = 0, w, i, j;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (j = 0; j < N; j++)
		x[j] = j + 1;
	if (rank == 0) {
		for (i = 0; i < NROWS; i++)
			for (j = 0; j < N; j++)
				a[i][j] = i + j;
		for (w = 1; w < size && sent < NROWS; w++, sent++)
			MPI_Send(a[sent], N, MPI_DOUBLE, w, sent, MPI_COMM_WORLD);
		while (done < NROWS) {
			MPI_Recv(&dot, 1, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
				 &st);
			y[st.MPI_TAG] = dot;
			done++;
			if (sent < NROWS) {
				MPI_Send(a[sent], N, MPI_DOUBLE, st.MPI_SOURCE, sent,
					 MPI_COMM_WORLD);
				sent++;
			} else {
				MPI_Send(x, 0, MPI_DOUBLE, st.MPI_SOURCE, NROWS, MPI_COMM_WORLD);
			}
		}
		for (dot = 0, i = 0; i < NROWS; i++)
			dot += y[i];
		if (dot != 270) /* the sum over i, j of (i + j) * (j + 1) */
			MPI_Abort(MPI_COMM_WORLD, 1);
	} else {
		for (;;) {
			MPI_Recv(row, N, MPI_DOUBLE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			if (st.MPI_TAG == NROWS)
				break;
			for (dot = 0, j = 0; j < N; j++)
				dot += row[j] * x[j];
			MPI_Send(&dot, 1, MPI_DOUBLE, 0, st.MPI_TAG, MPI_COMM_WORLD);
		}
	}
	MPI_Finalize();
	return 0;
}
