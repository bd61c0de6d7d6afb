/* mpiverify-test: np=4 record=ok verify=ok verify-runs=1
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * mpiverify-test: buffering=eager:1024 expect=ok
 * MPI_Comm_split makes two groups, the even and the odd world ranks; MPI_Intercomm_create
 * joins them (leaders: world ranks 0 and 1, tag 7 on MPI_COMM_WORLD). Across the
 * intercommunicator each even rank sends to the odd rank of the same rank in its group, which
 * receives and answers: ranks name the remote group's members, so world rank 0 talks to 1 and
 * world rank 2 to 3 although both pairs use ranks 0 and 1. A duplicate of the
 * intercommunicator carries a second round the other way. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, color, me, v = 0;
	MPI_Comm half, inter, dup;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	color = rank % 2;
	MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
	MPI_Comm_rank(half, &me);
	/* the remote leader as a rank of MPI_COMM_WORLD: 1 for the evens, 0 for the odds */
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 7, &inter);
	MPI_Comm_dup(inter, &dup);
	if (color == 0) {
		v = rank;
		MPI_Send(&v, 1, MPI_INT, me, 0, inter);
		MPI_Recv(&v, 1, MPI_INT, me, 0, inter, MPI_STATUS_IGNORE);
		MPI_Recv(&v, 1, MPI_INT, me, 1, dup, MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(&v, 1, MPI_INT, me, 0, inter, MPI_STATUS_IGNORE);
		v++;
		MPI_Send(&v, 1, MPI_INT, me, 0, inter);
		MPI_Send(&v, 1, MPI_INT, me, 1, dup);
	}
	printf("rank %d: %d\n", rank, v);
	MPI_Comm_free(&dup);
	MPI_Comm_free(&inter);
	MPI_Comm_free(&half);
	MPI_Finalize();
	return 0;
}
