/* Process topologies for both preload libraries: whom a neighbourhood collective receives
 * from (MPI-4.1 chapter 8). */
#ifndef MPIV_REC_TOPO_H
#define MPIV_REC_TOPO_H

#include <stdint.h>

#include <mpi.h>

#pragma GCC visibility push(hidden)

/* The in-neighbours of the calling rank in comm's topology, the ranks whose data a
 * neighbourhood collective on comm brings it, as world ranks in the topology's order
 * (MPI-4.1 section 8.6): a Cartesian topology's source and destination of MPI_Cart_shift by
 * one along each dimension, a graph's neighbours, a distributed graph's sources. MPI_PROC_NULL
 * (the missing neighbours of a non-periodic dimension) is left out: no data comes from it.
 * Asked of MPI when the collective is called, so that a communicator that copied its
 * topology (MPI_Comm_dup) or had its ranks reordered is asked the same way MPI answers.
 * Returns them malloc'ed, *n entries; NULL with *n = 0 for none. Returns -1 in *n (and NULL)
 * when comm has no topology or MPI fails: the collective is then erroneous. Makes MPI calls
 * (PMPI_). */
int32_t *rec_topo_in_neighbors(MPI_Comm comm, int *n);

/* How many neighbours the calling rank has in comm's topology, each counted as often as a
 * neighbourhood collective's arrays of counts count it (MPI-4.1 section 8.6): *in the
 * ranks it receives from, *out those it sends to, MPI_PROC_NULL included (a Cartesian
 * topology's 2 per dimension; a graph's neighbours, both; a distributed graph's in- and
 * out-degree). Returns 0, or -1 when comm has no topology or MPI fails. Makes MPI calls
 * (PMPI_). */
int rec_topo_degrees(MPI_Comm comm, int *in, int *out);

#pragma GCC visibility pop

#endif
