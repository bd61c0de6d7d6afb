/* mpiverify-test: np=4 record=ok verify=ok verify-runs=48
 * Sorting, master/worker (the MPI-SV benchmarks' shape): the master cuts an array into
 * CHUNKS pieces of different lengths and deals them out, one at a time, to whichever worker
 * is free; a worker sorts its piece and sends it back. The master learns who answered, and
 * how much, with MPI_Probe(MPI_ANY_SOURCE) and MPI_Get_count, then receives from the source
 * the probe found, merges, and deals the next piece, or an empty one (the stop) once none is
 * left. Correct on every path, in every buffering mode: no deadlock, every decision explored. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef CHUNKS
#define CHUNKS 6
#endif
#define MAXLEN 16

static int cmp(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* Merge the sorted b[0..nb) into the sorted a[0..*na). */
static void merge(int *a, int *na, const int *b, int nb)
{
	int out[CHUNKS * MAXLEN], i = 0, j = 0, k = 0;

	while (i < *na || j < nb)
		out[k++] = j >= nb || (i < *na && a[i] <= b[j]) ? a[i++] : b[j++];
	for (i = 0; i < k; i++)
		a[i] = out[i];
	*na = k;
}

int main(int argc, char **argv)
{
	static int all[CHUNKS * MAXLEN], done[CHUNKS * MAXLEN];
	int rank, size, next = 0, busy = 0, ndone = 0, n, w, i, piece[MAXLEN], off[CHUNKS + 1];
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		srand(7);
		for (i = 0, off[0] = 0; i < CHUNKS; i++)
			off[i + 1] = off[i] + 4 + i % (MAXLEN - 4);
		for (i = 0; i < off[CHUNKS]; i++)
			all[i] = rand() % 1000;
		for (w = 1; w<size; w++, busy += n> 0) {
			n = next < CHUNKS ? off[next + 1] - off[next] : 0;
			MPI_Send(n ? &all[off[next]] : all, n, MPI_INT, w, 0, MPI_COMM_WORLD);
			next += n > 0;
		}
		while (busy > 0) {
			MPI_Probe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_INT, &n);
			MPI_Recv(piece, n, MPI_INT, st.MPI_SOURCE, 0, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			merge(done, &ndone, piece, n);
			n = next < CHUNKS ? off[next + 1] - off[next] : 0;
			MPI_Send(n ? &all[off[next]] : all, n, MPI_INT, st.MPI_SOURCE, 0,
				 MPI_COMM_WORLD);
			next += n > 0;
			busy += (n > 0) - 1;
		}
		for (i = 1; i < ndone && done[i - 1] <= done[i]; i++)
			;
		printf("%d numbers, %s\n", ndone, i >= ndone ? "sorted" : "NOT sorted");
	} else {
		for (;;) {
			MPI_Recv(piece, MAXLEN, MPI_INT, 0, 0, MPI_COMM_WORLD, &st);
			MPI_Get_count(&st, MPI_INT, &n);
			if (n == 0)
				break;
			qsort(piece, (size_t)n, sizeof(*piece), cmp);
			MPI_Send(piece, n, MPI_INT, 0, 0, MPI_COMM_WORLD);
		}
	}
	MPI_Finalize();
	return 0;
}
