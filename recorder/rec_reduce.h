/* The recorder's reduction check (record --check-reductions, doc/reductions.md): every
 * reduction computed a second time, independently of the library's algorithms, and the two
 * results compared. rec_reduce.c runs it (hooks called by the handlers, the exchange over
 * private communicators, the findings); rec_reduce_data.c knows the data (datatypes, the
 * operations, the comparison). Hidden symbols, like the rest of the recorder. */
#ifndef MPIV_REC_REDUCE_H
#define MPIV_REC_REDUCE_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "reduction.h"

#pragma GCC visibility push(hidden)

struct rec_call;

/* ---- rec_reduce.c: the hooks ---- */

/* The check is on (MPIVERIFY_CHECK_REDUCTIONS was set when MPI started): every hook below
 * may be called. Handlers test it first, so that the check costs nothing when it is off. */
extern int rec_reduce_on;

/* Which reduction a handler runs (MPI-4.1 6.9 to 6.11). */
enum rec_red_shape {
	REC_RED_REDUCE,	       /* MPI_Reduce: the result at root only */
	REC_RED_ALL,	       /* MPI_Allreduce: at every rank */
	REC_RED_SCATTER,       /* MPI_Reduce_scatter: rank i gets recvcounts[i] elements */
	REC_RED_SCATTER_BLOCK, /* MPI_Reduce_scatter_block: each gets count elements */
	REC_RED_SCAN,	       /* MPI_Scan: rank i gets ranks 0..i combined */
	REC_RED_EXSCAN,	       /* MPI_Exscan: rank i gets ranks 0..i-1 (rank 0 nothing) */
	REC_RED_LOCAL,	       /* MPI_Reduce_local: inoutbuf = inbuf op inoutbuf */
};

/* A reduction's arguments, as its handler was given them. */
struct rec_red_args {
	enum rec_red_shape shape;
	const void *sendbuf; /* MPI_IN_PLACE, or the input (MPI_Reduce_local: inbuf) */
	void *recvbuf;	     /* the result (MPI_Reduce_local: inoutbuf) */
	/* elements of each rank's input (MPI_Reduce_scatter_block:
	 * of each rank's result; MPI_Reduce_scatter: unused) */
	int count;
	const int *recvcounts; /* MPI_Reduce_scatter: each rank's result, else NULL */
	/* MPI_Reduce_scatter_c: each rank's result, else NULL
	 * (recvcounts is then NULL) */
	const MPI_Count *recvcounts_c;
	MPI_Datatype type;
	MPI_Op op;
	int root;      /* MPI_Reduce: the root's rank in comm, else 0 */
	MPI_Comm comm; /* MPI_COMM_SELF for MPI_Reduce_local */
};

struct rec_red;

/* MPI started: read MPIVERIFY_CHECK_REDUCTIONS and, if it is set, turn the check on and make
 * MPI_COMM_WORLD's private duplicate (a collective: every rank is in MPI_Init). Nothing
 * happens when it is not set; a bad value is reported in one line and leaves the check off. */
void rec_reduce_init(void);

/* Before the library's call: copy this rank's input and post the exchange of the second
 * computation. Returns the check's state for this call, or NULL when there is nothing to
 * check (no element) or it cannot be checked (a finding saying why goes to c). */
struct rec_red *rec_reduce_begin(struct rec_call *c, const struct rec_red_args *a);

/* A blocking reduction's library call returned rc (while the call is still posted: a wait in
 * the exchange shows as the reduction blocked): finish the second computation, compare,
 * correct if asked; the findings go to c. */
void rec_reduce_end(struct rec_red *r, struct rec_call *c, int rc);

/* A nonblocking reduction's library call returned rc and *request: the check waits for its
 * completion (rec_reduce_completed()). */
void rec_reduce_started(struct rec_red *r, struct rec_call *c, int rc, const MPI_Request *request);

/* Completion call c completed the request whose handle was h, with error code rc (its
 * status's): if it is a nonblocking reduction's, check it now (the findings go to c). */
void rec_reduce_completed(struct rec_call *c, MPI_Request h, int rc);

/* c's event was written (its index is known): write and print the findings of the
 * reductions c handled. Called by rec_call_leave() when c->reduce is set. */
void rec_reduce_leave(struct rec_call *c);

/* The program got communicator newcomm, whose members are those of members_of (newcomm
 * itself, or the parent of an MPI_Comm_idup): make its private duplicate, where every member
 * is in the same call. */
void rec_reduce_comm_made(MPI_Comm newcomm, MPI_Comm members_of);

/* The program frees comm: free its private duplicate. */
void rec_reduce_comm_free(MPI_Comm comm);

/* ---- rec_reduce_data.c: the data of the second computation ----
 * A contribution, a result and the library's result are all kept packed (MPI_Pack): the
 * predefined elements of the datatype's type signature one after the other, without gaps;
 * the operations apply element by element (MPI-4.1 6.9.1). */

/* The operations (MPI-4.1 6.9.2, 6.9.4, 6.9.5). */
enum rd_op {
	RD_MAX,
	RD_MIN,
	RD_SUM,
	RD_PROD,
	RD_LAND,
	RD_BAND,
	RD_LOR,
	RD_BOR,
	RD_LXOR,
	RD_BXOR,
	RD_MAXLOC,
	RD_MINLOC,
	RD_USER
};

/* A datatype as reductions see it: the predefined types of one element's type signature. */
struct rd_sig;

/* What is compared, and how. */
struct rd_cmp {
	enum rd_op op;
	int n;	    /* contributions combined into the result */
	double tol; /* the user's relative tolerance; < 0: the rounding bound */
};

/* The operation of op (RD_USER for any other than the predefined ones). */
enum rd_op rd_op_of(MPI_Op op);

/* The name of op ("MPI_SUM", "user-defined"). */
const char *rd_op_name(enum rd_op op);

/* Analyse type: *sig (free it with rd_sig_free()), or -1 with why filled (a basic type the
 * check does not know, a signature too long to follow). Makes MPI calls (PMPI_). */
int rd_sig_make(MPI_Datatype type, struct rd_sig **sig, char *why, size_t whysize);
void rd_sig_free(struct rd_sig *s);

/* Bytes of one packed element. */
size_t rd_sig_bytes(const struct rd_sig *s);

/* Whether buffers of the datatype are laid out as packed ones (a predefined type other than
 * the pairs of MINLOC/MAXLOC): they are then used as they are, without MPI_Pack. */
int rd_sig_direct(const struct rd_sig *s);

/* "MPI_DOUBLE" for a predefined type, "derived" for any other. */
const char *rd_sig_name(const struct rd_sig *s);

/* Whether op is defined on every predefined type of s (MPI-4.1 6.9.2); if not, why. */
int rd_op_ok(enum rd_op op, const struct rd_sig *s, char *why, size_t whysize);

/* The second computation: the reliable result of count elements, the contributions combined
 * in rank order, ((x0 op x1) op x2) .... */
struct rd_fold {
	const struct rd_sig *sig;
	enum rd_op op;
	size_t count;	    /* elements (of the datatype) */
	unsigned char *acc; /* the result, packed: the caller's buffer */
	/* the contributions (packed), the caller's: the
	 * comparison computes the magnitudes of an element
	 * that differs from them */
	const unsigned char *const *xs;
	int n; /* how many */
};

/* Combine the n contributions xs (packed, count elements each; kept by the caller until the
 * comparison) into acc (room for count elements), which f->acc is then. For RD_USER acc is
 * a copy of xs[0]: the caller combines with the user's function itself and puts the result
 * there. */
void rd_fold(struct rd_fold *f, const struct rd_sig *sig, enum rd_op op, size_t count,
	     const unsigned char *const *xs, int n, unsigned char *acc);

/* Compare got, the library's packed result, with f's. Returns the number of basic elements
 * that differ (0: none); out gets the first of them (first, elem, got, want, rel, allowed,
 * the flag MPIV_RED_TOL_GIVEN if it was compared within the user's tolerance) and count,
 * differ. */
uint64_t rd_compare(const struct rd_fold *f, const unsigned char *got, const struct rd_cmp *cmp,
		    struct mpiv_reduction *out);

/* A 64-bit checksum of len bytes (any change to one 8-byte word changes it). */
uint64_t rd_checksum(const void *p, size_t len);

/* ---- rec_srcline.c: call sites for messages ---- */

/* "file:line (function)" of site (MPIV_SITE()) into buf, resolved in the rank with libdw if
 * it can be loaded (dlopen, at the first use), else "module+0xADDR". */
void rec_srcline(uint64_t site, char *buf, size_t size);

#pragma GCC visibility pop

#endif
