/* Every environment variable mpiverify reads, named once (git's environment.h). The C code uses
 * these macros, never the strings; doc/mpiverify.1 (ENVIRONMENT) lists the same variables
 * for users.
 *
 * Adding a variable: define it here with who sets it and who reads it, use the macro, and
 * document it in doc/mpiverify.1 (or say there that it is internal). */
#ifndef MPIV_ENVIRONMENT_H
#define MPIV_ENVIRONMENT_H

/* ---- set by the user, read by mpiverify (common/paths.c) ---- */
#define MPIV_ENV_RECORDER_LIB "MPIVERIFY_RECORDER_LIB" /* librecorder.so to preload */
#define MPIV_ENV_REPLAYER_LIB "MPIVERIFY_REPLAYER_LIB" /* libreplayer.so to preload */
#define MPIV_ENV_MODELS "MPIVERIFY_MODELS" /* directory of mpi.pml, engine.c, engine.h */
#define MPIV_ENV_PAN_DIR \
	"MPIVERIFY_PAN_DIR"	       /* directory of the prebuilt verifiers
						 * pan-WORDS (check/spin_run.c) */
#define MPIV_ENV_SPIN "MPIVERIFY_SPIN" /* spin, instead of the one configure found */
#define MPIV_ENV_CC "MPIVERIFY_CC"     /* C compiler for pan.c, likewise */

/* ---- set by the user, read by mpiverify (cli/main.c, common/defaults.h) ---- */
/* with the command's name in capitals: MPIVERIFY_VERIFY_OPTIONS, the default options of
 * verify, after those of ~/.mpiverifyrc and ./.mpiverifyrc */
#define MPIV_ENV_OPTIONS_FMT "MPIVERIFY_%s_OPTIONS"
/* set (to anything but ""): as --no-config, no default options (the test suite sets it, so
 * that a developer's ~/.mpiverifyrc changes no test) */
#define MPIV_ENV_NO_CONFIG "MPIVERIFY_NO_CONFIG"

/* ---- set by the user for elfutils, read by mpiverify too (common/srcloc.c) ---- */
#define MPIV_ENV_DEBUGINFOD_URLS \
	"DEBUGINFOD_URLS" /* debuginfod servers: only when it
							 * names some are they asked for a
							 * program's debug information */

/* ---- set by the user for the ranks, read by both preload libraries ---- */
#define MPIV_ENV_NO_STACKS \
	"MPIVERIFY_NO_STACKS" /* set: take no stacks of blocked
							 * calls (preload/rec_status.c) */

/* ---- internal: set by mpiverify for the ranks of the job it starts ---- */
#define MPIV_ENV_STATUS_DIR \
	"MPIVERIFY_STATUS_DIR" /* record, replay: where each rank
							 * writes rank-N.status */
#define MPIV_ENV_TRACE_DIR \
	"MPIVERIFY_TRACE_DIR"	     /* record: where the recorder writes
							 * rank-N.mpivt */
#define MPIV_ENV_CEX "MPIVERIFY_CEX" /* replay: the counterexample to force */
#define MPIV_ENV_REPLAY_TRACE \
	"MPIVERIFY_REPLAY_TRACE" /* replay: the binary traces every
							 * call is checked against */
#define MPIV_ENV_STEER \
	"MPIVERIFY_STEER" /* record for verify: the decisions each rank
						 * must take first (doc/verify.md) */
#define MPIV_ENV_TIMESTAMPS \
	"MPIVERIFY_TIMESTAMPS" /* record --timestamps: "1": the
							 * recorder gives each event the times it
							 * was entered and left */
#define MPIV_ENV_LAST \
	"MPIVERIFY_LAST" /* record --last N: each rank keeps the window of
				      * its last N to 2N calls in memory, and
				      * writes it only on a hang, an abort, a
				      * crash, a signal or its exit */
#define MPIV_ENV_CALM \
	"MPIVERIFY_CALM"    /* record for verify: "1": a blocked call sleeps
				  * between polls (preload/calm.h) */
#define MPIV_LAST_MAX 10000 /* the longest --last: 2N calls fit the recorder's 1 MiB ring */
#define MPIV_ENV_CHECK_REDUCTIONS \
	"MPIVERIFY_CHECK_REDUCTIONS" /* record: the value of
							 * --check-reductions ("detect" when it
							 * has none): the recorder checks every
							 * reduction (recorder/rec_reduce.c) */

/* ---- internal: set by the tests, read by mpiverify ---- */
#define MPIV_ENV_SPIN_FROM_START \
	"MPIVERIFY_SPIN_FROM_START" /* check, set (to anything):
							 * no pass of its own over the paths
							 * of one choice (translator/
							 * tr_cut.c); SPIN searches every mode
							 * from the start, so that the tests
							 * can compare both */

#define MPIV_ENV_SEGMENT_EVENTS \
	"MPIVERIFY_SEGMENT_EVENTS" /* check: a number of events: the
							 * run is checked in segments of about
							 * that many wherever it can be cut
							 * (translator/tr_segment.c), however
							 * short, so that the tests can compare
							 * both ways on small traces; 0: as
							 * one program, however long */

/* The test suite alone reads MPIVERIFY_BUILDDIR (tests/lib.sh: the build tree to test). */

#endif
