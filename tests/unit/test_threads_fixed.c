/* Whether a run of threads stands for every run (explore_threads_fixed(), verify on threaded
 * programs), or for every run that decides as it did (explore_threads_steered(), verify's
 * steered runs): a family of two-rank exchanges generated over every combination of how many
 * threads, rounds, which tags, how the threads are ordered, how the calls are written and
 * what the messages carry, each with the answers it must get; then the calls that are
 * decisions whatever the threads, which steering takes where it can; and the threads' paths
 * that steering names them by. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explore.h"
#include "steer.h"
#include "trace_threads.h"
#include "unit.h"
#include "xalloc.h"

enum tags {
	TAG_OWN,    /* thread t sends and receives on tag t */
	TAG_SHARED, /* every thread on tag 0 */
	TAG_ANY,    /* tags of their own, but the receivers name MPI_ANY_TAG */
	TAG_NTAGS
};
enum order {
	ORDER_NONE,   /* the threads run side by side */
	ORDER_JOINED, /* each thread is created after the one before was joined */
	ORDER_NORDERS
};
enum style {
	STYLE_BLOCKING,	   /* MPI_Send, MPI_Recv */
	STYLE_NONBLOCKING, /* MPI_Isend, MPI_Irecv, MPI_Wait */
	STYLE_PERSISTENT,  /* MPI_Send_init, MPI_Recv_init, MPI_Start, MPI_Wait */
	STYLE_NSTYLES
};
enum data {
	DATA_UNKNOWN, /* the sends' digests are not known (a datatype not read) */
	DATA_DIFFERS, /* each thread's message of each round its own */
	DATA_SAME,    /* every message the same */
	DATA_NKINDS
};

/* One thread's call of round k, as sender (rank 0) or receiver (rank 1); *req numbers its
 * requests, *nev counts the rank's events. A blocking or nonblocking send carries data's
 * digest (a persistent one's is never compared: its channel is never alike). */
static void thread_calls(struct unit_buf *b, int sender, int t, int k, enum tags tags,
			 enum style style, enum data data, int *req, int *nev)
{
	int tag = tags == TAG_SHARED ? 0 : t;
	const char *rtag = tags == TAG_ANY && !sender ? "\"any\"" : NULL;
	char tagtext[16], digest[32] = "";

	snprintf(tagtext, sizeof(tagtext), "%d", tag);
	if (sender && data != DATA_UNKNOWN)
		snprintf(digest, sizeof(digest), ", \"data\": %d",
			 data == DATA_SAME ? 7 : 1000 + 10 * k + t);
	if (!rtag)
		rtag = tagtext;
	switch (style) {
	case STYLE_BLOCKING:
		if (sender)
			unit_add(
				b,
				",\n{\"call\": \"MPI_Send\", \"peer\": 1, \"tag\": %d, \"comm\": 0, "
				"\"bytes\": 4%s, \"thread\": %d}",
				tag, digest, t);
		else
			unit_add(
				b,
				",\n{\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": %s, \"comm\": 0, "
				"\"bytes\": 4, \"src\": 0, \"mtag\": %d, \"thread\": %d}",
				rtag, tag, t);
		*nev += 1;
		break;
	case STYLE_NONBLOCKING:
		unit_add(
			b,
			",\n{\"call\": \"%s\", \"peer\": %d, \"tag\": %s, \"comm\": 0, \"bytes\": 4"
			"%s, \"req\": %d, \"thread\": %d}",
			sender ? "MPI_Isend" : "MPI_Irecv", sender ? 1 : 0, sender ? tagtext : rtag,
			digest, *req, t);
		unit_add(b,
			 ",\n{\"call\": \"MPI_Wait\", \"reqs\": [{\"req\": %d%s}], \"thread\": %d}",
			 *req, sender ? "" : ", \"src\": 0", t);
		(*req)++;
		*nev += 2;
		break;
	default:
		if (k == 0) { /* made once, in the first round */
			unit_add(b,
				 ",\n{\"call\": \"%s\", \"peer\": %d, \"tag\": %s, \"comm\": 0, "
				 "\"bytes\": 4, \"req\": %d, \"thread\": %d}",
				 sender ? "MPI_Send_init" : "MPI_Recv_init", sender ? 1 : 0,
				 sender ? tagtext : rtag, 100 + t, t);
			*nev += 1;
		}
		unit_add(b,
			 ",\n{\"call\": \"MPI_Start\", \"reqs\": [{\"req\": %d}], \"thread\": %d}",
			 100 + t, t);
		unit_add(b,
			 ",\n{\"call\": \"MPI_Wait\", \"reqs\": [{\"req\": %d%s}], \"thread\": %d}",
			 100 + t, sender ? "" : ", \"src\": 0", t);
		*nev += 2;
		break;
	}
}

/* Rank `sender ? 0 : 1` of the exchange: nthreads threads besides the main one, each making
 * rounds calls; the events of side-by-side threads interleaved round by round, as a run
 * records them. */
static char *rank_trace(int sender, int nthreads, int rounds, enum tags tags, enum order order,
			enum style style, enum data data)
{
	struct unit_buf b = {0}, ops = {0};
	int t, k, req = 0, nev = 1;

	unit_add(&b,
		 "\"rank\": %d, \"size\": 2, \"thread_level\": 3, \"events\": [\n"
		 "{\"call\": \"MPI_Init_thread\"}",
		 sender ? 0 : 1);
	unit_add(&ops, "\"threads\": [");
	if (order == ORDER_NONE) {
		for (t = 1; t <= nthreads; t++)
			unit_add(&ops,
				 "%s{\"op\": \"create\", \"thread\": 0, \"other\": %d, "
				 "\"before\": 1}",
				 t > 1 ? ", " : "", t);
		for (k = 0; k < rounds; k++)
			for (t = 1; t <= nthreads; t++)
				thread_calls(&b, sender, t, k, tags, style, data, &req, &nev);
		for (t = 1; t <= nthreads; t++)
			unit_add(&ops,
				 ", {\"op\": \"join\", \"thread\": 0, \"other\": %d, "
				 "\"before\": %d}",
				 t, nev);
	} else {
		for (t = 1; t <= nthreads; t++) {
			unit_add(&ops,
				 "%s{\"op\": \"create\", \"thread\": 0, \"other\": %d, "
				 "\"before\": %d}",
				 t > 1 ? ", " : "", t, nev);
			for (k = 0; k < rounds; k++)
				thread_calls(&b, sender, t, k, tags, style, data, &req, &nev);
			unit_add(&ops,
				 ", {\"op\": \"join\", \"thread\": 0, \"other\": %d, "
				 "\"before\": %d}",
				 t, nev);
		}
	}
	unit_add(&b, ",\n{\"call\": \"MPI_Finalize\"}],\n%s]", ops.s);
	free(ops.s);
	return b.s;
}

/* explore_threads_fixed(), or explore_threads_steered() if steered, of ranks r0 and r1. */
static int answer_of(const char *r0, const char *r1, int steered, char *why, size_t size)
{
	const char *ranks[] = {r0, r1, NULL};
	struct mpiv_traceset ts;
	int fixed;

	if (unit_load_ranks(ranks, &ts))
		return -1;
	fixed = steered ? explore_threads_steered(&ts, why, size) :
			  explore_threads_fixed(&ts, why, size);
	mpiv_traceset_release(&ts);
	return fixed;
}

static int fixed_of(const char *r0, const char *r1, char *why, size_t size)
{
	return answer_of(r0, r1, 0, why, size);
}

static int steered_of(const char *r0, const char *r1, char *why, size_t size)
{
	return answer_of(r0, r1, 1, why, size);
}

static void test_family(void)
{
	static const char *const tag_names[] = {"own tags", "one tag", "MPI_ANY_TAG"};
	static const char *const order_names[] = {"side by side", "one after another"};
	static const char *const style_names[] = {"blocking", "nonblocking", "persistent"};
	static const char *const data_names[] = {"data not known", "data that differs",
						 "the same data"};
	int nthreads, rounds, tags, order, style, data, cases = 0, wrong = 0;
	char why[1536];

	for (nthreads = 1; nthreads <= 3; nthreads++)
		for (rounds = 1; rounds <= 3; rounds++)
			for (tags = 0; tags < TAG_NTAGS; tags++)
				for (order = 0; order < ORDER_NORDERS; order++)
					for (style = 0; style < STYLE_NSTYLES; style++)
						for (data = 0; data < DATA_NKINDS; data++) {
							char *r0 = rank_trace(1, nthreads, rounds,
									      tags, order, style,
									      data);
							char *r1 = rank_trace(0, nthreads, rounds,
									      tags, order, style,
									      data);
							/* a choice: two threads that can meet one
							 * message, nothing ordering them, and
							 * messages that are not all alike (a
							 * persistent send's, or their tags under
							 * MPI_ANY_TAG, are not) */
							int alike = data == DATA_SAME &&
								    style != STYLE_PERSISTENT &&
								    tags == TAG_SHARED;
							int want = nthreads == 1 ||
								   order == ORDER_JOINED ||
								   tags == TAG_OWN || alike;
							int got;

							/* steered runs take no order among alike
							 * messages for granted */
							if (steered_of(r0, r1, why, sizeof(why)) !=
							    (want && !(alike && nthreads > 1 &&
								       order == ORDER_NONE)))
								wrong++;
							why[0] = '\0';
							got = fixed_of(r0, r1, why, sizeof(why));
							cases++;
							if (got != want) {
								wrong++;
								fprintf(stderr,
									"\n%d threads, %d rounds, %s, "
									"%s, %s, %s: got %d, want %d "
									"(%s)",
									nthreads, rounds,
									tag_names[tags],
									order_names[order],
									style_names[style],
									data_names[data], got, want,
									why);
							}
							/* the reason names both threads'
							 * calls */
							if (!got &&
							    !strstr(why, "in no order the program"))
								wrong++;
							free(r0);
							free(r1);
						}
	CU_ASSERT_EQUAL(cases, 3 * 3 * TAG_NTAGS * ORDER_NORDERS * STYLE_NSTYLES * DATA_NKINDS);
	CU_ASSERT_EQUAL(wrong, 0);
}

#define HEAD \
	"\"rank\": %d, \"size\": 2, \"thread_level\": 3, \"events\": [{\"call\": \"MPI_Init_thread\"}"

/* Calls that leave a choice in any program: a receive from any sender, MPI_Waitany that had
 * several to choose from, and collectives of two threads on one communicator unless one
 * thread was joined before the other was created. */
static void test_decisions(void)
{
	static const char *const peer =
		"\"rank\": 0, \"size\": 2, \"thread_level\": 3, \"events\": [{\"call\": "
		"\"MPI_Init_thread\"}, {\"call\": \"MPI_Send\", \"peer\": 1, \"tag\": 0, \"comm\": "
		"0, \"bytes\": 4}, {\"call\": \"MPI_Finalize\"}]";
	static const char *const any_source =
		"\"rank\": 1, \"size\": 2, \"thread_level\": 3, \"events\": [{\"call\": "
		"\"MPI_Init_thread\"}, {\"call\": \"MPI_Recv\", \"peer\": \"any\", \"tag\": 0, "
		"\"comm\": 0, \"bytes\": 4, \"src\": 0, \"mtag\": 0}, {\"call\": \"MPI_Finalize\"}]";
	static const char *const waitany =
		"\"rank\": 1, \"size\": 2, \"thread_level\": 3, \"events\": [{\"call\": "
		"\"MPI_Init_thread\"}, {\"call\": \"MPI_Irecv\", \"peer\": 0, \"tag\": 0, \"comm\": "
		"0, \"bytes\": 4, \"req\": 0}, {\"call\": \"MPI_Irecv\", \"peer\": 0, \"tag\": 1, "
		"\"comm\": 0, \"bytes\": 4, \"req\": 1}, {\"call\": \"MPI_Waitany\", \"reqs\": "
		"[{\"req\": 0, \"src\": 0, \"tag\": 0}, {\"req\": 1}], \"npending\": 1}, {\"call\": "
		"\"MPI_Finalize\"}]";
	char a[1024], b[1024], why[1536];
	int joined;

	CU_ASSERT_EQUAL(fixed_of(peer, any_source, why, sizeof(why)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "takes any sender's message"));
	CU_ASSERT_EQUAL(fixed_of(peer, waitany, why, sizeof(why)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "completes one of several requests"));
	/* threads 1 and 2 of each rank in a barrier on one communicator: side by side, and
	 * thread 2 created once thread 1 was joined */
	for (joined = 0; joined < 2; joined++) {
		int r;

		for (r = 0; r < 2; r++)
			snprintf(r ? b : a, sizeof(a),
				 HEAD ", {\"call\": \"MPI_Barrier\", \"comm\": 0, \"thread\": 1}, "
				      "{\"call\": \"MPI_Barrier\", \"comm\": 0, \"thread\": 2}, "
				      "{\"call\": \"MPI_Finalize\"}], \"threads\": [{\"op\": "
				      "\"create\", \"thread\": 0, \"other\": 1, \"before\": 1}, "
				      "%s{\"op\": \"create\", \"thread\": 0, \"other\": 2, "
				      "\"before\": %d}]",
				 r,
				 joined ? "{\"op\": \"join\", \"thread\": 0, \"other\": 1, "
					  "\"before\": 2}, " :
					  "",
				 joined ? 2 : 1);
		CU_ASSERT_EQUAL(fixed_of(a, b, why, sizeof(why)), joined);
	}
}

/* A rank of four threads: main (0) makes thread 1, then thread 2, which makes thread 3 (if
 * told: else the trace does not hold thread 1's creation); thread 1 receives from any sender
 * on tag 1, main on tag 0 from rank 0, after joining thread 1 if joined. */
static char *threads_rank(int joined, int told)
{
	struct unit_buf b = {0};

	unit_add(&b,
		 HEAD ", {\"call\": \"MPI_Recv\", \"peer\": \"any\", \"tag\": 1, \"comm\": 0, "
		      "\"bytes\": 4, \"src\": 0, \"mtag\": 1, \"thread\": 1}, {\"call\": "
		      "\"MPI_Recv\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, "
		      "{\"call\": \"MPI_Finalize\"}], \"threads\": [%s{\"op\": \"create\", "
		      "\"thread\": 0, \"other\": 2, \"before\": 1}, {\"op\": \"create\", "
		      "\"thread\": 2, \"other\": 3, \"before\": 1}%s]",
		 1,
		 told ? "{\"op\": \"create\", \"thread\": 0, \"other\": 1, \"before\": 1}, " : "",
		 joined ? ", {\"op\": \"join\", \"thread\": 0, \"other\": 1, \"before\": 2}" : "");
	return b.s;
}

/* What steering takes: a thread's receive from any sender, if the trace holds the thread's
 * creation, unless another thread of the rank may receive from the same communicator in no
 * order the program sets; an MPI_Waitany in a rank whose calls come from one thread only. */
static void test_steered_decisions(void)
{
	static const char *const peer =
		"\"rank\": 0, \"size\": 2, \"thread_level\": 3, \"events\": [{\"call\": "
		"\"MPI_Init_thread\"}, {\"call\": \"MPI_Send\", \"peer\": 1, \"tag\": 0, \"comm\": "
		"0, \"bytes\": 4}, {\"call\": \"MPI_Send\", \"peer\": 1, \"tag\": 5, \"comm\": 0, "
		"\"bytes\": 4}, {\"call\": \"MPI_Finalize\"}]";
	static const char *const waitany_alone =
		"\"rank\": 1, \"size\": 2, \"thread_level\": 3, \"events\": [{\"call\": "
		"\"MPI_Init_thread\"}, {\"call\": \"MPI_Irecv\", \"peer\": 0, \"tag\": 0, \"comm\": "
		"0, \"bytes\": 4, \"req\": 0}, {\"call\": \"MPI_Irecv\", \"peer\": 0, \"tag\": 5, "
		"\"comm\": 0, \"bytes\": 4, \"req\": 1}, {\"call\": \"MPI_Waitany\", \"reqs\": "
		"[{\"req\": 0, \"src\": 0, \"tag\": 0}, {\"req\": 1}], \"npending\": 1}, {\"call\": "
		"\"MPI_Finalize\"}]";
	/* main's MPI_Waitany, thread 1 sending beside it: with MPI_Send, no request; with
	 * MPI_Isend, a request of its own; or thread 1's MPI_Waitany, of main's requests */
	static const char *const waitany_beside =
		"\"rank\": 1, \"size\": 2, \"thread_level\": 3, \"events\": [{\"call\": "
		"\"MPI_Init_thread\"}, {\"call\": \"MPI_Irecv\", \"peer\": 0, \"tag\": 0, \"comm\": "
		"0, \"bytes\": 4, \"req\": 0}, {\"call\": \"MPI_Irecv\", \"peer\": 0, \"tag\": 5, "
		"\"comm\": 0, \"bytes\": 4, \"req\": 1}, {\"call\": \"%s\", \"peer\": 0, \"tag\": 9, "
		"\"comm\": 0, \"bytes\": 4, \"thread\": 1%s}, {\"call\": \"MPI_Waitany\", \"reqs\": "
		"[{\"req\": 0, \"src\": 0, \"tag\": 0}, {\"req\": 1}], \"npending\": 1, \"thread\": "
		"%d}, {\"call\": \"MPI_Finalize\"}], \"threads\": [{\"op\": \"create\", \"thread\": "
		"0, \"other\": 1, \"before\": 1}]";
	char beside[1024];
	char why[1536], *r1;

	/* steered: the wildcard thread joined before main receives */
	r1 = threads_rank(1, 1);
	CU_ASSERT_EQUAL(steered_of(peer, r1, why, sizeof(why)), 1);
	CU_ASSERT_EQUAL(fixed_of(peer, r1, why, sizeof(why)), 0);
	free(r1);
	/* side by side with main's receive on the same communicator: it competes */
	r1 = threads_rank(0, 1);
	CU_ASSERT_EQUAL(steered_of(peer, r1, why, sizeof(why)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "some from MPI_ANY_SOURCE"));
	free(r1);
	/* a thread whose creation the trace does not hold has no path */
	r1 = threads_rank(1, 0);
	CU_ASSERT_EQUAL(steered_of(peer, r1, why, sizeof(why)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "whose creation the trace does not hold"));
	free(r1);
	/* MPI_Waitany: steered where the thread that calls it made its requests, beside a
	 * thread that makes none or its own (steering numbers a thread's requests on their
	 * own), not where it completes another thread's */
	CU_ASSERT_EQUAL(steered_of(peer, waitany_alone, why, sizeof(why)), 1);
	snprintf(beside, sizeof(beside), waitany_beside, "MPI_Send", "", 0);
	CU_ASSERT_EQUAL(steered_of(peer, beside, why, sizeof(why)), 1);
	snprintf(beside, sizeof(beside), waitany_beside, "MPI_Isend", ", \"req\": 2", 0);
	CU_ASSERT_EQUAL(steered_of(peer, beside, why, sizeof(why)), 1);
	snprintf(beside, sizeof(beside), waitany_beside, "MPI_Send", "", 1);
	CU_ASSERT_EQUAL(steered_of(peer, beside, why, sizeof(why)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "of requests another thread made"));
}

/* Paths: main is "0", the k-th thread a thread made is its path and ".k"; a thread whose
 * creation is not recorded, or a path longer than the room, has none. */
static void test_thread_paths(void)
{
	static const char *const peer =
		"\"rank\": 0, \"size\": 2, \"thread_level\": 3, \"events\": [{\"call\": "
		"\"MPI_Init_thread\"}, {\"call\": \"MPI_Finalize\"}]";
	const char *ranks[] = {peer, NULL, NULL};
	struct mpiv_traceset ts;
	char *r = threads_rank(1, 1), buf[MPIV_STEER_PATH];
	const struct mpiv_rank_trace *t;

	ranks[1] = r;
	CU_ASSERT_FATAL(unit_load_ranks(ranks, &ts) == 0);
	t = &ts.ranks[1];
	CU_ASSERT_EQUAL(mpiv_thread_path(t, 0, buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "0");
	CU_ASSERT_EQUAL(mpiv_thread_path(t, 1, buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "0.1");
	CU_ASSERT_EQUAL(mpiv_thread_path(t, 2, buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "0.2");
	CU_ASSERT_EQUAL(mpiv_thread_path(t, 3, buf, sizeof(buf)), 0);
	CU_ASSERT_STRING_EQUAL(buf, "0.2.1");
	CU_ASSERT(mpiv_steer_path_valid(buf));
	CU_ASSERT_EQUAL(mpiv_thread_path(t, 4, buf, sizeof(buf)), -1);
	CU_ASSERT_EQUAL(mpiv_thread_path(t, 3, buf, 5), -1);
	mpiv_traceset_release(&ts);
	free(r);
}

static CU_TestInfo tests[] = {
	{"the exchange family: fixed exactly where no two threads can meet one message",
	 test_family},
	{"decisions and shared collectives are never fixed", test_decisions},
	{"steering takes a thread's decisions where nothing else competes", test_steered_decisions},
	{"threads are named by their creators, the same in every run", test_thread_paths},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo threads_fixed_suite = {"threads-fixed", NULL, NULL, NULL, NULL, tests};
