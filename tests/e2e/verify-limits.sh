#!/bin/bash
# verify is bounded and stops when told (make check): on examples/verify/send-modes-rounds.c
# unrolled over 256 rounds, whose search holds hundreds of megabytes, verify under
# --memory-limit 16 answers inconclusive (exit 5), naming the limit and the phase it cut; and
# SIGTERM or SIGINT sent while it searches (no run under way, its memory past 100 MB) ends it
# within two seconds with 128 + the signal, a line saying so, and no process of the program
# left running. And verify does not wait out --deadlock-timeout for a hang its traces show
# (doc/verify.md 1): under a timeout of 120 s, a first run that hangs (probe-cycle) and a
# frontier's run that hangs (wildcard-recv-order) each end within 10 s, confirmed; a run whose
# ranks poll (request-get-status-spin) is left to the timeout (3 s there), as before.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped (mpicc or mpirun missing).
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN"
require_mpiverify
require_mpi_built

WORK=$(make_workdir verify-limits) || exit 1
PROG=$WORK/send-modes-rounds
LIMIT=300

if "$MPICC" -g -O0 -DROUNDS=256 -o "$PROG" "$SRCDIR/examples/verify/send-modes-rounds.c" \
	>"$WORK/cc.log" 2>&1; then
	pass "compile send-modes-rounds (256 rounds)"
else
	fail "compile send-modes-rounds" "$MPICC failed" "$WORK/cc.log"
	summary
	exit
fi

# ---- a memory limit ----
LOG=$WORK/limit.log
run_cmd "$LOG" "$LIMIT" "$MPIVERIFY" verify --buffering zero --memory-limit 16 \
	-o "$WORK/limit" -- "$MPIRUN" -np 2 "$PROG"
# the limit is met in the search of the model of the runs, or, when the runs are more (which
# request a Waitany finds complete is the library's timing), in building that model
expect_grep -E "verify --memory-limit 16: inconclusive (exit 5), naming the limit and the phase" \
	5 "$LOG" 'the memory limit of 16 MB \(--memory-limit\), in the search of the model of|the model of the runs takes more than the memory limit of 16 MB \(--memory-limit\)' \
	'verdict: inconclusive'
if no_leftovers "$PROG"; then
	pass "verify --memory-limit 16: nothing left running"
else
	fail "verify --memory-limit 16: nothing left running" "$LEFTOVERS"
fi

# rss PID: its resident memory in kB, or nothing once it has ended.
rss()
{
	awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null
}

# stop_in_search SIG: start verify (the signal not ignored, as a background job's SIGINT
# would be), wait until it searches, send SIG, and check how and how fast it ended.
stop_in_search()
{
	local sig=$1 num pid kb t0 t1 rc=0 name="verify, SIG$1 during its search"
	local log=$WORK/signal-$sig.log
	num=$(kill -l "$sig")
	env --default-signal=INT timeout -k 5 "$LIMIT" "$MPIVERIFY" verify --buffering zero \
		-o "$WORK/signal-$sig" -- "$MPIRUN" -np 2 "$PROG" </dev/null >"$log" 2>&1 &
	pid=$!
	# timeout's child is verify; it searches once no run is under way and it holds 100 MB
	while sleep 0.1; do
		local v
		v=$(pgrep -P "$pid" -x mpiverify | head -1)
		test -n "$v" || { kill -0 "$pid" 2>/dev/null && continue; break; }
		kb=$(rss "$v")
		test -n "$kb" || break
		if test "$kb" -gt 102400 && test -z "$(pgrep -P "$v")"; then
			t0=$(date +%s%N)
			kill -"$sig" "$v"
			break
		fi
	done
	wait "$pid" || rc=$?
	t1=$(date +%s%N)
	if test -z "${t0:-}"; then
		fail "$name" "verify ended (exit $rc) before its search was seen" "$log"
		return
	fi
	if test "$rc" -eq $((128 + num)); then
		pass "$name: exit $rc"
	else
		fail "$name: exit $((128 + num))" "exit $rc" "$log"
	fi
	if test $(((t1 - t0) / 1000000)) -le 2000; then
		pass "$name: ended within 2 s ($(((t1 - t0) / 1000000)) ms)"
	else
		fail "$name: ended within 2 s" "it took $(((t1 - t0) / 1000000)) ms" "$log"
	fi
	RC=$rc
	expect_text "$name: says so" "$rc" "$log" "interrupted by signal $num after"
	if no_leftovers "$PROG"; then
		pass "$name: nothing left running"
	else
		fail "$name: nothing left running" "$LEFTOVERS"
	fi
}

stop_in_search TERM
stop_in_search INT

# ---- a hang seen before the timeout ----

# run_seconds JSON: "RUN END SECONDS" for each run of verify's --json answer.
run_seconds()
{
	python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["runs"]:
    print(r["run"], r["end"], "%.1f" % (r["ended"] - r["started"]))' "$1"
}

# hang_case NAME NP TIMEOUT MIN MAX: verify examples/deadlock/NAME.c on NP ranks under
# --deadlock-timeout TIMEOUT confirms its deadlock, and its run that deadlocked took from MIN
# to MAX seconds.
hang_case()
{
	local name=$1 np=$2 timeout=$3 min=$4 max=$5 prog=$WORK/$1 log=$WORK/$1.log secs
	if ! "$MPICC" -g -o "$prog" "$SRCDIR/examples/deadlock/$name.c" >"$WORK/$name-cc.log" 2>&1; then
		fail "compile $name" "$MPICC failed" "$WORK/$name-cc.log"
		return
	fi
	run_cmd "$log" 60 "$MPIVERIFY" verify -o "$WORK/$name.out" --deadlock-timeout "$timeout" \
		--json -- "$MPIRUN" -np "$np" "$prog"
	if test "$RC" -ne 1; then
		fail "verify $name, --deadlock-timeout $timeout: deadlock confirmed" \
			"$(describe_rc "$RC")" "$log"
		return
	fi
	secs=$(run_seconds "$log" | awk '$2 == "deadlocked" { print $3; exit }')
	if test -z "$secs"; then
		fail "verify $name: a run deadlocked" "no run ended deadlocked" "$log"
	elif awk -v s="$secs" -v lo="$min" -v hi="$max" 'BEGIN { exit !(s >= lo && s <= hi) }'; then
		pass "verify $name, --deadlock-timeout $timeout: its hung run took $secs s ($min to $max)"
	else
		fail "verify $name, --deadlock-timeout $timeout: its hung run took $min to $max s" \
			"$secs s" "$log"
	fi
}

if command -v python3 >/dev/null; then
	hang_case probe-cycle 2 120 0.5 10
	hang_case wildcard-recv-order 3 120 0.5 10
	hang_case request-get-status-spin 2 3 3 20
fi

summary
