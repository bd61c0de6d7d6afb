/* The mpiverify executable's commands. Each cmd_<name>() is in cli/cmd_<name>.c, parses its own
 * options the one way options.c describes and returns an enum mpiv_exit value.
 *
 * Adding a subcommand:
 *   1. write int cmd_<name>(int argc, char **argv) in cli/cmd_<name>.c, with --help; parse
 *      with getopt_long(), opterr = 0 and ":" first in the option string ("+:" if a launcher
 *      follows), and send every other answer of getopt_long() to option_error();
 *   2. declare it here and add its line to commands[] in cli/main.c;
 *   3. add cli/cmd_<name>.o to CLI_OBJS in Makefile.in;
 *   4. document it in doc/mpiverify.1 and in a line of README.md's Commands, and test it
 *      under tests/. */
#ifndef MPIV_CLI_H
#define MPIV_CLI_H

#include "exit.h"

int cmd_record(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_verify(int argc, char **argv);

/* ---- options.c: one convention for every command's command line ---- */

/* Print "mpiverify: <message>" and "try 'mpiverify <cmd> --help'" on stderr; returns
 * MPIV_EXIT_USAGE. */
int usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The usage error for what getopt_long() returned as c after an error: ':' is "option '--x'
 * needs a value", a known long option given a value it does not take "option '--x' takes no
 * value", anything else "unknown option '--foo'". Returns MPIV_EXIT_USAGE. */
int option_error(const char *cmd, int c, char **argv);

/* The checks of a command that runs a launcher: one must follow the options (at argv[optind]),
 * and the output directory's name must not be empty. Returns 0, or the usage error. */
int launcher_args(const char *cmd, int argc, int optind, const char *out);

/* Parse a positive number of seconds ("30", "0.5"). Returns 0, or -1 if s is not one. */
int parse_seconds(const char *s, double *out);

/* Parse a positive whole number ("200"). Returns 0, or -1 if s is not one. */
int parse_count(const char *s, long *out);

#endif
