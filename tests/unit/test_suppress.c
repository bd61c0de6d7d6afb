/* Suppressions and fingerprints (common/suppress.c, common/finding.c): the format read and
 * refused line by line, what matches, and what --gen-suppressions writes reads back and
 * matches the finding it was written for. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suppress.h"
#include "unit.h"

static struct mpiv_finding_site cycle_sites[] = {
	{"MPI_Send", "exchange", "/src/app/halo.c", 42},
	{"MPI_Send", "exchange", "/src/app/halo.c", 42},
	{"MPI_Recv", "main", "src/main.c", 7},
};

static const struct mpiv_finding cycle = {MPIV_FIND_POTENTIAL, cycle_sites, 3};

/* Parse text; 0 or -1, with err. */
static int parse(const char *text, struct mpiv_suppressions *s, struct mpiv_error *err)
{
	memset(s, 0, sizeof(*s));
	mpiv_error_init(err);
	return mpiv_suppressions_parse(s, text, strlen(text), "t.supp", err);
}

static void test_parse(void)
{
	struct mpiv_suppressions s;
	struct mpiv_error err;
	const char *text = "# known findings\n\n"
			   "{\n  halo relies on buffering\n  mpiverify:potential-deadlock\n"
			   "  MPI_Send fun:exchange src:halo.c:42\n  MPI_Recv\n}\n"
			   "  {  \r\n any deadlock in solve\n mpiverify:*deadlock\n"
			   " # a comment inside\n MPI_* fun:solve\n ...\n }\n";

	CU_ASSERT_EQUAL_FATAL(parse(text, &s, &err), 0);
	CU_ASSERT_EQUAL_FATAL(s.n, 2);
	CU_ASSERT_STRING_EQUAL(s.s[0].name, "halo relies on buffering");
	CU_ASSERT_STRING_EQUAL(s.s[0].kind, "potential-deadlock");
	CU_ASSERT_EQUAL(s.s[0].nsites, 2);
	CU_ASSERT_STRING_EQUAL(s.s[0].sites[0].src, "halo.c");
	CU_ASSERT_EQUAL(s.s[0].sites[0].line, 42);
	CU_ASSERT_PTR_NULL(s.s[0].sites[1].fun);
	CU_ASSERT_EQUAL(s.s[0].line, 3);
	CU_ASSERT(s.s[1].more);
	CU_ASSERT_EQUAL(s.s[1].line, 9);
	mpiv_suppressions_release(&s);
}

/* Each bad input gets its line and a reason. */
static void test_refused(void)
{
	static const struct {
		const char *text;
		int line;
		const char *why;
	} bad[] = {
		{"halo\n", 1, "expected '{'"},
		{"{\n", 1, "no end"},
		{"{\n}\n", 2, "expected the suppression's name"},
		{"{\n n\n potential-deadlock\n MPI_Send\n}\n", 3, "expected 'mpiverify:KIND'"},
		{"{\n n\n mpiverify:nope\n MPI_Send\n}\n", 3, "unknown kind 'nope'"},
		{"{\n n\n mpiverify:rank-stopped\n MPI_Send\n}\n", 3, "cannot be suppressed"},
		{"{\n n\n mpiverify:deadlock\n}\n", 4, "names no call"},
		{"{\n n\n mpiverify:deadlock\n MPI_Send\n", 4, "no '}'"},
		{"{\n n\n mpiverify:deadlock\n MPI_Send fun:a fun:b\n}\n", 4, "fun: given twice"},
		{"{\n n\n mpiverify:deadlock\n MPI_Send src:a.c:0\n}\n", 4, "positive number"},
		{"{\n n\n mpiverify:deadlock\n MPI_Send obj:x\n}\n", 4, "unexpected 'obj:x'"},
		{"{\n n\n mpiverify:deadlock\n fun:main\n}\n", 4, "the call's name first"},
		{"{\n n\n mpiverify:deadlock\n ...\n MPI_Send\n}\n", 5, "after '...'"},
		{"{\n n\n mpiverify:deadlock\n MPI_Send\n{\n", 5, "inside a suppression"},
	};
	struct mpiv_suppressions s;
	struct mpiv_error err;
	char text[512];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CU_ASSERT_EQUAL(parse(bad[i].text, &s, &err), -1);
		CU_ASSERT_EQUAL(s.n, 0);
		CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
		CU_ASSERT_STRING_EQUAL(err.source, "t.supp");
		CU_ASSERT_EQUAL(err.line, bad[i].line);
		if (!strstr(err.text, bad[i].why) || err.line != bad[i].line)
			fprintf(stderr, "case %zu: line %d: %s\n", i, err.line, err.text);
		CU_ASSERT_PTR_NOT_NULL(strstr(err.text, bad[i].why));
		mpiv_suppressions_release(&s);
	}
	/* a NUL byte is not text */
	memcpy(text, "{\n n\0\n", 6);
	memset(&s, 0, sizeof(s));
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_suppressions_parse(&s, text, 6, "t.supp", &err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.text, "NUL"));
	/* a missing file names it */
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_suppressions_load(&s, "/nonexistent/x.supp", &err), -1);
	CU_ASSERT_STRING_EQUAL(err.source, "/nonexistent/x.supp");
}

static int matches(const char *text, const struct mpiv_finding *f)
{
	struct mpiv_suppressions s;
	struct mpiv_error err;
	int m;

	if (parse(text, &s, &err))
		return -1;
	m = mpiv_suppressions_match(&s, f) != NULL;
	mpiv_suppressions_release(&s);
	return m;
}

static void test_match(void)
{
	/* every call line matches a call, every call is matched */
	CU_ASSERT_EQUAL(matches("{\nn\nmpiverify:potential-deadlock\nMPI_Send fun:exchange\n"
				"MPI_Recv src:main.c:7\n}\n",
				&cycle),
			1);
	/* a call of the finding no line matches */
	CU_ASSERT_EQUAL(matches("{\nn\nmpiverify:potential-deadlock\nMPI_Send\n}\n", &cycle), 0);
	/* ... unless "..." says there may be others */
	CU_ASSERT_EQUAL(matches("{\nn\nmpiverify:potential-deadlock\nMPI_Send\n...\n}\n", &cycle),
			1);
	/* a line that matches no call */
	CU_ASSERT_EQUAL(matches("{\nn\nmpiverify:potential-deadlock\nMPI_Send\nMPI_Recv\n"
				"MPI_Bcast\n}\n",
				&cycle),
			0);
	/* the kind, by name or pattern */
	CU_ASSERT_EQUAL(matches("{\nn\nmpiverify:deadlock\nMPI_*\n}\n", &cycle), 0);
	CU_ASSERT_EQUAL(matches("{\nn\nmpiverify:*deadlock\nMPI_*\n}\n", &cycle), 1);
	/* src: the last component, or the whole path with a '/' */
	CU_ASSERT_EQUAL(matches("{\nn\nmpiverify:*\nMPI_Send src:halo.c\nMPI_Recv\n}\n", &cycle),
			1);
	CU_ASSERT_EQUAL(matches("{\nn\nmpiverify:*\nMPI_Send src:*/app/*.c\nMPI_Recv\n}\n", &cycle),
			1);
	CU_ASSERT_EQUAL(matches("{\nn\nmpiverify:*\nMPI_Send src:app/halo.c\nMPI_Recv\n}\n",
				&cycle),
			0);
	/* a line number must be the call's */
	CU_ASSERT_EQUAL(matches("{\nn\nmpiverify:*\nMPI_Send src:halo.c:43\nMPI_Recv\n}\n", &cycle),
			0);
	CU_ASSERT_EQUAL(matches("{\nn\nmpiverify:*\nMPI_Send fun:other\nMPI_Recv\n}\n", &cycle), 0);
}

/* What --gen-suppressions writes reads back and hides the finding it was written for. */
static void test_write(void)
{
	static struct mpiv_finding_site odd_sites[] = {
		{"MPI_Send", "op[*]", "/my dir/a:b.c", 3},
		{NULL, NULL, NULL, 0},
	};
	const struct mpiv_finding odd = {MPIV_FIND_UNRECEIVED, odd_sites, 2};
	const struct mpiv_finding *each[] = {&cycle, &odd};
	struct mpiv_suppressions s;
	struct mpiv_error err;
	char *text;
	size_t len, i;
	FILE *f;

	for (i = 0; i < 2; i++) {
		f = open_memstream(&text, &len);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f);
		mpiv_suppression_write(f, each[i], "a name\nwith a line end");
		fclose(f);
		memset(&s, 0, sizeof(s));
		mpiv_error_init(&err);
		if (mpiv_suppressions_parse(&s, text, len, "gen", &err))
			fprintf(stderr, "%s\n%s\n", err.text, text);
		CU_ASSERT_EQUAL_FATAL(s.n, 1);
		CU_ASSERT_PTR_NOT_NULL(mpiv_suppressions_match(&s, each[i]));
		mpiv_suppressions_release(&s);
		free(text);
	}
}

static void test_fingerprint(void)
{
	struct mpiv_finding_site moved[] = {
		/* other lines, another directory, another order: the same calls */
		{"MPI_Recv", "main", "/elsewhere/main.c", 9},
		{"MPI_Send", "exchange", "halo.c", 50},
	};
	struct mpiv_finding_site other[] = {
		{"MPI_Recv", "main", "main.c", 7},
		{"MPI_Ssend", "exchange", "halo.c", 42},
	};
	struct mpiv_finding f = {MPIV_FIND_POTENTIAL, moved, 2};
	char a[MPIV_FINGERPRINT_SIZE], b[MPIV_FINGERPRINT_SIZE];

	mpiv_finding_fingerprint(&cycle, a);
	CU_ASSERT_EQUAL(strlen(a), 16);
	mpiv_finding_fingerprint(&f, b);
	CU_ASSERT_STRING_EQUAL(a, b);
	f.kind = MPIV_FIND_DEADLOCK;
	mpiv_finding_fingerprint(&f, b);
	CU_ASSERT_STRING_NOT_EQUAL(a, b);
	f.kind = MPIV_FIND_POTENTIAL;
	f.sites = other;
	mpiv_finding_fingerprint(&f, b);
	CU_ASSERT_STRING_NOT_EQUAL(a, b);
}

static CU_TestInfo suppress_tests[] = {
	{"suppressions read", test_parse},
	{"bad suppressions refused with their line", test_refused},
	{"what a suppression matches", test_match},
	{"generated suppressions read back and match", test_write},
	{"fingerprints: kind and calls, not lines", test_fingerprint},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo suppress_suite = {"suppress", NULL, NULL, NULL, NULL, suppress_tests};
