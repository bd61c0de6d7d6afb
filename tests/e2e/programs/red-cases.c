/* The reduction check's cases beyond the predefined types (tests/e2e/reductions.sh), on three
 * ranks: MPI_IN_PLACE, a derived datatype with gaps under a user-defined operation, a
 * non-commutative user-defined operation (2x2 matrix products, whose order matters), a
 * nonblocking reduction checked at its completion, a communicator of one member; and, so
 * that the check is seen to raise nothing where nothing is wrong, every other reduction:
 * MPI_Reduce_local, MPI_Exscan, MPI_Reduce_scatter(_block), and the nonblocking forms on
 * duplicated communicators, completed by each kind of completion call (the faulty library
 * reaches the MPI_Iallreduce among them, completed by MPI_Waitsome).
 *
 * Each case is a function case_<name>: check names it in its report. Rank 0 prints "case
 * NAME CALL" for each case whose result on rank 1 the faulty library (faulty-mpi.c) damages;
 * every rank prints "rank R NAME: result right" or "wrong" after comparing its result with
 * the exact one (all values are small integers: every order computes them exactly). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int rank, size;

static void verdict(const char *name, int right)
{
	printf("rank %d %s: result %s\n", rank, name, right ? "right" : "wrong");
}

static void faulty(const char *name, const char *call)
{
	if (rank == 0)
		printf("case %s %s\n", name, call);
}

/* MPI_IN_PLACE: the input is where the result goes. */
static void case_inplace(void)
{
	double v[6];
	int i, right = 1;

	for (i = 0; i < 6; i++)
		v[i] = (rank + 1) * (i + 1);
	MPI_Allreduce(MPI_IN_PLACE, v, 6, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
	for (i = 0; i < 6; i++)
		right &= v[i] == (double)(size * (size + 1) / 2 * (i + 1));
	verdict("inplace", right);
	faulty("inplace", "MPI_Allreduce");
}

/* A derived datatype with gaps: two doubles two apart, resized to four (x, gap, y, gap),
 * under a user-defined sum that walks that layout. The gaps must stay as they are. */
static void gap_sum(void *in, void *inout, int *len, MPI_Datatype *type)
{
	double *a = in, *b = inout;
	int k;

	(void)type;
	for (k = 0; k < *len; k++) {
		b[4 * k] += a[4 * k];
		b[4 * k + 2] += a[4 * k + 2];
	}
}

static void case_derived(void)
{
	MPI_Datatype vec, type;
	MPI_Op op;
	double in[12], out[12];
	int k, right = 1;

	MPI_Type_vector(2, 1, 2, MPI_DOUBLE, &vec);
	MPI_Type_create_resized(vec, 0, 4 * sizeof(double), &type);
	MPI_Type_commit(&type);
	MPI_Op_create(gap_sum, 1, &op);
	for (k = 0; k < 12; k++) {
		in[k] = (k % 2) ? -1 : rank + k;
		out[k] = -7; /* the gaps of the result */
	}
	MPI_Allreduce(in, out, 3, type, op, MPI_COMM_WORLD);
	for (k = 0; k < 12; k++)
		right &= (k % 2) ? out[k] == -7 : out[k] == size * (size - 1) / 2 + size * k;
	verdict("derived", right);
	faulty("derived", "MPI_Allreduce");
	MPI_Op_free(&op);
	MPI_Type_free(&type);
	MPI_Type_free(&vec);
}

/* 2x2 integer matrices, row-major, as a derived datatype; their product is associative but
 * not commutative: MPI combines them in rank order (MPI-4.1 6.9.5). */
static void matmul(void *in, void *inout, int *len, MPI_Datatype *type)
{
	int *a = in, *b = inout, k, c[4];

	(void)type;
	for (k = 0; k < *len; k++, a += 4, b += 4) {
		c[0] = a[0] * b[0] + a[1] * b[2];
		c[1] = a[0] * b[1] + a[1] * b[3];
		c[2] = a[2] * b[0] + a[3] * b[2];
		c[3] = a[2] * b[1] + a[3] * b[3];
		memcpy(b, c, sizeof(c));
	}
}

static void matrix_of(int r, int m[4])
{
	m[0] = r + 1;
	m[1] = 1;
	m[2] = 1;
	m[3] = 0;
}

/* m_0 m_1 ... m_(upto-1), in that order. */
static void product(int upto, int p[4])
{
	int m[4], r, len = 1;

	matrix_of(0, p);
	for (r = 1; r < upto; r++) {
		matrix_of(r, m);
		matmul(p, m, &len, NULL); /* m = p m */
		memcpy(p, m, sizeof(m));
	}
}

static void case_noncommutative(MPI_Datatype mat, MPI_Op op)
{
	int in[4], out[4], want[4];

	matrix_of(rank, in);
	MPI_Scan(in, out, 1, mat, op, MPI_COMM_WORLD);
	product(rank + 1, want);
	verdict("noncommutative-scan", !memcmp(out, want, sizeof(want)));
	faulty("noncommutative", "MPI_Scan");
	MPI_Reduce(in, out, 1, mat, op, 1, MPI_COMM_WORLD);
	product(size, want);
	if (rank == 1)
		verdict("noncommutative-reduce", !memcmp(out, want, sizeof(want)));
	faulty("noncommutative", "MPI_Reduce");
}

/* Nonblocking: checked when MPI_Wait completes it. */
static void case_nonblocking(void)
{
	int in[5], out[5], i, right = 1;
	MPI_Request r;

	for (i = 0; i < 5; i++)
		in[i] = rank * 10 + i;
	MPI_Iallreduce(in, out, 5, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
	MPI_Wait(&r, MPI_STATUS_IGNORE);
	for (i = 0; i < 5; i++)
		right &= out[i] == 10 * size * (size - 1) / 2 + size * i;
	verdict("nonblocking", right);
	faulty("nonblocking", "MPI_Iallreduce");
}

/* A communicator of one member (rank 1's, of ranks split by parity): no messages. */
static void case_split(void)
{
	MPI_Comm half;
	long in[3] = {rank, rank + 1, rank + 2}, out[3];
	int top = size - 1 - (size - 1 - rank) % 2; /* the largest rank of this parity */
	int i, right = 1;

	MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
	MPI_Allreduce(in, out, 3, MPI_LONG, MPI_MAX, half);
	for (i = 0; i < 3; i++)
		right &= out[i] == top + i;
	verdict("split", right);
	faulty("split", "MPI_Allreduce");
	MPI_Comm_free(&half);
}

/* The rest: results the faulty library does not touch; the check must find nothing. */
static void case_others(MPI_Datatype mat, MPI_Op matop)
{
	int in[6], out[6], counts[3] = {1, 2, 3}, m[4], want[4], i, flag = 0, idx, n;
	double din[4], dio[4];
	MPI_Comm dup, idup;
	MPI_Request r[3];
	MPI_Status st[3]; /* not MPI_STATUSES_IGNORE: GCC 12 takes it for an empty array */

	for (i = 0; i < 6; i++)
		in[i] = rank + i;
	/* local: inoutbuf = inbuf op inoutbuf */
	for (i = 0; i < 4; i++) {
		din[i] = i;
		dio[i] = 2 * i;
	}
	MPI_Reduce_local(din, dio, 4, MPI_DOUBLE, MPI_SUM);
	matrix_of(1, m);
	matrix_of(0, want);
	MPI_Reduce_local(want, m, 1, mat, matop); /* m = m_0 m_1 */
	MPI_Exscan(in, out, 6, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	if (size == 3)
		MPI_Reduce_scatter(in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Reduce_scatter_block(in, out, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	MPI_Reduce_scatter_block(MPI_IN_PLACE, in, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);

	/* nonblocking, on communicators of their own, each completion call once */
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	MPI_Comm_idup(MPI_COMM_WORLD, &idup, &r[0]);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	for (i = 0; i < 6; i++)
		in[i] = rank + i;
	MPI_Iscan(in, out, 6, MPI_INT, MPI_BOR, dup, &r[0]);
	while (!flag)
		MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
	MPI_Ireduce(in, out, 6, MPI_INT, MPI_PROD, 0, idup, &r[0]);
	MPI_Iexscan(in, out + 3, 3, MPI_INT, MPI_SUM, dup, &r[1]);
	MPI_Waitall(2, r, st);
	MPI_Ireduce_scatter_block(in, out, 2, MPI_INT, MPI_SUM, idup, &r[0]);
	MPI_Waitany(1, r, &idx, MPI_STATUS_IGNORE);
	MPI_Iallreduce(in, out, 6, MPI_INT, MPI_BXOR, dup, &r[0]);
	MPI_Waitsome(1, r, &n, &idx, st);
	faulty("others", "MPI_Iallreduce"); /* the one the faulty library reaches */
	MPI_Comm_free(&dup);
	MPI_Comm_free(&idup);
}

int main(int argc, char **argv)
{
	MPI_Datatype mat;
	MPI_Op matop;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Type_contiguous(4, MPI_INT, &mat);
	MPI_Type_commit(&mat);
	MPI_Op_create(matmul, 0, &matop);

	case_inplace();
	case_derived();
	case_noncommutative(mat, matop);
	case_nonblocking();
	case_split();
	case_others(mat, matop);

	MPI_Op_free(&matop);
	MPI_Type_free(&mat);
	MPI_Finalize();
	return 0;
}
