/* Who waits for whom at the end of a hung run recorded with record --last, from each rank's
 * window of last calls alone (doc/triage.md). */
#ifndef MPIV_WINDOW_WAITS_H
#define MPIV_WINDOW_WAITS_H

#include <stdio.h>

#include "trace.h"

/* Print to f, for the traces ts of a hung run (windows or whole runs), which ranks each rank
 * waits for: ranks that wait alike as one class ("ranks 0-15 (16): in MPI_Recv, each waits
 * for its rank + 1"), a cycle of ranks each waiting for one other, and what a window cannot
 * tell (a request or communicator made before it). Returns the lines printed. */
int mpiv_window_waits(FILE *f, const struct mpiv_traceset *ts);

#endif
