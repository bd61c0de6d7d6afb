/* The mpiverify executable: the command table and its dispatch (git.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "config.h"
#include "diag.h"
#include "nodes.h"

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

	fprintf(f, "usage: mpiverify [--version] <command> [<args>]\n\ncommands:\n");
	for (i = 0; i < NCOMMANDS; i++)
		if (commands[i].summary)
			fprintf(f, "   %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f,
		"\n'mpiverify <command> --help' shows a command's options.\n"
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

int main(int argc, char **argv)
{
	const struct cmd *c;
	int rc;

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
	c = find_command(argv[1]);
	if (!c) {
		fprintf(stderr, "mpiverify: '%s' is not a command\n", argv[1]);
		list_commands(stderr);
		return MPIV_EXIT_USAGE;
	}
	rc = c->fn(argc - 1, argv + 1);
	/* A full disk on stdout must not pass for a verdict (git's run_builtin). */
	if (fflush(stdout) || ferror(stdout)) {
		error("write failure on standard output: %s", strerror(errno));
		return MPIV_EXIT_TOOL;
	}
	return rc;
}
