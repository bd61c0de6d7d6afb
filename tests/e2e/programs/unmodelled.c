/* Correct programs that use calls the model does not know yet, one per argument: record must
 * write them, and check must leave out a rank's calls from the first on, naming it, and be
 * inconclusive (exit 5), never give a verdict that ignores it.
 *   intercomm   MPI_Comm_split of an intercommunicator (MPI_Intercomm_create joins the
 *               two halves of MPI_COMM_WORLD)
 *   partitioned MPI-4 partitioned communication from rank 0 to rank 1, the receiver
 *               polling one partition's arrival with MPI_Parrived, the sender receiving
 *               a message between readying its two partitions (the model sends a
 *               partitioned message whole, which is exact only where the sender does not
 *               wait between: examples/ok/partitioned-parrived.c)
 *   large-count MPI-4 large-count sends and receives head to head (MPI_Send_c,
 *               MPI_Recv_c) of 2^31 elements of a type of no bytes: a count past an int,
 *               which the recorder does not follow as the int-count twin's (those are
 *               modelled: examples/deadlock/large-count-head-to-head.c)
 *   large-count-arrays
 *               MPI-4 large-count collectives with arrays: MPI_Allgatherv_c whose counts
 *               fit an int but whose displacements do not (of a type of no bytes), then
 *               MPI_Ialltoallv_c with counts of 2^31 (examples/ok/large-count-arrays.c has
 *               them fit)
 *   persistent-cancel
 *               rank 0 starts a persistent receive no message meets, cancels it and
 *               waits for it, then both ranks meet in a barrier (a nonblocking receive's
 *               cancel is modelled: examples/ok/cancel-irecv.c) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "intercomm";
	int rank, size;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	if (!strcmp(mode, "intercomm")) {
		MPI_Comm half, inter, sub;
		int other = rank % 2 ? 0 : 1; /* the other half's leader, in MPI_COMM_WORLD */

		MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
		MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, other, 5, &inter);
		MPI_Comm_split(inter, 0, rank, &sub);
		MPI_Barrier(sub);
		MPI_Comm_free(&sub);
		MPI_Comm_free(&inter);
		MPI_Comm_free(&half);
	} else if (!strcmp(mode, "persistent-cancel")) {
		MPI_Request req;
		int x = 0;

		if (rank == 0) {
			MPI_Recv_init(&x, 1, MPI_INT, 1, 99, MPI_COMM_WORLD, &req);
			MPI_Start(&req);
			MPI_Cancel(&req);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
			MPI_Request_free(&req);
		}
		MPI_Barrier(MPI_COMM_WORLD);
#if MPI_VERSION >= 4 /* tests/e2e/run.sh runs these with an MPI-4 library only */
	} else if (!strcmp(mode, "partitioned")) {
		MPI_Request req = MPI_REQUEST_NULL;
		int buf[4] = {rank, rank, rank, rank};

		int note = rank;

		if (rank == 0) {
			MPI_Psend_init(buf, 2, 2, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
				       &req);
			MPI_Start(&req);
			MPI_Pready(0, req);
			MPI_Recv(&note, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
			MPI_Pready(1, req);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
		} else if (rank == 1) {
			int arrived = 0;

			MPI_Send(&note, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
			MPI_Precv_init(buf, 2, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_INFO_NULL,
				       &req);
			MPI_Start(&req);
			while (!arrived)
				MPI_Parrived(req, 0, &arrived);
			MPI_Wait(&req, MPI_STATUS_IGNORE);
		}
		if (req != MPI_REQUEST_NULL)
			MPI_Request_free(&req);
	} else if (!strcmp(mode, "large-count")) {
		MPI_Datatype none;
		MPI_Count big = (MPI_Count)1 << 31;
		int out = rank, in = -1;

		MPI_Type_contiguous(0, MPI_INT, &none);
		MPI_Type_commit(&none);
		MPI_Send_c(&out, big, none, 1 - rank, 0, MPI_COMM_WORLD);
		MPI_Recv_c(&in, big, none, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		MPI_Type_free(&none);
	} else if (!strcmp(mode, "large-count-arrays")) {
		MPI_Datatype none;
		MPI_Count counts[2] = {1, 1};
		MPI_Aint big = (MPI_Aint)1 << 31, displs[2] = {big, big + 1};
		MPI_Request req;
		int out = rank, in[2];

		MPI_Type_contiguous(0, MPI_INT, &none);
		MPI_Type_commit(&none);
		MPI_Allgatherv_c(&out, 1, none, in, counts, displs, none, MPI_COMM_WORLD);
		counts[0] = counts[1] = big;
		displs[0] = displs[1] = 0;
		MPI_Ialltoallv_c(&out, counts, displs, none, in, counts, displs, none,
				 MPI_COMM_WORLD, &req);
		MPI_Wait(&req, MPI_STATUS_IGNORE);
		MPI_Type_free(&none);
#endif
	} else {
		fprintf(stderr, "unknown mode '%s'\n", mode);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
	MPI_Finalize();
	return 0;
}
