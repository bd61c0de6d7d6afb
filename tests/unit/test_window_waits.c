/* Who waits for whom from each rank's window of last calls (common/window_waits.c): rings
 * both ways at 4 and 16 ranks, a task farm at 16, a collective one rank never reaches, completion calls whose
 * requests the window made or did not, MPI_ANY_SOURCE, a rank that finished, a collective on a
 * communicator the window does not know, a rank killed in its call, persistent requests
 * made in the window or before it (its live records, or none), and MPI_Rput's request. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"
#include "unit.h"
#include "window_waits.h"

#define MAXR 16
#define FIRST 1000 /* every window starts at this event */

/* A job of n ranks whose windows are built event by event. */
struct job {
	struct mpiv_traceset ts;
	struct mpiv_rank_trace t[MAXR];
	struct mpiv_event ev[MAXR][4];
	struct mpiv_reqinfo req[MAXR][4];
};

static void job_start(struct job *j, int n)
{
	int r;

	memset(j, 0, sizeof(*j));
	j->ts.nranks = n;
	j->ts.ranks = j->t;
	for (r = 0; r < n; r++) {
		j->t[r].rank = r;
		j->t[r].size = n;
		j->t[r].first = FIRST;
		j->t[r].events = j->ev[r];
	}
}

/* Append to rank r's window a call with peer, comm, request id req (-1: none); blocked: its
 * last call, not returned. Returns the event. */
static struct mpiv_event *add(struct job *j, int r, unsigned call, int32_t peer, int32_t comm,
			      int32_t req, int blocked)
{
	struct mpiv_rank_trace *t = &j->t[r];
	struct mpiv_event *ev = &j->ev[r][t->nevents];

	mpiv_event_init(ev, call);
	ev->index = FIRST + (uint32_t)t->nevents;
	ev->peer = peer;
	ev->comm = comm;
	if (req >= 0) {
		j->req[r][t->nevents].req = req;
		j->req[r][t->nevents].src = j->req[r][t->nevents].tag = MPIV_NONE;
		ev->nreqs = 1;
		ev->reqs = &j->req[r][t->nevents];
	}
	if (blocked)
		ev->flags = MPIV_EV_INCOMPLETE;
	t->nevents++;
	return ev;
}

/* What mpiv_window_waits() prints of j. */
static char *waits(struct job *j)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_FATAL(f != NULL);
	mpiv_window_waits(f, &j->ts);
	fclose(f);
	return text;
}

#define HEAD "who waits for whom, from each rank's last calls (record --last):\n"

static void expect(struct job *j, const char *want)
{
	char *got = waits(j);

	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want))
		fprintf(stderr, "\ngot:\n%swant:\n%s", got, want);
	free(got);
}

static void test_rings(void)
{
	struct job j;
	int r;

	/* each receives from its right: rank by rank at 4 */
	job_start(&j, 4);
	for (r = 0; r < 4; r++)
		add(&j, r, MPIV_CALL_Recv, (r + 1) % 4, MPIV_COMM_WORLD, -1, 1);
	expect(&j, HEAD "  rank 0: in MPI_Recv, waiting for rank 1\n"
			"  rank 1: in MPI_Recv, waiting for rank 2\n"
			"  rank 2: in MPI_Recv, waiting for rank 3\n"
			"  rank 3: in MPI_Recv, waiting for rank 0\n"
			"  a wait-for cycle of 4 ranks: 0 -> ... -> 3 -> 0\n");
	/* the other way at 4: one rank inside the run, printed */
	job_start(&j, 4);
	for (r = 0; r < 4; r++)
		add(&j, r, MPIV_CALL_Recv, (r + 3) % 4, MPIV_COMM_WORLD, -1, 1);
	expect(&j, HEAD "  rank 0: in MPI_Recv, waiting for rank 3\n"
			"  rank 1: in MPI_Recv, waiting for rank 0\n"
			"  rank 2: in MPI_Recv, waiting for rank 1\n"
			"  rank 3: in MPI_Recv, waiting for rank 2\n"
			"  a wait-for cycle of 4 ranks: 0 -> 3 -> 2 -> 1 -> 0\n");
	/* one class at 16, and a cycle the other way, through requests of the window */
	job_start(&j, 16);
	for (r = 0; r < 16; r++) {
		add(&j, r, MPIV_CALL_Irecv, (r + 15) % 16, MPIV_COMM_WORLD, 7, 0);
		add(&j, r, MPIV_CALL_Wait, MPIV_NONE, MPIV_NONE, 7, 1);
	}
	expect(&j, HEAD "  ranks 0-15 (16): in MPI_Wait, waiting for its rank - 1\n"
			"  a wait-for cycle of 16 ranks: 0 -> 15 -> ... -> 1 -> 0\n");
	/* head to head in pairs: two cycles, the first named */
	job_start(&j, 4);
	for (r = 0; r < 4; r++)
		add(&j, r, MPIV_CALL_Ssend, r ^ 1, MPIV_COMM_WORLD, -1, 1);
	expect(&j, HEAD "  rank 0: in MPI_Ssend, waiting for rank 1\n"
			"  rank 1: in MPI_Ssend, waiting for rank 0\n"
			"  rank 2: in MPI_Ssend, waiting for rank 3\n"
			"  rank 3: in MPI_Ssend, waiting for rank 2\n"
			"  a wait-for cycle of 2 ranks: 0 -> 1 -> 0\n");
	/* a task farm at 16: the manager takes answers from any rank, every worker waits for
	 * it, one class named by the rank they share */
	job_start(&j, 16);
	add(&j, 0, MPIV_CALL_Recv, MPIV_ANY_SOURCE, MPIV_COMM_WORLD, -1, 1);
	for (r = 1; r < 16; r++)
		add(&j, r, MPIV_CALL_Recv, 0, MPIV_COMM_WORLD, -1, 1);
	expect(&j, HEAD "  rank 0: in MPI_Recv, waiting for any rank (MPI_ANY_SOURCE)\n"
			"  ranks 1-15 (15): in MPI_Recv, waiting for rank 0\n");
}

static void test_collective(void)
{
	struct job j;
	int r;

	/* rank 0 receives from 1, which waits in the barrier with the others */
	job_start(&j, 12);
	add(&j, 0, MPIV_CALL_Recv, 1, MPIV_COMM_WORLD, -1, 1);
	for (r = 1; r < 12; r++)
		add(&j, r, MPIV_CALL_Barrier, MPIV_NONE, MPIV_COMM_WORLD, -1, 1);
	expect(&j, HEAD "  rank 0: in MPI_Recv, waiting for rank 1\n"
			"  ranks 1-11 (11): in MPI_Barrier, waiting for rank 0\n"
			"  a wait-for cycle of 2 ranks: 0 -> 1 -> 0\n");
	/* every rank in it but 3, which finished: no cycle */
	job_start(&j, 4);
	for (r = 0; r < 3; r++)
		add(&j, r, MPIV_CALL_Allreduce, MPIV_NONE, MPIV_COMM_WORLD, -1, 1);
	add(&j, 3, MPIV_CALL_Finalize, MPIV_NONE, MPIV_NONE, -1, 0);
	j.t[3].end = MPIV_END_FINALIZED;
	expect(&j, HEAD "  rank 0: in MPI_Allreduce, waiting for rank 3, which finished\n"
			"  rank 1: in MPI_Allreduce, waiting for rank 3, which finished\n"
			"  rank 2: in MPI_Allreduce, waiting for rank 3, which finished\n"
			"  rank 3: finished\n");
	/* a persistent barrier started and waited for, rank 1 in a receive from rank 0 */
	job_start(&j, 2);
	add(&j, 0, MPIV_CALL_Barrier_init, MPIV_NONE, MPIV_COMM_WORLD, 5, 0);
	add(&j, 0, MPIV_CALL_Start, MPIV_NONE, MPIV_NONE, 5, 0);
	add(&j, 0, MPIV_CALL_Wait, MPIV_NONE, MPIV_NONE, 5, 1);
	add(&j, 1, MPIV_CALL_Recv, 0, MPIV_COMM_WORLD, -1, 1);
	expect(&j, HEAD "  rank 0: in MPI_Wait, waiting for rank 1\n"
			"  rank 1: in MPI_Recv, waiting for rank 0\n"
			"  a wait-for cycle of 2 ranks: 0 -> 1 -> 0\n");
	/* on a communicator made before the window: its members are not known */
	job_start(&j, 2);
	add(&j, 0, MPIV_CALL_Barrier, MPIV_NONE, 2, -1, 1);
	add(&j, 1, MPIV_CALL_Recv, 0, MPIV_COMM_WORLD, -1, 1);
	expect(&j, HEAD "  rank 0: in MPI_Barrier: a collective on a communicator made before "
			"the window: its members are not known\n"
			"  rank 1: in MPI_Recv, waiting for rank 0\n");
	/* in halves made before the window (their comm records written again at its start):
	 * rank 1 waits in its half's barrier for rank 0, which receives from it; 2 and 3, in
	 * MPI_COMM_WORLD's, wait for both, a barrier of another communicator being no part of
	 * theirs */
	{
		struct mpiv_newcomm halves[4] = {{1, 2, 2, NULL},
						 {1, 2, 2, NULL},
						 {1, 2, 2, NULL},
						 {1, 2, 2, NULL}};
		int32_t lo[] = {0, 1}, hi[] = {2, 3};

		job_start(&j, 4);
		for (r = 0; r < 4; r++) {
			halves[r].members = r < 2 ? lo : hi;
			j.t[r].comms = &halves[r];
			j.t[r].ncomms = 1;
		}
		add(&j, 0, MPIV_CALL_Recv, 1, MPIV_COMM_WORLD, -1, 1);
		add(&j, 1, MPIV_CALL_Barrier, MPIV_NONE, 2, -1, 1);
		add(&j, 2, MPIV_CALL_Barrier, MPIV_NONE, MPIV_COMM_WORLD, -1, 1);
		add(&j, 3, MPIV_CALL_Barrier, MPIV_NONE, MPIV_COMM_WORLD, -1, 1);
		expect(&j, HEAD "  rank 0: in MPI_Recv, waiting for rank 1\n"
				"  rank 1: in MPI_Barrier, waiting for rank 0\n"
				"  rank 2: in MPI_Barrier, waiting for ranks 0-1 (2)\n"
				"  rank 3: in MPI_Barrier, waiting for ranks 0-1 (2)\n"
				"  a wait-for cycle of 2 ranks: 0 -> 1 -> 0\n");
	}
}

static void test_unknown(void)
{
	struct job j;

	/* a wait for a request made before the window; a wildcard receive; a rank outside MPI;
	 * a rank killed in its blocked call (record ends a hung job so) */
	job_start(&j, 4);
	add(&j, 0, MPIV_CALL_Wait, MPIV_NONE, MPIV_NONE, 3, 1);
	add(&j, 1, MPIV_CALL_Recv, MPIV_ANY_SOURCE, MPIV_COMM_WORLD, -1, 1);
	add(&j, 2, MPIV_CALL_Send, 1, MPIV_COMM_WORLD, -1, 0);
	add(&j, 3, MPIV_CALL_Recv, 2, MPIV_COMM_WORLD, -1, 1);
	j.t[3].end = MPIV_END_SIGNAL;
	j.t[3].end_code = 15;
	expect(&j, HEAD "  rank 0: in MPI_Wait: a request made before the window: whom it waits "
			"for is not known\n"
			"  rank 1: in MPI_Recv, waiting for any rank (MPI_ANY_SOURCE)\n"
			"  rank 2: not in a blocking call (its MPI_Send returned)\n"
			"  rank 3: in MPI_Recv, waiting for rank 2, which is not in MPI\n");
}

/* Persistent requests, as halo exchanges make them: MPI_Recv_init in the window, or before it
 * (named by the window's live records, or not), then MPI_Start and MPI_Wait each round. */
static void test_persistent(void)
{
	struct mpiv_live_req live = {4, {0}};
	struct job j;

	job_start(&j, 3);
	add(&j, 0, MPIV_CALL_Recv_init, 1, MPIV_COMM_WORLD, 4, 0);
	add(&j, 0, MPIV_CALL_Start, MPIV_NONE, MPIV_NONE, 4, 0);
	add(&j, 0, MPIV_CALL_Wait, MPIV_NONE, MPIV_NONE, 4, 1);
	add(&j, 1, MPIV_CALL_Start, MPIV_NONE, MPIV_NONE, 4, 0);
	add(&j, 1, MPIV_CALL_Wait, MPIV_NONE, MPIV_NONE, 4, 1);
	mpiv_event_init(&live.maker, MPIV_CALL_Recv_init);
	live.maker.peer = 0;
	live.maker.comm = MPIV_COMM_WORLD;
	j.t[2].live = &live;
	j.t[2].nlive = 1;
	add(&j, 2, MPIV_CALL_Start, MPIV_NONE, MPIV_NONE, 4, 0);
	add(&j, 2, MPIV_CALL_Wait, MPIV_NONE, MPIV_NONE, 4, 1);
	expect(&j, HEAD "  rank 0: in MPI_Wait, waiting for rank 1\n"
			"  rank 1: in MPI_Wait: a request made before the window: whom it waits "
			"for is not known\n"
			"  rank 2: in MPI_Wait, waiting for rank 0\n");
}

/* A request of MPI_Rput completes without its target (doc/semantics.md 7.4): an MPI_Waitall
 * on it and a receive waits for the receive's peer alone. */
static void test_rma_request(void)
{
	struct mpiv_event *ev;
	struct job j;

	job_start(&j, 3);
	add(&j, 0, MPIV_CALL_Rput, 2, MPIV_NONE, 5, 0);
	add(&j, 0, MPIV_CALL_Irecv, 1, MPIV_COMM_WORLD, 6, 0);
	ev = add(&j, 0, MPIV_CALL_Waitall, MPIV_NONE, MPIV_NONE, 5, 1);
	j.req[0][3].req = 6;
	j.req[0][3].src = j.req[0][3].tag = MPIV_NONE;
	ev->nreqs = 2;
	add(&j, 1, MPIV_CALL_Recv, 0, MPIV_COMM_WORLD, -1, 1);
	add(&j, 2, MPIV_CALL_Win_flush, 2, MPIV_NONE, -1, 0);
	expect(&j, HEAD "  rank 0: in MPI_Waitall, waiting for rank 1\n"
			"  rank 1: in MPI_Recv, waiting for rank 0\n"
			"  rank 2: not in a blocking call (its MPI_Win_flush returned)\n"
			"  a wait-for cycle of 2 ranks: 0 -> 1 -> 0\n");
}

static CU_TestInfo window_waits_tests[] = {
	{"rings both ways, rank by rank and as a class", test_rings},
	{"collectives some never reach, on a communicator made before the window or not known",
	 test_collective},
	{"what a window cannot tell, and ranks not waiting", test_unknown},
	{"persistent requests made in the window or before it", test_persistent},
	{"a request-based one-sided call's request waits for no rank", test_rma_request},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo window_waits_suite = {"window-waits", NULL, NULL, NULL, NULL, window_waits_tests};
