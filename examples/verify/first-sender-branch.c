/* mpiverify-test: np=3 record=ok verify=deadlock verify-runs=3
 * mpiverify-test: buffering=zero expect=deadlock matches=other replay=diverged
 * mpiverify-test: buffering=infinite expect=deadlock
 * Rank 0 acts on which of ranks 1 and 2 answered first. Rank 2 answers late, so the first
 * run takes the branch for rank 1, which is correct. On the other branch rank 0 waits for a
 * second message from rank 1 that never comes: a deadlock no run of the program shows
 * unless rank 2 wins the race. A check of the recorded run alone finds a deadlock through
 * another match than the run's, but on the recorded branch (rank 0 waiting for rank 2 a
 * second time), which the program never reaches: replay says it diverged. verify runs the
 * program with rank 2's message first and confirms the real deadlock on the other branch. */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, x = 0;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
		if (st.MPI_SOURCE == 1) {
			MPI_Recv(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &st);
		} else {
			MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &st);
			MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &st); /* never sent */
		}
	} else {
		if (rank == 2)
			usleep(200000);
		MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
