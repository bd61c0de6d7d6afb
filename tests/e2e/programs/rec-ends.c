/* How a recorded rank can end, for tests/e2e/recorder.sh: two ranks play N round trips of
 * ping-pong, then rank 1 ends as MODE says while rank 0 waits in MPI_Recv for a message that
 * never comes. Rank 1 first sleeps half a second, past a flush of its status thread, then
 * sends itself SELF messages (Isend, Recv, Wait on MPI_COMM_SELF) and ends at once: those
 * calls are still in its recorder's buffer, which only the way it ends can write. The
 * launcher then SIGKILLs rank 0, which keeps what its status thread flushed.
 *   segv     raise(SIGSEGV)
 *   kill     SIGKILL itself: the SELF calls are lost (a SIGKILL loses one status period)
 *   handler  raise(SIGSEGV) with a handler of its own, installed before MPI_Init, that says
 *            so and _exit(42)s: the recorder must chain to it
 *   abort    MPI_Abort(MPI_COMM_WORLD, 5)
 *   exit     one rank alone (mpirun -np 1: the launcher kills the others of a job as soon as
 *            one exits without MPI_Finalize) sends itself N messages, then exit(0)s
 *   hang     both ranks wait for each other in MPI_Recv: a real deadlock
 *   bigwait  no crash: each rank also completes 6000 requests to itself in one MPI_Waitall,
 *            a record longer than the recorder's buffer takes, then finalizes
 *   unreaped after the round trips rank 0 stops its parent (Hydra's proxy, or Open MPI's
 *            mpirun) with SIGSTOP, sends rank 1 a last message, and both exit(0) without
 *            MPI_Finalize: nobody collects them, and the launcher waits for good, as Open
 *            MPI 4.1's mpirun at times does after its ranks are gone
 * Usage: rec-ends MODE N */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BIG 3000 /* bigwait: receives and as many sends */
#define SELF 20	 /* messages rank 1 sends itself just before it ends */

static void on_segv(int sig)
{
	static const char msg[] = "rank 1: the program's own SIGSEGV handler ran\n";
	ssize_t w = write(STDOUT_FILENO, msg, sizeof(msg) - 1);

	(void)sig;
	(void)w;
	_exit(42);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "segv";
	int n = argc > 2 ? atoi(argv[2]) : 50;
	int rank, i, buf = 0;

	if (!strcmp(mode, "handler"))
		signal(SIGSEGV, on_segv);
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (!strcmp(mode, "exit")) {
		MPI_Request req;

		for (i = 0; i < n; i++) {
			MPI_Isend(&i, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &req);
			MPI_Recv(&buf, 1, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
		}
		exit(0);
	}
	for (i = 0; i < n; i++) {
		if (rank == 0) {
			MPI_Send(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
			MPI_Recv(&buf, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			MPI_Recv(&buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(&buf, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		}
	}
	if (!strcmp(mode, "unreaped")) {
		if (rank == 0) {
			kill(getppid(), SIGSTOP);
			MPI_Send(&n, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
		} else if (rank == 1) {
			MPI_Recv(&buf, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		}
		exit(0);
	}
	if (!strcmp(mode, "bigwait")) {
		static MPI_Request reqs[2 * BIG];
		static MPI_Status st[2 * BIG];
		static int in[BIG];

		for (i = 0; i < BIG; i++)
			MPI_Irecv(&in[i], 1, MPI_INT, 0, i, MPI_COMM_SELF, &reqs[i]);
		for (i = 0; i < BIG; i++)
			MPI_Isend(&i, 1, MPI_INT, 0, i, MPI_COMM_SELF, &reqs[BIG + i]);
		MPI_Waitall(2 * BIG, reqs, st);
		MPI_Finalize();
		return 0;
	}
	if (rank == 1 && strcmp(mode, "hang")) {
		MPI_Request req;

		usleep(500000);
		for (i = 0; i < SELF; i++) {
			MPI_Isend(&i, 1, MPI_INT, 0, 0, MPI_COMM_SELF, &req);
			MPI_Recv(&buf, 1, MPI_INT, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
		}
		if (!strcmp(mode, "segv") || !strcmp(mode, "handler"))
			raise(SIGSEGV);
		if (!strcmp(mode, "kill"))
			raise(SIGKILL);
		if (!strcmp(mode, "abort"))
			MPI_Abort(MPI_COMM_WORLD, 5);
		return 3; /* not reached */
	}
	MPI_Recv(&buf, 1, MPI_INT, 1 - rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
