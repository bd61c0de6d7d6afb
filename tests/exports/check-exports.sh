#!/bin/bash
# The preload libraries export exactly the MPI calls of base/mpi_calls.def, and nothing
# else: a wrapper that is missing would let a call pass unrecorded (and shift every event
# index after it), and an extra export could shadow a symbol of the user's program. Checks the
# build for the MPI library MPICC compiles for (tests/lib.sh; tests/run.sh runs it for each).
set -u

. "$(dirname "$0")/../lib.sh"

require_mpi_built

# MPI-4 calls (MPIV_OTHER4, MPIV_CALL4, MPIV_SPECIAL4) have wrappers only if the library's
# mpi.h is MPI-4.
macros='CALL\|SPECIAL\|OTHER'
if test "$(mpi_version)" -ge 4; then
	macros="$macros\\|OTHER4\\|CALL4\\|SPECIAL4"
fi
# the MPI calls, and the three calls of the threads' order (preload/rec_threads.h)
want=$( (sed -n "s/^MPIV_\\($macros\\)(\\([A-Za-z_]*\\),.*/MPI_\\2/p" "$SRCDIR/base/mpi_calls.def"
	printf 'pthread_create\npthread_exit\npthread_join\n') | sort)
if test -z "$want"; then
	fail "mpi_calls.def" "no MPIV_CALL line found in $SRCDIR/base/mpi_calls.def"
fi
for lib in lib/$MPI_LIB/librecorder.so lib/$MPI_LIB/libreplayer.so; do
	if ! test -f "$BUILDDIR/$lib"; then
		fail "$lib" "not built"
		continue
	fi
	got=$(nm -D --defined-only "$BUILDDIR/$lib" | awk '$2 == "T" || $2 == "W" { print $3 }' | sort)
	if test "$got" = "$want"; then
		pass "$lib exports the $(echo "$want" | wc -l) calls of mpi_calls.def and pthread_create/exit/join"
	else
		fail "$lib" "exports differ from mpi_calls.def: $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | tr '\n' ' ')"
	fi
done

# base/ goes into both libraries whole (base/README.md): a file there that includes a header of
# another folder, or calls what ends or prints from inside the user's program, breaks the rule
# the makefile relies on.
base_ok=1
for f in "$SRCDIR"/base/*.[ch] "$SRCDIR"/base/*.def; do
	name=base/$(basename "$f")
	bad=''
	for inc in $(sed -n 's/^#include "\(.*\)"/\1/p' "$f"); do
		test -f "$SRCDIR/base/$inc" || bad="$bad includes $inc (not in base/);"
	done
	calls=$(grep -nE '(^|[^_a-z.>])(exit|die|abort|printf|puts|perror|xmalloc|xcalloc|xrealloc|xstrdup)[[:space:]]*\(' "$f" |
		grep -vE '^[0-9]+:[[:space:]]*(/\*|\*)' | head -n 3 | tr '\n' ' ')
	test -n "$calls" && bad="$bad calls: $calls"
	grep -q '#include <\(mpi\|jansson\)\.h>' "$f" && bad="$bad includes mpi.h or jansson.h;"
	if test -n "$bad"; then
		fail "$name" "may not go into a preload library:$bad"
		base_ok=0
	fi
done
test "$base_ok" = 1 && pass "base/: every file may go into a preload library (its own headers only; no exit, die, print or x-allocation)"
summary
