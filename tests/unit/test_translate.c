/* The translator: instructions from events, sizes from the trace, and the traces it refuses. */
#include <string.h>

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
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0};
	const struct eng_instr *in;

	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &p, NULL) == 0);
	CU_ASSERT_EQUAL(p.nranks, 2);
	CU_ASSERT_EQUAL_FATAL(p.nins[0], 6);
	in = p.ins[0];
	CU_ASSERT(in[0].op == ENG_POST_RECV && in[0].a == ENG_ANY && in[0].c == ENG_ANY && in[0].ev == 1);
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

static void expect_refused(const char *events, const char *text)
{
	const char *const ev[] = {events, NULL};
	struct mpiv_traceset ts;
	struct eng_prog p;
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0};
	struct mpiv_error err;

	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(tr_translate(&ts, &opts, &p, &err), -1);
	CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
	CU_ASSERT_STRING_EQUAL(err.text, text);
	CU_ASSERT_EQUAL(err.rank, 0);
	mpiv_traceset_release(&ts);
}

static void test_refused(void)
{
	expect_refused("[{\"call\":\"MPI_Wait\",\"reqs\":[{\"req\":3}]}]",
		       "MPI_Wait completes request 3, which was never posted");
	expect_refused("[{\"call\":\"MPI_Send\",\"peer\":0,\"tag\":1,\"comm\":-1}]",
		       "MPI_Send on a communicator other than MPI_COMM_WORLD or MPI_COMM_SELF, "
		       "which check cannot judge yet");
	expect_refused("[{\"call\":\"MPI_Isend\",\"peer\":0,\"tag\":1,\"comm\":0}]",
		       "MPI_Isend without its request");
	/* one-sided: windows on other communicators, and windows never created */
	expect_refused("[{\"call\":\"MPI_Win_create\",\"comm\":-1,\"win\":0}]",
		       "MPI_Win_create on a communicator other than MPI_COMM_WORLD, which check "
		       "cannot judge yet");
	expect_refused("[{\"call\":\"MPI_Win_fence\",\"win\":0}]",
		       "MPI_Win_fence on window 0, which this rank has not created");
	expect_refused("[{\"call\":\"MPI_Win_create\",\"comm\":0,\"win\":0},"
		       "{\"call\":\"MPI_Win_unlock\",\"win\":0,\"peer\":0}]",
		       "MPI_Win_unlock of a lock this rank does not hold");
	expect_refused("[{\"call\":\"MPI_Win_create\",\"comm\":0,\"win\":0},"
		       "{\"call\":\"MPI_Win_post\",\"win\":0}]",
		       "MPI_Win_post without its group, which check cannot judge");
}

/* A trace that ends without MPI_Finalize still ends its program. */
static void test_no_finalize(void)
{
	const char *const ev[] = {"[{\"call\":\"MPI_Init\"}]", NULL};
	struct mpiv_traceset ts;
	struct eng_prog p;
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0};

	CU_ASSERT_FATAL(unit_load_case(ev, &ts) == 0);
	CU_ASSERT_FATAL(tr_translate(&ts, &opts, &p, NULL) == 0);
	CU_ASSERT_EQUAL(p.nins[0], 1);
	CU_ASSERT_EQUAL(p.ins[0][0].op, ENG_END);
	eng_prog_release(&p);
	mpiv_traceset_release(&ts);
}

static CU_TestInfo translate_tests[] = {
	{"instructions", test_instructions},
	{"refused traces", test_refused},
	{"trace without finalize", test_no_finalize},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo translate_suite = {"translate", NULL, NULL, NULL, NULL, translate_tests};
