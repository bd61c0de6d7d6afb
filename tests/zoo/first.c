/* The first-sender zoo's program (tests/zoo/README.md): rank 0 takes one message from each of
 * its SENDERS peers and acts on which came first, in every way the macros below combine.
 * tests/zoo/first.sh compiles it once per shape and runs `mpiverify verify` on each:
 *
 *	-DTAKE=n	how rank 0 takes the first message (TAKE_*)
 *	-DON=n		what of it the branch acts on (ON_*)
 *	-DBUG=n		0: correct on both branches; else a bug planted on the branch of the
 *			late sender (BUG_*)
 *	-DSENDERS=n	ranks 1 to n send, 2 or more
 *
 * Rank SENDERS, the last, sends late (after 0.2 s): a run left to itself takes the branch of
 * another sender, and only a run steered to take the late one first shows a bug there. */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

#define TAKE_RECV 1	/* MPI_Recv(MPI_ANY_SOURCE) */
#define TAKE_WAIT 2	/* MPI_Irecv(MPI_ANY_SOURCE) and MPI_Wait */
#define TAKE_PROBE 3	/* MPI_Probe(MPI_ANY_SOURCE), then MPI_Recv from the source found */
#define TAKE_IPROBE 4	/* the same, polling with MPI_Iprobe */
#define TAKE_WAITANY 5	/* an MPI_Irecv per sender, MPI_Waitany */
#define TAKE_TESTANY 6	/* the same, polling with MPI_Testany */
#define TAKE_MPROBE 7	/* MPI_Mprobe(MPI_ANY_SOURCE), then MPI_Mrecv */
#define TAKE_WAITSOME 8 /* an MPI_Irecv per sender, MPI_Waitsome: the first index returned */
#define TAKE_TEST 9	/* MPI_Irecv(MPI_ANY_SOURCE), polled with MPI_Test */

#define ON_SOURCE 1 /* status.MPI_SOURCE (or the index a completion returned) */
#define ON_VALUE 2  /* the value the message carries: its sender's rank times 10 */
#define ON_TAG 3    /* status.MPI_TAG: each sender sends with its own tag */

/* the late sender's branch waits for a second message from rank 1, never sent */
#define BUG_RECV 1
/* the late sender's branch sends rank 1 a message with MPI_Ssend that rank 1 never receives */
#define BUG_SSEND 2
/* the late sender's branch enters an MPI_Barrier the other ranks never reach */
#define BUG_BARRIER 3

#ifndef TAKE
#define TAKE TAKE_RECV
#endif
#ifndef ON
#define ON ON_SOURCE
#endif
#ifndef BUG
#define BUG 0
#endif
#ifndef SENDERS
#define SENDERS 2
#endif

/* each sender's tag with ON_TAG, else 0 */
static int tag_of(int rank)
{
	return ON == ON_TAG ? 100 + rank : 0;
}

/* Take the first message: the sender it came from, as the program learns it (ON). The other
 * senders' messages, still to take, are taken by rest(). */
static int first(MPI_Request *rq, int *in)
{
	MPI_Status st;
	MPI_Message m;
	MPI_Request r;
	int x = -1, flag = 0, i = -1, n = 0, idx[SENDERS], src;
	MPI_Status sts[SENDERS];

	switch (TAKE) {
	case TAKE_WAIT:
		MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
		MPI_Wait(&r, &st);
		break;
	case TAKE_PROBE:
		MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		MPI_Recv(&x, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
		break;
	case TAKE_IPROBE:
		while (!flag)
			MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
		MPI_Recv(&x, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, &st);
		break;
	case TAKE_WAITANY:
	case TAKE_TESTANY:
	case TAKE_WAITSOME:
		for (i = 0; i < SENDERS; i++)
			MPI_Irecv(&in[i], 1, MPI_INT, i + 1, MPI_ANY_TAG, MPI_COMM_WORLD, &rq[i]);
		if (TAKE == TAKE_WAITANY)
			MPI_Waitany(SENDERS, rq, &i, &st);
		while (TAKE == TAKE_TESTANY && !flag)
			MPI_Testany(SENDERS, rq, &i, &flag, &st);
		if (TAKE == TAKE_WAITSOME) {
			MPI_Waitsome(SENDERS, rq, &n, idx, sts);
			i = idx[0];
			st = sts[0];
		}
		x = in[i];
		break;
	case TAKE_MPROBE:
		MPI_Mprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &m, &st);
		MPI_Mrecv(&x, 1, MPI_INT, &m, &st);
		break;
	case TAKE_TEST:
		MPI_Irecv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &r);
		while (!flag)
			MPI_Test(&r, &flag, &st);
		break;
	default:
		MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
		break;
	}
	if (ON == ON_VALUE)
		src = x / 10;
	else if (ON == ON_TAG)
		src = st.MPI_TAG - 100;
	else if (i >= 0)
		src = i + 1;
	else
		src = st.MPI_SOURCE;
	return src;
}

/* Take every other sender's message, from the sender named (the requests of the kinds that
 * posted one per sender: wait for what is left). */
static void rest(MPI_Request *rq, int taken)
{
	int s, x;

	if (TAKE == TAKE_WAITANY || TAKE == TAKE_TESTANY || TAKE == TAKE_WAITSOME) {
		MPI_Waitall(SENDERS, rq, MPI_STATUSES_IGNORE);
		return;
	}
	for (s = 1; s <= SENDERS; s++)
		if (s != taken)
			MPI_Recv(&x, 1, MPI_INT, s, tag_of(s), MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
	MPI_Request rq[SENDERS];
	int rank, size, in[SENDERS], x, src;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (size != SENDERS + 1)
		MPI_Abort(MPI_COMM_WORLD, 2);
	if (rank == 0) {
		src = first(rq, in);
		rest(rq, src);
		/* the branch: the late sender first */
		if (src == SENDERS && BUG == BUG_RECV)
			MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (src == SENDERS && BUG == BUG_SSEND)
			MPI_Ssend(&src, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
		if (src == SENDERS && BUG == BUG_BARRIER)
			MPI_Barrier(MPI_COMM_WORLD);
	} else {
		x = 10 * rank;
		if (rank == SENDERS)
			usleep(200000);
		MPI_Send(&x, 1, MPI_INT, 0, tag_of(rank), MPI_COMM_WORLD);
	}
	MPI_Finalize();
	return 0;
}
