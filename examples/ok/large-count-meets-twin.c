/* mpiverify-test: np=2 record=ok mpi=4 verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * A large-count collective and its int-count twin are one operation (MPI-4.1 2.5.8), and
 * meet each other: rank 0 calls MPI_Gatherv_c and MPI_Ibcast_c where rank 1 calls
 * MPI_Gatherv and MPI_Ibcast. Correct whatever the buffering: no collective mismatch. The
 * results are checked; a wrong one aborts the run. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, mine, all[2] = {0, 0}, counts[2] = {1, 1}, displs[2] = {0, 1}, word = 0;
	MPI_Count ccounts[2] = {1, 1};
	MPI_Aint cdispls[2] = {0, 1};
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	mine = 10 + rank;
	if (rank == 0) {
		MPI_Gatherv_c(&mine, 1, MPI_INT, all, ccounts, cdispls, MPI_INT, 0, MPI_COMM_WORLD);
		if (all[0] != 10 || all[1] != 11)
			MPI_Abort(MPI_COMM_WORLD, 2);
		MPI_Ibcast_c(&word, 1, MPI_INT, 1, MPI_COMM_WORLD, &req);
	} else {
		MPI_Gatherv(&mine, 1, MPI_INT, all, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
		word = 42;
		MPI_Ibcast(&word, 1, MPI_INT, 1, MPI_COMM_WORLD, &req);
	}
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	if (word != 42)
		MPI_Abort(MPI_COMM_WORLD, 3);
	MPI_Finalize();
	return 0;
}
