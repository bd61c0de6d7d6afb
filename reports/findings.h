/* The findings of a check or verify document (check_doc.c, verify_report.c): every deadlock,
 * reduction error, warning and stopped rank, with its call sites and fingerprint, and which
 * of them suppressions (--suppressions, --ignore-potential-below) hide. Read from the
 * document, so that the text, JSON, SARIF, HTML and suppressions all say the same. */
#ifndef MPIV_FINDINGS_H
#define MPIV_FINDINGS_H

#include <stdio.h>

#include <jansson.h>

#include "finding.h"
#include "suppress.h"

struct finding {
	struct mpiv_finding f; /* kind and call sites (strings of the document's) */
	json_t *entry;	       /* its entry in the document (borrowed) */
	/* the document's array: "deadlocks", "errors",
	 * "warnings", "stopped" */
	const char *section;
	int index; /* its index there */
	/* "HEX:N": N-th finding of that
	 * fingerprint in the document */
	char fingerprint[MPIV_FINGERPRINT_SIZE + 12];
	/* what hides it (the suppression's name, or the
	 * option), NULL if nothing */
	const char *suppressed;
	char **names; /* call names it owns */
};

struct findings {
	struct finding *f;
	int n;
	int nsuppressed;
	char ignored[64]; /* "--ignore-potential-below N": what hides those */
};

/* Collect the findings of doc and write each one's "fingerprint" into its entry. Cannot fail
 * (an entry without what it needs has no call sites). */
void findings_of(struct findings *fs, json_t *doc);

/* Hide the findings that a suppression of set (may be NULL) matches, and, when ignore_below
 * is positive, the potential deadlocks (and verify's deadlocks confirmed only with every
 * standard send unbuffered, "needs_unbuffered") whose unbuffered standard sends are all
 * smaller than ignore_below bytes ("unbuffered_max_bytes"); each hidden one's entry gets
 * "suppressed" (what hides it). */
void findings_suppress(struct findings *fs, const struct mpiv_suppressions *set,
		       long long ignore_below);

/* Whether entry index of the document's array section is hidden. */
int findings_hidden(const struct findings *fs, const char *section, int index);

/* How many findings are not hidden: deadlocks (and other erroneous states of the search) with
 * deadlocks set, else MPI correctness errors (the reduction check's). */
int findings_shown(const struct findings *fs, int deadlocks);

/* The hidden findings, one line each under a heading; nothing when there are none. */
void findings_print_suppressed(FILE *f, const struct findings *fs);

/* A suppression for each finding not hidden (a stopped rank has none), for
 * --gen-suppressions. Returns how many. */
int findings_write_suppressions(FILE *f, const struct findings *fs);

/* What a finding of kind is to a reader of SARIF or of compilers' diagnostics: "error" (a
 * deadlock or another erroneous state, a reduction error), "note" (a reduction not checked)
 * or "warning" (the rest). */
const char *findings_severity(int kind);

/* "MPI_Send" of "MPI_Send(dest=1, ...)": a malloc'ed copy of the call's name. */
char *findings_call_name(const char *desc);

void findings_release(struct findings *fs);

/* ---- findings_opts.c: check's and verify's options about their findings ---- */

enum findings_output {
	OUT_TEXT,  /* the report for people */
	OUT_JSON,  /* --json */
	OUT_SARIF, /* --sarif */
	OUT_GCC,   /* --diagnostics-format=gcc */
};

struct findings_opts {
	enum findings_output output;
	struct mpiv_suppressions supps; /* --suppressions FILE, each file's */
	long long ignore_below;		/* --ignore-potential-below BYTES, 0 if not given */
	/* --gen-suppressions[=FILE]: the file, "-" for standard
	 * output, NULL if not asked */
	const char *gen;
};

/* The long options, for a command's getopt_long() table (their values are above 255). */
#define FINDINGS_LONGOPTS                                                              \
	{"json", no_argument, NULL, FINDINGS_OPT_JSON},                                \
		{"sarif", no_argument, NULL, FINDINGS_OPT_SARIF},                      \
		{"suppressions", required_argument, NULL, FINDINGS_OPT_SUPPRESSIONS},  \
		{"gen-suppressions", optional_argument, NULL, FINDINGS_OPT_GEN},       \
		{"diagnostics-format", required_argument, NULL, FINDINGS_OPT_DIAG},    \
	{                                                                              \
		"ignore-potential-below", required_argument, NULL, FINDINGS_OPT_IGNORE \
	}
enum {
	FINDINGS_OPT_JSON = 0x100,
	FINDINGS_OPT_SARIF,
	FINDINGS_OPT_SUPPRESSIONS,
	FINDINGS_OPT_GEN,
	FINDINGS_OPT_IGNORE,
	FINDINGS_OPT_DIAG,
};

/* The option getopt_long() returned as c (its argument arg) into o, for command cmd. Returns
 * 0 when c was one of them, -1 when it was not, or an exit code (above 0) after a message: a
 * usage error, or a suppressions file that cannot be read (3, naming the file and the
 * line). */
int findings_option(struct findings_opts *o, const char *cmd, int c, const char *arg);

/* The checks once every option is read (--gen-suppressions without a file beside --json or
 * --sarif). Returns 0 or a usage error's exit code. */
int findings_options_done(const struct findings_opts *o, const char *cmd);

/* The exit status once suppressions hid what they hide: rc, the search's answer, becomes
 * OK (or INCONCLUSIVE when not_whole: a search cut short, a rank that did not finish, paths
 * left) when every deadlock is hidden; then 1 for a reduction error not hidden. */
int findings_exit(int rc, const struct findings *fs, int not_whole);

/* --gen-suppressions: a suppression for every finding not hidden, into o->gen (standard
 * output for "-", after a blank line). Returns 0, or -1 after an error message. */
int findings_gen(const struct findings_opts *o, const struct findings *fs);

void findings_opts_release(struct findings_opts *o);

#endif
