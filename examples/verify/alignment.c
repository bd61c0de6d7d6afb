/* mpiverify-test: np=4 record=ok verify=ok verify-runs=48
 * Sequence alignment, master/worker (the MPI-SV benchmarks' shape): the master scores a
 * query against NSEQ sequences of a small database, by edit distance. It keeps one receive
 * posted per worker and serves every worker that MPI_Waitsome returns: files its score (the
 * sequence's number comes back with it), and hands it the next sequence, or -1 (the stop),
 * posting its receive again while it has work. Correct on every path, in every buffering
 * mode: no deadlock, every decision explored. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#ifndef NSEQ
#define NSEQ 8
#endif
#define MAXW 8
#define LEN 12

static const char *query = "GATTACAGATTA";

static void sequence(int i, char *s)
{
	static const char base[] = "ACGT";
	int k;

	for (k = 0; k < LEN; k++)
		s[k] = base[(i * 7 + k * (i + 3)) % 4];
	s[LEN] = '\0';
}

/* The edit distance between a and b (LEN letters each). */
static int distance(const char *a, const char *b)
{
	int d[LEN + 1][LEN + 1], i, j;

	for (i = 0; i <= LEN; i++)
		d[i][0] = d[0][i] = i;
	for (i = 1; i <= LEN; i++)
		for (j = 1; j <= LEN; j++) {
			int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;

			d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
	return d[LEN][LEN];
}

int main(int argc, char **argv)
{
	int rank, size, next = 0, active, w, n, k, task, best = -1, score[NSEQ];
	int in[MAXW][2], out[2], idx[MAXW];
	MPI_Request req[MAXW];
	MPI_Status sts[MAXW];
	char s[LEN + 1];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (rank == 0) {
		active = size - 1;
		for (w = 1; w < size; w++) {
			task = next < NSEQ ? next++ : -1;
			MPI_Send(&task, 1, MPI_INT, w, 0, MPI_COMM_WORLD);
			if (task < 0) {
				req[w - 1] = MPI_REQUEST_NULL;
				active--;
			} else {
				MPI_Irecv(in[w - 1], 2, MPI_INT, w, 1, MPI_COMM_WORLD, &req[w - 1]);
			}
		}
		while (active > 0) {
			MPI_Waitsome(size - 1, req, &n, idx, sts);
			for (k = 0; k < n; k++) {
				w = idx[k];
				score[in[w][0]] = in[w][1];
				if (best < 0 || in[w][1] < score[best])
					best = in[w][0];
				task = next < NSEQ ? next++ : -1;
				MPI_Send(&task, 1, MPI_INT, w + 1, 0, MPI_COMM_WORLD);
				if (task < 0)
					active--;
				else
					MPI_Irecv(in[w], 2, MPI_INT, w + 1, 1, MPI_COMM_WORLD,
						  &req[w]);
			}
		}
		printf("best: sequence %d, distance %d\n", best, score[best]);
	} else {
		for (;;) {
			MPI_Recv(&task, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			if (task < 0)
				break;
			sequence(task, s);
			out[0] = task;
			out[1] = distance(query, s);
			MPI_Send(out, 2, MPI_INT, 0, 1, MPI_COMM_WORLD);
		}
	}
	MPI_Finalize();
	return 0;
}
