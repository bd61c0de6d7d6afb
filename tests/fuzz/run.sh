#!/bin/bash
# The fuzz targets (tests/fuzz/README.md): each replays its regression corpus (regress/TARGET:
# inputs that once crashed it, each kept with its fix), then fuzzes for FUZZ_TIME seconds from
# its seed corpus (corpus/TARGET). make check runs it short (5 s a target); make fuzz runs
# `run.sh --long` (600 s a target by default, the corpus it grows kept in tests/out/fuzz/).
# A crash fails the target, and the input is kept under tests/out/fuzz/crashes/.
#
# Exit status: 0 all passed, 1 a target crashed, 77 skipped (no target was built: configure
# found no clang that links libFuzzer).
set -u

. "$(dirname "$0")/../lib.sh"

LONG=
test "${1:-}" = --long && LONG=1
FUZZ_TIME=${FUZZ_TIME:-$(if test -n "$LONG"; then echo 600; else echo 5; fi)}
TARGETS="trace json cex meta model steer suppress elf filestream defaults"
FUZZ=$BUILDDIR/tests/fuzz

for t in $TARGETS; do
	if ! test -x "$FUZZ/fuzz-$t"; then
		echo "skipped: '$FUZZ/fuzz-$t' not built: configure found no clang that links" \
			"libFuzzer (install clang and libclang-rt-14-dev, then ./configure)"
		exit 77
	fi
done

mkdir -p "$OUTDIR/fuzz/crashes" || exit 1
CRASHES=$OUTDIR/fuzz/crashes
if test -n "$LONG"; then
	WORK=$OUTDIR/fuzz
else
	WORK=$(make_workdir fuzz-short) || exit 1
fi
# the cex target checks counterexamples against this trace (its seeds' trace)
export MPIV_FUZZ_CEX_TRACE=$SRCDIR/tests/model/cases/wildcard-race

for t in $TARGETS; do
	bin=$FUZZ/fuzz-$t
	regress=$SRCDIR/tests/fuzz/regress/$t
	log=$WORK/$t.log

	# every input that once crashed the target, and every seed, runs clean
	seeds=$SRCDIR/tests/fuzz/corpus/$t
	nregress=0
	test -d "$regress" && nregress=$(find "$regress" -type f | wc -l)
	if "$bin" -runs=0 $(test -d "$regress" && echo "$regress") "$seeds" >"$log" 2>&1; then
		pass "fuzz-$t: regression inputs and seeds run clean ($nregress + $(find "$seeds" -type f | wc -l))"
	else
		fail "fuzz-$t: regression inputs and seeds" "an input crashes it" "$log"
		continue
	fi
	mkdir -p "$WORK/corpus-$t"
	if "$bin" -max_total_time="$FUZZ_TIME" -timeout=25 -print_final_stats=1 \
		-artifact_prefix="$CRASHES/$t-" "$WORK/corpus-$t" "$SRCDIR/tests/fuzz/corpus/$t" \
		>"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		cov=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$log" | sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1, ft \2/p')
		pass "fuzz-$t: ${runs:-?} runs in $FUZZ_TIME s, $cov"
	else
		fail "fuzz-$t: fuzzing for $FUZZ_TIME s" "it crashed; the input is kept in $CRASHES (add it to tests/fuzz/regress/$t with the fix)" "$log"
		tail -n 40 "$log" | grep -E 'ERROR|fuzz:|SUMMARY|runtime error' | head -5
	fi
done

# seeds of an older format stop at the reader's first line and fuzz nothing past it: the
# model.dat seeds must be of the format the engine reads (make-corpus.sh remakes them)
version=$(sed -n 's/^#define ENG_VERSION \([0-9]*\).*/\1/p' "$SRCDIR/models/engine.h")
stale=$(grep -L -x -- "mpiverify-model $version" "$SRCDIR"/tests/fuzz/corpus/model/* | head -3)
if test -n "$version" && test -z "$stale"; then
	pass "fuzz-model: every seed is of the engine's format (version $version)"
else
	fail "fuzz-model: every seed is of the engine's format (version ${version:-?})" \
		"seeds of another version (remake them: tests/fuzz/make-corpus.sh): $stale"
fi

if summary; then
	test -n "$LONG" || test -n "${KEEP:-}" || rm -rf "$WORK"
	exit 0
fi
echo "logs kept in $WORK"
exit 1
