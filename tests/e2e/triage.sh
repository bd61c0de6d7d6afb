#!/bin/bash
# record --last N, hang triage for long runs (doc/triage.md), end to end with the real mpirun:
# a run of many calls (tests/e2e/programs/triage-long-run.c) ends in a hang, an abort, a
# crash or its exit, and each rank's trace must hold only the window of its last N to 2N
# calls, in a file that stays small, ending where the rank ended (the blocked call, the stop
# record); a hang's report says who waits for whom from the windows; `mpiverify trace` shows
# them, check refuses them by name. A run shorter than its window
# is the whole run, and check takes it. The option's bad values are usage errors.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped (mpicc, mpirun or python3 missing).
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN" python3
require_mpiverify
require_mpi_built

WORK=$(make_workdir triage) || exit 1
LAST=1000    # the window: each rank keeps its last 1,000 to 2,000 calls
ROUNDS=20000 # rounds of the long run: about 60,000 calls a rank
LIMIT=120    # safety net of every command
PROG=$WORK/triage-long-run

# window NAME DIR RANK LAST-CALL [INCOMPLETE]: rank RANK's trace in DIR, through `mpiverify
# trace`, is a window: it starts past event 0, holds LAST to 2 * LAST calls and a few more
# (the segment's own), ends with LAST-CALL (incomplete if INCOMPLETE is 1), and its file
# takes at most 64 KiB.
window()
{
	local name=$1 dir=$2 rank=$3 call=$4 open=${5:-0} why
	run_cmd "$WORK/$name.json" "$LIMIT" "$MPIVERIFY" trace -r "$rank" "$dir"
	if test "$RC" -ne 0; then
		fail "$name" "mpiverify trace: $(describe_rc "$RC")" "$WORK/$name.json"
		return
	fi
	why=$(python3 - "$WORK/$name.json" "$LAST" "$call" "$open" "$dir/rank-$rank.mpivt" <<'EOF'
import json, os, sys
d = json.load(open(sys.argv[1]))
last, call, want_open, path = int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1", sys.argv[5]
evs = d["events"]
first = d.get("first", 0)
if first <= 0:
    print("first is %d: not a window" % first)
elif not last <= len(evs) <= 2 * last + 10:
    print("%d events kept, want %d to %d" % (len(evs), last, 2 * last + 10))
elif evs[0]["index"] != first or evs[-1]["index"] != first + len(evs) - 1:
    print("indexes %d to %d, want %d on" % (evs[0]["index"], evs[-1]["index"], first))
elif evs[-1]["call"] != call:
    print("the last call is %s, want %s" % (evs[-1]["call"], call))
elif bool(evs[-1].get("incomplete")) != want_open:
    print("the last call incomplete: %s, want %s" % (bool(evs[-1].get("incomplete")), want_open))
elif not d["modules"] or not all("site" in e for e in evs):
    print("a call without its site, or no module")
elif os.path.getsize(path) > 64 * 1024:
    print("%s takes %d bytes" % (path, os.path.getsize(path)))
EOF
)
	if test -n "$why"; then
		fail "$name" "$why" "$WORK/$name.json"
	else
		pass "$name"
	fi
}

# waits NAME LOG WANT: record's hang report in LOG (exit 1) says who waits for whom as WANT,
# line for line.
waits()
{
	local got
	got=$(sed -n '/^who waits for whom/,/^mpiverify: /p' "$2" | sed -e '1d' -e '$d')
	if test "$RC" -ne 1; then
		fail "$1" "exit $RC, want 1" "$2"
	elif test "$got" != "$3"; then
		printf '%s\n' "$got" >"$WORK/waits-got.log"
		fail "$1" "want:
$3
got (below)" "$WORK/waits-got.log"
	else
		pass "$1"
	fi
}

# stop_of NAME: the "end" of the JSON trace $WORK/NAME.json, as "how code".
stop_of()
{
	python3 -c 'import json, sys; e = json.load(open(sys.argv[1])).get("end") or {}
print(e.get("how"), e.get("code"))' "$WORK/$1.json"
}

if ! "$MPICC" -g -O0 -Wall -DROUNDS="$ROUNDS" -o "$PROG" \
	"$SRCDIR/tests/e2e/programs/triage-long-run.c" >"$WORK/cc.log" 2>&1 ||
	test -s "$WORK/cc.log"; then
	fail "compile triage-long-run" "$MPICC failed or warned" "$WORK/cc.log"
	summary
	exit 1
fi
pass "compile triage-long-run"

# ---- a hang: reported as without --last, each window ends with its blocked MPI_Recv ----
run_cmd "$WORK/hang.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/hang" --last "$LAST" \
	--deadlock-timeout 2 -- "$MPIRUN" -np 2 "$PROG" 0
expect "record --last of a hang: deadlocked, the blocked calls at their lines" 1 \
	"$WORK/hang.log" 'blocked in MPI_Recv .* at triage-long-run\.c:[0-9]+'
expect_text "record --last says what the traces keep" 1 "$WORK/hang.log" \
	"each rank's trace keeps its last $LAST to $((2 * LAST)) calls"
waits "record --last of a hang: who waits for whom, from the windows" "$WORK/hang.log" \
	"  rank 0: in MPI_Recv, waiting for rank 1
  rank 1: in MPI_Recv, waiting for rank 0
  a wait-for cycle of 2 ranks: 0 -> 1 -> 0"
window "hang: rank 0's window" "$WORK/hang" 0 MPI_Recv 1
window "hang: rank 1's window" "$WORK/hang" 1 MPI_Recv 1
check_leftovers "hang: no leftover processes" "$PROG"
run_cmd "$WORK/hang-check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/hang"
expect_text "check refuses a window, naming record --last" 3 "$WORK/hang-check.log" \
	"record --last, which keeps the run's last calls only"
run_cmd "$WORK/hang-json.log" "$LIMIT" "$MPIVERIFY" trace -o "$WORK/hang-json" "$WORK/hang"
run_cmd "$WORK/hang-json-check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/hang-json"
expect_text "check refuses a window as JSON too" 3 "$WORK/hang-json-check.log" \
	"keeps the run's last calls only"

# ---- who waits for whom at 4 ranks: a barrier rank 0 never reaches, waits for requests ----
# hang_waits ID END NAME WANT: record --last 50 of 4 ranks ending the END way after 300
# rounds, into $WORK/ID: a hang whose report says who waits for whom as WANT.
hang_waits()
{
	run_cmd "$WORK/$1.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/$1" --last 50 \
		--deadlock-timeout 2 -- "$MPIRUN" -np 4 "$PROG" "$2" 300
	waits "$3: who waits for whom" "$WORK/$1.log" "$4"
}

hang_waits late 4 "a barrier rank 0 never reaches" "  rank 0: in MPI_Recv, waiting for rank 1
  rank 1: in MPI_Barrier, waiting for rank 0
  rank 2: in MPI_Barrier, waiting for rank 0
  rank 3: in MPI_Barrier, waiting for rank 0
  a wait-for cycle of 2 ranks: 0 -> 1 -> 0"
# each rank waits for a receive from its left neighbour
left_cycle="  rank 0: in MPI_Wait, waiting for rank 3
  rank 1: in MPI_Wait, waiting for rank 0
  rank 2: in MPI_Wait, waiting for rank 1
  rank 3: in MPI_Wait, waiting for rank 2
  a wait-for cycle of 4 ranks: 0 -> 3 -> 2 -> 1 -> 0"
hang_waits wait 5 "MPI_Wait for an MPI_Irecv of the window" "$left_cycle"
# the MPI_Recv_init was some 900 calls before the window: its restart records name it
hang_waits persist 6 "MPI_Wait for a persistent request made before the window" "$left_cycle"
# the halves were split some 900 calls before the windows: their restarts write the
# communicators again, and ranks 2 and 3 wait for both ranks of the other half
hang_waits half 7 "a barrier of a communicator made before the window" \
	"  rank 0: in MPI_Recv, waiting for rank 1
  rank 1: in MPI_Barrier, waiting for rank 0
  rank 2: in MPI_Barrier, waiting for ranks 0-1 (2)
  rank 3: in MPI_Barrier, waiting for ranks 0-1 (2)
  a wait-for cycle of 2 ranks: 0 -> 1 -> 0"
check_leftovers "who waits for whom: no leftover processes" "$PROG"

# ---- an abort, a crash, an exit: the window ends where the rank did ----
# ending NAME END LAST-CALL STOP: a run ending the END way (triage-long-run.c): rank 0's window
# ends with LAST-CALL, and says the rank stopped so (STOP: "how code").
ending()
{
	local name="$1: rank 0's window ends with $3"
	run_cmd "$WORK/$1.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/$1" --last "$LAST" \
		--deadlock-timeout 5 -- "$MPIRUN" -np 2 "$PROG" "$2"
	window "$name" "$WORK/$1" 0 "$3"
	if test "$(stop_of "$name")" = "$4"; then
		pass "$1: rank 0's window says how it stopped ($4)"
	else
		fail "$1: rank 0's window says how it stopped ($4)" "its end is '$(stop_of "$name")'"
	fi
	check_leftovers "$1: no leftover processes" "$PROG"
}

ending abort 1 MPI_Abort "aborted 3"
ending crash 2 MPI_Waitall "signal 11"

run_cmd "$WORK/exit.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/exit" --last "$LAST" \
	-- "$MPIRUN" -np 2 "$PROG" 3
expect_text "exit: record --last of a run that ends well" 0 "$WORK/exit.log" "traces in"
window "exit: rank 1's window ends with MPI_Finalize" "$WORK/exit" 1 MPI_Finalize

# ---- the window is the whole run's last calls, field for field ----
run_cmd "$WORK/whole.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/whole" -- "$MPIRUN" -np 2 "$PROG" 3
for r in 0 1; do
	run_cmd "$WORK/whole-$r.json" "$LIMIT" "$MPIVERIFY" trace -r "$r" "$WORK/whole"
	run_cmd "$WORK/exit-$r.json" "$LIMIT" "$MPIVERIFY" trace -r "$r" "$WORK/exit"
	why=$(python3 - "$WORK/whole-$r.json" "$WORK/exit-$r.json" <<'EOF'
import json, sys
whole, window = (json.load(open(p)) for p in sys.argv[1:3])
first, we, le = window["first"], whole["events"], window["events"]
if first + len(le) != len(we):
    print("the window ends at event %d, the run at %d" % (first + len(le), len(we)))
else:
    bad = [i for i, e in enumerate(le) if e != we[first + i]]
    if bad:
        print("event %d differs: %s, recorded whole %s" % (first + bad[0], le[bad[0]], we[first + bad[0]]))
    elif window["modules"] != whole["modules"] or window.get("end") != whole.get("end"):
        print("the modules or the end differ")
EOF
)
	if test -n "$why"; then
		fail "exit: rank $r's window is the whole run's last calls" "$why"
	else
		pass "exit: rank $r's window is the whole run's last calls, field for field"
	fi
done

# ---- a run shorter than its window is the whole run ----
run_cmd "$WORK/short.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/short" --last "$LAST" \
	-- "$MPIRUN" -np 2 "$PROG" 3 100
run_cmd "$WORK/short-check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/short"
expect_text "a run within its window: check takes the whole run" 0 "$WORK/short-check.log" \
	"no deadlock"

# ---- bad values ----
for bad in 0 -3 x 10001; do
	run_cmd "$WORK/bad.log" 10 "$MPIVERIFY" record --last "$bad" -- "$MPIRUN" -np 2 "$PROG"
	expect_text "record --last $bad: a usage error" 2 "$WORK/bad.log" "invalid --last '$bad'"
done
run_cmd "$WORK/bad.log" 10 "$MPIVERIFY" record --last 10 --check-reductions -- "$MPIRUN" -np 2 \
	"$PROG"
expect_text "record --last with --check-reductions: a usage error" 2 "$WORK/bad.log" \
	"--last and --check-reductions do not go together"

finish_work
