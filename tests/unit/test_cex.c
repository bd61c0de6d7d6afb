/* cex.json: what check writes is what replay reads, and malformed documents are refused with
 * the JSON path at fault. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cex.h"
#include "unit.h"

static void test_roundtrip(void)
{
	struct mpiv_cex a, b;
	struct mpiv_cex_op ops0[] = {{1, 2, 1, -1, 1, 0, 0}, {2, -1, -1, -1, 0, 0, 0}};
	struct mpiv_cex_op ops2[] = {{1, -1, -1, 1, 0, 0, 0}};
	struct mpiv_cex_rank ranks[3];
	struct mpiv_cex_edge edge = {0, 2, 1};
	char *cmd[] = {"mpirun", "-np", "3", "./app", NULL};
	char path[256];
	const struct mpiv_cex_op *op;

	memset(&a, 0, sizeof(a));
	memset(ranks, 0, sizeof(ranks));
	a.trace_dir = "/tmp/t";
	a.buffering.mode = MPIV_BUF_EAGER;
	a.buffering.bytes = 8255;
	a.buffering.sync_colls = 1;
	a.command = cmd;
	a.nranks = 3;
	a.ranks = ranks;
	ranks[0].rank = 0;
	ranks[0].ops = ops0;
	ranks[0].nops = 2;
	ranks[0].blocked_op = 2;
	ranks[0].blocked_call = "MPI_Recv";
	ranks[0].site.file = "app.c";
	ranks[0].site.line = 12;
	ranks[1].rank = 1;
	ranks[1].blocked_op = -1;
	ranks[2].rank = 2;
	ranks[2].ops = ops2;
	ranks[2].nops = 1;
	ranks[2].blocked_op = 1;
	a.cycle = &edge;
	a.ncycle = 1;
	snprintf(path, sizeof(path), "%s/cex.json", unit_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mpiv_cex_save(path, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_cex_load(path, &b, NULL), 0);
	CU_ASSERT_EQUAL(b.nranks, 3);
	CU_ASSERT_EQUAL(b.buffering.mode, MPIV_BUF_EAGER);
	CU_ASSERT_EQUAL(b.buffering.bytes, 8255);
	CU_ASSERT_EQUAL(b.buffering.sync_colls, 1);
	CU_ASSERT_STRING_EQUAL(b.command[3], "./app");
	CU_ASSERT_PTR_NULL(b.command[4]);
	op = mpiv_cex_find(&b.ranks[0], 1);
	CU_ASSERT_PTR_NOT_NULL_FATAL(op);
	CU_ASSERT_EQUAL(op->match_rank, 2);
	CU_ASSERT_EQUAL(op->match_op, 1);
	CU_ASSERT(op->wildcard);
	CU_ASSERT_PTR_NULL(mpiv_cex_find(&b.ranks[0], 5));
	CU_ASSERT_EQUAL(mpiv_cex_find(&b.ranks[2], 1)->sync, 1);
	CU_ASSERT_EQUAL(b.ranks[0].blocked_op, 2);
	CU_ASSERT_EQUAL(b.ranks[1].blocked_op, -1);
	CU_ASSERT_EQUAL(b.ranks[0].site.line, 12);
	CU_ASSERT_EQUAL(b.ncycle, 1);
	mpiv_cex_release(&b);
}

/* doc written as the unit tests' cex.json; its path (a static buffer). */
static const char *write_cex(const char *doc)
{
	static char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/cex.json", unit_tmpdir());
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(doc, f);
	fclose(f);
	return path;
}

static void test_malformed(void)
{
	static const struct {
		const char *doc;
		const char *text;
	} cases[] = {
		{"{\"format\":\"other\"}", "format: expected \"mpiverify-cex\""},
		{"{\"format\":\"mpiverify-cex\",\"version\":3}",
		 "version: expected an integer in 1..2"},
		{"{\"format\":\"mpiverify-cex\",\"version\":1,\"trace\":\"t\",\"buffering\":\"zero\","
		 "\"nranks\":1,\"ranks\":[{\"rank\":0,\"ops\":[{\"op\":1,\"match\":{\"rank\":4,\"op\":0}}]}]}",
		 "ranks[0].ops[0].match.rank: expected an integer in 0..0"},
		{"{\"format\":\"mpiverify-cex\",\"version\":1,\"trace\":\"t\",\"buffering\":\"zero\","
		 "\"nranks\":2,\"ranks\":[]}",
		 "ranks: expected an array of nranks (2) entries"},
		/* the buffering mode: a name in version 1, an object since version 2 */
		{"{\"format\":\"mpiverify-cex\",\"version\":1,\"trace\":\"t\",\"buffering\":\"eager\"}",
		 "buffering: expected \"zero\", \"infinite\" or \"eager-BYTES\""},
		{"{\"format\":\"mpiverify-cex\",\"version\":2,\"trace\":\"t\",\"buffering\":\"zero\"}",
		 "buffering: expected an object"},
		{"{\"format\":\"mpiverify-cex\",\"version\":2,\"trace\":\"t\","
		 "\"buffering\":{\"mode\":\"some\"}}",
		 "buffering.mode: expected \"zero\", \"infinite\" or \"eager\""},
		{"{\"format\":\"mpiverify-cex\",\"version\":2,\"trace\":\"t\","
		 "\"buffering\":{\"mode\":\"eager\"}}",
		 "buffering.bytes: expected a number of bytes"},
		{"{\"format\":\"mpiverify-cex\",\"version\":2,\"trace\":\"t\","
		 "\"buffering\":{\"mode\":\"zero\",\"bytes\":4}}",
		 "buffering.bytes: only mode \"eager\" has a threshold"},
		/* collectives that synchronise: a search with buffering's twin */
		{"{\"format\":\"mpiverify-cex\",\"version\":2,\"trace\":\"t\","
		 "\"buffering\":{\"mode\":\"zero\",\"collectives\":\"synchronise\"}}",
		 "buffering.collectives: expected \"synchronise\", with mode \"infinite\" or "
		 "\"eager\" (without buffering every collective synchronises)"},
		{"{\"format\":\"mpiverify-cex\",\"version\":2,\"trace\":\"t\","
		 "\"buffering\":{\"mode\":\"infinite\",\"collectives\":\"some\"}}",
		 "buffering.collectives: expected \"synchronise\", with mode \"infinite\" or "
		 "\"eager\" (without buffering every collective synchronises)"},
		{"{\"format\":\"mpiverify-cex\",\"version\":1,\"trace\":\"t\",\"buffering\":\"zero\","
		 "\"nranks\":1,\"ranks\":[{\"rank\":0,\"ops\":[{\"op\":1,\"wildcard\":1}]}]}",
		 "ranks[0].ops[0].wildcard: expected true or false"},
		{"{\"format\":\"mpiverify-cex\",\"version\":1,\"trace\":\"t\",\"buffering\":\"zero\","
		 "\"nranks\":1,\"ranks\":[{\"rank\":0,\"ops\":[{\"op\":1,\"cancelled\":1}]}]}",
		 "ranks[0].ops[0].cancelled: expected a boolean"},
		{"{\"format\":\"mpiverify-cex\",\"version\":1,\"trace\":\"t\",\"buffering\":\"zero\","
		 "\"nranks\":1,\"ranks\":[{\"rank\":0,\"ops\":[],\"blocked\":3}]}",
		 "ranks[0].blocked: expected an object or null"},
		{"{\"format\":\"mpiverify-cex\",\"version\":1,\"trace\":\"t\",\"buffering\":\"zero\","
		 "\"nranks\":1,\"ranks\":[{\"rank\":0,\"ops\":[],\"blocked\":{\"op\":1,"
		 "\"call\":7}}]}",
		 "ranks[0].blocked.call: expected a string or null"},
		{"{\"format\":\"mpiverify-cex\",\"version\":1,\"trace\":\"t\",\"buffering\":\"zero\","
		 "\"nranks\":1,\"ranks\":[{\"rank\":0,\"ops\":[],\"blocked\":{\"op\":1,"
		 "\"site\":{\"line\":-3}}}]}",
		 "ranks[0].blocked.site.line: expected an integer in 0..2147483647"},
		{"{\"format\":\"mpiverify-cex\",\"version\":1,\"trace\":\"t\",\"buffering\":\"zero\","
		 "\"nranks\":1,\"ranks\":[{\"rank\":0,\"ops\":[]}],\"collective_mismatch\":\"y\"}",
		 "collective_mismatch: expected true or false"},
		/* one thread's operations in program order; several threads' interleaved, each
		 * operation once */
		{"{\"format\":\"mpiverify-cex\",\"version\":1,\"trace\":\"t\",\"buffering\":\"zero\","
		 "\"nranks\":1,\"ranks\":[{\"rank\":0,\"ops\":[{\"op\":2},{\"op\":1}]}]}",
		 "ranks[0].ops: operations must be in program order"},
		{"{\"format\":\"mpiverify-cex\",\"version\":1,\"trace\":\"t\",\"buffering\":\"zero\","
		 "\"nranks\":1,\"ranks\":[{\"rank\":0,\"ops\":[{\"op\":2},{\"op\":1},{\"op\":2}],"
		 "\"threads\":[{\"thread\":0},{\"thread\":1}]}]}",
		 "ranks[0].ops: an operation listed twice"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mpiv_cex c;
		struct mpiv_error err;

		mpiv_error_init(&err);
		CU_ASSERT_EQUAL(mpiv_cex_load(write_cex(cases[i].doc), &c, &err), -1);
		CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
		CU_ASSERT_STRING_EQUAL(err.text, cases[i].text);
	}
}

/* A rank whose threads call MPI has its operations in the order the model ran them, the
 * threads' events interleaved (a thread's send before its creator's receive): read as they
 * are, and each found by its event. */
static void test_threads_interleaved(void)
{
	static const char doc[] =
		"{\"format\":\"mpiverify-cex\",\"version\":1,\"trace\":\"t\",\"buffering\":"
		"\"zero\",\"nranks\":1,\"ranks\":[{\"rank\":0,\"ops\":[{\"op\":2},{\"op\":1},"
		"{\"op\":3}],\"threads\":[{\"thread\":0},{\"thread\":1}]}]}";
	struct mpiv_cex c;
	struct mpiv_error err;

	mpiv_error_init(&err);
	CU_ASSERT_EQUAL_FATAL(mpiv_cex_load(write_cex(doc), &c, &err), 0);
	CU_ASSERT_EQUAL(c.ranks[0].nops, 3);
	CU_ASSERT_EQUAL(c.ranks[0].ops[0].op, 2);
	CU_ASSERT_FALSE(c.ranks[0].in_order);
	CU_ASSERT_PTR_EQUAL(mpiv_cex_find(&c.ranks[0], 1), &c.ranks[0].ops[1]);
	CU_ASSERT_PTR_EQUAL(mpiv_cex_find(&c.ranks[0], 3), &c.ranks[0].ops[2]);
	CU_ASSERT_PTR_NULL(mpiv_cex_find(&c.ranks[0], 4));
	mpiv_cex_release(&c);
}

/* Rank 0 sends to rank 1 and receives from it; rank 1 the other way round. */
static const char *const exchange[] = {
	"[{\"call\":\"MPI_Init\"},"
	"{\"call\":\"MPI_Send\",\"peer\":1,\"tag\":0,\"comm\":0,\"bytes\":4},"
	"{\"call\":\"MPI_Recv\",\"peer\":1,\"tag\":0,\"comm\":0,\"bytes\":4},"
	"{\"call\":\"MPI_Finalize\"}]",
	"[{\"call\":\"MPI_Init\"},"
	"{\"call\":\"MPI_Recv\",\"peer\":0,\"tag\":0,\"comm\":0,\"bytes\":4},"
	"{\"call\":\"MPI_Send\",\"peer\":0,\"tag\":0,\"comm\":0,\"bytes\":4},"
	"{\"call\":\"MPI_Finalize\"}]",
	NULL,
};

/* A counterexample naming events its trace does not have, or a receive matched with
 * something that is not a send, is not from that trace: replay refuses it, naming the rank
 * and the event (before, only the executed and blocked events were looked at). */
static void test_check_trace(void)
{
	static const struct {
		int rank, op, match_rank, match_op, cycle_op;
		const char *text;
		int err_rank;
		long err_event;
	} cases[] = {
		{0, 1, -1, -1, 1, NULL, -1, -1},
		{0, 9, -1, -1, 1, "ranks[0].ops[0]: rank 0's event 9 is not in the trace", 0, 9},
		{1, 1, 0, 7, 1, "ranks[1].ops[0].match: rank 0's event 7 is not in the trace", 0,
		 7},
		/* a match of a send the program cannot take: replay's to report */
		{1, 1, 0, 0, 1, NULL, -1, -1},
		{1, 0, 0, 1, 1, "ranks[1].ops[0]: rank 1's event 0 is MPI_Init in the trace", 1, 0},
		{0, 1, -1, -1, 12, "cycle[0]: rank 0's event 12 is not in the trace", 0, 12},
	};
	struct mpiv_traceset ts;
	struct mpiv_cex_rank ranks[2];
	struct mpiv_cex_edge edge;
	struct mpiv_cex_op op;
	struct mpiv_error err;
	struct mpiv_cex cex;
	size_t i;

	CU_ASSERT_EQUAL_FATAL(unit_load_case(exchange, &ts), 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&cex, 0, sizeof(cex));
		memset(ranks, 0, sizeof(ranks));
		cex.nranks = 2;
		cex.ranks = ranks;
		ranks[0].blocked_op = ranks[1].blocked_op = -1;
		op.op = (uint32_t)cases[i].op;
		op.match_rank = cases[i].match_rank;
		op.match_op = cases[i].match_op;
		op.sync = -1;
		op.wildcard = 0;
		ranks[cases[i].rank].ops = &op;
		ranks[cases[i].rank].nops = 1;
		edge.rank = 0;
		edge.op = cases[i].cycle_op;
		edge.waits_for = 1;
		cex.cycle = &edge;
		cex.ncycle = 1;
		mpiv_error_init(&err);
		if (!cases[i].text) {
			CU_ASSERT_EQUAL(mpiv_cex_check_trace(&cex, &ts, "cex.json", &err), 0);
			continue;
		}
		CU_ASSERT_EQUAL(mpiv_cex_check_trace(&cex, &ts, "cex.json", &err), -1);
		CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
		CU_ASSERT_EQUAL(err.rank, cases[i].err_rank);
		CU_ASSERT_EQUAL(err.event, cases[i].err_event);
		if (!strstr(err.text, cases[i].text))
			fprintf(stderr, "\nerror '%s' does not say '%s'\n", err.text,
				cases[i].text);
		CU_ASSERT(strstr(err.text, cases[i].text) != NULL);
	}
	/* another number of ranks */
	cex.nranks = 1;
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_cex_check_trace(&cex, &ts, "cex.json", &err), -1);
	CU_ASSERT(strstr(err.text, "is for 1 ranks, but its trace") != NULL);
	mpiv_traceset_release(&ts);
}

/* A version 1 document, with the buffering mode as its name, is still read. */
static void test_version1(void)
{
	static const char *const names[] = {"zero", "infinite", "eager-8255"};
	static const struct mpiv_buffering want[] = {
		{MPIV_BUF_ZERO, 0, 0},
		{MPIV_BUF_INFINITE, 0, 0},
		{MPIV_BUF_EAGER, 8255, 0},
	};
	char path[256], name[32];
	struct mpiv_cex c;
	size_t i;
	FILE *f;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/cex.json", unit_tmpdir());
		f = fopen(path, "w");
		fprintf(f,
			"{\"format\":\"mpiverify-cex\",\"version\":1,\"trace\":\"t\","
			"\"buffering\":\"%s\",\"nranks\":1,\"ranks\":[{\"rank\":0,\"ops\":[]}]}",
			names[i]);
		fclose(f);
		CU_ASSERT_EQUAL_FATAL(mpiv_cex_load(path, &c, NULL), 0);
		CU_ASSERT_EQUAL(c.buffering.mode, want[i].mode);
		CU_ASSERT_EQUAL(c.buffering.bytes, want[i].bytes);
		mpiv_buffering_name(&c.buffering, name, sizeof(name));
		CU_ASSERT_STRING_EQUAL(name, names[i]);
		mpiv_cex_release(&c);
	}
}

/* Every mode's name, as check's reports and directories give it, reads back as the mode. */
static void test_mode_names(void)
{
	static const struct mpiv_buffering modes[] = {
		{MPIV_BUF_ZERO, 0, 0},	   {MPIV_BUF_INFINITE, 0, 0}, {MPIV_BUF_INFINITE, 0, 1},
		{MPIV_BUF_EAGER, 8255, 0}, {MPIV_BUF_EAGER, 0, 1},
	};
	static const char *const names[] = {"zero", "infinite", "infinite-sync", "eager-8255",
					    "eager-0-sync"};
	static const char *const bad[] = {"zero-sync", "infinite-", "eager--sync", "eager-4-syn",
					  "sync"};
	struct mpiv_buffering b;
	char name[32];
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		mpiv_buffering_name(&modes[i], name, sizeof(name));
		CU_ASSERT_STRING_EQUAL(name, names[i]);
		memset(&b, 0xff, sizeof(b));
		CU_ASSERT_EQUAL_FATAL(mpiv_buffering_parse(name, &b), 0);
		CU_ASSERT(b.mode == modes[i].mode && b.bytes == modes[i].bytes &&
			  b.sync_colls == modes[i].sync_colls);
	}
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CU_ASSERT_EQUAL(mpiv_buffering_parse(bad[i], &b), -1);
}

static CU_TestInfo cex_tests[] = {
	{"threads' operations interleaved", test_threads_interleaved},
	{"save and load", test_roundtrip},
	{"malformed documents", test_malformed},
	{"version 1 still read", test_version1},
	{"modes' names read back", test_mode_names},
	{"events checked against the trace", test_check_trace},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo cex_suite = {"cex", NULL, NULL, NULL, NULL, cex_tests};
