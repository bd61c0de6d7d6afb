/* A job that starts two more processes, for tests/e2e/recorder.sh: MPI_Comm_spawn runs this
 * program again as a world of its own, whose ranks number from 0 as their parents' do. Rank 0
 * sends the children's rank 0 a value over the intercommunicator, every child says what it
 * got, and both sides disconnect. The children inherit the recorder with the job's
 * environment: they must run unrecorded and leave their parents' traces whole. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	MPI_Comm parent, inter;
	int rank, x = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_get_parent(&parent);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (parent == MPI_COMM_NULL) {
		MPI_Comm_spawn(argv[0], MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter,
			       MPI_ERRCODES_IGNORE);
		if (rank == 0) {
			x = 42;
			MPI_Send(&x, 1, MPI_INT, 0, 0, inter);
		}
		MPI_Comm_disconnect(&inter);
	} else {
		if (rank == 0)
			MPI_Recv(&x, 1, MPI_INT, 0, 0, parent, MPI_STATUS_IGNORE);
		printf("child %d got %d\n", rank, x);
		MPI_Comm_disconnect(&parent);
	}
	MPI_Finalize();
	return 0;
}
