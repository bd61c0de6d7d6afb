/* Suppressions (doc/reports.md): a file of known findings, by kind and call sites, that check
 * and verify leave out of their verdict, as valgrind users know them:
 *
 *	{
 *	   halo exchange relies on buffering
 *	   mpiverify:potential-deadlock
 *	   MPI_Send fun:exchange src:halo.c
 *	   ...
 *	}
 *
 * Reading fills a struct mpiv_error naming the file and the line; nothing here prints. */
#ifndef MPIV_SUPPRESS_H
#define MPIV_SUPPRESS_H

#include <stddef.h>
#include <stdio.h>

#include "error.h"
#include "finding.h"

/* One call line: glob patterns (fnmatch), NULL for "any". */
struct mpiv_supp_site {
	char *call; /* "MPI_Send", "MPI_*send" */
	char *fun;  /* fun:PATTERN */
	/* src:PATTERN: the file's last component, or its whole path when
	 * the pattern has a '/' */
	char *src;
	int line; /* src:PATTERN:LINE, 0 for any */
};

struct mpiv_suppression {
	char *name; /* its first line */
	char *kind; /* the pattern after "mpiverify:" */
	struct mpiv_supp_site *sites;
	size_t nsites;
	int more;   /* ended with "...": the finding may have other calls too */
	char *file; /* where it was read */
	int line;   /* the line of its '{' */
};

struct mpiv_suppressions {
	struct mpiv_suppression *s;
	size_t n, cap;
};

/* Read the suppressions in text[0..len), named file in errors, appending them to set.
 * Returns 0, or -1 with err filled (BAD_INPUT, the file and the line at fault); set then keeps
 * those of earlier calls only. */
int mpiv_suppressions_parse(struct mpiv_suppressions *set, const char *text, size_t len,
			    const char *file, struct mpiv_error *err);

/* The same from the file at path. */
int mpiv_suppressions_load(struct mpiv_suppressions *set, const char *path, struct mpiv_error *err);

/* The first suppression of set that matches f: its kind, every call line matching one of
 * f's calls and each of f's calls matched by one of its lines (unless it ends with "...").
 * NULL if none; a stopped rank (MPIV_FIND_RANK_STOPPED) never matches. */
const struct mpiv_suppression *mpiv_suppressions_match(const struct mpiv_suppressions *set,
						       const struct mpiv_finding *f);

/* Write a suppression for f (each distinct call by name, function and file, no line) under
 * name, which mpiv_suppressions_parse() reads back and which matches f. */
void mpiv_suppression_write(FILE *out, const struct mpiv_finding *f, const char *name);

void mpiv_suppressions_release(struct mpiv_suppressions *set);

#endif
