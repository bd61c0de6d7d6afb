/* The mpiverify executable: the command table and its dispatch (git.c). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "defaults.h"
#include "diag.h"
#include "environment.h"
#include "nodes.h"
#include "xalloc.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	/* one line for `mpiverify help`; NULL: not listed (run by
	 * mpiverify itself, not by users) */
	const char *summary;
};

static int cmd_help(int argc, char **argv);

static const struct cmd commands[] = {
	{"verify", cmd_verify, "find deadlocks on every path: record, check, re-run, confirm"},
	{"record", cmd_record, "run an MPI program under the launcher, one trace per rank"},
	{"check", cmd_check, "model the traces and search every behaviour for deadlocks"},
	{"replay", cmd_replay, "re-run the program forcing a counterexample's choices"},
	{"trace", cmd_trace, "print a recorded trace as JSON"},
	{"help", cmd_help, "show the commands, or a command's help"},
	{"node-agent", cmd_node_agent, NULL}, /* on a cluster's nodes: nodes.h */
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void list_commands(FILE *f)
{
	size_t i;

	fprintf(f, "usage: mpiverify [--version] [--no-config] <command> [<args>]\n\ncommands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		if (commands[i].summary)
			fprintf(f, "   %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
		"\n'mpiverify <command> --help' shows a command's options. Default options come\n"
		"from ~/.mpiverifyrc, ./.mpiverifyrc and MPIVERIFY_<COMMAND>_OPTIONS, before the\n"
		"command line's; --no-config leaves them out.\n"
		"exit codes: 0 no deadlock / completed, 1 deadlock found / reproduced, 2 usage,\n"
		"3 bad input, 4 a required tool failed, 5 inconclusive or diverged\n");
}

static const struct cmd *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

static int cmd_help(int argc, char **argv)
{
	const struct cmd *c;
	char *sub[] = {NULL, "--help", NULL};

	if (argc < 2) {
		list_commands(stdout);
		return MPIV_EXIT_OK;
	}
	if (argc > 2)
		return usage_error("help", "unexpected argument '%s'", argv[2]);
	/* its own help: the usage error below sends there, so it must not send back */
	if (!strcmp(argv[1], "help") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs("usage: mpiverify help [COMMAND]\n\n"
		      "Show the commands, or COMMAND's options (as 'mpiverify COMMAND --help').\n",
		      stdout);
		return MPIV_EXIT_OK;
	}
	c = find_command(argv[1]);
	if (!c)
		return usage_error("help", "unknown command '%s'", argv[1]);
	sub[0] = argv[1];
	return c->fn(2, sub);
}

/* Add the defaults file at path, if there is one, to d. Returns 0, or the exit code of an
 * error, printed. */
static int defaults_file(struct mpiv_defaults *d, const char *cmd, const char *path)
{
	struct mpiv_error err;
	size_t len;
	char *text = xread_file(path, &len);
	int rc;

	if (!text)
		return errno == ENOENT ? 0 :
					 (error("cannot read '%s': %s", path, strerror(errno)),
					  MPIV_EXIT_BAD_INPUT);
	mpiv_error_init(&err);
	rc = mpiv_defaults_parse(d, text, len, cmd, path, &err);
	free(text);
	return rc ? (int)error_report(&err) : 0;
}

/* The default options of command cmd (defaults.h) into d: the user's file, the project's
 * (unless it is the same file), then the command's variable. Returns 0, or the exit code of
 * an error, printed. */
static int defaults_of(struct mpiv_defaults *d, const char *cmd)
{
	char user[PATH_MAX], var[64], *real_user = NULL, *real_here;
	const char *home = getenv("HOME"), *value;
	struct mpiv_error err;
	int rc = 0, same;
	size_t i;

	if (home && *home) {
		snprintf(user, sizeof(user), "%s/%s", home, MPIV_DEFAULTS_FILE);
		rc = defaults_file(d, cmd, user);
		real_user = realpath(user, NULL);
	}
	real_here = realpath(MPIV_DEFAULTS_FILE, NULL);
	same = real_user && real_here && !strcmp(real_user, real_here);
	free(real_user);
	free(real_here);
	if (!rc && !same)
		rc = defaults_file(d, cmd, MPIV_DEFAULTS_FILE);
	snprintf(var, sizeof(var), MPIV_ENV_OPTIONS_FMT, cmd);
	for (i = 0; var[i]; i++)
		var[i] = (char)toupper((unsigned char)var[i]);
	value = getenv(var);
	mpiv_error_init(&err);
	if (!rc && value && mpiv_defaults_words(d, value, var, &err))
		rc = error_report(&err);
	return rc;
}

int main(int argc, char **argv)
{
	struct mpiv_defaults d = {NULL, 0, NULL};
	char **args = NULL;
	const struct cmd *c;
	int rc, no_config = 0, i, n;

	if (argc < 2) {
		list_commands(stderr);
		return MPIV_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("mpiverify %s\n", PACKAGE_VERSION);
		return MPIV_EXIT_OK;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		list_commands(stdout);
		return MPIV_EXIT_OK;
	}
	/* --no-config before the command, or first after it */
	if (!strcmp(argv[1], "--no-config")) {
		no_config = 1;
		argv++;
		argc--;
		if (argc < 2) {
			list_commands(stderr);
			return MPIV_EXIT_USAGE;
		}
	}
	c = find_command(argv[1]);
	if (!c) {
		fprintf(stderr, "mpiverify: '%s' is not a command\n", argv[1]);
		list_commands(stderr);
		return MPIV_EXIT_USAGE;
	}
	argv++;
	argc--;
	if (argc > 1 && !strcmp(argv[1], "--no-config")) {
		no_config = 1;
		argv[1] = argv[0];
		argv++;
		argc--;
	}
	if (getenv(MPIV_ENV_NO_CONFIG) && *getenv(MPIV_ENV_NO_CONFIG))
		no_config = 1;
	/* the defaults go first: the command line's options come after, and override them */
	if (!no_config && mpiv_defaults_command(c->name)) {
		if ((rc = defaults_of(&d, c->name))) {
			mpiv_defaults_release(&d);
			return rc;
		}
		n = 0;
		args = xcalloc((size_t)argc + d.n + 1, sizeof(*args));
		args[n++] = argv[0];
		for (i = 0; i < (int)d.n; i++)
			args[n++] = d.words[i];
		for (i = 1; i < argc; i++)
			args[n++] = argv[i];
		argv = args;
		argc = n;
	}
	rc = c->fn(argc, argv);
	if (rc == MPIV_EXIT_USAGE && d.from)
		fprintf(stderr,
			"note: the options include the defaults of %s, first; --no-config leaves "
			"them out\n",
			d.from);
	free(args);
	mpiv_defaults_release(&d);
	/* A full disk on stdout must not pass for a verdict (git's run_builtin). */
	if (fflush(stdout) || ferror(stdout)) {
		error("write failure on standard output: %s", strerror(errno));
		return MPIV_EXIT_TOOL;
	}
	return rc;
}
