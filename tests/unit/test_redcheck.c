/* The reduction check's findings in rank traces (base/reduction.c, trace_reduce.c and the
 * reduction record of tracefmt.c): a record read back as written, in the binary and the JSON
 * form; every rule a reader checks, each broken once, gets its error; the option's values. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefmt.h"
#include "unit.h"

/* A rank-0 trace of a world of 2: MPI_Init, MPI_Allreduce (1), MPI_Iallreduce (2), MPI_Wait
 * (3), MPI_Send (4), MPI_Finalize (5), then the reduction records given, then the end. */
static size_t make_trace(unsigned char *buf, size_t cap, uint32_t version,
			 const struct mpiv_reduction *reds, int nreds)
{
	static const unsigned calls[] = {MPIV_CALL_Init, MPIV_CALL_Allreduce, MPIV_CALL_Iallreduce,
					 MPIV_CALL_Wait, MPIV_CALL_Send,      MPIV_CALL_Finalize};
	struct mpiv_tf_writer *w = calloc(1, sizeof(*w));
	struct mpiv_reqinfo req = {0, MPIV_NONE, MPIV_NONE, 0};
	struct mpiv_tf_header h;
	size_t len, i;
	int k;

	memset(&h, 0, sizeof(h));
	h.version = (uint32_t)version;
	h.rank = 0;
	h.size = 2;
	len = mpiv_tf_encode_header(buf, cap, &h);
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		struct mpiv_event ev;

		mpiv_event_init(&ev, calls[i]);
		ev.index = (uint32_t)i;
		if (calls[i] == MPIV_CALL_Iallreduce || calls[i] == MPIV_CALL_Wait) {
			ev.nreqs = 1;
			ev.reqs = &req;
		}
		if (calls[i] != MPIV_CALL_Init && calls[i] != MPIV_CALL_Finalize &&
		    calls[i] != MPIV_CALL_Wait)
			ev.comm = MPIV_COMM_WORLD;
		if (calls[i] == MPIV_CALL_Send) {
			ev.peer = 1;
			ev.tag = 0;
		}
		len += mpiv_tf_encode_event(w, buf + len, cap - len, &ev);
	}
	for (k = 0; k < nreds; k++)
		len += mpiv_tf_encode_reduction(buf + len, cap - len, &reds[k]);
	len += mpiv_tf_encode_end(buf + len, cap - len);
	free(w);
	return len;
}

/* A mismatch of MPI_Allreduce (event 1), as the recorder writes one. */
static struct mpiv_reduction mismatch(void)
{
	struct mpiv_reduction r;

	memset(&r, 0, sizeof(r));
	r.event = 1;
	r.done = 1;
	r.what = MPIV_RED_MISMATCH;
	r.flags = MPIV_RED_CORRECTED;
	r.peer = MPIV_NONE;
	r.count = 8;
	r.differ = 2;
	r.first = 3;
	r.rel = 8.881784197001252e-16;
	r.allowed = 3.552713678800501e-15;
	snprintf(r.type, sizeof(r.type), "MPI_DOUBLE");
	snprintf(r.elem, sizeof(r.elem), "MPI_DOUBLE");
	snprintf(r.op, sizeof(r.op), "MPI_SUM");
	snprintf(r.got, sizeof(r.got), "5.5");
	snprintf(r.want, sizeof(r.want), "4.5");
	return r;
}

/* Write the trace to a file and load it: 0, or -1 with err. */
static int load(const struct mpiv_reduction *reds, int n, uint32_t version,
		struct mpiv_rank_trace *t, struct mpiv_error *err)
{
	static unsigned char buf[16384];
	char path[512];
	size_t len = make_trace(buf, sizeof(buf), version, reds, n);
	FILE *f;

	snprintf(path, sizeof(path), "%s/rank-0.mpivt", unit_tmpdir());
	f = fopen(path, "wb");
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT_FATAL(fwrite(buf, 1, len, f) == len);
	fclose(f);
	mpiv_error_init(err);
	return mpiv_trace_load_bin(path, t, err);
}

static void assert_same(const struct mpiv_reduction *a, const struct mpiv_reduction *b)
{
	CU_ASSERT_EQUAL(a->event, b->event);
	CU_ASSERT_EQUAL(a->done, b->done);
	CU_ASSERT_EQUAL(a->what, b->what);
	CU_ASSERT_EQUAL(a->flags, b->flags);
	CU_ASSERT_EQUAL(a->peer, b->peer);
	CU_ASSERT_EQUAL(a->code, b->code);
	CU_ASSERT_EQUAL(a->count, b->count);
	CU_ASSERT_EQUAL(a->differ, b->differ);
	CU_ASSERT_EQUAL(a->first, b->first);
	CU_ASSERT_EQUAL(a->rel, b->rel);
	CU_ASSERT_EQUAL(a->allowed, b->allowed);
	CU_ASSERT_STRING_EQUAL(a->type, b->type);
	CU_ASSERT_STRING_EQUAL(a->elem, b->elem);
	CU_ASSERT_STRING_EQUAL(a->op, b->op);
	CU_ASSERT_STRING_EQUAL(a->got, b->got);
	CU_ASSERT_STRING_EQUAL(a->want, b->want);
	CU_ASSERT_STRING_EQUAL(a->why, b->why);
}

/* Every kind, read back from the binary form, then from the JSON form it is written as. */
static void test_roundtrip(void)
{
	struct mpiv_reduction reds[4];
	struct mpiv_rank_trace t, back;
	struct mpiv_error err;
	char path[512];
	int k;

	reds[0] = mismatch();
	memset(&reds[1], 0, sizeof(reds[1]));
	reds[1].event = 2; /* MPI_Iallreduce, checked at its MPI_Wait */
	reds[1].done = 3;
	reds[1].what = MPIV_RED_FAILED;
	reds[1].peer = MPIV_NONE;
	reds[1].code = 15;
	snprintf(reds[1].why, sizeof(reds[1].why), "Other MPI error");
	reds[2] = reds[1];
	reds[2].what = MPIV_RED_CORRUPT;
	reds[2].code = 0;
	reds[2].peer = 1;
	snprintf(reds[2].why, sizeof(reds[2].why), "wrong checksum");
	memset(&reds[3], 0, sizeof(reds[3]));
	reds[3].event = reds[3].done = 1;
	reds[3].what = MPIV_RED_UNCHECKED;
	reds[3].peer = MPIV_NONE;
	snprintf(reds[3].why, sizeof(reds[3].why), "an intercommunicator");

	CU_ASSERT_EQUAL_FATAL(load(reds, 4, MPIV_TRACE_VERSION, &t, &err), 0);
	CU_ASSERT_EQUAL_FATAL(t.nreductions, 4);
	for (k = 0; k < 4; k++)
		assert_same(&t.reductions[k], &reds[k]);
	snprintf(path, sizeof(path), "%s/rank-0.json", unit_tmpdir());
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_save_json(path, &t, &err), 0);
	CU_ASSERT_EQUAL_FATAL(mpiv_trace_load_json(path, &back, &err), 0);
	CU_ASSERT_EQUAL_FATAL(back.nreductions, 4);
	for (k = 0; k < 4; k++)
		assert_same(&back.reductions[k], &reds[k]);
	mpiv_rank_trace_release(&back);
	mpiv_rank_trace_release(&t);

	/* a version 4 file, which has none, still reads */
	CU_ASSERT_EQUAL(load(NULL, 0, 4, &t, &err), 0);
	mpiv_rank_trace_release(&t);
}

/* One finding broken by edit, and the error text expected. */
static void expect_error(void (*edit)(struct mpiv_reduction *), uint32_t version, const char *want)
{
	struct mpiv_reduction r = mismatch();
	struct mpiv_rank_trace t;
	struct mpiv_error err;

	edit(&r);
	CU_ASSERT_EQUAL(load(&r, 1, version, &t, &err), -1);
	if (!strstr(err.text, want))
		fprintf(stderr, "\nwant '%s', got '%s'\n", want, err.text);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.text, want));
	CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
}

static void beyond(struct mpiv_reduction *r)
{
	r->event = 6;
}
static void before(struct mpiv_reduction *r)
{
	r->done = 0;
}
static void kind(struct mpiv_reduction *r)
{
	r->what = 9;
}
static void flags(struct mpiv_reduction *r)
{
	r->flags = 0x10;
}
static void counts(struct mpiv_reduction *r)
{
	r->differ = 9;
}
static void first(struct mpiv_reduction *r)
{
	r->first = 8;
}
static void nonfinite(struct mpiv_reduction *r)
{
	r->allowed = INFINITY;
}
static void negative(struct mpiv_reduction *r)
{
	r->rel = -1;
}
static void text(struct mpiv_reduction *r)
{
	r->got[1] = '\n';
}
static void not_reduction(struct mpiv_reduction *r)
{
	r->event = r->done = 4;
}
static void blocking_later(struct mpiv_reduction *r)
{
	r->done = 3;
}
static void not_completion(struct mpiv_reduction *r)
{
	r->event = 2;
	r->done = 4;
}
static void peer(struct mpiv_reduction *r)
{
	r->peer = 2;
}
static void nothing(struct mpiv_reduction *r)
{
	(void)r;
}

static void test_errors(void)
{
	expect_error(beyond, MPIV_TRACE_VERSION, "but only 6 were written");
	expect_error(before, MPIV_TRACE_VERSION, "checked at event 0, before its event 1");
	expect_error(kind, MPIV_TRACE_VERSION, "of an unknown kind 9");
	expect_error(flags, MPIV_TRACE_VERSION, "unknown flags 0x10");
	expect_error(counts, MPIV_TRACE_VERSION, "mismatch of 9 elements of 8");
	expect_error(first, MPIV_TRACE_VERSION, "the first at 8");
	expect_error(nonfinite, MPIV_TRACE_VERSION, "not a finite number >= 0");
	expect_error(negative, MPIV_TRACE_VERSION, "not a finite number >= 0");
	expect_error(text, MPIV_TRACE_VERSION, "library value that is not printable text");
	expect_error(not_reduction, MPIV_TRACE_VERSION, "event 4, MPI_Send, which is no reduction");
	expect_error(blocking_later, MPIV_TRACE_VERSION,
		     "checked at event 3, MPI_Wait, which "
		     "does not complete it");
	expect_error(not_completion, MPIV_TRACE_VERSION, "checked at event 4, MPI_Send");
	expect_error(peer, MPIV_TRACE_VERSION, "rank 2, which is not a rank of a world of 2");
	expect_error(nothing, 4, "reduction record in a trace of version 4");
}

/* The JSON form's own errors name the path. */
static void test_json_errors(void)
{
	static const char *const bad[][2] = {
		{"[{\"event\": 1, \"what\": \"wrong\"}]", "reductions[0].what: expected"},
		{"[{\"event\": 1, \"what\": \"failed\", \"code\": \"x\"}]", "reductions[0].code"},
		{"[{\"what\": \"failed\"}]", "reductions[0].event: expected an integer"},
		{"[{\"event\": 1, \"what\": \"unchecked\", \"why\": 3}]", "reductions[0].why"},
		{"{}", "reductions: expected an array"},
		{"[{\"event\": 5, \"what\": \"unchecked\"}]", "which is no reduction"},
	};
	struct mpiv_rank_trace t;
	struct mpiv_error err;
	char path[512];
	size_t i;

	snprintf(path, sizeof(path), "%s/bad-red.json", unit_tmpdir());
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		FILE *f = fopen(path, "w");

		CU_ASSERT_FATAL(f != NULL);
		fprintf(f,
			"{\"format\": \"mpiverify-trace\", \"version\": 1, \"rank\": 0, "
			"\"size\": 2, \"events\": [{\"call\": \"MPI_Init\"}, {\"call\": "
			"\"MPI_Allreduce\", \"comm\": 0}, {\"call\": \"MPI_Barrier\", \"comm\": 0}, "
			"{\"call\": \"MPI_Barrier\", \"comm\": 0}, {\"call\": \"MPI_Barrier\", "
			"\"comm\": 0}, {\"call\": \"MPI_Finalize\"}], \"reductions\": %s}\n",
			bad[i][0]);
		fclose(f);
		mpiv_error_init(&err);
		CU_ASSERT_EQUAL(mpiv_trace_load_json(path, &t, &err), -1);
		if (!strstr(err.text, bad[i][1]))
			fprintf(stderr, "\nwant '%s', got '%s'\n", bad[i][1], err.text);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.text, bad[i][1]));
	}
}

static void test_opts(void)
{
	struct mpiv_red_opts o;

	CU_ASSERT_EQUAL(mpiv_red_opts_parse(NULL, &o), 0);
	CU_ASSERT(!o.correct && o.tol < 0);
	CU_ASSERT_EQUAL(mpiv_red_opts_parse("detect", &o), 0);
	CU_ASSERT(!o.correct && o.tol < 0);
	CU_ASSERT_EQUAL(mpiv_red_opts_parse("correct", &o), 0);
	CU_ASSERT(o.correct && o.tol < 0);
	CU_ASSERT_EQUAL(mpiv_red_opts_parse("1e-9", &o), 0);
	CU_ASSERT(!o.correct && o.tol == 1e-9);
	CU_ASSERT_EQUAL(mpiv_red_opts_parse("correct,0", &o), 0);
	CU_ASSERT(o.correct && o.tol == 0);
	CU_ASSERT_EQUAL(mpiv_red_opts_parse("0.5,correct", &o), 0);
	CU_ASSERT(o.correct && o.tol == 0.5);
	o.tol = 7;
	CU_ASSERT_EQUAL(mpiv_red_opts_parse("abc", &o), -1);
	CU_ASSERT_EQUAL(o.tol, 7); /* unchanged */
	CU_ASSERT_EQUAL(mpiv_red_opts_parse("-1", &o), -1);
	CU_ASSERT_EQUAL(mpiv_red_opts_parse("nan", &o), -1);
	CU_ASSERT_EQUAL(mpiv_red_opts_parse("inf", &o), -1);
	CU_ASSERT_EQUAL(mpiv_red_opts_parse("1,2", &o), -1);
	CU_ASSERT_EQUAL(mpiv_red_opts_parse("detect,correct", &o), -1);
	CU_ASSERT_EQUAL(mpiv_red_opts_parse("correct,", &o), -1);
	CU_ASSERT_EQUAL(mpiv_red_opts_parse(",", &o), -1);
}

static void test_describe(void)
{
	struct mpiv_reduction r = mismatch();
	char buf[512];

	mpiv_red_describe(&r, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf,
			       "MPI_SUM on MPI_DOUBLE: 2 of 8 elements differ; the first is "
			       "element 3 (MPI_DOUBLE): library 5.5, reliable 4.5 (allowed "
			       "difference 3.55e-15); the reliable result was written over the "
			       "library's");
	r.rel = r.allowed = 0;
	r.flags = 0;
	mpiv_red_describe(&r, buf, sizeof(buf));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "(compared exactly)"));
	r.flags = MPIV_RED_TOL_GIVEN;
	mpiv_red_describe(&r, buf, sizeof(buf));
	CU_ASSERT_PTR_NOT_NULL(strstr(buf, "by the given tolerance"));
}

static CU_TestInfo redcheck_tests[] = {
	{"a finding reads back, binary and JSON", test_roundtrip},
	{"each rule of a reduction record", test_errors},
	{"the JSON form's errors", test_json_errors},
	{"--check-reductions' values", test_opts},
	{"a finding in words", test_describe},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo redcheck_suite = {"redcheck", NULL, NULL, NULL, NULL, redcheck_tests};
