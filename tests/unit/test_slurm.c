/* Slurm as verify's launcher (jobs/slurm.c): a run's srun command as a job step of its own size,
 * the CPUs of the allocation, a step lost with its node. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "slurm.h"
#include "unit.h"

static void test_step_command(void)
{
	char *srun[] = {"/usr/bin/srun", "-n", "4", "--mpi=pmi2", "./app", NULL};
	char *sized[] = {"srun", "--exact", "-n", "4", "./app", NULL};
	char *mpirun[] = {"mpirun", "-np", "4", "./app", NULL};
	char **c;

	CU_ASSERT(slurm_is_srun(srun));
	CU_ASSERT(!slurm_is_srun(mpirun));
	c = slurm_step_command(srun);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_STRING_EQUAL(c[0], "/usr/bin/srun");
	CU_ASSERT_STRING_EQUAL(c[1], "--exact");
	CU_ASSERT_STRING_EQUAL(c[2], "-n");
	CU_ASSERT_STRING_EQUAL(c[5], "./app");
	CU_ASSERT_PTR_NULL(c[6]);
	free(c);
	/* sized already: left as it is */
	c = slurm_step_command(sized);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_STRING_EQUAL(c[1], "--exact");
	CU_ASSERT_STRING_EQUAL(c[2], "-n");
	free(c);
	CU_ASSERT_PTR_NULL(slurm_step_command(mpirun));
}

static void test_allocation_cpus(void)
{
	unsetenv("SLURM_JOB_ID");
	setenv("SLURM_NTASKS", "8", 1);
	CU_ASSERT_EQUAL(slurm_allocation_cpus(), 0); /* not in an allocation */
	setenv("SLURM_JOB_ID", "12", 1);
	CU_ASSERT_EQUAL(slurm_allocation_cpus(), 8);
	unsetenv("SLURM_NTASKS");
	setenv("SLURM_JOB_CPUS_PER_NODE", "8(x2),4", 1);
	CU_ASSERT_EQUAL(slurm_allocation_cpus(), 20);
	setenv("SLURM_JOB_CPUS_PER_NODE", "8(x2", 1);
	CU_ASSERT_EQUAL(slurm_allocation_cpus(), 0);
	setenv("SLURM_JOB_CPUS_PER_NODE", "x", 1);
	CU_ASSERT_EQUAL(slurm_allocation_cpus(), 0);
	unsetenv("SLURM_JOB_CPUS_PER_NODE");
	unsetenv("SLURM_JOB_ID");
}

static void test_node_failed(void)
{
	char path[] = "/tmp/mpiverify-unit-slurm.XXXXXX";
	int fd = mkstemp(path);
	FILE *f;

	CU_ASSERT_FATAL(fd >= 0);
	f = fdopen(fd, "w");
	fputs("rank 0: hello\nsrun: error: Node failure on node7\n", f);
	fclose(f);
	CU_ASSERT(slurm_node_failed(path));
	f = fopen(path, "w");
	/* the program's own words are not srun's */
	fputs("rank 0: Node failure on node7\nsrun: error: node7: task 1: Exited\n", f);
	fclose(f);
	CU_ASSERT(!slurm_node_failed(path));
	unlink(path);
	CU_ASSERT(!slurm_node_failed(path));
}

static CU_TestInfo slurm_tests[] = {
	{"a run's srun command is a job step of its own size", test_step_command},
	{"the CPUs of the allocation", test_allocation_cpus},
	{"a step lost with its node", test_node_failed},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo slurm_suite = {"slurm", NULL, NULL, NULL, NULL, slurm_tests};
