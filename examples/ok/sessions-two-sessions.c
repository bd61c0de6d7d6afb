/* mpiverify-test: np=3 record=ok mpi=4 verify=ok
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * The Sessions model (MPI-4.1 11.3) with two sessions, as a program and a library each with
 * its own: a second session, made and ended inside the first, carries an MPI_Allreduce; then
 * the first session's communicator carries a master that takes one result from each worker
 * in the order they come (MPI_ANY_SOURCE) and broadcasts their total; the process ends with
 * the first session's MPI_Session_finalize. Correct whatever the order of the results and the
 * buffering. */
#include <mpi.h>
#include <stdio.h>

/* A library's own session: made, used for a sum, ended. */
static int library_sum(int value)
{
	MPI_Session session;
	MPI_Group world;
	MPI_Comm comm;
	int sum = -1;

	MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
	MPI_Group_from_session_pset(session, "mpi://WORLD", &world);
	MPI_Comm_create_from_group(world, "library", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &comm);
	MPI_Group_free(&world);
	MPI_Allreduce(&value, &sum, 1, MPI_INT, MPI_SUM, comm);
	MPI_Comm_free(&comm);
	MPI_Session_finalize(&session);
	return sum;
}

int main(void)
{
	MPI_Session session;
	MPI_Group world;
	MPI_Comm comm;
	MPI_Status st;
	int rank, size, val, i, sum, total = 0;

	MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session);
	MPI_Group_from_session_pset(session, "mpi://WORLD", &world);
	MPI_Comm_create_from_group(world, "program", MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &comm);
	MPI_Group_free(&world);
	MPI_Comm_rank(comm, &rank);
	MPI_Comm_size(comm, &size);
	sum = library_sum(rank);
	if (rank == 0) {
		for (i = 1; i < size; i++) {
			MPI_Recv(&val, 1, MPI_INT, MPI_ANY_SOURCE, 0, comm, &st);
			total += val;
		}
	} else {
		val = 2 * rank;
		MPI_Send(&val, 1, MPI_INT, 0, 0, comm);
	}
	MPI_Bcast(&total, 1, MPI_INT, 0, comm);
	if (total != size * (size - 1))
		printf("rank %d: wrong total %d\n", rank, total);
	if (sum != size * (size - 1) / 2)
		printf("rank %d: wrong sum %d\n", rank, sum);
	MPI_Comm_free(&comm);
	MPI_Session_finalize(&session);
	return 0;
}
