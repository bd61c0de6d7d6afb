/* For tests/e2e/recorder.sh: one-sided calls whose recorded fields the test checks (3 ranks).
 * Window 0 lives on MPI_COMM_WORLD; window 1 on a communicator that numbers the ranks in
 * reverse, so that its ranks and targets differ from world ranks: the trace must hold world
 * ranks. Rank 0 opens an access epoch to the group {2, 1} (in that order) of window 0 and
 * puts 2 ints to rank 2; ranks 1 and 2 post {0}. Then rank 0 locks window 1's rank 0 (world
 * rank 2) exclusively, accumulates one int, flushes and unlocks; rank 1 locks window 1's rank
 * 2 (world rank 0) shared, gets 2 ints, then one with MPI_Rget, whose request it waits for. A
 * fence on window 1; then a shared-memory window on MPI_COMM_WORLD (window 2) and a dynamic
 * one on the reversed communicator (window 3) are made and freed, then windows 1 and 0 are
 * freed. The values moved do not matter. */
#include <mpi.h>

int main(int argc, char **argv)
{
	int rank, slots[4] = {0}, out[2] = {1, 2}, in[2], two[2] = {2, 1}, zero = 0, *base;
	MPI_Comm rev;
	MPI_Group world, g;
	MPI_Win w0, w1, w2, w3;
	MPI_Request req;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	MPI_Win_create(slots, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &w0);
	MPI_Comm_split(MPI_COMM_WORLD, 0, -rank, &rev);
	MPI_Win_allocate(2 * sizeof(int), sizeof(int), MPI_INFO_NULL, rev, &base, &w1);

	if (rank == 0) {
		MPI_Group_incl(world, 2, two, &g);
		MPI_Win_start(g, 0, w0);
		MPI_Put(out, 2, MPI_INT, 2, 0, 2, MPI_INT, w0);
		MPI_Win_complete(w0);
	} else {
		MPI_Group_incl(world, 1, &zero, &g);
		MPI_Win_post(g, 0, w0);
		MPI_Win_wait(w0);
	}
	MPI_Barrier(MPI_COMM_WORLD);
	if (rank == 0) {
		MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, w1);
		MPI_Accumulate(out, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, w1);
		MPI_Win_flush(0, w1);
		MPI_Win_unlock(0, w1);
	} else if (rank == 1) {
		MPI_Win_lock(MPI_LOCK_SHARED, 2, 0, w1);
		MPI_Get(in, 2, MPI_INT, 2, 0, 2, MPI_INT, w1);
		MPI_Rget(in, 1, MPI_INT, 2, 1, 1, MPI_INT, w1, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		MPI_Win_unlock(2, w1);
	}
	MPI_Win_fence(0, w1);
	MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base,
				&w2);
	MPI_Win_create_dynamic(MPI_INFO_NULL, rev, &w3);
	MPI_Win_free(&w3);
	MPI_Win_free(&w2);
	MPI_Win_free(&w1);
	MPI_Win_free(&w0);
	MPI_Group_free(&g);
	MPI_Group_free(&world);
	MPI_Comm_free(&rev);
	MPI_Finalize();
	return 0;
}
