/* mpiverify-test: np=3 record=ok
 * mpiverify-test: buffering=zero expect=deadlock
 * mpiverify-test: buffering=infinite expect=ok
 * A ring described as a distributed graph: on a duplicate of MPI_COMM_WORLD made with
 * MPI_Comm_dup_with_info, MPI_Dist_graph_create gives each rank one edge, to the next rank,
 * and MPI_Graph_create the same ring for a final barrier. Each rank MPI_Sends to its
 * out-neighbour before receiving from its in-neighbour: a cycle of sends that completes only
 * while the MPI library buffers them (a potential deadlock). */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, size, next, one = 1, indeg, outdeg, weighted, from, to, out, in, i, wfrom, wto;
	int index[8], edges[8];
	MPI_Comm lib, ring, graph;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size > 8)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &lib);
	next = (rank + 1) % size;
	/* Edges of weight 1 rather than MPI_UNWEIGHTED, which Open MPI defines as a constant
	 * pointer that GCC takes for an empty array (-Wstringop-overread). */
	MPI_Dist_graph_create(lib, 1, &rank, &one, &next, &one, MPI_INFO_NULL, 0, &ring);
	MPI_Dist_graph_neighbors_count(ring, &indeg, &outdeg, &weighted);
	MPI_Dist_graph_neighbors(ring, 1, &from, &wfrom, 1, &to, &wto);

	out = rank;
	/* One int: MPICH sends it eagerly, so the recorded run completes. */
	MPI_Send(&out, 1, MPI_INT, to, 0, ring);
	MPI_Recv(&in, 1, MPI_INT, from, 0, ring, MPI_STATUS_IGNORE);

	for (i = 0; i < size; i++) {
		index[i] = i + 1;
		edges[i] = (i + 1) % size;
	}
	MPI_Graph_create(MPI_COMM_WORLD, size, index, edges, 0, &graph);
	MPI_Barrier(graph);
	MPI_Comm_free(&graph);
	MPI_Comm_free(&ring);
	MPI_Comm_free(&lib);
	MPI_Finalize();
	return 0;
}
