/* The model's semantics (models/engine.c), case by case, on traces written as JSON: every MPI
 * rule the model encodes, with the verdict in each buffering mode (shared/MODELLING.md 1.8). */
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "unit.h"
#include "xalloc.h"

#define INIT "{\"call\":\"MPI_Init\"}"
#define FIN "{\"call\":\"MPI_Finalize\"}"
#define SEND(to, tag) "{\"call\":\"MPI_Send\",\"peer\":" #to ",\"tag\":" #tag ",\"comm\":0,\"bytes\":4}"
#define SSEND(to, tag) "{\"call\":\"MPI_Ssend\",\"peer\":" #to ",\"tag\":" #tag ",\"comm\":0,\"bytes\":4}"
#define RECV(from, tag) "{\"call\":\"MPI_Recv\",\"peer\":" #from ",\"tag\":" #tag ",\"comm\":0,\"bytes\":4}"
#define ISEND(to, tag, req) "{\"call\":\"MPI_Isend\",\"peer\":" #to ",\"tag\":" #tag ",\"comm\":0,\"bytes\":4,\"req\":" #req "}"
#define IRECV(from, tag, req) "{\"call\":\"MPI_Irecv\",\"peer\":" #from ",\"tag\":" #tag ",\"comm\":0,\"req\":" #req "}"
#define WAIT(req) "{\"call\":\"MPI_Wait\",\"reqs\":[{\"req\":" #req "}]}"
#define WAITALL2(a, b) "{\"call\":\"MPI_Waitall\",\"reqs\":[{\"req\":" #a "},{\"req\":" #b "}]}"
#define BARRIER "{\"call\":\"MPI_Barrier\",\"comm\":0}"
#define RECV_ANY(tag) "{\"call\":\"MPI_Recv\",\"peer\":\"any\",\"tag\":" #tag ",\"comm\":0,\"bytes\":4}"
#define IRECV_ANY(tag, req) "{\"call\":\"MPI_Irecv\",\"peer\":\"any\",\"tag\":" #tag ",\"comm\":0,\"req\":" #req "}"
#define IRECV_ANYTAG(from, req) "{\"call\":\"MPI_Irecv\",\"peer\":" #from ",\"tag\":\"any\",\"comm\":0,\"req\":" #req "}"

#define EXPECT(events, zero, inf) do { \
	CU_ASSERT_EQUAL(unit_deadlocks(events, ENG_BUF_ZERO) > 0, zero); \
	CU_ASSERT_EQUAL(unit_deadlocks(events, ENG_BUF_INFINITE) > 0, inf); \
	CU_ASSERT(unit_deadlocks(events, ENG_BUF_ZERO) >= 0); \
	CU_ASSERT(unit_deadlocks(events, ENG_BUF_INFINITE) >= 0); \
} while (0)

/* Both ranks send first: safe only if the library buffers (the classic unsafe program). */
static void test_head_to_head(void)
{
	const char *const ev[] = {
		"[" INIT "," SEND(1, 0) "," RECV(1, 0) "," FIN "]",
		"[" INIT "," SEND(0, 0) "," RECV(0, 0) "," FIN "]",
		NULL,
	};

	EXPECT(ev, 1, 0);
}

/* Synchronous sends never buffer, so the same program deadlocks in every mode. */
static void test_ssend_never_buffers(void)
{
	const char *const ev[] = {
		"[" INIT "," SSEND(1, 0) "," RECV(1, 0) "," FIN "]",
		"[" INIT "," SSEND(0, 0) "," RECV(0, 0) "," FIN "]",
		NULL,
	};

	EXPECT(ev, 1, 1);
}

/* A wildcard receive that takes rank 1's message leaves Recv(1) waiting forever. */
static void test_wildcard_race(void)
{
	const char *const ev[] = {
		"[" INIT "," RECV_ANY(0) "," RECV(1, 0) "," FIN "]",
		"[" INIT "," SEND(0, 0) "," FIN "]",
		"[" INIT "," SEND(0, 0) "," FIN "]",
		NULL,
	};

	EXPECT(ev, 1, 1);
}

/* With wildcards, buffering can create a deadlock that zero buffering does not have
 * (MODELLING ex2b): the wildcard can only take rank 1's message if rank 1's first send
 * completes without rank 2 receiving it. */
static void test_buffering_induced(void)
{
	const char *const ev[] = {
		"[" INIT "," RECV_ANY(0) "," RECV(1, 0) "," FIN "]",
		"[" INIT "," SEND(2, 0) "," SEND(0, 0) "," FIN "]",
		"[" INIT "," SEND(0, 0) "," RECV(1, 0) "," FIN "]",
		NULL,
	};

	EXPECT(ev, 0, 1);
}

/* A cycle of sends among three ranks deadlocks unless sends are buffered. */
static void test_send_cycle(void)
{
	const char *const ev[] = {
		"[" INIT "," SEND(1, 0) "," RECV(2, 0) "," FIN "]",
		"[" INIT "," SEND(2, 0) "," RECV(0, 0) "," FIN "]",
		"[" INIT "," SEND(0, 0) "," RECV(1, 0) "," FIN "]",
		NULL,
	};

	EXPECT(ev, 1, 0);
}

/* A cycle of receives deadlocks whatever the buffering. */
static void test_recv_cycle(void)
{
	const char *const ev[] = {
		"[" INIT "," RECV(2, 0) "," SEND(1, 0) "," FIN "]",
		"[" INIT "," RECV(0, 0) "," SEND(2, 0) "," FIN "]",
		"[" INIT "," RECV(1, 0) "," SEND(0, 0) "," FIN "]",
		NULL,
	};

	EXPECT(ev, 1, 1);
}

/* An unbuffered send completes against a receive that was posted earlier, even while the
 * receiving rank is itself blocked in a send (MODELLING ex3b). */
static void test_preposted_irecv(void)
{
	const char *const ev[] = {
		"[" INIT "," IRECV(2, 0, 0) "," SEND(1, 0) "," WAIT(0) "," FIN "]",
		"[" INIT "," IRECV(0, 0, 0) "," SEND(2, 0) "," WAIT(0) "," FIN "]",
		"[" INIT "," IRECV(1, 0, 0) "," SEND(0, 0) "," WAIT(0) "," FIN "]",
		NULL,
	};

	EXPECT(ev, 0, 0);
}

/* Non-overtaking of receives: the earlier-posted wildcard receive takes the only message, so
 * the later receive naming its source waits forever; with two messages both complete. */
static void test_receive_order(void)
{
	const char *const one[] = {
		"[" INIT "," SEND(1, 0) "," FIN "]",
		"[" INIT "," IRECV_ANY(0, 0) "," IRECV(0, 0, 1) "," WAITALL2(0, 1) "," FIN "]",
		NULL,
	};
	const char *const two[] = {
		"[" INIT "," SEND(1, 0) "," SEND(1, 0) "," FIN "]",
		"[" INIT "," IRECV_ANY(0, 0) "," IRECV(0, 0, 1) "," WAITALL2(0, 1) "," FIN "]",
		NULL,
	};

	EXPECT(one, 1, 1);
	EXPECT(two, 0, 0);
}

struct matches {
	int recv_instr[8], send_instr[8], n;
};

static void note_match(void *ctx, int d, int ri, int s, int si)
{
	struct matches *m = ctx;

	(void)d;
	(void)s;
	m->recv_instr[m->n] = ri;
	m->send_instr[m->n] = si;
	m->n++;
}

/* Non-overtaking of messages, matching by tag: Irecv(tag 0) takes the second message (tag 0),
 * the ANY_TAG receive the first (tag 5), whatever order they were posted in (MODELLING ex4). */
static void test_match_by_tag(void)
{
	const char *const ev[] = {
		"[" INIT "," ISEND(1, 5, 0) "," ISEND(1, 0, 1) "," WAITALL2(0, 1) "," FIN "]",
		"[" INIT "," IRECV(0, 0, 0) "," IRECV_ANYTAG(0, 1) "," WAITALL2(0, 1) "," FIN "]",
		NULL,
	};
	struct mpiv_traceset ts;
	struct eng_prog prog;
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0};
	struct eng_observer obs;
	struct matches m;
	int32_t *st;

	EXPECT(ev, 0, 0);
	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &prog, NULL) == 0);
	memset(&m, 0, sizeof(m));
	obs.ctx = &m;
	obs.match = note_match;
	obs.exec = NULL;
	prog.obs = &obs;
	st = xmalloc(eng_state_bytes(&prog));
	eng_start(&prog, st);
	CU_ASSERT(eng_all_done(&prog, st));
	CU_ASSERT_EQUAL(m.n, 2);
	/* rank 1's instructions: 0 Irecv(tag 0), 1 Irecv(ANY_TAG); rank 0's: 0 Isend(5), 1 Isend(0) */
	CU_ASSERT(m.n == 2 && m.recv_instr[0] == 0 && m.send_instr[0] == 1);
	CU_ASSERT(m.n == 2 && m.recv_instr[1] == 1 && m.send_instr[1] == 0);
	free(st);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
}

/* A barrier waits for every rank: rank 0 in the barrier never sends what rank 1 waits for. */
static void test_barrier(void)
{
	const char *const bad[] = {
		"[" INIT "," BARRIER "," SEND(1, 0) "," FIN "]",
		"[" INIT "," RECV(0, 0) "," BARRIER "," FIN "]",
		NULL,
	};
	const char *const good[] = {
		"[" INIT "," ISEND(1, 0, 0) "," BARRIER "," WAIT(0) "," FIN "]",
		"[" INIT "," BARRIER "," RECV(0, 0) "," FIN "]",
		NULL,
	};
	const char *const unmatched[] = {
		"[" INIT "," ISEND(1, 0, 0) "," BARRIER "," WAIT(0) "," FIN "]",
		"[" INIT "," BARRIER "," RECV(0, 0) "," BARRIER "," FIN "]",
		NULL,
	};
	const char *const mismatched_count[] = {
		"[" INIT "," BARRIER "," BARRIER "," FIN "]",
		"[" INIT "," BARRIER "," FIN "]",
		NULL,
	};

	EXPECT(bad, 1, 1);
	EXPECT(mismatched_count, 1, 1);
	/* the send posted before the barrier is received after it, even unbuffered */
	EXPECT(good, 0, 0);
	/* rank 1's second barrier waits for rank 0's second: there is none */
	EXPECT(unmatched, 1, 1);
}

/* MPI_PROC_NULL peers complete at once. */
static void test_proc_null(void)
{
	const char *const ev[] = {
		"[" INIT ",{\"call\":\"MPI_Send\",\"peer\":\"null\",\"tag\":0,\"comm\":0},"
		"{\"call\":\"MPI_Recv\",\"peer\":\"null\",\"tag\":0,\"comm\":0}," FIN "]",
		NULL,
	};

	EXPECT(ev, 0, 0);
}

/* A trace that ends inside a call (a recorded hang) is still checked up to there. */
static void test_incomplete_trace(void)
{
	const char *const ev[] = {
		"[" INIT ",{\"call\":\"MPI_Recv\",\"peer\":1,\"tag\":0,\"comm\":0,\"incomplete\":true}]",
		"[" INIT ",{\"call\":\"MPI_Recv\",\"peer\":0,\"tag\":0,\"comm\":0,\"incomplete\":true}]",
		NULL,
	};

	EXPECT(ev, 1, 1);
}

/* Eager buffering: messages up to the threshold are buffered, larger ones wait. */
static void test_eager(void)
{
#define BIGSEND(to) "{\"call\":\"MPI_Send\",\"peer\":" #to ",\"tag\":0,\"comm\":0,\"bytes\":100000}"
	const char *const ev[] = {
		"[" INIT "," BIGSEND(1) "," RECV(1, 0) "," FIN "]",
		"[" INIT "," BIGSEND(0) "," RECV(0, 0) "," FIN "]",
		NULL,
	};
	struct mpiv_traceset ts;
	struct eng_prog prog;
	struct tr_opts small = {ENG_BUF_EAGER, 1024, 0}, large = {ENG_BUF_EAGER, 1 << 20, 0};
	long done;

	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &small, &prog, NULL) == 0);
	/* 100000 bytes is above a 1 KiB threshold: both sends wait, head to head */
	CU_ASSERT_EQUAL(unit_explore(&prog, &done), 1);
	eng_prog_release(&prog);
	CU_ASSERT_FATAL(tr_translate(&ts, &large, &prog, NULL) == 0);
	CU_ASSERT_EQUAL(unit_explore(&prog, &done), 0);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
}

static CU_TestInfo engine_tests[] = {
	{"head-to-head sends", test_head_to_head},
	{"ssend never buffers", test_ssend_never_buffers},
	{"wildcard race", test_wildcard_race},
	{"buffering-induced deadlock", test_buffering_induced},
	{"send cycle", test_send_cycle},
	{"receive cycle", test_recv_cycle},
	{"pre-posted irecv", test_preposted_irecv},
	{"non-overtaking receives", test_receive_order},
	{"match by tag", test_match_by_tag},
	{"barrier", test_barrier},
	{"proc null", test_proc_null},
	{"incomplete trace", test_incomplete_trace},
	{"eager threshold", test_eager},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo engine_suite = {"engine", NULL, NULL, NULL, NULL, engine_tests};
