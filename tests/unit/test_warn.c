/* The warnings of the recorded run (translator/tr_warn.c): messages never received, receives
 * shorter than their message, requests never completed, and what the times of its messages
 * say (tr_times.c), each on a trace stated as JSON; and the run's operations on one time line
 * (tr_timeline.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "tr_timeline.h"
#include "unit.h"

/* Translate and collect the warnings of ranks[], loaded by load (unit_load_case() or
 * unit_load_ranks()); returns how many, -1 if it did not load. */
static int warnings_loaded(const char *const ranks[],
			   int (*load)(const char *const ranks[], struct mpiv_traceset *ts),
			   struct tr_warning **w)
{
	struct mpiv_traceset ts;
	struct eng_prog prog;
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 0, 0};
	int n;

	*w = NULL;
	if (load(ranks, &ts))
		return -1;
	if (tr_translate(&ts, &opts, &prog, NULL)) {
		mpiv_traceset_release(&ts);
		return -1;
	}
	n = tr_warnings(&prog, &ts, w);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
	return n;
}

/* The warnings of events[] (unit_load_case()). */
static int warnings_of(const char *const events[], struct tr_warning **w)
{
	return warnings_loaded(events, unit_load_case, w);
}

/* The one warning events[] must give, of this kind, rank and event: returned for more
 * assertions (the caller frees it), or NULL after noting the failure. */
static struct tr_warning *the_warning(const char *const events[], enum tr_warn_kind kind, int rank,
				      long event)
{
	struct tr_warning *w;
	int n = warnings_of(events, &w);

	CU_ASSERT_EQUAL(n, 1);
	if (n != 1) {
		free(w);
		return NULL;
	}
	CU_ASSERT_EQUAL(w[0].kind, kind);
	CU_ASSERT_EQUAL(w[0].rank, rank);
	CU_ASSERT_EQUAL(w[0].event, event);
	return w;
}

#define INIT "{\"call\": \"MPI_Init\"}"
#define FIN "{\"call\": \"MPI_Finalize\"}"

/* Two messages of one tag, one receive: the second message (non-overtaking) is left. */
static void test_unreceived(void)
{
	static const char *const ev[] = {
		"[" INIT ", {\"call\": \"MPI_Buffer_attach\", \"bytes\": 1000}"
		", {\"call\": \"MPI_Bsend\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 8},"
		" {\"call\": \"MPI_Bsend\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 8}, " FIN
		"]",
		"[" INIT
		", {\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 8,"
		" \"src\": 0, \"mtag\": 0}, " FIN "]",
		NULL,
	};
	struct tr_warning *w = the_warning(ev, TR_WARN_UNRECEIVED, 0, 3);

	if (w)
		CU_ASSERT_EQUAL(w->peer, 1);
	free(w);
}

/* The wildcard took rank 2's message in the run: rank 1's is the one never received (the
 * recorded path, not the first choice the engine offers). */
static void test_unreceived_follows_recorded_source(void)
{
	static const char *const ev[] = {
		"[" INIT ", {\"call\": \"MPI_Recv\", \"peer\": \"any\", \"tag\": 0, \"comm\": 0,"
		" \"bytes\": 4, \"src\": 2, \"mtag\": 0}, " FIN "]",
		"[" INIT ", {\"call\": \"MPI_Buffer_attach\", \"bytes\": 1000}"
		", {\"call\": \"MPI_Bsend\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, " FIN
		"]",
		"[" INIT ", {\"call\": \"MPI_Buffer_attach\", \"bytes\": 1000}"
		", {\"call\": \"MPI_Bsend\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, " FIN
		"]",
		NULL,
	};
	struct tr_warning *w = the_warning(ev, TR_WARN_UNRECEIVED, 1, 2);

	free(w);
}

/* A 4-byte receive takes an 8-byte message. */
static void test_truncated(void)
{
	static const char *const ev[] = {
		"[" INIT
		", {\"call\": \"MPI_Send\", \"peer\": 1, \"tag\": 3, \"comm\": 0, \"bytes\": 8}, " FIN
		"]",
		"[" INIT
		", {\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 3, \"comm\": 0, \"bytes\": 4,"
		" \"src\": 0, \"mtag\": 3}, " FIN "]",
		NULL,
	};
	struct tr_warning *w = the_warning(ev, TR_WARN_TRUNCATED, 1, 1);

	if (w) {
		CU_ASSERT_EQUAL(w->peer, 0);
		CU_ASSERT_EQUAL(w->peer_event, 1);
		CU_ASSERT_EQUAL(w->bytes, 4);
		CU_ASSERT_EQUAL(w->peer_bytes, 8);
	}
	free(w);
}

/* An Isend never waited for is reported; one freed with MPI_Request_free is not, nor one
 * waited for. */
static void test_uncompleted(void)
{
	static const char *const ev[] = {
		"[" INIT
		", {\"call\": \"MPI_Isend\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4,"
		" \"req\": 0},"
		" {\"call\": \"MPI_Isend\", \"peer\": 1, \"tag\": 1, \"comm\": 0, \"bytes\": 4, \"req\": 1},"
		" {\"call\": \"MPI_Request_free\", \"req\": 1},"
		" {\"call\": \"MPI_Isend\", \"peer\": 1, \"tag\": 2, \"comm\": 0, \"bytes\": 4, \"req\": 2},"
		" {\"call\": \"MPI_Wait\", \"req\": 2}, " FIN "]",
		"[" INIT
		", {\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4},"
		" {\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 1, \"comm\": 0, \"bytes\": 4},"
		" {\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 2, \"comm\": 0, \"bytes\": 4}, " FIN
		"]",
		NULL,
	};
	struct tr_warning *w = the_warning(ev, TR_WARN_UNCOMPLETED, 0, 1);

	free(w);
}

/* A communicator never freed by a rank that finished; the freed one is not reported. */
static void test_unfreed_comm(void)
{
	static const char *const ev[] = {
		"[" INIT ", {\"call\": \"MPI_Comm_dup\", \"comm\": 0, \"newcomm\": 2,"
		" \"members\": [0]},"
		" {\"call\": \"MPI_Comm_dup\", \"comm\": 0, \"newcomm\": 3, \"members\": [0]},"
		" {\"call\": \"MPI_Comm_free\", \"comm\": 2}, " FIN "]",
		NULL,
	};
	struct tr_warning *w = the_warning(ev, TR_WARN_COMM_LEAK, 0, 2);

	free(w);
}

/* A rank disconnects a communicator while a receive on it and a send on the world are
 * pending, and completes both after: the receive is named, at the disconnect, and not the
 * send, on another communicator; the rank finished, and freed the communicator so. A rank
 * that did not finish is named too. */
static void test_disconnect_pending(void)
{
	static const char *const ev[] = {
		"[" INIT ", {\"call\": \"MPI_Comm_dup\", \"comm\": 0, \"newcomm\": 2,"
		" \"members\": [0, 1]},"
		" {\"call\": \"MPI_Irecv\", \"peer\": 1, \"tag\": 0, \"comm\": 2, \"bytes\": 4,"
		" \"req\": 0},"
		" {\"call\": \"MPI_Isend\", \"peer\": 1, \"tag\": 1, \"comm\": 0, \"bytes\": 4,"
		" \"req\": 1},"
		" {\"call\": \"MPI_Comm_disconnect\", \"comm\": 2},"
		" {\"call\": \"MPI_Waitall\", \"reqs\": [{\"req\": 0, \"src\": 1, \"tag\": 0},"
		" {\"req\": 1}]}, " FIN "]",
		"[" INIT ", {\"call\": \"MPI_Comm_dup\", \"comm\": 0, \"newcomm\": 2,"
		" \"members\": [0, 1]},"
		" {\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 0, \"comm\": 2, \"bytes\": 4},"
		" {\"call\": \"MPI_Comm_disconnect\", \"comm\": 2},"
		" {\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 1, \"comm\": 0, \"bytes\": 4,"
		" \"src\": 0, \"mtag\": 1}, " FIN "]",
		NULL,
	};
	static const char *const stopped[] = {
		"[" INIT ", {\"call\": \"MPI_Comm_dup\", \"comm\": 0, \"newcomm\": 2,"
		" \"members\": [0]},"
		" {\"call\": \"MPI_Isend\", \"peer\": 0, \"tag\": 0, \"comm\": 2, \"bytes\": 4,"
		" \"req\": 0},"
		" {\"call\": \"MPI_Comm_disconnect\", \"comm\": 2, \"incomplete\": true}]",
		NULL,
	};
	struct tr_warning *w = the_warning(ev, TR_WARN_DISCONNECT_PENDING, 0, 2);

	if (w)
		CU_ASSERT_EQUAL(w[0].peer_event, 4);
	free(w);
	w = the_warning(stopped, TR_WARN_DISCONNECT_PENDING, 0, 2);
	if (w)
		CU_ASSERT_EQUAL(w[0].peer_event, 3);
	free(w);
}

/* A clean exchange has nothing to say. */
static void test_none(void)
{
	static const char *const ev[] = {
		"[" INIT
		", {\"call\": \"MPI_Sendrecv\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4,"
		" \"peer2\": 1, \"tag2\": 0, \"src\": 1, \"mtag\": 0}, " FIN "]",
		"[" INIT
		", {\"call\": \"MPI_Sendrecv\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4,"
		" \"peer2\": 0, \"tag2\": 0, \"src\": 0, \"mtag\": 0}, " FIN "]",
		NULL,
	};
	struct tr_warning *w;

	CU_ASSERT_EQUAL(warnings_of(ev, &w), 0);
	free(w);
}

/* The recorded path follows the recorded wildcard matches: here it completes, although taking
 * rank 1's message first would deadlock; without the recorded source it is not known. */
static void test_recorded_path(void)
{
	static const char *const known[] = {
		"[" INIT ", {\"call\": \"MPI_Recv\", \"peer\": \"any\", \"tag\": 0, \"comm\": 0,"
		" \"bytes\": 4, \"src\": 2, \"mtag\": 0},"
		" {\"call\": \"MPI_Recv\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, " FIN
		"]",
		"[" INIT
		", {\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, " FIN
		"]",
		"[" INIT
		", {\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, " FIN
		"]",
		NULL,
	};
	static const char *const unknown[] = {
		"[" INIT ", {\"call\": \"MPI_Recv\", \"peer\": \"any\", \"tag\": 0, \"comm\": 0,"
		" \"bytes\": 4},"
		" {\"call\": \"MPI_Recv\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, " FIN
		"]",
		"[" INIT
		", {\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, " FIN
		"]",
		"[" INIT
		", {\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, " FIN
		"]",
		NULL,
	};
	const char *const *cases[] = {known, unknown};
	int c;

	for (c = 0; c < 2; c++) {
		struct mpiv_traceset ts;
		struct eng_prog prog;
		struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 0, 0};
		int32_t *st;
		int k;

		CU_ASSERT_FATAL(unit_load_case(cases[c], &ts) == 0);
		CU_ASSERT_FATAL(tr_translate(&ts, &opts, &prog, NULL) == 0);
		st = calloc(1, eng_state_bytes(&prog));
		k = tr_recorded_path(&prog, &ts, ENG_BUF_ZERO, 0, 0, NULL, st);
		if (c == 0) {
			CU_ASSERT_EQUAL(k, 1);
			CU_ASSERT(eng_all_done(&prog, st));
		} else {
			CU_ASSERT_EQUAL(k, 0);
		}
		free(st);
		eng_prog_release(&prog);
		mpiv_traceset_release(&ts);
	}
}

#define CLOCK(realtime) \
	"\"clock\": {\"kind\": \"monotonic\", \"origin\": 0, \"realtime\": " #realtime "}"
#define TINIT "{\"call\": \"MPI_Init\", \"enter\": 10, \"leave\": 20}"
#define TFIN "{\"call\": \"MPI_Finalize\", \"enter\": 90000000, \"leave\": 90000010}"
/* Rank 0 sends three messages from one site, entering at 1000, 2000 and 3000 ns of its clock;
 * rank 1 receives them from one site, returning at 1500, 2100 and 5500 of its own. */
#define SENDS_AT(a, b, c)                                                                       \
	"\"events\": [" TINIT ", "                                                              \
	"{\"call\": \"MPI_Send\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4, "         \
	"\"site\": {\"module\": 0, \"addr\": 16}, \"enter\": " #a ", \"leave\": " #a "}, "      \
	"{\"call\": \"MPI_Send\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4, "         \
	"\"site\": {\"module\": 0, \"addr\": 16}, \"enter\": " #b ", \"leave\": " #b "}, "      \
	"{\"call\": \"MPI_Send\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4, "         \
	"\"site\": {\"module\": 0, \"addr\": 16}, \"enter\": " #c ", \"leave\": " #c "}, " TFIN \
	"]"
#define RECV_AT(t)                                                                           \
	"{\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4, "      \
	"\"src\": 0, \"mtag\": 0, \"site\": {\"module\": 0, \"addr\": 32}, \"enter\": 100, " \
	"\"leave\": " #t "}"
#define RECVS \
	"\"events\": [" TINIT ", " RECV_AT(1500) ", " RECV_AT(2100) ", " RECV_AT(5500) ", " TFIN "]"

/* Two hosts whose clocks disagree: rank 1's realtime is 2 us behind rank 0's, so that on one
 * time line it returns from two receives before rank 0 entered their send. One warning for
 * the pair of call sites, with both messages and the worst. */
static void test_received_before_sent(void)
{
	static const char *const ranks[] = {
		"\"host\": \"a\", " CLOCK(1000000000000) ", " SENDS_AT(1000, 2000, 3000),
		"\"host\": \"b\", " CLOCK(999999998000) ", " RECVS,
		NULL,
	};
	struct tr_warning *w;
	int n = warnings_loaded(ranks, unit_load_ranks, &w);

	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(w[0].kind, TR_WARN_RECV_BEFORE_SEND);
	CU_ASSERT_EQUAL(w[0].rank, 1);
	CU_ASSERT_EQUAL(w[0].event, 1);
	CU_ASSERT_EQUAL(w[0].peer, 0);
	CU_ASSERT_EQUAL(w[0].peer_event, 1);
	CU_ASSERT_EQUAL(w[0].count, 2); /* the third: received at 3500, sent at 3000 */
	CU_ASSERT_EQUAL(w[0].ns, 1900); /* the second: sent at 2000, received at 100 */
	free(w);
}

/* One host: the ranks share CLOCK_MONOTONIC, whatever CLOCK_REALTIME said when each opened its
 * trace: no warning. */
static void test_one_host_one_clock(void)
{
	static const char *const ranks[] = {
		"\"host\": \"a\", " CLOCK(1000000000000) ", " SENDS_AT(1000, 2000, 3000),
		"\"host\": \"a\", " CLOCK(999999998000) ", " RECVS,
		NULL,
	};
	struct tr_warning *w;

	CU_ASSERT_EQUAL(warnings_loaded(ranks, unit_load_ranks, &w), 0);
	free(w);
}

/* A blocking send of 5 ms whose blocking receive took 0.1 ms: the receiver came late. */
static void test_long_send(void)
{
	static const char *const ranks[] = {
		"\"host\": \"a\", " CLOCK(
			0) ", \"events\": [" TINIT ", "
			   "{\"call\": \"MPI_Send\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4, "
			   "\"enter\": 1000, \"leave\": 5001000}, " TFIN "]",
		"\"host\": \"a\", " CLOCK(
			0) ", \"events\": [" TINIT ", "
			   "{\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4, "
			   "\"src\": 0, \"mtag\": 0, \"enter\": 4900000, \"leave\": 5000000}, " TFIN
			   "]",
		NULL,
	};
	struct tr_warning *w;
	int n = warnings_loaded(ranks, unit_load_ranks, &w);

	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(w[0].kind, TR_WARN_LONG_SEND);
	CU_ASSERT_EQUAL(w[0].rank, 0);
	CU_ASSERT_EQUAL(w[0].event, 1);
	CU_ASSERT_EQUAL(w[0].peer, 1);
	CU_ASSERT_EQUAL(w[0].peer_event, 1);
	CU_ASSERT_EQUAL(w[0].ns, 5000000);
	CU_ASSERT_EQUAL(w[0].peer_ns, 100000);
	free(w);
}

/* Synthetic times: rank 0's receive of rank 1's message, posted first, comes after the send
 * (a step later); each rank's operations go a step apart. A nonblocking receive is paired
 * with its send through the wait that completed it, which comes after the send. */
static void test_timeline(void)
{
	static const char *const ev[] = {
		"[" INIT ", {\"call\": \"MPI_Recv\", \"peer\": 1, \"tag\": 5, \"comm\": 0, "
		"\"bytes\": 4, \"src\": 1, \"mtag\": 5}, {\"call\": \"MPI_Send\", \"peer\": 1, "
		"\"tag\": 6, \"comm\": 0, \"bytes\": 4}, " FIN "]",
		"[" INIT ", {\"call\": \"MPI_Irecv\", \"peer\": \"any\", \"tag\": 6, \"comm\": 0, "
		"\"bytes\": 4, \"req\": 0}, {\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 5, "
		"\"comm\": 0, \"bytes\": 4}, {\"call\": \"MPI_Wait\", \"reqs\": [{\"req\": 0, "
		"\"src\": 0, \"tag\": 6}]}, " FIN "]",
		NULL,
	};
	struct mpiv_traceset ts;
	struct mpiv_error err;
	struct tr_timeline tl;

	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	mpiv_error_init(&err);
	CU_ASSERT_FATAL(tr_timeline_build(&tl, &ts, NULL, &err) == 0);
	CU_ASSERT(tl.synthetic);
	CU_ASSERT_EQUAL_FATAL(tl.nops[0], 4);
	CU_ASSERT_EQUAL_FATAL(tl.nops[1], 5);
	/* rank 0's Recv took rank 1's Send (event 2); rank 1's Irecv, rank 0's Send */
	CU_ASSERT_EQUAL(tl.ops[0][1].from_rank, 1);
	CU_ASSERT_EQUAL(tl.ops[0][1].from_ev, 2);
	CU_ASSERT_EQUAL(tl.ops[1][1].from_rank, 0);
	CU_ASSERT_EQUAL(tl.ops[1][1].from_ev, 2);
	CU_ASSERT_EQUAL(tl.ops[0][2].from_rank, -1);
	/* after the send it took, and after the rank's operation before */
	CU_ASSERT(tl.ops[0][1].enter > tl.ops[1][2].enter);
	CU_ASSERT(tl.ops[0][1].enter >= tl.ops[0][0].leave + TL_STEP / 2);
	CU_ASSERT(tl.ops[1][3].enter > tl.ops[0][2].enter); /* the Wait */
	CU_ASSERT(tl.ops[1][1].enter < tl.ops[0][2].enter); /* the Irecv need not wait */
	CU_ASSERT(tl.end > tl.ops[1][4].leave);
	tr_timeline_release(&tl);
	mpiv_traceset_release(&ts);
}

/* A counterexample's time line: its matches, not the recorded run's (rank 0's wildcard
 * receive took rank 2's message in the run, rank 1's in the counterexample), and the calls
 * that never return left at the line's end. */
static void test_timeline_cex(void)
{
	static const char *const ev[] = {
		"[" INIT ", {\"call\": \"MPI_Recv\", \"peer\": \"any\", \"tag\": 0, \"comm\": 0, "
		"\"bytes\": 4, \"src\": 2, \"mtag\": 0}, {\"call\": \"MPI_Recv\", \"peer\": 1, "
		"\"tag\": 0, \"comm\": 0, \"bytes\": 4, \"src\": 1, \"mtag\": 0}, " FIN "]",
		"[" INIT ", {\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 0, \"comm\": 0, "
		"\"bytes\": 4}, " FIN "]",
		"[" INIT ", {\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 0, \"comm\": 0, "
		"\"bytes\": 4}, " FIN "]",
		NULL,
	};
	struct mpiv_cex_op ops0[] = {{1, 1, 1, -1, 1, 0, 0}, {2, -1, -1, -1, 0, 0, 0}};
	struct mpiv_cex_op ops1[] = {{1, -1, -1, 0, 0, 0, 0}};
	struct mpiv_cex_op ops2[] = {{1, -1, -1, 0, 0, 0, 0}};
	struct mpiv_cex_rank ranks[3];
	struct mpiv_cex cex;
	struct mpiv_traceset ts;
	struct mpiv_error err;
	struct tr_timeline tl;

	memset(ranks, 0, sizeof(ranks));
	memset(&cex, 0, sizeof(cex));
	ranks[0].ops = ops0;
	ranks[0].nops = 2;
	ranks[0].blocked_op = 2;
	ranks[1].ops = ops1;
	ranks[1].nops = 1;
	ranks[1].blocked_op = -1;
	ranks[2].ops = ops2;
	ranks[2].nops = 1;
	ranks[2].blocked_op = 1;
	cex.nranks = 3;
	cex.ranks = ranks;
	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	mpiv_error_init(&err);
	CU_ASSERT_FATAL(tr_timeline_build(&tl, &ts, &cex, &err) == 0);
	CU_ASSERT(tl.synthetic);
	CU_ASSERT_EQUAL_FATAL(tl.nops[0], 2);
	CU_ASSERT_EQUAL(tl.ops[0][0].from_rank, 1);
	CU_ASSERT_EQUAL(tl.ops[0][0].from_ev, 1);
	CU_ASSERT(tl.ops[0][0].enter > tl.ops[1][0].enter);
	CU_ASSERT(!tl.ops[0][0].blocked);
	CU_ASSERT(tl.ops[0][0].leave < tl.end);
	CU_ASSERT(tl.ops[0][1].blocked);
	CU_ASSERT_EQUAL(tl.ops[0][1].leave, tl.end);
	CU_ASSERT(tl.ops[2][0].blocked);
	CU_ASSERT_EQUAL(tl.ops[2][0].leave, tl.end);
	CU_ASSERT(!tl.ops[1][0].blocked);
	CU_ASSERT(tl.ops[1][0].leave < tl.end);
	tr_timeline_release(&tl);
	mpiv_traceset_release(&ts);
}

static CU_TestInfo warn_tests[] = {
	{"the recorded path", test_recorded_path},
	{"message never received", test_unreceived},
	{"never received, on the recorded wildcard path", test_unreceived_follows_recorded_source},
	{"receive shorter than its message", test_truncated},
	{"request never completed", test_uncompleted},
	{"communicator never freed", test_unfreed_comm},
	{"request pending at its communicator's disconnect", test_disconnect_pending},
	{"no warning on a clean exchange", test_none},
	{"times: received before sent, once per pair of sites", test_received_before_sent},
	{"times: one host, one clock", test_one_host_one_clock},
	{"times: a long send", test_long_send},
	{"a run's operations on one time line", test_timeline},
	{"a counterexample's time line: its matches, its blocked calls", test_timeline_cex},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo warn_suite = {"warnings", NULL, NULL, NULL, NULL, warn_tests};
