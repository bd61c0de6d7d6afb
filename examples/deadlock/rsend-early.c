/* mpiverify-test: np=2 record=ok
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * mpiverify-test: replay=not-reproduced
 * Rank 0 sends with MPI_Rsend while nothing makes sure that rank 1 has posted its receive: a
 * ready send started before its matching receive is erroneous (MPI 3.4), whatever the
 * buffering, and check reports it as "ready send without a posted receive". MPICH does not
 * check the ready mode (its MPI_Rsend is a standard send), so the run completes and replay
 * cannot make it hang: it says "not reproduced". */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, val = 42;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Rsend(&val, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
	} else {
		usleep(200000); /* the receive is posted late, as it may be anywhere */
		MPI_Recv(&val, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
