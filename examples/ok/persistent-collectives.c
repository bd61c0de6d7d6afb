/* mpiverify-test: np=3 record=ok mpi=4 verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * MPI-4's persistent collectives: a broadcast, a sum and a barrier made once with
 * MPI_Bcast_init, MPI_Allreduce_init and MPI_Barrier_init, then started and completed three
 * times, in the same order on every rank. Each MPI_Start starts its collective as the
 * nonblocking one would be (MPI-4.1 6.13); every rank starts them alike, so nothing waits
 * for ever. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, value = 0, part, sum = 0, round;
	MPI_Request req[3];
	MPI_Status st[3];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Bcast_init(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req[0]);
	MPI_Allreduce_init(&part, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
			   &req[1]);
	MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &req[2]);
	for (round = 0; round < 3; round++) {
		if (rank == 0)
			value = round + 1;
		MPI_Start(&req[0]);
		MPI_Wait(&req[0], &st[0]);
		part = value * rank;
		MPI_Startall(2, &req[1]);
		MPI_Waitall(2, &req[1], &st[1]);
	}
	if (rank == 0)
		printf("last sum: %d\n", sum);
	for (round = 0; round < 3; round++)
		MPI_Request_free(&req[round]);
	MPI_Finalize();
	return 0;
}
