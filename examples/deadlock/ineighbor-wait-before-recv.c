/* mpiverify-test: np=3 record=ok verify=deadlock verify-runs=2
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=deadlock
 * The nonblocking form of neighbor-sync-recv, on a distributed graph: the edges 1 -> 0,
 * 0 -> 1 and 1 -> 2 make rank 0's only in-neighbour rank 1. Rank 2 receives from rank 0 on
 * MPI_COMM_WORLD before it starts MPI_Ineighbor_allgather; rank 0 starts it, waits for it,
 * and only then sends to rank 2. The wait needs the data of rank 0's in-neighbours alone,
 * which MPICH and Open MPI deliver, so the run completes. But the collective may synchronise
 * every member at its wait, whatever the library buffers: then rank 0 waits for rank 2, which
 * waits for rank 0's send. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, msg = 7, mine, got[2], one[2] = {1, 1};
	int sources[2], destinations[2], indeg, outdeg;
	MPI_Comm graph;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != 3)
		MPI_Abort(MPI_COMM_WORLD, 1);
	/* each rank names its own edges: 0 <-> 1, 1 -> 2 */
	if (rank == 0) {
		indeg = outdeg = 1;
		sources[0] = destinations[0] = 1;
	} else if (rank == 1) {
		indeg = 1;
		sources[0] = 0;
		outdeg = 2;
		destinations[0] = 0;
		destinations[1] = 2;
	} else {
		indeg = 1;
		sources[0] = 1;
		outdeg = 0;
	}
	/* weights of 1 rather than MPI_UNWEIGHTED (see dist-graph-ring.c) */
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indeg, sources, one, outdeg, destinations,
				       one, MPI_INFO_NULL, 0, &graph);
	mine = rank;
	if (rank == 2)
		MPI_Recv(&msg, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Ineighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, graph, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	if (rank == 0)
		MPI_Send(&msg, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
	MPI_Comm_free(&graph);
	MPI_Finalize();
	return 0;
}
