#!/bin/bash
# make check-scale: hangs at a scale users meet, on real MPI runs (SCALE_NP ranks, default 256,
# oversubscribed on this machine's cores; not part of make check, whose examples stay at 8
# ranks or fewer): a ring of head-to-head sends (ring.c), a collective one rank never reaches
# (barrier-missed.c) and a task farm that hangs (farm-hang.c). For each: record reports the
# hang (and record --last says who waits for whom from each rank's last calls), check finds it in the traces (every blocked call is in them: the monitor waits for the
# recorder to write them, jobs/monitor.h MONITOR_WRITE_WAIT), verify confirms it, and every
# text report is at most 40 lines whatever the rank count (ranks grouped into classes); the
# HTML page renders in headless Chromium in under 2 s with its classes. Each command's wall
# time is printed. SCALE_PROGS picks some of the three.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped.
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN" spin
require_mpiverify
require_mpi_built
NP=${SCALE_NP:-256}
LINES=40
LIMIT=900
WORK=$(make_workdir scale) || exit 1
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)

# timed NAME LOG CMD...: run_cmd with the wall time printed
timed()
{
	local name=$1 log=$2 t0 t1
	shift 2
	t0=$(date +%s.%N)
	run_cmd "$log" "$LIMIT" "$@"
	t1=$(date +%s.%N)
	awk -v n="$name" -v a="$t0" -v b="$t1" -v rc="$RC" \
		'BEGIN { printf "   %-40s %6.1f s (exit %d)\n", n, b - a, rc }'
}

# short NAME LOG: the report LOG is at most LINES lines.
short()
{
	local n
	n=$(wc -l <"$2")
	if test "$n" -le "$LINES"; then
		pass "$1: report of $n lines (at most $LINES)"
	else
		fail "$1: report of at most $LINES lines" "$n lines" "$2"
	fi
}

# Chromium's first start in a new profile is slow: not the page's time
if test -n "$CHROMIUM"; then
	timeout -k 5 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$WORK/chromium" --dump-dom about:blank >/dev/null 2>&1
fi

for prog in ${SCALE_PROGS:-ring barrier-missed farm-hang}; do
	name="$prog ($NP ranks)"
	d=$WORK/$prog
	mkdir -p "$d"
	if ! "$MPICC" -g -O0 -o "$d/$prog" "$SRCDIR/tests/scale/$prog.c" >"$d/cc.log" 2>&1; then
		fail "$name: compile" "it failed" "$d/cc.log"
		continue
	fi
	timed "$prog: record" "$d/record.log" "$MPIVERIFY" record -o "$d/trace" \
		--deadlock-timeout 3 -- "$MPIRUN" -np "$NP" "$d/$prog"
	expect "$name: record reports the hang" 1 "$d/record.log" 'the recorded run deadlocked'
	short "$name: record" "$d/record.log"
	# the ring's ranks are one class, stacks taken or not (jobs/monitor_report.c)
	if test "$prog" = ring; then
		expect_text "$name: record: one class of blocked ranks" 1 "$d/record.log" \
			"ranks 0-$((NP - 1)) ($NP): blocked in MPI_Send"
	fi
	check_leftovers "$name: record: no leftover processes" "$d/$prog"

	# record --last: the same hang from each rank's window, who waits for whom in classes
	timed "$prog: record --last" "$d/last.log" "$MPIVERIFY" record -o "$d/last" --last 100 \
		--deadlock-timeout 3 -- "$MPIRUN" -np "$NP" "$d/$prog"
	expect "$name: record --last reports the hang" 1 "$d/last.log" \
		'the recorded run deadlocked'
	expect_text "$name: record --last says who waits for whom" 1 "$d/last.log" \
		"who waits for whom, from each rank's last calls (record --last):"
	short "$name: record --last" "$d/last.log"
	case $prog in
	ring) want="ranks 0-$((NP - 1)) ($NP): in MPI_Send, waiting for its rank + 1
a wait-for cycle of $NP ranks: 0 -> ... -> $((NP - 1)) -> 0" ;;
	barrier-missed) want="ranks 0-$((NP - 2)) ($((NP - 1))): in MPI_Barrier, waiting for rank $((NP - 1))
rank $((NP - 1)): in MPI_Recv, waiting for rank 0" ;;
	*) want="rank 0: in MPI_Recv, waiting for any rank (MPI_ANY_SOURCE)
ranks 1-$((NP - 1)) ($((NP - 1))): in MPI_Recv, waiting for rank 0" ;;
	esac
	while IFS= read -r line; do
		expect_text "$name: record --last: '$line'" 1 "$d/last.log" "$line"
	done <<<"$want"
	check_leftovers "$name: record --last: no leftover processes" "$d/$prog"

	# every rank's blocked call reached its trace
	timed "$prog: check" "$d/check.log" "$MPIVERIFY" check "$d/trace" -o "$d/check"
	expect "$name: check finds the deadlock" 1 "$d/check.log" 'deadlock 1 of 1:'
	short "$name: check" "$d/check.log"
	if grep -q 'MPI_Init() .*event 0' "$d/check.log"; then
		fail "$name: every blocked call is in the traces" \
			"a rank's trace stops at MPI_Init" "$d/check.log"
	else
		pass "$name: every blocked call is in the traces"
	fi
	if test -n "$CHROMIUM"; then
		t0=$(date +%s.%N)
		timeout -k 5 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
			--user-data-dir="$WORK/chromium" --dump-dom "file://$d/check/report.html" \
			>"$d/dom.html" 2>"$d/dom.err"
		t1=$(date +%s.%N)
		secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
		if grep -q '<details class="rank-class"' "$d/dom.html" &&
			awk -v s="$secs" 'BEGIN { exit !(s < 2) }'; then
			pass "$name: report.html renders its classes in $secs s"
		else
			fail "$name: report.html renders its classes in under 2 s" \
				"$secs s, classes: $(grep -c 'class="rank-class"' "$d/dom.html")"
		fi
	fi

	# verify: the first run hangs, and confirms it; the other decisions are not run here
	# (a run steered to unbuffered sends rendezvouses send by send, each waiting for a
	# rank among hundreds to get a core: minutes on this machine)
	timed "$prog: verify" "$d/verify.log" "$MPIVERIFY" verify -o "$d/verify" \
		--deadlock-timeout 3 --max-runs 1 -- "$MPIRUN" -np "$NP" "$d/$prog"
	expect "$name: verify confirms the deadlock" 1 "$d/verify.log" \
		'deadlock[s]? confirmed on the real MPI library'
	short "$name: verify" "$d/verify.log"
	check_leftovers "$name: verify: no leftover processes" "$d/$prog"
done
summary
