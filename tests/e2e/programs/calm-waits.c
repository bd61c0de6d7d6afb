/* Every blocking point-to-point call made to wait: rank 0 sleeps a quarter of a second, outside
 * MPI, before its side of each, while rank 1 is blocked in it. Rank 1 prints the CPU time each
 * call took, as "cpu CALL MS": a library that polls spends the whole wait on it, a calm call
 * (preload/calm.h, verify's and replay's runs) a few milliseconds. Then both ranks send to each
 * other synchronously: a deadlock in every buffering mode, for check to find and replay to
 * confirm. 2 ranks; ranks 2 and up, there to outnumber a node's CPUs, only begin and end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BIG (1 << 20) /* larger than any eager threshold: a send that waits for its receive */

static char big[BIG];

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void nap(void)
{
	struct timespec ts = {0, 250000000L};

	nanosleep(&ts, NULL);
}

/* Rank 1 makes call i (waiting for rank 0), rank 0 its side after the nap. */
static void step(int rank, int i)
{
	static const char *const name[] = {"Recv",    "Send",	  "Ssend", "Wait",   "Waitall",
					   "Waitany", "Waitsome", "Probe", "Mprobe", "Sendrecv"};
	MPI_Request req[2];
	MPI_Message msg;
	MPI_Status st[2];
	int x = i, y = 0, idx, out, idxs[2];
	double t0;

	if (rank == 0) {
		nap();
		if (i == 1)
			MPI_Recv(big, BIG, MPI_CHAR, 1, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		else if (i == 2)
			MPI_Recv(&y, 1, MPI_INT, 1, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		else if (i == 9)
			MPI_Sendrecv(&x, 1, MPI_INT, 1, i, &y, 1, MPI_INT, 1, i, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
		else
			MPI_Send(&x, 1, MPI_INT, 1, i, MPI_COMM_WORLD);
		return;
	}
	t0 = cpu_ms();
	switch (i) {
	case 0:
		MPI_Recv(&y, 1, MPI_INT, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		break;
	case 1:
		MPI_Send(big, BIG, MPI_CHAR, 0, i, MPI_COMM_WORLD);
		break;
	case 2:
		MPI_Ssend(&x, 1, MPI_INT, 0, i, MPI_COMM_WORLD);
		break;
	case 3:
		MPI_Irecv(&y, 1, MPI_INT, 0, i, MPI_COMM_WORLD, &req[0]);
		MPI_Wait(&req[0], MPI_STATUS_IGNORE);
		break;
	case 4:
		MPI_Irecv(&y, 1, MPI_INT, 0, i, MPI_COMM_WORLD, &req[0]);
		MPI_Waitall(1, req, st);
		break;
	case 5:
		MPI_Irecv(&y, 1, MPI_INT, 0, i, MPI_COMM_WORLD, &req[0]);
		MPI_Waitany(1, req, &idx, MPI_STATUS_IGNORE);
		break;
	case 6:
		MPI_Irecv(&y, 1, MPI_INT, 0, i, MPI_COMM_WORLD, &req[0]);
		MPI_Waitsome(1, req, &out, idxs, st);
		break;
	case 7:
		MPI_Probe(0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&y, 1, MPI_INT, 0, i, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		break;
	case 8:
		MPI_Mprobe(0, i, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
		MPI_Mrecv(&y, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
		break;
	case 9:
		MPI_Sendrecv(&x, 1, MPI_INT, 0, i, &y, 1, MPI_INT, 0, i, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
		break;
	}
	printf("cpu %s %.0f\n", name[i], cpu_ms() - t0);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	int rank, i, x = 1, y;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank < 2) {
		for (i = 0; i < 10; i++)
			step(rank, i);
		MPI_Ssend(&x, 1, MPI_INT, 1 - rank, 99, MPI_COMM_WORLD);
		MPI_Recv(&y, 1, MPI_INT, 1 - rank, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
