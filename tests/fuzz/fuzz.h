/* Shared helpers of the fuzz targets (tests/fuzz/README.md): a private scratch directory the
 * inputs are written into as the files the readers take, and what check does with a trace
 * set that was read, run natively, so that a trace the readers accept is also one the rest
 * of the pipeline survives. A broken invariant is reported with fuzz_fail(), which aborts:
 * libFuzzer keeps the input as a crash. */
#ifndef MPIV_FUZZ_H
#define MPIV_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "trace.h"

/* The scratch directory, made on first use and removed at exit. */
const char *fuzz_dir(void);

/* Write len bytes of data to fuzz_dir()/name; returns its path (a static buffer). */
const char *fuzz_write(const char *name, const void *data, size_t len);

/* Remove every rank-N.* file of fuzz_dir(), as a new input starts. */
void fuzz_clear(void);

/* Print what is wrong and abort. */
void fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* What check and the trace command do with ts, which the readers accepted: write each rank
 * back as binary and as JSON and read it again (it must load, with as many events); translate
 * it in each buffering mode and, when it translates, write and read model.dat (the reader
 * must take what the translator writes), compute the warnings and the recorded path, walk
 * the search taking the choices picks names (picks[i] % the choices there), and build the
 * counterexample of where the walk ends, which must fit ts. */
void fuzz_pipeline(const struct mpiv_traceset *ts, const uint8_t *picks, size_t npicks);

#endif
