/* mpiverify-test: np=2 record=ok mpi=4 verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * MPI_Parrived (MPI-4.1 4.2.3): rank 0 fills and readies the 4 partitions of a partitioned
 * send one after another, twice (the request started again); rank 1 polls each partition's
 * arrival with MPI_Parrived and adds it up as it arrives, then waits for the request and
 * answers with a total. The sender waits for no one between readying its first and its last
 * partition, so the model, which sends the message whole once the last is ready, has every
 * behaviour of the program (doc/semantics.md 4.9). Correct whatever the buffering; the sums
 * are checked. */
#include <mpi.h>
#include <stdio.h>

#define PARTS 4

int main(int argc, char **argv)
{
	int rank, buf[PARTS], round, k, flag, sum = 0, total = -1;
	MPI_Request r;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Psend_init(buf, PARTS, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
		for (round = 0; round < 2; round++) {
			MPI_Start(&r);
			for (k = 0; k < PARTS; k++) {
				buf[k] = 10 * round + k;
				MPI_Pready(k, r);
			}
			MPI_Wait(&r, MPI_STATUS_IGNORE);
		}
		MPI_Recv(&total, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else if (rank == 1) {
		MPI_Precv_init(buf, PARTS, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);
		for (round = 0; round < 2; round++) {
			MPI_Start(&r);
			for (k = 0; k < PARTS; k++) {
				flag = 0;
				while (!flag)
					MPI_Parrived(r, k, &flag);
				sum += buf[k];
			}
			MPI_Wait(&r, MPI_STATUS_IGNORE);
		}
		total = sum;
		MPI_Send(&total, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
	}
	if (rank < 2) {
		MPI_Request_free(&r);
		if (total != 52) {
			fprintf(stderr, "rank %d: total %d, want 52\n", rank, total);
			MPI_Abort(MPI_COMM_WORLD, 1);
		}
	}
	if (rank == 0)
		printf("partitions summed as expected\n");
	MPI_Finalize();
	return 0;
}
