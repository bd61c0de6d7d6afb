/* check's and verify's options about their findings (findings.h, doc/reports.md): the output
 * on standard output, suppressions, and the suppressions to write for what was found. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diag.h"
#include "findings.h"

int findings_option(struct findings_opts *o, const char *cmd, int c, const char *arg)
{
	struct mpiv_error err;
	char *end;

	switch (c) {
	case FINDINGS_OPT_JSON:
	case FINDINGS_OPT_SARIF:
	case FINDINGS_OPT_DIAG: {
		enum findings_output out = c == FINDINGS_OPT_JSON  ? OUT_JSON :
					   c == FINDINGS_OPT_SARIF ? OUT_SARIF :
								     OUT_GCC;

		if (c == FINDINGS_OPT_DIAG && strcmp(arg, "gcc") && strcmp(arg, "text"))
			return usage_error(cmd,
					   "invalid --diagnostics-format '%s': expected gcc or "
					   "text",
					   arg);
		if (c == FINDINGS_OPT_DIAG && !strcmp(arg, "text"))
			out = OUT_TEXT;
		if (o->output != OUT_TEXT && out != OUT_TEXT && o->output != out)
			return usage_error(cmd, "--json, --sarif and --diagnostics-format=gcc "
						"cannot be given together: standard output holds "
						"one of them");
		if (out != OUT_TEXT)
			o->output = out;
		return 0;
	}
	case FINDINGS_OPT_SUPPRESSIONS:
		mpiv_error_init(&err);
		if (mpiv_suppressions_load(&o->supps, arg, &err) < 0)
			return error_report(&err);
		return 0;
	case FINDINGS_OPT_GEN:
		if (arg && !*arg)
			return usage_error(cmd, "--gen-suppressions= needs a file name");
		o->gen = arg ? arg : "-";
		return 0;
	case FINDINGS_OPT_IGNORE:
		errno = 0;
		o->ignore_below = strtoll(arg, &end, 10);
		if (errno || end == arg || *end || o->ignore_below < 1)
			return usage_error(cmd,
					   "invalid --ignore-potential-below '%s': expected "
					   "a positive number of bytes",
					   arg);
		return 0;
	default:
		return -1;
	}
}

int findings_options_done(const struct findings_opts *o, const char *cmd)
{
	if (o->gen && !strcmp(o->gen, "-") && o->output != OUT_TEXT)
		return usage_error(cmd,
				   "--gen-suppressions without =FILE writes to standard "
				   "output, which --%s holds: give a file",
				   o->output == OUT_JSON  ? "json" :
				   o->output == OUT_SARIF ? "sarif" :
							    "diagnostics-format=gcc");
	return 0;
}

int findings_exit(int rc, const struct findings *fs, int not_whole)
{
	if (rc == MPIV_EXIT_DEADLOCK && !findings_shown(fs, 1))
		rc = not_whole ? MPIV_EXIT_INCONCLUSIVE : MPIV_EXIT_OK;
	if (findings_shown(fs, 0) && (rc == MPIV_EXIT_OK || rc == MPIV_EXIT_INCONCLUSIVE))
		rc = MPIV_EXIT_DEADLOCK;
	return rc;
}

int findings_gen(const struct findings_opts *o, const struct findings *fs)
{
	FILE *f = stdout;

	if (!o->gen)
		return 0;
	if (strcmp(o->gen, "-")) {
		f = fopen(o->gen, "w");
		if (!f)
			return error("cannot write suppressions to '%s': %s", o->gen,
				     strerror(errno));
	} else {
		putchar('\n');
	}
	fprintf(f, "# mpiverify suppressions (doc/reports.md), one per finding\n");
	findings_write_suppressions(f, fs);
	if (f != stdout && fclose(f) != 0)
		return error("cannot write suppressions to '%s': %s", o->gen, strerror(errno));
	return 0;
}

void findings_opts_release(struct findings_opts *o)
{
	mpiv_suppressions_release(&o->supps);
}
