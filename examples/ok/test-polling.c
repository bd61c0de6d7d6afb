/* mpiverify-test: np=2 record=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Rank 0 polls: MPI_Iprobe until a message is there, then MPI_Test on a receive until it
 * completes. The failed polls are timing; each loop is one blocking completion. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, flag = 0, a = 1, b = 2, polls = 0;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		while (!flag) {
			MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
			polls++;
		}
		MPI_Recv(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Irecv(&b, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &req);
		for (flag = 0; !flag; polls++)
			MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
		printf("rank 0: got %d and %d after %s polls\n", a, b,
		       polls > 2 ? "several" : "few");
	} else {
		usleep(100000);
		MPI_Send(&a, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
		usleep(100000);
		MPI_Send(&b, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
