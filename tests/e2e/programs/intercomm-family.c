/* Intercommunicators as programs make, use and end them, for tests/e2e/intercomms.sh, four
 * ranks in two groups:
 *
 *   MAKE   1: MPI_Comm_split makes each group's communicator and MPI_Intercomm_create joins
 *            them across MPI_COMM_WORLD. 2: MPI_Intercomm_create_from_groups joins two groups
 *            taken from the world's group, with no communicator (MPI-4).
 *   SPLIT  0: the even and the odd ranks. 1: ranks 0-1 and 2-3. 2: rank 0 alone, and 1-3.
 *   LEADER 0: each group's first member leads it. 1: its last.
 *   END    0: MPI_Comm_free. 1: MPI_Comm_disconnect. 2: MPI_Intercomm_merge, a sum over the
 *            merged communicator, then both freed.
 *   BUG    0: each member of the first group sends the second group's member of its own group
 *            rank (modulo the second group's size) a value, which the second group takes from
 *            MPI_ANY_SOURCE and answers: correct. 1: the second group's last member waits for
 *            a message on MPI_COMM_WORLD that the first group's last member sends only after
 *            the creation: its group cannot meet, and the creation never completes for
 *            anybody. 2: the leaders name each other with different tags: they never meet.
 */
#include <mpi.h>
#include <stdio.h>

/* The world ranks of the first group (in), or the second (!in), into m; their count. */
static int group_of(int size, int first, int *m)
{
	int r, n = 0, in;

	for (r = 0; r < size; r++) {
		in = SPLIT == 0 ? r % 2 == 0 : SPLIT == 1 ? r < size / 2 : r == 0;
		if (in == first)
			m[n++] = r;
	}
	return n;
}

int main(int argc, char **argv)
{
	int rank, size, first, me, n, nother, local_leader, remote_leader, tag, i, v = 0, sum = 0;
	int mine[16], other[16];
	MPI_Comm inter;
	MPI_Status st;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	first = SPLIT == 0 ? rank % 2 == 0 : SPLIT == 1 ? rank < size / 2 : rank == 0;
	n = group_of(size, first, mine);
	nother = group_of(size, !first, other);
	for (me = 0; mine[me] != rank; me++)
		;
	local_leader = LEADER ? n - 1 : 0;
	remote_leader = LEADER ? nother - 1 : 0;
	tag = BUG == 2 && !first ? 8 : 7;
#if MAKE == 1
	{
		MPI_Comm half;

		MPI_Comm_split(MPI_COMM_WORLD, first, rank, &half);
		/* the second group's last member waits for the first group's last, who sends
		 * after */
		if (BUG == 1 && !first && me == n - 1)
			MPI_Recv(&v, 1, MPI_INT, other[nother - 1], 9, MPI_COMM_WORLD, &st);
		/* the remote leader as a rank of MPI_COMM_WORLD, the peer communicator */
		MPI_Intercomm_create(half, local_leader, MPI_COMM_WORLD, other[remote_leader], tag,
				     &inter);
		MPI_Comm_free(&half);
	}
#else
	{
		MPI_Group world, gm, go;

		if (BUG == 1 && !first && me == n - 1)
			MPI_Recv(&v, 1, MPI_INT, other[nother - 1], 9, MPI_COMM_WORLD, &st);
		MPI_Comm_group(MPI_COMM_WORLD, &world);
		MPI_Group_incl(world, n, mine, &gm);
		MPI_Group_incl(world, nother, other, &go);
		MPI_Intercomm_create_from_groups(gm, local_leader, go, remote_leader,
						 tag == 7 ? "family" : "family-other",
						 MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &inter);
		MPI_Group_free(&go);
		MPI_Group_free(&gm);
		MPI_Group_free(&world);
	}
#endif
	if (BUG == 1 && first && me == n - 1)
		MPI_Send(&v, 1, MPI_INT, other[nother - 1], 9, MPI_COMM_WORLD);
	if (first) {
		v = rank + 1;
		MPI_Send(&v, 1, MPI_INT, me % nother, 0, inter);
		MPI_Recv(&v, 1, MPI_INT, me % nother, 1, inter, &st);
	} else {
		/* the first group's members of rank me, me + n, ... (n: this group's size, the
		 * first's taking its ranks modulo it) send here */
		for (i = me; i < nother; i += n) {
			MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, inter, &st);
			v *= 2;
			MPI_Send(&v, 1, MPI_INT, st.MPI_SOURCE, 1, inter);
		}
	}
#if END == 0
	MPI_Comm_free(&inter);
#elif END == 1
	MPI_Comm_disconnect(&inter);
#else
	{
		MPI_Comm merged;

		MPI_Intercomm_merge(inter, !first, &merged);
		MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, merged);
		MPI_Comm_free(&merged);
		MPI_Comm_free(&inter);
	}
#endif
	printf("rank %d: %d %d\n", rank, v, sum);
	MPI_Finalize();
	return 0;
}
