/* mpiverify-test: np=3 record=ok verify=ok verify-runs=4
 * mpiverify-test: lib=openmpi verify=deadlock replay=reproduced
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=deadlock
 * mpiverify-test: replay=diverged
 * Rank 0 takes a message with MPI_ANY_SOURCE, then joins an MPI_Bcast rooted at rank 1, and
 * acts on the sender: if it was rank 1 (which sends only after the broadcast, so only if the
 * root left the broadcast before rank 0 entered it, as MPI allows), rank 0 sends rank 2 a
 * large message before it receives rank 2's, while rank 2 is still in its own large send to
 * rank 0: both wait in MPI_Send for each other. Rank 1 sleeps first, so the first run takes
 * rank 2's message. verify runs the other outcome: Open MPI's root leaves early, and the run
 * hangs with rank 0 in the broadcast and rank 2 in its send, no rank in a receive the
 * steering pinned: a deadlock of the program, confirmed (verify once blamed it on its own
 * steering and answered "no deadlock"). MPICH's root waits for rank 0, so there the pinned
 * receive waits for a message that cannot come: that path is not the program's, and verify
 * answers no deadlock. check, on the recorded run, finds where the other match leads only
 * with buffering; replay, pinning the match, sees the program leave the recorded path on
 * MPICH, and on Open MPI the deadlock above (it says where the calls differ). */
#include <mpi.h>
#include <unistd.h>

#define N 10000 /* ints: above both libraries' eager thresholds */

static int in[N], out[N];

int main(int argc, char **argv)
{
	int rank, v = 1;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (rank == 0) {
		MPI_Recv(in, N, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &st);
		MPI_Bcast(&v, 1, MPI_INT, 1, MPI_COMM_WORLD);
		if (st.MPI_SOURCE == 1) {
			MPI_Send(out, N, MPI_INT, 2, 8, MPI_COMM_WORLD);
			MPI_Recv(in, N, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(in, N, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Send(out, N, MPI_INT, 2, 8, MPI_COMM_WORLD);
		}
	} else if (rank == 1) {
		usleep(300000);
		MPI_Bcast(&v, 1, MPI_INT, 1, MPI_COMM_WORLD);
		MPI_Send(out, N, MPI_INT, 0, 0, MPI_COMM_WORLD);
	} else if (rank == 2) {
		MPI_Send(out, N, MPI_INT, 0, 0, MPI_COMM_WORLD);
		MPI_Bcast(&v, 1, MPI_INT, 1, MPI_COMM_WORLD);
		MPI_Recv(in, N, MPI_INT, 0, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	MPI_Finalize();
	return 0;
}
