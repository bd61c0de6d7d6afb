/* What mpiverify knows of MPI libraries (base/mpilib.c), and the ELF reader that tells which
 * one a program links (common/elfneeded.c). */
#include <stdio.h>
#include <string.h>

#include "elfneeded.h"
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
	/* Debian's Open MPI, as its MPI_Get_library_version says it; not another build */
	CU_ASSERT_EQUAL(mpiv_mpilib_eager("Open MPI v4.1.4, package: Debian OpenMPI, ident: "
					  "4.1.4, repo rev: v4.1.4, May 26, 2022"),
			4040);
	CU_ASSERT_EQUAL(mpiv_mpilib_eager("Open MPI v4.1.4"), -1);
	CU_ASSERT_EQUAL(mpiv_mpilib_eager("Open MPI v4.1.5, package: Debian OpenMPI, ident: "
					  "4.1.5, repo rev: v4.1.5, Feb 23, 2023"),
			-1);
	CU_ASSERT_EQUAL(mpiv_mpilib_eager(""), -1);
	CU_ASSERT_EQUAL(mpiv_mpilib_eager(NULL), -1);
}

static const char *lib_name(const struct mpiv_mpilib *lib)
{
	return lib ? lib->name : "none";
}

static void test_soname(void)
{
	/* Debian's MPICH and Open MPI, and their language bindings */
	CU_ASSERT_STRING_EQUAL(lib_name(mpiv_mpilib_of_soname("libmpich.so.12")), "mpich");
	CU_ASSERT_STRING_EQUAL(lib_name(mpiv_mpilib_of_soname("libmpi.so.12")), "mpich");
	CU_ASSERT_STRING_EQUAL(lib_name(mpiv_mpilib_of_soname("libmpichfort.so.12")), "mpich");
	CU_ASSERT_STRING_EQUAL(lib_name(mpiv_mpilib_of_soname("libmpi.so.40")), "openmpi");
	CU_ASSERT_STRING_EQUAL(lib_name(mpiv_mpilib_of_soname("libmpi_mpifh.so.40")), "openmpi");
	CU_ASSERT_STRING_EQUAL(lib_name(mpiv_mpilib_of_soname("libmpi_usempif08.so.40")),
			       "openmpi");
	/* the MPICH ABI under other names: Intel MPI, MVAPICH, Cray MPICH */
	CU_ASSERT_STRING_EQUAL(lib_name(mpiv_mpilib_of_soname("libmpi_cray.so.12")), "mpich");
	CU_ASSERT_STRING_EQUAL(lib_name(mpiv_mpilib_of_soname("libmpi_gnu_123.so.12")), "mpich");
	CU_ASSERT_PTR_NULL(mpiv_mpilib_of_soname("libfoo.so.12"));
	/* MPI libraries by their names, known or not; a profiler is none */
	CU_ASSERT_TRUE(mpiv_mpilib_named_like("libmpi_mt.so"));
	CU_ASSERT_TRUE(mpiv_mpilib_named_like("libmpi.so.99"));
	CU_ASSERT_TRUE(mpiv_mpilib_named_like("libmpich.so"));
	CU_ASSERT_FALSE(mpiv_mpilib_named_like("libmpiP.so"));
	CU_ASSERT_FALSE(mpiv_mpilib_named_like("libc.so.6"));
	CU_ASSERT_FALSE(mpiv_mpilib_named_like(NULL));
	/* not MPI, or an MPI library of unknown ABI: not told */
	CU_ASSERT_PTR_NULL(mpiv_mpilib_of_soname("libc.so.6"));
	CU_ASSERT_PTR_NULL(mpiv_mpilib_of_soname("libmpi.so.99"));
	CU_ASSERT_PTR_NULL(mpiv_mpilib_of_soname("libmpiP.so"));
	CU_ASSERT_PTR_NULL(mpiv_mpilib_of_soname("libmpich.so"));
	CU_ASSERT_PTR_NULL(mpiv_mpilib_of_soname(""));
	CU_ASSERT_PTR_NULL(mpiv_mpilib_of_soname(NULL));
}

/* The language bindings, whose calls of the C library the preload libraries redirect
 * (preload/rec_bindings.c), and not the C library itself. */
static void test_binding(void)
{
	CU_ASSERT_TRUE(mpiv_mpilib_binding("libmpichfort.so.12"));
	CU_ASSERT_TRUE(mpiv_mpilib_binding("libmpi_mpifh.so.40"));
	CU_ASSERT_TRUE(mpiv_mpilib_binding("libmpi_usempif08.so.40"));
	CU_ASSERT_TRUE(mpiv_mpilib_binding("libmpi_usempi_ignore_tkr.so.40"));
	CU_ASSERT_FALSE(mpiv_mpilib_binding("libmpich.so.12"));
	CU_ASSERT_FALSE(mpiv_mpilib_binding("libmpi.so.40"));
	CU_ASSERT_FALSE(mpiv_mpilib_binding("libgfortran.so.5"));
	CU_ASSERT_FALSE(mpiv_mpilib_binding(""));
	CU_ASSERT_FALSE(mpiv_mpilib_binding(NULL));
}

static void test_launcher(void)
{
	CU_ASSERT_STRING_EQUAL(lib_name(mpiv_mpilib_of_launcher("mpiexec.hydra")), "mpich");
	CU_ASSERT_STRING_EQUAL(lib_name(mpiv_mpilib_of_launcher("mpirun.mpich")), "mpich");
	CU_ASSERT_STRING_EQUAL(lib_name(mpiv_mpilib_of_launcher("orterun")), "openmpi");
	CU_ASSERT_STRING_EQUAL(lib_name(mpiv_mpilib_of_launcher("mpirun.openmpi")), "openmpi");
	/* a generic name says nothing: what it links to does */
	CU_ASSERT_PTR_NULL(mpiv_mpilib_of_launcher("mpirun"));
	CU_ASSERT_PTR_NULL(mpiv_mpilib_of_launcher("srun"));
	CU_ASSERT_PTR_NULL(mpiv_mpilib_of_launcher("/usr/bin/orterun"));
	CU_ASSERT_STRING_EQUAL(lib_name(mpiv_mpilib_named("openmpi")), "openmpi");
	CU_ASSERT_PTR_NULL(mpiv_mpilib_named("lam"));
	/* Hydra passes every variable on; Open MPI's mpirun is told which */
	CU_ASSERT_PTR_NULL(mpiv_mpilib_named("mpich")->forward_env);
	CU_ASSERT_STRING_EQUAL(mpiv_mpilib_named("openmpi")->forward_env,
			       "OMPI_MCA_mca_base_env_list");
}

static void test_elf_needed(void)
{
	struct mpiv_elf_needed n;
	struct mpiv_error err;
	char path[256];
	size_t i;
	int jansson = 0;
	FILE *f;

	/* this program links Jansson (as the makefile has it) */
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL_FATAL(mpiv_elf_needed_file("/proc/self/exe", &n, &err), 0);
	for (i = 0; i < n.n; i++)
		if (!strncmp(n.names[i], "libjansson.so.", 14))
			jansson = 1;
	CU_ASSERT(jansson);
	/* run by the dynamic loader, with no MPI handle of Open MPI's */
	CU_ASSERT_TRUE(n.interp);
	CU_ASSERT_FALSE(n.ompi_abi);
	mpiv_elf_needed_release(&n);

	/* a script, a missing file, a truncated ELF header: errors naming the file */
	snprintf(path, sizeof(path), "%s/script", unit_tmpdir());
	f = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs("#!/bin/sh\nexec ./app\n", f);
	fclose(f);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_elf_needed_file(path, &n, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.source, path);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.text, "not an ELF file"));
	CU_ASSERT_EQUAL(n.n, 0);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_elf_needed_file("/no/such/program", &n, &err), -1);
	CU_ASSERT_EQUAL(err.code, MPIV_EXIT_BAD_INPUT);
	mpiv_error_init(&err);
	CU_ASSERT_EQUAL(mpiv_elf_needed_mem("\177ELF\2\1\1", 7, "short", &n, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.source, "short");
}

static CU_TestInfo mpilib_tests[] = {
	{"eager thresholds", test_eager},
	{"MPI libraries by shared object name", test_soname},
	{"language bindings by shared object name", test_binding},
	{"MPI libraries by launcher", test_launcher},
	{"needed shared objects of an ELF file", test_elf_needed},
	CU_TEST_INFO_NULL,
};

CU_SuiteInfo mpilib_suite = {"mpilib", NULL, NULL, NULL, NULL, mpilib_tests};
