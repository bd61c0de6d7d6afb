/* verify on a program whose ranks call MPI from several threads, where its first run is not
 * for steering (explore_add_path()): it stands for every run (explore_threads_fixed(): no
 * decision, and every receive can take the one message it took, whatever the threads'
 * timing), or it leaves choices steering cannot make (explore_threads_steered(): threads
 * that race for messages that differ, or alike ones). verify then does for that run what
 * check and replay do: the model of that run, threads and their order included, searched in
 * the modes asked for, and each deadlock it has replayed on the real MPI library, the
 * threads' receives held in the counterexample's order (doc/verify.md). A deadlock replay
 * reproduces is confirmed. No deadlock in the model is "no deadlock" only when the run stands
 * for every run; otherwise the choices left make it inconclusive, naming why steering cannot
 * take them. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"
#include "cli.h"
#include "diag.h"
#include "exit.h"
#include "explore.h"
#include "findings.h"
#include "verify.h"
#include "xalloc.h"

/* Run command (argv[0] is its name) of this executable in this process, getopt started
 * afresh; with to_file, its standard output into that file. */
static int run_command(int (*cmd)(int, char **), char **argv, const char *to_file)
{
	int argc = 0, saved = -1, fd, rc;

	while (argv[argc])
		argc++;
	optind = 0; /* GNU getopt: start again, and read the new argv */
	fflush(stdout);
	if (to_file) {
		fd = open(to_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		saved = fd < 0 ? -1 : dup(STDOUT_FILENO);
		if (saved < 0 || dup2(fd, STDOUT_FILENO) < 0)
			die(MPIV_EXIT_TOOL, "cannot write '%s': %s", to_file, strerror(errno));
		close(fd);
	}
	rc = cmd(argc, argv);
	fflush(stdout);
	if (saved >= 0) {
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
	return rc;
}

/* The text of file path, "" if it cannot be read (malloc'ed). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;

	if (!f || getdelim(&text, &len, '\0', f) < 0) {
		free(text);
		text = xstrdup("");
	}
	if (f)
		fclose(f);
	return text;
}

/* --json: check's document, each deadlock with whether replay reproduced it and replay's
 * report (outdir/replay-N.log), a crash of run 1 (crash, NULL if none) as a finding of kind
 * "crash" beside them, and the verdict and exit status verify's. */
static void print_json(const char *doc_path, const char *outdir, const char *run_dir,
		       const int *reproduced, int n, int rc, const char *left, const char *crash)
{
	char log[PATH_MAX + 32];
	json_error_t jerr;
	json_t *doc = json_load_file(doc_path, 0, &jerr), *dl;
	size_t i;

	if (!doc)
		die(MPIV_EXIT_TOOL, "'%s': %s", doc_path, jerr.text);
	dl = json_object_get(doc, "deadlocks");
	for (i = 0; i < json_array_size(dl); i++) {
		char *text;

		json_object_set_new(json_array_get(dl, i), "reproduced",
				    json_boolean((int)i < n && reproduced[i]));
		snprintf(log, sizeof(log), "%s/replay-%zu.log", outdir, i + 1);
		text = slurp(log);
		json_object_set_new(json_array_get(dl, i), "replay", json_string(text));
		free(text);
	}
	json_object_set_new(doc, "verdict",
			    json_string(rc == MPIV_EXIT_DEADLOCK ? "deadlock" :
					rc == MPIV_EXIT_OK	 ? "no deadlock" :
								   "inconclusive"));
	json_object_set_new(doc, "exit", json_integer(rc));
	/* a rank that stopped of itself in run 1: the program's crash, on the library's path, a
	 * finding as verify's runs report one (doc/verify.md) */
	if (crash && !json_is_array(dl)) {
		dl = json_array();
		json_object_set_new(doc, "deadlocks", dl);
	}
	if (crash)
		json_array_append_new(dl, json_pack("{s:s, s:i, s:s, s:s}", "kind", "crash", "run",
						    1, "stopped", crash, "trace", run_dir));
	/* true: the threads left no decision to explore */
	json_object_set_new(doc, "threads_explored", json_boolean(!left));
	if (left)
		json_object_set_new(doc, "threads_left", json_string(left));
	/* as verify's own (doc/verify.md): the threads' decisions are left, and deadlocks of
	 * the model no replay showed; check's reasons stay, when it had them */
	if (rc == MPIV_EXIT_INCONCLUSIVE) {
		json_t *why = json_object_get(doc, "inconclusive");

		if (!json_is_array(why)) {
			why = json_array();
			json_object_set_new(doc, "inconclusive", why);
		}
		if (left)
			json_array_insert_new(why, 0, json_string("decisions-left"));
		if (n)
			json_array_append_new(why, json_string("unconfirmed"));
	}
	json_dumpf(doc, stdout, JSON_INDENT(2));
	fputc('\n', stdout);
	json_decref(doc);
}

/* NULL if run ts leaves nothing to steer (explore_threads_fixed()); else why, in buf: why
 * steering cannot take what it leaves (explore_threads_steered(), which verify found it
 * could not). */
static const char *threads_left(const struct mpiv_traceset *ts, char *buf, size_t size)
{
	char why[1024];

	if (explore_threads_fixed(ts, buf, size))
		return NULL;
	if (!explore_threads_steered(ts, why, sizeof(why)))
		snprintf(buf, size, "%s", why);
	return buf;
}

/* The rank of run ts that stopped of itself (explore_crash_rank()), described into buf as
 * verify's runs describe theirs; NULL if none did. It crashed on the path the library took:
 * a finding whatever the model says. */
static const char *run_crash(const struct mpiv_traceset *ts, char *buf, size_t size)
{
	struct tr_stop s;
	char how[300], where[1024];
	int r = explore_crash_rank(ts, &s);
	size_t len;

	if (r < 0)
		return NULL;
	tr_stop_describe(ts, &s, how, sizeof(how));
	snprintf(buf, size, "rank %d %s", r, how);
	if (ts->ranks[r].nevents) {
		len = strlen(buf);
		explore_event_where(ts, r, (long)ts->ranks[r].nevents - 1, where, sizeof(where));
		snprintf(buf + len, size - len, "; its last MPI call: %s", where);
	}
	return buf;
}

int verify_threaded(const struct verify_opts *o, const char *outdir, const char *run_dir)
{
	static const char *const formats[] = {[OUT_TEXT] = NULL,
					      [OUT_JSON] = "--json",
					      [OUT_SARIF] = "--sarif",
					      [OUT_GCC] = "--diagnostics-format=gcc"};
	char check_dir[PATH_MAX], doc[PATH_MAX + 32], timeout[32];
	char replay_dir[PATH_MAX + 32], replay_log[PATH_MAX + 32];
	char *check_argv[8] = {"check", (char *)run_dir, "--buffering", (char *)o->buffering,
			       "-o",	check_dir,	 NULL,		NULL};
	enum findings_output out = o->findings.output;
	char **replay_argv;
	int *reproduced = NULL;
	char left_buf[1536], crash_buf[1536];
	const char *left, *crash;
	struct mpiv_traceset ts;
	struct mpiv_error err;
	int rc, checked, i, n = 0, confirmed = 0, k;

	inform("run 1: ranks call MPI from several threads, and steering would not take the run "
	       "further: its model is searched and each deadlock replayed (check, replay), and it "
	       "stands for every run if it leaves nothing to steer");
	snprintf(check_dir, sizeof(check_dir), "%s/check", outdir);
	snprintf(doc, sizeof(doc), "%s/check.json", outdir);
	check_argv[6] = (char *)formats[out];
	/* the JSON document is verify's to print, once replay has said what it reproduced */
	rc = run_command(cmd_check, check_argv, out == OUT_JSON ? doc : NULL);
	if (rc != MPIV_EXIT_DEADLOCK && rc != MPIV_EXIT_OK && rc != MPIV_EXIT_INCONCLUSIVE)
		return rc; /* check said why */
	checked = rc;
	memset(&ts, 0, sizeof(ts));
	mpiv_error_init(&err);
	if (mpiv_traceset_load_records(run_dir, &ts, &err))
		die(MPIV_EXIT_TOOL, "run 1's traces could not be read again: %s", err.text);
	left = threads_left(&ts, left_buf, sizeof(left_buf));
	crash = run_crash(&ts, crash_buf, sizeof(crash_buf));
	mpiv_traceset_release(&ts);
	for (k = 0; o->command[k]; k++)
		;
	replay_argv = xcalloc((size_t)k + 9, sizeof(*replay_argv));
	snprintf(timeout, sizeof(timeout), "%g", o->timeout);
	for (i = 1; rc == MPIV_EXIT_DEADLOCK; i++) {
		char *cex = cex_path(check_dir, i);
		int r;

		if (access(cex, R_OK)) {
			free(cex);
			break;
		}
		snprintf(replay_dir, sizeof(replay_dir), "%s/replay-%d", outdir, i);
		snprintf(replay_log, sizeof(replay_log), "%s/replay-%d.log", outdir, i);
		replay_argv[0] = "replay";
		replay_argv[1] = "--cex";
		replay_argv[2] = cex;
		replay_argv[3] = "--deadlock-timeout";
		replay_argv[4] = timeout;
		replay_argv[5] = "-o";
		replay_argv[6] = replay_dir;
		replay_argv[7] = "--";
		memcpy(replay_argv + 8, o->command, (size_t)k * sizeof(*replay_argv));
		replay_argv[8 + k] = NULL;
		/* a report for people: on standard output only beside check's text */
		r = run_command(cmd_replay, replay_argv, out == OUT_TEXT ? NULL : replay_log);
		free(cex);
		if (r > 128) {
			free(replay_argv);
			free(reproduced);
			return r; /* interrupted */
		}
		reproduced = xrealloc(reproduced, (size_t)(n + 1) * sizeof(*reproduced));
		reproduced[n++] = r == MPIV_EXIT_DEADLOCK;
		confirmed += r == MPIV_EXIT_DEADLOCK;
	}
	free(replay_argv);
	/* "no deadlock" only from a complete search of a model that is every run's */
	rc = confirmed || crash			    ? MPIV_EXIT_DEADLOCK :
	     checked == MPIV_EXIT_OK && !n && !left ? MPIV_EXIT_OK :
						      MPIV_EXIT_INCONCLUSIVE;
	if (out == OUT_JSON)
		print_json(doc, outdir, run_dir, reproduced, n, rc, left, crash);
	else if (out != OUT_TEXT)
		inform("%d of the model's %d deadlock%s reproduced by replay", confirmed, n,
		       n == 1 ? "" : "s");
	else if (crash && !confirmed)
		printf("crash: confirmed on the real MPI library (run 1): %s\n"
		       "verdict: 1 crash confirmed on the real MPI library\n",
		       crash);
	else if (crash)
		printf("crash: confirmed on the real MPI library (run 1): %s\n"
		       "verdict: %d deadlock%s and 1 crash confirmed on the real MPI library\n",
		       crash, confirmed, confirmed == 1 ? "" : "s");
	else if (confirmed)
		printf("verdict: %d deadlock%s confirmed on the real MPI library (of %d the model of "
		       "run 1 has; %s)\n",
		       confirmed, confirmed == 1 ? "" : "s", n,
		       left ? "the threads' other decisions were not explored" :
			      "run 1 left nothing to steer");
	else if (rc == MPIV_EXIT_OK)
		printf("verdict: no deadlock: run 1 left nothing to steer (every receive can take "
		       "only the message it took, whatever the threads' timing), and its model, "
		       "every run's, has none (check)\n");
	else
		printf("verdict: inconclusive: %s%s%s\n",
		       n ? "the model of run 1 has deadlocks replay did not reproduce" :
		       checked == MPIV_EXIT_OK ?
			   "no deadlock on the paths of run 1 (check)" :
			   "check was inconclusive on run 1's model (its report, above, says "
			   "why: a search cut short, ranks that did not finish, calls left out)",
		       left ? "; the threads leave choices verify cannot steer: " : "",
		       left ? left : "");
	free(reproduced);
	return rc;
}
