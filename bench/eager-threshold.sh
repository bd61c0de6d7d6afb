#!/bin/bash
# The eager threshold of the MPI library MPICC and MPIRUN name (tests/lib.sh; MPICH's by
# default), as base/mpilib.c records it: two ranks on this host run bench/head-to-head.c,
# each sending N bytes to the other before receiving; a run that completes within TIMEOUT
# seconds (default 5) buffered N bytes, one that does not hung. A binary search from 1 byte to
# 1 MiB finds the largest N that completes; both it and N + 1 are then run 3 times more, to
# show that the answer does not change from run to run. Prints the library's version line
# (the key of base/mpilib.c's table) and the threshold. Not part of make bench: it makes
# runs hang on purpose. Run it holding the machine to itself (no other MPI jobs): a busy
# machine can make a run that completes look hung.
set -u

. "$(dirname "$0")/../tests/lib.sh"
require_tools "$MPICC" "$MPIRUN"
TIMEOUT=${TIMEOUT:-5}
WORK=$(make_workdir eager) || exit 1
trap 'rm -rf "$WORK"' EXIT
"$MPICC" -O2 -o "$WORK/head-to-head" "$SRCDIR/bench/head-to-head.c" || exit 1

# completes N: the head-to-head exchange of N bytes ends within TIMEOUT seconds
completes()
{
	timeout -k 2 "$TIMEOUT" "$MPIRUN" -np 2 "$WORK/head-to-head" "$1" </dev/null >/dev/null 2>&1
}

lo=1 hi=1048576
if ! completes $lo; then
	echo "even 1 byte hangs: is '$MPIRUN' able to run 2 ranks here?"
	exit 1
fi
if completes $hi; then
	echo "1 MiB completes: the threshold is above the search's range"
	exit 1
fi
while test $((hi - lo)) -gt 1; do
	mid=$(((lo + hi) / 2))
	if completes $mid; then lo=$mid; else hi=$mid; fi
done
for _ in 1 2 3; do
	if ! completes $lo || completes $hi; then
		echo "not stable: $lo and $hi bytes do not always complete and hang"
		exit 1
	fi
done
printf '#include <mpi.h>\n#include <stdio.h>\nint main(void) { char v[MPI_MAX_LIBRARY_VERSION_STRING]; int n; MPI_Get_library_version(v, &n); printf("%%s\\n", v); return 0; }\n' \
	>"$WORK/version.c"
"$MPICC" -o "$WORK/version" "$WORK/version.c" && "$WORK/version" | head -n 1
echo "$MPI_TITLE under '$MPIRUN': $lo bytes complete, $hi bytes hang (4 runs each)"
