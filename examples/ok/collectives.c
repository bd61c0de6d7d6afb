/* mpiverify-test: np=4 record=ok verify=ok verify-runs=1
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Every rank calls the same blocking collectives in the same order with the same roots, and
 * overlaps a nonblocking barrier and allreduce with a point-to-point exchange. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, v, sum, all[4], back[4], one, pre, right, left, in;
	MPI_Request req[2];
	MPI_Status st[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	v = rank + 1;
	MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Reduce(&rank, &sum, 1, MPI_INT, MPI_SUM, 1, MPI_COMM_WORLD);
	MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Gather(&rank, 1, MPI_INT, all, 1, MPI_INT, 2, MPI_COMM_WORLD);
	MPI_Scatter(all, 1, MPI_INT, &one, 1, MPI_INT, 2, MPI_COMM_WORLD);
	MPI_Allgather(&rank, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
	MPI_Alltoall(all, 1, MPI_INT, back, 1, MPI_INT, MPI_COMM_WORLD);
	MPI_Scan(&rank, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Exscan(&rank, &pre, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	/* nonblocking collectives complete at their wait, after the exchange */
	right = (rank + 1) % size;
	left = (rank + size - 1) % size;
	MPI_Ibarrier(MPI_COMM_WORLD, &req[0]);
	MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]);
	MPI_Sendrecv(&rank, 1, MPI_INT, right, 0, &in, 1, MPI_INT, left, 0, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	MPI_Waitall(2, req, st);
	if (rank == 0)
		printf("sum of ranks %d\n", sum);
	MPI_Finalize();
	return 0;
}
