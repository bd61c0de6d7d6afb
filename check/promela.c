/* check --promela (check.h): the standalone Promela model of a trace, written instead of a
 * search (doc/promela.md). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "tr_promela.h"

/* Say which ranks' calls the model written to path leaves out: its deadlocks are deadlocks,
 * but its having none says nothing of those calls. */
static void note_left_out(const struct mpiv_traceset *ts, const char *path)
{
	struct tr_stop s;
	char why[600];
	int r;

	for (r = 0; r < ts->nranks; r++) {
		tr_stop_of(ts, r, &s);
		if (s.kind != TR_STOP_UNJUDGED)
			continue;
		tr_stop_describe(ts, &s, why, sizeof(why));
		fprintf(stderr,
			"mpiverify: note: %s: rank %d %s; the model stops it there: a deadlock "
			"it has is one, but one it has not says nothing of those calls\n",
			strcmp(path, "-") ? path : "the model", r, why);
	}
}

int check_promela(const char *path, const char *dir, const struct mpiv_buffering *b,
		  struct mpiv_error *err)
{
	struct tr_opts topts = {tr_buffering(b->mode), b->bytes, 0, 0, 0};
	struct tr_promela_opts popts = {tr_buffering(b->mode), b->bytes, 0, 0};
	struct tr_promela_input in;
	struct mpiv_traceset ts;
	struct eng_prog prog;
	int to_stdout = !strcmp(path, "-"), rc;
	FILE *f;

	if (mpiv_traceset_load(dir, &ts, err))
		return -1;
	/* a call check cannot judge yet: its rank's calls from there on are left out, as check
	 * leaves them out (the model stops the rank there, free as a rank that stopped) */
	if (tr_translate_judged(&ts, &topts, &prog, err)) {
		mpiv_traceset_release(&ts);
		return -1;
	}
	f = to_stdout ? stdout : fopen(path, "w");
	if (!f) {
		mpiv_error_set(err, MPIV_EXIT_BAD_INPUT, path, -1, -1, "cannot create: %s",
			       strerror(errno));
		eng_prog_release(&prog);
		mpiv_traceset_release(&ts);
		return -1;
	}
	in.prog = &prog;
	in.ts = &ts;
	rc = tr_promela(f, to_stdout ? "model.pml" : path, &in, 1, &popts, NULL, err);
	if (!to_stdout && fclose(f) && rc == 0)
		rc = mpiv_error_set(err, MPIV_EXIT_TOOL, path, -1, -1, "cannot write: %s",
				    strerror(errno));
	if (rc && !to_stdout)
		unlink(path); /* no half a model */
	if (!rc)
		note_left_out(&ts, path);
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
	return rc ? -1 : 0;
}
