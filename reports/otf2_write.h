/* `mpiverify trace --otf2`: a recorded run, or a counterexample's way to its deadlock, as an
 * OTF2 archive (doc/otf2.md) for Vampir and the OTF2 tools. */
#ifndef MPIV_OTF2_WRITE_H
#define MPIV_OTF2_WRITE_H

#include "cex.h"
#include "trace.h"

/* Whether this mpiverify was built with Debian's libotf2 (configure found it). */
int otf2_available(void);

/* Write ts, or with cex the counterexample's operations (synthetic times), as the archive
 * dir/traces.otf2 (with dir/traces.def and dir/traces/); an archive there before is removed.
 * Returns an exit code (enum mpiv_exit) after printing what went wrong. */
int otf2_write(const char *dir, const struct mpiv_traceset *ts, const struct mpiv_cex *cex);

#endif
