/* Errors of library code (common/, translator/): filled in, never printed. The first error set
 * wins, as with Jansson's json_error_t. */
#ifndef MPIV_ERROR_H
#define MPIV_ERROR_H

#include "exit.h"

struct mpiv_error {
	int set;	     /* 0 until the first error */
	enum mpiv_exit code; /* what the command should exit with */
	char source[256];    /* file at fault, "" if none */
	int rank;	     /* rank at fault, -1 if none */
	long event;	     /* event index or record number at fault, -1 if none */
	int line;	     /* JSON line, 0 if none */
	char text[512];	     /* what went wrong, lower case, no final period */
	/* a call check cannot judge yet (tr_unjudged()): the trace is
	 * well formed, and its calls before that one can be judged */
	int unjudged;
};

void mpiv_error_init(struct mpiv_error *err);

/* Record an error unless one is already set; err may be NULL. Always returns -1. */
int mpiv_error_set(struct mpiv_error *err, enum mpiv_exit code, const char *source, int rank,
		   long event, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* Format the error as one line: "cannot read 'F': rank R: event E: text". */
void mpiv_error_format(const struct mpiv_error *err, char *buf, unsigned long size);

#endif
