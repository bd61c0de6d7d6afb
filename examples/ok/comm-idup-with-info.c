/* mpiverify-test: np=3 record=ok mpi=4 verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * MPI_Comm_idup_with_info (MPI-4.1 7.4.2), a nonblocking duplicate with hints: every rank
 * starts it on MPI_COMM_WORLD, exchanges a message in a ring on MPI_COMM_WORLD meanwhile,
 * waits for it, then sums the ranks on the duplicate with MPI_Allreduce. The duplicate is a
 * collective on its parent, matched in order with the parent's other collectives, and usable
 * once its request completes. Correct whatever the buffering; the sum is checked. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, left = -1, sum = 0;
	MPI_Comm dup;
	MPI_Info info;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Info_create(&info);
	MPI_Info_set(info, "mpi_assert_no_any_source", "true");
	MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &dup, &req);
	MPI_Info_free(&info);
	MPI_Sendrecv(&rank, 1, MPI_INT, (rank + 1) % size, 0, &left, 1, MPI_INT,
		     (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, dup);
	MPI_Comm_free(&dup);
	if (sum != size * (size - 1) / 2 || left != (rank + size - 1) % size) {
		fprintf(stderr, "rank %d: sum %d, from the left %d\n", rank, sum, left);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (rank == 0)
		printf("duplicate made and used as expected\n");
	MPI_Finalize();
	return 0;
}
