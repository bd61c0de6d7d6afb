/* The standalone Promela model (translator/tr_promela.c): what it writes for a trace, where
 * its map puts each call, and what it refuses. That SPIN finds on it what the engine finds is
 * the differential test's (tests/promela/run.sh). */
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "unit.h"
#include "tr_promela.h"

/* The model of the ranks' events ev in buffering b, written into a string (the caller frees
 * it); map filled if not NULL. NULL if it was refused (err filled). */
static char *model(const char *const ev[], enum eng_buffering b, long long eager,
		   struct tr_promela_map *map, struct mpiv_error *err)
{
	struct mpiv_traceset ts;
	struct eng_prog p;
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 0, 0};
	struct tr_promela_opts po = {b, eager, 0, 0};
	struct tr_promela_input in;
	char *text = NULL;
	size_t size = 0;
	FILE *f;
	int rc;

	if (unit_load_case(ev, &ts) || tr_translate(&ts, &opts, &p, NULL))
		return NULL;
	in.prog = &p;
	in.ts = &ts;
	f = open_memstream(&text, &size);
	rc = tr_promela(f, "model.pml", &in, 1, &po, map, err);
	fclose(f);
	eng_prog_release(&p);
	mpiv_traceset_release(&ts);
	if (rc) {
		free(text);
		return NULL;
	}
	return text;
}

static const char *const head_to_head[] = {
	"[{\"call\":\"MPI_Init\"},"
	"{\"call\":\"MPI_Send\",\"peer\":1,\"tag\":7,\"comm\":0,\"bytes\":4},"
	"{\"call\":\"MPI_Recv\",\"peer\":1,\"tag\":7,\"comm\":0,\"bytes\":4},"
	"{\"call\":\"MPI_Finalize\"}]",
	"[{\"call\":\"MPI_Init\"},"
	"{\"call\":\"MPI_Send\",\"peer\":0,\"tag\":7,\"comm\":0,\"bytes\":4},"
	"{\"call\":\"MPI_Recv\",\"peer\":\"any\",\"tag\":\"any\",\"comm\":0,\"bytes\":4},"
	"{\"call\":\"MPI_Finalize\"}]",
	NULL,
};

static void test_model(void)
{
	struct mpiv_error err;
	char *m;

	mpiv_error_init(&err);
	m = model(head_to_head, ENG_BUF_ZERO, 0, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "#define BUFFERING ZERO\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "active proctype rank0()"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "active proctype rank1()"));
	/* a library per rank that receives; rank 1's wildcard receive takes the head */
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "active proctype library0()"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "m_0_1 ? tag, req, ev, sync;"));
	/* rank 0's receive names its tag: the first message with it */
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "m_1_0 ?? 7, req, ev, sync;"));
	/* a standard send waits for its receive as BUFFERING says */
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "m_0_1 ! 7, 0, 1, !BUFFERED(4);"));
	/* every call is commented and printed with its event */
	CU_ASSERT_PTR_NOT_NULL(
		strstr(m, "/* MPI_Send(dest=1, tag=7, comm=WORLD, 4 bytes) [event 1] */"));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(m, "printf(\"rank 1: MPI_Recv(source=ANY, tag=ANY, comm=WORLD) "
			  "[event 2] takes the message of rank 0's event %d\\n\", ev)"));
	/* nobody stops and no completion chooses: deadlocks are pan's invalid end states */
	CU_ASSERT_PTR_NULL(strstr(m, "judge"));
	CU_ASSERT_PTR_NULL(strstr(m, "VECTORSZ"));
	free(m);
	m = model(head_to_head, ENG_BUF_EAGER, 4096, NULL, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "#define BUFFERING EAGER\n#define EAGER_LIMIT 4096\n"));
	free(m);
}

/* The map: each line of a rank's process belongs to one of its instructions, in order. */
static void test_map(void)
{
	struct tr_promela_map map;
	struct mpiv_error err;
	char *m, *line;
	long ln;
	int last[2] = {-1, -1}, seen[2] = {0, 0};

	mpiv_error_init(&err);
	m = model(head_to_head, ENG_BUF_ZERO, 0, &map, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(map.nprogs, 1);
	CU_ASSERT_EQUAL(map.npids[0], 4); /* two ranks, two libraries */
	CU_ASSERT(map.pid_proc[0][0] == 0 && map.pid_proc[0][1] == 1);
	CU_ASSERT(map.pid_proc[0][2] == -1 && map.pid_proc[0][3] == -1);
	CU_ASSERT_EQUAL(map.judged[0], 0);
	for (ln = 1, line = m; ln <= map.nlines && line; ln++) {
		int q = map.line_proc[ln];

		if (q >= 0) {
			CU_ASSERT(q <= 1 && map.line_prog[ln] == 0);
			CU_ASSERT(map.line_instr[ln] >= last[q]);
			last[q] = map.line_instr[ln];
			/* rank 0's send: post (instruction 0) and wait (1) */
			if (q == 0 && strncmp(line, "\td_step { (rq[0] == DONE)", 25) == 0) {
				CU_ASSERT_EQUAL(map.line_instr[ln], 1);
				seen[0] = 1;
			}
			if (q == 1 && strncmp(line, "\td_step { rq[3] = PENDING;", 26) == 0)
				seen[1] = map.line_instr[ln] == 2;
		}
		line = strchr(line, '\n');
		line = line ? line + 1 : NULL;
	}
	CU_ASSERT(seen[0] && seen[1]);
	CU_ASSERT(last[0] == 4 && last[1] == 4); /* up to the ends */
	tr_promela_map_release(&map);
	free(m);
}

/* A rank stopped, and an MPI_Waitany the trace has return its first request: the judge
 * decides which blocked ranks are deadlocked, and every blocking call is an end state. */
static void test_judge(void)
{
	const char *const ev[] = {
		"[{\"call\":\"MPI_Init\"},"
		"{\"call\":\"MPI_Irecv\",\"peer\":1,\"tag\":0,\"comm\":0,\"req\":0},"
		"{\"call\":\"MPI_Irecv\",\"peer\":1,\"tag\":1,\"comm\":0,\"req\":1},"
		"{\"call\":\"MPI_Waitany\",\"reqs\":[{\"req\":0},{\"req\":1}],\"pending\":1},"
		"{\"call\":\"MPI_Finalize\"}]",
		"[{\"call\":\"MPI_Init\"},"
		"{\"call\":\"MPI_Send\",\"peer\":0,\"tag\":1,\"comm\":0,\"bytes\":4}]",
		NULL,
	};
	struct tr_promela_map map;
	struct mpiv_error err;
	char *m;

	mpiv_error_init(&err);
	m = model(ev, ENG_BUF_ZERO, 0, &map, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(m);
	CU_ASSERT_EQUAL(map.judged[0], 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "active proctype judge()"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "end_i2:\n\td_step { (rq[0] == DONE) ->"));
	/* rank 0 is free at its MPI_Waitany if the other request completed */
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "rank0[0]@end_i2 && (false || (rq[1] != PENDING))"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "stopped[1] = 1"));
	tr_promela_map_release(&map);
	free(m);
}

static void test_refused(void)
{
	static char big[64 * 1024];
	const char *const ev[] = {big, "[{\"call\":\"MPI_Init\"},{\"call\":\"MPI_Finalize\"}]",
				  NULL};
	const char *const huge[] = {
		"[{\"call\":\"MPI_Init\"},"
		"{\"call\":\"MPI_Send\",\"peer\":1,\"tag\":0,\"comm\":0,\"bytes\":4000000000},"
		"{\"call\":\"MPI_Finalize\"}]",
		"[{\"call\":\"MPI_Init\"},{\"call\":\"MPI_Finalize\"}]",
		NULL,
	};
	struct mpiv_error err;
	size_t n;
	int i;

	/* TR_PROMELA_MAX_INSTRS operations and one more: 1 + (MAX / 2) sends, two each */
	n = (size_t)snprintf(big, sizeof(big), "[{\"call\":\"MPI_Init\"}");
	for (i = 0; i <= TR_PROMELA_MAX_INSTRS / 2; i++)
		n += (size_t)snprintf(big + n, sizeof(big) - n,
				      ",{\"call\":\"MPI_Send\","
				      "\"peer\":1,\"tag\":0,\"comm\":0,\"bytes\":4}");
	snprintf(big + n, sizeof(big) - n, ",{\"call\":\"MPI_Finalize\"}]");
	mpiv_error_init(&err);
	CU_ASSERT_PTR_NULL(model(ev, ENG_BUF_ZERO, 0, NULL, &err));
	CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.text, "for traces of at most 1000"));
	mpiv_error_init(&err);
	CU_ASSERT_PTR_NULL(model(huge, ENG_BUF_ZERO, 0, NULL, &err));
	CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
	CU_ASSERT(err.rank == 0 && err.event == 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.text, "MPI_Send of 4000000000 bytes"));
}

static CU_TestInfo promela_tests[] = {
	{"the model of a trace", test_model},
	{"where each call is", test_map},
	{"the judge", test_judge},
	{"refused traces", test_refused},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo promela_suite = {"promela", NULL, NULL, NULL, NULL, promela_tests};
