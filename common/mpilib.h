/* What mpiverify knows of particular MPI libraries (one place for these facts). */
#ifndef MPIV_MPILIB_H
#define MPIV_MPILIB_H

/* The eager threshold of the library whose MPI_Get_library_version starts with `library`
 * (as a trace's header records it), for ranks on one host: the largest standard send, in
 * bytes, that it completes before a matching receive is posted. -1 when not known. */
long long mpiv_mpilib_eager(const char *library);

#endif
