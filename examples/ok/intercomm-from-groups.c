/* mpiverify-test: np=4 record=ok mpi=4 verify=ok verify-runs=1
 * mpiverify-test: buffering=zero expect=ok
 * mpiverify-test: buffering=infinite expect=ok
 * mpiverify-test: buffering=eager:1024 expect=ok
 * MPI_Intercomm_create_from_groups (MPI-4.1 7.6.2), an intercommunicator made from two groups
 * with no communicator: the even and the odd world ranks, their leaders world ranks 0 and 1,
 * the string tag "evens-odds". Across it each even rank sends to the odd rank of the same
 * rank in its group, which answers; the two groups then merge it and sum over the merge. A
 * second intercommunicator, made from the same groups with another tag, carries one more
 * round the other way and is disconnected. Correct whatever the buffering. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	int rank, size, me, color, v = 0, sum = 0, i, n = 0;
	int evens[8], odds[8];
	MPI_Group world, mine, other;
	MPI_Comm inter, again, merged;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (i = 0; i < size && i < 16; i += 2, n++) {
		evens[n] = i;
		odds[n] = i + 1;
	}
	MPI_Comm_group(MPI_COMM_WORLD, &world);
	color = rank % 2;
	MPI_Group_incl(world, n, color ? odds : evens, &mine);
	MPI_Group_incl(world, n, color ? evens : odds, &other);
	MPI_Group_rank(mine, &me);
	MPI_Intercomm_create_from_groups(mine, 0, other, 0, "evens-odds", MPI_INFO_NULL,
					 MPI_ERRORS_ARE_FATAL, &inter);
	if (color == 0) {
		v = rank;
		MPI_Send(&v, 1, MPI_INT, me, 0, inter);
		MPI_Recv(&v, 1, MPI_INT, me, 0, inter, MPI_STATUS_IGNORE);
	} else {
		MPI_Recv(&v, 1, MPI_INT, me, 0, inter, MPI_STATUS_IGNORE);
		v += 100;
		MPI_Send(&v, 1, MPI_INT, me, 0, inter);
	}
	MPI_Intercomm_merge(inter, color, &merged);
	MPI_Allreduce(&v, &sum, 1, MPI_INT, MPI_SUM, merged);
	MPI_Intercomm_create_from_groups(mine, 0, other, 0, "odds-evens", MPI_INFO_NULL,
					 MPI_ERRORS_ARE_FATAL, &again);
	if (color == 1)
		MPI_Send(&sum, 1, MPI_INT, me, 1, again);
	else
		MPI_Recv(&sum, 1, MPI_INT, me, 1, again, MPI_STATUS_IGNORE);
	printf("rank %d: %d, sum %d\n", rank, v, sum);
	MPI_Comm_disconnect(&again);
	MPI_Comm_free(&merged);
	MPI_Comm_free(&inter);
	MPI_Group_free(&other);
	MPI_Group_free(&mine);
	MPI_Group_free(&world);
	MPI_Finalize();
	return 0;
}
