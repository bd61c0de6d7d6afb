/* mpiverify-test: np=2 record=ok verify=ok
 * mpiverify-test: lib=openmpi verify=inconclusive verify-runs=20
 * Every send mode and every way to complete requests, round after round, in the shape of the
 * MPI Bugs Initiative's point-to-point codes: rank 0 attaches a buffer and makes persistent
 * standard, buffered, ready and synchronous sends once; each round it posts a nonblocking
 * send of each mode (the ready ones after a barrier that follows rank 1's receives), starts
 * the persistent ones, and completes all of them with the round's mechanism (MPI_Wait,
 * MPI_Waitall, MPI_Waitany, MPI_Waitsome, and the MPI_Test* loops); rank 1 posts a receive
 * for each, by tag, with MPI_Irecv or persistent receives, and completes them with its own
 * mechanism. Correct on every path, in every buffering mode: no deadlock, in 5 runs or so
 * (each round's requests complete in any order; verify's model follows them). Its search
 * grows with the rounds: built with -DROUNDS=256 it holds hundreds of megabytes, and verify
 * bounds what it holds: under --memory-limit 16 it answers inconclusive, naming the limit
 * and the search, and a signal ends it within a second, leaving nothing running
 * (tests/e2e/verify-limits.sh). On Open MPI, whose receives have all arrived by the time
 * rank 1 polls, each MPI_Testany of a round can return any of its k live requests, and verify
 * runs each of them: k + (k - 1) + ... runs a round (125 runs for 4 rounds), past its 200 at
 * 8: inconclusive, a cost the model does not cut yet (doc/verify.md, "Cost"). */
#include <mpi.h>
#include <string.h>

#ifndef ROUNDS
#define ROUNDS 8
#endif
#define N 16 /* ints a message */
#define MODES 4
#define REQS (2 * MODES * 2) /* a nonblocking and a persistent send of each mode, twice */

/* Complete reqs[0..n) with mechanism m (0 to 7). */
static void complete(int m, MPI_Request *reqs, int n)
{
	MPI_Status st[REQS];
	int done = 0, idx[REQS], got, flag, j;

	switch (m) {
	case 0:
		for (j = 0; j < n; j++)
			MPI_Wait(&reqs[j], &st[j]);
		break;
	case 1:
		MPI_Waitall(n, reqs, st);
		break;
	case 2:
		for (j = 0; j < n; j++)
			MPI_Waitany(n, reqs, &got, st);
		break;
	case 3:
		while (done < n) {
			MPI_Waitsome(n, reqs, &got, idx, st);
			done += got;
		}
		break;
	case 4:
		for (j = 0; j < n; j++)
			for (flag = 0; !flag;)
				MPI_Test(&reqs[j], &flag, &st[j]);
		break;
	case 5:
		for (flag = 0; !flag;)
			MPI_Testall(n, reqs, &flag, st);
		break;
	case 6:
		for (j = 0; j < n; j++)
			for (flag = 0; !flag;)
				MPI_Testany(n, reqs, &got, &flag, st);
		break;
	default:
		while (done < n) {
			MPI_Testsome(n, reqs, &got, idx, st);
			done += got;
		}
		break;
	}
}

int main(int argc, char **argv)
{
	static int buf[REQS][N], bbuf[(N * (int)sizeof(int) + MPI_BSEND_OVERHEAD) * 4];
	MPI_Request req[REQS], pers[REQS];
	int rank, round, j;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Buffer_attach(bbuf, sizeof(bbuf));
	if (rank == 0) {
		MPI_Send_init(buf[8], N, MPI_INT, 1, 8, MPI_COMM_WORLD, &pers[8]);
		MPI_Send_init(buf[9], N, MPI_INT, 1, 9, MPI_COMM_WORLD, &pers[9]);
		MPI_Bsend_init(buf[10], N, MPI_INT, 1, 10, MPI_COMM_WORLD, &pers[10]);
		MPI_Bsend_init(buf[11], N, MPI_INT, 1, 11, MPI_COMM_WORLD, &pers[11]);
		MPI_Rsend_init(buf[12], N, MPI_INT, 1, 12, MPI_COMM_WORLD, &pers[12]);
		MPI_Rsend_init(buf[13], N, MPI_INT, 1, 13, MPI_COMM_WORLD, &pers[13]);
		MPI_Ssend_init(buf[14], N, MPI_INT, 1, 14, MPI_COMM_WORLD, &pers[14]);
		MPI_Ssend_init(buf[15], N, MPI_INT, 1, 15, MPI_COMM_WORLD, &pers[15]);
	}
	for (round = 0; round < ROUNDS; round++) {
		int persistent = round / 8 % 2; /* rank 1: persistent receives every other 8 */

		for (j = 0; j < REQS; j++)
			buf[j][0] = round * REQS + j;
		MPI_Barrier(MPI_COMM_WORLD);
		if (rank == 0) {
			MPI_Isend(buf[0], N, MPI_INT, 1, 0, MPI_COMM_WORLD, &req[0]);
			MPI_Isend(buf[1], N, MPI_INT, 1, 1, MPI_COMM_WORLD, &req[1]);
			MPI_Ibsend(buf[2], N, MPI_INT, 1, 2, MPI_COMM_WORLD, &req[2]);
			MPI_Ibsend(buf[3], N, MPI_INT, 1, 3, MPI_COMM_WORLD, &req[3]);
			MPI_Barrier(MPI_COMM_WORLD); /* rank 1's receives are posted */
			MPI_Irsend(buf[4], N, MPI_INT, 1, 4, MPI_COMM_WORLD, &req[4]);
			MPI_Irsend(buf[5], N, MPI_INT, 1, 5, MPI_COMM_WORLD, &req[5]);
			MPI_Issend(buf[6], N, MPI_INT, 1, 6, MPI_COMM_WORLD, &req[6]);
			MPI_Issend(buf[7], N, MPI_INT, 1, 7, MPI_COMM_WORLD, &req[7]);
			if (round % 2)
				MPI_Startall(8, &pers[8]);
			else
				for (j = 8; j < REQS; j++)
					MPI_Start(&pers[j]);
			memcpy(&req[8], &pers[8], 8 * sizeof(*req));
			complete(round % 8, req, REQS);
		} else {
			if (!persistent) {
				for (j = 0; j < REQS; j++)
					MPI_Irecv(buf[j], N, MPI_INT, 0, j, MPI_COMM_WORLD,
						  &req[j]);
			} else {
				if (round % 8 == 0)
					for (j = 0; j < REQS; j++)
						MPI_Recv_init(buf[j], N, MPI_INT, 0, j,
							      MPI_COMM_WORLD, &pers[j]);
				MPI_Startall(REQS, pers);
				memcpy(req, pers, sizeof(req));
			}
			MPI_Barrier(MPI_COMM_WORLD); /* the ready sends may go */
			complete((round + 3) % 8, req, REQS);
			if (persistent && round % 8 == 7)
				for (j = 0; j < REQS; j++)
					MPI_Request_free(&pers[j]);
		}
	}
	if (rank == 0)
		for (j = 8; j < REQS; j++)
			MPI_Request_free(&pers[j]);
	MPI_Finalize();
	return 0;
}
