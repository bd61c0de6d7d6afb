/* mpiverify-test: np=3 record=ok verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * mpiverify-test: matches=other
 * Two groups, world rank {0} and world ranks {1,2}, joined by MPI_Intercomm_create. Rank 0
 * receives with MPI_ANY_SOURCE on the intercommunicator, which means any rank of the remote
 * group, then from remote rank 0 (world rank 1): if the wildcard takes world rank 1's
 * message, the second receive waits forever (world rank 2's message is never received),
 * whatever the buffering. verify steers the wildcard to the other sender of the remote group
 * and confirms it in its second run. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, val;
	MPI_Status st;
	MPI_Comm half, inter;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_split(MPI_COMM_WORLD, rank == 0, rank, &half);
	/* leaders: world ranks 0 and 1 */
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank == 0 ? 1 : 0, 4, &inter);
	if (rank == 0) {
		MPI_Recv(&val, 1, MPI_INT, MPI_ANY_SOURCE, 0, inter, &st);
		printf("rank 0: the wildcard receive matched remote rank %d\n", st.MPI_SOURCE);
		fflush(stdout);
		MPI_Recv(&val, 1, MPI_INT, 0, 0, inter, MPI_STATUS_IGNORE);
		printf("rank 0: received from remote rank 0, done\n");
	} else {
		/* world rank 1 arrives late, so the run we watch matches rank 2 first */
		if (rank == 1)
			usleep(300000);
		val = rank;
		MPI_Send(&val, 1, MPI_INT, 0, 0, inter);
	}
	MPI_Comm_free(&inter);
	MPI_Comm_free(&half);
	MPI_Finalize();
	return 0;
}
