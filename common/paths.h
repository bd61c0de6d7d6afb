/* Where mpiverify finds its preload libraries and model files: an MPIVERIFY_* environment
 * variable if set, else the build tree the executable sits in, else the installed location. */
#ifndef MPIV_PATHS_H
#define MPIV_PATHS_H

/* Path of the librecorder.so built for the MPI library named family ("mpich", "openmpi":
 * base/mpilib.h), or $MPIVERIFY_RECORDER_LIB whatever the family. The returned string is
 * static (the last four calls' stay valid). */
const char *mpiv_recorder_lib(const char *family);

/* Path of libreplayer.so for family ($MPIVERIFY_REPLAYER_LIB). */
const char *mpiv_replayer_lib(const char *family);

/* The MPI libraries the preload libraries were built for, by name, separated by spaces, the
 * default first (configure: "mpich openmpi"). */
const char *mpiv_mpi_families(void);

/* Directory holding mpi.pml and engine.c ($MPIVERIFY_MODELS). */
const char *mpiv_models_dir(void);

/* Directory of the prebuilt verifiers, pan-WORDS ($MPIVERIFY_PAN_DIR), or NULL when
 * $MPIVERIFY_MODELS names other model sources and $MPIVERIFY_PAN_DIR is not set: verifiers
 * built from the default sources would not search that model. */
const char *mpiv_pan_dir(void);

/* spin and the C compiler for pan.c ($MPIVERIFY_SPIN, $MPIVERIFY_CC), as found by configure. */
const char *mpiv_spin(void);
const char *mpiv_cc(void);

#endif
