/* Messages to the user, for the mpiverify executable only (library code fills a struct
 * mpiv_error instead). Lower case, no final period, what went wrong first. */
#ifndef MPIV_DIAG_H
#define MPIV_DIAG_H

#include "error.h"
#include "exit.h"

/* "mpiverify: error: ..." on stderr; returns -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "mpiverify: ..." on stderr: mpiverify's own news, kept apart from the program's stdout. */
void inform(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "mpiverify: warning: ..." on stderr. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "mpiverify: fatal: ..." then exit(code). */
void die(enum mpiv_exit code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));

/* Print err as an error and return its exit code. */
enum mpiv_exit error_report(const struct mpiv_error *err);

/* A broken invariant: print and abort. */
#define BUG(msg) mpiv_bug(__FILE__, __LINE__, msg)
void mpiv_bug(const char *file, int line, const char *msg) __attribute__((noreturn));

#endif
