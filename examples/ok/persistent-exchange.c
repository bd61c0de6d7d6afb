/* mpiverify-test: np=2 record=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Two ranks exchange through persistent requests: MPI_Send_init and MPI_Recv_init once, then
 * MPI_Startall and MPI_Waitall each round; both are started before either is waited for. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, other, out, in = -1, i;
	MPI_Request req[2];
	MPI_Status st[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	other = 1 - rank;
	MPI_Send_init(&out, 1, MPI_INT, other, 0, MPI_COMM_WORLD, &req[0]);
	MPI_Recv_init(&in, 1, MPI_INT, other, 0, MPI_COMM_WORLD, &req[1]);
	for (i = 0; i < 3; i++) {
		out = rank * 100 + i;
		MPI_Startall(2, req);
		MPI_Waitall(2, req, st);
	}
	MPI_Request_free(&req[0]);
	MPI_Request_free(&req[1]);
	if (rank == 0)
		printf("rank 0 last got %d\n", in);
	MPI_Finalize();
	return 0;
}
