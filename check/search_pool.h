/* check's searches side by side: the buffering modes' SPIN searches are independent (each its
 * own directory, model data and pan process), so they run at once, each in a child process of
 * its own, as many as there are CPUs. */
#ifndef MPIV_SEARCH_POOL_H
#define MPIV_SEARCH_POOL_H

#include "error.h"
#include "spin_run.h"

/* One search: fills res, or returns -1 with err filled. Runs in a child process: what it
 * changes in memory is lost, only res and err come back. */
typedef int (*search_fn)(void *ctx, int i, struct spin_result *res, struct mpiv_error *err);

/* Run search(ctx, i) for i in 0..n-1, at most slots at once (slots <= 1: one after another,
 * in this process). res[i] and err[i] are each one's result; rc[i] its return value.
 * A child that dies without a result (a signal) fails with MPIV_EXIT_TOOL. */
void search_pool_run(search_fn search, void *ctx, int n, int slots, struct spin_result *res,
		     struct mpiv_error *err, int *rc);

#endif
