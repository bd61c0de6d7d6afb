/* mpiverify-test: np=4 record=hang mpi=4 verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * Two groups, world ranks {0,1} and {2,3}, make an intercommunicator with
 * MPI_Intercomm_create_from_groups (MPI-4.1 7.6.2), "collective over the union of the local
 * and remote groups". World rank 3 first waits for a message that world rank 1 sends only
 * after the creation: rank 3's group cannot meet without it, so its leader never answers
 * the other leader, and rank 1 waits in the creation for its own leader, which waits for
 * the remote one. A deadlock whatever the buffering: MPICH hangs in it. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, v = 3;
	int lo[2] = {0, 1}, hi[2] = {2, 3};
	MPI_Group world, mine, other;
	MPI_Comm inter;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 2, rank < 2 ? lo : hi, &mine);
	MPI_Group_incl(world, 2, rank < 2 ? hi : lo, &other);
	if (rank == 3)
		MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Intercomm_create_from_groups(mine, 0, other, 0, "halves", MPI_INFO_NULL,
					 MPI_ERRORS_ARE_FATAL, &inter);
	if (rank == 1)
		MPI_Send(&v, 1, MPI_INT, 3, 0, MPI_COMM_WORLD);
	printf("rank %d: %d\n", rank, v);
	MPI_Comm_free(&inter);
	MPI_Group_free(&other);
	MPI_Group_free(&mine);
	MPI_Group_free(&world);
	MPI_Finalize();
	return 0;
}
