/* The translator: instructions from events, sizes from the trace, and the traces it refuses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tr_reqmap.h"
#include "translate.h"
#include "unit.h"

static void test_instructions(void)
{
	const char *const ev[] = {
		"[{\"call\":\"MPI_Init\"},"
		"{\"call\":\"MPI_Irecv\",\"peer\":\"any\",\"tag\":\"any\",\"comm\":0,\"req\":0},"
		"{\"call\":\"MPI_Send\",\"peer\":1,\"tag\":4,\"comm\":0,\"bytes\":8},"
		"{\"call\":\"MPI_Wait\",\"reqs\":[{\"req\":0}]},"
		"{\"call\":\"MPI_Barrier\",\"comm\":0},"
		"{\"call\":\"MPI_Finalize\"}]",
		"[{\"call\":\"MPI_Init\"},{\"call\":\"MPI_Finalize\"}]",
		NULL,
	};
	struct mpiv_traceset ts;
	struct eng_prog p;
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 0, 0};
	const struct eng_instr *in;

	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &p, NULL) == 0);
	CU_ASSERT_EQUAL(p.nranks, 2);
	CU_ASSERT_EQUAL_FATAL(p.nins[0], 6);
	in = p.ins[0];
	CU_ASSERT(in[0].op == ENG_POST_RECV && in[0].a == ENG_ANY && in[0].c == ENG_ANY &&
		  in[0].ev == 1);
	CU_ASSERT(in[1].op == ENG_POST_SEND && in[1].a == 1 && in[1].c == 4 && in[1].bytes == 8);
	CU_ASSERT(in[1].d == ENG_SEND_STANDARD);
	CU_ASSERT(in[2].op == ENG_WAIT && in[2].n == 1 && in[2].list[0] == 1 && in[2].ev == 2);
	CU_ASSERT(in[3].op == ENG_WAIT && in[3].n == 1 && in[3].list[0] == 0 && in[3].ev == 3);
	CU_ASSERT(in[4].op == ENG_COLL && in[4].a == 0 && in[4].c == 1);
	CU_ASSERT(in[5].op == ENG_END && in[5].ev == 5);
	CU_ASSERT_EQUAL(p.maxlive, 2);
	CU_ASSERT_EQUAL(p.nins[1], 1);
	eng_prog_release(&p);
	mpiv_traceset_release(&ts);
}

/* tr_translate refuses ts with text, at rank 0, at event `event` unless it is -1; ts is
 * released. */
static void refused_set(struct mpiv_traceset *ts, const char *text, long event)
{
	struct eng_prog p;
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 0, 0};
	struct mpiv_error err;

	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(tr_translate(ts, &opts, &p, &err), -1);
	CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
	CU_ASSERT_STRING_EQUAL(err.text, text);
	CU_ASSERT_EQUAL(err.rank, 0);
	if (event >= 0)
		CU_ASSERT_EQUAL(err.event, event);
	mpiv_traceset_release(ts);
}

/* The ranks' events ev (NULL-terminated) are refused so. */
static void refused(const char *const ev[], const char *text, long event)
{
	struct mpiv_traceset ts;

	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	refused_set(&ts, text, event);
}

/* One rank of one process under MPI_THREAD_MULTIPLE whose events (a JSON array's inside,
 * after MPI_Init_thread) are refused so. */
static void refused_threaded(const char *events, const char *text, long event)
{
	char rank[2048];
	const char *const ranks[] = {rank, NULL};
	struct mpiv_traceset ts;

	snprintf(rank, sizeof(rank),
		 "\"rank\": 0, \"size\": 1, \"thread_level\": 3, \"events\": ["
		 "{\"call\":\"MPI_Init_thread\"},%s,{\"call\":\"MPI_Finalize\"}]",
		 events);
	CU_ASSERT_FATAL(unit_load_ranks(ranks, &ts) == 0);
	refused_set(&ts, text, event);
}

static void expect_refused(const char *events, const char *text)
{
	const char *const ev[] = {events, NULL};

	refused(ev, text, -1);
}

static void test_refused(void)
{
	expect_refused("[{\"call\":\"MPI_Wait\",\"reqs\":[{\"req\":3}]}]",
		       "MPI_Wait completes request 3, which was never posted");
	expect_refused("[{\"call\":\"MPI_Send\",\"peer\":0,\"tag\":1,\"comm\":-1}]",
		       "MPI_Send on a communicator check does not know (comm -1): one made by a "
		       "call mpiverify does not record (such as MPI_Comm_get_parent), "
		       "which check cannot judge yet");
	/* a local id no call of the rank made */
	expect_refused("[{\"call\":\"MPI_Barrier\",\"comm\":2}]",
		       "MPI_Barrier on a communicator check does not know (comm 2): one made by a "
		       "call mpiverify does not record (such as MPI_Comm_get_parent), "
		       "which check cannot judge yet");
	expect_refused("[{\"call\":\"MPI_Intercomm_create\",\"comm\":0,\"newcomm\":2,"
		       "\"members\":[0]}]",
		       "MPI_Intercomm_create without a local leader in its group (root -3) or, on "
		       "the leader, a remote leader outside it (peer -3)");
	expect_refused("[{\"call\":\"MPI_Intercomm_create_from_groups\",\"comm\":0,"
		       "\"tag\":5,\"root\":0,\"newcomm\":2,\"members\":[0]}]",
		       "MPI_Intercomm_create_from_groups without a local leader in its group "
		       "(root 0) or, on the leader, a remote leader outside it (peer -3)");
	expect_refused("[{\"call\":\"MPI_Intercomm_create_from_groups\",\"comm\":0,"
		       "\"tag\":5,\"root\":0,\"incomplete\":true}]",
		       "the trace ends inside MPI_Intercomm_create_from_groups, whose group the "
		       "recorder writes only when it returns: check cannot tell whom it waits for");
	expect_refused("[{\"call\":\"MPI_Comm_create_group\",\"comm\":0,\"tag\":0,"
		       "\"incomplete\":true}]",
		       "the trace ends inside MPI_Comm_create_group, whose group the recorder "
		       "writes only when it returns: check cannot tell whom it waits for");
	expect_refused("[{\"call\":\"MPI_Isend\",\"peer\":0,\"tag\":1,\"comm\":0}]",
		       "MPI_Isend without its request");
	/* MPI_Isendrecv: one request for two posts, which an any-completion or a cancel
	 * would take apart */
	expect_refused("[{\"call\":\"MPI_Isendrecv\",\"peer\":0,\"tag\":1,\"comm\":0,"
		       "\"peer2\":0,\"tag2\":1,\"req\":0},"
		       "{\"call\":\"MPI_Waitany\",\"reqs\":[{\"req\":0}]}]",
		       "MPI_Waitany of request 0, an MPI_Isendrecv's: check cannot judge that yet "
		       "(MPI_Wait, MPI_Waitall, MPI_Test and MPI_Testall it can)");
	expect_refused("[{\"call\":\"MPI_Isendrecv\",\"peer\":0,\"tag\":1,\"comm\":0,"
		       "\"peer2\":0,\"tag2\":1,\"req\":0},"
		       "{\"call\":\"MPI_Cancel\",\"reqs\":[{\"req\":0}]}]",
		       "MPI_Cancel of request 0, an MPI_Isendrecv's: check cannot judge that yet "
		       "(MPI_Wait, MPI_Waitall, MPI_Test and MPI_Testall it can)");
	expect_refused("[{\"call\":\"MPI_Isendrecv\",\"peer\":0,\"tag\":1,\"comm\":0}]",
		       "MPI_Isendrecv without its source or receive tag");
	/* one-sided: windows on a communicator not known, and windows never created */
	expect_refused("[{\"call\":\"MPI_Win_create\",\"comm\":-1,\"win\":0}]",
		       "MPI_Win_create on a communicator check does not know (comm -1)");
	expect_refused("[{\"call\":\"MPI_Win_fence\",\"win\":0}]",
		       "MPI_Win_fence on window 0, which this rank has not created");
	expect_refused("[{\"call\":\"MPI_Win_create\",\"comm\":0,\"win\":0},"
		       "{\"call\":\"MPI_Win_unlock\",\"win\":0,\"peer\":0}]",
		       "MPI_Win_unlock of a lock this rank does not hold");
	expect_refused("[{\"call\":\"MPI_Win_create\",\"comm\":0,\"win\":0},"
		       "{\"call\":\"MPI_Win_post\",\"win\":0}]",
		       "MPI_Win_post without its group, which check cannot judge");
	/* generalized requests: the completion of a request of another kind, or of one
	 * another thread started (as a wait for it would be) */
	expect_refused("[{\"call\":\"MPI_Grequest_start\"}]",
		       "MPI_Grequest_start without its request");
	expect_refused("[{\"call\":\"MPI_Grequest_complete\",\"reqs\":[{\"req\":0}]}]",
		       "MPI_Grequest_complete of request 0, which is no generalized request of "
		       "this rank");
	expect_refused("[{\"call\":\"MPI_Irecv\",\"peer\":0,\"tag\":1,\"comm\":0,\"req\":0},"
		       "{\"call\":\"MPI_Grequest_complete\",\"reqs\":[{\"req\":0}]}]",
		       "MPI_Grequest_complete of request 0, which is no generalized request of "
		       "this rank");
	/* partitioned communication: a receive from anybody, a send completed whose partitions
	 * never were all ready, a thread that calls MPI between starting a send another thread
	 * readies and completing it */
	expect_refused(
		"[{\"call\":\"MPI_Precv_init\",\"peer\":\"any\",\"tag\":0,\"comm\":0,"
		"\"req\":0}]",
		"MPI_Precv_init with MPI_ANY_SOURCE or MPI_ANY_TAG: a partitioned receive names "
		"its source and tag (MPI-4.1 4.2.2)");
	expect_refused(
		"[{\"call\":\"MPI_Psend_init\",\"peer\":0,\"tag\":0,\"comm\":0,"
		"\"req\":0},{\"call\":\"MPI_Start\",\"reqs\":[{\"req\":0}]},"
		"{\"call\":\"MPI_Pready\",\"reqs\":[{\"req\":0}]},"
		"{\"call\":\"MPI_Wait\",\"reqs\":[{\"req\":0}]}]",
		"MPI_Wait completes request 0, a partitioned send whose partitions the trace "
		"never has all ready");
	refused_threaded(
		"{\"call\":\"MPI_Psend_init\",\"peer\":0,\"tag\":0,\"comm\":0,\"req\":0},"
		"{\"call\":\"MPI_Start\",\"reqs\":[{\"req\":0}]},"
		"{\"call\":\"MPI_Pready\",\"reqs\":[{\"req\":0}],\"parts_ready\":true,"
		"\"thread\":1},"
		"{\"call\":\"MPI_Barrier\",\"comm\":0},"
		"{\"call\":\"MPI_Wait\",\"reqs\":[{\"req\":0}]}",
		"MPI_Barrier on thread 0, before it completes request 0, a partitioned send "
		"whose partitions other threads ready: check sends its message from the thread "
		"that started it, and cannot judge a call there that may wait, or that names the "
		"send, yet",
		4);
	/* the end of a library's session, the program's going on, with a communicator made
	 * since the library's MPI_Session_init alive: it may synchronise with its members */
	expect_refused("[{\"call\":\"MPI_Session_init\"},{\"call\":\"MPI_Session_init\"},"
		       "{\"call\":\"MPI_Comm_create_from_group\",\"comm\":0,\"tag\":1,"
		       "\"newcomm\":2,\"members\":[0]},"
		       "{\"call\":\"MPI_Session_finalize\"},{\"call\":\"MPI_Barrier\",\"comm\":0}]",
		       "MPI_Session_finalize while the communicator event 2 made since its "
		       "MPI_Session_init is not freed: it may synchronise with its members "
		       "(MPI-4.1 11.3.1), which check cannot judge yet");
	/* MPI_Parrived: of a request that is no partitioned receive; of one whose sender (this
	 * rank, to itself) waits in a barrier between readying its two partitions */
	expect_refused("[{\"call\":\"MPI_Irecv\",\"peer\":0,\"tag\":1,\"comm\":0,\"req\":0},"
		       "{\"call\":\"MPI_Parrived\",\"reqs\":[{\"req\":0}]}]",
		       "MPI_Parrived of request 0, which is no partitioned receive of this rank");
	expect_refused(
		"[{\"call\":\"MPI_Psend_init\",\"peer\":0,\"tag\":0,\"comm\":0,\"req\":0},"
		"{\"call\":\"MPI_Precv_init\",\"peer\":0,\"tag\":0,\"comm\":0,\"req\":1},"
		"{\"call\":\"MPI_Start\",\"reqs\":[{\"req\":1}]},"
		"{\"call\":\"MPI_Start\",\"reqs\":[{\"req\":0}]},"
		"{\"call\":\"MPI_Pready\",\"reqs\":[{\"req\":0}]},"
		"{\"call\":\"MPI_Barrier\",\"comm\":0},"
		"{\"call\":\"MPI_Pready\",\"reqs\":[{\"req\":0}],\"parts_ready\":true},"
		"{\"call\":\"MPI_Parrived\",\"reqs\":[{\"req\":1}]}]",
		"MPI_Parrived of request 1, whose sender waits for another rank between readying "
		"its first and its last partition: check sends a partitioned message whole, and "
		"cannot judge a receiver that acts on one partition's arrival then yet");
	refused_threaded("{\"call\":\"MPI_Grequest_start\",\"reqs\":[{\"req\":0}]},"
			 "{\"call\":\"MPI_Grequest_complete\",\"reqs\":[{\"req\":0}],"
			 "\"thread\":1},"
			 "{\"call\":\"MPI_Wait\",\"reqs\":[{\"req\":0}]}",
			 "MPI_Grequest_complete on thread 1 of request 0, which thread 0 started: "
			 "check cannot judge requests shared between threads yet",
			 2);
}

/* A partitioned send that thread 0 starts and waits for, readied by thread 0 and by thread 1
 * (the last partition): thread 1 marks where it readied its partition, and thread 0 posts the
 * message after that mark, before its wait (doc/semantics.md 4.9). */
static void test_partitions_threads(void)
{
	const char *const ev[] = {
		"\"rank\": 0, \"size\": 1, \"thread_level\": 3, \"events\": ["
		"{\"call\":\"MPI_Init_thread\"},"
		"{\"call\":\"MPI_Psend_init\",\"peer\":0,\"tag\":0,\"comm\":0,\"req\":0},"
		"{\"call\":\"MPI_Start\",\"reqs\":[{\"req\":0}]},"
		"{\"call\":\"MPI_Pready\",\"reqs\":[{\"req\":0}]},"
		"{\"call\":\"MPI_Pready\",\"reqs\":[{\"req\":0}],\"parts_ready\":true,"
		"\"thread\":1},"
		"{\"call\":\"MPI_Wait\",\"reqs\":[{\"req\":0}],\"incomplete\":true}]",
		NULL,
	};
	struct mpiv_traceset ts;
	struct eng_prog p;
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 0, 0};
	const struct eng_instr *in;

	CU_ASSERT_FATAL(unit_load_ranks(ev, &ts) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &p, NULL) == 0);
	CU_ASSERT_EQUAL_FATAL(p.nprocs, 2);
	/* thread 1: its mark, then it stops with the rank */
	CU_ASSERT_FATAL(p.nins[1] >= 1);
	CU_ASSERT(p.ins[1][0].op == ENG_THREAD_MARK && p.ins[1][0].ev == 4);
	/* thread 0: after thread 1's mark, the message, then the wait for it */
	CU_ASSERT_FATAL(p.nins[0] >= 3);
	in = p.ins[0];
	CU_ASSERT(in[0].op == ENG_THREAD_AFTER && in[0].n == 2 && in[0].list[0] == 1 &&
		  in[0].list[1] == 0 && in[0].ev == 5);
	CU_ASSERT(in[1].op == ENG_POST_SEND && in[1].a == 0 && in[1].ev == 5);
	CU_ASSERT(in[2].op == ENG_WAIT && in[2].n == 1 && in[2].list[0] == 1 && in[2].ev == 5);
	eng_prog_release(&p);
	mpiv_traceset_release(&ts);
}

/* A call check cannot judge yet (MPI_Comm_spawn) after or before two ranks' head-to-head
 * sends: tr_translate() refuses the trace at it, marked unjudged; tr_leave_out() leaves out
 * rank 0's calls from it on, and the trace translates. Rank 0 stops there in the model: the
 * deadlock before it is found without buffering; with the spawn first, rank 1 waits for a
 * rank that might have gone on, which is no deadlock. */
static void left_out_case(const char *rank0, long at, long deadlocks)
{
	const char *const ev[] = {
		rank0,
		"[{\"call\":\"MPI_Init\"},"
		"{\"call\":\"MPI_Send\",\"peer\":0,\"tag\":0,\"comm\":0,\"bytes\":4},"
		"{\"call\":\"MPI_Recv\",\"peer\":0,\"tag\":0,\"comm\":0,\"bytes\":4},"
		"{\"call\":\"MPI_Finalize\"}]",
		NULL,
	};
	struct mpiv_traceset ts;
	struct eng_prog p;
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 0, 0};
	struct mpiv_error err;
	struct tr_stop s;
	long done;

	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	mpiv_error_init(&err);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &p, &err) == -1);
	CU_ASSERT(err.unjudged && err.rank == 0 && err.event == at);
	CU_ASSERT_FATAL(tr_leave_out(&ts, &err) == 1);
	/* the same error again is no call to leave out: it stands */
	CU_ASSERT(tr_leave_out(&ts, &err) == 0);
	mpiv_error_init(&err);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &p, &err) == 0);
	tr_stop_of(&ts, 0, &s);
	CU_ASSERT(s.kind == TR_STOP_UNJUDGED && s.event == at - 1);
	CU_ASSERT_EQUAL(unit_explore(&p, &done), deadlocks);
	eng_prog_release(&p);
	mpiv_traceset_release(&ts);
}

static void test_left_out(void)
{
	left_out_case("[{\"call\":\"MPI_Init\"},"
		      "{\"call\":\"MPI_Send\",\"peer\":1,\"tag\":0,\"comm\":0,\"bytes\":4},"
		      "{\"call\":\"MPI_Recv\",\"peer\":1,\"tag\":0,\"comm\":0,\"bytes\":4},"
		      "{\"call\":\"MPI_Comm_spawn\",\"comm\":0},{\"call\":\"MPI_Finalize\"}]",
		      3, 1);
	left_out_case("[{\"call\":\"MPI_Init\"},{\"call\":\"MPI_Comm_spawn\",\"comm\":0},"
		      "{\"call\":\"MPI_Send\",\"peer\":1,\"tag\":0,\"comm\":0,\"bytes\":4},"
		      "{\"call\":\"MPI_Recv\",\"peer\":1,\"tag\":0,\"comm\":0,\"bytes\":4},"
		      "{\"call\":\"MPI_Finalize\"}]",
		      1, 0);
}

#define SPLIT(members) \
	"{\"call\":\"MPI_Comm_split\",\"comm\":0,\"newcomm\":2,\"members\":" members "}"
#define BARRIER2 "{\"call\":\"MPI_Barrier\",\"comm\":2}"

/* The rank-local ids of one communicator become one engine communicator: MPI_Comm_split into
 * halves (listed by rank in the half, which is not world order) gives two, each with its
 * members, and the split itself is a collective on MPI_COMM_WORLD. */
static void test_comms(void)
{
	const char *const ev[] = {
		"[" SPLIT("[1,0]") "," BARRIER2 "]",
		"[" SPLIT("[1,0]") "," BARRIER2 "]",
		"[" SPLIT("[3,2]") "," BARRIER2 "]",
		"[" SPLIT("[3,2]") "," BARRIER2 "]",
		NULL,
	};
	struct mpiv_traceset ts;
	struct eng_prog p;
	struct tr_opts opts = {ENG_BUF_INFINITE, 0, 0, 0, 0};
	int r;

	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &p, NULL) == 0);
	CU_ASSERT_EQUAL_FATAL(p.ncomms, 1 + 4 + 2);
	CU_ASSERT(p.comms[5].n == 2 && p.comms[5].members[0] == 1 && p.comms[5].members[1] == 0);
	CU_ASSERT(p.comms[6].n == 2 && p.comms[6].members[0] == 3 && p.comms[6].members[1] == 2);
	for (r = 0; r < 4; r++) {
		CU_ASSERT_EQUAL_FATAL(p.nins[r], 3);
		CU_ASSERT(p.ins[r][0].op == ENG_COLL && p.ins[r][0].a == 0 && p.ins[r][0].c == 1);
		CU_ASSERT_EQUAL(p.ins[r][0].b, ENG_COLL_ALL); /* synchronising, even buffered */
		CU_ASSERT(p.ins[r][1].op == ENG_COLL && p.ins[r][1].c == 1);
		CU_ASSERT_EQUAL(p.ins[r][1].a, r < 2 ? 5 : 6);
	}
	eng_prog_release(&p);
	mpiv_traceset_release(&ts);
}

/* A peer outside its communicator: MPI would refuse it, the model would wait forever. */
static void test_comm_peer_outside(void)
{
	const char *const ev[] = {
		"[" SPLIT("[0]") ",{\"call\":\"MPI_Send\",\"peer\":1,\"tag\":0,\"comm\":2}]",
		"[" SPLIT("[1]") "]",
		NULL,
	};

	refused(ev,
		"MPI_Send names world rank 1, which is not a member of its communicator "
		"(comm 2)",
		1);
}

/* Traces that disagree on a communicator's members do not come from one run: refused, since
 * the model would wait for a member that is not coming. */
static void test_comm_disagree(void)
{
	const char *const ev[] = {"[" SPLIT("[0]") "]", "[" SPLIT("[0,1]") "]", NULL};

	refused(ev,
		"MPI_Comm_split did not give this rank the communicator that rank 1's (event "
		"0) lists it in: the traces do not come from one run",
		0);
}

/* Rank r's trace: MPI_Intercomm_create of halves {0,1} and {2,3} (leaders 0 and 2, the
 * leader naming the other with tag tag), then `then` (on the intercommunicator, comm 3). */
static const char *icase(char *buf, size_t size, int r, int tag, const char *then)
{
	int leader = r < 2 ? 0 : 2;
	char named[64] = "";

	if (r == leader)
		snprintf(named, sizeof(named), ",\"peer\":%d,\"tag\":%d", 2 - leader, tag);
	snprintf(buf, size,
		 "[" SPLIT("%s") ",{\"call\":\"MPI_Intercomm_create\",\"comm\":2,"
				 "\"root\":%d%s,\"newcomm\":3,\"members\":%s},%s]",
		 r < 2 ? "[0,1]" : "[2,3]", leader, named, r < 2 ? "[0,1]" : "[2,3]", then);
	return buf;
}

/* The four ranks' traces (ev[4] = NULL): the second group's leader names tag tag2, then each
 * rank calls then, rank 1 then1 if not NULL. */
static void icases(char b[4][512], const char *ev[5], int tag2, const char *then, const char *then1)
{
	int r;

	for (r = 0; r < 4; r++)
		ev[r] = icase(b[r], sizeof(b[r]), r, r < 2 ? 7 : tag2,
			      r == 1 && then1 ? then1 : then);
	ev[4] = NULL;
}

/* The two groups' calls make one intercommunicator, the group of the lower leader first:
 * each group meets on its half, then both on the intercommunicator; an MPI_Allreduce on it
 * waits with buffering for the other group, a rooted one as MPI defines it. */
static void test_intercomm(void)
{
	char b[4][512], b2[4][512];
	const char *reduce = "{\"call\":\"MPI_Reduce\",\"comm\":3,\"root\":0}";
	const char *allreduce = "{\"call\":\"MPI_Allreduce\",\"comm\":3}";
	const char *ev[5], *ev2[5];
	struct mpiv_traceset ts;
	struct eng_prog p;
	struct tr_opts opts = {ENG_BUF_INFINITE, 0, 0, 0, 0};
	const struct eng_instr *in;
	int r;

	icases(b, ev, 7, reduce, "{\"call\":\"MPI_Reduce\",\"comm\":3,\"root\":-2}");
	icases(b2, ev2, 7, allreduce, NULL);
	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &p, NULL) == 0);
	CU_ASSERT_EQUAL_FATAL(p.ncomms, 1 + 4 + 3);
	CU_ASSERT(p.comms[7].n == 4 && p.comms[7].members[0] == 0 && p.comms[7].members[2] == 2);
	for (r = 0; r < 4; r++) {
		CU_ASSERT_EQUAL_FATAL(p.nins[r], 5);
		in = p.ins[r];
		CU_ASSERT(in[1].op == ENG_COLL && in[1].a == (r < 2 ? 5 : 6) && in[1].c == 1);
		CU_ASSERT(in[2].op == ENG_COLL && in[2].a == 7 && in[2].c == 1);
		CU_ASSERT_EQUAL(in[2].b, ENG_COLL_ALL); /* the creation synchronises */
		CU_ASSERT(in[3].op == ENG_COLL && in[3].a == 7 && in[3].c == 2);
	}
	/* the root waits for the other group, the rest for nobody */
	CU_ASSERT(p.ins[0][3].b == ENG_COLL_LIST && p.ins[0][3].n == 2 &&
		  p.ins[0][3].list[0] == 2 && p.ins[0][3].list[1] == 3);
	CU_ASSERT(p.ins[1][3].b == ENG_COLL_NONE && p.ins[1][3].d == ENG_PROC_NULL);
	CU_ASSERT(p.ins[2][3].b == ENG_COLL_NONE && p.ins[3][3].b == ENG_COLL_NONE);
	eng_prog_release(&p);
	mpiv_traceset_release(&ts);

	CU_ASSERT_FATAL(unit_load_case(ev2, &ts) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &p, NULL) == 0);
	for (r = 0; r < 4; r++) {
		in = &p.ins[r][3];
		CU_ASSERT(in->b == ENG_COLL_LIST && in->n == 2);
		CU_ASSERT(in->n == 2 && in->list[0] == (r < 2 ? 2 : 0) &&
			  in->list[1] == (r < 2 ? 3 : 1));
	}
	eng_prog_release(&p);
	mpiv_traceset_release(&ts);
}

/* Leaders that name each other with different tags never meet: each group gets a
 * communicator of its own with the remote leader it names, who never enters it. */
static void test_intercomm_unpaired(void)
{
	char b[4][512];
	const char *fin = "{\"call\":\"MPI_Finalize\"}";
	const char *ev[5];
	struct mpiv_traceset ts;
	struct eng_prog p;
	struct tr_opts opts = {ENG_BUF_INFINITE, 0, 0, 0, 0};

	icases(b, ev, 8, fin, NULL);
	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &p, NULL) == 0);
	CU_ASSERT_EQUAL_FATAL(p.ncomms, 1 + 4 + 2 + 2);
	CU_ASSERT(p.comms[7].n == 3 && p.comms[7].members[2] == 2);
	CU_ASSERT(p.comms[8].n == 3 && p.comms[8].members[2] == 0);
	CU_ASSERT(p.ins[0][2].a == 7 && p.ins[2][2].a == 8);
	eng_prog_release(&p);
	mpiv_traceset_release(&ts);
}

/* A trace that ends without MPI_Finalize is a rank that stopped there: it never moves again,
 * but it did not finish either (never "no deadlock" for a run with one). */
static void test_no_finalize(void)
{
	const char *const ev[] = {"[{\"call\":\"MPI_Init\"}]", NULL};
	struct mpiv_traceset ts;
	struct eng_prog p;
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 0, 0};

	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &p, NULL) == 0);
	CU_ASSERT_EQUAL(p.nins[0], 1);
	CU_ASSERT_EQUAL(p.ins[0][0].op, ENG_STOP);
	CU_ASSERT_FALSE(tr_all_finished(&ts));
	eng_prog_release(&p);
	mpiv_traceset_release(&ts);
}

/* A size beyond what the engine keeps (a message no program sends, but a trace may say so)
 * becomes the engine's largest, and the program written as model.dat reads again. */
static void test_huge_sizes(void)
{
	const char *const ev[] = {
		"[{\"call\":\"MPI_Init\"},"
		"{\"call\":\"MPI_Recv\",\"peer\":1,\"tag\":0,\"comm\":0,"
		"\"bytes\":360287970189639679},"
		"{\"call\":\"MPI_Finalize\"}]",
		"[{\"call\":\"MPI_Init\"},"
		"{\"call\":\"MPI_Send\",\"peer\":0,\"tag\":0,\"comm\":0,"
		"\"bytes\":9223372036854775807},"
		"{\"call\":\"MPI_Finalize\"}]",
		NULL,
	};
	struct mpiv_traceset ts;
	struct eng_prog p, back;
	struct tr_opts opts = {ENG_BUF_EAGER, 65536, 0, 0, 0};
	char *buf = NULL, msg[256];
	size_t len = 0;
	FILE *f;

	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &p, NULL) == 0);
	CU_ASSERT_EQUAL(p.ins[0][0].bytes, ENG_MAX_BYTES);
	CU_ASSERT_EQUAL(p.ins[1][0].bytes, ENG_MAX_BYTES);
	f = open_memstream(&buf, &len);
	CU_ASSERT_FATAL(f && eng_prog_write(&p, f) == 0);
	fclose(f);
	f = fmemopen(buf, len, "r");
	CU_ASSERT_EQUAL(eng_prog_read(&back, f, msg, sizeof(msg)), 0);
	fclose(f);
	free(buf);
	eng_prog_release(&back);
	eng_prog_release(&p);
	mpiv_traceset_release(&ts);
}

/* The table of requests by id holds what was put and not deleted, each entry's value kept,
 * and it stays as small as the ids live at once, however far ids go: ids made in order, each
 * completed soon, a few kept for long (persistent ones), as a rank's run makes them. */
static void test_reqmap(void)
{
	enum { N = 200000, KEEP = 97 };
	struct entry {
		int32_t id;
		int32_t value;
	};
	struct tr_reqmap m;
	unsigned char *in = calloc(N, 1);
	unsigned seed = 77;
	size_t at, seen = 0, live = 0, most = 0;
	int32_t id;
	struct entry *e;

	CU_ASSERT_FATAL(in != NULL);
	tr_reqmap_init(&m, sizeof(struct entry));
	CU_ASSERT(tr_reqmap_get(&m, 5) == NULL);
	for (id = 0; id < N; id++) {
		e = tr_reqmap_put(&m, id);
		CU_ASSERT_FATAL(e && e->id == id && e->value == 0);
		e->value = 3 * id + 1;
		in[id] = 1;
		live++;
		/* complete one of the last few made, in no order, and any left 8 ids back; keep
		 * every KEEP-th */
		if (id >= 8) {
			int32_t k,
				old[2] = {id - 1 - (int32_t)((unsigned)rand_r(&seed) % 7), id - 8};

			for (k = 0; k < 2; k++)
				if (in[old[k]] && old[k] % KEEP) {
					tr_reqmap_del(&m, old[k]);
					in[old[k]] = 0;
					live--;
				}
		}
		CU_ASSERT_EQUAL(m.n, live);
		if (m.cap > most)
			most = m.cap;
	}
	tr_reqmap_del(&m, N + 5); /* not there: nothing */
	CU_ASSERT_EQUAL(m.n, live);
	for (id = 0; id < N; id++) {
		e = tr_reqmap_get(&m, id);
		CU_ASSERT(in[id] ? e && e->id == id && e->value == 3 * id + 1 : e == NULL);
	}
	for (at = 0; (e = tr_reqmap_next(&m, &at));) {
		CU_ASSERT(e->id >= 0 && e->id < N && in[e->id]);
		seen++;
	}
	CU_ASSERT_EQUAL(seen, live);
	/* the kept ones and a few recent: the table follows them, not the ids made */
	CU_ASSERT(most <= 16 * (N / KEEP + 16));
	tr_reqmap_release(&m);
	free(in);
}

static CU_TestInfo translate_tests[] = {
	{"instructions", test_instructions},
	{"refused traces", test_refused},
	{"partitions readied by another thread", test_partitions_threads},
	{"calls check cannot judge left out", test_left_out},
	{"trace without finalize", test_no_finalize},
	{"communicators across ranks", test_comms},
	{"peer outside its communicator", test_comm_peer_outside},
	{"ranks disagree on a communicator", test_comm_disagree},
	{"intercommunicators", test_intercomm},
	{"intercommunicator whose leaders never meet", test_intercomm_unpaired},
	{"sizes beyond the engine's", test_huge_sizes},
	{"requests by id", test_reqmap},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo translate_suite = {"translate", NULL, NULL, NULL, NULL, translate_tests};
