/* What mpiverify knows of particular MPI libraries (one place for these facts): how to tell
 * which one a program or a launcher belongs to, and their eager thresholds. */
#ifndef MPIV_MPILIB_H
#define MPIV_MPILIB_H

/* An MPI library whose ABI the preload libraries are built for, once each (configure). MPICH's
 * ABI is also Intel MPI's and MVAPICH's; Open MPI's handles are pointers, MPICH's integers, so
 * a preload library of one crashes a program of the other. */
struct mpiv_mpilib {
	/* "mpich", "openmpi": configure's name, the directory of its
	 * preload libraries (lib/NAME/, PKGLIBDIR/NAME/) */
	const char *name;
	const char *title;    /* "MPICH", "Open MPI", for messages */
	const char *packages; /* the Debian packages that give its mpi.h and compiler */
	/* the launcher's variable listing the variables it
	 * passes to the ranks on every host (as its -x does),
	 * separated by forward_sep; NULL: it passes them all */
	const char *forward_env;
	char forward_sep;
};

/* The library of that name ("mpich", "openmpi"), or NULL. */
const struct mpiv_mpilib *mpiv_mpilib_named(const char *name);

/* The library a shared object of that name (a DT_NEEDED entry: "libmpi.so.40") belongs to,
 * or whose ABI it has ("libmpi_cray.so.12": MPICH's), or NULL if it is none of those known. */
const struct mpiv_mpilib *mpiv_mpilib_of_soname(const char *soname);

/* Whether a shared object of that name is an MPI library's by its name ("libmpi_mt.so",
 * "libmpich.so"), known or not. */
int mpiv_mpilib_named_like(const char *soname);

/* The library of Open MPI's ABI: what a program whose handles are Open MPI's runs on, whatever
 * its library is called (IBM Spectrum MPI's libmpi_ibm.so). */
const struct mpiv_mpilib *mpiv_mpilib_openmpi_abi(void);

/* Whether soname is one of the language bindings of a known MPI library (its Fortran or C++
 * functions, which call the C library's), as opposed to the C library itself. */
int mpiv_mpilib_binding(const char *soname);

/* The library whose launcher has this file name (no directory: "mpirun.openmpi", "orterun",
 * "mpiexec.hydra"), or NULL (a generic name such as "mpirun", or another launcher). */
const struct mpiv_mpilib *mpiv_mpilib_of_launcher(const char *name);

/* The eager threshold of the library whose MPI_Get_library_version starts with `library`
 * (as a trace's header records it), for ranks on one host: the largest standard send, in
 * bytes, that it completes before a matching receive is posted. -1 when not known. */
long long mpiv_mpilib_eager(const char *library);

#endif
