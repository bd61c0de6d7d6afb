/* A program that runs close to its stack limit, for tests/e2e/recorder.sh: recording must
 * never change its fate. Two ranks recurse until MARGIN bytes are left above the lowest
 * address the stack may reach (the end of the [stack] mapping minus RLIMIT_STACK), then make
 * their point-to-point calls down there, each from a site not seen before: each rank blocks
 * in MPI_Recv for over a second while the other sleeps (long enough for anything a tool does
 * to a blocked call: its stack is sampled after half a second), then Isend/Recv/Wait and
 * Sendrecv; back at the top, a Barrier and an Allreduce (MPICH's take over 100 KiB of stack:
 * down there they would set the margin, not the point-to-point calls).
 * Usage:
 *   rec-stack-limit measure   the same calls near the top of the stack, which is painted
 *                             first: prints "rank R: N bytes used" (the most MPI used)
 *   rec-stack-limit MARGIN    the run close to the limit, MARGIN bytes; prints "rank R: depth
 *                             D, N bytes left" and, from rank 0, "ok" */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define FRAME 1024	    /* bytes of stack each level of the recursion takes, at least */
#define PAINT (1024 * 1024) /* measure: bytes painted below the caller's frame */
#define PAINT_BYTE 0xa5

static char *lowest;  /* the lowest address the stack may grow to */
static size_t margin; /* bytes left below the deepest frame */
static int rank;
static size_t left; /* bytes left below the deepest frame */

/* The end of the [stack] mapping (its highest address), 0 if not found. */
static unsigned long stack_top(void)
{
	unsigned long lo, hi, top = 0;
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "[stack]") && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			top = hi;
	}
	fclose(f);
	return top;
}

/* Block rank `waiter` in MPI_Recv for a second and a half while the other rank sleeps. */
static void blocked_recv(int waiter)
{
	int v = rank;

	if (rank == waiter) {
		MPI_Recv(&v, 1, MPI_INT, 1 - rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	} else {
		usleep(1500 * 1000);
		MPI_Send(&v, 1, MPI_INT, 1 - rank, 1, MPI_COMM_WORLD);
	}
}

/* The MPI calls made at the bottom of the stack. */
static __attribute__((noinline)) void at_the_bottom(void)
{
	int out = rank, in = -1;
	MPI_Request req;

	blocked_recv(0);
	blocked_recv(1);
	MPI_Isend(&out, 1, MPI_INT, 1 - rank, 2, MPI_COMM_WORLD, &req);
	MPI_Recv(&in, 1, MPI_INT, 1 - rank, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	MPI_Wait(&req, MPI_STATUS_IGNORE);
	MPI_Sendrecv(&out, 1, MPI_INT, 1 - rank, 3, &in, 1, MPI_INT, 1 - rank, 3, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE);
	if (in != 1 - rank) {
		fprintf(stderr, "rank %d: wrong data at the bottom\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 2);
	}
}

/* Fill the PAINT bytes below the caller's frame with PAINT_BYTE; returns their lowest
 * address (as a number: the frame is gone by then, its bytes are what is measured). */
static __attribute__((noinline)) uintptr_t paint(void)
{
	volatile char area[PAINT];
	size_t i;

	for (i = 0; i < PAINT; i++)
		area[i] = (char)PAINT_BYTE;
	return (uintptr_t)area;
}

/* The bytes of [low, low + PAINT) written since paint(): from the lowest one overwritten up. */
static __attribute__((noinline)) size_t painted_used(const volatile char *low)
{
	size_t i;

	for (i = 0; i < PAINT && (unsigned char)low[i] == PAINT_BYTE; i++)
		;
	return PAINT - i;
}

/* measure: what the calls at the bottom take below this frame, the most of both ranks. */
static void measure(void)
{
	const volatile char *low = (const volatile char *)paint();
	unsigned long used, most;

	at_the_bottom();
	used = painted_used(low);
	MPI_Allreduce(&used, &most, 1, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
	printf("rank %d: %lu bytes used\n", rank, most);
}

/* Recurse, FRAME bytes a level, until margin bytes are left; returns the depth reached. */
static __attribute__((noinline)) int descend(int depth)
{
	volatile char pad[FRAME];
	char *here = (char *)pad;
	int reached;

	pad[0] = (char)depth;
	if ((size_t)(here - lowest) > margin + 2 * FRAME) {
		reached = descend(depth + 1);
	} else {
		/* printed at the top: printf takes more stack than the MPI calls */
		left = (size_t)(here - lowest);
		at_the_bottom();
		reached = depth;
	}
	return reached + pad[0] - (char)depth;
}

int main(int argc, char **argv)
{
	struct rlimit rl;
	unsigned long top;
	int one = 1, sum = 0, depth;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	if (argc > 1 && !strcmp(argv[1], "measure")) {
		measure();
		MPI_Finalize();
		return 0;
	}
	margin = (size_t)(argc > 1 ? atol(argv[1]) : 16384);
	top = stack_top();
	if (getrlimit(RLIMIT_STACK, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || !top ||
	    rl.rlim_cur > top) {
		fprintf(stderr, "rank %d: no stack limit to run close to (ulimit -s)\n", rank);
		MPI_Abort(MPI_COMM_WORLD, 3);
	}
	lowest = (char *)(top - rl.rlim_cur);
	depth = descend(0);
	printf("rank %d: depth %d, %zu bytes left\n", rank, depth, left);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
	MPI_Finalize();
	if (rank == 0)
		printf("ok\n");
	return 0;
}
