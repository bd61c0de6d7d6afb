/* `mpiverify replay`: the last stage of the pipeline. Re-runs the recorded job with the
 * replayer preloaded, which forces the counterexample's matches and checks every call against
 * the recorded trace, and says whether the deadlock check predicted happens on the real MPI
 * library, why not, or where the program left the recorded path. */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cex.h"
#include "cli.h"
#include "diag.h"
#include "environment.h"
#include "job.h"
#include "paths.h"
#include "report_files.h"
#include "srcloc.h"
#include "trace.h"
#include "xalloc.h"

#define DEFAULT_TIMEOUT 10.0
#define REPLAY_DIR "replay" /* status files, next to the counterexample by default */
#define EXPECT_DIR "expect" /* in it: a JSON trace rewritten for the replayer */

static const char replay_usage[] =
	"usage: mpiverify replay --trace CEX.json [--deadlock-timeout SEC] [-o DIR]\n"
	"                        [-- LAUNCHER ARGS...]\n";

static void replay_help(void)
{
	printf("%s", replay_usage);
	printf("\nRe-run the recorded command (or LAUNCHER ARGS) with the replayer preloaded into\n"
	       "every rank: wildcard receives and probes take the matches of CEX.json, and\n"
	       "standard sends it needs unbuffered are made synchronous. Every call is checked\n"
	       "against the recorded trace the counterexample was found in. Then say whether the\n"
	       "deadlock is reproduced (with every rank's blocked call and stack), not\n"
	       "reproduced (and why, when replay can tell), or whether the program left the\n"
	       "recorded path (diverged: which rank, which event, what was expected).\n"
	       "\noptions:\n"
	       "      --trace CEX.json  the counterexample written by 'mpiverify check' (--cex\n"
	       "                        CEX.json, as 'mpiverify trace' names it, is the same)\n"
	       "      --deadlock-timeout SEC  the deadlock is reproduced when every rank has\n"
	       "                        been blocked in MPI (or finished) without progress for\n"
	       "                        SEC seconds (default %g), or for %g s where CEX.json has\n"
	       "                        it stop (--timeout SEC, its former name, is the same)\n"
	       "  -o, --output DIR      directory for the ranks' status files (default: '" REPLAY_DIR
	       "'\n"
	       "                        next to CEX.json)\n"
	       "  -h, --help            show this help\n"
	       "\nexit status:\n"
	       "  0  not reproduced: the program completed\n"
	       "  1  reproduced: the program deadlocked, the job was ended\n"
	       "  2  usage error\n"
	       "  3  CEX.json or its trace is missing or malformed, they do not fit the\n"
	       "     program run (another number of ranks), or DIR cannot be written\n"
	       "  4  the launcher or the replayer library cannot be run, the program's MPI\n"
	       "     library is one mpiverify was not built for, or no rank ran under the\n"
	       "     replayer\n"
	       "  5  diverged: the program took another path than the counterexample\n",
	       DEFAULT_TIMEOUT, MONITOR_CONFIRM_GRACE);
}

/* The counterexample's trace directory: as written if it exists, else relative to the
 * counterexample's directory. Returns a malloc'ed path, or NULL if neither exists. */
static char *find_trace_dir(const char *cex_path, const char *trace_dir)
{
	char *copy, *path;
	size_t n;

	if (!trace_dir || !*trace_dir)
		return NULL;
	if (access(trace_dir, F_OK) == 0)
		return xstrdup(trace_dir);
	if (trace_dir[0] == '/')
		return NULL;
	copy = xstrdup(cex_path);
	n = strlen(copy) + strlen(trace_dir) + 2;
	path = xmalloc(n);
	snprintf(path, n, "%s/%s", dirname(copy), trace_dir);
	free(copy);
	if (access(path, F_OK) == 0)
		return path;
	free(path);
	return NULL;
}

static char *default_dir(const char *cex_path)
{
	char *copy = xstrdup(cex_path), *path;
	size_t n = strlen(copy) + sizeof(REPLAY_DIR) + 1;

	path = xmalloc(n);
	snprintf(path, n, "%s/" REPLAY_DIR, dirname(copy));
	free(copy);
	return path;
}

/* Read the trace the counterexample was found in and check that the counterexample fits it:
 * the replayer compares every call with it. Returns 0, or an exit code after an error. */
static int load_trace(const char *cex_arg, const struct mpiv_cex *cex, const char *trace_dir,
		      struct mpiv_traceset *ts)
{
	struct mpiv_error err;

	memset(ts, 0, sizeof(*ts));
	if (!trace_dir)
		return error("the trace '%s' of counterexample '%s' is missing: replay needs it "
			     "to check that the program follows the recorded path",
			     cex->trace_dir ? cex->trace_dir : "", cex_arg),
		       MPIV_EXIT_BAD_INPUT;
	mpiv_error_init(&err);
	if (mpiv_traceset_load(trace_dir, ts, &err) < 0 ||
	    mpiv_cex_check_trace(cex, ts, cex_arg, &err) < 0)
		return error_report(&err);
	return 0;
}

/* The directory of binary traces the replayer checks calls against: the trace itself when it
 * was recorded, else (rank-N.json files) their rewriting into dir/expect. Returns it
 * (malloc'ed), or NULL after an error. */
/* Where the counterexample has each rank stop, as the monitor takes it (struct
 * monitor_expect): into call and op (ts's nranks entries each), each rank's blocked call and
 * its event, or -1 where it finishes. A run in which every rank sits still there is the
 * deadlock reproduced after MONITOR_CONFIRM_GRACE rather than the whole --timeout, since the
 * forced matches and synchronous sends leave no rank a way on. Returns 0, or -1 if it cannot
 * say for every rank: one whose trace stops early, a blocked call the trace lacks. A rank
 * whose threads call MPI is where its blocked thread whose call came first is. */
static int predicted_deadlock(const struct mpiv_cex *cex, const struct mpiv_traceset *ts, int *call,
			      long *op)
{
	int r;

	for (r = 0; r < ts->nranks; r++) {
		const struct mpiv_cex_rank *cr = &cex->ranks[r];
		const struct mpiv_rank_trace *t = &ts->ranks[r];

		long blocked = mpiv_cex_first_blocked(cr, NULL, NULL);

		if (cr->stopped)
			return -1;
		call[r] = -1;
		op[r] = -1;
		if (blocked < 0)
			continue;
		if ((size_t)blocked >= t->nevents)
			return -1;
		call[r] = (int)mpiv_trace_event(t, (size_t)blocked)->call;
		op[r] = blocked;
	}
	return 0;
}

/* The files the ranks read, absolute (cex_path is): the counterexample and each rank's trace
 * in expect. Returns a malloc'ed NULL-terminated list of malloc'ed paths. */
static char **node_files(const char *cex_path, const char *expect, int nranks)
{
	char **out = xcalloc((size_t)nranks + 2, sizeof(*out)), path[4200], *abs;
	int r, k = 0;

	out[k++] = xstrdup(cex_path);
	abs = realpath(expect, NULL);
	for (r = 0; abs && r < nranks; r++) {
		snprintf(path, sizeof(path), "%s/" MPIV_TRACE_BIN_FILE, abs, r);
		out[k++] = xstrdup(path);
	}
	free(abs);
	return out;
}

static char *expect_dir(const struct mpiv_traceset *ts, const char *trace_dir, const char *dir)
{
	struct mpiv_error err;
	char *out, path[4200];
	size_t n;
	int r, all_bin = 1;

	for (r = 0; r < ts->nranks; r++) {
		const char *src = ts->ranks[r].source;

		n = src ? strlen(src) : 0;
		if (n < 6 || strcmp(src + n - 6, ".mpivt"))
			all_bin = 0;
	}
	if (all_bin)
		return xstrdup(trace_dir);
	n = strlen(dir) + sizeof(EXPECT_DIR) + 1;
	out = xmalloc(n);
	snprintf(out, n, "%s/" EXPECT_DIR, dir);
	if (mkdir(out, 0777) < 0 && errno != EEXIST) {
		error("cannot create directory '%s': %s", out, strerror(errno));
		free(out);
		return NULL;
	}
	mpiv_error_init(&err);
	for (r = 0; r < ts->nranks; r++) {
		/* the replayer reads binary traces only */
		snprintf(path, sizeof(path), "%s/" MPIV_TRACE_BIN_FILE, out, r);
		if (mpiv_trace_save_bin(path, &ts->ranks[r], &err) < 0) {
			error_report(&err);
			free(out);
			return NULL;
		}
	}
	return out;
}

/* "at file.c:12 (main)" for a counterexample's site, or "" if it has none. */
static void cex_site(const struct mpiv_cex_site *site, char *buf, size_t size)
{
	char loc[1000];

	buf[0] = '\0';
	if (!site->function && !site->file)
		return;
	mpiv_srcloc_format(site, loc, sizeof(loc));
	snprintf(buf, size, " at %s", loc);
}

/* What replay found, into the page of the check that wrote the counterexample (report.html
 * beside it): the outcome, and for a reproduced deadlock every rank's blocked call and
 * stack, as printed. */
static void report_replayed(const char *cex_path, int rc, const struct monitor_result *res,
			    const char *trace_dir, const struct mpiv_cex *cex)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	if (rc == MPIV_EXIT_DEADLOCK && res->outcome == MONITOR_DEADLOCK &&
	    (f = open_memstream(&text, &len))) {
		monitor_report(f, res, trace_dir, cex);
		fclose(f);
	}
	report_html_replayed(cex_path, json_pack("{s:s, s:i, s:s?}", "outcome",
						 rc == MPIV_EXIT_DEADLOCK ? "reproduced" :
						 rc == MPIV_EXIT_OK	  ? "not reproduced" :
									    "diverged",
						 "exit", rc, "text", text));
	free(text);
}

/* diverged: each rank that left the recorded path, what it was expected to call and what it
 * called instead, and where. */
static void print_divergence(const struct monitor_result *res, const char *trace_dir)
{
	char where[1200];
	int r;

	for (r = 0; r < res->size; r++) {
		const struct monitor_rank *m = &res->ranks[r];

		if (!m->seen || m->state != MPIV_ST_DIVERGED)
			continue;
		monitor_site(m, r, trace_dir, where, sizeof(where));
		printf("diverged: rank %d %s\n", r,
		       m->text[0] ? m->text : "left the recorded path");
		if (where[0])
			printf("    in %s (event %ld)%s\n", m->call_name, m->op, where);
	}
	printf("the program took another path than the recorded one (its control flow depends "
	       "on something replay changed, or it is another program): the counterexample "
	       "cannot be confirmed\n");
}

/* Ranks that cannot replay: why, in their words, once for all the ranks that say the same. */
static void print_failure(const struct monitor_result *res)
{
	char ranks[256];
	size_t used;
	int r, k, n;

	for (r = 0; r < res->size; r++) {
		const struct monitor_rank *m = &res->ranks[r];

		if (!m->seen || m->state != MPIV_ST_FAILED)
			continue;
		for (k = 0; k < r; k++)
			if (res->ranks[k].seen && res->ranks[k].state == MPIV_ST_FAILED &&
			    !strcmp(res->ranks[k].text, m->text))
				break;
		if (k < r)
			continue; /* said with an earlier rank */
		used = 0;
		n = 0;
		ranks[0] = '\0';
		for (k = r; k < res->size && used < sizeof(ranks); k++) {
			const struct monitor_rank *o = &res->ranks[k];

			if (o->seen && o->state == MPIV_ST_FAILED && !strcmp(o->text, m->text))
				used += snprintf(ranks + used, sizeof(ranks) - used, "%s%d",
						 n++ ? ", " : "", k);
		}
		error("rank%s %s cannot replay: %s", n > 1 ? "s" : "", ranks, m->text);
	}
}

/* Ranks stuck in a receive whose wildcard replay pinned to the counterexample's sender, where
 * the counterexample has them go on: that message never came, so the hang is replay's doing
 * and the counterexample's path is not one this program takes. Prints a "diverged" line for
 * each; returns how many. */
static int print_pinned_hangs(const struct monitor_result *res, const struct mpiv_cex *cex,
			      const char *trace_dir)
{
	const struct mpiv_cex_op *op;
	char where[1200];
	int r, n = 0;

	for (r = 0; r < res->size && r < cex->nranks; r++) {
		const struct monitor_rank *m = &res->ranks[r];
		const struct mpiv_cex_rank *cr = &cex->ranks[r];

		if (!m->seen || m->state != MPIV_ST_IN_CALL || m->op < 0 || m->op == cr->blocked_op)
			continue;
		op = mpiv_cex_find(cr, (uint32_t)m->op);
		if (!op || !op->wildcard || op->match_rank < 0)
			continue;
		monitor_site(m, r, trace_dir, where, sizeof(where));
		printf("diverged: rank %d at event %ld: %s%s was pinned to the counterexample's "
		       "match, rank %d's event %d, and waits for a message that never came (the "
		       "counterexample has it complete)\n",
		       r, m->op, m->call_name, where, (int)op->match_rank, (int)op->match_op);
		n++;
	}
	if (n)
		printf("the counterexample's matches are not possible in this program's run: it "
		       "cannot be confirmed\n");
	return n;
}

/* Whether a rank left a note of kind (enum mpiv_note_kind). */
static int any_note(const struct monitor_result *res, unsigned kind)
{
	int r;

	for (r = 0; r < res->size; r++)
		if (res->ranks[r].seen && res->ranks[r].state != MPIV_ST_DIVERGED &&
		    (res->ranks[r].notes & kind))
			return 1;
	return 0;
}

/* Each rank's notes, when it left one of kind: "rank N: LINE" for every line. */
static void print_notes(const struct monitor_result *res, unsigned kind)
{
	int r;

	for (r = 0; r < res->size; r++) {
		const char *p = res->ranks[r].text, *nl;

		if (!res->ranks[r].seen || !(res->ranks[r].notes & kind))
			continue;
		for (; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			printf("rank %d: %.*s\n", r, nl ? (int)(nl - p) : (int)strlen(p), p);
			if (!nl)
				break;
		}
	}
}

/* The first operation of cex whose MPI_Cancel succeeded (doc/semantics.md 4.7): 1 with its
 * rank and event, else 0. */
static int cancelled_op(const struct mpiv_cex *cex, int *rank, long *ev)
{
	size_t k;
	int r;

	for (r = 0; r < cex->nranks; r++)
		for (k = 0; k < cex->ranks[r].nops; k++)
			if (cex->ranks[r].ops[k].cancelled == 1) {
				*rank = r;
				*ev = (long)cex->ranks[r].ops[k].op;
				return 1;
			}
	return 0;
}

/* not reproduced: where the counterexample has the ranks blocked, and what the replayer saw
 * happen there instead (the ranks' notes). */
static void explain_not_reproduced(const struct monitor_result *res, const struct mpiv_cex *cex)
{
	char where[1100], line[1200];
	size_t n = 0, used = 0;
	int r, coll = 0;
	long ev;

	line[0] = '\0';
	for (r = 0; r < cex->nranks; r++) {
		const struct mpiv_cex_rank *cr = &cex->ranks[r];

		if (cr->blocked_op < 0)
			continue;
		used += snprintf(line + used, used < sizeof(line) ? sizeof(line) - used : 0,
				 "%s rank %d at event %ld (%s)", n++ ? "," : "", r, cr->blocked_op,
				 cr->blocked_call ? cr->blocked_call : "an MPI call");
		if (used >= sizeof(line))
			break;
	}
	if (n)
		printf("not reproduced: the program completed, but the counterexample has these "
		       "ranks blocked:%s\n",
		       line);
	else
		printf("not reproduced: the program completed\n");
	for (r = 0; r < cex->nranks; r++) {
		const struct mpiv_cex_rank *cr = &cex->ranks[r];
		const struct monitor_rank *m = r < res->size ? &res->ranks[r] : NULL;
		int call;

		if (cr->blocked_op < 0)
			continue;
		cex_site(&cr->site, where, sizeof(where));
		printf("rank %d: predicted blocked in %s%s, but it %s\n", r,
		       cr->blocked_desc ? cr->blocked_desc : cr->blocked_call, where,
		       !m || !m->seen		     ? "did not report" :
		       m->state == MPIV_ST_FINALIZED ? "finished" :
						       "ended outside MPI_Finalize");
		if (m && m->seen && m->text[0]) {
			const char *p = m->text, *nl;

			for (; *p; p = nl + 1) {
				nl = strchr(p, '\n');
				printf("    %.*s\n", nl ? (int)(nl - p) : (int)strlen(p), p);
				if (!nl)
					break;
			}
		}
		call = cr->blocked_call ? mpiv_call_from_name(cr->blocked_call) : -1;
		if (call >= 0 && mpiv_call_kind((unsigned)call) == MPIV_KIND_COLL)
			coll = 1;
	}
	if (any_note(res, MPIV_NOTE_ICOLL_FREE))
		coll = 1;
	/* The reasons replay can tell of, most specific first. */
	if (!n)
		return;
	if (cex->ready_send)
		printf("why: the counterexample is rank %d's ready send (MPI_Rsend) started before "
		       "its matching receive was posted, which is erroneous; this MPI library does "
		       "not detect it (a ready send behaves as a standard send there)\n",
		       cex->ready_send - 1);
	else if (cancelled_op(cex, &r, &ev))
		printf("why: the counterexample needs the cancellation of rank %d's request made "
		       "at event %ld to succeed (MPI_Cancel), which replay cannot force; MPICH 4.0 "
		       "and Open MPI 4.1 do not cancel sends\n",
		       r, ev);
	else if (any_note(res, MPIV_NOTE_UNFORCED))
		printf("why: replay could not force every choice of the counterexample (see "
		       "above)\n");
	else if (coll)
		printf("why: the counterexample has a collective wait for its peers, which the "
		       "MPI library did not do (replay makes collectives synchronise only for a "
		       "counterexample found without buffering)\n");
	else if (any_note(res, MPIV_NOTE_FREE_TO_BUFFER))
		printf("why: the counterexample has a rank blocked in a standard send without "
		       "asking for it to be unbuffered, and the MPI library buffered it\n");
	else
		printf("why: replay forced every choice the counterexample names, yet the ranks "
		       "got past their predicted blocked calls: the model and this MPI library "
		       "disagree here (please report it)\n");
}

/* The job ended before any rank reported: the launcher could not start the program, or the
 * replayer did not reach the ranks. Says which; returns MPIV_EXIT_TOOL. */
static int no_replay(const struct launch *job, char **command, const char *dir, int recorded)
{
	char how[128];

	if (launch_exit_code(job) != 0) {
		launch_describe_exit(job, how, sizeof(how));
		error("the launcher '%s' failed (%s) before any rank reported: nothing was "
		      "replayed",
		      command[0], how);
		if (recorded)
			fprintf(stderr, "hint: give the command to run after '--' if the recorded "
					"one cannot run here\n");
	} else {
		error("no rank reported to '%s': the replayer did not run in the ranks, so "
		      "nothing was replayed (is the program a dynamically linked MPI program?)",
		      dir);
	}
	return MPIV_EXIT_TOOL;
}

int cmd_replay(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"trace", required_argument, NULL, 't'},
		{"cex", required_argument, NULL, 't'},
		/* the name record and verify give the same timeout; --timeout is its old one */
		{"deadlock-timeout", required_argument, NULL, 'T'},
		{"timeout", required_argument, NULL, 'T'},
		{"output", required_argument, NULL, 'o'},
		{"help", no_argument, NULL, 'h'},
		{NULL, 0, NULL, 0},
	};
	static const char *const stale[] = {".status", NULL};
	const char *cex_arg = NULL, *out = NULL;
	double timeout = DEFAULT_TIMEOUT;
	const struct monitor_result *res;
	struct launch_var vars[3];
	struct mpiv_traceset ts;
	struct mpiv_error err;
	struct mpiv_cex cex;
	struct monitor_expect predicted;
	int *pcall = NULL;
	long *pop = NULL;
	struct preload preload;
	struct job job;
	char **command, *cex_path = NULL, *trace_dir = NULL;
	char *dflt = NULL, *expect = NULL, how[128], **put = NULL;
	int c, rc;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 't':
			cex_arg = optarg;
			break;
		case 'T':
			if (parse_seconds(optarg, &timeout) < 0)
				return usage_error("replay",
						   "invalid --deadlock-timeout '%s': expected a "
						   "positive number of seconds",
						   optarg);
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			replay_help();
			return MPIV_EXIT_OK;
		default:
			return option_error("replay", c, argv);
		}
	}
	/* The command must follow '--': a bare word is more likely a forgotten --trace. */
	if (optind < argc && strcmp(argv[optind - 1], "--"))
		return usage_error("replay",
				   "unexpected argument '%s' (a command to run goes "
				   "after '--')",
				   argv[optind]);
	if (!cex_arg)
		return usage_error("replay", "no counterexample given (--trace CEX.json)");
	if (out && !*out)
		return usage_error("replay", "empty output directory name");

	memset(&ts, 0, sizeof(ts));
	mpiv_error_init(&err);
	if (mpiv_cex_load(cex_arg, &cex, &err) < 0) {
		error_report(&err);
		return MPIV_EXIT_BAD_INPUT;
	}
	command = optind < argc ? argv + optind : cex.command;
	if (!command || !command[0]) {
		mpiv_cex_release(&cex);
		return usage_error("replay",
				   "the counterexample '%s' names no command: give one "
				   "after '--'",
				   cex_arg);
	}

	job_init(&job);
	memset(&preload, 0, sizeof(preload));
	/* the ranks may start in another directory: they get absolute paths */
	cex_path = realpath(cex_arg, NULL);
	if (!cex_path) {
		error("cannot resolve counterexample '%s': %s", cex_arg, strerror(errno));
		rc = MPIV_EXIT_BAD_INPUT;
		goto out;
	}
	if (!out) {
		dflt = default_dir(cex_path);
		out = dflt;
	}
	trace_dir = find_trace_dir(cex_path, cex.trace_dir);
	rc = load_trace(cex_arg, &cex, trace_dir, &ts);
	if (!rc)
		rc = job_prepare_dir(&job, out, stale);
	if (rc)
		goto out;
	expect = expect_dir(&ts, trace_dir, job.dir);
	if (!expect) {
		rc = MPIV_EXIT_BAD_INPUT;
		goto out;
	}

	/* across nodes without a shared directory, each node gets what the ranks read */
	put = node_files(cex_path, expect, ts.nranks);
	job.put_files = (const char *const *)put;
	vars[0].name = MPIV_ENV_CEX;
	vars[0].value = cex_path;
	vars[1].name = MPIV_ENV_REPLAY_TRACE;
	vars[1].value = expect;
	vars[2].name = NULL;
	vars[2].value = NULL;
	/* the recorded command runs where it was recorded: its paths may be relative to there */
	if (command == cex.command && cex.cwd && chdir(cex.cwd) != 0)
		warning("cannot enter the recorded directory '%s': %s; running here", cex.cwd,
			strerror(errno));
	/* from there: the command's relative paths are */
	rc = preload_pick(&preload, command, PRELOAD_REPLAYER, 0);
	if (!rc)
		rc = job_start(&job, &preload, command, vars, timeout);
	if (rc)
		goto out;

	memset(&predicted, 0, sizeof(predicted));
	pcall = xcalloc((size_t)ts.nranks + 1, sizeof(*pcall));
	pop = xcalloc((size_t)ts.nranks + 1, sizeof(*pop));
	if (!predicted_deadlock(&cex, &ts, pcall, pop)) {
		predicted.n = ts.nranks;
		predicted.call = pcall;
		predicted.op = pop;
		predicted.grace = MONITOR_CONFIRM_GRACE;
		job.expect = &predicted;
	}
	res = job_watch(&job);
	switch (res->outcome) {
	case MONITOR_DEADLOCK:
		if (print_pinned_hangs(res, &cex, trace_dir)) {
			fflush(stdout);
			job_end(&job);
			rc = MPIV_EXIT_INCONCLUSIVE;
			break;
		}
		printf("reproduced: the program deadlocked, every rank blocked%s for %.1f s\n",
		       res->stalled < timeout ? " where the counterexample has it" : "",
		       res->stalled);
		fflush(stdout);
		job_end(&job);
		if (monitor_report(stdout, res, trace_dir, &cex))
			printf("note: some ranks are blocked elsewhere than the counterexample "
			       "predicts (marked 'differs')\n");
		if (cex.mismatch)
			print_notes(res, MPIV_NOTE_MISMATCH);
		rc = MPIV_EXIT_DEADLOCK;
		break;
	case MONITOR_DIVERGED:
		job_end(&job);
		print_divergence(res, trace_dir);
		rc = MPIV_EXIT_INCONCLUSIVE;
		break;
	case MONITOR_FAILED:
		job_end(&job);
		print_failure(res);
		rc = MPIV_EXIT_BAD_INPUT;
		break;
	case MONITOR_INTERRUPTED:
		fflush(stdout);
		fprintf(stderr, "mpiverify: interrupted by signal %d: ending the job\n",
			res->signal);
		job_end(&job);
		rc = 128 + res->signal;
		break;
	case MONITOR_COMPLETED:
	default:
		job_end(&job);
		if (!res->size) {
			/* Without one status file nothing was replayed: saying "not reproduced"
			 * would be a verdict on a run that did not happen. */
			rc = no_replay(&job.launch, command, job.dir, command == cex.command);
			break;
		}
		/* a collective mismatch shows by the calls, not by a hang */
		if (cex.mismatch && any_note(res, MPIV_NOTE_MISMATCH)) {
			printf("reproduced: the ranks called different collectives at the same place "
			       "(the MPI library completed them all the same)\n");
			print_notes(res, MPIV_NOTE_MISMATCH);
			rc = MPIV_EXIT_DEADLOCK;
			break;
		}
		/* where the counterexample has ranks blocked, and what happened there instead */
		explain_not_reproduced(res, &cex);
		if (res->exit_code != 0) {
			launch_describe_exit(&job.launch, how, sizeof(how));
			warning("the launcher '%s' failed: %s", command[0], how);
		}
		rc = MPIV_EXIT_OK;
		break;
	}
	if (rc == MPIV_EXIT_OK || rc == MPIV_EXIT_DEADLOCK || rc == MPIV_EXIT_INCONCLUSIVE)
		report_replayed(cex_path, rc, res, trace_dir, &cex);
out:
	job_release(&job);
	preload_release(&preload);
	mpiv_traceset_release(&ts);
	for (c = 0; put && put[c]; c++)
		free(put[c]);
	free(put);
	free(pcall);
	free(pop);
	free(expect);
	free(trace_dir);
	free(dflt);
	free(cex_path);
	mpiv_cex_release(&cex);
	return rc;
}
