/* Process topologies: the in-neighbours of a neighbourhood collective, and how many neighbours
 * its arrays of counts cover (rec_topo.h). */
#include <stdlib.h>

#include "event.h"
#include "rec_comm.h"
#include "rec_topo.h"

/* The local ranks comm's topology makes the calling rank receive from, into a malloc'ed
 * *out; their number, or -1. */
static int local_in_neighbors(MPI_Comm comm, int **out)
{
	int kind, n = -1, ndims, d, rank, indeg, outdeg, weighted;
	int *ranks = NULL, *scratch = NULL;

	*out = NULL;
	if (PMPI_Topo_test(comm, &kind) != MPI_SUCCESS)
		return -1;
	switch (kind) {
	case MPI_CART:
		if (PMPI_Cartdim_get(comm, &ndims) != MPI_SUCCESS)
			return -1;
		ranks = malloc((size_t)(2 * ndims + 1) * sizeof(*ranks));
		if (!ranks)
			return -1;
		/* per dimension the rank before, then the one after (MPI-4.1 section 8.6) */
		for (d = 0; d < ndims; d++)
			if (PMPI_Cart_shift(comm, d, 1, &ranks[2 * d], &ranks[2 * d + 1]) !=
			    MPI_SUCCESS)
				goto fail;
		n = 2 * ndims;
		break;
	case MPI_GRAPH:
		if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
		    PMPI_Graph_neighbors_count(comm, rank, &n) != MPI_SUCCESS)
			return -1;
		ranks = malloc((size_t)(n + 1) * sizeof(*ranks));
		if (!ranks || PMPI_Graph_neighbors(comm, rank, n, ranks) != MPI_SUCCESS)
			goto fail;
		break;
	case MPI_DIST_GRAPH:
		if (PMPI_Dist_graph_neighbors_count(comm, &indeg, &outdeg, &weighted) !=
		    MPI_SUCCESS)
			return -1;
		/* the weights and destinations are asked too: MPI wants room for them */
		ranks = malloc((size_t)(indeg + 1) * sizeof(*ranks));
		scratch = malloc((size_t)(indeg + 2 * outdeg + 1) * sizeof(*scratch));
		if (!ranks || !scratch ||
		    PMPI_Dist_graph_neighbors(comm, indeg, ranks, scratch, outdeg, scratch + indeg,
					      scratch + indeg + outdeg) != MPI_SUCCESS)
			goto fail;
		free(scratch);
		n = indeg;
		break;
	default: /* MPI_UNDEFINED: no topology */
		return -1;
	}
	*out = ranks;
	return n;
fail:
	free(ranks);
	free(scratch);
	return -1;
}

int32_t *rec_topo_in_neighbors(MPI_Comm comm, int *n)
{
	int *local, k, i, got = 0;
	int32_t *world;

	*n = -1;
	k = local_in_neighbors(comm, &local);
	if (k < 0)
		return NULL;
	world = malloc((size_t)(k + 1) * sizeof(*world));
	if (!world) {
		free(local);
		return NULL;
	}
	for (i = 0; i < k; i++) {
		int32_t w = rec_comm_to_world(comm, local[i]);

		if (w == MPIV_PROC_NULL)
			continue;
		if (w == MPIV_NONE) { /* not a member: MPI would not say so */
			free(local);
			free(world);
			return NULL;
		}
		world[got++] = w;
	}
	free(local);
	*n = got;
	if (!got) {
		free(world);
		return NULL;
	}
	return world;
}

int rec_topo_degrees(MPI_Comm comm, int *in, int *out)
{
	int kind, ndims, rank, n, weighted;

	*in = *out = -1;
	if (comm == MPI_COMM_NULL || PMPI_Topo_test(comm, &kind) != MPI_SUCCESS)
		return -1;
	switch (kind) {
	case MPI_CART:
		if (PMPI_Cartdim_get(comm, &ndims) != MPI_SUCCESS)
			return -1;
		*in = *out = 2 * ndims;
		return 0;
	case MPI_GRAPH:
		if (PMPI_Comm_rank(comm, &rank) != MPI_SUCCESS ||
		    PMPI_Graph_neighbors_count(comm, rank, &n) != MPI_SUCCESS)
			return -1;
		*in = *out = n;
		return 0;
	case MPI_DIST_GRAPH:
		if (PMPI_Dist_graph_neighbors_count(comm, in, out, &weighted) != MPI_SUCCESS) {
			*in = *out = -1;
			return -1;
		}
		return 0;
	default: /* MPI_UNDEFINED: no topology */
		return -1;
	}
}
