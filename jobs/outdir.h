/* The output directories of the commands. Both functions print nothing but the error they
 * return after (outdir_prepare) or leave errno set (outdir_make). */
#ifndef MPIV_OUTDIR_H
#define MPIV_OUTDIR_H

/* Make path and every missing directory above it, like `mkdir -p` (mode 0777 less the
 * umask). Returns 0, or -1 with errno set. */
int outdir_make(const char *path);

#define OUTDIR_LOCK_FILE ".mpiverify-lock"

/* Make the job's directory dir (outdir_make), check that files can be created in it, lock it
 * for this process (OUTDIR_LOCK_FILE, held through the descriptor put in *lock until it is
 * closed or the process ends; one already locked by another mpiverify is refused, since two
 * runs would mix their files), and delete what an earlier run left there: for each entry of
 * stale (NULL-terminated), the files rank-N<entry> if it starts with '.' (".status"), else
 * the file of that name ("meta.json"). Returns its absolute path (malloc'ed), or NULL after
 * printing an error naming dir (and *lock is -1). */
char *outdir_prepare(const char *dir, const char *const *stale, int *lock);

#endif
