/* Shared helpers of the CUnit tests. */
#ifndef MPIV_UNIT_H
#define MPIV_UNIT_H

#include <CUnit/CUnit.h>

#include "engine.h"
#include "trace.h"

/* Write each JSON rank trace (NULL-terminated array of "events" arrays, one per rank) as
 * rank-N.json into a fresh temporary directory and load it. Returns 0 or -1. */
int unit_load_case(const char *const events[], struct mpiv_traceset *ts);

/* The same with each rank's top level after its rank and size given whole (a host, a clock,
 * "events": [...]). */
int unit_load_ranks(const char *const ranks[], struct mpiv_traceset *ts);

/* One run as verify's model takes it: its trace set, and its program translated for verify
 * with the inputs the run took filled in. */
struct unit_run {
	struct mpiv_traceset ts;
	struct eng_prog prog;
};

/* Load run r from ranks (as unit_load_ranks(), or unit_load_case() if events). Returns 0 or
 * -1. */
int unit_run_load(const char *const ranks[], int events, struct unit_run *r);
/* Load run r from trace directory dir under unit_data_dir() (a recorded run, as `mpiverify
 * trace -o` writes it). Returns 0 or -1. */
int unit_run_load_dir(const char *dir, struct unit_run *r);
void unit_run_release(struct unit_run *r);

/* verify's model of runs[0..n) (at most 4) into *m, searched in buffering b into *res.
 * Returns 0, or -1 if they cannot be one model. */
struct xmodel;
struct tr_explore_result;
int unit_merge_search(struct unit_run *runs, int n, enum eng_buffering b, struct xmodel *m,
		      struct tr_explore_result *res);
/* Assert that search *res was complete and found no deadlock and no frontier (nothing left
 * for a run to show); then release it. */
void unit_expect_explored(struct tr_explore_result *res);

/* Explore every choice of prog natively (depth-first). Returns the number of reachable
 * deadlock states (-1 on overflow); *done counts reachable final states where every rank
 * finished. */
long unit_explore(const struct eng_prog *prog, long *done);

/* Translate events[] with buffering b and explore: returns deadlock states, or -2 if the
 * case did not load or translate. */
long unit_deadlocks(const char *const events[], enum eng_buffering b);

/* tests/model/cases (MPIV_MODEL_CASES, else relative to the top of the tree, where make check
 * runs). */
const char *unit_cases_dir(void);
/* tests/unit/data, the recorded runs unit tests read (MPIV_UNIT_DATA, else relative to the
 * top of the tree). */
const char *unit_data_dir(void);

/* Call fn(dir, ctx) on every case directory of unit_cases_dir(); returns how many. */
int unit_each_case(void (*fn)(const char *dir, void *ctx), void *ctx);

/* Load the traces of the model case in dir into ts; if they do not load, say why and fail the
 * test. Returns 0 or -1. */
int unit_case_load(const char *dir, struct mpiv_traceset *ts);

/* Translate the model case dir's traces ts with buffering b (eager threshold eager) into prog;
 * if they do not translate, say why and fail the test. Returns 0 or -1. */
int unit_case_translate(const char *dir, const struct mpiv_traceset *ts, enum eng_buffering b,
			long long eager, struct eng_prog *prog);

/* A growing string for the tests that write traces: unit_add() appends printf-style. */
struct unit_buf {
	char *s;
	size_t len, cap;
};
void unit_add(struct unit_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A fresh temporary directory, inside the run's own one under /tmp. */
const char *unit_tmpdir(void);
/* Remove the run's temporary directory and all in it (main(), at the end). */
void unit_tmpdir_remove(void);

extern CU_SuiteInfo event_suite, trace_suite, cex_suite, translate_suite, engine_suite,
	reduction_suite, warn_suite, mpilib_suite, search_suite, verify_suite, redcheck_suite,
	suppress_suite, slurm_suite, nodes_suite, promela_suite, recorded_suite, segment_suite,
	report_group_suite, threads_fixed_suite, window_waits_suite, stuck_suite,
	verify_threads_suite, verify_rounds_suite, verify_farm_suite, launcher_dirs_suite,
	poll_turns_suite;

#endif
