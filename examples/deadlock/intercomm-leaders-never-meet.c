/* mpiverify-test: np=4 record=hang
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * mpiverify-test: buffering=eager:1024 expect=deadlock
 * Two groups (world ranks {0,1} and {2,3}) call MPI_Intercomm_create, but their leaders (world
 * ranks 0 and 2) name each other with different tags: the leaders' exchange on
 * MPI_COMM_WORLD never matches, and every rank waits in the call for good, whatever the
 * buffering. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank;
	MPI_Comm half, inter;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &half);
	/* the tag should be one for both groups */
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank < 2 ? 2 : 0, rank < 2 ? 1 : 2, &inter);
	MPI_Comm_free(&inter);
	MPI_Comm_free(&half);
	MPI_Finalize();
	return 0;
}
