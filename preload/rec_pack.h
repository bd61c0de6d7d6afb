/* A packed copy of a send buffer, for sends the preload libraries make otherwise than the
 * program asked: a buffered send's copy in the background, MPI_Sendrecv_replace's send out of
 * a copy while the receive lands in the buffer. Data packed with MPI_Pack is received with the
 * receive's own datatype (MPI-4.1 section 5.2.1), so the receiver sees no difference. */
#ifndef MPIV_REC_PACK_H
#define MPIV_REC_PACK_H

#include <mpi.h>

/* buf's count elements of type, packed into a malloc'ed buffer of *len bytes (freed by the
 * caller); NULL with *rc set (MPI_ERR_NO_MEM, or the MPI library's error) if it could not. */
void *rec_pack(const void *buf, int count, MPI_Datatype type, MPI_Comm comm, int *len, int *rc);

#endif
