/* oracles: the engine (models/engine.c, searched natively) and the standalone Promela model
 * (translator/tr_promela.c, searched by SPIN) on the same traces; see oracles.c. */
#ifndef MPIV_ORACLES_H
#define MPIV_ORACLES_H

#include <stdint.h>

/* Write a small random trace set (2 to 4 ranks; sends, receives, wildcards, nonblocking
 * requests and their completions, probes, collectives), the same for the same seed, as
 * rank-N.json files into the directory dir (made if missing). Returns 0, or -1 with errno. */
int oracles_random_trace(uint64_t seed, const char *dir);

#endif
