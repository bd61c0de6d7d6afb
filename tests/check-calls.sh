#!/bin/bash
# Every MPI function MPICH's mpi.h declares is modelled or refused (base/mpi_calls.def) or
# passed through for a reason doc/mpi-calls.md gives; and every line of that list names a
# function of the header. A new MPI library version, or a call taken off the list, shows here
# first: a call that passes through unrecorded must not matter for deadlock. And the code of
# the large-count calls followed as their int-count twins is what base/gen_large_count.py
# makes of the list.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped (no MPICH headers).
set -u

. "$(dirname "$0")/lib.sh"

inc=$(mpicc.mpich -show 2>/dev/null | grep -o -- '-I[^ ]*' | sed 's/^-I//' | head -n 1)
header=''
for f in "$inc/mpi_proto.h" "$inc/mpi.h"; do
	test -f "$f" && grep -q '^int MPI_Send(' "$f" && header=$f && break
done
if test -z "$header"; then
	echo "skipped: MPICH's mpi.h not found (mpicc.mpich -show; Debian's libmpich-dev)"
	exit 77
fi
WORK=$(make_workdir calls) || exit 1

sed -n 's/^int \(MPI_[A-Za-z0-9_]*\)(.*/\1/p' "$header" | sort -u >"$WORK/header"
sed -n 's/^MPIV_[A-Z0-9]*(\([A-Za-z0-9_]*\),.*/MPI_\1/p' "$SRCDIR/base/mpi_calls.def" |
	sort -u >"$WORK/listed"
# the table's first column: one or more `PATTERN`s a row
sed -n 's/^| \(`MPI_[^|]*\)|.*/\1/p' "$SRCDIR/doc/mpi-calls.md" | grep -o '`MPI_[^`]*`' |
	tr -d '`' >"$WORK/patterns"
echo "== $(wc -l <"$WORK/header") functions in $header, $(wc -l <"$WORK/listed") in" \
	"mpi_calls.def, $(wc -l <"$WORK/patterns") patterns in doc/mpi-calls.md"

# pattern_re PATTERN: the glob as an anchored extended regular expression
pattern_re()
{
	printf '^%s$' "$(printf '%s' "$1" | sed 's/\*/[A-Za-z0-9_]*/g')"
}

: >"$WORK/passing"
while read -r p; do
	grep -E "$(pattern_re "$p")" "$WORK/header" >>"$WORK/passing"
done <"$WORK/patterns"
sort -u -o "$WORK/passing" "$WORK/passing"

missing=$(comm -23 "$WORK/header" "$WORK/listed" | comm -23 - "$WORK/passing" | tr '\n' ' ')
if test -z "$missing"; then
	pass "every function of mpi.h is modelled, refused or passed through for a reason"
else
	fail "every function of mpi.h is modelled, refused or passed through for a reason" \
		"in no list: $missing"
fi
both=$(comm -12 "$WORK/listed" "$WORK/passing" | tr '\n' ' ')
if test -z "$both"; then
	pass "no recorded call is also listed as passing through"
else
	fail "no recorded call is also listed as passing through" "in both: $both"
fi
stale=''
while read -r p; do
	grep -qE "$(pattern_re "$p")" "$WORK/header" || stale="$stale $p"
done <"$WORK/patterns"
if test -z "$stale"; then
	pass "every pattern of doc/mpi-calls.md names a function of mpi.h"
else
	fail "every pattern of doc/mpi-calls.md names a function of mpi.h" "none for:$stale"
fi
# the large-count calls' code is what base/gen_large_count.py makes of the list
if ! command -v python3 >/dev/null || ! command -v clang-format >/dev/null; then
	echo "skipped: the large-count calls' generated code (python3 or clang-format missing)"
elif (cd "$SRCDIR" && python3 base/gen_large_count.py --check) >"$WORK/gen.log" 2>&1; then
	pass "the large-count calls' code is generated from base/mpi_calls.def"
else
	fail "the large-count calls' code is generated from base/mpi_calls.def" \
		"run python3 base/gen_large_count.py" "$WORK/gen.log"
fi
summary
