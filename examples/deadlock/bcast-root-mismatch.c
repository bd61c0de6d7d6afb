/* mpiverify-test: np=2 record=ok verify=deadlock verify-runs=1
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * Each rank calls MPI_Bcast as its own root: the members of MPI_COMM_WORLD name different
 * roots at the same collective, an erroneous program (MPI-4.1 6.4). MPICH happens to complete
 * it (each root sends its small message and returns), so the recorded run ends well; check
 * reports the collective mismatch, and replay confirms it by comparing the calls of the
 * ranks at that collective, without pairing the barrier it adds with the program's calls. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, x = 0;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Bcast(&x, 1, MPI_INT, rank, MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
