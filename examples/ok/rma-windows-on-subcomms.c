/* mpiverify-test: np=3 record=ok verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * Windows on communicators other than MPI_COMM_WORLD (MPI-4.1 12.2): a shared-memory window
 * on the node's communicator (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED, the usual way to
 * share memory between the ranks of a node), written by its rank 0 between fences; then a
 * window on a communicator split from MPI_COMM_WORLD that rank 2 is not in, whose members
 * each lock rank 0 exclusively and add one to its counter, in either order, and fence. The
 * window's fences and free are collectives over its own communicator: rank 2 never waits in
 * them. Correct whatever the buffering. The shared int is checked;
 * the counters are not (MPICH 4.0.2's accumulates miscount, which is not the point here). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, nrank, *shared, qunit, one = 1, counter = 0;
	MPI_Aint qsize;
	MPI_Comm node, pair;
	MPI_Win win;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);

	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &nrank);
	MPI_Win_allocate_shared(nrank == 0 ? sizeof(int) : 0, sizeof(int), MPI_INFO_NULL, node,
				&shared, &win);
	MPI_Win_shared_query(win, 0, &qsize, &qunit, &shared);
	MPI_Win_fence(0, win);
	if (nrank == 0)
		*shared = 42;
	MPI_Win_fence(0, win);
	if (*shared != 42) {
		fprintf(stderr, "rank %d: the node's shared int is %d\n", rank, *shared);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	MPI_Win_free(&win);
	MPI_Comm_free(&node);

	MPI_Comm_split(MPI_COMM_WORLD, rank < 2 ? 0 : MPI_UNDEFINED, rank, &pair);
	if (pair != MPI_COMM_NULL) {
		MPI_Win_create(&counter, sizeof(int), sizeof(int), MPI_INFO_NULL, pair, &win);
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
		MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
		MPI_Win_unlock(0, win);
		MPI_Win_fence(0, win);
		MPI_Win_free(&win);
		MPI_Comm_free(&pair);
	}
	if (rank == 0)
		printf("windows on the node and on the halves as expected\n");
	MPI_Finalize();
	return 0;
}
