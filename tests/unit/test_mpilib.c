/* What mpiverify knows of MPI libraries (common/mpilib.c). */
#include "mpilib.h"
#include "unit.h"

static void test_eager(void)
{
	/* as MPICH prints it (a tab), and with the white space folded */
	CU_ASSERT_EQUAL(mpiv_mpilib_eager("MPICH Version:\t4.0.2"), 8255);
	CU_ASSERT_EQUAL(mpiv_mpilib_eager("MPICH Version:    \t4.0.2  "), 8255);
	/* another version, another library, nothing: not known */
	CU_ASSERT_EQUAL(mpiv_mpilib_eager("MPICH Version:\t4.0.20"), -1);
	CU_ASSERT_EQUAL(mpiv_mpilib_eager("MPICH Version:\t4.0"), -1);
	CU_ASSERT_EQUAL(mpiv_mpilib_eager("Open MPI v4.1.4"), -1);
	CU_ASSERT_EQUAL(mpiv_mpilib_eager(""), -1);
	CU_ASSERT_EQUAL(mpiv_mpilib_eager(NULL), -1);
}

static CU_TestInfo mpilib_tests[] = {
	{"eager thresholds", test_eager},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo mpilib_suite = {"mpilib", NULL, NULL, NULL, NULL, mpilib_tests};
