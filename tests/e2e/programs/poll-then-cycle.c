/* For tests/e2e/replay.sh (np=2): rank 0 polls, MPI_Iprobe until rank 1's late message is
 * there, then MPI_Test on a receive until it completes; then both ranks MPI_Ssend to each other,
 * which deadlocks in every run. The number of polls differs from run to run: replay must line
 * its polls up with the recorded ones and find each rank blocked at the recorded event. */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, flag = 0, a = 1, b = 2;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		while (!flag)
			MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
		MPI_Recv(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Irecv(&b, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &req);
		for (flag = 0; !flag;)
			MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
	} else {
		usleep(50000);
		MPI_Send(&a, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		usleep(50000);
		MPI_Send(&b, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
	}
	MPI_Ssend(&a, 1, MPI_INT, 1 - rank, 2, MPI_COMM_WORLD);
	MPI_Recv(&b, 1, MPI_INT, 1 - rank, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Finalize();
	return 0;
}
