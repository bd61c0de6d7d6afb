/* Every call that makes a communicator, on 4 ranks, each new one used once: the recorder
 * must give each an id and its members as world ranks (tests/e2e/recorder.sh compares them
 * with what this program computes itself and writes, "rank R NAME: MEMBERS", into
 * rec-comms-R.txt). */
#include <stdio.h>

#include <mpi.h>

/* rec-comms-RANK.txt in the current directory: the launcher's output
 * may mix the ranks' lines */
static FILE *out;

/* Write comm's members as world ranks, by rank in comm: what the trace must say. Then a
 * barrier on it, for its id. */
static void show(const char *name, MPI_Comm comm)
{
	MPI_Group g, wg;
	char line[256];
	int n, i, r, w, me, len;

	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	len = snprintf(line, sizeof(line), "rank %d %s:", me, name);
	if (comm == MPI_COMM_NULL) {
		fprintf(out, "%s null\n", line);
		return;
	}
	MPI_Comm_group(comm, &g);
	MPI_Comm_group(MPI_COMM_WORLD, &wg);
	MPI_Group_size(g, &n);
	for (i = 0; i < n && len < (int)sizeof(line) - 16; i++) {
		r = i;
		MPI_Group_translate_ranks(g, 1, &r, wg, &w);
		len += snprintf(line + len, sizeof(line) - len, " %d", w);
	}
	fprintf(out, "%s\n", line);
	MPI_Group_free(&g);
	MPI_Group_free(&wg);
	MPI_Barrier(comm);
}

int main(int argc, char **argv)
{
	MPI_Comm dup, idup, split, stype, create, cgroup, cart, cart2, row, graph, dupinfo, g1, dg;
	MPI_Comm inter, merged;
	MPI_Group world, evens;
	MPI_Request req;
	int me, dims[1] = {4}, periods[1] = {1}, even[2] = {0, 2};
	int grid[2] = {2, 2}, periods2[2] = {0, 0}, remain[2] = {0, 1}, left, right, weight = 1;
	int index[4] = {1, 2, 3, 4}, edges[4] = {1, 2, 3, 0}, one = 1;
	char path[64];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	left = (me + 3) % 4;
	right = (me + 1) % 4;
	snprintf(path, sizeof(path), "rec-comms-%d.txt", me);
	out = fopen(path, "w");
	if (!out)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Group_incl(world, 2, even, &evens);

	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	show("dup", dup);
	MPI_Comm_idup(dup, &idup, &req);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	show("idup", idup);
	/* halves, in reverse order of world rank */
	MPI_Comm_split(MPI_COMM_WORLD, me / 2, -me, &split);
	show("split", split);
	MPI_Comm_split_type(split, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &stype);
	show("split_type", stype);
	MPI_Comm_create(MPI_COMM_WORLD, evens, &create);
	show("create", create);
	if (me % 2 == 0) {
		MPI_Comm_create_group(MPI_COMM_WORLD, evens, 7, &cgroup);
		show("create_group", cgroup);
		MPI_Comm_free(&cgroup);
	}
	MPI_Cart_create(dup, 1, dims, periods, 1, &cart);
	show("cart", cart);
	/* a 2x2 grid's rows */
	MPI_Cart_create(MPI_COMM_WORLD, 2, grid, periods2, 0, &cart2);
	show("cart2", cart2);
	MPI_Cart_sub(cart2, remain, &row);
	show("cart_sub", row);
	/* a ring, neighbours given (edges of weight 1 rather than MPI_UNWEIGHTED, which Open MPI
	 * defines as a constant pointer that GCC takes for an empty array) */
	MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &left, &weight, 1, &right, &weight,
				       MPI_INFO_NULL, 0, &graph);
	show("dist_graph", graph);
	MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &dupinfo);
	show("dup_with_info", dupinfo);
	/* the ring as a graph (node i's neighbour is i + 1), then each rank giving its edge */
	MPI_Graph_create(MPI_COMM_WORLD, 4, index, edges, 0, &g1);
	show("graph", g1);
	MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &me, &one, &right, &weight, MPI_INFO_NULL, 0, &dg);
	show("dist_graph_general", dg);
	/* the halves joined (leaders: their rank 0, world ranks 1 and 3), then merged, the
	 * upper half first; an intercommunicator's members are its local group */
	MPI_Intercomm_create(split, 0, MPI_COMM_WORLD, me < 2 ? 3 : 1, 5, &inter);
	show("intercomm", inter);
	MPI_Intercomm_merge(inter, me < 2, &merged);
	show("merge", merged);

	MPI_Comm_free(&merged);
	MPI_Comm_free(&inter);

	MPI_Comm_free(&dg);
	MPI_Comm_free(&g1);
	MPI_Comm_free(&dupinfo);
	MPI_Comm_free(&graph);
	MPI_Comm_free(&row);
	MPI_Comm_free(&cart2);
	MPI_Comm_free(&cart);
	if (create != MPI_COMM_NULL)
		MPI_Comm_free(&create);
	MPI_Comm_free(&stype);
	MPI_Comm_free(&split);
	MPI_Comm_free(&idup);
	MPI_Comm_free(&dup);
	/* a handle freed above may come back: it must get a new id */
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	show("dup2", dup);
	MPI_Comm_free(&dup);
	MPI_Group_free(&evens);
	MPI_Group_free(&world);
	fclose(out);
	MPI_Finalize();
	return 0;
}
