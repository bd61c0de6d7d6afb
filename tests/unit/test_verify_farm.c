/* verify's model of a farm whose master counts what it took (doc/verify.md section 2): a run
 * steered where a worker has nothing more to say hangs in the master's probe, and says nothing
 * of what the messages carried; and a place of a phase is the calls made since the phase
 * began in any order, as a master that counts its workers' last words is in the same state
 * whichever order they came in. */
#include <stddef.h>

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

static CU_TestInfo tests[] = {
	{"a run stopped in a probe says nothing of the data", test_farm_stopped_in_probe},
	{"nor does one stopped polling", test_farm_stopped_polling},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo verify_farm_suite = {"verify farm", NULL, NULL, NULL, NULL, tests};
