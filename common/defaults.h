/* Default options of a command (doc/usage.md, "Default options"), as valgrind reads
 * ~/.valgrindrc and $VALGRIND_OPTS: a project or a user writes once the options every run of a
 * command should have (a deadlock timeout, suppressions, a time limit), and the command line
 * adds to them or overrides them. Library code: it reads and splits, and fills a struct
 * mpiv_error; cli/main.c puts the words before the command line's. */
#ifndef MPIV_DEFAULTS_H
#define MPIV_DEFAULTS_H

#include <stddef.h>

#include "error.h"

/* The files read, in order: the user's, then the project's (the directory mpiverify runs in);
 * then the command's variable, MPIVERIFY_<COMMAND>_OPTIONS. A later option of the same name
 * overrides an earlier one, as on the command line. */
#define MPIV_DEFAULTS_FILE ".mpiverifyrc"

/* Words to put before a command line's options. */
struct mpiv_defaults {
	char **words; /* malloc'ed, n of them, each malloc'ed */
	size_t n;
	/* where they came from, for a note when the command refuses one: "FILE:LINE" or the
	 * variable's name, separated by ", " (malloc'ed; NULL if none) */
	char *from;
};

/* Add the words of text (len bytes), a defaults file's contents, for command cmd to d:
 * each line "COMMAND OPTION...", words split at blanks, a word in double quotes holding
 * blanks, '#' starting a comment where a word would start. Lines of other commands are
 * skipped. source names the file in errors. Returns 0, or -1 with err filled and d as it was
 * (MPIV_EXIT_BAD_INPUT, the file and line: a NUL byte, an unterminated quote, a line whose
 * first word is no command). */
int mpiv_defaults_parse(struct mpiv_defaults *d, const char *text, size_t len, const char *cmd,
			const char *source, struct mpiv_error *err);

/* Add the words of a variable's value (name names it), split as a file's line is, without
 * the command's name. Returns 0, or -1 with err filled and d as it was. */
int mpiv_defaults_words(struct mpiv_defaults *d, const char *value, const char *name,
			struct mpiv_error *err);

/* Whether name is a command that takes defaults: record, check, replay, verify, trace. */
int mpiv_defaults_command(const char *name);

void mpiv_defaults_release(struct mpiv_defaults *d);

#endif
