/* mpiverify-test: np=3 record=any verify=crash verify-runs=4
 * A message race the program assumes away: rank 0 takes two results with MPI_ANY_SOURCE and
 * asserts that rank 1's comes first, because rank 2 computes longer. On a quiet machine it
 * nearly always does; on a loaded one, or another MPI library, rank 2's can come first, and
 * rank 0 dies of SIGABRT. No deadlock on any path, in any buffering mode: verify steers the
 * other order, rank 0 aborts, and that is the finding (exit 1): the signal, the stack down to
 * the assert, and the decision that leads there. */
#include <assert.h>
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, v, first;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
		first = st.MPI_SOURCE;
		MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
		assert(first == 1); /* the race: rank 2's result may come first */
	} else {
		if (rank == 2)
			usleep(100000); /* "computes longer" */
		v = rank;
		MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
