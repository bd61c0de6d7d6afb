/* Ranks grouped by what they do (common/report_group.c): the ranges, and the hang report of
 * record and replay (jobs/monitor_report.c) at 16 ranks and at 4. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor.h"
#include "report_group.h"
#include "status.h"
#include "unit.h"

static void test_ranks_text(void)
{
	int ranks[] = {0, 1, 2, 3, 5, 7, 8, 9};
	char buf[64], small[18];

	ranks_text(ranks, 1, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "rank 0");
	ranks_text(ranks, 8, buf, sizeof(buf));
	CU_ASSERT_STRING_EQUAL(buf, "ranks 0-3,5,7-9 (8)");
	/* cut where it does not fit, the count kept */
	ranks_text(ranks, 8, small, sizeof(small));
	CU_ASSERT_STRING_EQUAL(small, "ranks 0-3,... (8)");
}

/* A job of n ranks, each blocked in MPI_Recv (event 3) at the same site, the stack the same,
 * but ranks finished[] (-1 ended). Returns the report. */
static char *hang_report(int n, const int *finished)
{
	struct monitor_result res;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int r, k;

	memset(&res, 0, sizeof(res));
	res.outcome = MONITOR_DEADLOCK;
	res.size = n;
	res.ranks = calloc((size_t)n, sizeof(*res.ranks));
	for (r = 0; r < n; r++) {
		struct monitor_rank *m = &res.ranks[r];

		m->seen = 1;
		m->state = MPIV_ST_IN_CALL;
		m->call_name = "MPI_Recv";
		m->op = 3;
		m->site = MPIV_SITE(0, 0x1234);
		for (k = 0; finished[k] >= 0; k++)
			if (finished[k] == r)
				m->state = MPIV_ST_FINALIZED;
	}
	monitor_report(f, &res, NULL, NULL);
	fclose(f);
	free(res.ranks);
	return text;
}

static void test_hang_report(void)
{
	int finished[] = {4, 9, -1};
	char *text = hang_report(16, finished);

	/* one line for the 14 blocked ranks, none for the finished ones */
	CU_ASSERT(strstr(text, "ranks 0-3,5-8,10-15 (14): blocked in MPI_Recv (event 3)") == text);
	CU_ASSERT(strchr(text, '\n') == text + strlen(text) - 1);
	free(text);
	/* a small job: rank by rank, as ever */
	text = hang_report(4, finished);
	CU_ASSERT(strstr(text, "rank 0: blocked in MPI_Recv (event 3)") == text);
	CU_ASSERT(strstr(text, "rank 3: blocked in MPI_Recv (event 3)") != NULL);
	CU_ASSERT(strstr(text, "ranks") == NULL);
	free(text);
}

static CU_TestInfo report_group_tests[] = {
	{"ranks as ranges", test_ranks_text},
	{"the hang report: a class of ranks once, a small job rank by rank", test_hang_report},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo report_group_suite = {"report-group", NULL, NULL, NULL, NULL, report_group_tests};
