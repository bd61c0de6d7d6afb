/* Messages whose data the recorder hashes, on two ranks, so that tests/e2e/record-calls.sh can
 * match each sender's digest with its receiver's: every kind of send, receive and completion
 * that has a digest, each message with its own tag (a loop's messages share one). Payloads A
 * and B are two arrays of ints, C a third; tags 23 and 24 carry the same first 64 bytes, 25
 * one int less; tags 21, 22 and 28 go in a vector type, whose data have no digest. Rank 0
 * sends, rank 1 receives, but for the send-receives, which go both ways. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#define N 8	/* ints of a message */
#define BIG 100 /* ints of a message longer than what a digest reads */
#define W MPI_COMM_WORLD

static int a[N], b[N], c[N], r[N], big1[BIG], big2[BIG];

static void fill(int *v, int n, int seed)
{
	int i;

	for (i = 0; i < n; i++)
		v[i] = seed * 1000 + i;
}

/* payload of the k-th message of a loop: A, A, B, B, A */
static int *loop_payload(int k)
{
	return k == 2 || k == 3 ? b : a;
}

static void sender(void)
{
	static char attached[4 * N * (int)sizeof(int) + 4 * MPI_BSEND_OVERHEAD];
	MPI_Request q[2];
	MPI_Datatype t;
	int k, p[N], sz;
	void *buf;

	MPI_Send(a, N, MPI_INT, 1, 1, W);
	MPI_Send(b, N, MPI_INT, 1, 2, W);
	MPI_Send(a, N, MPI_INT, 1, 3, W);
	/* one call site, other data: never a copy of the last record */
	for (k = 0; k < 5; k++)
		MPI_Send(loop_payload(k), N, MPI_INT, 1, 4, W);
	MPI_Buffer_attach(attached, sizeof(attached));
	MPI_Bsend(a, N, MPI_INT, 1, 5, W);
	MPI_Buffer_detach(&buf, &sz);
	MPI_Ssend(b, N, MPI_INT, 1, 6, W);
	for (k = 0; k < 5; k++) {
		MPI_Isend(loop_payload(k), N, MPI_INT, 1, 8, W, &q[0]);
		MPI_Wait(&q[0], MPI_STATUS_IGNORE);
	}
	/* persistent: each start sends what the buffer holds then */
	MPI_Send_init(p, N, MPI_INT, 1, 9, W, &q[0]);
	memcpy(p, a, sizeof(p));
	MPI_Start(&q[0]);
	MPI_Wait(&q[0], MPI_STATUS_IGNORE);
	memcpy(p, b, sizeof(p));
	MPI_Startall(1, &q[0]);
	MPI_Wait(&q[0], MPI_STATUS_IGNORE);
	MPI_Request_free(&q[0]);
	MPI_Sendrecv(a, N, MPI_INT, 1, 10, r, N, MPI_INT, 1, 10, W, MPI_STATUS_IGNORE);
	memcpy(p, b, sizeof(p));
	MPI_Sendrecv_replace(p, N, MPI_INT, 1, 11, 1, 11, W, MPI_STATUS_IGNORE);
	/* taken by a probe and a receive, a matched probe and receives */
	MPI_Send(a, N, MPI_INT, 1, 12, W);
	MPI_Send(b, N, MPI_INT, 1, 13, W);
	MPI_Send(c, N, MPI_INT, 1, 14, W);
	/* completed by MPI_Waitany, MPI_Waitsome, MPI_Testany */
	for (k = 15; k <= 20; k++)
		MPI_Send(k % 2 ? a : b, N, MPI_INT, 1, k, W);
	/* non-contiguous: every other int */
	MPI_Type_vector(N / 2, 1, 2, MPI_INT, &t);
	MPI_Type_commit(&t);
	MPI_Send(a, 1, t, 1, 21, W);
	MPI_Type_free(&t);
	MPI_Send(a, N / 2, MPI_INT, 1, 22, W);
	/* the first 64 bytes the same, then not; one int less */
	MPI_Send(big1, BIG, MPI_INT, 1, 23, W);
	MPI_Send(big2, BIG, MPI_INT, 1, 24, W);
	MPI_Send(big1, BIG - 1, MPI_INT, 1, 25, W);
	MPI_Send(a, N, MPI_INT, MPI_PROC_NULL, 26, W);
	/* a derived type that is contiguous: the same bytes as tag 1; then, freed, its handle
	 * (MPICH gives it again) to a vector type, whose data have no digest */
	MPI_Type_contiguous(N, MPI_INT, &t);
	MPI_Type_commit(&t);
	MPI_Send(a, 1, t, 1, 27, W);
	MPI_Type_free(&t);
	MPI_Type_vector(N / 2, 1, 2, MPI_INT, &t);
	MPI_Type_commit(&t);
	MPI_Send(a, 1, t, 1, 28, W);
	MPI_Type_free(&t);
}

static void receiver(void)
{
	MPI_Request q[2];
	MPI_Message m;
	MPI_Status st;
	MPI_Datatype t;
	MPI_Status sts[2];
	int k, flag, idx[2], n, done;

	MPI_Recv(r, N, MPI_INT, 0, 1, W, MPI_STATUS_IGNORE);
	MPI_Recv(r, N, MPI_INT, 0, 2, W, MPI_STATUS_IGNORE);
	MPI_Recv(r, N, MPI_INT, MPI_ANY_SOURCE, 3, W, &st);
	for (k = 0; k < 5; k++)
		MPI_Recv(r, N, MPI_INT, 0, 4, W, MPI_STATUS_IGNORE);
	MPI_Recv(r, N, MPI_INT, 0, 5, W, MPI_STATUS_IGNORE);
	MPI_Recv(r, N, MPI_INT, 0, 6, W, MPI_STATUS_IGNORE);
	for (k = 0; k < 5; k++) {
		MPI_Irecv(r, N, MPI_INT, 0, 8, W, &q[0]);
		MPI_Wait(&q[0], MPI_STATUS_IGNORE);
	}
	MPI_Recv_init(r, N, MPI_INT, 0, 9, W, &q[0]);
	for (k = 0; k < 2; k++) {
		MPI_Start(&q[0]);
		MPI_Wait(&q[0], MPI_STATUS_IGNORE);
	}
	MPI_Request_free(&q[0]);
	MPI_Sendrecv(c, N, MPI_INT, 0, 10, r, N, MPI_INT, 0, 10, W, MPI_STATUS_IGNORE);
	memcpy(r, c, sizeof(r));
	MPI_Sendrecv_replace(r, N, MPI_INT, 0, 11, MPI_ANY_SOURCE, 11, W, MPI_STATUS_IGNORE);
	MPI_Probe(0, 12, W, &st);
	MPI_Recv(r, N, MPI_INT, st.MPI_SOURCE, 12, W, MPI_STATUS_IGNORE);
	MPI_Mprobe(0, 13, W, &m, MPI_STATUS_IGNORE);
	MPI_Mrecv(r, N, MPI_INT, &m, MPI_STATUS_IGNORE);
	for (flag = 0; !flag;)
		MPI_Improbe(0, 14, W, &flag, &m, MPI_STATUS_IGNORE);
	MPI_Imrecv(r, N, MPI_INT, &m, &q[0]);
	MPI_Wait(&q[0], MPI_STATUS_IGNORE);
	MPI_Irecv(r, N, MPI_INT, 0, 15, W, &q[0]);
	MPI_Irecv(c, N, MPI_INT, 0, 16, W, &q[1]);
	for (k = 0; k < 2; k++)
		MPI_Waitany(2, q, idx, MPI_STATUS_IGNORE);
	MPI_Irecv(r, N, MPI_INT, 0, 17, W, &q[0]);
	MPI_Irecv(c, N, MPI_INT, 0, 18, W, &q[1]);
	for (done = 0; done < 2; done += n)
		MPI_Waitsome(2, q, &n, idx, sts);
	MPI_Irecv(r, N, MPI_INT, 0, 19, W, &q[0]);
	MPI_Irecv(c, N, MPI_INT, 0, 20, W, &q[1]);
	for (done = 0; done < 2; done += flag)
		MPI_Testany(2, q, idx, &flag, MPI_STATUS_IGNORE);
	MPI_Recv(r, N / 2, MPI_INT, 0, 21, W, MPI_STATUS_IGNORE);
	MPI_Type_vector(N / 2, 1, 2, MPI_INT, &t);
	MPI_Type_commit(&t);
	MPI_Recv(r, 1, t, 0, 22, W, MPI_STATUS_IGNORE);
	MPI_Type_free(&t);
	MPI_Recv(big1, BIG, MPI_INT, 0, 23, W, MPI_STATUS_IGNORE);
	MPI_Recv(big1, BIG, MPI_INT, 0, 24, W, MPI_STATUS_IGNORE);
	MPI_Recv(big1, BIG, MPI_INT, 0, 25, W, MPI_STATUS_IGNORE);
	MPI_Recv(r, N, MPI_INT, MPI_PROC_NULL, 26, W, MPI_STATUS_IGNORE);
	MPI_Recv(r, N, MPI_INT, 0, 27, W, MPI_STATUS_IGNORE);
	MPI_Recv(r, N / 2, MPI_INT, 0, 28, W, MPI_STATUS_IGNORE);
}

int main(int argc, char **argv)
{
	int rank;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(W, &rank);
	fill(a, N, 1);
	fill(b, N, 2);
	fill(c, N, 3);
	fill(big1, BIG, 4);
	fill(big2, BIG, 4);
	big2[50] = -1; /* beyond the first 64 bytes */
	if (rank == 0)
		sender();
	else if (rank == 1)
		receiver();
	MPI_Finalize();
	return 0;
}
