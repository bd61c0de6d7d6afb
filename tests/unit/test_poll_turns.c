/* Receives polled in turn (explore/poll_turns.c): which runs show a rank acting on which of
 * several polls found a message first, a decision verify does not steer. */
#include "explore.h"
#include "unit.h"

#define INIT "{\"call\": \"MPI_Init\"}"
#define FIN "{\"call\": \"MPI_Finalize\"}"
#define SEND_TO_0 "{\"call\": \"MPI_Send\", \"peer\": 0, \"tag\": 0, \"comm\": 0, \"bytes\": 4}"
/* rank 0's receive of request id from rank peer */
#define IRECV(peer, id)                                                                         \
	"{\"call\": \"MPI_Irecv\", \"peer\": " #peer ", \"tag\": 0, \"comm\": 0, \"bytes\": 4," \
	" \"reqs\": [{\"req\": " #id "}]}"
/* an MPI_Test of request id that found nothing, and one that completed it (from rank src) */
#define TEST_MISS(id) "{\"call\": \"MPI_Test\", \"pending\": 1, \"reqs\": [{\"req\": " #id "}]}"
#define TEST_HIT(id, src) \
	"{\"call\": \"MPI_Test\", \"reqs\": [{\"req\": " #id ", \"src\": " #src ", \"tag\": 0}]}"
#define IPROBE_MISS(peer) "{\"call\": \"MPI_Iprobe\", \"peer\": " #peer ", \"tag\": 0, \"comm\": 0}"
#define IPROBE_HIT(peer, src)                                                                     \
	"{\"call\": \"MPI_Iprobe\", \"peer\": " #peer ", \"tag\": 0, \"comm\": 0, \"src\": " #src \
	", \"mtag\": 0}"
#define IPROBE_ANY_MISS "{\"call\": \"MPI_Iprobe\", \"peer\": \"any\", \"tag\": 0, \"comm\": 0}"
#define IPROBE_ANY_HIT(src)                                                                     \
	"{\"call\": \"MPI_Iprobe\", \"peer\": \"any\", \"tag\": 0, \"comm\": 0, \"src\": " #src \
	", \"mtag\": 0}"
#define ISEND_TO_1(id)                                                                  \
	"{\"call\": \"MPI_Isend\", \"peer\": 1, \"tag\": 1, \"comm\": 0, \"bytes\": 4," \
	" \"reqs\": [{\"req\": " #id "}]}"
#define TEST_DONE(id) "{\"call\": \"MPI_Test\", \"reqs\": [{\"req\": " #id "}]}"
#define SEND_TO(peer) \
	"{\"call\": \"MPI_Send\", \"peer\": " #peer ", \"tag\": 0, \"comm\": 0, \"bytes\": 4}"
#define TESTANY_MISS \
	"{\"call\": \"MPI_Testany\", \"pending\": 2, \"reqs\": [{\"req\": 0}, {\"req\": 1}]}"
#define TESTANY_HIT(id, src)                                                                       \
	"{\"call\": \"MPI_Testany\", \"pending\": 1, \"reqs\": [{\"req\": " #id ", \"src\": " #src \
	", \"tag\": 0}, {\"req\": 0}]}"
#define TESTANY_HIT2                                                                       \
	"{\"call\": \"MPI_Testany\", \"pending\": 1, \"reqs\": [{\"req\": 0, \"src\": 1, " \
	"\"tag\": 0}, {\"req\": 2}]}"
#define RECV_FROM(src)                                                                        \
	"{\"call\": \"MPI_Recv\", \"peer\": " #src ", \"tag\": 0, \"comm\": 0, \"bytes\": 4," \
	" \"src\": " #src ", \"mtag\": 0}"

/* Whether the run of rank 0's events (ranks 1 and 2 each send it one message) polls in
 * turn. */
static int polls_in_turn(const char *rank0)
{
	const char *const ranks[] = {rank0, "[" INIT ", " SEND_TO_0 ", " FIN "]",
				     "[" INIT ", " SEND_TO_0 ", " FIN "]", NULL};
	struct mpiv_traceset ts;
	char why[1024];
	int turns;

	if (unit_load_case(ranks, &ts))
		return -1;
	turns = explore_poll_turns(&ts, why, sizeof(why));
	mpiv_traceset_release(&ts);
	return turns;
}

/* clang-format off */
/* The master tests worker 1's request, finds nothing, tests worker 2's, which has come, and
 * answers worker 2 first. */
static const char turn_tests[] = "[" INIT ", " IRECV(1, 0) ", " IRECV(2, 1) ", "
	TEST_MISS(0) ", " TEST_HIT(1, 2) ", " SEND_TO(2) ", " TEST_HIT(0, 1) ", " SEND_TO(1) ", "
	FIN "]";
/* the same with MPI_Iprobe of each worker, and the receive of what it found */
static const char turn_probes[] = "[" INIT ", " IPROBE_MISS(1) ", " IPROBE_HIT(2, 2) ", "
	RECV_FROM(2) ", " SEND_TO(2) ", " IPROBE_HIT(1, 1) ", " RECV_FROM(1) ", " SEND_TO(1) ", "
	FIN "]";
/* each found at its first test while the other worker's waited: the farm, or a loop over an
 * array that tests each until it comes; no run shows which */
static const char turn_unseen[] = "[" INIT ", " IRECV(1, 0) ", " IRECV(2, 1) ", "
	TEST_HIT(0, 1) ", " SEND_TO(1) ", " TEST_HIT(1, 2) ", " SEND_TO(2) ", " FIN "]";

/* Each receive tested until it comes, then the next, over an array of requests (a test that
 * found nothing is followed by a test of the same while the other waits) */
static const char one_array[] = "[" INIT ", " IRECV(1, 0) ", " IRECV(2, 1) ", "
	TEST_MISS(0) ", " TEST_HIT(0, 1) ", " TEST_MISS(1) ", " TEST_HIT(1, 2) ", " FIN "]";
/* or the next posted after the last came (a time step's) */
static const char one_steps[] = "[" INIT ", " IRECV(1, 0) ", " TEST_MISS(0) ", "
	TEST_HIT(0, 1) ", " SEND_TO(1) ", " IRECV(2, 1) ", " TEST_MISS(1) ", " TEST_HIT(1, 2) ", "
	SEND_TO(2) ", " FIN "]";
/* MPI_Testany over the workers' requests: its outcome is a decision verify steers */
static const char one_testany[] = "[" INIT ", " IRECV(1, 0) ", " IRECV(2, 1) ", "
	TESTANY_MISS ", " TESTANY_HIT(1, 2) ", " SEND_TO(2) ", " IRECV(2, 2) ", " TESTANY_HIT2 ", "
	SEND_TO(1) ", " FIN "]";
/* a wildcard probe, with a test of something else between (the NBX exchange tests its
 * barrier's request) */
static const char one_nbx[] = "[" INIT ", " ISEND_TO_1(0) ", " IPROBE_ANY_MISS ", "
	TEST_MISS(0) ", " IPROBE_ANY_HIT(2) ", " RECV_FROM(2) ", " IPROBE_ANY_HIT(1) ", "
	RECV_FROM(1) ", " TEST_DONE(0) ", " FIN "]";
/* receives from one peer, each found at its first test: MPI's order is theirs */
static const char one_peer[] = "[" INIT ", " IRECV(1, 0) ", " IRECV(1, 1) ", "
	TEST_HIT(0, 1) ", " TEST_HIT(1, 1) ", " SEND_TO(1) ", " FIN "]";
/* clang-format on */

static void test_tests_in_turn(void)
{
	CU_ASSERT_EQUAL(polls_in_turn(turn_tests), 1);
	CU_ASSERT_EQUAL(polls_in_turn(turn_probes), 1);
	CU_ASSERT_EQUAL(polls_in_turn(turn_unseen), 1);
}

static void test_no_turns(void)
{
	CU_ASSERT_EQUAL(polls_in_turn(one_array), 0);
	CU_ASSERT_EQUAL(polls_in_turn(one_steps), 0);
	CU_ASSERT_EQUAL(polls_in_turn(one_testany), 0);
	CU_ASSERT_EQUAL(polls_in_turn(one_nbx), 0);
	CU_ASSERT_EQUAL(polls_in_turn(one_peer), 0);
}

static CU_TestInfo tests[] = {
	{"receives tested in turn", test_tests_in_turn},
	{"receives polled with no turn", test_no_turns},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo poll_turns_suite = {"poll turns", NULL, NULL, NULL, NULL, tests};
