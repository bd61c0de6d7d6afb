/* For tests/e2e/recorder.sh (np=2): both ranks poll forever for a message nobody sends, rank 0
 * with MPI_Test on an MPI_Irecv, rank 1 with MPI_Iprobe. Each makes millions of MPI calls and
 * none of them changes anything: record must take the job for hung (no progress), name each
 * rank's polling call and site, end the job and keep each run of failed polls as one event. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, flag = 0, buf;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Irecv(&buf, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &req);
		while (!flag)
			MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
	} else {
		while (!flag)
			MPI_Iprobe(0, 9, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
