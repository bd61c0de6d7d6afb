/* What mpiverify knows of particular MPI libraries: which library a program or a launcher
 * belongs to, so that record, replay and verify preload the right build of their libraries
 * (jobs/mpi_pick.c); their eager thresholds, so that `check --buffering all` can also search
 * with the buffering of the library the run used. */
#include <string.h>

#include "mpilib.h"

/* Hydra (MPICH's mpiexec) passes its whole environment to the ranks; Open MPI's mpirun gives
 * remote ranks only the variables named by -x or by the MCA parameter mca_base_env_list. */
static const struct mpiv_mpilib mpich = {"mpich", "MPICH", "mpich libmpich-dev", NULL, 0};
static const struct mpiv_mpilib openmpi = {"openmpi", "Open MPI", "openmpi-bin libopenmpi-dev",
					   "OMPI_MCA_mca_base_env_list", ';'};

/* What programs link: the C library and the language bindings (a Fortran or C++ program may
 * name only those). MPICH installs libmpi.so.12 beside libmpich.so.12 (its ABI, which Intel
 * MPI shares); Open MPI's libmpi is .so.40 since 3.0 (.so.20 in 2.x). A prefix ends in '.'.
 * binding: a language binding, whose functions call the C library's for the program (Open
 * MPI's Fortran bindings, MPICH's mpi_f08, through PMPI_*: preload/rec_bindings.c). */
static const struct {
	const char *soname;
	const struct mpiv_mpilib *lib;
	int binding;
} sonames[] = {
	{"libmpich.so.", &mpich, 0},
	{"libmpi.so.12", &mpich, 0},
	{"libmpichfort.so.", &mpich, 1},
	{"libmpifort.so.", &mpich, 1},
	{"libmpichcxx.so.", &mpich, 1},
	{"libmpicxx.so.", &mpich, 1},
	{"libmpi.so.40", &openmpi, 0},
	{"libmpi.so.20", &openmpi, 0},
	{"libmpi_mpifh.so.", &openmpi, 1},
	{"libmpi_usempif08.so.", &openmpi, 1},
	{"libmpi_usempi_ignore_tkr.so.", &openmpi, 1},
	{"libmpi_cxx.so.", &openmpi, 1},
};

/* Launchers by file name, symbolic links followed (Debian's mpirun.openmpi is a link to
 * orterun, mpirun.mpich to mpiexec.hydra). */
static const struct {
	const char *name;
	const struct mpiv_mpilib *lib;
} launchers[] = {
	{"mpiexec.hydra", &mpich},    {"mpirun.mpich", &mpich},	     {"mpiexec.mpich", &mpich},
	{"mpiexec.gforker", &mpich},  {"orterun", &openmpi},	     {"prterun", &openmpi},
	{"mpirun.openmpi", &openmpi}, {"mpiexec.openmpi", &openmpi},
};

const struct mpiv_mpilib *mpiv_mpilib_named(const char *name)
{
	if (name && !strcmp(name, mpich.name))
		return &mpich;
	if (name && !strcmp(name, openmpi.name))
		return &openmpi;
	return NULL;
}

/* The index of soname's entry in sonames[], or -1. */
static int soname_entry(const char *soname)
{
	size_t i, n;

	for (i = 0; soname && i < sizeof(sonames) / sizeof(sonames[0]); i++) {
		n = strlen(sonames[i].soname);
		if (sonames[i].soname[n - 1] == '.' ? !strncmp(soname, sonames[i].soname, n) :
						      !strcmp(soname, sonames[i].soname))
			return (int)i;
	}
	return -1;
}

/* Whether soname is an MPI library's by its name: libmpi.*, libmpi_*, libmpich* (not
 * libmpiP, a profiler). */
int mpiv_mpilib_named_like(const char *soname)
{
	return soname && (!strncmp(soname, "libmpi.", 7) || !strncmp(soname, "libmpi_", 7) ||
			  !strncmp(soname, "libmpich", 8));
}

/* The MPICH ABI Compatibility Initiative fixes the C library's major version at 12 whatever
 * its name: Intel MPI's and MVAPICH's libmpi.so.12, Cray MPICH's libmpi_cray.so.12 and
 * libmpi_gnu_123.so.12. */
static int mpich_abi(const char *soname)
{
	size_t n = soname ? strlen(soname) : 0;

	return mpiv_mpilib_named_like(soname) && n > 6 && !strcmp(soname + n - 6, ".so.12");
}

const struct mpiv_mpilib *mpiv_mpilib_of_soname(const char *soname)
{
	int i = soname_entry(soname);

	if (i < 0)
		return mpich_abi(soname) ? &mpich : NULL;
	return sonames[i].lib;
}

const struct mpiv_mpilib *mpiv_mpilib_openmpi_abi(void)
{
	return &openmpi;
}

int mpiv_mpilib_binding(const char *soname)
{
	int i = soname_entry(soname);

	return i >= 0 && sonames[i].binding;
}

const struct mpiv_mpilib *mpiv_mpilib_of_launcher(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(launchers) / sizeof(launchers[0]); i++)
		if (!strcmp(name, launchers[i].name))
			return launchers[i].lib;
	return NULL;
}

struct eager {
	const char *version; /* the first line of MPI_Get_library_version, whitespace folded */
	long long eager;     /* largest standard send completed without its receive, bytes */
};

/* Measured, not read from documentation (bench/eager-threshold.sh): two ranks on one host
 * each MPI_Send N bytes to the other before receiving; the largest N that completes.
 *  - Debian 12's mpich 4.0.2 (device ch4:ucx, shared memory between the ranks): 8255
 *    completes, 8256 hangs. MPIR_CVAR settings change it.
 *  - Debian 12's Open MPI 4.1.4 (pml ob1, btl vader: shared memory; Debian's
 *    /etc/openmpi/openmpi-mca-params.conf leaves out pml ucx): 4040 completes, 4041 hangs
 *    (vader's eager limit, 4096 bytes, less the message's header). The MCA parameters
 *    btl_vader_eager_limit and pml change it.
 * Another build or transport of the same version may differ. */
static const struct eager libs[] = {
	{"MPICH Version: 4.0.2", 8255},
	{"Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022",
	 4040},
};

/* Compare with runs of spaces and tabs folded to one space. */
static int same_words(const char *a, const char *b)
{
	while (*a && *b) {
		if ((*a == ' ' || *a == '\t') && (*b == ' ' || *b == '\t')) {
			while (*a == ' ' || *a == '\t')
				a++;
			while (*b == ' ' || *b == '\t')
				b++;
			continue;
		}
		if (*a++ != *b++)
			return 0;
	}
	while (*a == ' ' || *a == '\t')
		a++;
	while (*b == ' ' || *b == '\t')
		b++;
	return !*a && !*b;
}

long long mpiv_mpilib_eager(const char *library)
{
	size_t i;

	for (i = 0; library && i < sizeof(libs) / sizeof(libs[0]); i++)
		if (same_words(library, libs[i].version))
			return libs[i].eager;
	return -1;
}
