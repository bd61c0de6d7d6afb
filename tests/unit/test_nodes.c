/* A job spread over a cluster's nodes (jobs/nodes.h): the file stream between the nodes
 * (common/filestream.c), a node's summary line, the summing up of a node's ranks and the
 * deadlock rule on the summaries (jobs/monitor.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filestream.h"
#include "monitor.h"
#include "nodes.h"
#include "status.h"
#include "unit.h"

/* Read the lines of text; returns the last item read (or -1 at the first refusal, its
 * reason in why). *files counts the files completed, data gets their bytes. */
static int read_all(const char *text, int *files, char *data, size_t size, char *why)
{
	struct mpiv_fs_reader r;
	const char *p = text;
	size_t used = 0;
	int got = MPIV_FS_NONE;

	mpiv_fs_reader_init(&r);
	*files = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		got = mpiv_fs_line(&r, p, n, why, 256);
		if (got < 0)
			return -1;
		if (got == MPIV_FS_DATA && used + r.chunk_len < size) {
			memcpy(data + used, r.chunk, r.chunk_len);
			used += r.chunk_len;
		}
		if ((got == MPIV_FS_FILE || got == MPIV_FS_DATA) && r.done)
			(*files)++;
		p += n + (nl != NULL);
	}
	data[used] = '\0';
	return got;
}

static void test_filestream(void)
{
	char *text = NULL, data[4096], why[256], big[2000];
	size_t len = 0;
	int files;
	FILE *f = open_memstream(&text, &len);

	memset(big, 'x', sizeof(big));
	CU_ASSERT_FATAL(f != NULL);
	CU_ASSERT(mpiv_fs_write_header(f) == 0);
	CU_ASSERT(mpiv_fs_write_dir(f, "/tmp/run 1") == 0);
	CU_ASSERT(mpiv_fs_write_file(f, "/tmp/run 1/a", "hello", 5) == 0);
	CU_ASSERT(mpiv_fs_write_file(f, "/tmp/empty", "", 0) == 0);
	CU_ASSERT(mpiv_fs_write_file(f, "/tmp/big", big, sizeof(big)) == 0);
	CU_ASSERT(mpiv_fs_write_file(f, "relative", "x", 1) < 0);
	CU_ASSERT(mpiv_fs_write_dir(f, "/tmp/../etc") < 0);
	CU_ASSERT(mpiv_fs_write_end(f) == 0);
	fclose(f);
	/* srun cuts lines at 1024 bytes: none is that long */
	{
		const char *p;
		size_t longest = 0, n;

		for (p = text; *p; p += n + 1) {
			n = strcspn(p, "\n");
			if (n > longest)
				longest = n;
		}
		CU_ASSERT(longest < 1000);
	}
	CU_ASSERT_EQUAL(read_all(text, &files, data, sizeof(data), why), MPIV_FS_END);
	CU_ASSERT_EQUAL(files, 3);
	CU_ASSERT(!strncmp(data, "hello", 5) && strlen(data) == 5 + sizeof(big));
	free(text);

	/* refused, each with the line it is on */
	CU_ASSERT_EQUAL(read_all("mpiverify-files 2\n", &files, data, sizeof(data), why), -1);
	CU_ASSERT(!strncmp(why, "line 1:", 7));
	CU_ASSERT_EQUAL(read_all("mpiverify-files 1\nfile 3 /a\ndata YWJjZA==\n", &files, data,
				 sizeof(data), why),
			-1); /* more than SIZE */
	CU_ASSERT(!strncmp(why, "line 3:", 7));
	CU_ASSERT_EQUAL(read_all("mpiverify-files 1\nfile 3 /a\nend\n", &files, data, sizeof(data),
				 why),
			-1); /* cut short */
	CU_ASSERT_EQUAL(read_all("mpiverify-files 1\nfile -3 /a\n", &files, data, sizeof(data),
				 why),
			-1);
	CU_ASSERT_EQUAL(read_all("mpiverify-files 1\ndir /a/./b\n", &files, data, sizeof(data),
				 why),
			-1);
	CU_ASSERT_EQUAL(read_all("mpiverify-files 1\nfile 3 /a\ndata Y!Jj\n", &files, data,
				 sizeof(data), why),
			-1);
	CU_ASSERT_EQUAL(read_all("mpiverify-files 1\nend\nend\n", &files, data, sizeof(data), why),
			-1);
	/* without its end record a stream is not complete */
	CU_ASSERT_EQUAL(read_all("mpiverify-files 1\ndir /a\n", &files, data, sizeof(data), why),
			MPIV_FS_DIR);
}

static void test_summary_line(void)
{
	struct node_summary s, back;
	char line[256];

	memset(&s, 0, sizeof(s));
	snprintf(s.host, sizeof(s.host), "node7");
	s.size = 4096;
	s.n = 64;
	s.finalized = 10;
	s.in_call = 50;
	s.polling = 4;
	s.still = 12.5;
	s.progress = 123456789012ULL;
	node_summary_format(&s, line, sizeof(line));
	CU_ASSERT_EQUAL(node_summary_parse(line, &back), 0);
	CU_ASSERT_STRING_EQUAL(back.host, "node7");
	CU_ASSERT(back.size == 4096 && back.n == 64 && back.in_call == 50 && back.polling == 4);
	CU_ASSERT(back.progress == 123456789012ULL && back.still == 12.5);
	/* counts that do not add up, or more ranks than the world */
	CU_ASSERT(node_summary_parse("node a 4 2 1 0 0 0 0 0 0 1.0 5", &back) < 0);
	CU_ASSERT(node_summary_parse("node a 1 2 2 0 0 0 0 0 0 1.0 5", &back) < 0);
	CU_ASSERT(node_summary_parse("node a 4 2 2 0 0 0 0 0 0 1.0 5 x", &back) < 0);
	CU_ASSERT(node_summary_parse("srun: error: something", &back) < 0);
}

/* A rank seen in state st (call, progress) at time t. */
static void see(struct monitor_rank *m, unsigned state, unsigned call, uint64_t progress,
		uint64_t beat, double t)
{
	struct mpiv_status st;

	memset(&st, 0, sizeof(st));
	st.size = 4;
	st.state = state;
	st.call = call;
	st.progress = progress;
	st.beat = beat;
	monitor_rank_update(m, &st, t);
}

/* n ranks of res, each blocked in a call since time 0 (its status beating then), but for
 * rank unwritten (-1: none), whose blocked call is not in its trace yet. */
static void blocked_ranks(struct monitor_result *res, struct monitor_rank *ranks, int n,
			  int unwritten)
{
	struct mpiv_status st;
	int r;

	memset(ranks, 0, (size_t)n * sizeof(*ranks));
	memset(res, 0, sizeof(*res));
	res->size = n;
	res->ranks = ranks;
	for (r = 0; r < n; r++) {
		memset(&st, 0, sizeof(st));
		st.size = n;
		st.state = MPIV_ST_IN_CALL;
		st.call = 1;
		st.beat = 1;
		st.unwritten = r == unwritten;
		monitor_rank_update(&ranks[r], &st, 0);
	}
}

/* Standard error into a temporary file from now on; stderr_back() ends it. */
static FILE *stderr_to_file(int *saved)
{
	FILE *f = tmpfile();

	*saved = dup(2);
	CU_ASSERT_FATAL(f != NULL && *saved >= 0);
	fflush(stderr);
	dup2(fileno(f), 2);
	return f;
}

/* Standard error back where it was, and what went to f into text (size bytes). */
static void stderr_back(FILE *f, int saved, char *text, size_t size)
{
	size_t n;

	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(text, 1, size - 1, f);
	text[n] = '\0';
	fclose(f);
}

/* The rule on one status file per rank: a hang waits, a little longer, for the recorder to
 * write every blocked call into its trace. */
static void test_deadlock_waits_for_traces(void)
{
	struct monitor_rank ranks[2];
	struct monitor_result res;
	char warned[2] = {0, 0};
	double timeout = 3;
	int r;

	blocked_ranks(&res, ranks, 2, 1); /* rank 1's blocked call is not in its trace yet */
	/* the beats keep coming: no rank is stopped */
	for (r = 0; r < 2; r++)
		ranks[r].beat_changed = 3 + MONITOR_WRITE_WAIT;
	CU_ASSERT(!monitor_deadlocked(&res, 1, timeout, warned));
	CU_ASSERT(!monitor_deadlocked(&res, timeout + 1, timeout, warned));
	/* past the wait, the hang is a hang, traces or not */
	CU_ASSERT(monitor_deadlocked(&res, timeout + MONITOR_WRITE_WAIT, timeout, warned));
	/* once written, at the timeout */
	ranks[1].unwritten = 0;
	CU_ASSERT(monitor_deadlocked(&res, timeout + 0.1, timeout, warned));
	CU_ASSERT(!warned[0] && !warned[1]);
}

static void test_summarise_and_rule(void)
{
	struct monitor_rank ranks[2], *list[2] = {&ranks[0], &ranks[1]};
	struct node_summary a, b;
	struct node_watch w;
	struct monitor_result res;
	char warned[2] = {0, 0};
	double timeout = 3;

	memset(ranks, 0, sizeof(ranks));
	see(&ranks[0], MPIV_ST_IN_CALL, 1, 5, 1, 0);
	see(&ranks[1], MPIV_ST_FINALIZED, 1, 9, 1, 0);
	/* rank 0 blocked (beating), rank 1 finished, nothing changed since 0 */
	see(&ranks[0], MPIV_ST_IN_CALL, 1, 5, 40, 4);
	memset(&a, 0, sizeof(a));
	snprintf(a.host, sizeof(a.host), "a");
	a.size = 4;
	monitor_summarise(list, 2, 4, timeout, &a);
	CU_ASSERT(a.n == 2 && a.in_call == 1 && a.finalized == 1 && a.other == 0);
	CU_ASSERT(a.stopped == 0 && a.still == 4 && a.progress == 14);

	b = a;
	snprintf(b.host, sizeof(b.host), "b");
	memset(&w, 0, sizeof(w));
	w.nodes = (struct node_summary[]){a, b};
	w.nnodes = 2;
	w.warned = warned;
	w.nodes[0].received = w.nodes[1].received = 4;
	memset(&res, 0, sizeof(res));
	/* four ranks on two nodes, all blocked or finished, still for 4 s > 3 */
	CU_ASSERT(monitor_nodes_deadlocked(&w, &res, 4.1, timeout));
	CU_ASSERT(res.stalled == 4);
	/* a rank of the world not counted yet (its node has not reported it) */
	w.nodes[1].n = 1;
	w.nodes[1].finalized = 0;
	CU_ASSERT(!monitor_nodes_deadlocked(&w, &res, 4.1, timeout));
	w.nodes[1] = b;
	w.nodes[1].received = 4;
	/* one node still for less than the timeout */
	w.nodes[1].still = 2;
	CU_ASSERT(!monitor_nodes_deadlocked(&w, &res, 4.1, timeout));
	w.nodes[1].still = 4;
	/* one running rank */
	w.nodes[1].in_call = 0;
	w.nodes[1].other = 1;
	CU_ASSERT(!monitor_nodes_deadlocked(&w, &res, 4.1, timeout));
	w.nodes[1].in_call = 1;
	w.nodes[1].other = 0;
	/* a node whose helper went quiet: stopped or unreachable, no verdict on it */
	CU_ASSERT(!monitor_nodes_deadlocked(&w, &res, 4 + monitor_beat_limit(timeout), timeout));
	CU_ASSERT(warned[0] && warned[1]);
	/* a blocked rank that stopped beating */
	w.nodes[0].received = w.nodes[1].received = 10;
	w.nodes[1].stopped = 1;
	CU_ASSERT(!monitor_nodes_deadlocked(&w, &res, 10, timeout));
	w.nodes[1].stopped = 0;
	CU_ASSERT(monitor_nodes_deadlocked(&w, &res, 10, timeout));
	/* a node's rank that stops beating is counted stopped by its helper */
	see(&ranks[0], MPIV_ST_IN_CALL, 1, 5, 40, 4 + monitor_beat_limit(timeout));
	memset(&a, 0, sizeof(a));
	monitor_summarise(list, 2, 4 + 2 * monitor_beat_limit(timeout), timeout, &a);
	CU_ASSERT(a.stopped == 1);
}

/* Ranks that stop rewriting their status at once (hundreds can, on a machine with far more
 * ranks than cores) are one warning, their ranks as ranges; each is warned of once, and a
 * job's warnings stop after a few. */
static void test_stopped_ranks_warned_once(void)
{
	struct monitor_rank ranks[5];
	struct monitor_result res;
	char warned[5] = {0}, text[1024];
	int r, saved, lines;
	FILE *f;

	blocked_ranks(&res, ranks, 5, -1);
	ranks[2].beat_changed = 9; /* rank 2 beats; 0, 1, 3 and 4 stopped at 0 */
	f = stderr_to_file(&saved);
	CU_ASSERT(!monitor_deadlocked(&res, 10, 3, warned));
	CU_ASSERT(!monitor_deadlocked(&res, 10.5, 3, warned)); /* warned already */
	stderr_back(f, saved, text, sizeof(text));
	CU_ASSERT_STRING_EQUAL(text, "mpiverify: warning: ranks 0-1,3-4 (4) have not updated their "
				     "status for 10 s: they look stopped or unreachable, so the "
				     "job is not counted as deadlocked\n");
	CU_ASSERT(warned[0] && warned[1] && !warned[2] && warned[3] && warned[4]);
	/* others lagging look after look (warned cleared): two lines more, then one that says
	 * the rest are not listed, then none */
	f = stderr_to_file(&saved);
	for (r = 0; r < 6; r++) {
		memset(warned, 0, sizeof(warned));
		CU_ASSERT(!monitor_deadlocked(&res, 10, 3, warned));
	}
	stderr_back(f, saved, text, sizeof(text));
	for (r = 0, lines = 0; text[r]; r++)
		lines += text[r] == '\n';
	CU_ASSERT_EQUAL(lines, 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "more ranks have not updated their status"));
}

static CU_TestInfo nodes_tests[] = {
	{"the file stream between nodes: written, read back, refused", test_filestream},
	{"a node's summary line", test_summary_line},
	{"a node's ranks summed up, and the deadlock rule on the nodes", test_summarise_and_rule},
	{"a hang waits for every blocked call to reach its trace", test_deadlock_waits_for_traces},
	{"ranks that stop rewriting their status: one warning, once",
	 test_stopped_ranks_warned_once},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo nodes_suite = {"nodes", NULL, NULL, NULL, NULL, nodes_tests};
