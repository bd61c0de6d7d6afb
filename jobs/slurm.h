/* Slurm as the launcher: what mpiverify needs to know of `srun` and of the allocation it may run
 * in, so that verify's runs are job steps sized to the program (doc/cluster.md). */
#ifndef MPIV_SLURM_H
#define MPIV_SLURM_H

/* Whether argv[0] is Slurm's srun (by its name, wherever it is found). */
int slurm_is_srun(char *const *argv);

/* Whether mpiverify runs inside a Slurm allocation (SLURM_JOB_ID is set). */
int slurm_in_allocation(void);

/* The command of one of verify's runs as a job step of its own size: argv with `--exact`
 * after srun, unless it has `--exact` or `--exclusive` already. Without it, a step takes every
 * CPU of the allocation and steps run one after another. Returns a malloc'ed NULL-terminated
 * vector (the strings are argv's, not copied), or NULL when argv is not an srun command. */
char **slurm_step_command(char *const *argv);

/* The CPUs of the allocation mpiverify runs in: SLURM_NTASKS, else the sum of
 * SLURM_JOB_CPUS_PER_NODE ("8(x2),4" is 20); 0 outside an allocation or when neither says. */
int slurm_allocation_cpus(void);

/* Whether the launcher's output (a run's output file) says that a node of the step failed
 * (srun's "Node failure", Slurm's NODE_FAIL): the run did not end by itself and proves
 * nothing. */
int slurm_node_failed(const char *output_path);

#endif
