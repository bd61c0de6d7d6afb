/* verify's model of a farm whose master counts what it took (doc/verify.md section 2): a run
 * steered where a worker has nothing more to say hangs in the master's probe, and says nothing
 * of what the messages carried; and a place of a phase is the calls made since the phase
 * began in any order, as a master that counts its workers' last words is in the same state
 * whichever order they came in, the runs' evidence at one place of a phase holding for
 * every place of it. A master that serves what MPI_Waitsome returned, one after another,
 * makes its calls for each after the model returned it. */
#include <stddef.h>
#include <stdio.h>

#include "model.h"
#include "tr_explore.h"
#include "unit.h"

#define INIT "{\"call\": \"MPI_Init\"}"
#define FIN "{\"call\": \"MPI_Finalize\"}"
#define SITE(a) ", \"site\": {\"module\": 0, \"addr\": " #a "}"

/* ---- a run that stopped in a probe ---- */

/* The master probes for any worker's word (call site 32: MPI_Probe, or a loop of MPI_Iprobe)
 * and receives what it found (48); a worker says one word (16), tag 4, its data its own. */
#define PROBE(call, more)    \
	"{\"call\": \"" call \
	"\", \"peer\": \"any\", \"tag\": \"any\", \"comm\": 0" more SITE(32) "}"
#define FOUND(call, w)                                \
	PROBE(call, ", \"src\": " #w ", \"mtag\": 4") \
	", {\"call\": \"MPI_Recv\", \"peer\": " #w    \
	", \"tag\": 4, \"comm\": 0, \"bytes\": 4, \"src\": " #w ", \"mtag\": 4" SITE(48) "}"
#define MASTER(call, first, then) "[" INIT ", " FOUND(call, first) ", " then "]"
#define TAKES(call, first, second) MASTER(call, first, FOUND(call, second) ", " FIN)
#define SEND(w, more)                                                                                \
	"{\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 4, \"comm\": 0, \"bytes\": 4, \"data\": " #w \
	"00" more SITE(16) "}"
#define SAID(w) "[" INIT ", " SEND(w, "") ", " FIN "]"
#define SAYING(w) "[" INIT ", " SEND(w, ", \"incomplete\": true") "]"

/* Runs a and b take worker 1's word first, then 2's, and the other way round. Run c was
 * steered to take a second word of worker 1's after its first: the master hangs in its probe
 * (worker 2's send with it). Its way from the branch on worker 1's word is a's: the probe
 * that never returned is the receive a made, or the branch before a poll. Were it another
 * way, worker 1's word would go two ways there, and what tells it from worker 2's (which went
 * on as a's did) would be the data as much as the source: every branch of the call site
 * would compare the data, each message a worker sends with other data a frontier at every
 * place. */
static void expect_stopped_probe_alike(const char *const a[], const char *const b[],
				       const char *const c[])
{
	struct unit_run r[3];
	struct xmodel m;
	struct tr_explore_result res;
	int i, pc, data = 0;

	CU_ASSERT_FATAL(unit_run_load(a, 1, &r[0]) == 0);
	CU_ASSERT_FATAL(unit_run_load(b, 1, &r[1]) == 0);
	CU_ASSERT_FATAL(unit_run_load(c, 1, &r[2]) == 0);
	CU_ASSERT_FATAL(unit_merge_search(r, 3, ENG_BUF_ZERO, &m, &res) == 0);
	for (pc = 0; pc < m.prog.nins[0]; pc++)
		data += m.prog.ins[0][pc].op == ENG_BRANCH && m.prog.ins[0][pc].a >= 0 &&
			(m.prog.ins[0][pc].sym & ENG_IN_SITE);
	CU_ASSERT_EQUAL(data, 0);
	unit_expect_explored(&res);
	xmodel_release(&m);
	for (i = 0; i < 3; i++)
		unit_run_release(&r[i]);
}

static void test_farm_stopped_in_probe(void)
{
	static const char *const a[] = {TAKES("MPI_Probe", 1, 2), SAID(1), SAID(2), NULL};
	static const char *const b[] = {TAKES("MPI_Probe", 2, 1), SAID(1), SAID(2), NULL};
	static const char *const c[] = {MASTER("MPI_Probe", 1,
					       PROBE("MPI_Probe", ", \"incomplete\": true")),
					SAID(1), SAYING(2), NULL};

	expect_stopped_probe_alike(a, b, c);
}

/* The same with a loop of MPI_Iprobe, still polling when the job was ended. */
static void test_farm_stopped_polling(void)
{
	static const char *const a[] = {TAKES("MPI_Iprobe", 1, 2), SAID(1), SAID(2), NULL};
	static const char *const b[] = {TAKES("MPI_Iprobe", 2, 1), SAID(1), SAID(2), NULL};
	static const char *const c[] = {MASTER("MPI_Iprobe", 1, PROBE("MPI_Iprobe", "")), SAID(1),
					SAYING(2), NULL};

	expect_stopped_probe_alike(a, b, c);
}

/* ---- a completion of several, served in order ---- */

#define POST(w, r)                                        \
	"{\"call\": \"MPI_Irecv\", \"peer\": " #w         \
	", \"tag\": \"any\", \"comm\": 0, \"bytes\": 4, " \
	"\"reqs\": [{\"req\": " #r "}]" SITE(40) "}"
#define TASK_TO(w)                               \
	"{\"call\": \"MPI_Send\", \"peer\": " #w \
	", \"tag\": 2, \"comm\": 0, \"bytes\": 4" SITE(56) "}"
#define WAITSOME(pending, reqs) \
	"{\"call\": \"MPI_Waitsome\", \"pending\": " #pending ", \"reqs\": [" reqs "]" SITE(48) "}"
#define DONE(r, w, t) "{\"req\": " #r ", \"src\": " #w ", \"tag\": " #t "}"
#define ASK SEND_TAG(1, 16) ", "
#define TAKE_TASK                                                                             \
	"{\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": \"any\", \"comm\": 0, \"bytes\": 4, " \
	"\"src\": 0, \"mtag\": 2" SITE(20) "}, "
#define SEND_TAG(t, site)                                    \
	"{\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": " #t \
	", \"comm\": 0, \"bytes\": 4" SITE(site) "}"
#define LAST SEND_TAG(4, 24)

#define MASTER_SERVES                                                                  \
	WAITSOME(0, DONE(0, 1, 1) ", " DONE(1, 2, 4) ", " DONE(2, 3, 1))               \
	", " TASK_TO(1) ", " POST(1, 3) ", " TASK_TO(3) ", " POST(3, 4) ", " WAITSOME( \
		1, DONE(3, 1, 4) ", {\"req\": 4}") ", " WAITSOME(0, DONE(4, 3, 4))

/* The master's MPI_Waitsome returns worker 1's request, worker 2's last word and worker 3's
 * request at once; it serves them in that order: a task to worker 1, nothing for worker 2's
 * last word (it counts it), a task to worker 3. The model returns the three one at a time,
 * each where the program's calls for it begin: worker 2's and worker 3's before the task to
 * worker 3. Were worker 3's returned after that task (only the next one, worker 2's, looked
 * for at a call to its peer), the task would follow worker 1's request in the model, and a
 * master that had served worker 3 before would serve it again: a deadlock no run has. */
static void test_waitsome_served_in_order(void)
{
	static const char *const ranks[] =
		{"[" INIT ", " POST(1, 0) ", " POST(2, 1) ", " POST(3, 2) ", " MASTER_SERVES
									  ", " FIN "]",
		 "[" INIT ", " ASK TAKE_TASK LAST ", " FIN "]", "[" INIT ", " LAST ", " FIN "]",
		 "[" INIT ", " ASK TAKE_TASK LAST ", " FIN "]", NULL};
	struct unit_run r;
	int pc, returned = 0;

	CU_ASSERT_FATAL(unit_run_load(ranks, 1, &r) == 0);
	for (pc = 0; pc < r.prog.nins[0]; pc++) {
		const struct eng_instr *in = &r.prog.ins[0][pc];

		returned += in->op == ENG_WAITANY;
		if (in->op == ENG_POST_SEND && in->a == 3)
			break;
	}
	CU_ASSERT_FATAL(pc < r.prog.nins[0]);
	CU_ASSERT_EQUAL(returned, 3);
	unit_run_release(&r);
}

/* The model of two recorded runs (data/NAME/1 and 2), searched without buffering. */
static void merge_runs(const char *name, struct unit_run *r, int n, struct xmodel *m,
		       struct tr_explore_result *res)
{
	char d[64];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(d, sizeof(d), "%s/%d", name, i + 1);
		CU_ASSERT_FATAL(unit_run_load_dir(d, &r[i]) == 0);
	}
	CU_ASSERT_FATAL(unit_merge_search(r, n, ENG_BUF_ZERO, m, res) == 0);
}

static void release_runs(struct unit_run *r, int n, struct xmodel *m, struct tr_explore_result *res)
{
	int i;

	tr_explore_release(res);
	xmodel_release(m);
	for (i = 0; i < n; i++)
		unit_run_release(&r[i]);
}

static void merge_recorded(const char *name, struct unit_run r[2], struct xmodel *m,
			   struct tr_explore_result *res)
{
	merge_runs(name, r, 2, m, res);
}

static void release_recorded(struct unit_run r[2], struct xmodel *m, struct tr_explore_result *res)
{
	release_runs(r, 2, m, res);
}

/* How many of the master's (process 0's) branches compare the data of what it took. */
static int compares_data(const struct xmodel *m, int q)
{
	int pc, data = 0;

	for (pc = 0; pc < m->prog.nins[q]; pc++)
		data += m->prog.ins[q][pc].op == ENG_BRANCH && m->prog.ins[q][pc].a >= 0 &&
			(m->prog.ins[q][pc].sym & ENG_IN_SITE);
	return data;
}

/* How many ways of process q's branches part from their first. */
static int ways_parted(const struct xmodel *m, int q)
{
	int pc, i, ways = 0;

	for (pc = 0; pc < m->prog.nins[q]; pc++) {
		const struct eng_instr *in = &m->prog.ins[q][pc];

		for (i = 1; in->op == ENG_BRANCH && i < in->n / ENG_BRANCH_WORDS; i++)
			ways += in->list[i * ENG_BRANCH_WORDS] != in->list[0];
	}
	return ways;
}

/* ---- places alike ---- */

/* Two recorded runs of the farm of tests/zoo/farm.c whose master polls with MPI_Iprobe and
 * counts its workers' last words (4 tasks, 4 workers, 2 rounds parted by MPI_Barrier;
 * data/farm-places). The master is at many places of the first round, and the runs show at
 * some of them one input taken after two histories and the master going on alike: every place
 * of the round is then one whatever came before. Only the round's last word, where the next
 * call is the barrier, is left unsettled, once in each run. Were the evidence of a place
 * weighed against what was kept of those before it, not against their evidence, the places
 * late in the candidates' order would be left unsettled (4 branches here), each with a copy
 * of the rest of the round. */
static void test_places_alike(void)
{
	struct unit_run r[2];
	struct xmodel m;
	struct tr_explore_result res;
	int pc, unsettled = 0;

	merge_recorded("farm-places", r, &m, &res);
	for (pc = 0; pc < m.prog.nins[0]; pc++)
		unsettled += m.prog.ins[0][pc].op == ENG_BRANCH && m.unsettled[0][pc];
	CU_ASSERT_EQUAL(unsettled, 2);
	release_recorded(r, &m, &res);
}

/* ---- a round that goes on with one worker ---- */

/* Two recorded runs of the farm of tests/zoo/farm.c whose master serves with MPI_Waitany and
 * counts its workers' last words, 4 tasks to 3 workers (data/farm-drain). Worker 1 has two
 * tasks to do, the others one each. In the second run workers 2 and 3 are done before
 * worker 1 asks at all: its first request completes the master's last live receive, as its
 * second does in the first run. The master posts that worker's receive again and goes on in
 * the same round, with two tasks handed out in one run and three in the other. Were a round
 * taken to begin there, as it does where a receive is posted again for every worker, the two
 * requests would be at one place and go two ways (the task sent, task 2 or 3), and what tells
 * them apart would be the data the worker sent: every branch of the master would compare
 * it, each result a frontier. */
static void test_drained_round_goes_on(void)
{
	struct unit_run r[2];
	struct xmodel m;
	struct tr_explore_result res;

	merge_recorded("farm-drain", r, &m, &res);
	CU_ASSERT_EQUAL(compares_data(&m, 0), 0);
	release_recorded(r, &m, &res);
}

/* ---- an any-completion that never returned ---- */

/* Two recorded runs of the farm of tests/zoo/farm.c whose master serves with MPI_Waitsome
 * (data/farm-stuck-some: 4 workers) or polls with MPI_Testsome (data/farm-stuck-polling: 3
 * workers) and counts its workers' last words, or polls one MPI_Irecv(MPI_ANY_SOURCE) with
 * MPI_Test and stops its workers by tag (data/farm-stuck-test: 3 workers), worker 1 leaving
 * without a word when it gets task 2 of 4. The second run of each is that deadlock: the
 * master stuck in a Waitsome that never returned, or polling for good. It made the call the
 * first run's master made there and returned from (one any-completion of the same requests;
 * the test of the same request), after the poll's branch of a poll that succeeds, and its
 * path is a prefix of the first's. Were the stuck call a wait
 * of its own kind, the two runs would go two ways after one input at the place before it,
 * and what told them apart would be the data the workers sent: the master's branches would
 * compare it, each result a frontier. */
static void expect_stuck_prefix(const char *name)
{
	struct unit_run r[2];
	struct xmodel m;
	struct tr_explore_result res;

	merge_recorded(name, r, &m, &res);
	CU_ASSERT_EQUAL(compares_data(&m, 0), 0);
	/* the deadlock: the workers had reached MPI_Finalize (meta.json says so) */
	CU_ASSERT_EQUAL(res.nstuck, 1);
	release_recorded(r, &m, &res);
}

static void test_stuck_in_waitsome(void)
{
	expect_stuck_prefix("farm-stuck-some");
}

static void test_stuck_polling_testsome(void)
{
	expect_stuck_prefix("farm-stuck-polling");
}

static void test_stuck_polling_test(void)
{
	expect_stuck_prefix("farm-stuck-test");
}

/* ---- a reply per worker, waited for before the next ---- */

/* Two recorded runs of the farm of tests/zoo/farm.c whose master replies with MPI_Isend,
 * keeping a request per worker: it waits for its last reply to a worker before it sends the
 * next (MPI_Wait on MPI_REQUEST_NULL the first time), and for the last ones at the end with
 * MPI_Waitall; 4 tasks, 2 workers stopped by tag (data/farm-isend-reply). Worker 2 takes every
 * task before worker 1 asks at all in the first run, the two take turns in the second: the
 * master's second wait is for a reply in one and on MPI_REQUEST_NULL in the other, and its
 * MPI_Waitall holds two requests in both, made at other places. Each wait follows the input before it (the
 * live reply to the worker just heard from, none the first time), the MPI_Waitall waits for
 * whatever replies are live: the master makes the same calls whatever the order. Were the
 * waits taken as they were, the runs would part there and the master's branches would tell
 * them apart by the data the workers sent, each result a frontier. */
static void test_reply_waits_follow(void)
{
	struct unit_run r[2];
	struct xmodel m;
	struct tr_explore_result res;
	int pc, follow = 0;

	merge_recorded("farm-isend-reply", r, &m, &res);
	CU_ASSERT_EQUAL(compares_data(&m, 0), 0);
	for (pc = 0; pc < m.prog.nins[0]; pc++)
		follow += m.prog.ins[0][pc].op == ENG_WAIT &&
			  (m.prog.ins[0][pc].sym & ENG_WAIT_FOLLOW);
	/* one path: a wait before each reply, 4 tasks and 2 stops */
	CU_ASSERT_EQUAL(follow, 6);
	CU_ASSERT_EQUAL(ways_parted(&m, 0), 0);
	release_recorded(r, &m, &res);
}

/* ---- data no one reads ---- */

/* Two recorded runs of the farm of tests/zoo/farm.c whose workers stop after their known
 * share of the tasks, sending their last result with each request; 4 tasks, 2 workers
 * (data/farm-count-share). Worker 1 is handed tasks 1 and 3 in the first run, 0 and 2 in the
 * second (worker 2 the others): its requests after the first carry other results. The master
 * stores results and goes on alike whatever they are, so no branch of it compares what a
 * worker's message carried, and a worker's sends are the same calls whatever data they send:
 * each worker is one path, every way of its branches the same. Were the data kept, each
 * worker's branches would tell its tasks apart by their values (the next request differs),
 * each share of the tasks a path of its own. Its results showed it acting on the values all
 * the same: its branches still compare them, so that a value no run handed it at a place is
 * a frontier there. */
static void test_unread_data_is_not_a_path(void)
{
	struct unit_run r[2];
	struct xmodel m;
	struct tr_explore_result res;
	int q;

	merge_recorded("farm-count-share", r, &m, &res);
	CU_ASSERT_EQUAL(compares_data(&m, 0), 0);
	for (q = 1; q < m.prog.nprocs; q++) {
		CU_ASSERT(compares_data(&m, q) > 0);
		CU_ASSERT_EQUAL(ways_parted(&m, q), 0);
	}
	release_recorded(r, &m, &res);
}

/* How many ways of process q's branches go elsewhere than another way for the same input
 * (in the parts the branch compares): choices the model makes. */
static int choices_made(const struct xmodel *m, int q)
{
	int pc, i, j, w, c = 0;

	for (pc = 0; pc < m->prog.nins[q]; pc++) {
		const struct eng_instr *in = &m->prog.ins[q][pc];
		int n = in->op == ENG_BRANCH ? in->n / ENG_BRANCH_WORDS : 0;

		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++) {
				const int32_t *x = &in->list[i * ENG_BRANCH_WORDS],
					      *y = &in->list[j * ENG_BRANCH_WORDS];
				static const int part[] = {ENG_IN_SOURCE, ENG_IN_TAG, ENG_IN_SITE,
							   ENG_IN_REQ};

				for (w = 0; w < 4 && (!(in->sym & part[w]) || x[w + 1] == y[w + 1]);
				     w++)
					;
				c += w == 4 && x[0] != y[0];
			}
	}
	return c;
}

/* Two recorded runs of the same farm in 3 rounds with nothing between them, 2 tasks each,
 * 2 workers stopped by tag (data/farm-rounds-stop): worker 2 is stopped as the third message it
 * takes in both, at the end of the first round in one run and of the last in the other. Its
 * calls up to there are the same; what tells the two apart is the result it sends next, 0 at
 * the start of a round. No branch reads that result, but stripped of it the worker would take
 * the stop two ways from one node (the next round, or the end), a choice the model would make
 * and every run refute: the worker keeps its data. */
static void test_unread_data_kept_where_it_parts(void)
{
	struct unit_run r[2];
	struct xmodel m;
	struct tr_explore_result res;
	int q;

	merge_recorded("farm-rounds-stop", r, &m, &res);
	for (q = 0; q < m.prog.nprocs; q++)
		CU_ASSERT_EQUAL(choices_made(&m, q), 0);
	release_recorded(r, &m, &res);
}

/* ---- runs cut short ---- */

/* Worker q's instructions in the model of runs name/1 and name/2, which are whole, and of those
 * and name/3 and name/4, which hung: the same, and no deadlock in either model. */
static void cut_runs_add_nothing(const char *name, int q)
{
	struct unit_run r[4];
	struct xmodel m;
	struct tr_explore_result res;
	int whole;

	merge_runs(name, r, 2, &m, &res);
	whole = m.prog.nins[q];
	CU_ASSERT_EQUAL(res.nstuck, 0);
	release_runs(r, 2, &m, &res);
	merge_runs(name, r, 4, &m, &res);
	CU_ASSERT_EQUAL(m.prog.nins[q], whole);
	CU_ASSERT_EQUAL(res.nstuck, 0);
	release_runs(r, 4, &m, &res);
}

/* Four recorded runs of the farm of 3 rounds with nothing between them, 2 tasks and 2 workers
 * stopped by tag (data/farm-rounds-cut). The first two are whole. The model of those two let
 * the master take a request the program could not send then, and the two runs steered there
 * hung: their traces stop, worker 1's in round 2, in its request after a task. A way cut short
 * goes the way of any that made the same calls up to there, of the task's and of the stop's
 * alike. It must not stand for either in the model: worker 1 would go back into round 2 on its
 * stop, and never end (a deadlock of the model). Nor is it a way out of the round: the task
 * would seem to end a round as the stop does, the rounds would not be told apart, and every
 * run after it would add a path. */
static void test_cut_runs_add_no_way(void)
{
	cut_runs_add_nothing("farm-rounds-cut", 1);
}

/* The same farm served with MPI_Probe and stopped by value (data/farm-probe-cut): two whole
 * runs, then two that hung where they were steered, worker 2's after the task of its third
 * round, one blocked in its request and one in the receive of the reply. Both went the way of
 * any that made their calls: they are not apart, for the one that stopped sooner made the
 * other's calls up to there. Were they, round 3 would be no loop, and then neither would the
 * rounds before it. */
static void test_cut_runs_not_apart(void)
{
	cut_runs_add_nothing("farm-probe-cut", 2);
}

static CU_TestInfo tests[] = {
	{"a run stopped in a probe says nothing of the data", test_farm_stopped_in_probe},
	{"nor does one stopped polling", test_farm_stopped_polling},
	{"a completion of several is served in order", test_waitsome_served_in_order},
	{"a place's evidence is its phase's", test_places_alike},
	{"a round goes on where one receive is posted again", test_drained_round_goes_on},
	{"a blocked Waitsome is the call the others returned from", test_stuck_in_waitsome},
	{"so is a Testsome that polls for good", test_stuck_polling_testsome},
	{"and an MPI_Test that polls for good", test_stuck_polling_test},
	{"a wait for the last reply to a worker follows the input", test_reply_waits_follow},
	{"data no one reads parts no paths", test_unread_data_is_not_a_path},
	{"unless it tells the sender's own states apart", test_unread_data_kept_where_it_parts},
	{"a run cut short adds no way of its own", test_cut_runs_add_no_way},
	{"nor do two cut at different calls", test_cut_runs_not_apart},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo verify_farm_suite = {"verify farm", NULL, NULL, NULL, NULL, tests};
