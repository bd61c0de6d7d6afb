/* mpiverify-test: np=3 record=ok verify=deadlock verify-runs=3
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=deadlock
 * Rank 2 receives from MPI_ANY_SOURCE, then from rank 0, then joins an MPI_Scan. Rank 0 sends
 * to rank 1 and to rank 2, joins the scan, and sends to rank 2 again; rank 1 sends to rank 2,
 * receives from rank 0 and joins the scan. If rank 0's small sends are buffered, rank 2's
 * wildcard receive may take rank 0's first message; its receive from rank 0 then waits for
 * the message rank 0 sends after the scan. A scan need not hold rank 0, which has no lower
 * rank, but MPI lets every collective synchronise, and MPICH's does: rank 0 waits in it for
 * rank 2. The deadlock needs buffered sends and a synchronising collective together; without
 * buffering rank 0 cannot send to rank 2 before rank 1 received from it, which rank 1 does only
 * after rank 2 took its message. The recorded run takes rank 1's message first (rank 0 starts
 * late). */
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int rank, x = 1, y;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 2) {
		MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (rank == 0) {
		usleep(300000);
		MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
		MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
		MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
		MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
	} else {
		MPI_Send(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
		MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Scan(&x, &y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
