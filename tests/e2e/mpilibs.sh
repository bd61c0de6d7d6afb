#!/bin/bash
# Which MPI library a job runs on (jobs/mpi_pick.c), end to end: record, replay and verify
# preload the build of their library for the MPI library the program links, told by its ELF
# file (the program found on the launcher's command line) or else by the launcher; a job of a
# library mpiverify has no build for is refused with exit 4, never crashed; the launcher's own
# options (Open MPI's --oversubscribe, --allow-run-as-root) pass through untouched; a program
# linking both libraries is refused; a library of another name is told by its ABI, one of an
# unknown ABI refused, and so is a static program; a run in which no rank wrote a trace is a
# tool failure. Needs MPICH and Open MPI both (skipped
# otherwise: tests/run.sh runs the rest of the end-to-end parts on each).
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped.
set -u

. "$(dirname "$0")/../lib.sh"

for t in mpicc.mpich mpirun.mpich mpicc.openmpi mpirun.openmpi; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "skipped: '$t' not found: these cases need MPICH and Open MPI both"
		exit 77
	fi
done
require_mpiverify
for lib in mpich openmpi; do
	if ! test -f "$BUILDDIR/lib/$lib/librecorder.so"; then
		echo "skipped: mpiverify was not built for $lib (no '$BUILDDIR/lib/$lib')"
		exit 77
	fi
done

WORK=$(make_workdir mpilibs) || exit 1
LIMIT=90
SRC=$SRCDIR/examples/deadlock/send-send-cycle.c
# Open MPI's mpirun as root, with more ranks than cores, where the case does not say otherwise
OMPI_ENV=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
	OMPI_MCA_rmaps_base_oversubscribe=1)

for lib in mpich openmpi; do
	if ! "mpicc.$lib" -g -O0 -o "$WORK/ssc-$lib" "$SRC" >"$WORK/cc-$lib.log" 2>&1; then
		fail "compile with mpicc.$lib" "it failed" "$WORK/cc-$lib.log"
	fi
done

# library_of DIR: the MPI library rank 0's trace names (the first word of its version).
library_of()
{
	"$MPIVERIFY" trace -r 0 "$1" 2>/dev/null | sed -n 's/^ *"library": "\([A-Za-z]*\).*/\1/p'
}

# ---- each program gets its library's recorder, under its own launcher ----
for lib in mpich openmpi; do
	want=MPICH
	test $lib = openmpi && want=Open
	run_cmd "$WORK/rec-$lib.log" "$LIMIT" env "${OMPI_ENV[@]}" "$MPIVERIFY" record \
		-o "$WORK/rec-$lib" --deadlock-timeout 3 -- "mpirun.$lib" -np 2 "$WORK/ssc-$lib"
	if test "$RC" -ne 0; then
		fail "record under mpirun.$lib" "exit $RC, want 0 (4 bytes are buffered)" \
			"$WORK/rec-$lib.log"
	elif test "$(library_of "$WORK/rec-$lib")" != "$want"; then
		fail "record under mpirun.$lib" "the trace names '$(library_of "$WORK/rec-$lib")'" \
			"$WORK/rec-$lib.log"
	else
		pass "record under mpirun.$lib: the $lib recorder"
	fi
	run_cmd "$WORK/check-$lib.log" "$LIMIT" "$MPIVERIFY" check "$WORK/rec-$lib" \
		--buffering zero
	expect_text "check of the $lib trace" 1 "$WORK/check-$lib.log" "send-send-cycle.c:"
	run_cmd "$WORK/replay-$lib.log" "$LIMIT" env "${OMPI_ENV[@]}" "$MPIVERIFY" replay \
		--trace "$WORK/rec-$lib/check/cex.json" --timeout 3
	expect_text "replay on $lib: the $lib replayer reproduces it" 1 "$WORK/replay-$lib.log" \
		"reproduced: the program deadlocked"
done

# ---- check --buffering all: whether the deadlock happens with the recorded library's buffering
# 6000 bytes: buffered by MPICH 4.0.2 (up to 8255), not by Open MPI 4.1.4 (up to 4040)
SRC6=$SRCDIR/examples/deadlock/send-cycle-6000-bytes.c
for lib in mpich openmpi; do
	case $lib in
	mpich) eager=8255 said='does not happen' ;;
	openmpi) eager=4040 said=happens ;;
	esac
	if ! "mpicc.$lib" -g -O0 -o "$WORK/six-$lib" "$SRC6" >"$WORK/six-cc-$lib.log" 2>&1; then
		fail "compile send-cycle-6000-bytes with mpicc.$lib" "it failed" "$WORK/six-cc-$lib.log"
		continue
	fi
	run_cmd "$WORK/six-$lib.log" "$LIMIT" env "${OMPI_ENV[@]}" "$MPIVERIFY" record \
		-o "$WORK/six-trace-$lib" --deadlock-timeout 3 -- "mpirun.$lib" -np 2 "$WORK/six-$lib"
	run_cmd "$WORK/six-check-$lib.log" "$LIMIT" "$MPIVERIFY" check "$WORK/six-trace-$lib"
	expect_text "6000 bytes head to head on $lib: check --buffering all says it $said" 1 \
		"$WORK/six-check-$lib.log" "potential deadlock 1 of 1" \
		"with the recorded MPI library's buffering (standard sends up to $eager bytes buffered) it $said"
done

# ---- a generic mpirun: told by the program, or by what the name links to ----
# The machine's mpirun may be either library's (update-alternatives): a directory first on
# PATH makes it Open MPI's, as on a machine where Open MPI is the default.
mkdir -p "$WORK/ompi-default"
ln -sf "$(command -v mpirun.openmpi)" "$WORK/ompi-default/mpirun"
# plain_mpirun NAME DIR PROGRAM: record PROGRAM under that plain mpirun into DIR: it runs, on
# Open MPI's recorder
plain_mpirun()
{
	run_cmd "$2.log" "$LIMIT" env "${OMPI_ENV[@]}" PATH="$WORK/ompi-default:$PATH" \
		"$MPIVERIFY" record -o "$2" --deadlock-timeout 3 -- mpirun -np 2 "$3"
	if test "$RC" -eq 0 && test "$(library_of "$2")" = Open; then
		pass "$1"
	else
		fail "$1" "exit $RC, want 0 and an Open MPI trace" "$2.log"
	fi
}
plain_mpirun "record under a plain mpirun that is Open MPI's" "$WORK/generic" \
	"$WORK/ssc-openmpi"
# a program that is a script: the launcher tells
printf '#!/bin/sh\nexec "%s" "$@"\n' "$WORK/ssc-openmpi" >"$WORK/run-ssc.sh"
chmod +x "$WORK/run-ssc.sh"
plain_mpirun "record of a script under Open MPI's mpirun: the launcher tells" "$WORK/script" \
	"$WORK/run-ssc.sh"
# an Open MPI program under MPICH's launcher: its recorder, and a warning
run_cmd "$WORK/mixed.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/mixed" --deadlock-timeout 3 \
	-- mpirun.mpich -np 1 "$WORK/ssc-openmpi"
if grep -q "^mpiverify: warning: '$WORK/ssc-openmpi' links Open MPI, but the launcher 'mpirun.mpich' is MPICH's" "$WORK/mixed.log" &&
	test "$(library_of "$WORK/mixed")" = Open; then
	pass "an Open MPI program under MPICH's launcher: its recorder, and a warning"
else
	fail "an Open MPI program under MPICH's launcher" "no warning, or not its recorder" \
		"$WORK/mixed.log"
fi

# ---- Open MPI's own options pass through, its variables unset ----
root=()
test "$(id -u)" -ne 0 || root=(--allow-run-as-root)
run_cmd "$WORK/options.log" "$LIMIT" env -u OMPI_ALLOW_RUN_AS_ROOT \
	-u OMPI_ALLOW_RUN_AS_ROOT_CONFIRM -u OMPI_MCA_rmaps_base_oversubscribe "$MPIVERIFY" \
	verify -o "$WORK/options" --deadlock-timeout 3 -- mpirun.openmpi "${root[@]}" \
	--oversubscribe -np 2 "$WORK/ssc-openmpi"
expect_text "verify -- mpirun.openmpi ${root[*]} --oversubscribe -np 2: confirmed" 1 \
	"$WORK/options.log" "send-send-cycle.c:"

# Without --oversubscribe, Open MPI's mpirun refuses more ranks than slots, and starts none:
# record says the launcher failed, and exits 4
run_cmd "$WORK/slots.log" "$LIMIT" env -u OMPI_MCA_rmaps_base_oversubscribe \
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "$MPIVERIFY" record \
	-o "$WORK/slots" -- mpirun.openmpi -np 512 "$WORK/ssc-openmpi"
expect_text "mpirun.openmpi -np 512 without --oversubscribe: the launcher failed, exit 4" 4 \
	"$WORK/slots.log" "--oversubscribe" \
	"the launcher 'mpirun.openmpi' failed (exit status 1) before any rank started under the recorder"

# ---- a job of a library mpiverify has no build for: refused, exit 4 ----
# A build tree of mpiverify with MPICH's preload libraries only (the executable finds its
# libraries beside it, as in a build tree: config.status there).
ONLY=$WORK/mpich-only
mkdir -p "$ONLY/lib"
cp "$MPIVERIFY" "$ONLY/mpiverify"
touch "$ONLY/config.status"
ln -s "$BUILDDIR/lib/mpich" "$ONLY/lib/mpich"
run_cmd "$WORK/refuse-prog.log" "$LIMIT" env "${OMPI_ENV[@]}" "$ONLY/mpiverify" record \
	-o "$WORK/refused" -- mpirun.openmpi -np 2 "$WORK/ssc-openmpi"
expect_text "an Open MPI program, a build for MPICH only: record refuses" 4 \
	"$WORK/refuse-prog.log" \
	"error: '$WORK/ssc-openmpi' links Open MPI ('libmpi.so.40'), an MPI library mpiverify was not built for (it has preload libraries for MPICH only)" \
	"hint: install Open MPI's compiler and headers (Debian: openmpi-bin libopenmpi-dev)"
if test -e "$WORK/refused"; then
	fail "a refused record writes nothing" "'$WORK/refused' was made"
else
	pass "a refused record writes nothing"
fi
run_cmd "$WORK/refuse-launcher.log" "$LIMIT" env "${OMPI_ENV[@]}" "$ONLY/mpiverify" verify \
	-o "$WORK/refused-verify" -- mpirun.openmpi -np 2 "$WORK/run-ssc.sh"
expect_text "a script under mpirun.openmpi, a build for MPICH only: verify refuses" 4 \
	"$WORK/refuse-launcher.log" \
	"error: the launcher 'mpirun.openmpi' is Open MPI's, an MPI library mpiverify was not built for"
run_cmd "$WORK/refuse-replay.log" "$LIMIT" env "${OMPI_ENV[@]}" "$ONLY/mpiverify" replay \
	--trace "$WORK/rec-openmpi/check/cex.json" -o "$WORK/refused-replay"
expect_text "replay of an Open MPI run, a build for MPICH only: refused" 4 \
	"$WORK/refuse-replay.log" "links Open MPI ('libmpi.so.40'), an MPI library mpiverify was not built for"
# the MPICH program still runs under that build
run_cmd "$WORK/only-mpich.log" "$LIMIT" "$ONLY/mpiverify" record -o "$WORK/only-mpich" \
	--deadlock-timeout 3 -- mpirun.mpich -np 2 "$WORK/ssc-mpich"
expect_text "an MPICH program, a build for MPICH only: recorded" 0 "$WORK/only-mpich.log" \
	"traces in '$WORK/only-mpich'"

# ---- a program that links both libraries: refused, exit 4 ----
# (as Debian's mpif90.openmpi makes one where MPICH is the default libmpi.so)
if test "$(mpicc.openmpi -print-file-name=libmpich.so)" = libmpich.so; then
	echo "skipped: a program linking both libraries: no libmpich.so on the linker's path"
elif ! mpicc.openmpi -g -O0 -o "$WORK/both-libs" "$SRC" -Wl,--no-as-needed -lmpich \
	>"$WORK/cc-both-libs.log" 2>&1; then
	fail "compile a program linking both libraries" "it failed" "$WORK/cc-both-libs.log"
else
	run_cmd "$WORK/both-libs.log" "$LIMIT" env "${OMPI_ENV[@]}" "$MPIVERIFY" record \
		-o "$WORK/both-libs-trace" -- mpirun.openmpi -np 2 "$WORK/both-libs"
	expect_text "a program linking Open MPI and MPICH: record refuses" 4 "$WORK/both-libs.log" \
		"links two MPI libraries, MPICH ('libmpich.so.12') and Open MPI ('libmpi.so.40')"
	if test -e "$WORK/both-libs-trace"; then
		fail "a refused record of a program linking both writes nothing" \
			"'$WORK/both-libs-trace' was made"
	else
		pass "a refused record of a program linking both writes nothing"
	fi
fi

# ---- libraries of other names, told by their ABI; a static program ----
# A program linked with mpicc has its DT_NEEDED entry renamed, to a name of the same length,
# and that name links to the library: MPICH's ABI as Cray MPICH names its library
# (libmpi_c.so.12), Open MPI's as IBM Spectrum MPI does (libmpi_ib.so: its handles are Open
# MPI's ompi_mpi_* objects), and an MPI library of a name and ABI mpiverify does not know
# (libmpi_mt.so.1), which is refused rather than given a build that would crash it.
ABI=$WORK/abi
mkdir -p "$ABI"
ln -sf "$(readlink -f "$(mpicc.mpich -print-file-name=libmpich.so.12)")" "$ABI/libmpi_c.so.12"
ln -sf "$(readlink -f "$(mpicc.mpich -print-file-name=libmpich.so.12)")" "$ABI/libmpi_mt.so.1"
ln -sf "$(readlink -f "$(mpicc.openmpi -print-file-name=libmpi.so.40)")" "$ABI/libmpi_ib.so"
LC_ALL=C sed 's/libmpich\.so\.12/libmpi_c.so.12/' "$WORK/ssc-mpich" >"$ABI/ssc-cray"
LC_ALL=C sed 's/libmpich\.so\.12/libmpi_mt.so.1/' "$WORK/ssc-mpich" >"$ABI/ssc-mt"
LC_ALL=C sed 's/libmpi\.so\.40/libmpi_ib.so/' "$WORK/ssc-openmpi" >"$ABI/ssc-ib"
chmod +x "$ABI/ssc-cray" "$ABI/ssc-mt" "$ABI/ssc-ib"
for abi in cray:mpich:MPICH ib:openmpi:Open; do
	IFS=: read -r name lib want <<<"$abi"
	run_cmd "$WORK/abi-$name.log" "$LIMIT" env "${OMPI_ENV[@]}" LD_LIBRARY_PATH="$ABI" \
		"$MPIVERIFY" record -o "$WORK/abi-$name" --deadlock-timeout 3 -- "mpirun.$lib" -np 2 \
		"$ABI/ssc-$name"
	if test "$RC" -ne 0; then
		fail "record of ssc-$name, its library told by its ABI" \
			"exit $RC, want 0" "$WORK/abi-$name.log"
	elif test "$(library_of "$WORK/abi-$name")" != "$want"; then
		fail "record of ssc-$name runs on $want" \
			"the trace names '$(library_of "$WORK/abi-$name")'" "$WORK/abi-$name.log"
	else
		pass "record of ssc-$name: its library told by its ABI, $want's build preloaded"
	fi
done
run_cmd "$WORK/abi-mt.log" "$LIMIT" env LD_LIBRARY_PATH="$ABI" "$MPIVERIFY" record \
	-o "$WORK/abi-mt" -- mpirun.mpich -np 2 "$ABI/ssc-mt"
expect_text "a program of an MPI library of unknown ABI: record refuses" 4 "$WORK/abi-mt.log" \
	"links 'libmpi_mt.so.1', an MPI library whose ABI mpiverify does not know"
printf 'int main(void) { return 0; }\n' >"$WORK/static.c"
if ! cc -static -o "$WORK/static" "$WORK/static.c" >"$WORK/cc-static.log" 2>&1; then
	echo "skipped: a static program: the C compiler cannot link one"
else
	run_cmd "$WORK/static.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/static-trace" -- \
		mpirun.mpich -np 2 "$WORK/static"
	expect_text "a statically linked program: record refuses before the run" 4 \
		"$WORK/static.log" "is statically linked: the recorder cannot be preloaded into it"
fi

# ---- no rank wrote a trace: never exit 0 ----
for lib in mpich openmpi; do
	run_cmd "$WORK/notrace-$lib.log" "$LIMIT" env "${OMPI_ENV[@]}" "$MPIVERIFY" record \
		-o "$WORK/notrace-$lib" -- "mpirun.$lib" -np 2 true
	expect_text "record of a run without a trace under mpirun.$lib: exit 4" 4 \
		"$WORK/notrace-$lib.log" "no rank wrote a trace into"
done

finish_work
