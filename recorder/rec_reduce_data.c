/* The data of the reduction check's second computation (rec_reduce.h): which predefined
 * types a datatype is made of, the predefined operations applied element by element in rank
 * order, and the comparison with the library's result: exact for integers, logical and
 * bitwise operations and MIN/MAX/MINLOC/MAXLOC, within a rounding bound for floating-point
 * sums and products (doc/reductions.md derives it). Everything works on packed data. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "rec_reduce.h"

/* What a predefined type is to the operations (MPI-4.1 6.9.2 groups them the same way). */
enum rd_class {
	RD_C_INT,     /* C and Fortran signed integers */
	RD_C_UINT,    /* unsigned integers */
	RD_C_FLOAT,   /* floating point */
	RD_C_COMPLEX, /* complex: two floating-point parts */
	RD_C_BOOL,    /* logical (C_BOOL, CXX_BOOL, LOGICAL): compared as true or false */
	RD_C_BYTE,    /* MPI_BYTE: bitwise operations only */
	RD_C_PAIR,    /* a value and an index, for MINLOC and MAXLOC (6.9.4) */
};

/* The machine type of a value. */
enum rd_scalar { RD_I8, RD_I16, RD_I32, RD_I64, RD_U8, RD_U16, RD_U32, RD_U64, RD_F, RD_D, RD_LD };

/* A predefined type. */
struct rd_basic {
	MPI_Datatype type;
	const char *name;
	enum rd_class cls;
	enum rd_scalar sc;  /* the value's machine type (COMPLEX: each part's) */
	enum rd_scalar isc; /* PAIR: the index's */
	size_t vsize;	    /* PAIR: the value's bytes; the index follows it */
	size_t size;	    /* bytes of one packed element (MPI_Type_size) */
};

/* A run of the same predefined type in a signature. */
struct rd_run {
	const struct rd_basic *b;
	uint64_t reps;
};

#define RD_MAX_RUNS 65536 /* a signature longer than this is not followed */

struct rd_sig {
	struct rd_run *runs; /* one element's type signature, consecutive equal types merged */
	size_t nruns, cap;
	size_t bytes;  /* packed bytes of one element */
	int direct;    /* see rd_sig_direct() */
	char name[64]; /* rd_sig_name() */
};

/* ---- the predefined types ---- */

/* Handles are no constants in every MPI (Open MPI's are addresses): the table is made at the
 * first use. Types whose handle is null, or whose size is not one the check has a machine
 * type for (a 16-byte REAL may be a __float128), are left out: their reductions are not
 * checked. */
#define RD_MAX_BASIC 64
static struct rd_basic rd_basic[RD_MAX_BASIC];
static int rd_nbasic = -1;

static int scalar_of_size(enum rd_class cls, size_t size, enum rd_scalar *sc)
{
	static const enum rd_scalar ints[] = {RD_I8, RD_I16, RD_I32, RD_I64};
	static const enum rd_scalar uints[] = {RD_U8, RD_U16, RD_U32, RD_U64};
	int k = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : -1;

	switch (cls) {
	case RD_C_INT:
		if (k < 0)
			return -1;
		*sc = ints[k];
		return 0;
	case RD_C_UINT:
	case RD_C_BOOL:
	case RD_C_BYTE:
		if (k < 0)
			return -1;
		*sc = uints[k];
		return 0;
	case RD_C_FLOAT:
		if (size != sizeof(float) && size != sizeof(double))
			return -1;
		*sc = size == sizeof(float) ? RD_F : RD_D;
		return 0;
	case RD_C_COMPLEX:
		return scalar_of_size(RD_C_FLOAT, size / 2, sc);
	default:
		return -1;
	}
}

static size_t scalar_size(enum rd_scalar sc)
{
	static const size_t sizes[] =
		{1, 2, 4, 8, 1, 2, 4, 8, sizeof(float), sizeof(double), sizeof(long double)};
	return sizes[sc];
}

/* Add type to the table, if it exists and has a size the check handles. sc < 0: found from
 * the size. */
static void basic_add(MPI_Datatype type, const char *name, enum rd_class cls, int sc, int isc)
{
	struct rd_basic *b = &rd_basic[rd_nbasic];
	int size = 0;

	if (type == MPI_DATATYPE_NULL || rd_nbasic == RD_MAX_BASIC ||
	    PMPI_Type_size(type, &size) != MPI_SUCCESS || size <= 0)
		return;
	b->type = type;
	b->name = name;
	b->cls = cls;
	b->size = (size_t)size;
	if (sc >= 0) {
		b->sc = (enum rd_scalar)sc;
	} else if (scalar_of_size(cls, b->size, &b->sc)) {
		return;
	}
	if (cls == RD_C_PAIR) {
		b->isc = (enum rd_scalar)isc;
		b->vsize = scalar_size(b->sc);
		if (b->vsize + scalar_size(b->isc) != b->size)
			return;
	} else if (sc >= 0 && scalar_size(b->sc) * (cls == RD_C_COMPLEX ? 2 : 1) != b->size) {
		return;
	}
	rd_nbasic++;
}

static void basic_init(void)
{
#define ADD(t, cls) basic_add(t, #t, cls, -1, -1)
	rd_nbasic = 0;
	ADD(MPI_INT, RD_C_INT);
	ADD(MPI_LONG, RD_C_INT);
	ADD(MPI_SHORT, RD_C_INT);
	ADD(MPI_LONG_LONG, RD_C_INT);
	ADD(MPI_SIGNED_CHAR, RD_C_INT);
	ADD(MPI_INT8_T, RD_C_INT);
	ADD(MPI_INT16_T, RD_C_INT);
	ADD(MPI_INT32_T, RD_C_INT);
	ADD(MPI_INT64_T, RD_C_INT);
	ADD(MPI_AINT, RD_C_INT);
	ADD(MPI_OFFSET, RD_C_INT);
	ADD(MPI_COUNT, RD_C_INT);
	ADD(MPI_INTEGER, RD_C_INT);
	ADD(MPI_INTEGER1, RD_C_INT);
	ADD(MPI_INTEGER2, RD_C_INT);
	ADD(MPI_INTEGER4, RD_C_INT);
	ADD(MPI_INTEGER8, RD_C_INT);
	ADD(MPI_UNSIGNED, RD_C_UINT);
	ADD(MPI_UNSIGNED_LONG, RD_C_UINT);
	ADD(MPI_UNSIGNED_SHORT, RD_C_UINT);
	ADD(MPI_UNSIGNED_LONG_LONG, RD_C_UINT);
	ADD(MPI_UNSIGNED_CHAR, RD_C_UINT);
	ADD(MPI_UINT8_T, RD_C_UINT);
	ADD(MPI_UINT16_T, RD_C_UINT);
	ADD(MPI_UINT32_T, RD_C_UINT);
	ADD(MPI_UINT64_T, RD_C_UINT);
	ADD(MPI_FLOAT, RD_C_FLOAT);
	ADD(MPI_DOUBLE, RD_C_FLOAT);
	basic_add(MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", RD_C_FLOAT, RD_LD, -1);
	ADD(MPI_REAL, RD_C_FLOAT);
	ADD(MPI_DOUBLE_PRECISION, RD_C_FLOAT);
	ADD(MPI_REAL4, RD_C_FLOAT);
	ADD(MPI_REAL8, RD_C_FLOAT);
	ADD(MPI_C_FLOAT_COMPLEX, RD_C_COMPLEX);
	ADD(MPI_C_DOUBLE_COMPLEX, RD_C_COMPLEX);
	basic_add(MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", RD_C_COMPLEX, RD_LD, -1);
	ADD(MPI_CXX_FLOAT_COMPLEX, RD_C_COMPLEX);
	ADD(MPI_CXX_DOUBLE_COMPLEX, RD_C_COMPLEX);
	basic_add(MPI_CXX_LONG_DOUBLE_COMPLEX, "MPI_CXX_LONG_DOUBLE_COMPLEX", RD_C_COMPLEX, RD_LD,
		  -1);
	ADD(MPI_COMPLEX, RD_C_COMPLEX);
	ADD(MPI_DOUBLE_COMPLEX, RD_C_COMPLEX);
	ADD(MPI_COMPLEX8, RD_C_COMPLEX);
	ADD(MPI_COMPLEX16, RD_C_COMPLEX);
	ADD(MPI_C_BOOL, RD_C_BOOL);
	ADD(MPI_CXX_BOOL, RD_C_BOOL);
	ADD(MPI_LOGICAL, RD_C_BOOL);
	ADD(MPI_BYTE, RD_C_BYTE);
#undef ADD
#define PAIR(t, v, i) basic_add(t, #t, RD_C_PAIR, v, i)
	PAIR(MPI_FLOAT_INT, RD_F, RD_I32);
	PAIR(MPI_DOUBLE_INT, RD_D, RD_I32);
	PAIR(MPI_LONG_INT, sizeof(long) == 8 ? RD_I64 : RD_I32, RD_I32);
	PAIR(MPI_2INT, RD_I32, RD_I32);
	PAIR(MPI_SHORT_INT, RD_I16, RD_I32);
	PAIR(MPI_LONG_DOUBLE_INT, RD_LD, RD_I32);
	PAIR(MPI_2REAL, RD_F, RD_F);
	PAIR(MPI_2DOUBLE_PRECISION, RD_D, RD_D);
	PAIR(MPI_2INTEGER, RD_I32, RD_I32);
#undef PAIR
}

static const struct rd_basic *basic_of(MPI_Datatype type)
{
	int i;

	if (rd_nbasic < 0)
		basic_init();
	for (i = 0; i < rd_nbasic; i++)
		if (rd_basic[i].type == type)
			return &rd_basic[i];
	return NULL;
}

/* ---- operations ---- */

enum rd_op rd_op_of(MPI_Op op)
{
	static const struct {
		MPI_Op op;
		enum rd_op rd;
	} ops[] = {
		{MPI_MAX, RD_MAX},   {MPI_MIN, RD_MIN},	      {MPI_SUM, RD_SUM},
		{MPI_PROD, RD_PROD}, {MPI_LAND, RD_LAND},     {MPI_BAND, RD_BAND},
		{MPI_LOR, RD_LOR},   {MPI_BOR, RD_BOR},	      {MPI_LXOR, RD_LXOR},
		{MPI_BXOR, RD_BXOR}, {MPI_MAXLOC, RD_MAXLOC}, {MPI_MINLOC, RD_MINLOC},
	};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (ops[i].op == op)
			return ops[i].rd;
	return RD_USER;
}

const char *rd_op_name(enum rd_op op)
{
	static const char *const names[] = {
		"MPI_MAX",    "MPI_MIN",    "MPI_SUM",	    "MPI_PROD", "MPI_LAND",
		"MPI_BAND",   "MPI_LOR",    "MPI_BOR",	    "MPI_LXOR", "MPI_BXOR",
		"MPI_MAXLOC", "MPI_MINLOC", "user-defined",
	};
	return names[op];
}

/* Whether op is defined on class cls (MPI-4.1 6.9.2, 6.9.4; user-defined ones on all). */
static int op_takes(enum rd_op op, enum rd_class cls)
{
	switch (op) {
	case RD_MAX:
	case RD_MIN:
		return cls == RD_C_INT || cls == RD_C_UINT || cls == RD_C_FLOAT;
	case RD_SUM:
	case RD_PROD:
		return cls == RD_C_INT || cls == RD_C_UINT || cls == RD_C_FLOAT ||
		       cls == RD_C_COMPLEX;
	case RD_LAND:
	case RD_LOR:
	case RD_LXOR:
		return cls == RD_C_INT || cls == RD_C_UINT || cls == RD_C_BOOL;
	case RD_BAND:
	case RD_BOR:
	case RD_BXOR:
		return cls == RD_C_INT || cls == RD_C_UINT || cls == RD_C_BYTE;
	case RD_MAXLOC:
	case RD_MINLOC:
		return cls == RD_C_PAIR;
	default:
		return 1;
	}
}

int rd_op_ok(enum rd_op op, const struct rd_sig *s, char *why, size_t whysize)
{
	size_t i;

	for (i = 0; i < s->nruns; i++) {
		if (!op_takes(op, s->runs[i].b->cls)) {
			snprintf(why, whysize, "%s is not defined on %s (MPI-4.1 6.9.2)",
				 rd_op_name(op), s->runs[i].b->name);
			return 0;
		}
	}
	return 1;
}

/* ---- signatures ---- */

static int sig_append(struct rd_sig *s, const struct rd_basic *b, uint64_t reps)
{
	if (reps == 0)
		return 0;
	if (s->nruns && s->runs[s->nruns - 1].b == b) {
		s->runs[s->nruns - 1].reps += reps;
		return 0;
	}
	if (s->nruns == RD_MAX_RUNS)
		return -1;
	if (s->nruns == s->cap) {
		struct rd_run *r = realloc(s->runs, (s->cap ? 2 * s->cap : 4) * sizeof(*r));

		if (!r)
			return -1;
		s->runs = r;
		s->cap = s->cap ? 2 * s->cap : 4;
	}
	s->runs[s->nruns].b = b;
	s->runs[s->nruns++].reps = reps;
	return 0;
}

static void type_name(MPI_Datatype t, char *buf, size_t size)
{
	char name[MPI_MAX_OBJECT_NAME];
	int len = 0;

	if (PMPI_Type_get_name(t, name, &len) != MPI_SUCCESS || len <= 0)
		snprintf(buf, size, "a predefined type");
	else
		snprintf(buf, size, "%s", name);
}

/* Append `mult` times the signature of one t to s. Returns 0, or -1 with why filled. */
static int sig_add(struct rd_sig *s, MPI_Datatype t, uint64_t mult, int depth, char *why,
		   size_t whysize)
{
	int ni, na, nd, comb, rc = 0, i;
	int *ints = NULL;
	MPI_Aint *aints = NULL;
	MPI_Datatype *types = NULL;
	char name[MPI_MAX_OBJECT_NAME + 8];

	if (depth > 64 || PMPI_Type_get_envelope(t, &ni, &na, &nd, &comb) != MPI_SUCCESS) {
		snprintf(why, whysize, "a datatype the check cannot follow");
		return -1;
	}
	if (comb == MPI_COMBINER_NAMED) {
		const struct rd_basic *b = basic_of(t);

		if (!b) {
			type_name(t, name, sizeof(name));
			snprintf(why, whysize, "%s is not a type the check computes with", name);
			return -1;
		}
		if (sig_append(s, b, mult)) {
			snprintf(why, whysize, "a type signature too long to follow");
			return -1;
		}
		return 0;
	}
	ints = malloc((ni + 1) * sizeof(*ints));
	aints = malloc((na + 1) * sizeof(*aints));
	types = malloc((nd + 1) * sizeof(*types));
	if (!ints || !aints || !types ||
	    PMPI_Type_get_contents(t, ni, na, nd, ints, aints, types) != MPI_SUCCESS) {
		snprintf(why, whysize, "a datatype the check cannot follow");
		rc = -1;
		goto out;
	}
	if (comb == MPI_COMBINER_STRUCT) {
		/* the blocks in order, the whole repeated mult times (each time its own runs,
		 * merged where they meet) */
		struct rd_sig one;
		uint64_t m;
		size_t k;

		memset(&one, 0, sizeof(one));
		for (i = 0; i < ints[0] && !rc; i++)
			rc = sig_add(&one, types[i], (uint64_t)ints[1 + i], depth + 1, why,
				     whysize);
		for (m = 0; m < mult && !rc; m++)
			for (k = 0; k < one.nruns && !rc; k++)
				if (sig_append(s, one.runs[k].b, one.runs[k].reps)) {
					snprintf(why, whysize,
						 "a type signature too long to follow");
					rc = -1;
				}
		free(one.runs);
	} else if (nd == 1) {
		/* every other constructor repeats one old type: as often as its size says */
		int tsize = 0, osize = 0;

		PMPI_Type_size(t, &tsize);
		PMPI_Type_size(types[0], &osize);
		if (osize > 0 && tsize % osize == 0) {
			rc = sig_add(s, types[0], mult * (uint64_t)(tsize / osize), depth + 1, why,
				     whysize);
		} else if (tsize > 0) {
			snprintf(why, whysize, "a datatype the check cannot follow");
			rc = -1;
		}
	} else {
		snprintf(why, whysize, "a datatype the check cannot follow");
		rc = -1;
	}
	/* derived types get_contents returned are new handles to free (MPI-4.1 5.1.13) */
	for (i = 0; i < nd; i++) {
		int n2, a2, d2, c2;

		if (PMPI_Type_get_envelope(types[i], &n2, &a2, &d2, &c2) == MPI_SUCCESS &&
		    c2 != MPI_COMBINER_NAMED)
			PMPI_Type_free(&types[i]);
	}
out:
	free(ints);
	free(aints);
	free(types);
	return rc;
}

int rd_sig_make(MPI_Datatype type, struct rd_sig **sig, char *why, size_t whysize)
{
	struct rd_sig *s = calloc(1, sizeof(*s));
	int ni, na, nd, comb, size = 0;
	size_t i;

	*sig = NULL;
	if (!s) {
		snprintf(why, whysize, "out of memory");
		return -1;
	}
	if (sig_add(s, type, 1, 0, why, whysize)) {
		rd_sig_free(s);
		return -1;
	}
	for (i = 0; i < s->nruns; i++)
		s->bytes += s->runs[i].reps * s->runs[i].b->size;
	PMPI_Type_size(type, &size);
	if (s->bytes != (size_t)size || !s->nruns) {
		snprintf(why, whysize, "a datatype the check cannot follow");
		rd_sig_free(s);
		return -1;
	}
	PMPI_Type_get_envelope(type, &ni, &na, &nd, &comb);
	if (comb == MPI_COMBINER_NAMED) {
		s->direct = s->runs[0].b->cls != RD_C_PAIR;
		snprintf(s->name, sizeof(s->name), "%s", s->runs[0].b->name);
	} else {
		snprintf(s->name, sizeof(s->name), "derived");
	}
	*sig = s;
	return 0;
}

void rd_sig_free(struct rd_sig *s)
{
	if (!s)
		return;
	free(s->runs);
	free(s);
}

size_t rd_sig_bytes(const struct rd_sig *s)
{
	return s->bytes;
}

int rd_sig_direct(const struct rd_sig *s)
{
	return s->direct;
}

const char *rd_sig_name(const struct rd_sig *s)
{
	return s->name;
}

/* Call fn for every run of count elements: the run's type, its byte offset in the packed
 * data, its elements, and the index of its first among all basic elements. */
typedef void (*rd_run_fn)(void *ctx, const struct rd_basic *b, size_t off, size_t n, uint64_t idx);

static void sig_walk(const struct rd_sig *s, size_t count, rd_run_fn fn, void *ctx)
{
	size_t e, k, off = 0;
	uint64_t idx = 0;

	if (s->nruns == 1) { /* the common case: one long run */
		fn(ctx, s->runs[0].b, 0, count * s->runs[0].reps, 0);
		return;
	}
	for (e = 0; e < count; e++) {
		for (k = 0; k < s->nruns; k++) {
			fn(ctx, s->runs[k].b, off, s->runs[k].reps, idx);
			off += s->runs[k].reps * s->runs[k].b->size;
			idx += s->runs[k].reps;
		}
	}
}

/* ---- the fold: acc = acc op x, element by element ----
 * Packed data need not be aligned (a run of chars before a double): elements are loaded and
 * stored with memcpy, which the compiler turns into plain moves. */
#define LD(T, p, i)                                            \
	({                                                     \
		T v_;                                          \
		memcpy(&v_, (p) + (i) * sizeof(T), sizeof(T)); \
		v_;                                            \
	})
#define ST(T, p, i, v)                                         \
	do {                                                   \
		T w_ = (v);                                    \
		memcpy((p) + (i) * sizeof(T), &w_, sizeof(T)); \
	} while (0)
#define LOOP(T, expr)                                 \
	for (i = 0; i < n; i++) {                     \
		T a = LD(T, acc, i), b = LD(T, x, i); \
		ST(T, acc, i, (T)(expr));             \
	}

/* Integers: sums and products wrap around, as two's complement hardware makes them (an
 * overflow is then the same in every order: the arithmetic is modulo 2^bits). */
#define INT_FOLD(name, T, UT)                                                                 \
	static void name(enum rd_op op, unsigned char *acc, const unsigned char *x, size_t n) \
	{                                                                                     \
		size_t i;                                                                     \
		switch (op) {                                                                 \
		case RD_SUM:                                                                  \
			LOOP(T, (UT)a + (UT)b);                                               \
			break;                                                                \
		case RD_PROD:                                                                 \
			LOOP(T, (UT)a *(UT)b);                                                \
			break;                                                                \
		case RD_MAX:                                                                  \
			LOOP(T, b > a ? b : a);                                               \
			break;                                                                \
		case RD_MIN:                                                                  \
			LOOP(T, b < a ? b : a);                                               \
			break;                                                                \
		case RD_LAND:                                                                 \
			LOOP(T, a &&b);                                                       \
			break;                                                                \
		case RD_LOR:                                                                  \
			LOOP(T, a || b);                                                      \
			break;                                                                \
		case RD_LXOR:                                                                 \
			LOOP(T, !a != !b);                                                    \
			break;                                                                \
		case RD_BAND:                                                                 \
			LOOP(T, a &b);                                                        \
			break;                                                                \
		case RD_BOR:                                                                  \
			LOOP(T, a | b);                                                       \
			break;                                                                \
		case RD_BXOR:                                                                 \
			LOOP(T, a ^ b);                                                       \
			break;                                                                \
		default:                                                                      \
			break;                                                                \
		}                                                                             \
	}
INT_FOLD(fold_i8, int8_t, uint8_t)
INT_FOLD(fold_i16, int16_t, uint16_t)
INT_FOLD(fold_i32, int32_t, uint32_t)
INT_FOLD(fold_i64, int64_t, uint64_t)
INT_FOLD(fold_u8, uint8_t, uint8_t)
INT_FOLD(fold_u16, uint16_t, uint16_t)
INT_FOLD(fold_u32, uint32_t, uint32_t)
INT_FOLD(fold_u64, uint64_t, uint64_t)

/* Floating point: MIN and MAX carry a NaN through, so that an element with a NaN among its
 * inputs is known (its order decides what a library returns: it is not compared). */
#define FLOAT_FOLD(name, T)                                                                   \
	static void name(enum rd_op op, unsigned char *acc, const unsigned char *x, size_t n) \
	{                                                                                     \
		size_t i;                                                                     \
		switch (op) {                                                                 \
		case RD_SUM:                                                                  \
			LOOP(T, a + b);                                                       \
			break;                                                                \
		case RD_PROD:                                                                 \
			LOOP(T, a *b);                                                        \
			break;                                                                \
		case RD_MAX:                                                                  \
			LOOP(T, isnan(a) || isnan(b) ? (T)NAN : b > a ? b : a);               \
			break;                                                                \
		case RD_MIN:                                                                  \
			LOOP(T, isnan(a) || isnan(b) ? (T)NAN : b < a ? b : a);               \
			break;                                                                \
		default:                                                                      \
			break;                                                                \
		}                                                                             \
	}
FLOAT_FOLD(fold_f, float)
FLOAT_FOLD(fold_d, double)
FLOAT_FOLD(fold_ld, long double)

/* Complex products, by the formula libraries use (no special handling of infinities). */
#define COMPLEX_PROD(name, T)                                                  \
	static void name(unsigned char *acc, const unsigned char *x, size_t n) \
	{                                                                      \
		size_t i;                                                      \
		for (i = 0; i < n; i++) {                                      \
			T ar = LD(T, acc, 2 * i), ai = LD(T, acc, 2 * i + 1);  \
			T br = LD(T, x, 2 * i), bi = LD(T, x, 2 * i + 1);      \
			ST(T, acc, 2 * i, ar * br - ai * bi);                  \
			ST(T, acc, 2 * i + 1, ar * bi + ai * br);              \
		}                                                              \
	}
COMPLEX_PROD(cprod_f, float)
COMPLEX_PROD(cprod_d, double)
COMPLEX_PROD(cprod_ld, long double)

/* A value of any machine type, for the rare per-element paths (pairs, comparison). */
static long double get_real(enum rd_scalar sc, const unsigned char *p)
{
	switch (sc) {
	case RD_I8:
		return LD(int8_t, p, 0);
	case RD_I16:
		return LD(int16_t, p, 0);
	case RD_I32:
		return LD(int32_t, p, 0);
	case RD_I64:
		return LD(int64_t, p, 0);
	case RD_U8:
		return LD(uint8_t, p, 0);
	case RD_U16:
		return LD(uint16_t, p, 0);
	case RD_U32:
		return LD(uint32_t, p, 0);
	case RD_U64:
		return LD(uint64_t, p, 0);
	case RD_F:
		return LD(float, p, 0);
	case RD_D:
		return LD(double, p, 0);
	default:
		return LD(long double, p, 0);
	}
}

static int is_float(enum rd_scalar sc)
{
	return sc >= RD_F;
}

/* MINLOC/MAXLOC (6.9.4): the smaller (larger) value, and of equal ones the smaller index;
 * a NaN is carried through as for MIN and MAX. */
static void fold_pairs(enum rd_op op, const struct rd_basic *b, unsigned char *acc,
		       const unsigned char *x, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++, acc += b->size, x += b->size) {
		long double av = get_real(b->sc, acc), bv = get_real(b->sc, x);
		long double ai = get_real(b->isc, acc + b->vsize),
			    bi = get_real(b->isc, x + b->vsize);
		int take;

		if (isnan(av))
			continue;
		if (isnan(bv))
			take = 1;
		else if (av == bv)
			take = bi < ai;
		else
			take = op == RD_MINLOC ? bv < av : bv > av;
		if (take)
			memcpy(acc, x, b->size);
	}
}

static void fold_run(enum rd_op op, const struct rd_basic *b, unsigned char *acc,
		     const unsigned char *x, size_t n)
{
	if (b->cls == RD_C_PAIR) {
		fold_pairs(op, b, acc, x, n);
		return;
	}
	if (b->cls == RD_C_COMPLEX) {
		if (op == RD_PROD) {
			if (b->sc == RD_F)
				cprod_f(acc, x, n);
			else if (b->sc == RD_D)
				cprod_d(acc, x, n);
			else
				cprod_ld(acc, x, n);
			return;
		}
		n *= 2; /* a sum adds the parts */
	}
	switch (b->sc) {
	case RD_I8:
		fold_i8(op, acc, x, n);
		break;
	case RD_I16:
		fold_i16(op, acc, x, n);
		break;
	case RD_I32:
		fold_i32(op, acc, x, n);
		break;
	case RD_I64:
		fold_i64(op, acc, x, n);
		break;
	case RD_U8:
		fold_u8(op, acc, x, n);
		break;
	case RD_U16:
		fold_u16(op, acc, x, n);
		break;
	case RD_U32:
		fold_u32(op, acc, x, n);
		break;
	case RD_U64:
		fold_u64(op, acc, x, n);
		break;
	case RD_F:
		fold_f(op, acc, x, n);
		break;
	case RD_D:
		fold_d(op, acc, x, n);
		break;
	case RD_LD:
		fold_ld(op, acc, x, n);
		break;
	}
}

/* The fold's walk over one run: acc = acc op x. */
struct fold_ctx {
	struct rd_fold *f;
	const unsigned char *x;
};

static void fold_walk(void *ctx, const struct rd_basic *b, size_t off, size_t n, uint64_t idx)
{
	struct fold_ctx *fc = ctx;

	(void)idx;
	fold_run(fc->f->op, b, fc->f->acc + off, fc->x + off, n);
}

void rd_fold(struct rd_fold *f, const struct rd_sig *sig, enum rd_op op, size_t count,
	     const unsigned char *const *xs, int n, unsigned char *acc)
{
	struct fold_ctx fc = {f, NULL};
	int i;

	f->sig = sig;
	f->op = op;
	f->count = count;
	f->xs = xs;
	f->n = n;
	f->acc = acc;
	memcpy(f->acc, xs[0], count * sig->bytes);
	for (i = 1; i < n && op != RD_USER; i++) {
		fc.x = xs[i];
		sig_walk(sig, count, fold_walk, &fc);
	}
}

/* ---- comparison ---- */

/* Unit roundoff (half the machine epsilon) of a floating-point machine type. */
static long double unit_roundoff(enum rd_scalar sc)
{
	return sc == RD_F ? FLT_EPSILON / 2 : sc == RD_D ? DBL_EPSILON / 2 : LDBL_EPSILON / 2;
}

/* gamma_k = k u / (1 - k u): the bound on the relative error of k roundings (Higham,
 * "Accuracy and Stability of Numerical Algorithms", 2nd ed., Lemma 3.1). */
static long double gamma_k(long double k, long double u)
{
	return k * u >= 1 ? INFINITY : k * u / (1 - k * u);
}

/* The relative tolerance of an element of type b combined from n contributions by op: the
 * user's, or the rounding bound doc/reductions.md derives: any order of the n - 1
 * operations errs by at most gamma_(n-1) relative to the magnitude (sums: the sum of the
 * magnitudes; products: the product), so two orders differ by at most twice that; gamma_n
 * also covers the rounding of the magnitudes themselves. A complex product rounds by up to
 * sqrt(2) gamma_2 at each step (Lemma 3.5). */
static long double rel_of(const struct rd_cmp *cmp, const struct rd_basic *b)
{
	long double u = unit_roundoff(b->sc);

	if (cmp->tol >= 0)
		return cmp->tol;
	if (b->cls == RD_C_COMPLEX && cmp->op == RD_PROD)
		return 2 * (powl(1 + sqrtl(2) * gamma_k(2, u), cmp->n) - 1);
	return 2 * gamma_k(cmp->n, u);
}

static long double smallest_normal(enum rd_scalar sc)
{
	return sc == RD_F ? FLT_MIN : sc == RD_D ? DBL_MIN : LDBL_MIN;
}

static long double largest(enum rd_scalar sc)
{
	return sc == RD_F ? FLT_MAX : sc == RD_D ? DBL_MAX : LDBL_MAX;
}

/* Format the element at p into buf. */
static void format_value(const struct rd_basic *b, const unsigned char *p, char *buf, size_t size)
{
	int digits = b->sc == RD_F ? 9 : b->sc == RD_D ? 17 : 21;
	long double v = get_real(b->sc, p);

	switch (b->cls) {
	case RD_C_FLOAT:
		snprintf(buf, size, "%.*Lg", digits, v);
		break;
	case RD_C_COMPLEX:
		snprintf(buf, size, "(%.*Lg, %.*Lg)", digits, v, digits,
			 get_real(b->sc, p + scalar_size(b->sc)));
		break;
	case RD_C_PAIR:
		if (is_float(b->isc))
			snprintf(buf, size, "(%.*Lg, %.*Lg)", digits, v, digits,
				 get_real(b->isc, p + b->vsize));
		else
			snprintf(buf, size, "(%.*Lg, %.0Lf)", is_float(b->sc) ? digits : 20, v,
				 get_real(b->isc, p + b->vsize));
		break;
	case RD_C_BOOL:
		snprintf(buf, size, "%s (%.0Lf)", v != 0 ? "true" : "false", v);
		break;
	case RD_C_BYTE:
		snprintf(buf, size, "0x%02x", (unsigned)v);
		break;
	default:
		snprintf(buf, size, "%.0Lf", v);
		break;
	}
}

/* The magnitudes of what was combined into the value at byte offset off, for the tolerance,
 * computed only for an element that differs: *sum the sum of the values' absolute values;
 * and, over the finite nonzero ones (modulus: the complex numbers' moduli, off being an
 * element's), *hi the product of those above 1 and *lo of those below: every partial
 * product, in any order, lies between lo and hi. */
static void magnitudes(const struct rd_fold *f, const struct rd_basic *b, size_t off, int modulus,
		       long double *sum, long double *hi, long double *lo)
{
	int i;

	*sum = 0;
	*hi = 1;
	*lo = 1;
	for (i = 0; i < f->n; i++) {
		const unsigned char *p = f->xs[i] + off;
		long double m = fabsl(get_real(b->sc, p));

		*sum += m;
		if (modulus)
			m = hypotl(m, get_real(b->sc, p + scalar_size(b->sc)));
		if (!isfinite(m) || m == 0)
			continue;
		if (m > 1)
			*hi *= m;
		else
			*lo *= m;
	}
}

/* How one floating-point part compares: *allowed is the difference allowed (0: exact). The
 * magnitudes are computed as the type would (a sum of doubles that overflows a double is an
 * overflow in some order, even if a long double holds it). */
static int part_differs(const struct rd_fold *f, const struct rd_cmp *cmp, const struct rd_basic *b,
			size_t off, long double got, long double want, long double rel,
			long double *allowed)
{
	long double mag, hi, lo;

	*allowed = 0;
	magnitudes(f, b, off, 0, &mag, &hi, &lo);
	if (mag > largest(b->sc))
		mag = INFINITY;
	switch (cmp->op) {
	case RD_MAX:
	case RD_MIN:
	case RD_MAXLOC:
	case RD_MINLOC:
		/* exact; a NaN among the inputs makes the result depend on the order */
		return !isnan(want) && got != want;
	case RD_PROD:
		/* some order may overflow or underflow: any answer is one of a correct library */
		if (hi > largest(b->sc) || lo < smallest_normal(b->sc))
			return 0;
		if (isnan(want))
			return !isnan(got);
		if (isinf(want))
			return got != want;
		*allowed = rel * fabsl(want);
		return !(fabsl(got - want) <= *allowed);
	default: /* sums; user-defined operations, of unknown rounding */
		/* a sum is NaN only with a NaN or infinities among its inputs: see below */
		if (isnan(want))
			return cmp->op == RD_USER && !isnan(got);
		if (cmp->op == RD_USER && fabsl(want) > mag)
			mag = fabsl(want);
		/* an infinity among the inputs, or an overflow in some order: any answer */
		if (!isfinite(mag))
			return 0;
		*allowed = rel * mag;
		return !(fabsl(got - want) <= *allowed);
	}
}

struct cmp_ctx {
	const struct rd_fold *f;
	const unsigned char *got;
	const struct rd_cmp *cmp;
	struct mpiv_reduction *out;
	uint64_t differ;
};

/* Whether op's results on elements of b depend on the order of evaluation (floating-point
 * sums, products and user-defined operations): they are compared within a tolerance. */
static int toleranced(enum rd_op op, const struct rd_basic *b)
{
	return (op == RD_SUM || op == RD_PROD || op == RD_USER) &&
	       (b->cls == RD_C_FLOAT || b->cls == RD_C_COMPLEX ||
		(b->cls == RD_C_PAIR && is_float(b->sc)));
}

/* Whether the element at byte offset off differs; the relative tolerance and the difference
 * allowed there (0 and 0 for an exact comparison). */
static int element_differs(struct cmp_ctx *cc, const struct rd_basic *b, size_t off,
			   long double *rel, long double *allowed)
{
	const unsigned char *g = cc->got + off, *w = cc->f->acc + off;
	long double a2 = 0;
	int d;

	*rel = 0;
	*allowed = 0;
	switch (b->cls) {
	case RD_C_BOOL:
		if (cc->cmp->op != RD_USER)
			return (get_real(b->sc, g) != 0) != (get_real(b->sc, w) != 0);
		return memcmp(g, w, b->size) != 0;
	case RD_C_FLOAT:
	case RD_C_COMPLEX:
		*rel = toleranced(cc->cmp->op, b) ? rel_of(cc->cmp, b) : 0;
		if (b->cls == RD_C_COMPLEX && cc->cmp->op == RD_PROD) {
			long double gr = get_real(b->sc, g), wr = get_real(b->sc, w);
			long double gi = get_real(b->sc, g + scalar_size(b->sc));
			long double wi = get_real(b->sc, w + scalar_size(b->sc));
			long double wm = hypotl(wr, wi), sum, hi, lo;

			magnitudes(cc->f, b, off, 1, &sum, &hi, &lo);

			if (hi > largest(b->sc) || lo < smallest_normal(b->sc) || !isfinite(wm))
				return 0;
			*allowed = *rel * wm;
			return !(hypotl(gr - wr, gi - wi) <= *allowed);
		}
		d = part_differs(cc->f, cc->cmp, b, off, get_real(b->sc, g), get_real(b->sc, w),
				 *rel, allowed);
		if (b->cls == RD_C_COMPLEX) {
			size_t s = scalar_size(b->sc);

			d |= part_differs(cc->f, cc->cmp, b, off + s, get_real(b->sc, g + s),
					  get_real(b->sc, w + s), *rel, &a2);
			if (a2 > *allowed)
				*allowed = a2;
		}
		return d;
	case RD_C_PAIR:
		if (is_float(b->sc)) {
			*rel = toleranced(cc->cmp->op, b) ? rel_of(cc->cmp, b) : 0;
			d = part_differs(cc->f, cc->cmp, b, off, get_real(b->sc, g),
					 get_real(b->sc, w), *rel, allowed);
		} else {
			d = memcmp(g, w, b->vsize) != 0;
		}
		/* the index is exact, unless the value was a NaN (its order decides) */
		if (!(is_float(b->sc) && isnan(get_real(b->sc, w))))
			d |= memcmp(g + b->vsize, w + b->vsize, b->size - b->vsize) != 0;
		return d;
	default:
		return memcmp(g, w, b->size) != 0;
	}
}

static void cmp_walk(void *ctx, const struct rd_basic *b, size_t off, size_t n, uint64_t idx)
{
	struct cmp_ctx *cc = ctx;
	struct mpiv_reduction *r = cc->out;
	long double rel, allowed;
	size_t i;

	/* the common case, exactly equal, at the speed of memcmp */
	if (!memcmp(cc->got + off, cc->f->acc + off, n * b->size))
		return;
	for (i = 0; i < n; i++, off += b->size) {
		if (!element_differs(cc, b, off, &rel, &allowed))
			continue;
		if (cc->differ++ == 0) {
			r->first = idx + i;
			r->rel = (double)rel;
			r->allowed = (double)allowed;
			if (cc->cmp->tol >= 0 && toleranced(cc->cmp->op, b))
				r->flags |= MPIV_RED_TOL_GIVEN;
			snprintf(r->elem, sizeof(r->elem), "%s", b->name);
			format_value(b, cc->got + off, r->got, sizeof(r->got));
			format_value(b, cc->f->acc + off, r->want, sizeof(r->want));
		}
	}
}

static void count_walk(void *ctx, const struct rd_basic *b, size_t off, size_t n, uint64_t idx)
{
	(void)b;
	(void)off;
	(void)idx;
	*(uint64_t *)ctx += n;
}

uint64_t rd_compare(const struct rd_fold *f, const unsigned char *got, const struct rd_cmp *cmp,
		    struct mpiv_reduction *out)
{
	struct cmp_ctx cc = {f, got, cmp, out, 0};

	out->count = 0;
	sig_walk(f->sig, f->count, count_walk, &out->count);
	sig_walk(f->sig, f->count, cmp_walk, &cc);
	out->differ = cc.differ;
	return cc.differ;
}

uint64_t rd_checksum(const void *p, size_t len)
{
	const uint64_t k = 0x100000001b3ULL; /* odd: multiplying by it is a bijection */
	const unsigned char *b = p;
	uint64_t h[4], w;
	size_t i = 0;
	int l;

	/* Four lanes, each word folded into its lane by (h ^ w) * k and a rotation: each step a
	 * bijection of h for a given w, so a changed word always changes its lane; the lanes
	 * run side by side (the loop is bound by memory, not by the multiplications), and are
	 * combined the same way, so a changed lane changes the sum. */
	for (l = 0; l < 4; l++)
		h[l] = (0x9e3779b97f4a7c15ULL + (uint64_t)l) ^ len;
	for (; i + 32 <= len; i += 32) {
		for (l = 0; l < 4; l++) {
			memcpy(&w, b + i + 8 * l, 8);
			h[l] = (h[l] ^ w) * k;
			h[l] = (h[l] << 27) | (h[l] >> 37);
		}
	}
	for (; i < len; i += 8) {
		w = 0;
		memcpy(&w, b + i, len - i < 8 ? len - i : 8);
		h[0] = (h[0] ^ w) * k;
		h[0] = (h[0] << 27) | (h[0] >> 37);
	}
	return (((h[0] * k ^ h[1]) * k ^ h[2]) * k) ^ h[3];
}
