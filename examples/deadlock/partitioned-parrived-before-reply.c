/* mpiverify-test: np=2 record=hang mpi=4 verify=deadlock verify-runs=1
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * A receiver polling for a partition its sender readies too late: rank 0 starts a
 * partitioned send, then waits for rank 1's message before it readies the partitions; rank 1
 * polls the arrival of partition 0 with MPI_Parrived and sends its message only once it
 * arrived. Rank 1 polls for good, rank 0 waits in its receive: a deadlock whatever the
 * buffering (MPI-4.1 4.2.2: nothing is transferred before MPI_Pready), found though rank 1
 * is never blocked in a call. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, buf[2] = {0, 0}, note = 0, flag = 0;
	MPI_Request r;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Psend_init(buf, 2, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
		MPI_Start(&r);
		MPI_Recv(&note, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Pready_range(0, 1, r);
		MPI_Wait(&r, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		MPI_Precv_init(buf, 2, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
		MPI_Start(&r);
		while (!flag)
			MPI_Parrived(r, 0, &flag);
		MPI_Send(&note, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
		MPI_Wait(&r, MPI_STATUS_IGNORE);
	}
	if (rank < 2)
		MPI_Request_free(&r);
	printf("rank %d: done\n", rank);
	MPI_Finalize();
	return 0;
}
