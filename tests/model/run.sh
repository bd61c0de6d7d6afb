#!/bin/bash
# The model through SPIN: `mpiverify check` on every case of tests/model/cases (trace
# directories written as JSON, with the verdict per buffering mode in `expect`), comparing the
# exit code with the expected verdict. The unit tests check the same cases on the engine
# alone, so this is also the differential test between SPIN's search and the native one.
set -u

. "$(dirname "$0")/../lib.sh"
require_tools spin
require_mpiverify

WORK=$(make_workdir model)
for dir in "$SRCDIR"/tests/model/cases/*/; do
	name=$(basename "$dir")
	while read -r mode verdict; do
		case $mode in '' | '#'*) continue ;; esac
		case $verdict in
		deadlock) want=1 ;;
		ok) want=0 ;;
		*)
			fail "$name $mode" "bad verdict '$verdict' in $dir/expect"
			continue
			;;
		esac
		out="$WORK/$name-${mode//:/-}"
		run_cmd "$out.log" 120 "$MPIVERIFY" check "$dir" --buffering "$mode" -o "$out"
		if test "$RC" -ne "$want"; then
			fail "$name $mode" "expected $verdict (exit $want), check exited $RC" "$out.log"
		elif test "$want" -eq 1 && ! test -s "$out/cex.json"; then
			fail "$name $mode" "deadlock reported but no cex.json written" "$out.log"
		else
			pass "$name $mode"
		fi
	done <"$dir/expect"
done
# --buffering all also searches with the eager threshold of the library the traces name
# (common/mpilib.c): a head-to-head MPI_Send cycle deadlocks there with 100000-byte messages,
# not with 4-byte ones; a potential deadlock either way.
for size in 100000 4; do
	case $size in 100000) want=happens ;; *) want='does not happen' ;; esac
	name="library eager threshold, $size bytes"
	run_cmd "$WORK/library-$size.log" 120 "$MPIVERIFY" check \
		"$SRCDIR/tests/model/library/send-cycle-$size" -o "$WORK/library-$size"
	if test "$RC" -eq 1 && grep -q "^potential deadlock" "$WORK/library-$size.log" &&
		grep -q "up to 8255 bytes buffered) it $want\$" "$WORK/library-$size.log"; then
		pass "$name"
	else
		fail "$name" "want exit 1, a potential deadlock that $want at 8255 bytes, got $RC" \
			"$WORK/library-$size.log"
	fi
done

# Reports: `check` (every mode) on each case of tests/model/reports; its `expect` file gives
# the exit status ("exit N"), lines the report must hold ("grep TEXT") and must not ("not
# TEXT").
for dir in "$SRCDIR"/tests/model/reports/*/; do
	name="report: $(basename "$dir")"
	out="$WORK/report-$(basename "$dir")"
	run_cmd "$out.log" 120 "$MPIVERIFY" check "$dir" -o "$out"
	why=''
	while read -r key text; do
		case $key in
		exit) test "$RC" -eq "$text" || why="$why; exit $RC, want $text" ;;
		grep) grep -qF -- "$text" "$out.log" || why="$why; no '$text'" ;;
		not) grep -qF -- "$text" "$out.log" && why="$why; has '$text'" ;;
		esac
	done < <(grep -v '^#' "$dir/expect")
	if test -n "$why"; then
		fail "$name" "${why#; }" "$out.log"
	else
		pass "$name"
	fi
done

# A search stopped by its time limit is inconclusive (exit 5), never "no deadlock": a master
# receiving 64 results with MPI_ANY_SOURCE from 8 workers, alternately with a tag and with
# MPI_ANY_TAG (so that the receives are not interchangeable), has about 9^8 states.
big=$SRCDIR/tests/model/limits/wildcard-tags-8x8
run_cmd "$WORK/limit.log" 120 "$MPIVERIFY" check "$big" --buffering zero --time-limit 2 \
	-o "$WORK/limit"
if test "$RC" -eq 5 && grep -q "time limit" "$WORK/limit.log"; then
	pass "time limit: inconclusive"
else
	fail "time limit: inconclusive" "expected exit 5 naming the time limit, got $RC" \
		"$WORK/limit.log"
fi
summary
