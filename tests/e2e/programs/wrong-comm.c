/* Two communicators of the same members, a duplicate of MPI_COMM_WORLD (made first) and a
 * split of it into one piece: both ranks MPI_Send to each other on the split, then receive
 * (a potential deadlock). Given any argument, the program sends on the duplicate instead:
 * same peers, tags and sizes, another communicator, which replay must report as diverged
 * (tests/e2e/replay.sh). */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, peer, out, in;
	MPI_Comm dup, split, use;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_split(MPI_COMM_WORLD, 0, rank, &split);
	use = argc > 1 ? dup : split;
	peer = 1 - rank;
	out = rank;
	MPI_Send(&out, 1, MPI_INT, peer, 0, use);
	MPI_Recv(&in, 1, MPI_INT, peer, 0, use, MPI_STATUS_IGNORE);
	MPI_Comm_free(&split);
	MPI_Comm_free(&dup);
	MPI_Finalize();
	return 0;
}
