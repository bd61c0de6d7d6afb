/* mpiverify-test: np=3 record=ok mpi=4 verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * MPI_Comm_create_from_group (MPI-4.1 7.4.2), a communicator made from a group with no parent
 * communicator, collective over the group only: ranks 0 and 1 make one from the group {0, 1}
 * with the string tag "pair" while rank 2 goes on alone, then every rank makes one from the
 * world's group with the tag "all". Each is used for a sum. Correct whatever the buffering;
 * the sums are checked. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, two[2] = {0, 1}, pair_sum = -1, all_sum = -1;
	MPI_Group world, pair;
	MPI_Comm c;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 2, two, &pair);
	if (rank < 2) {
		MPI_Comm_create_from_group(pair, "pair", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &c);
		MPI_Allreduce(&rank, &pair_sum, 1, MPI_INT, MPI_SUM, c);
		MPI_Comm_free(&c);
	}
	MPI_Comm_create_from_group(world, "all", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &c);
	MPI_Allreduce(&rank, &all_sum, 1, MPI_INT, MPI_SUM, c);
	MPI_Comm_free(&c);
	MPI_Group_free(&pair);
	MPI_Group_free(&world);
	if ((rank < 2 && pair_sum != 1) || all_sum != 3) {
		fprintf(stderr, "rank %d: sums %d and %d\n", rank, pair_sum, all_sum);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (rank == 0)
		printf("communicators from groups as expected\n");
	MPI_Finalize();
	return 0;
}
