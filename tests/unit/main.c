/* The CUnit test runner: one line per suite, each suite defined beside its tests. */
#include <CUnit/Basic.h>

#include "unit.h"

int main(void)
{
	CU_SuiteInfo suites[] = {
		event_suite,	     trace_suite,	   cex_suite,		translate_suite,
		engine_suite,	     reduction_suite,	   warn_suite,		mpilib_suite,
		search_suite,	     verify_suite,	   redcheck_suite,	suppress_suite,
		slurm_suite,	     nodes_suite,	   promela_suite,	recorded_suite,
		segment_suite,	     report_group_suite,   threads_fixed_suite, window_waits_suite,
		stuck_suite,	     verify_threads_suite, verify_rounds_suite, verify_farm_suite,
		launcher_dirs_suite, poll_turns_suite,	   CU_SUITE_INFO_NULL,
	};
	unsigned failed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	if (CU_register_suites(suites) != CUE_SUCCESS)
		return 2;
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
	CU_cleanup_registry();
	unit_tmpdir_remove();
	return failed ? 1 : 0;
}
