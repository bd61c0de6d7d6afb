/* The model verify searches (doc/verify.md): a run translated with inputs and branches,
 * several runs merged into variants, destinations that follow the source just received, the
 * frontiers and deadlocks of verify's own search, a path as the decisions a run must take,
 * and the steering file. */
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "steer.h"
#include "translate.h"
#include "unit.h"
#include "xalloc.h"
#include "tr_explore.h"

#define INIT "{\"call\": \"MPI_Init\"}"
#define FIN "{\"call\": \"MPI_Finalize\"}"
#define SITE(a) ", \"site\": {\"module\": 0, \"addr\": " #a "}"
#define SEND(peer, tag, site)                                          \
	"{\"call\": \"MPI_Send\", \"peer\": " #peer ", \"tag\": " #tag \
	", \"comm\": 0, \"bytes\": 4" SITE(site) "}"
#define RECV(peer, tag, src, mtag, site)                             \
	"{\"call\": \"MPI_Recv\", \"peer\": " peer ", \"tag\": " tag \
	", \"comm\": 0, \"bytes\": 4, "                              \
	"\"src\": " #src ", \"mtag\": " #mtag SITE(site) "}"

/* Rank 0 acts on which sender its wildcard took (examples/verify/first-sender-branch.c):
 * taking rank 1 first it receives from rank 2 (run a); taking rank 2 first it receives from
 * rank 1 twice and hangs in the second (run b). */
static const char *const branch_a[] = {
	"[" INIT ", " RECV("\"any\"", "0", 1, 0, 32) ", " RECV("2", "0", 2, 0, 48) ", " FIN "]",
	"[" INIT ", " SEND(0, 0, 16) ", " FIN "]",
	"[" INIT ", " SEND(0, 0, 16) ", " FIN "]",
	NULL,
};
static const char *const branch_b[] = {
	"[" INIT ", " RECV("\"any\"", "0", 2, 0, 32) ", " RECV(
		"1", "0", 1, 0,
		64) ", "
		    "{\"call\": \"MPI_Recv\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4, "
		    "\"incomplete\": true" SITE(80) "}]",
	"[" INIT ", " SEND(0, 0, 16) ", " FIN "]",
	"[" INIT ", " SEND(0, 0, 16) ", " FIN "]",
	NULL,
};

/* A task farm of two workers (examples/verify/task-farm.c): the master replies to whichever
 * answered (first = the one whose result came first), stopping it with tag 2. */
#define FARM(first, second)                                                                        \
	{                                                                                          \
		"[" INIT ", " SEND(1, 1, 16) ", " SEND(2, 1, 16) ", " RECV(                        \
			"\"any\"", "0", first, 0,                                                  \
			32) ", " SEND(first, 2, 48) ", " RECV("\"any\"", "0", second, 0,           \
							      32) ", " SEND(second, 2,             \
									    48) ", " FIN "]",      \
			"[" INIT ", " RECV("0", "\"any\"", 0, 1,                                   \
					   64) ", " SEND(0, 0, 80) ", " RECV("0", "\"any\"", 0, 2, \
									     64) ", " FIN "]",     \
			"[" INIT ", " RECV("0", "\"any\"", 0, 1,                                   \
					   64) ", " SEND(0, 0, 80) ", " RECV("0", "\"any\"", 0, 2, \
									     64) ", " FIN "]",     \
			NULL,                                                                      \
	}
static const char *const farm_12[] = FARM(1, 2);
static const char *const farm_21[] = FARM(2, 1);

static int load(const char *const events[], struct unit_run *r)
{
	return unit_run_load(events, 1, r);
}

/* The ways on of process q's branches that take an input: the most any has. */
static int most_ways(const struct eng_prog *p, int q)
{
	int i, most = 0;

	for (i = 0; i < p->nins[q]; i++)
		if (p->ins[q][i].op == ENG_BRANCH && p->ins[q][i].a >= 0 &&
		    p->ins[q][i].n / ENG_BRANCH_WORDS > most)
			most = p->ins[q][i].n / ENG_BRANCH_WORDS;
	return most;
}

/* A receive takes an input into a register, and a branch follows where the program learns
 * it: comparing the source a wildcard left open and the sending call site, with the input the
 * run recorded. */
static void test_inputs_and_branches(void)
{
	struct unit_run r;
	const struct eng_instr *ins;
	int i, branches = 0;

	CU_ASSERT_FATAL(load(branch_a, &r) == 0);
	CU_ASSERT_FATAL(r.prog.verify);
	ins = r.prog.ins[0];
	CU_ASSERT_EQUAL(ins[0].op, ENG_BRANCH); /* where runs that differ from the start part */
	for (i = 1; i < r.prog.nins[0]; i++) {
		if (ins[i].op == ENG_POST_RECV)
			CU_ASSERT(ins[i].reg > 0);
		if (ins[i].op != ENG_BRANCH)
			continue;
		CU_ASSERT_EQUAL(ins[i - 1].op, ENG_WAIT); /* learnt when the receive returns */
		/* one way on, to the next instruction, with the input the run took */
		CU_ASSERT_EQUAL_FATAL(ins[i].n, ENG_BRANCH_WORDS);
		CU_ASSERT_EQUAL(ins[i].list[0], i + 1);
		if (branches++ == 0) {
			CU_ASSERT_EQUAL(ins[i].sym, ENG_IN_SOURCE | ENG_IN_SITE);
			CU_ASSERT_EQUAL(ins[i].list[1], 1); /* the recorded sender */
			CU_ASSERT_EQUAL(ins[i].list[2], 0);
			CU_ASSERT(ins[i].list[3] != 0); /* what rank 1's send carried */
		} else {
			CU_ASSERT_EQUAL(ins[i].sym, ENG_IN_SITE); /* a named source */
			CU_ASSERT_EQUAL(ins[i].list[1], 2);
		}
	}
	CU_ASSERT_EQUAL(branches, 2);
	/* ranks 1 and 2 send from the same call: the same key in every run */
	CU_ASSERT_EQUAL(r.prog.ins[1][1].site, r.prog.ins[2][1].site);
	CU_ASSERT(r.prog.ins[1][1].site != 0);
	unit_run_release(&r);
}

/* One run: the other sender is a frontier (no run shows what rank 0 does then); the
 * recorded branch itself is free of deadlock. */
static void test_frontier_of_one_run(void)
{
	struct unit_run r;
	struct xmodel m;
	struct tr_explore_result res;

	CU_ASSERT_FATAL(load(branch_a, &r) == 0);
	CU_ASSERT_FATAL(unit_merge_search(&r, 1, ENG_BUF_ZERO, &m, &res) == 0);
	CU_ASSERT(res.complete);
	CU_ASSERT_EQUAL(res.nstuck, 0);
	CU_ASSERT_EQUAL_FATAL(res.nfrontiers, 1);
	CU_ASSERT_EQUAL(res.frontiers[0].proc, 0);
	CU_ASSERT_EQUAL(res.frontiers[0].input[0], 2); /* rank 2's message first */
	CU_ASSERT(res.frontiers[0].sym & ENG_IN_SOURCE);
	tr_explore_release(&res);
	xmodel_release(&m);
	unit_run_release(&r);
}

/* Both runs merged: rank 0's branch has two ways on; taking rank 2 first it goes on in run b's
 * and deadlocks; no frontier is left. */
static void test_merged_runs_deadlock(void)
{
	struct unit_run r[2];
	struct xmodel m;
	struct tr_explore_result res;
	struct xpath pt;
	struct mpiv_traceset *sets[2];

	CU_ASSERT_FATAL(load(branch_a, &r[0]) == 0);
	CU_ASSERT_FATAL(load(branch_b, &r[1]) == 0);
	CU_ASSERT_FATAL(unit_merge_search(r, 2, ENG_BUF_ZERO, &m, &res) == 0);
	CU_ASSERT_EQUAL(most_ways(&m.prog, 0), 2);
	CU_ASSERT_EQUAL(most_ways(&m.prog, 1), 0); /* the senders learn nothing */
	CU_ASSERT_EQUAL(res.nfrontiers, 0);
	CU_ASSERT_EQUAL_FATAL(res.nstuck, 1);
	CU_ASSERT(res.stuck[0].place[0] >= 0); /* rank 0 blocked */
	CU_ASSERT_EQUAL(res.stuck[0].place[1], -1);
	/* the path: rank 0's wildcard takes rank 2's message; it ends in run b's variant */
	sets[0] = &r[0].ts;
	sets[1] = &r[1].ts;
	CU_ASSERT_FATAL(xpath_of(&m, sets, res.stuck[0].path, res.stuck[0].npath, &pt) == 0);
	CU_ASSERT_EQUAL(pt.run[0], 1);
	CU_ASSERT_EQUAL(pt.event[0], 3); /* the second receive from rank 1 */
	CU_ASSERT_EQUAL_FATAL(pt.steer[0].n, 1);
	CU_ASSERT_EQUAL(pt.steer[0].d[0].call, MPIV_CALL_Recv);
	CU_ASSERT_EQUAL(pt.steer[0].d[0].src, 2);
	CU_ASSERT_EQUAL(pt.steer[1].n, 0);
	CU_ASSERT(pt.at_end[1]);
	xpath_release(&pt);
	tr_explore_release(&res);
	xmodel_release(&m);
	unit_run_release(&r[0]);
	unit_run_release(&r[1]);
}

/* The farm's replies follow the source just received: one run models every order of the
 * answers (a frontier only where the master learns of a sender no run showed), and two runs
 * of both orders leave none; no order deadlocks. */
static void test_destination_follows_source(void)
{
	struct unit_run r[2];
	struct xmodel m;
	struct tr_explore_result res;
	const struct eng_instr *ins;
	int i, followed = 0;

	CU_ASSERT_FATAL(load(farm_12, &r[0]) == 0);
	CU_ASSERT_FATAL(load(farm_21, &r[1]) == 0);
	CU_ASSERT_FATAL(unit_merge_search(r, 1, ENG_BUF_ZERO, &m, &res) == 0);
	ins = m.prog.ins[0];
	for (i = 0; i < m.prog.nins[0]; i++)
		if (ins[i].op == ENG_POST_SEND && ins[i].c == 2) {
			CU_ASSERT(ins[i].sym & ENG_IN_SOURCE);
			CU_ASSERT(ins[i].reg > 0);
			followed++;
		} else if (ins[i].op == ENG_POST_SEND) {
			CU_ASSERT_EQUAL(ins[i].sym, 0); /* the first tasks: no input before */
		}
	CU_ASSERT_EQUAL(followed, 2);
	CU_ASSERT_EQUAL(res.nstuck, 0);
	CU_ASSERT(res.nfrontiers >= 1);
	tr_explore_release(&res);
	xmodel_release(&m);
	CU_ASSERT_FATAL(unit_merge_search(r, 2, ENG_BUF_ZERO, &m, &res) == 0);
	CU_ASSERT_EQUAL(res.nstuck, 0);
	CU_ASSERT_EQUAL(res.nfrontiers, 0);
	tr_explore_release(&res);
	xmodel_release(&m);
	unit_run_release(&r[0]);
	unit_run_release(&r[1]);
}

/* Without the dependence (the replies come from a call that does not always answer the
 * sender) the recorded destinations stay, and the other order is a frontier, never a
 * deadlock of the model. (With buffered sends: unbuffered, the master's stop to worker 2 and
 * worker 2's result meet head to head.) */
static void test_destination_kept(void)
{
	static const char *const farm_fixed[] = {
		"[" INIT ", " SEND(1, 1, 16) ", " SEND(2, 1, 16) ", " RECV(
			"\"any\"", "0", 1, 0,
			32) ", " SEND(2, 2, 48) ", " RECV("\"any\"", "0", 2, 0,
							  32) ", " SEND(1, 2, 48) ", " FIN "]",
		"[" INIT
		", " RECV("0", "\"any\"", 0, 1,
			  64) ", " SEND(0, 0, 80) ", " RECV("0", "\"any\"", 0, 2, 64) ", " FIN "]",
		"[" INIT
		", " RECV("0", "\"any\"", 0, 1,
			  64) ", " SEND(0, 0, 80) ", " RECV("0", "\"any\"", 0, 2, 64) ", " FIN "]",
		NULL,
	};
	struct unit_run r;
	struct xmodel m;
	struct tr_explore_result res;
	int i;

	CU_ASSERT_FATAL(load(farm_fixed, &r) == 0);
	CU_ASSERT_FATAL(unit_merge_search(&r, 1, ENG_BUF_INFINITE, &m, &res) == 0);
	for (i = 0; i < m.prog.nins[0]; i++)
		if (m.prog.ins[0][i].op == ENG_POST_SEND)
			CU_ASSERT_EQUAL(m.prog.ins[0][i].sym, 0);
	CU_ASSERT_EQUAL(res.nstuck, 0);
	CU_ASSERT(res.nfrontiers >= 1);
	tr_explore_release(&res);
	xmodel_release(&m);
	unit_run_release(&r);
}

/* MPI_Waitany's index is a choice in verify, and the branch after it compares it: the other
 * request first is a frontier. */
static void test_waitany_choice(void)
{
	static const char *const waitany[] = {
		"[" INIT ", {\"call\": \"MPI_Irecv\", \"peer\": 1, \"tag\": 0, \"comm\": 0, "
		"\"bytes\": 4, \"reqs\": [{\"req\": 0}]" SITE(
			16) "}, {\"call\": \"MPI_Irecv\", "
			    "\"peer\": 2, \"tag\": 0, \"comm\": 0, \"bytes\": 4, \"reqs\": [{\"req\": 1}]" SITE(
				    17) "}, {\"call\": \"MPI_Waitany\", \"pending\": 1, \"reqs\": [{\"req\": 0, "
					"\"src\": 1, \"tag\": 0}, {\"req\": 1}]" SITE(
						18) "}, {\"call\": \"MPI_Wait\", "
						    "\"reqs\": [{\"req\": 1, \"src\": 2, \"tag\": 0}]" SITE(
							    19) "}, " FIN "]",
		"[" INIT ", " SEND(0, 0, 20) ", " FIN "]",
		"[" INIT ", " SEND(0, 0, 20) ", " FIN "]",
		NULL,
	};
	struct unit_run r;
	struct xmodel m;
	struct tr_explore_result res;
	struct xpath pt;
	struct mpiv_traceset *sets[1];
	int i;

	CU_ASSERT_FATAL(load(waitany, &r) == 0);
	CU_ASSERT_FATAL(unit_merge_search(&r, 1, ENG_BUF_ZERO, &m, &res) == 0);
	CU_ASSERT_EQUAL(res.nstuck, 0);
	CU_ASSERT_EQUAL_FATAL(res.nfrontiers, 1);
	CU_ASSERT_EQUAL(res.frontiers[0].proc, 0);
	/* the path to it: MPI_Waitany returns request 1 (rank 2's receive) */
	sets[0] = &r.ts;
	CU_ASSERT_FATAL(xpath_of(&m, sets, res.frontiers[0].path, res.frontiers[0].npath, &pt) ==
			0);
	CU_ASSERT_EQUAL_FATAL(pt.steer[0].n, 1);
	CU_ASSERT_EQUAL(pt.steer[0].d[0].call, MPIV_CALL_Waitany);
	CU_ASSERT_EQUAL_FATAL(pt.steer[0].d[0].nreqs, 1);
	CU_ASSERT_EQUAL(pt.steer[0].d[0].reqs[0], 1);
	for (i = 1; i < 3; i++)
		CU_ASSERT_EQUAL(pt.steer[i].n, 0);
	xpath_release(&pt);
	tr_explore_release(&res);
	xmodel_release(&m);
	unit_run_release(&r);
}

/* Two ranks each send the other one message with MPI_Issend and poll: MPI_Iprobe, then the
 * receive of what it found, and MPI_Test of their own send. In run a each rank's probe
 * succeeds first; in run b its test. */
#define ISSEND(peer)                                                                              \
	"{\"call\": \"MPI_Issend\", \"peer\": " #peer ", \"tag\": 0, \"comm\": 0, \"bytes\": 4, " \
	"\"reqs\": [{\"req\": 0}]" SITE(16) "}"
#define FOUND(peer)                                                                              \
	"{\"call\": \"MPI_Iprobe\", \"peer\": \"any\", \"tag\": 0, \"comm\": 0, \"src\": " #peer \
	", \"mtag\": 0" SITE(32) "}, " RECV(#peer, "0", peer, 0, 48)
#define TESTED "{\"call\": \"MPI_Test\", \"reqs\": [{\"req\": 0}]" SITE(64) "}"
#define POLLS(first, second, peer) "[" INIT ", " ISSEND(peer) ", " first ", " second ", " FIN "]"

/* A branch whose ways begin with polls goes on in whichever poll can succeed: run b alone
 * has both ranks wait for their sends first (a deadlock of the model, which a run refutes);
 * with run a merged, the branch before each rank's first poll has both ways, the model takes
 * the probe's while no send can complete, and deadlocks nowhere. */
static void test_polls_race(void)
{
	static const char *const probe_first[] = {POLLS(FOUND(1), TESTED, 1),
						  POLLS(FOUND(0), TESTED, 0), NULL};
	static const char *const test_first[] = {POLLS(TESTED, FOUND(1), 1),
						 POLLS(TESTED, FOUND(0), 0), NULL};
	struct unit_run r[2];
	struct xmodel m;
	struct tr_explore_result res;
	int i, polled = 0;

	CU_ASSERT_FATAL(load(probe_first, &r[0]) == 0);
	CU_ASSERT_FATAL(load(test_first, &r[1]) == 0);
	for (i = 0; i < r[1].prog.nins[0]; i++)
		polled += (r[1].prog.ins[0][i].sym & ENG_POLLED) != 0;
	CU_ASSERT_EQUAL(polled, 2); /* the test's wait, the found message's receive */
	CU_ASSERT_FATAL(unit_merge_search(&r[1], 1, ENG_BUF_ZERO, &m, &res) == 0);
	CU_ASSERT_EQUAL(res.nstuck, 1);
	tr_explore_release(&res);
	xmodel_release(&m);
	CU_ASSERT_FATAL(unit_merge_search(r, 2, ENG_BUF_ZERO, &m, &res) == 0);
	/* after the send, a branch on no input: which poll succeeds first, of two ways */
	for (i = 0, polled = 0; i < m.prog.nins[0]; i++)
		polled += m.prog.ins[0][i].op == ENG_BRANCH && m.prog.ins[0][i].a < 0 &&
			  m.prog.ins[0][i].n == 2 * ENG_BRANCH_WORDS;
	CU_ASSERT(polled >= 1);
	unit_expect_explored(&res);
	xmodel_release(&m);
	unit_run_release(&r[0]);
	unit_run_release(&r[1]);
}

/* Which collectives meet depends on the paths: without the translator's marking, the
 * engine finds members at the same place on a communicator calling different collectives,
 * and they never complete. */
static void test_collective_mismatch(void)
{
	static const char *const mismatch[] = {
		"[" INIT ", {\"call\": \"MPI_Barrier\", \"comm\": 0}, " FIN "]",
		"[" INIT ", {\"call\": \"MPI_Allreduce\", \"comm\": 0, \"bytes\": 4}, " FIN "]",
		NULL,
	};
	struct unit_run r;
	struct xmodel m;
	struct tr_explore_result res;

	CU_ASSERT_FATAL(load(mismatch, &r) == 0);
	CU_ASSERT_FATAL(unit_merge_search(&r, 1, ENG_BUF_INFINITE, &m, &res) == 0);
	CU_ASSERT_EQUAL(res.nstuck, 1);
	tr_explore_release(&res);
	xmodel_release(&m);
	unit_run_release(&r);
}

/* The steering file: buffering line and decisions, written and read back. */
static void test_steer_file(void)
{
	static const char *const bad[] = {
		"mpiverify-steer 1\nbuffering zero\ncollectives synchronise\n",
		"mpiverify-steer 1\nbuffering infinite\ncollectives maybe\n",
		"mpiverify-steer 1\nbuffering infinite\ncollectives\n",
		"mpiverify-steer 1\ncollectives synchronise\n",
	};
	struct mpiv_steer_decision d[2];
	struct mpiv_steer s;
	size_t i;
	int32_t reqs[1] = {4};
	char *text = NULL, why[128];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CU_ASSERT_FATAL(f != NULL);
	memset(d, 0, sizeof(d));
	d[0].call = MPIV_CALL_Recv;
	d[0].comm = 0;
	d[0].tag = MPIV_ANY_TAG;
	d[0].src = 2;
	d[1].call = MPIV_CALL_Waitany;
	d[1].comm = MPIV_NONE;
	d[1].tag = MPIV_NONE;
	d[1].src = MPIV_NONE;
	d[1].nreqs = 1;
	d[1].reqs = reqs;
	mpiv_steer_write_header(f, MPIV_STEER_EAGER, 8192, 1);
	mpiv_steer_write_rank(f, 3, d, 2);
	fclose(f);
	CU_ASSERT_FATAL(mpiv_steer_parse(text, len, 3, &s, why, sizeof(why)) == 0);
	CU_ASSERT_EQUAL(s.buffering, MPIV_STEER_EAGER);
	CU_ASSERT_EQUAL(s.eager, 8192);
	CU_ASSERT_EQUAL(s.sync_colls, 1);
	CU_ASSERT_EQUAL_FATAL(s.n, 2);
	CU_ASSERT_EQUAL(s.d[0].src, 2);
	CU_ASSERT_EQUAL(s.d[0].tag, MPIV_ANY_TAG);
	CU_ASSERT_EQUAL(s.d[1].nreqs, 1);
	CU_ASSERT_EQUAL(s.d[1].reqs[0], 4);
	mpiv_steer_release(&s);
	/* another rank's decisions are not this one's, but the buffering is the run's */
	CU_ASSERT_FATAL(mpiv_steer_parse(text, len, 1, &s, why, sizeof(why)) == 0);
	CU_ASSERT_EQUAL(s.n, 0);
	CU_ASSERT_EQUAL(s.buffering, MPIV_STEER_EAGER);
	mpiv_steer_release(&s);
	CU_ASSERT(mpiv_steer_parse("mpiverify-steer 1\nbuffering sometimes\n", 38, 0, &s, why,
				   sizeof(why)) < 0);
	mpiv_steer_release(&s);
	/* collectives synchronise with buffering only, and say so in two words */
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT(mpiv_steer_parse(bad[i], strlen(bad[i]), 0, &s, why, sizeof(why)) < 0);
		mpiv_steer_release(&s);
	}
	free(text);
}

/* Threads' decisions: a thread line each, by path; the last line of a thread stands; a path
 * is "0" then ".K" with K from 1, and the initial thread's is the rank line's. */
static void test_steer_threads(void)
{
	static const char *const bad_paths[] = {"0",	"1",	"0.0", "0.",   "0..1",
						"0.01", "0.1a", ".1",  "0.1.", "x"};
	static const char *const text = "mpiverify-steer 1\n"
					"rank 2 1\nMPI_Recv 0 5 src 1\n"
					"thread 2 0.1 2\nMPI_Recv 0 1 src 3\nMPI_Probe 0 1 src 0\n"
					"thread 2 0.2.1 1\nMPI_Recv 0 2 free\n"
					"thread 1 0.1 1\nMPI_Recv 0 1 src 2\n"
					"thread 2 0.1 1\nMPI_Recv 0 1 src 1\n"
					"thread 2 0.3 0\n";
	const struct mpiv_steer_decision *d;
	struct mpiv_steer s, back;
	char line[128], why[128], *out = NULL;
	size_t n, len = 0, i;
	FILE *f;

	CU_ASSERT_FATAL(mpiv_steer_parse(text, strlen(text), 2, &s, why, sizeof(why)) == 0);
	CU_ASSERT_EQUAL(s.n, 1);
	/* 0.3 has no decisions: not kept */
	CU_ASSERT_EQUAL_FATAL(s.nthreads, 2);
	mpiv_steer_decisions_of(&s, "0.1", &d, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1); /* its last line stands */
	CU_ASSERT_EQUAL(d[0].src, 1);
	mpiv_steer_decisions_of(&s, "0.2.1", &d, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT(mpiv_steer_free(&d[0]));
	mpiv_steer_decisions_of(&s, "0", &d, &n);
	CU_ASSERT_EQUAL_FATAL(n, 1);
	CU_ASSERT_EQUAL(d[0].tag, 5);
	mpiv_steer_decisions_of(&s, "0.3", &d, &n);
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_PTR_NULL(d);
	/* written back, the same */
	f = open_memstream(&out, &len);
	CU_ASSERT_FATAL(f != NULL);
	mpiv_steer_write_header(f, MPIV_STEER_NATURAL, 0, 0);
	mpiv_steer_write_all(f, &s);
	fclose(f);
	CU_ASSERT_FATAL(mpiv_steer_parse(out, len, 2, &back, why, sizeof(why)) == 0);
	CU_ASSERT_EQUAL(back.nthreads, 2);
	CU_ASSERT_EQUAL(back.n, 1);
	for (i = 0; i < back.nthreads; i++)
		CU_ASSERT_STRING_EQUAL(back.threads[i].path, s.threads[i].path);
	mpiv_steer_release(&back);
	mpiv_steer_release(&s);
	free(out);
	for (i = 0; i < sizeof(bad_paths) / sizeof(bad_paths[0]); i++) {
		snprintf(line, sizeof(line),
			 "mpiverify-steer 1\nthread 0 %s 1\nMPI_Recv 0 0 src 1\n", bad_paths[i]);
		CU_ASSERT(mpiv_steer_parse(line, strlen(line), 0, &s, why, sizeof(why)) < 0);
		CU_ASSERT_PTR_NOT_NULL(strstr(why, "thread line"));
		mpiv_steer_release(&s);
	}
}

static CU_TestInfo tests[] = {
	{"a receive's input and the branch that learns it", test_inputs_and_branches},
	{"one run: the other sender is a frontier", test_frontier_of_one_run},
	{"two runs merged: the other branch deadlocks", test_merged_runs_deadlock},
	{"a reply follows the source just received", test_destination_follows_source},
	{"a destination that does not follow stays", test_destination_kept},
	{"MPI_Waitany's index is a choice and a decision", test_waitany_choice},
	{"collectives that meet differ: never complete", test_collective_mismatch},
	{"a branch of polls goes on in the one that succeeds", test_polls_race},
	{"the steering file round trip", test_steer_file},
	{"the steering of threads, each by its path", test_steer_threads},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo verify_suite = {"verify", NULL, NULL, NULL, NULL, tests};
