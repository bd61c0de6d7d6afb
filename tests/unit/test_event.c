/* The call tables built from common/mpi_calls.def. */
#include <string.h>

#include "unit.h"

static void test_names_roundtrip(void)
{
	unsigned c;

	for (c = 0; c < MPIV_CALL__COUNT; c++) {
		const char *name = mpiv_call_name(c);

		CU_ASSERT_PTR_NOT_NULL_FATAL(name);
		CU_ASSERT(strncmp(name, "MPI_", 4) == 0);
		CU_ASSERT_EQUAL(mpiv_call_from_name(name), (int)c);
		CU_ASSERT_EQUAL(mpiv_call_from_name(name + 4), (int)c);
	}
	CU_ASSERT_PTR_NULL(mpiv_call_name(MPIV_CALL__COUNT));
	CU_ASSERT_EQUAL(mpiv_call_from_name("MPI_Nonsense"), -1);
	CU_ASSERT_EQUAL(mpiv_call_from_name(NULL), -1);
}

static void test_kinds_and_flags(void)
{
	CU_ASSERT_EQUAL(mpiv_call_kind(MPIV_CALL_Send), MPIV_KIND_SEND);
	CU_ASSERT_EQUAL(mpiv_call_kind(MPIV_CALL_Irecv), MPIV_KIND_IRECV);
	CU_ASSERT_EQUAL(mpiv_call_kind(MPIV_CALL_Waitall), MPIV_KIND_WAIT);
	CU_ASSERT_EQUAL(mpiv_call_kind(MPIV_CALL_Barrier), MPIV_KIND_COLL);
	CU_ASSERT(mpiv_call_flags(MPIV_CALL_Send) & MPIV_F_STANDARD);
	CU_ASSERT(mpiv_call_flags(MPIV_CALL_Ssend) & MPIV_F_SYNC);
	CU_ASSERT(mpiv_call_flags(MPIV_CALL_Init) & MPIV_F_SPECIAL);
	CU_ASSERT_EQUAL(mpiv_call_kind(MPIV_CALL__COUNT), MPIV_KIND_UNSUPPORTED);
}

static void test_site_packing(void)
{
	uint64_t s = MPIV_SITE(3, 0x401234);

	CU_ASSERT_EQUAL(MPIV_SITE_MODULE(s), 3);
	CU_ASSERT_EQUAL(MPIV_SITE_ADDR(s), 0x401234);
}

static CU_TestInfo event_tests[] = {
	{"names round trip", test_names_roundtrip},
	{"kinds and flags", test_kinds_and_flags},
	{"site packing", test_site_packing},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo event_suite = {"event", NULL, NULL, NULL, NULL, event_tests};
