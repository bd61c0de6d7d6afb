#!/bin/bash
# Replay's own end-to-end tests (tests/run.sh runs them as the part `replay`); run.sh already
# replays every deadlock example's counterexamples and the malformed ones. Here:
#  - the divergence check: a program whose control flow depends on the wildcard's match, a
#    counterexample edited to force an impossible match, another program than the recorded
#    one, and a run with another number of ranks;
#  - counterexamples that do not fit their trace (exit 3);
#  - the call stacks of blocked ranks in record's hang report and replay's reproduced report;
#  - not reproduced, with the ranks the counterexample has blocked and what happened there;
#  - a trace directory of JSON files (mpiverify trace -o) replayed like a recorded one;
#  - polling loops that poll another number of times than when recorded;
#  - one-sided calls: a PSCW deadlock reproduced, and a call on another window diverges;
#  - MPI_Waitany, Testany, Waitsome, Testsome forced to the recorded completion when the
#    replayed run's timing favours another request;
#  - a nonblocking collective synchronised only for a counterexample found without buffering;
#  - a counterexample that needs a send's cancellation to succeed: not reproduced, and why;
#  - blocked calls in replay's and verify's runs, and record's on a node with more ranks than
#    CPUs, sleep while they wait (preload/calm.h): ten blocking point-to-point calls each take
#    under 50 ms of CPU in a quarter second's wait;
#  - a malformed counterexample, and one pointing at another program's trace;
#  - after each job, no process of the program left.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped (mpicc, mpirun or spin missing).
# KEEP=1 keeps the work directory under tests/out/ even when everything passed.
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN" spin
require_mpiverify
require_mpi_built

WORK=$(make_workdir replay) || exit 1
mkdir -p "$BINDIR"
cd "$SRCDIR" || exit 1

LIMIT=60	# safety net per command: no case may hang the suite
TIMEOUT=2	# replay --timeout: every rank blocked this long is a deadlock

# leftovers NAME PROGRAM: one case asserting that no process of PROGRAM survived.
leftovers()
{
	if no_leftovers "$2"; then
		pass "$1: no leftover processes"
	else
		echo "$LEFTOVERS" >"$WORK/leftovers.log"
		fail "$1: no leftover processes" "processes of '$2' still running (killed now)" \
			"$WORK/leftovers.log"
	fi
}

# build NAME SOURCE: compile SOURCE into $BINDIR/NAME; fails the case if it does not.
build()
{
	if "$MPICC" -g -O0 -o "$BINDIR/$1" "$2" >"$WORK/cc-$1.log" 2>&1; then
		return 0
	fi
	fail "compile $1" "$MPICC failed" "$WORK/cc-$1.log"
	return 1
}

# record_check NAME NP PROGRAM MODE [ARG...]: record PROGRAM (with ARGs) on NP ranks into $WORK/NAME and check it
# with --buffering MODE into $WORK/NAME/check; the counterexample is $WORK/NAME/check/cex.json.
record_check()
{
	local name=$1 np=$2 prog=$3 mode=$4
	shift 4
	run_cmd "$WORK/$name-record.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/$name" \
		--deadlock-timeout "$TIMEOUT" -- "$MPIRUN" -np "$np" "$prog" "$@"
	run_cmd "$WORK/$name-check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/$name" \
		--buffering "$mode" -o "$WORK/$name/check"
	if test "$RC" -ne 1 || ! test -s "$WORK/$name/check/cex.json"; then
		fail "$name: record and check" "check exited $RC, want 1 with a cex.json" \
			"$WORK/$name-check.log"
		return 1
	fi
}

# edit_cex IN OUT SED-SCRIPT: OUT is IN edited with GNU sed -z (the whole file is one line, so
# that a script can span the lines of check's indented JSON); fails if nothing changed.
edit_cex()
{
	sed -z "$3" "$1" >"$2" && ! cmp -s "$1" "$2"
}

SSC=$BINDIR/send-send-cycle
SSEND=$BINDIR/ssend-cycle
WILD=$BINDIR/wildcard-recv-order
BRANCH=$BINDIR/branch-on-source
DEPTH=$BINDIR/stack-depth
POLL=$BINDIR/poll-then-cycle
RMA=$BINDIR/rma-window-arg
RMA_POLL=$BINDIR/rma-test-then-cycle
WRONGCOMM=$BINDIR/wrong-comm
WANY=$BINDIR/waitany-reply-order
IBCAST=$BINDIR/ibcast-wait-before-recv
build send-send-cycle examples/deadlock/send-send-cycle.c || exit 1
build ssend-cycle examples/deadlock/ssend-cycle.c || exit 1
build wildcard-recv-order examples/deadlock/wildcard-recv-order.c || exit 1
build branch-on-source tests/e2e/programs/branch-on-source.c || exit 1
build stack-depth tests/e2e/programs/stack-depth.c || exit 1
build poll-then-cycle tests/e2e/programs/poll-then-cycle.c || exit 1
build rma-window-arg tests/e2e/programs/rma-window-arg.c || exit 1
build rma-test-then-cycle tests/e2e/programs/rma-test-then-cycle.c || exit 1
build wrong-comm tests/e2e/programs/wrong-comm.c || exit 1
build waitany-reply-order examples/deadlock/waitany-reply-order.c || exit 1
build ibcast-wait-before-recv examples/deadlock/ibcast-wait-before-recv.c || exit 1
build cancel-isend-recv examples/deadlock/cancel-isend-recv.c || exit 1

# ---- call stacks, unwound in the ranks ----
# stack-depth hangs when recorded: record's report shows each rank's stack down to main.
run_cmd "$WORK/depth-record.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/depth" \
	--deadlock-timeout "$TIMEOUT" -- "$MPIRUN" -np 2 "$DEPTH"
expect "stacks: record's hang report shows each blocked rank's stack" 1 \
	"$WORK/depth-record.log" '#0 stack-depth\.c:[0-9]+ \(exchange\)' \
	'#1 stack-depth\.c:[0-9]+ \(step\)' '#2 stack-depth\.c:[0-9]+ \(main\)'
test "$(grep -c '#2 stack-depth\.c:[0-9]* (main)' "$WORK/depth-record.log")" -eq 2 ||
	fail "stacks: record shows both ranks' stacks" "not two '#2 ... (main)' lines" \
		"$WORK/depth-record.log"
leftovers "stacks: record" "$DEPTH"

run_cmd "$WORK/depth-check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/depth" -o "$WORK/depth/check"
run_cmd "$WORK/depth-replay.log" "$LIMIT" "$MPIVERIFY" replay --trace \
	"$WORK/depth/check/cex.json" --timeout "$TIMEOUT"
expect "stacks: replay's reproduced report shows each blocked rank's stack" 1 \
	"$WORK/depth-replay.log" '^reproduced' '#0 stack-depth\.c:[0-9]+ \(exchange\)' \
	'#1 stack-depth\.c:[0-9]+ \(step\)' '#2 stack-depth\.c:[0-9]+ \(main\)'
leftovers "stacks: replay" "$DEPTH"

# The example the brief names: one frame, the call in main.
if record_check ssc 2 "$SSC" zero; then
	SSC_CEX=$WORK/ssc/check/cex.json
	run_cmd "$WORK/ssc-replay.log" "$LIMIT" "$MPIVERIFY" replay --trace "$SSC_CEX" \
		--timeout "$TIMEOUT"
	expect "stacks: send-send-cycle reproduced with '#0 send-send-cycle.c:N (main)'" 1 \
		"$WORK/ssc-replay.log" '^reproduced' \
		'^    #0 send-send-cycle\.c:[0-9]+ \(main\)$'
	leftovers "stacks: send-send-cycle" "$SSC"

	# ---- confirmed where predicted ----
	# Every rank sits in the call the counterexample has it blocked in: a moment of stillness
	# confirms it, however long --timeout is (run_cmd's limit is shorter than the timeout).
	run_cmd "$WORK/ssc-early.log" 20 "$MPIVERIFY" replay --trace "$SSC_CEX" --timeout 60
	expect "confirmed: every rank where predicted, long before --timeout" 1 \
		"$WORK/ssc-early.log" \
		'^reproduced: the program deadlocked, every rank blocked where the counterexample has it for 0\.[0-9] s$'
	leftovers "confirmed where predicted" "$SSC"
	# rank 0 predicted blocked in event 0 (MPI_Init), blocked in event 1: the whole timeout,
	# and the report says the rank differs
	edit_cex "$SSC_CEX" "$WORK/elsewhere.json" 's/\("blocked": {\n *"op": \)1,/\10,/' ||
		fail "confirmed: edit a blocked event of a cex" "sed changed nothing"
	run_cmd "$WORK/elsewhere.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/elsewhere.json" --timeout "$TIMEOUT"
	expect "confirmed: a rank blocked elsewhere than predicted waits for --timeout" 1 \
		"$WORK/elsewhere.log" \
		'^reproduced: the program deadlocked, every rank blocked for [0-9]+\.[0-9] s$' \
		'differs'
	leftovers "confirmed: blocked elsewhere" "$SSC"

	# Without stacks (as when the program handles SIGURG itself) the call site remains.
	MPIVERIFY_NO_STACKS=1 run_cmd "$WORK/ssc-nostack.log" "$LIMIT" "$MPIVERIFY" replay \
		--trace "$SSC_CEX" --timeout "$TIMEOUT"
	if expect "stacks: without stacks the report gives the call site" 1 \
		"$WORK/ssc-nostack.log" 'blocked in MPI_Send \(event 1\) at send-send-cycle\.c:[0-9]+ \(main\)' &&
		grep -q '#0' "$WORK/ssc-nostack.log"; then
		fail "stacks: MPIVERIFY_NO_STACKS leaves stacks out" "a '#0' line" \
			"$WORK/ssc-nostack.log"
	fi
	leftovers "stacks: without stacks" "$SSC"

	# ---- another program, another world ----
	run_cmd "$WORK/other-program.log" "$LIMIT" "$MPIVERIFY" replay --trace "$SSC_CEX" \
		--timeout "$TIMEOUT" -- "$MPIRUN" -np 2 "$SSEND"
	expect "divergence: another program than the recorded one diverges" 5 \
		"$WORK/other-program.log" \
		'^diverged: rank [01] at event 1: expected MPI_Send\(dest=[01], tag=0, comm=WORLD, 4 bytes\), got MPI_Ssend\(dest=[01], tag=0, comm=WORLD, 4 bytes\)' \
		"replaying '.*ssend-cycle', but the trace was recorded from '.*send-send-cycle'"
	leftovers "divergence: another program" "$SSEND"

	run_cmd "$WORK/other-np.log" "$LIMIT" "$MPIVERIFY" replay --trace "$SSC_CEX" \
		--timeout "$TIMEOUT" -- "$MPIRUN" -np 3 "$WILD"
	expect "refused: a counterexample for 2 ranks on 3" 3 "$WORK/other-np.log" \
		"ranks? [0-9, ]+ cannot replay: the counterexample '.*' is for 2 ranks, this run has 3"
	leftovers "refused: another number of ranks" "$WILD"

	# ---- counterexamples that do not fit their trace ----
	edit_cex "$SSC_CEX" "$WORK/no-trace.json" \
		's#"trace": "[^"]*"#"trace": "/nonexistent/mpiverify-trace"#' ||
		fail "bad input: edit the trace of a cex" "sed changed nothing"
	run_cmd "$WORK/no-trace.log" "$LIMIT" "$MPIVERIFY" replay --trace "$WORK/no-trace.json" \
		--timeout "$TIMEOUT"
	expect "bad input: a counterexample whose trace is gone" 3 "$WORK/no-trace.log" \
		"the trace '/nonexistent/mpiverify-trace' of counterexample '.*no-trace.json' is missing"

	# rank 1's blocked call, the second "blocked" of the file, becomes event 7
	edit_cex "$SSC_CEX" "$WORK/past-trace.json" 's/\("blocked": {\n *"op": \)1,/\17,/2' ||
		fail "bad input: edit a blocked event of a cex" "sed changed nothing"
	run_cmd "$WORK/past-trace.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/past-trace.json" --timeout "$TIMEOUT"
	expect "bad input: a counterexample naming an event its trace does not have" 3 \
		"$WORK/past-trace.log" "rank 1's event 7 is not in the trace"

	# ---- not reproduced ----
	# The same deadlock with its sends left buffered: MPICH buffers 4 bytes, so the program
	# completes; the report names the ranks the counterexample has blocked and what happened.
	edit_cex "$SSC_CEX" "$WORK/buffered.json" 's/"buffered": false/"buffered": true/g' ||
		fail "not reproduced: edit a cex" "sed changed nothing"
	run_cmd "$WORK/buffered.log" "$LIMIT" "$MPIVERIFY" replay --trace "$WORK/buffered.json" \
		--timeout "$TIMEOUT"
	expect "not reproduced: names the predicted blocked ranks and events, and what happened" 0 \
		"$WORK/buffered.log" \
		'^not reproduced: the program completed, but the counterexample has these ranks blocked: rank 0 at event 1 \(MPI_Send\), rank 1 at event 1 \(MPI_Send\)$' \
		'^rank 1: predicted blocked in MPI_Send\(dest=0, tag=0, comm=WORLD, 4 bytes\) at send-send-cycle\.c:[0-9]+ \(main\), but it finished' \
		'event 1, MPI_Send, where the counterexample has this rank blocked, completed: the counterexample does not have it made synchronous'
	leftovers "not reproduced" "$SSC"
fi

# ---- divergence ----
# Communicators are compared by identity: the recorded run sends on the split (the second
# communicator each rank made, #3), the replayed one on the duplicate (#2) of the same ranks.
if record_check wrongcomm 2 "$WRONGCOMM" zero; then
	run_cmd "$WORK/wrongcomm-replay.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/wrongcomm/check/cex.json" --timeout "$TIMEOUT"
	expect "divergence: the recorded communicator replays (reproduced)" 1 \
		"$WORK/wrongcomm-replay.log" '^reproduced'
	leftovers "divergence: recorded communicator" "$WRONGCOMM"
	run_cmd "$WORK/wrongcomm-other.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/wrongcomm/check/cex.json" --timeout "$TIMEOUT" -- "$MPIRUN" -np 2 \
		"$WRONGCOMM" dup
	expect "divergence: another communicator of the same ranks diverges" 5 \
		"$WORK/wrongcomm-other.log" \
		'^diverged: rank [01] at event 3: expected MPI_Send\(dest=[01], tag=0, comm=#3, 4 bytes\), got MPI_Send\(dest=[01], tag=0, comm=#2, 4 bytes\)'
	leftovers "divergence: another communicator" "$WRONGCOMM"
fi
# The program's control flow depends on the wildcard's match: forcing the other match sends it
# down another path than the trace, and replay says where.
if record_check branch 3 "$BRANCH" zero; then
	run_cmd "$WORK/branch-replay.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/branch/check/cex.json" --timeout "$TIMEOUT"
	expect "divergence: control flow that depends on the match" 5 \
		"$WORK/branch-replay.log" \
		'^diverged: rank 0 at event 2: expected MPI_Recv\(source=1, tag=0, comm=WORLD, 4 bytes\), got MPI_Recv\(source=2, tag=0, comm=WORLD, 4 bytes\)' \
		'^    in MPI_Recv \(event 2\) at branch-on-source\.c:[0-9]+ \(main\)' \
		'mpiverify\[replayer rank 0\]: diverged at event 2: expected'
	leftovers "divergence: control flow" "$BRANCH"
fi

# A counterexample edited so that rank 0's wildcard receive must match a message from rank 0
# itself, which never sends one.
if record_check wild 3 "$WILD" zero; then
	WILD_CEX=$WORK/wild/check/cex.json
	# the first "match" of the file is rank 0's wildcard receive's
	edit_cex "$WILD_CEX" "$WORK/impossible.json" 's/\("match": {\n *"rank": \)1,/\10,/' ||
		fail "divergence: edit a match of a cex" "sed changed nothing"
	run_cmd "$WORK/impossible.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/impossible.json" --timeout "$TIMEOUT"
	expect "divergence: a counterexample forcing an impossible match" 5 \
		"$WORK/impossible.log" \
		"^diverged: rank 0 at event 1: MPI_Recv at wildcard-recv-order\\.c:[0-9]+ \\(main\\) was pinned to the counterexample's match, rank 0's event"
	leftovers "divergence: impossible match" "$WILD"

	# ---- a trace of JSON files ----
	# `mpiverify trace -o` writes the recorded trace as JSON; check and replay take it too
	# (replay rewrites it for the replayer).
	mkdir -p "$WORK/wild-json"
	run_cmd "$WORK/json-trace.log" "$LIMIT" "$MPIVERIFY" trace -o "$WORK/wild-json" "$WORK/wild"
	cp "$WORK/wild/meta.json" "$WORK/wild-json/" 2>/dev/null
	run_cmd "$WORK/json-check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/wild-json" \
		--buffering zero -o "$WORK/wild-json/check"
	run_cmd "$WORK/json-replay.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/wild-json/check/cex.json" --timeout "$TIMEOUT"
	expect "json trace: a counterexample of a JSON trace replays and is checked" 1 \
		"$WORK/json-replay.log" '^reproduced' \
		'#0 wildcard-recv-order\.c:[0-9]+ \(main\)'
	leftovers "json trace" "$WILD"
fi

# ---- polling ----
# The polls of a loop are timing: replay lines them up with the recorded ones, so that the
# calls after the loop keep their recorded event indices and each rank is found blocked exactly
# where the counterexample says.
# poll_case NAME PROGRAM WHAT: PROGRAM (2 ranks) deadlocks in MPI_Ssend after WHAT.
poll_case()
{
	local name=$1 prog=$2 what=$3
	record_check "$name" 2 "$prog" zero || return
	run_cmd "$WORK/$name-replay.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/$name/check/cex.json" --timeout "$TIMEOUT"
	if expect "polling: a deadlock after $what is reproduced where predicted" 1 \
		"$WORK/$name-replay.log" '^reproduced' \
		"^    predicted: blocked in MPI_Ssend \\(event [0-9]+\\) at $(basename "$prog")\\.c" &&
		grep -Eq 'differs|diverged' "$WORK/$name-replay.log"; then
		fail "polling: $what: every rank blocked at its predicted event" "a rank differs" \
			"$WORK/$name-replay.log"
	fi
	leftovers "polling: $what" "$prog"
}
poll_case poll "$POLL" "polling loops"
poll_case rma-poll "$RMA_POLL" "a MPI_Win_test loop"

# ---- one-sided: the window a call names is part of what replay checks ----
if record_check rma 2 "$RMA" zero; then
	run_cmd "$WORK/rma-replay.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/rma/check/cex.json" --timeout "$TIMEOUT"
	expect "rma: the recorded PSCW deadlock is reproduced" 1 "$WORK/rma-replay.log" \
		'^reproduced' 'blocked in MPI_Win_wait \(event 4\)'
	leftovers "rma: reproduced" "$RMA"
	run_cmd "$WORK/rma-other.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/rma/check/cex.json" --timeout "$TIMEOUT" -- "$MPIRUN" -np 2 "$RMA" 1
	expect "divergence: a window call on another window than recorded" 5 \
		"$WORK/rma-other.log" \
		'^diverged: rank 1 at event 3: expected MPI_Win_post\(win=0\), got MPI_Win_post\(win=1\)'
	leftovers "divergence: another window" "$RMA"
fi

# ---- completion choices ----
# Recorded with rank 1 slow, MPI_Waitany takes rank 2's message (index 1) and rank 0 replies
# to rank 2. Replayed with rank 2 slow ("swap"), MPI would take index 1 only if forced;
# otherwise rank 0 replies to rank 1 and the run diverges.
if record_check waitany 3 "$WANY" zero; then
	run_cmd "$WORK/waitany-replay.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/waitany/check/cex.json" --timeout "$TIMEOUT" -- "$MPIRUN" -np 3 "$WANY" \
		waitany swap
	expect "completion: MPI_Waitany forced to the recorded request against the timing" 1 \
		"$WORK/waitany-replay.log" '^reproduced' \
		'event 3: MPI_Waitany forced to complete index 1 \(made at event 2\), as in the recorded run' \
		'^rank 0: waitany completed index 1 first' \
		'^    predicted: blocked in MPI_Send \(event 4\) at waitany-reply-order\.c'
	leftovers "completion: MPI_Waitany" "$WANY"

	# A counterexample whose "trace" is another program's (same number of ranks), one too
	# short for the counterexample's events: refused before anything runs.
	edit_cex "$WORK/waitany/check/cex.json" "$WORK/other-trace.json" \
		"s#\"trace\": \"[^\"]*\"#\"trace\": \"$WORK/wild\"#" ||
		fail "divergence: edit the trace of a cex" "sed changed nothing"
	run_cmd "$WORK/other-trace.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/other-trace.json" --timeout "$TIMEOUT"
	expect "refused: a counterexample pointing at another program's trace" 3 \
		"$WORK/other-trace.log" \
		"rank 0's event 4 is not in the trace '$WORK/wild', whose rank 0 has 4 events: the counterexample is not from this trace"
	leftovers "refused: another program's trace" "$WANY"

	# ---- a malformed counterexample: the file and the JSON path at fault ----
	edit_cex "$WORK/waitany/check/cex.json" "$WORK/bad-op.json" \
		's/\("ops": \[\n *{\n *"op": \)[0-9]*/\1"one"/' ||
		fail "bad input: edit an op of a cex" "sed changed nothing"
	run_cmd "$WORK/bad-op.log" "$LIMIT" "$MPIVERIFY" replay --trace "$WORK/bad-op.json" \
		--timeout "$TIMEOUT"
	expect "bad input: a malformed counterexample names the file and the JSON path" 3 \
		"$WORK/bad-op.log" "'[^']*bad-op\.json': ranks\[0\]\.ops\[0\]\.op: expected an integer"
fi

# The same program with the first message taken by a polling loop of MPI_Testany, by
# MPI_Waitsome, and by a polling loop of MPI_Testsome.
for method in testany waitsome testsome; do
	record_check "$method" 3 "$WANY" zero "$method" || continue
	case $method in
	testany) call=MPI_Testany ;;
	waitsome) call=MPI_Waitsome ;;
	*) call=MPI_Testsome ;;
	esac
	run_cmd "$WORK/$method-replay.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/$method/check/cex.json" --timeout "$TIMEOUT" -- "$MPIRUN" -np 3 "$WANY" \
		"$method" swap
	expect "completion: $call forced to the recorded request against the timing" 1 \
		"$WORK/$method-replay.log" '^reproduced' \
		"event [0-9]+: $call forced to complete index 1 \\(made at event 2\\)" \
		"^rank 0: $method completed index 1 first"
	leftovers "completion: $call" "$WANY"
done

# ---- nonblocking collectives ----
# Found without buffering, the Ibcast's wait synchronises (run.sh replays it); the same
# counterexample said to be found with buffering gets no barrier, and MPICH's root leaves its
# Ibcast alone: not reproduced, and replay says why.
if record_check ibcast 2 "$IBCAST" zero; then
	edit_cex "$WORK/ibcast/check/cex.json" "$WORK/ibcast-infinite.json" \
		's/"mode": "zero"/"mode": "infinite"/' ||
		fail "not reproduced: edit the buffering of a cex" "sed changed nothing"
	run_cmd "$WORK/ibcast-infinite.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/ibcast-infinite.json" --timeout "$TIMEOUT"
	expect "not reproduced: a nonblocking collective left unsynchronised, and why" 0 \
		"$WORK/ibcast-infinite.log" '^not reproduced' \
		'event 2, MPI_Wait, completed the nonblocking collective made at event 1, which replay did not make synchronise' \
		'^why: the counterexample has a collective wait for its peers'
	leftovers "not reproduced: nonblocking collective" "$IBCAST"
fi

# ---- calm waits ----
# verify's and replay's ranks sleep while a blocking point-to-point call waits (preload/calm.h):
# rank 1 of calm-waits prints the CPU time each of ten blocking calls took while rank 0 slept a
# quarter of a second outside MPI. Recorded, the library polls through the waits: the measure
# tells the two apart.
# cpu_case NAME LOG WANT: LOG has the ten "cpu CALL MS" lines, and each is under 50 ms (WANT
# calm), or they add up to over 300 ms (WANT polls).
cpu_case()
{
	local got
	got=$(awk '$1 == "cpu" { n++; sum += $3; if ($3 > max) { max = $3; at = $2 } }
		END { printf "%d %d %d %s", n, sum, max, at }' "$2")
	set -- "$1" "$2" "$3" $got
	if test "$4" -ne 10; then
		fail "$1" "$4 calls measured, want 10" "$2"
	elif test "$3" = calm && test "$6" -lt 50; then
		pass "$1"
	elif test "$3" = polls && test "$5" -gt 300; then
		pass "$1"
	else
		fail "$1" "ten waits took $5 ms of CPU, MPI_$7 $6 ms (want: $3)" "$2"
	fi
}

CALM=$BINDIR/calm-waits
if build calm-waits tests/e2e/programs/calm-waits.c &&
	record_check calm 2 "$CALM" zero; then
	cpu_case "calm waits: recorded, the library polls while a call waits" \
		"$WORK/calm-record.log" polls
	run_cmd "$WORK/calm-replay.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/calm/check/cex.json" --timeout "$TIMEOUT"
	expect "calm waits: replay reproduces the deadlock after them" 1 "$WORK/calm-replay.log" \
		'^reproduced'
	cpu_case "calm waits: replayed, each blocked call sleeps" "$WORK/calm-replay.log" calm
	run_cmd "$WORK/calm-verify.log" "$LIMIT" "$MPIVERIFY" verify -o "$WORK/calm-verify" \
		--deadlock-timeout "$TIMEOUT" -- "$MPIRUN" -np 2 "$CALM"
	expect "calm waits: verify confirms the deadlock after them" 1 "$WORK/calm-verify.log" \
		'deadlock confirmed'
	cpu_case "calm waits: in verify's run, each blocked call sleeps" \
		"$WORK/calm-verify/runs/1.out" calm
	# a node with more ranks than CPUs: record's blocked ranks sleep too (8 ranks at most)
	cpus=$(getconf _NPROCESSORS_ONLN)
	if test "$cpus" -lt 8; then
		run_cmd "$WORK/calm-over.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/calm-over" \
			--deadlock-timeout "$TIMEOUT" -- "$MPIRUN" -np $((cpus + 1)) "$CALM"
		cpu_case "calm waits: recorded on $((cpus + 1)) ranks and $cpus CPUs, each sleeps" \
			"$WORK/calm-over.log" calm
	fi
	leftovers "calm waits" "$CALM"
fi

# ---- cancels ----
# The counterexample needs rank 0's cancel of its send to succeed; MPICH and Open MPI never
# cancel a send, so the run completes: not reproduced, and replay says why.
if record_check cancel 2 "$BINDIR/cancel-isend-recv" zero; then
	run_cmd "$WORK/cancel-replay.log" "$LIMIT" "$MPIVERIFY" replay --trace \
		"$WORK/cancel/check/cex.json" --timeout "$TIMEOUT"
	expect "not reproduced: a cancelled send, and why" 0 "$WORK/cancel-replay.log" \
		'^not reproduced' \
		"^why: the counterexample needs the cancellation of rank 0's request made at event 1 to succeed"
	leftovers "not reproduced: cancelled send" "$BINDIR/cancel-isend-recv"
fi

finish_work
