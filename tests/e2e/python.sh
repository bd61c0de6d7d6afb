#!/bin/bash
# Python programs (mpi4py), end to end: every example of examples/python/ recorded, checked in
# the buffering modes of its header and verified, under the launcher of the MPI library
# mpi4py links (jobs/mpi_pick.c finds it from the interpreter: Debian builds mpi4py for Open
# MPI). The recorder names each call site as the script's line and function
# (preload/rec_pysite.c), in the trace, in record's hang report, in check's and verify's
# reports and their stacks, and in the one-line diagnostics; every line a report names holds
# an MPI call of the script. Needs a python3 with mpi4py (PYTHON, default /usr/bin/python3:
# Debian's python3-mpi4py) and mpiverify built for its MPI library; skipped otherwise.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped.
set -u

. "$(dirname "$0")/../lib.sh"

PYTHON=${PYTHON:-/usr/bin/python3}
require_mpiverify
dir=$("$PYTHON" -c 'import importlib.util as u; s = u.find_spec("mpi4py"); print(s.submodule_search_locations[0] if s else "")' 2>/dev/null)
module=$(ls "$dir"/MPI.*.so 2>/dev/null | head -n 1)
if test -z "$module"; then
	echo "skipped: '$PYTHON' has no mpi4py (Debian: python3-mpi4py)"
	exit 77
fi
case $(readelf -d "$module" 2>/dev/null | grep -o 'libmpi\.so\.[0-9]*') in
libmpi.so.12) MPI_LIB=mpich ;;
libmpi.so.40) MPI_LIB=openmpi ;;
*)
	echo "skipped: mpi4py's '$module' links no MPI library these tests know"
	exit 77
	;;
esac
MPIRUN=mpirun.$MPI_LIB
if ! command -v "$MPIRUN" >/dev/null 2>&1 || ! test -f "$BUILDDIR/lib/$MPI_LIB/librecorder.so"
then
	echo "skipped: mpi4py links $MPI_LIB, but '$MPIRUN' or mpiverify's build for it is missing"
	exit 77
fi
export MPI_LIB
# Open MPI's mpirun as root, with more ranks than cores
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
	OMPI_MCA_rmaps_base_oversubscribe=1

WORK=$(make_workdir python) || exit 1
LIMIT=120
echo "== $PYTHON, mpi4py in '$dir', on $MPI_LIB ($MPIRUN)"

# lines_hold_calls NAME SCRIPT LOG: every "SCRIPT:N" LOG names is a line of SCRIPT that makes an
# MPI call (comm.*, MPI.*), and LOG names at least one.
lines_hold_calls()
{
	local name=$1 src=$2 log=$3 base n bad='' seen=0
	base=$(basename "$src")
	for n in $(grep -oE "${base//./\\.}:[0-9]+" "$log" | cut -d: -f2 | sort -un); do
		seen=1
		sed -n "${n}p" "$src" | grep -qE 'comm\.|MPI\.' || bad="$bad $n"
	done
	if test "$seen" = 0; then
		fail "$name" "no '$base:LINE' in the report" "$log"
	elif test -n "$bad"; then
		fail "$name" "line(s)$bad of $base make no MPI call" "$log"
	else
		pass "$name"
	fi
}

for src in "$SRCDIR"/examples/python/*.py; do
	name=python/$(basename "$src" .py)
	d=$WORK/$(basename "$src" .py)
	mkdir -p "$d"
	if ! parse_header "$src" >"$d/header.log"; then
		fail "$name: header" "malformed" "$d/header.log"
		continue
	fi

	# record: the run's own status, 1 for a hang, which it reports at the script's lines
	run_cmd "$d/record.log" "$LIMIT" "$MPIVERIFY" record -o "$d/trace" --deadlock-timeout 2 \
		-- "$MPIRUN" -np "$NP" "$PYTHON" "$src"
	want=0
	test "$RECORD" = hang && want=1
	expect "$name: record (record=$RECORD)" "$want" "$d/record.log" '.'
	if test "$RECORD" = hang; then
		lines_hold_calls "$name: record names the script's blocked lines" "$src" \
			"$d/record.log"
	fi
	# the trace: a module per function of the script, its sites' addresses their lines
	"$MPIVERIFY" trace -r 0 "$d/trace" >"$d/trace.json" 2>&1
	if grep -qF "\"path\": \"python:$src:<module>\"" "$d/trace.json"; then
		pass "$name: the trace's sites are the script's"
	else
		fail "$name: the trace's sites are the script's" \
			"no module 'python:$src:<module>'" "$d/trace.json"
	fi

	# check in each mode of the header
	for word in $MODES; do
		mode=${word%%=*}
		verdict=${word#*=}
		want=$(expected_exit "$verdict")
		log=$d/check-$mode.log
		run_cmd "$log" "$LIMIT" "$MPIVERIFY" check "$d/trace" --buffering "$mode" \
			-o "$d/check-$mode"
		expect "$name: check --buffering $mode (expect=$verdict)" "$want" "$log" '.'
		test "$verdict" = deadlock || continue
		lines_hold_calls "$name: check --buffering $mode names the script's lines" "$src" \
			"$log"
		# replay forces the counterexample on the real library, the script's lines compared
		log=$d/replay-$mode.log
		run_cmd "$log" "$LIMIT" "$MPIVERIFY" replay --trace "$d/check-$mode/cex.json" \
			--deadlock-timeout 2 -o "$d/replay-$mode" -- "$MPIRUN" -np "$NP" "$PYTHON" "$src"
		expect "$name: replay of check's counterexample ($mode)" 1 "$log" 'reproduced'
	done

	# verify, and the same as diagnostics an editor reads
	if test -n "$VERIFY"; then
		want=$(expected_exit "$VERIFY")
		log=$d/verify.log
		run_cmd "$log" "$LIMIT" "$MPIVERIFY" verify -o "$d/verify" --deadlock-timeout 2 \
			-- "$MPIRUN" -np "$NP" "$PYTHON" "$src"
		expect "$name: verify (verify=$VERIFY)" "$want" "$log" '^verdict: '
		if test "$VERIFY" = deadlock; then
			lines_hold_calls "$name: verify names the script's lines" "$src" "$log"
			expect "$name: verify's stacks are the script's frames" "$want" "$log" \
				"^    #0 $(basename "$src" .py)\\.py:[0-9]+ \\("
			log=$d/verify-gcc.log
			run_cmd "$log" "$LIMIT" "$MPIVERIFY" verify -o "$d/verify-gcc" \
				--deadlock-timeout 2 --diagnostics-format=gcc -- "$MPIRUN" -np "$NP" \
				"$PYTHON" "$src"
			expect "$name: verify --diagnostics-format=gcc" "$want" "$log" \
				"^[^ :]*$(basename "$src" .py)\\.py:[0-9]+:([0-9]+:)? error: "
		fi
	fi
	check_leftovers "$name: no leftover processes" "$src"
done

# under another library's launcher, the job still gets mpi4py's library's recorder, and a
# warning says why its ranks may not form one job
other=mpich
test "$MPI_LIB" = mpich && other=openmpi
if command -v "mpirun.$other" >/dev/null 2>&1; then
	log=$WORK/other-launcher.log
	run_cmd "$log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/other-launcher" \
		--deadlock-timeout 2 -- "mpirun.$other" -np 1 "$PYTHON" \
		"$SRCDIR/examples/python/ring-nonblocking.py"
	expect "python: under mpirun.$other, mpi4py's library is told" 0 "$log" \
		"warning: '$PYTHON' imports mpi4py, which links"
fi

# a function of the script is named as the function, the script's top level as <module>
log=$WORK/farm-first-answer/verify.log
if test -f "$log"; then
	if grep -qE 'farm-first-answer\.py:[0-9]+ \(manager\)' "$log"; then
		pass "python/farm-first-answer: sites name the script's function (manager)"
	else
		fail "python/farm-first-answer: sites name the script's function (manager)" \
			"no 'farm-first-answer.py:N (manager)'" "$log"
	fi
fi
summary
