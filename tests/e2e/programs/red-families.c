/* Every predefined reduction operation on every family of types it is defined on (MPI-4.1
 * 6.9.2, 6.9.4), for tests/e2e/reductions.sh: each combination once through MPI_Allreduce,
 * and each operation once more through MPI_Reduce (root 1) and MPI_Scan, on two or more
 * ranks. Rank 0 prints a line "reduction CALL OP TYPE" for each, which the test looks for in
 * check's report when the faulty library (faulty-mpi.c) damages rank 1's results. The
 * values are small, so that sums and products are exact in any order. */
#include <complex.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 4 /* elements of each reduction */

enum family { INTEGER = 1, FLOATING = 2, COMPLEX = 4, LOGICAL = 8, BYTE = 16, PAIR = 32 };

struct type {
	MPI_Datatype t;
	const char *name;
	enum family fam;
	size_t size; /* bytes of one element in memory */
};

struct op {
	MPI_Op op;
	const char *name;
	unsigned fams; /* the families it is defined on */
};

struct pair_f {
	float v;
	int i;
};
struct pair_d {
	double v;
	int i;
};
struct pair_l {
	long v;
	int i;
};
struct pair_i {
	int v;
	int i;
};
struct pair_s {
	short v;
	int i;
};
struct pair_ld {
	long double v;
	int i;
};

#define T(t, fam, ctype)                  \
	{                                 \
		t, #t, fam, sizeof(ctype) \
	}
static struct type types[] = {
	T(MPI_INT, INTEGER, int),
	T(MPI_UNSIGNED, INTEGER, unsigned),
	T(MPI_LONG, INTEGER, long),
	T(MPI_SHORT, INTEGER, short),
	T(MPI_SIGNED_CHAR, INTEGER, signed char),
	T(MPI_UNSIGNED_CHAR, INTEGER, unsigned char),
	T(MPI_INT64_T, INTEGER, int64_t),
	T(MPI_UINT64_T, INTEGER, uint64_t),
	T(MPI_FLOAT, FLOATING, float),
	T(MPI_DOUBLE, FLOATING, double),
	T(MPI_LONG_DOUBLE, FLOATING, long double),
	T(MPI_C_FLOAT_COMPLEX, COMPLEX, float complex),
	T(MPI_C_DOUBLE_COMPLEX, COMPLEX, double complex),
	T(MPI_C_LONG_DOUBLE_COMPLEX, COMPLEX, long double complex),
	T(MPI_C_BOOL, LOGICAL, _Bool),
	T(MPI_BYTE, BYTE, unsigned char),
	T(MPI_FLOAT_INT, PAIR, struct pair_f),
	T(MPI_DOUBLE_INT, PAIR, struct pair_d),
	T(MPI_LONG_INT, PAIR, struct pair_l),
	T(MPI_2INT, PAIR, struct pair_i),
	T(MPI_SHORT_INT, PAIR, struct pair_s),
	T(MPI_LONG_DOUBLE_INT, PAIR, struct pair_ld),
};
#define NTYPES (sizeof(types) / sizeof(types[0]))

static struct op ops[] = {
	{0, "MPI_MAX", INTEGER | FLOATING},
	{0, "MPI_MIN", INTEGER | FLOATING},
	{0, "MPI_SUM", INTEGER | FLOATING | COMPLEX},
	{0, "MPI_PROD", INTEGER | FLOATING | COMPLEX},
	{0, "MPI_LAND", INTEGER | LOGICAL},
	{0, "MPI_LOR", INTEGER | LOGICAL},
	{0, "MPI_LXOR", INTEGER | LOGICAL},
	{0, "MPI_BAND", INTEGER | BYTE},
	{0, "MPI_BOR", INTEGER | BYTE},
	{0, "MPI_BXOR", INTEGER | BYTE},
	{0, "MPI_MAXLOC", PAIR},
	{0, "MPI_MINLOC", PAIR},
};
#define NOPS (sizeof(ops) / sizeof(ops[0]))

/* Element i of rank's input, of type t, at p. */
static void fill(const struct type *t, int rank, int i, unsigned char *p)
{
	int v = (rank * 5 + i * 3) % 4 + 1; /* 1..4: products stay small, ties happen */

	memset(p, 0, t->size);
	switch (t->fam) {
	case INTEGER:
		if (t->size == 1)
			*p = (unsigned char)v;
		else if (t->size == 2)
			*(short *)p = (short)v;
		else if (t->size == 4)
			*(int *)p = v;
		else
			*(int64_t *)p = v;
		break;
	case FLOATING:
		if (t->t == MPI_FLOAT)
			*(float *)p = v * 0.5f;
		else if (t->t == MPI_DOUBLE)
			*(double *)p = v * 0.5;
		else
			*(long double *)p = v * 0.5L;
		break;
	case COMPLEX:
		if (t->t == MPI_C_FLOAT_COMPLEX)
			*(float complex *)p = v * 0.5f + 0.25f * I;
		else if (t->t == MPI_C_DOUBLE_COMPLEX)
			*(double complex *)p = v * 0.5 + 0.25 * I;
		else
			*(long double complex *)p = v * 0.5L + 0.25L * I;
		break;
	case LOGICAL:
		*(_Bool *)p = v % 2;
		break;
	case BYTE:
		*p = (unsigned char)(0x5a ^ (rank * 17 + i));
		break;
	case PAIR:
		/* the value first (its type's layout), the index last: the rank */
		if (t->t == MPI_FLOAT_INT)
			*(struct pair_f *)p = (struct pair_f){(float)v, rank};
		else if (t->t == MPI_DOUBLE_INT)
			*(struct pair_d *)p = (struct pair_d){v, rank};
		else if (t->t == MPI_LONG_INT)
			*(struct pair_l *)p = (struct pair_l){v, rank};
		else if (t->t == MPI_2INT)
			*(struct pair_i *)p = (struct pair_i){v, rank};
		else if (t->t == MPI_SHORT_INT)
			*(struct pair_s *)p = (struct pair_s){(short)v, rank};
		else
			*(struct pair_ld *)p = (struct pair_ld){v, rank};
		break;
	}
}

static unsigned char in[N * 32], out[N * 32];

static void run(const char *call, const struct op *o, const struct type *t, int rank)
{
	int i;

	for (i = 0; i < N; i++)
		fill(t, rank, i, in + i * t->size);
	if (!strcmp(call, "MPI_Allreduce"))
		MPI_Allreduce(in, out, N, t->t, o->op, MPI_COMM_WORLD);
	else if (!strcmp(call, "MPI_Reduce"))
		MPI_Reduce(in, out, N, t->t, o->op, 1, MPI_COMM_WORLD);
	else
		MPI_Scan(in, out, N, t->t, o->op, MPI_COMM_WORLD);
	if (rank == 0)
		printf("reduction %s %s %s\n", call, o->name, t->name);
}

int main(int argc, char **argv)
{
	const MPI_Op handles[] = {MPI_MAX,  MPI_MIN,  MPI_SUM, MPI_PROD, MPI_LAND,   MPI_LOR,
				  MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC};
	size_t o, t;
	int rank;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	for (o = 0; o < NOPS; o++)
		ops[o].op = handles[o];
	for (o = 0; o < NOPS; o++) {
		int first = 1;

		for (t = 0; t < NTYPES; t++) {
			if (!(ops[o].fams & types[t].fam))
				continue;
			run("MPI_Allreduce", &ops[o], &types[t], rank);
			if (first) {
				run("MPI_Reduce", &ops[o], &types[t], rank);
				run("MPI_Scan", &ops[o], &types[t], rank);
				first = 0;
			}
		}
	}
	MPI_Finalize();
	return 0;
}
