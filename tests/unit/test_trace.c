/* Rank traces: the binary format as the recorder writes it, truncation, the JSON form, and the
 * errors bad input gets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracefmt.h"
#include "unit.h"

/* Write a binary trace of rank 0 of 1: header, a module, Init, Irecv, Wait. Returns the
 * number of bytes written and the offset where the last record starts. */
static size_t write_bin(const char *path, size_t *last_start)
{
	char buf[4096];
	size_t n = 0;
	struct mpiv_rec_header h;
	struct mpiv_event ev;
	struct mpiv_reqinfo req = {7, 0, 3};
	FILE *f = fopen(path, "wb");

	memset(&h, 0, sizeof(h));
	memcpy(h.magic, MPIV_TRACE_MAGIC, sizeof(MPIV_TRACE_MAGIC));
	h.version = MPIV_TRACE_VERSION;
	h.bom = MPIV_TRACE_BOM;
	h.rank = 0;
	h.size = 1;
	snprintf(h.host, sizeof(h.host), "node1");
	n += mpiv_rec_encode_header(buf + n, sizeof(buf) - n, &h);
	n += mpiv_rec_encode_module(buf + n, sizeof(buf) - n, 0, "/bin/app");
	mpiv_event_init(&ev, MPIV_CALL_Init);
	n += mpiv_rec_encode_event(buf + n, sizeof(buf) - n, &ev);
	mpiv_event_init(&ev, MPIV_CALL_Irecv);
	ev.index = 1;
	ev.peer = MPIV_ANY_SOURCE;
	ev.tag = 3;
	ev.comm = MPIV_COMM_SELF;
	ev.site = MPIV_SITE(0, 0x1234);
	ev.nreqs = 1;
	ev.reqs = &req;
	req.src = MPIV_NONE;
	req.tag = MPIV_NONE;
	n += mpiv_rec_encode_event(buf + n, sizeof(buf) - n, &ev);
	*last_start = n;
	mpiv_event_init(&ev, MPIV_CALL_Wait);
	ev.index = 2;
	req.src = 0;
	req.tag = 3;
	ev.nreqs = 1;
	ev.reqs = &req;
	n += mpiv_rec_encode_event(buf + n, sizeof(buf) - n, &ev);
	fwrite(buf, 1, n, f);
	fclose(f);
	return n;
}

static void test_binary_roundtrip(void)
{
	char path[256];
	size_t last;
	struct mpiv_rank_trace t;
	struct mpiv_error err;

	snprintf(path, sizeof(path), "%s/rank-0.mpivt", unit_tmpdir());
	write_bin(path, &last);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(path, &t, &err), 0);
	CU_ASSERT_EQUAL(t.rank, 0);
	CU_ASSERT_EQUAL(t.size, 1);
	CU_ASSERT_STRING_EQUAL(t.host, "node1");
	CU_ASSERT_EQUAL(t.nevents, 3);
	CU_ASSERT_FALSE(t.truncated);
	CU_ASSERT_EQUAL(t.events[1].call, MPIV_CALL_Irecv);
	CU_ASSERT_EQUAL(t.events[1].peer, MPIV_ANY_SOURCE);
	CU_ASSERT_EQUAL(t.events[1].reqs[0].req, 7);
	CU_ASSERT_EQUAL(t.events[2].reqs[0].src, 0);
	CU_ASSERT_STRING_EQUAL(mpiv_trace_module(&t, t.events[1].site), "/bin/app");
	mpiv_rank_trace_release(&t);
}

/* A rank killed in the middle of a write leaves a partial record: read up to it. */
static void test_truncated(void)
{
	char path[256];
	size_t last, n;
	struct mpiv_rank_trace t;

	snprintf(path, sizeof(path), "%s/rank-0.mpivt", unit_tmpdir());
	n = write_bin(path, &last);
	CU_ASSERT_EQUAL_FATAL(truncate(path, (off_t)(n - 5)), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(path, &t, NULL), 0);
	CU_ASSERT(t.truncated);
	CU_ASSERT_EQUAL(t.nevents, 2);
	mpiv_rank_trace_release(&t);
}

static void test_garbage(void)
{
	char path[256];
	struct mpiv_rank_trace t;
	struct mpiv_error err;
	FILE *f;

	snprintf(path, sizeof(path), "%s/rank-0.mpivt", unit_tmpdir());
	f = fopen(path, "w");
	fputs("this is not a trace at all, but it is long enough to be read", f);
	fclose(f);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_trace_load_bin(path, &t, &err), -1);
	CU_ASSERT(err.set);
	CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
	CU_ASSERT_STRING_EQUAL(err.source, path);
}

/* Binary -> JSON -> load gives the same events. */
static void test_json_roundtrip(void)
{
	char bin[256], json[256];
	size_t last;
	struct mpiv_rank_trace a, b;
	size_t i;

	snprintf(bin, sizeof(bin), "%s/rank-0.mpivt", unit_tmpdir());
	snprintf(json, sizeof(json), "%s/rank-0.json", unit_tmpdir());
	write_bin(bin, &last);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_bin(bin, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_json(json, &a, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_json(json, &b, NULL), 0);
	CU_ASSERT_EQUAL_FATAL(a.nevents, b.nevents);
	for (i = 0; i < a.nevents; i++) {
		CU_ASSERT_EQUAL(a.events[i].call, b.events[i].call);
		CU_ASSERT_EQUAL(a.events[i].peer, b.events[i].peer);
		CU_ASSERT_EQUAL(a.events[i].tag, b.events[i].tag);
		CU_ASSERT_EQUAL(a.events[i].comm, b.events[i].comm);
		CU_ASSERT_EQUAL(a.events[i].site, b.events[i].site);
		CU_ASSERT_EQUAL(a.events[i].nreqs, b.events[i].nreqs);
	}
	CU_ASSERT_STRING_EQUAL(b.modules[0].path, "/bin/app");
	mpiv_rank_trace_release(&a);
	mpiv_rank_trace_release(&b);
}

/* Each malformed JSON trace gets an error that names the JSON path. */
static void test_json_errors(void)
{
	static const struct {
		const char *events;
		const char *text;
	} cases[] = {
		{"[{\"call\":\"MPI_Sned\"}]", "events[0].call: unknown MPI call 'MPI_Sned'"},
		{"[{\"call\":\"MPI_Init\"},{\"call\":\"MPI_Send\",\"peer\":\"x\"}]",
		 "events[1].peer: expected a non-negative integer, \"any\" or \"null\""},
		{"[{\"call\":\"MPI_Send\",\"peer\":5,\"tag\":0}]", "events[0]: rank 5 is not in a world of 1"},
		{"{}", "events: expected an array"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *events[] = {cases[i].events, NULL};
		char path[256];
		struct mpiv_rank_trace t;
		struct mpiv_error err;
		FILE *f;

		snprintf(path, sizeof(path), "%s/rank-0.json", unit_tmpdir());
		f = fopen(path, "w");
		fprintf(f, "{\"format\":\"mpiverify-trace\",\"version\":1,\"rank\":0,\"size\":1,"
			   "\"events\":%s}", events[0]);
		fclose(f);
		mpiv_error_init(&err);
		CU_ASSERT_EQUAL(mpiv_trace_load_json(path, &t, &err), -1);
		CU_ASSERT_STRING_EQUAL(err.text, cases[i].text);
		CU_ASSERT_STRING_EQUAL(err.source, path);
	}
}

static void test_traceset_errors(void)
{
	struct mpiv_traceset ts;
	struct mpiv_error err;
	const char *dir = unit_tmpdir();

	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_traceset_load("/nonexistent/trace", &ts, &err), -1);
	CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_traceset_load(dir, &ts, &err), -1);
	CU_ASSERT(strstr(err.text, "no trace in directory") != NULL);
}

static CU_TestInfo trace_tests[] = {
	{"binary round trip", test_binary_roundtrip},
	{"truncated binary trace", test_truncated},
	{"garbage binary trace", test_garbage},
	{"json round trip", test_json_roundtrip},
	{"json errors", test_json_errors},
	{"trace set errors", test_traceset_errors},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo trace_suite = {"trace", NULL, NULL, NULL, NULL, trace_tests};
