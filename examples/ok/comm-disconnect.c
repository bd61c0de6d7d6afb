/* mpiverify-test: np=4 record=ok verify=ok verify-runs=1
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * mpiverify-test: buffering=eager:1024 expect=ok
 * MPI_Comm_disconnect (MPI-4.1 11.10.4) of communicators that are not dynamic processes':
 * a duplicate of MPI_COMM_WORLD, on which every rank sends to the next and receives from the
 * previous with nonblocking calls completed before the call (it "may be called only if all
 * communication is complete and matched"), and an intercommunicator between the even and
 * the odd ranks, with a reply across it. Each is a collective that may synchronise (Open
 * MPI's does, MPICH's does not) and lets go of the communicator, which MPI sets to
 * MPI_COMM_NULL: check reports no communicator left unfreed. Correct whatever the buffering. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, me, color, in = -1, out, v = 0;
	MPI_Comm dup, half, inter;
	MPI_Request reqs[2];
	MPI_Status st[2];

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_dup(MPI_COMM_WORLD, &dup);
	out = rank;
	MPI_Irecv(&in, 1, MPI_INT, (rank + size - 1) % size, 0, dup, &reqs[0]);
	MPI_Isend(&out, 1, MPI_INT, (rank + 1) % size, 0, dup, &reqs[1]);
	MPI_Waitall(2, reqs, st);
	MPI_Comm_disconnect(&dup);

	color = rank % 2;
	MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);
	MPI_Comm_rank(half, &me);
	MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, 1 - color, 3, &inter);
	if (color == 0) {
		v = in;
		MPI_Send(&v, 1, MPI_INT, me, 0, inter);
		MPI_Recv(&v, 1, MPI_INT, me, 0, inter, MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(&v, 1, MPI_INT, me, 0, inter, MPI_STATUS_IGNORE);
		v += in;
		MPI_Send(&v, 1, MPI_INT, me, 0, inter);
	}
	MPI_Comm_disconnect(&inter);
	MPI_Comm_free(&half);
	printf("rank %d: %d, %s\n", rank, v,
	       dup == MPI_COMM_NULL && inter == MPI_COMM_NULL ? "disconnected" : "still set");
	MPI_Finalize();
	return 0;
}
