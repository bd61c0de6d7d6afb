/* mpiverify's exit codes: stable, documented in README.md and doc/mpiverify.1. */
#ifndef MPIV_EXIT_H
#define MPIV_EXIT_H

enum mpiv_exit {
	MPIV_EXIT_OK = 0, /* check: no deadlock; replay: the program completed */
	/* check: deadlock or other MPI correctness error (a
	 * reduction mismatch) found; replay: reproduced */
	MPIV_EXIT_DEADLOCK = 1,
	MPIV_EXIT_USAGE = 2,	    /* bad command line */
	MPIV_EXIT_BAD_INPUT = 3,    /* unreadable or malformed trace or counterexample */
	MPIV_EXIT_TOOL = 4,	    /* spin, the C compiler or the launcher missing or failed */
	MPIV_EXIT_INCONCLUSIVE = 5, /* search cut short; replay diverged */
};

#endif
