/* mpiverify-test: np=3 record=ok mpi=4 verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * MPI-4's large-count calls (MPI-4.1 2.5.8) on a ring and in collectives: MPI_Isend_c and
 * MPI_Irecv_c around the ring, MPI_Sendrecv_c the other way, then MPI_Bcast_c,
 * MPI_Allreduce_c, MPI_Ibcast_c and a persistent MPI_Allreduce_init_c. Each count fits an
 * int, so each call is followed as its int-count twin (doc/mpi-calls.md): correct whatever
 * the buffering, as the same program with MPI_Isend, MPI_Bcast, ... would be. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, right, left, out, in = -1, sum = 0, root = 0;
	MPI_Request r[2];
	MPI_Status st[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	right = (rank + 1) % size;
	left = (rank + size - 1) % size;
	out = rank;
	MPI_Irecv_c(&in, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r[0]);
	MPI_Isend_c(&out, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &r[1]);
	MPI_Waitall(2, r, st);
	MPI_Sendrecv_c(&out, 1, MPI_INT, left, 1, &in, 1, MPI_INT, right, 1, MPI_COMM_WORLD,
		       &st[0]);
	MPI_Bcast_c(&root, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Allreduce_c(&out, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Ibcast_c(&root, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[0]);
	MPI_Wait(&r[0], &st[0]);
	MPI_Allreduce_init_c(&out, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);
	MPI_Start(&r[1]);
	MPI_Wait(&r[1], &st[1]);
	MPI_Request_free(&r[1]);
	if (rank == 0)
		printf("sum %d\n", sum);
	MPI_Finalize();
	return 0;
}
