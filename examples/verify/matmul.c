/* mpiverify-test: np=4 record=ok verify=ok verify-runs=48
 * Matrix multiplication, master/worker (the MPI-SV benchmarks' shape): the master broadcasts
 * B, then deals out the rows of A one at a time (the tag is the row's number plus one); a
 * worker multiplies the row by B and sends the result back with the same tag. The master
 * takes results with MPI_ANY_SOURCE and MPI_ANY_TAG, stores each under its tag, and deals the
 * next row to the worker that sent it, or a message of tag 0 (the stop). Correct on every
 * path, in every buffering mode: no deadlock, every decision explored. */
#include <mpi.h>
#include <stdio.h>

#ifndef N
#define N 8
#endif

int main(int argc, char **argv)
{
	static double a[N][N], b[N][N], c[N][N];
	double row[N], out[N];
	int rank, size, next = 0, busy = 0, i, j, k, w;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0)
		for (i = 0; i < N; i++)
			for (j = 0; j < N; j++) {
				a[i][j] = i + j;
				b[i][j] = i == j ? 2 : 0;
			}
	MPI_Bcast(b, N * N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	if (rank == 0) {
		for (w = 1; w < size; w++, next += next < N) {
			MPI_Send(a[next < N ? next : 0], N, MPI_DOUBLE, w, next < N ? next + 1 : 0,
				 MPI_COMM_WORLD);
			busy += next < N;
		}
		while (busy > 0) {
			MPI_Recv(out, N, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
				 &st);
			busy--;
			for (j = 0; j < N; j++)
				c[st.MPI_TAG - 1][j] = out[j];
			MPI_Send(a[next < N ? next : 0], N, MPI_DOUBLE, st.MPI_SOURCE,
				 next < N ? next + 1 : 0, MPI_COMM_WORLD);
			busy += next < N;
			next += next < N;
		}
		printf("c[%d][%d] = %g\n", N - 1, N - 1, c[N - 1][N - 1]);
	} else {
		for (;;) {
			MPI_Recv(row, N, MPI_DOUBLE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			if (st.MPI_TAG == 0)
				break;
			for (j = 0; j < N; j++)
				for (out[j] = 0, k = 0; k < N; k++)
					out[j] += row[k] * b[k][j];
			MPI_Send(out, N, MPI_DOUBLE, 0, st.MPI_TAG, MPI_COMM_WORLD);
		}
	}
	MPI_Finalize();
	return 0;
}
