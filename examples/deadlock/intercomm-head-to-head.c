/* mpiverify-test: np=4 record=ok
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * mpiverify-test: buffering=eager:1024 expect=ok
 * Two groups (world ranks {0,1} and {2,3}) joined by MPI_Intercomm_create; each rank
 * MPI_Sends to the rank of its own rank in the other group before receiving from it: safe
 * only if the library buffers standard sends (a potential deadlock, between world ranks 0
 * and 2, and 1 and 3). */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, me, out, in;
	MPI_Comm half, inter;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_split(MPI_COMM_WORLD, rank / 2, rank, &half);
	MPI_Comm_rank(half, &me);
	/* leaders: world ranks 0 and 2 */
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, rank < 2 ? 2 : 0, 3, &inter);
	out = rank;
	/* one int: small enough that MPICH sends it eagerly, so the recorded run completes */
	MPI_Send(&out, 1, MPI_INT, me, 0, inter);
	MPI_Recv(&in, 1, MPI_INT, me, 0, inter, MPI_STATUS_IGNORE);
	MPI_Comm_free(&inter);
	MPI_Comm_free(&half);
	MPI_Finalize();
	return 0;
}
