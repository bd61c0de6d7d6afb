/* The mpiverify executable's commands. Each cmd_<name>() is in cli/cmd_<name>.c, parses its own
 * options (getopt_long, "+" first so that option parsing stops at the launcher) and returns an
 * enum mpiv_exit value.
 *
 * Adding a subcommand:
 *   1. write int cmd_<name>(int argc, char **argv) in cli/cmd_<name>.c, with --help;
 *   2. declare it here and add its line to commands[] in cli/main.c;
 *   3. add cli/cmd_<name>.o to CLI_OBJS in Makefile.in;
 *   4. document it in doc/mpiverify.1 and README.md, and test it under tests/. */
#ifndef MPIV_CLI_H
#define MPIV_CLI_H

#include "exit.h"

int cmd_record(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_trace(int argc, char **argv);

/* Print "usage: mpiverify <cmd> ..." style help and its error line; returns MPIV_EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
