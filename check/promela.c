/* check --promela (check.h): the standalone Promela model of a trace, written instead of a
 * search (doc/promela.md). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "tr_promela.h"

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
	if (tr_translate(&ts, &topts, &prog, err)) {
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
	eng_prog_release(&prog);
	mpiv_traceset_release(&ts);
	return rc ? -1 : 0;
}
