/* A faulty MPI library for the reduction check's tests (tests/e2e/reductions.sh): a shared
 * library preloaded before libmpi whose PMPI_Allreduce, PMPI_Reduce and PMPI_Scan run the real
 * ones, then, on one rank, damage one element of the result, as a bit error or a wrong
 * reduction algorithm would; so does its PMPI_Iallreduce, which makes the result at once
 * (a blocking allreduce) and returns the request of an MPI_Ibarrier, so that the damage is
 * there when the program's wait completes it. Built with:
 *	mpicc -shared -fPIC -o faulty-mpi.so faulty-mpi.c
 *
 *   FAULTY_MPI_RANK     the world rank whose results are damaged (default 1)
 *   FAULTY_MPI_ELEMENT  which element (default 1; the last one if the result is shorter; a
 *                       derived datatype's first basic element always)
 *   FAULTY_MPI_MODE     "corrupt" (default) or "fail": return MPI_ERR_OTHER instead (after
 *                       the real call, so that the other ranks do not hang)
 *
 * The damage changes the value beyond any rounding: a floating-point v becomes v + 1 + 2|v|
 * (a complex number's real part, a MINLOC pair's value), an integer, logical or byte value
 * has its lowest bit flipped (0 and 1 swap). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

static int env_int(const char *name, int dflt)
{
	const char *v = getenv(name);

	return v && *v ? atoi(v) : dflt;
}

static int faulty_here(void)
{
	int rank = -1;

	PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
	return rank == env_int("FAULTY_MPI_RANK", 1);
}

static int failing(void)
{
	const char *m = getenv("FAULTY_MPI_MODE");

	return m && !strcmp(m, "fail");
}

static void damage_float(unsigned char *p, int size)
{
	if (size == sizeof(float)) {
		float v;

		memcpy(&v, p, sizeof(v));
		v = v + 1 + 2 * fabsf(v);
		memcpy(p, &v, sizeof(v));
	} else if (size == sizeof(double)) {
		double v;

		memcpy(&v, p, sizeof(v));
		v = v + 1 + 2 * fabs(v);
		memcpy(p, &v, sizeof(v));
	} else {
		long double v;

		memcpy(&v, p, sizeof(v));
		v = v + 1 + 2 * fabsl(v);
		memcpy(p, &v, sizeof(v));
	}
}

/* Whether t is one of the list. */
static int one_of(MPI_Datatype t, const MPI_Datatype *list, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (list[i] != MPI_DATATYPE_NULL && list[i] == t)
			return 1;
	return 0;
}

/* Damage the element of predefined type t at p. */
static void damage(MPI_Datatype t, unsigned char *p)
{
	const MPI_Datatype floats[] = {MPI_FLOAT, MPI_DOUBLE, MPI_LONG_DOUBLE, MPI_REAL,
				       MPI_DOUBLE_PRECISION};
	const MPI_Datatype complexes[] = {MPI_C_FLOAT_COMPLEX, MPI_C_DOUBLE_COMPLEX,
					  MPI_C_LONG_DOUBLE_COMPLEX, MPI_COMPLEX,
					  MPI_DOUBLE_COMPLEX};
	int size = 0;

	PMPI_Type_size(t, &size);
	if (one_of(t, floats, 5))
		damage_float(p, size);
	else if (one_of(t, complexes, 5))
		damage_float(p, size / 2);
	else if (t == MPI_FLOAT_INT || t == MPI_2REAL)
		damage_float(p, sizeof(float));
	else if (t == MPI_DOUBLE_INT || t == MPI_2DOUBLE_PRECISION)
		damage_float(p, sizeof(double));
	else if (t == MPI_LONG_DOUBLE_INT)
		damage_float(p, sizeof(long double));
	else
		p[0] ^= 1; /* little-endian: the lowest bit of an integer */
}

/* The first predefined type of t, and the offset of its first element in a buffer. */
static MPI_Datatype first_basic(MPI_Datatype t, MPI_Aint *off)
{
	MPI_Datatype got = MPI_DATATYPE_NULL; /* a handle get_contents made, to free */
	int ni, na, nd, comb;
	MPI_Aint lb, extent;

	PMPI_Type_get_true_extent(t, &lb, &extent);
	*off = lb;
	for (;;) {
		int ints[64];
		MPI_Aint aints[64];
		MPI_Datatype types[64];

		PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
		if (comb == MPI_COMBINER_NAMED || ni > 64 || na > 64 || nd > 64 || nd < 1)
			return t;
		PMPI_Type_get_contents(t, ni, na, nd, ints, aints, types);
		if (got != MPI_DATATYPE_NULL)
			PMPI_Type_free(&got);
		t = types[0];
		PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
		if (comb != MPI_COMBINER_NAMED)
			got = t;
	}
}

static void corrupt(void *buf, int count, MPI_Datatype t)
{
	int ni, na, nd, comb, k = env_int("FAULTY_MPI_ELEMENT", 1);
	MPI_Aint lb, extent, off;

	if (!buf || count <= 0)
		return;
	PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb);
	if (comb != MPI_COMBINER_NAMED) {
		MPI_Datatype b = first_basic(t, &off);

		damage(b, (unsigned char *)buf + off);
		return;
	}
	if (k >= count)
		k = count - 1;
	PMPI_Type_get_extent(t, &lb, &extent);
	damage(t, (unsigned char *)buf + k * extent);
}

/* The real calls: libmpi's, the next definition after this library's. */
typedef int reduce_fn(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
typedef int allreduce_fn(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);

/* The real call returned rc: on the faulty rank, if it has a result, fail or damage it. */
static int fault(int rc, int has_result, void *recvbuf, int count, MPI_Datatype datatype)
{
	if (rc != MPI_SUCCESS || !faulty_here() || !has_result)
		return rc;
	if (failing())
		return MPI_ERR_OTHER;
	corrupt(recvbuf, count, datatype);
	return rc;
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
		   MPI_Comm comm)
{
	allreduce_fn *real = (allreduce_fn *)dlsym(RTLD_NEXT, "PMPI_Allreduce");

	return fault(real(sendbuf, recvbuf, count, datatype, op, comm), 1, recvbuf, count,
		     datatype);
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
		int root, MPI_Comm comm)
{
	reduce_fn *real = (reduce_fn *)dlsym(RTLD_NEXT, "PMPI_Reduce");
	int me = -1;

	PMPI_Comm_rank(comm, &me);
	/* only the root has a result */
	return fault(real(sendbuf, recvbuf, count, datatype, op, root, comm), me == root, recvbuf,
		     count, datatype);
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
	      MPI_Comm comm)
{
	allreduce_fn *real = (allreduce_fn *)dlsym(RTLD_NEXT, "PMPI_Scan");

	return fault(real(sendbuf, recvbuf, count, datatype, op, comm), 1, recvbuf, count,
		     datatype);
}

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
		    MPI_Comm comm, MPI_Request *request)
{
	allreduce_fn *real = (allreduce_fn *)dlsym(RTLD_NEXT, "PMPI_Allreduce");
	int rc = real(sendbuf, recvbuf, count, datatype, op, comm);

	if (rc != MPI_SUCCESS)
		return rc;
	if (faulty_here() && !failing())
		corrupt(recvbuf, count, datatype); /* a failure would leave no request */
	return PMPI_Ibarrier(comm, request);
}
