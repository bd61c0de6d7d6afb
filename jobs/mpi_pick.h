/* Which build of a preload library a job gets: the preload libraries are built once for each
 * MPI library configure found (base/mpilib.h), and the one preloaded must be the one for
 * the MPI library the job's program runs on, or the program crashes in MPI_Init.
 *
 * The MPI library is that of the program (the libmpi its ELF file names as needed, the
 * program found by following the launcher's command line: the first argument that is an
 * executable linking one), else that of the launcher (mpirun.openmpi, mpiexec.hydra; a
 * generic mpirun followed through its symbolic links), else configure's first (MPICH where
 * it was found). A library of another name is told by its ABI (base/mpilib.h). A program or
 * a launcher of an MPI library mpiverify was not built for, a program of an MPI library of
 * unknown ABI, and a statically linked program are refused. */
#ifndef MPIV_MPI_PICK_H
#define MPIV_MPI_PICK_H

#include "mpilib.h"

enum preload_kind {
	PRELOAD_RECORDER, /* librecorder.so: record, verify */
	PRELOAD_REPLAYER, /* libreplayer.so: replay */
};

struct preload {
	char *lib; /* the library to preload, absolute; owned */
	/* the MPI library the job runs on (lib is built for
	 * it unless $MPIVERIFY_*_LIB chose lib); never NULL
	 * once picked */
	const struct mpiv_mpilib *mpi;
};

/* Pick the preload library of kind for the job command (argv[0] found on PATH, relative
 * paths from the current directory). With quiet, no warning (that the program's and the
 * launcher's MPI libraries differ) is printed. Returns 0; or MPIV_EXIT_TOOL after an error:
 * the job's MPI library is one mpiverify was not built for, the program links two MPI
 * libraries, or the library file is missing.
 * Release p either way. */
int preload_pick(struct preload *p, char *const *command, enum preload_kind kind, int quiet);

void preload_release(struct preload *p);

#endif
