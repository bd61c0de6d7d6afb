/* Reading the ranks' live status files, for the monitor (watching a job) and for launch_end()
 * (finding the local ranks to kill). The ranks write them through preload/rec_status.c; the
 * layout is base/status.h. */
#ifndef MPIV_STATUS_FILE_H
#define MPIV_STATUS_FILE_H

#include "status.h"

/* Read dir/rank-N.status for rank. Returns 0, or -1 if it is missing, short or not a status
 * file of this version (st is then unspecified). Two equal reads in a row are taken, so that
 * a rewrite in progress is not read torn. */
int status_file_read(const char *dir, int rank, struct mpiv_status *st);

/* The world size from any rank-N.status file in dir, or 0 if there is none yet. */
int status_file_size(const char *dir);

#endif
