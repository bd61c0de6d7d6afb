/* Every MPI call the recorder knows of the point-to-point, probe, completion, persistent and
 * collective families, once or more, on two ranks, so that tests/e2e/record-calls.sh can
 * assert what each event records (peer, tag, communicator, bytes, root, matched source and
 * tag, requests). Each message has its own tag; rank 0 sends, rank 1 receives, unless said. */
#include <mpi.h>
#include <stdlib.h>

#define N 4

static int buf[64], rbuf[64];
static MPI_Status sts[4]; /* statuses some calls ask for (others ignore them) */

/* A generalized request's callbacks: nothing to say, free or cancel. */
static int greq_query(void *extra, MPI_Status *status)
{
	(void)extra;
	MPI_Status_set_elements(status, MPI_BYTE, 0);
	MPI_Status_set_cancelled(status, 0);
	status->MPI_SOURCE = MPI_UNDEFINED;
	status->MPI_TAG = MPI_UNDEFINED;
	return MPI_SUCCESS;
}

static int greq_free(void *extra)
{
	(void)extra;
	return MPI_SUCCESS;
}

static int greq_cancel(void *extra, int complete)
{
	(void)extra;
	(void)complete;
	return MPI_SUCCESS;
}

/* Poll request *r with MPI_Test until it completes. */
static void test_until_done(MPI_Request *r)
{
	int flag = 0;

	while (!flag)
		MPI_Test(r, &flag, MPI_STATUS_IGNORE);
}

static void p2p(int rank)
{
	MPI_Request r[4];
	MPI_Status st;

	if (rank == 0) {
		MPI_Send(buf, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
		MPI_Bsend(buf, 2, MPI_INT, 1, 2, MPI_COMM_WORLD);
		MPI_Ssend(buf, 3, MPI_INT, 1, 3, MPI_COMM_WORLD);
		MPI_Barrier(MPI_COMM_WORLD); /* rank 1's receive for the ready send is posted */
		MPI_Rsend(buf, 1, MPI_INT, 1, 4, MPI_COMM_WORLD);
		MPI_Isend(buf, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, &r[0]);
		MPI_Ibsend(buf, 2, MPI_INT, 1, 6, MPI_COMM_WORLD, &r[1]);
		MPI_Issend(buf, 3, MPI_INT, 1, 7, MPI_COMM_WORLD, &r[2]);
		MPI_Waitall(3, r, sts);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Irsend(buf, 1, MPI_INT, 1, 8, MPI_COMM_WORLD, &r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(rbuf, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(rbuf, 2, MPI_INT, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, &st);
		MPI_Recv(rbuf, 3, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Irecv(rbuf, 1, MPI_INT, 0, 4, MPI_COMM_WORLD, &r[0]);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		MPI_Irecv(rbuf, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, &r[0]);
		MPI_Irecv(rbuf + 1, 2, MPI_INT, MPI_ANY_SOURCE, 6, MPI_COMM_WORLD, &r[1]);
		MPI_Irecv(rbuf + 3, 3, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &r[2]);
		MPI_Waitall(3, r, sts);
		MPI_Irecv(rbuf, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &r[0]);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	}
	/* both ranks */
	MPI_Sendrecv(buf, 2, MPI_INT, 1 - rank, 9, rbuf, 2, MPI_INT, 1 - rank, 9, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	MPI_Sendrecv_replace(buf, 1, MPI_INT, 1 - rank, 10, MPI_ANY_SOURCE, 10, MPI_COMM_WORLD,
			     MPI_STATUS_IGNORE);
	MPI_Send(buf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
	MPI_Recv(rbuf, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

static void probes(int rank)
{
	MPI_Status st;
	MPI_Message msg;
	MPI_Request r;
	int flag = 0, tag;

	if (rank == 0) {
		for (tag = 11; tag <= 14; tag++)
			MPI_Send(buf, 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
		return;
	}
	MPI_Probe(MPI_ANY_SOURCE, 11, MPI_COMM_WORLD, &st);
	MPI_Recv(rbuf, 1, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	while (!flag)
		MPI_Iprobe(0, 12, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
	MPI_Recv(rbuf, 1, MPI_INT, 0, 12, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Mprobe(0, 13, MPI_COMM_WORLD, &msg, MPI_STATUS_IGNORE);
	MPI_Mrecv(rbuf, 1, MPI_INT, &msg, MPI_STATUS_IGNORE);
	for (flag = 0; !flag;)
		MPI_Improbe(MPI_ANY_SOURCE, 14, MPI_COMM_WORLD, &flag, &msg, MPI_STATUS_IGNORE);
	MPI_Imrecv(rbuf, 1, MPI_INT, &msg, &r);
	MPI_Wait(&r, MPI_STATUS_IGNORE);
}

static void completions(int rank)
{
	MPI_Request r[2];
	int idx, n, outs[2], flag, tag;

	if (rank == 0) {
		for (tag = 15; tag <= 22; tag++)
			MPI_Send(buf, 1, MPI_INT, 1, tag, MPI_COMM_WORLD);
		MPI_Isend(buf, 1, MPI_INT, 1, 24, MPI_COMM_WORLD, &r[0]);
		MPI_Request_free(&r[0]);
		return;
	}
	MPI_Irecv(rbuf, 1, MPI_INT, 0, 15, MPI_COMM_WORLD, &r[0]);
	MPI_Irecv(rbuf + 1, 1, MPI_INT, 0, 16, MPI_COMM_WORLD, &r[1]);
	MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
	MPI_Wait(&r[1 - idx], MPI_STATUS_IGNORE);
	MPI_Irecv(rbuf, 1, MPI_INT, 0, 17, MPI_COMM_WORLD, &r[0]);
	MPI_Irecv(rbuf + 1, 1, MPI_INT, 0, 18, MPI_COMM_WORLD, &r[1]);
	for (n = 0; n < 2;) {
		int k = 0;

		MPI_Waitsome(2, r, &k, outs, sts);
		n += k;
	}
	MPI_Irecv(rbuf, 1, MPI_INT, 0, 19, MPI_COMM_WORLD, &r[0]);
	test_until_done(&r[0]);
	MPI_Irecv(rbuf, 1, MPI_INT, 0, 20, MPI_COMM_WORLD, &r[0]);
	for (flag = 0; !flag;)
		MPI_Testany(1, r, &idx, &flag, MPI_STATUS_IGNORE);
	MPI_Irecv(rbuf, 1, MPI_INT, 0, 21, MPI_COMM_WORLD, &r[0]);
	MPI_Irecv(rbuf + 1, 1, MPI_INT, 0, 22, MPI_COMM_WORLD, &r[1]);
	for (flag = 0; !flag;)
		MPI_Testall(2, r, &flag, sts);
	MPI_Irecv(rbuf, 1, MPI_INT, 0, 24, MPI_COMM_WORLD, &r[0]);
	for (n = 0; n < 1;)
		MPI_Testsome(1, r, &n, outs, sts);
	/* a receive nobody sends to, cancelled */
	MPI_Irecv(rbuf, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, &r[0]);
	MPI_Cancel(&r[0]);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
	/* a generalized request: a poll before its completion finds nothing */
	MPI_Grequest_start(greq_query, greq_free, greq_cancel, NULL, &r[0]);
	MPI_Test(&r[0], &flag, MPI_STATUS_IGNORE);
	MPI_Grequest_complete(r[0]);
	MPI_Wait(&r[0], MPI_STATUS_IGNORE);
}

static void persistent(int rank)
{
	MPI_Request r[3];
	int i;

	if (rank == 0) {
		MPI_Send_init(buf, 1, MPI_INT, 1, 25, MPI_COMM_WORLD, &r[0]);
		MPI_Bsend_init(buf, 2, MPI_INT, 1, 26, MPI_COMM_WORLD, &r[1]);
		MPI_Ssend_init(buf, 3, MPI_INT, 1, 27, MPI_COMM_WORLD, &r[2]);
		MPI_Startall(3, r);
		MPI_Waitall(3, r, sts);
		MPI_Start(&r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		for (i = 0; i < 3; i++)
			MPI_Request_free(&r[i]);
		MPI_Rsend_init(buf, 1, MPI_INT, 1, 28, MPI_COMM_WORLD, &r[0]);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Start(&r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		MPI_Request_free(&r[0]);
	} else {
		MPI_Recv_init(rbuf, 1, MPI_INT, 0, 25, MPI_COMM_WORLD, &r[0]);
		MPI_Start(&r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		MPI_Recv(rbuf, 2, MPI_INT, 0, 26, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Recv(rbuf, 3, MPI_INT, 0, 27, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Start(&r[0]);
		MPI_Wait(&r[0], MPI_STATUS_IGNORE);
		MPI_Request_free(&r[0]);
		MPI_Irecv(rbuf, 1, MPI_INT, 0, 28, MPI_COMM_WORLD, &r[1]);
		MPI_Barrier(MPI_COMM_WORLD);
		MPI_Wait(&r[1], MPI_STATUS_IGNORE);
	}
}

static void collectives(void)
{
	int counts[2] = {1, 1}, displs[2] = {0, 1}, bytes[2] = {4, 4}, bdispls[2] = {0, 4};
	MPI_Datatype types[2] = {MPI_INT, MPI_INT};
	MPI_Request r;

	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Bcast(buf, 2, MPI_INT, 1, MPI_COMM_WORLD);
	MPI_Reduce(buf, rbuf, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Allreduce(buf, rbuf, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Gather(buf, 1, MPI_INT, rbuf, 1, MPI_INT, 1, MPI_COMM_WORLD);
	MPI_Gatherv(buf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Scatter(buf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Scatterv(buf, counts, displs, MPI_INT, rbuf, 1, MPI_INT, 1, MPI_COMM_WORLD);
	MPI_Allgather(buf, 1, MPI_INT, rbuf, 1, MPI_INT, MPI_COMM_WORLD);
	MPI_Allgatherv(buf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD);
	MPI_Alltoall(buf, 1, MPI_INT, rbuf, 1, MPI_INT, MPI_COMM_WORLD);
	MPI_Alltoallv(buf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD);
	MPI_Alltoallw(buf, counts, bdispls, types, rbuf, counts, bdispls, types, MPI_COMM_WORLD);
	/* in place: the send arguments are ignored, here left NULL */
	MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, MPI_DATATYPE_NULL, rbuf, counts, displs, MPI_INT,
		      MPI_COMM_WORLD);
	MPI_Reduce_scatter(buf, rbuf, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Reduce_scatter_block(buf, rbuf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Scan(buf, rbuf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Exscan(buf, rbuf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	(void)bytes;

#define NB(call)                                 \
	do {                                     \
		call;                            \
		MPI_Wait(&r, MPI_STATUS_IGNORE); \
	} while (0)
	NB(MPI_Ibarrier(MPI_COMM_WORLD, &r));
	NB(MPI_Ibcast(buf, 2, MPI_INT, 1, MPI_COMM_WORLD, &r));
	NB(MPI_Ireduce(buf, rbuf, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &r));
	NB(MPI_Iallreduce(buf, rbuf, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
	NB(MPI_Igather(buf, 1, MPI_INT, rbuf, 1, MPI_INT, 1, MPI_COMM_WORLD, &r));
	NB(MPI_Igatherv(buf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, &r));
	NB(MPI_Iscatter(buf, 1, MPI_INT, rbuf, 1, MPI_INT, 0, MPI_COMM_WORLD, &r));
	NB(MPI_Iscatterv(buf, counts, displs, MPI_INT, rbuf, 1, MPI_INT, 1, MPI_COMM_WORLD, &r));
	NB(MPI_Iallgather(buf, 1, MPI_INT, rbuf, 1, MPI_INT, MPI_COMM_WORLD, &r));
	NB(MPI_Iallgatherv(buf, 1, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD, &r));
	NB(MPI_Ialltoall(buf, 1, MPI_INT, rbuf, 1, MPI_INT, MPI_COMM_WORLD, &r));
	NB(MPI_Ialltoallv(buf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT,
			  MPI_COMM_WORLD, &r));
	NB(MPI_Ialltoallw(buf, counts, bdispls, types, rbuf, counts, bdispls, types, MPI_COMM_WORLD,
			  &r));
	NB(MPI_Ireduce_scatter(buf, rbuf, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
	NB(MPI_Ireduce_scatter_block(buf, rbuf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
	NB(MPI_Iscan(buf, rbuf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
	NB(MPI_Iexscan(buf, rbuf, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r));
}

int main(int argc, char **argv)
{
	int rank, provided, size = 4 * (MPI_BSEND_OVERHEAD + 64);
	void *bsend = malloc((size_t)size);

	MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Buffer_attach(bsend, size);
	p2p(rank);
	probes(rank);
	completions(rank);
	persistent(rank);
	collectives();
	MPI_Buffer_detach(&bsend, &size);
	MPI_Finalize();
	free(bsend);
	return 0;
}
