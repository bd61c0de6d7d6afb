/* mpiverify-test: np=4 record=ok verify=ok verify-runs=48
 * The Mandelbrot set, row by row, master/worker (the MPI-SV benchmarks' shape): the master
 * hands a row to each worker, then takes finished rows with MPI_ANY_SOURCE and MPI_ANY_TAG
 * (the tag is the row's number), files each under status.MPI_TAG and gives the worker that
 * sent it the next row, or a message of tag DONE once every row is out. Correct on every
 * path, in every buffering mode: no deadlock, every decision explored. */
#include <mpi.h>
#include <stdio.h>

#ifndef ROWS
#define ROWS 8
#endif
#define COLS 24
#define DONE ROWS
#define ITER 64

static void row(int y, int *out)
{
	int x, k;

	for (x = 0; x < COLS; x++) {
		double cr = -2.0 + 3.0 * x / COLS, ci = -1.2 + 2.4 * y / ROWS, zr = 0, zi = 0, t;

		for (k = 0; k < ITER && zr * zr + zi * zi < 4; k++) {
			t = zr * zr - zi * zi + cr;
			zi = 2 * zr * zi + ci;
			zr = t;
		}
		out[x] = k;
	}
}

int main(int argc, char **argv)
{
	static int image[ROWS][COLS];
	int rank, size, next = 0, busy = 0, y, w, line[COLS];
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		for (w = 1; w < size; w++) {
			y = next < ROWS ? next++ : DONE;
			MPI_Send(&y, 1, MPI_INT, w, y, MPI_COMM_WORLD);
			busy += y != DONE;
		}
		while (busy > 0) {
			MPI_Recv(line, COLS, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
				 &st);
			busy--;
			for (w = 0; w < COLS; w++)
				image[st.MPI_TAG][w] = line[w];
			y = next < ROWS ? next++ : DONE;
			MPI_Send(&y, 1, MPI_INT, st.MPI_SOURCE, y, MPI_COMM_WORLD);
			busy += y != DONE;
		}
		for (y = 0; y < ROWS; y++, putchar('\n'))
			for (w = 0; w < COLS; w++)
				putchar(image[y][w] == ITER ? '#' : '.');
	} else {
		for (;;) {
			MPI_Recv(&y, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
			if (st.MPI_TAG == DONE)
				break;
			row(y, line);
			MPI_Send(line, COLS, MPI_INT, 0, y, MPI_COMM_WORLD);
		}
	}
	MPI_Finalize();
	return 0;
}
