/* The warnings of the recorded run (translator/tr_warn.c): messages never received, receives
 * shorter than their message, requests never completed, each on a trace stated as JSON. */
#include <stdlib.h>
#include <string.h>

#include "translate.h"
#include "unit.h"

/* Translate and collect the warnings of events[]; returns how many, -1 if it did not load. */
static int warnings_of(const char *const events[], struct tr_warning **w)
{
	struct mpiv_traceset ts;
	struct eng_prog prog;
	struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 0};
	int n;

	*w = NULL;
	if (unit_load_case(events, &ts))
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

/* The one warning events[] must give, of this kind, rank and event: returned for more
 * assertions (the caller frees it), or NULL after noting the failure. */
static struct tr_warning *the_warning(const char *const events[], enum tr_warn_kind kind,
				      int rank, long event)
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
		"[" INIT ", {\"call\": \"MPI_Bsend\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 8},"
		" {\"call\": \"MPI_Bsend\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 8}, " FIN "]",
		"[" INIT ", {\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 8,"
		" \"src\": 0, \"mtag\": 0}, " FIN "]",
		NULL,
	};
	struct tr_warning *w = the_warning(ev, TR_WARN_UNRECEIVED, 0, 2);

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
		"[" INIT ", {\"call\": \"MPI_Bsend\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, "
		FIN "]",
		"[" INIT ", {\"call\": \"MPI_Bsend\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, "
		FIN "]",
		NULL,
	};
	struct tr_warning *w = the_warning(ev, TR_WARN_UNRECEIVED, 1, 1);

	free(w);
}

/* A 4-byte receive takes an 8-byte message. */
static void test_truncated(void)
{
	static const char *const ev[] = {
		"[" INIT ", {\"call\": \"MPI_Send\", \"peer\": 1, \"tag\": 3, \"comm\": 0, \"bytes\": 8}, "
		FIN "]",
		"[" INIT ", {\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 3, \"comm\": 0, \"bytes\": 4,"
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
		"[" INIT ", {\"call\": \"MPI_Isend\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4,"
		" \"req\": 0},"
		" {\"call\": \"MPI_Isend\", \"peer\": 1, \"tag\": 1, \"comm\": 0, \"bytes\": 4, \"req\": 1},"
		" {\"call\": \"MPI_Request_free\", \"req\": 1},"
		" {\"call\": \"MPI_Isend\", \"peer\": 1, \"tag\": 2, \"comm\": 0, \"bytes\": 4, \"req\": 2},"
		" {\"call\": \"MPI_Wait\", \"req\": 2}, " FIN "]",
		"[" INIT ", {\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4},"
		" {\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 1, \"comm\": 0, \"bytes\": 4},"
		" {\"call\": \"MPI_Recv\", \"peer\": 0, \"tag\": 2, \"comm\": 0, \"bytes\": 4}, " FIN "]",
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

/* A clean exchange has nothing to say. */
static void test_none(void)
{
	static const char *const ev[] = {
		"[" INIT ", {\"call\": \"MPI_Sendrecv\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4,"
		" \"peer2\": 1, \"tag2\": 0, \"src\": 1, \"mtag\": 0}, " FIN "]",
		"[" INIT ", {\"call\": \"MPI_Sendrecv\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4,"
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
		" {\"call\": \"MPI_Recv\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, " FIN "]",
		"[" INIT ", {\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, "
		FIN "]",
		"[" INIT ", {\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, "
		FIN "]",
		NULL,
	};
	static const char *const unknown[] = {
		"[" INIT ", {\"call\": \"MPI_Recv\", \"peer\": \"any\", \"tag\": 0, \"comm\": 0,"
		" \"bytes\": 4},"
		" {\"call\": \"MPI_Recv\", \"peer\": 1, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, " FIN "]",
		"[" INIT ", {\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, "
		FIN "]",
		"[" INIT ", {\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}, "
		FIN "]",
		NULL,
	};
	const char *const *cases[] = {known, unknown};
	int c;

	for (c = 0; c < 2; c++) {
		struct mpiv_traceset ts;
		struct eng_prog prog;
		struct tr_opts opts = {ENG_BUF_ZERO, 0, 0, 0};
		int32_t *st;
		int k;

		CU_ASSERT_FATAL(unit_load_case(cases[c], &ts) == 0);
		CU_ASSERT_FATAL(tr_translate(&ts, &opts, &prog, NULL) == 0);
		st = calloc(1, eng_state_bytes(&prog));
		k = tr_recorded_path(&prog, &ts, ENG_BUF_ZERO, 0, NULL, st);
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

static CU_TestInfo warn_tests[] = {
	{"the recorded path", test_recorded_path},
	{"message never received", test_unreceived},
	{"never received, on the recorded wildcard path", test_unreceived_follows_recorded_source},
	{"receive shorter than its message", test_truncated},
	{"request never completed", test_uncompleted},
	{"communicator never freed", test_unfreed_comm},
	{"no warning on a clean exchange", test_none},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo warn_suite = {"warnings", NULL, NULL, NULL, NULL, warn_tests};
