/* Whether a run under way is deadlocked for good (explore_stuck_now(): verify ends such a run
 * without waiting for its timeout). A family of standstills, each rank blocked in its last
 * call (incomplete) or finished, generated over the shape, the ranks, the message size, how
 * the calls are written (blocking, or nonblocking and completed by each of MPI_Wait, Waitall,
 * Waitany and Waitsome), the blocked receive's tag (the message's, another, MPI_ANY_TAG), the
 * thread level, another thread of rank 0's (none, one yet to call MPI, one that ended, one
 * blocked) and whether the library's eager threshold is known, each with the answer it must
 * get: stuck only where no call could complete, whatever the library did next, and never
 * while a thread that may still call MPI has not. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "unit.h"
#include "xalloc.h"

enum shape {
	SHAPE_SEND_RING,    /* each rank sends to the next, none receives */
	SHAPE_RECV_RING,    /* each rank receives from the one before, none sends */
	SHAPE_IN_FLIGHT,    /* rank 0 sends to 1, which receives it: a transfer under way */
	SHAPE_SENT_WAITING, /* rank 1 sent and finished; rank 0's receive of it blocks */
	SHAPE_ALL_IN_COLL,  /* every rank in the same barrier: a collective under way */
	SHAPE_COLL_MISSING, /* the others in a barrier, rank 0 receiving from rank 1 */
	SHAPE_WILDCARD,	    /* rank 0's wildcard took rank 1's message, then waits for rank 1 */
	SHAPE_NSHAPES
};

static const char *const shape_names[] = {"send-ring",	  "recv-ring",	 "in-flight",
					  "sent-waiting", "all-in-coll", "coll-missing",
					  "wildcard"};

/* How a call is written: blocking, or nonblocking and completed by one of the waits. */
enum how { HOW_BLOCKING, HOW_WAIT, HOW_WAITALL, HOW_WAITANY, HOW_WAITSOME, HOW_N };

static const char *const how_names[] = {"blocking", "MPI_Wait", "MPI_Waitall", "MPI_Waitany",
					"MPI_Waitsome"};

/* The tag of the blocked receive: the message's, another, MPI_ANY_TAG. */
static const int tags[] = {0, 5, -1};

/* The completion of request req (took: its match, or "" while it waits), blocked or not. A
 * blocked MPI_Waitany or MPI_Waitsome lists its request as pending, as the recorder does. */
static void complete(struct unit_buf *b, enum how how, int req, const char *took, int blocked)
{
	unit_add(b, "}, {\"call\": \"%s\", \"reqs\": [{\"req\": %d%s}]%s%s}", how_names[how], req,
		 took,
		 blocked && (how == HOW_WAITANY || how == HOW_WAITSOME) ? ", \"pending\": 1" : "",
		 blocked ? ", \"incomplete\": true" : "");
}

/* A send to peer with tag 0, blocked (the last call) or complete. */
static void send_to(struct unit_buf *b, int peer, long bytes, enum how how, int blocked)
{
	if (how == HOW_BLOCKING) {
		unit_add(b,
			 ", {\"call\": \"MPI_Send\", \"peer\": %d, \"tag\": 0, \"comm\": 0, "
			 "\"bytes\": %ld%s}",
			 peer, bytes, blocked ? ", \"incomplete\": true" : "");
		return;
	}
	unit_add(b,
		 ", {\"call\": \"MPI_Isend\", \"peer\": %d, \"tag\": 0, \"comm\": 0, "
		 "\"bytes\": %ld, \"req\": 1",
		 peer, bytes);
	complete(b, how, 1, "", blocked);
}

/* A receive from peer (-1: MPI_ANY_SOURCE) with tag, blocked, or complete with the message of
 * src. */
static void recv_from(struct unit_buf *b, int peer, int tag, long bytes, enum how how, int blocked,
		      int src)
{
	char from[16], with[16], took[32] = "";

	snprintf(from, sizeof(from), peer < 0 ? "\"any\"" : "%d", peer);
	snprintf(with, sizeof(with), tag < 0 ? "\"any\"" : "%d", tag);
	if (!blocked)
		snprintf(took, sizeof(took), ", \"src\": %d", src);
	if (how == HOW_BLOCKING) {
		unit_add(b,
			 ", {\"call\": \"MPI_Recv\", \"peer\": %s, \"tag\": %s, \"comm\": 0, "
			 "\"bytes\": %ld%s%s}",
			 from, with, bytes, took, blocked ? ", \"incomplete\": true" : "");
		return;
	}
	unit_add(b,
		 ", {\"call\": \"MPI_Irecv\", \"peer\": %s, \"tag\": %s, \"comm\": 0, "
		 "\"bytes\": %ld, \"req\": 2",
		 from, with, bytes);
	complete(b, how, 2, took, blocked);
}

static void finalize(struct unit_buf *b)
{
	unit_add(b, ", {\"call\": \"MPI_Finalize\"}");
}

/* Another thread of rank 0 (MPI_THREAD_MULTIPLE), made when MPI was initialised: none, one
 * that made no MPI call yet, one that ended, one blocked in a receive nothing sends. */
enum extra { EXTRA_NONE, EXTRA_IDLE, EXTRA_ENDED, EXTRA_BLOCKED, EXTRA_N };

static const char *const extra_names[] = {"no other thread", "a thread yet to call MPI",
					  "a thread that ended", "a thread blocked"};

/* Rank r's trace of the standstill. */
static char *rank_trace(enum shape shape, int r, int n, long bytes, enum how how, int tag,
			int level, int eager_known, enum extra extra)
{
	struct unit_buf b = {0};

	unit_add(&b, "\"rank\": %d, \"size\": %d, \"thread_level\": %d, \"library\": \"%s\", ", r,
		 n, level, eager_known ? "MPICH Version:\\t4.0.2" : "an MPI library");
	if (r == 0 && extra != EXTRA_NONE)
		unit_add(&b,
			 "\"threads\": [{\"op\": \"create\", \"thread\": 0, \"other\": 1, "
			 "\"before\": 1}%s], ",
			 extra == EXTRA_ENDED ? ", {\"op\": \"exit\", \"thread\": 1, \"other\": "
						"1, \"before\": 1}" :
						"");
	unit_add(&b, "\"events\": [{\"call\": \"%s\"}", level ? "MPI_Init_thread" : "MPI_Init");
	if (r == 0 && extra == EXTRA_BLOCKED)
		unit_add(&b, ", {\"call\": \"MPI_Recv\", \"peer\": 1, \"tag\": 9, \"comm\": 0, "
			     "\"bytes\": 4, \"thread\": 1, \"incomplete\": true}");
	switch (shape) {
	case SHAPE_SEND_RING:
		send_to(&b, (r + 1) % n, bytes, how, 1);
		break;
	case SHAPE_RECV_RING:
		recv_from(&b, (r + n - 1) % n, tag, bytes, how, 1, 0);
		break;
	case SHAPE_IN_FLIGHT:
		if (r == 0)
			send_to(&b, 1, bytes, how, 1);
		else if (r == 1)
			recv_from(&b, 0, tag, bytes, how, 1, 0);
		else
			finalize(&b);
		break;
	case SHAPE_SENT_WAITING:
		if (r == 0)
			recv_from(&b, 1, tag, bytes, how, 1, 0);
		else if (r == 1)
			send_to(&b, 0, bytes, how, 0);
		if (r != 0)
			finalize(&b);
		break;
	case SHAPE_ALL_IN_COLL:
		unit_add(&b, ", {\"call\": \"MPI_Barrier\", \"comm\": 0, \"incomplete\": true}");
		break;
	case SHAPE_COLL_MISSING:
		if (r == 0)
			recv_from(&b, 1, tag, bytes, how, 1, 0);
		else
			unit_add(
				&b,
				", {\"call\": \"MPI_Barrier\", \"comm\": 0, \"incomplete\": true}");
		break;
	default: /* SHAPE_WILDCARD */
		if (r == 0) {
			recv_from(&b, -1, 0, 4, how, 0, 1);
			recv_from(&b, 1, tag, 4, how, 1, 0);
		} else {
			send_to(&b, 0, 4, how, 0);
			finalize(&b);
		}
		break;
	}
	unit_add(&b, "]");
	return b.s;
}

/* The answer the standstill must get. */
static int expected(enum shape shape, long bytes, int tag, int eager_known, enum extra extra)
{
	int unbufferable = eager_known && bytes > 8255;

	/* the other thread may be about to call MPI */
	if (extra == EXTRA_IDLE)
		return 0;
	/* a receive from rank 1 nothing sends: for good once rank 1 finished, whatever the
	 * rest can do (and where rank 1 may go on, only if the rest is stuck) */
	if (extra == EXTRA_BLOCKED && (shape == SHAPE_SENT_WAITING || shape == SHAPE_WILDCARD))
		return 1;
	switch (shape) {
	case SHAPE_SEND_RING: /* a send the library may still buffer could complete */
		return unbufferable;
	case SHAPE_IN_FLIGHT: /* a match, unless the receive wants another tag */
		return tag == 5 && unbufferable;
	case SHAPE_SENT_WAITING: /* the message waits, for a receive of its tag */
		return tag == 5;
	case SHAPE_RECV_RING:
	case SHAPE_COLL_MISSING:
	case SHAPE_WILDCARD:
		return 1;
	default: /* a match, a message, a collective: a call can complete */
		return 0;
	}
}

/* One standstill: its answer against the expected one. */
static int one_case(enum shape shape, int n, long bytes, enum how how, int tag, int level,
		    int known, enum extra extra, int *stuck)
{
	char *ranks[5] = {NULL};
	struct mpiv_traceset ts;
	int r, want, got;

	for (r = 0; r < n; r++)
		ranks[r] = rank_trace(shape, r, n, bytes, how, tag, level, known, extra);
	if (unit_load_ranks((const char *const *)ranks, &ts) != 0) {
		fprintf(stderr, "\n%s, %d ranks, %s, tag %d: did not load", shape_names[shape], n,
			how_names[how], tag);
		CU_FAIL("a standstill did not load");
		got = -1;
	} else {
		want = expected(shape, bytes, tag, known, extra);
		got = explore_stuck_now(&ts, NULL);
		if (got != want)
			fprintf(stderr,
				"\n%s, %d ranks, %ld bytes, %s, tag %d, thread level %d, %s, "
				"eager %s: stuck %d, expected %d",
				shape_names[shape], n, bytes, how_names[how], tag, level,
				extra_names[extra], known ? "known" : "unknown", got, want);
		CU_ASSERT_EQUAL(got, want);
		*stuck += got;
		mpiv_traceset_release(&ts);
	}
	for (r = 0; r < n; r++)
		free(ranks[r]);
	return got >= 0;
}

/* The thread levels and other threads each standstill is tried with: MPI_THREAD_SINGLE, and
 * MPI_THREAD_MULTIPLE with each enum extra. */
static void each_form(enum shape shape, int n, long bytes, enum how how, int tag, int *cases,
		      int *stuck)
{
	int known, form;

	for (form = 0; form <= EXTRA_N; form++)
		for (known = 0; known < 2; known++)
			*cases += one_case(shape, n, bytes, how, tag, form ? 3 : 0, known,
					   form ? (enum extra)(form - 1) : EXTRA_NONE, stuck);
}

static void test_family(void)
{
	static const long sizes[] = {4, 1 << 20};
	int shape, n, s, how, t, cases = 0, stuck = 0;

	for (shape = 0; shape < SHAPE_NSHAPES; shape++)
		for (n = 2; n <= 4; n++)
			for (s = 0; s < 2; s++)
				for (how = 0; how < HOW_N; how++)
					for (t = 0; t < 3; t++)
						if (shape != SHAPE_WILDCARD || n == 3)
							each_form(shape, n, sizes[s], how, tags[t],
								  &cases, &stuck);
	/* both answers, many times each */
	CU_ASSERT(stuck >= 200 && cases - stuck >= 500);
}

/* A rank that is neither blocked nor finished (computing, between calls): no judgement. */
static void test_rank_running(void)
{
	const char *const ranks[] = {
		"\"rank\": 0, \"size\": 2, \"events\": [{\"call\": \"MPI_Init\"}, {\"call\": "
		"\"MPI_Recv\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4, \"incomplete\": "
		"true}]",
		"\"rank\": 1, \"size\": 2, \"events\": [{\"call\": \"MPI_Init\"}]", NULL};
	struct mpiv_traceset ts;

	CU_ASSERT_FATAL(unit_load_ranks(ranks, &ts) == 0);
	CU_ASSERT_EQUAL(explore_stuck_now(&ts, NULL), 0);
	mpiv_traceset_release(&ts);
}

static CU_TestInfo tests[] = {
	{"the standstill family: stuck exactly where no call can complete", test_family},
	{"a rank outside MPI leaves the run unjudged", test_rank_running},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo stuck_suite = {"stuck", NULL, NULL, NULL, NULL, tests};
