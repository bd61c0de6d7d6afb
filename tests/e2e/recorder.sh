#!/bin/bash
# The recorder under hangs, crashes and threads, end to end with the real mpirun (make check):
# a rank killed by a signal, a program that calls MPI_Abort, a rank that exits without
# MPI_Finalize, a run whose rank 0 left no trace, a launcher that never collects its ended
# ranks, a real deadlock, a completion too large for the recorder's buffer, and two
# threads per rank under MPI_THREAD_MULTIPLE must all leave traces that `mpiverify trace` and
# `check` read up to the last complete operation; an unwritable trace directory must be
# refused before anything is launched; one-sided calls must record their window, group, target
# and lock type in world ranks; the processes a job spawns must run unrecorded, their parents'
# traces whole. A hang whose traces show that no call can complete is ended without waiting
# for the timeout, unless the traces are too long to read then. The programs are
# tests/e2e/programs/rec-*.c.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped (mpicc or mpirun missing).
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN"
require_mpiverify
require_mpi_built

WORK=$(make_workdir recorder) || exit 1
BINDIR=$WORK/bin	# private: its programs are rebuilt every run
mkdir -p "$BINDIR"
N=50		# round trips before rank 1 ends (rec-ends.c)
SELF=20		# messages rank 1 then sends itself, as in rec-ends.c
ROUNDS=500	# round trips of each thread (rec-threads.c)
LIMIT=60	# safety net of every command

# expect NAME CONDITION-STATUS WHY [LOG]: pass if the condition (an exit status) is 0.
expect()
{
	if test "$2" -eq 0; then
		pass "$1"
	else
		fail "$1" "$3" "${4:-}"
	fi
}

# compile NAME [LIBS]: build tests/e2e/programs/NAME.c into $BINDIR, warning-free.
compile()
{
	local log=$WORK/$1.cc.log
	# shellcheck disable=SC2086 # LIBS is a list of words
	"$MPICC" -g -O0 -Wall -o "$BINDIR/$1" "$SRCDIR/tests/e2e/programs/$1.c" ${2:-} \
		</dev/null >"$log" 2>&1
	if test $? -ne 0; then
		fail "compile $1" "$MPICC failed" "$log"
		return 1
	elif test -s "$log"; then
		fail "compile $1" "warnings from '$MPICC -Wall'" "$log"
	else
		pass "compile $1"
	fi
}

# trace_json DIR RANK: rank RANK's trace as JSON into $WORK/json, RC its exit status.
trace_json()
{
	run_cmd "$WORK/json" "$LIMIT" "$MPIVERIFY" trace -r "$2" "$1"
}

# count_calls: events in $WORK/json; is_truncated: "true" or "false"; last_call: the last
# event's call.
count_calls() { grep -c '"call":' "$WORK/json"; }
is_truncated() { sed -n 's/.*"truncated": \([a-z]*\).*/\1/p' "$WORK/json" | head -n 1; }
last_call() { sed -n 's/.*"call": "\([A-Za-z_]*\)".*/\1/p' "$WORK/json" | tail -n 1; }

# rank_case NAME DIR RANK CALLS TRUNCATED [LASTCALL]: rank RANK's trace reads back with
# CALLS events (">=N": at least N), truncated or not (any: either), ending with LASTCALL.
rank_case()
{
	local name=$1 dir=$2 r=$3 want=$4 trunc=$5 lastc=${6:-} n t l why=''
	trace_json "$dir" "$r"
	if test "$RC" -ne 0; then
		fail "$name: rank $r's trace reads" "mpiverify trace: $(describe "$RC")" "$WORK/json"
		return
	fi
	n=$(count_calls)
	t=$(is_truncated)
	l=$(last_call)
	case $want in
	'>='*) test "$n" -ge "${want#>=}" || why="$n events, want at least ${want#>=}" ;;
	*) test "$n" -eq "$want" || why="$n events, want $want" ;;
	esac
	test "$trunc" = any || test "$t" = "$trunc" || why="${why:+$why; }truncated: $t, want $trunc"
	test -z "$lastc" || test "$l" = "$lastc" || why="${why:+$why; }last call $l, want $lastc"
	if test -z "$why"; then
		pass "$name: rank $r's trace ($n events, truncated: $t)"
	else
		fail "$name: rank $r's trace" "$why" "$WORK/json"
	fi
}

describe()
{
	case $1 in
	124) echo "timed out" ;;
	*) echo "exit $1" ;;
	esac
}

# check_case NAME DIR WANT PATTERN...: check reads the traces, exits WANT (1: the deadlock of
# a run that hung; 5, inconclusive: a run in which a rank stopped without finishing, never a
# verdict of "no deadlock") and prints every PATTERN.
check_case()
{
	local name=$1 dir=$2 want=$3 log=$WORK/$1.check.log p missing=''
	shift 3
	run_cmd "$log" 300 "$MPIVERIFY" check "$dir" -o "$dir/check"
	if test "$RC" -ne "$want"; then
		fail "$name: check reads the traces" "$(describe "$RC"), want $want" "$log"
		return
	fi
	for p in "$@"; do
		grep -q -- "$p" "$log" || missing="$missing '$p'"
	done
	if test -n "$missing"; then
		fail "$name: check reports it" "no line matching$missing" "$log"
	else
		pass "$name: check reports it"
	fi
}

cd "$WORK" || exit 1
compile rec-ends || exit 1
compile rec-threads -lpthread || exit 1
ENDS=$BINDIR/rec-ends

# ---- a rank that dies: by a signal, through its own handler, by MPI_Abort ----
# Rank 1 ends after 1 + 2N + 3 SELF calls, the last 3 SELF written by the way it ends (the
# signal handler, MPI_Abort, each with a stop record that says how) or lost (SIGKILL: the
# trace is cut); the launcher then ends rank 0, blocked in MPI_Recv, which keeps what its
# status thread flushed: its 1 + 2N calls at least. MPICH's Hydra SIGKILLs it (its trace is
# cut), Open MPI's mpirun sends SIGTERM first (the recorder writes its trace out and says
# so). check answers inconclusive, naming how each rank stopped.
case $MPI_LIB in
openmpi) R0_TRUNC=false R0_SAYS=("^  rank 0  died of signal 15 (Terminated)") ;;
*) R0_TRUNC=true R0_SAYS=("note: rank 0's trace .* is truncated" "^  rank 0  was killed") ;;
esac
for mode in segv kill handler abort; do
	dir=$WORK/$mode
	run_cmd "$WORK/$mode.record.log" "$LIMIT" "$MPIVERIFY" record -o "$dir" \
		--deadlock-timeout 20 -- "$MPIRUN" -np 2 "$ENDS" "$mode" "$N"
	expect "$mode: record passes the failure through" \
		"$(test "$RC" -ne 0 && test "$RC" -ne 124; echo $?)" "$(describe "$RC")" \
		"$WORK/$mode.record.log"
	case $mode in
	abort)
		rank_case "$mode" "$dir" 1 $((2 + 2 * N + 3 * SELF)) false MPI_Abort
		rank_case "$mode" "$dir" 0 ">=$((1 + 2 * N))" "$R0_TRUNC"
		check_case "$mode" "$dir" 5 "rank 1  called MPI_Abort with error code 5" \
			"${R0_SAYS[@]}"
		;;
	kill)
		rank_case "$mode" "$dir" 1 ">=$((1 + 2 * N))" true
		rank_case "$mode" "$dir" 0 ">=$((1 + 2 * N))" "$R0_TRUNC"
		check_case "$mode" "$dir" 5 "note: rank 1's trace .* is truncated" \
			"^  rank 1  was killed"
		;;
	*)
		rank_case "$mode" "$dir" 1 $((1 + 2 * N + 3 * SELF)) false MPI_Wait
		rank_case "$mode" "$dir" 0 ">=$((1 + 2 * N))" "$R0_TRUNC"
		check_case "$mode" "$dir" 5 "rank 1  died of signal 11 (Segmentation fault)"
		;;
	esac
done
if grep -q "the program's own SIGSEGV handler ran" "$WORK/handler.record.log"; then
	pass "handler: the program's own handler ran after the recorder's"
else
	fail "handler: the program's own handler ran after the recorder's" \
		"its message is missing" "$WORK/handler.record.log"
fi

# ---- a rank that exits without MPI_Finalize: its trace is complete and closed ----
# One rank: the launcher kills the rest of a job as soon as one rank exits so.
dir=$WORK/exit
run_cmd "$WORK/exit.record.log" "$LIMIT" "$MPIVERIFY" record -o "$dir" -- \
	"$MPIRUN" -np 1 "$ENDS" exit "$N"
expect "exit: record" "$(test "$RC" -ne 124; echo $?)" "$(describe "$RC")" "$WORK/exit.record.log"
rank_case exit "$dir" 0 $((1 + 3 * N)) false MPI_Wait
check_case exit "$dir" 5 "rank 0  exited with status 0 without calling MPI_Finalize"

# ---- rank 0 left no trace: the run is recorded all the same ----
# The launcher can kill rank 0 before it opened its trace, once another rank aborted; here the
# launcher line removes rank 0's file after the run. record must not take the run for one no
# rank wrote (exit 4), and check answers inconclusive, naming rank 0.
dir=$WORK/norank0
run_cmd "$WORK/norank0.record.log" "$LIMIT" "$MPIVERIFY" record -o "$dir" -- sh -c \
	'"$0" -np 2 "$1" abort "$2"; rc=$?; rm -f "$MPIVERIFY_TRACE_DIR/rank-0.mpivt"; exit $rc' \
	"$MPIRUN" "$ENDS" "$N"
expect "norank0: record takes a run without rank 0's trace" \
	"$(test "$RC" -ne 124 && test "$RC" -ne 4 && test ! -e "$dir/rank-0.mpivt"; echo $?)" \
	"$(describe "$RC")" "$WORK/norank0.record.log"
check_case norank0 "$dir" 5 "rank 0  left no trace"

# ---- a launcher that hangs after its ranks ended: record ends it rather than wait ----
# rank 0 stops its parent, so that neither rank is ever collected and the launcher waits for
# good; every rank has ended, so record must end the launcher after the deadlock timeout, say
# why, leave nothing behind, and check answers inconclusive as for any rank that exited so.
dir=$WORK/unreaped
run_cmd "$WORK/unreaped.record.log" "$LIMIT" "$MPIVERIFY" record -o "$dir" \
	--deadlock-timeout 2 -- "$MPIRUN" -np 2 "$ENDS" unreaped "$N"
expect "unreaped: record ends a launcher that outlives its ranks" \
	"$(test "$RC" -ne 124 && grep -q "every rank of the job has ended, but the launcher" \
		"$WORK/unreaped.record.log"; echo $?)" "$(describe "$RC")" "$WORK/unreaped.record.log"
check_case unreaped "$dir" 5 "rank 0  exited with status 0 without calling MPI_Finalize" \
	"rank 1  exited with status 0 without calling MPI_Finalize"
if no_leftovers "$ENDS"; then
	pass "unreaped: no leftover processes"
else
	echo "$LEFTOVERS" >"$WORK/leftovers.log"
	fail "unreaped: no leftover processes" "processes still running (killed now)" \
		"$WORK/leftovers.log"
fi

# ---- a real deadlock: the blocked call is in the trace, marked as never returned ----
dir=$WORK/hang
run_cmd "$WORK/hang.record.log" "$LIMIT" "$MPIVERIFY" record -o "$dir" --deadlock-timeout 2 \
	-- "$MPIRUN" -np 2 "$ENDS" hang "$N"
expect "hang: record ends the job and exits 1" "$(test "$RC" -eq 1; echo $?)" \
	"$(describe "$RC"), want 1" "$WORK/hang.record.log"
# the ranks end by the SIGTERM record's ending of the job sends them, and their traces say so
# unless the launcher's SIGKILL comes first: cut or not, the blocked call is in
rank_case hang "$dir" 0 $((2 + 2 * N)) any MPI_Recv
rank_case hang "$dir" 1 $((2 + 2 * N)) any MPI_Recv
check_case hang "$dir" 1 "note: rank 0's trace ends inside MPI_Recv" \
	"note: rank 1's trace ends inside MPI_Recv" "when record ended the job"
if no_leftovers "$ENDS"; then
	pass "hang: no leftover processes"
else
	echo "$LEFTOVERS" >"$WORK/leftovers.log"
	fail "hang: no leftover processes" "processes still running (killed now)" \
		"$WORK/leftovers.log"
fi

# ---- a ring of sends no library buffers: each rank is waited for by the one before it ----
if compile rec-send-ring; then
	dir=$WORK/ring
	run_cmd "$WORK/ring.record.log" "$LIMIT" "$MPIVERIFY" record -o "$dir" \
		--deadlock-timeout 2 -- "$MPIRUN" -np 3 "$BINDIR/rec-send-ring"
	expect "ring: record ends the hung job and exits 1" "$(test "$RC" -eq 1; echo $?)" \
		"$(describe "$RC"), want 1" "$WORK/ring.record.log"
	# the recorded path is followed with the library's eager threshold: 1 MiB sends block
	check_case ring "$dir" 1 "waited for by: rank 2$" "waited for by: rank 0$" \
		"waited for by: rank 1$"
	# --error-exitcode: the hang's own status, told from a program's exit 1
	run_cmd "$WORK/ring42.record.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/ring42" \
		--deadlock-timeout 2 --error-exitcode 42 -- "$MPIRUN" -np 3 "$BINDIR/rec-send-ring"
	expect "ring: record --error-exitcode 42 exits 42 on the hang" \
		"$(test "$RC" -eq 42; echo $?)" "$(describe "$RC"), want 42" "$WORK/ring42.record.log"
	# the default timeout, 30 s, is not waited out: the traces show that no send can
	# complete (the command's limit is 20 s)
	run_cmd "$WORK/ring-early.record.log" 20 "$MPIVERIFY" record -o "$WORK/ring-early" \
		-- "$MPIRUN" -np 3 "$BINDIR/rec-send-ring"
	expect "ring: record sees the hang before its 30 s timeout, from the traces" \
		"$(test "$RC" -eq 1 && grep -q 'the traces so far show that no call can complete' \
			"$WORK/ring-early.record.log"; echo $?)" "$(describe "$RC"), want 1 and why" \
		"$WORK/ring-early.record.log"
	if no_leftovers "$BINDIR/rec-send-ring"; then
		pass "ring: no leftover processes"
	else
		echo "$LEFTOVERS" >"$WORK/leftovers.log"
		fail "ring: no leftover processes" "processes still running (killed now)" \
			"$WORK/leftovers.log"
	fi
fi

# ---- threads blocked in MPI calls (rec-thread-hang.c, MPI_THREAD_MULTIPLE): judged on the
# traces once every thread of each rank that may call MPI is blocked in a call, one a rank or
# two; a thread made before MPI_Init or after it that has not called MPI yet may still, and
# the run goes on (it completes 2 s later) ----
if compile rec-thread-hang -lpthread; then
	for form in "alone" "alone before" "alone after" "pair" "pair before" "pair after"; do
		name="thread hang, $form"
		log=$WORK/thread-hang-${form// /-}.record.log
		# shellcheck disable=SC2086 # the form is the program's arguments
		run_cmd "$log" 20 "$MPIVERIFY" record -o "$WORK/thread-hang-${form// /-}" \
			--deadlock-timeout 4 -- "$MPIRUN" -np 2 "$BINDIR/rec-thread-hang" $form
		case $form in
		alone | pair) want='the traces so far show that no call' ;;
		*) want='' ;;
		esac
		if test -n "$want"; then
			expect "$name: record says '$want'" \
				"$(test "$RC" -eq 1 && grep -q -- "$want" "$log"; echo $?)" \
				"$(describe "$RC"), want 1 and that line" "$log"
		else
			expect "$name: the run completes" "$(test "$RC" -eq 0; echo $?)" \
				"$(describe "$RC"), want 0" "$log"
		fi
	done
	no_leftovers "$BINDIR/rec-thread-hang" ||
		fail "thread hang: no leftover processes" "$LEFTOVERS"
fi

# ---- a hang after a long run: judged on the traces while they are short, else the timeout
# decides (the monitor does not read a long run's whole trace: over 8 MiB of files) ----
if compile rec-long-then-hang; then
	for rounds in 1000 150000; do
		run_cmd "$WORK/long-$rounds.record.log" "$LIMIT" "$MPIVERIFY" record \
			-o "$WORK/long-$rounds" --deadlock-timeout 3 -- "$MPIRUN" -np 2 \
			"$BINDIR/rec-long-then-hang" "$rounds"
		if test "$rounds" -eq 1000; then
			want="blocked for [0-9.]* s, and the traces so far show that no call"
		else
			want="every rank blocked for [0-9]* s$"
		fi
		expect "long-then-hang, $rounds rounds: record says '$want'" \
			"$(test "$RC" -eq 1 && grep -q -- "$want" "$WORK/long-$rounds.record.log"
			echo $?)" "$(describe "$RC"), want 1 and that line" \
			"$WORK/long-$rounds.record.log"
	done
fi

# ---- no progress: both ranks poll forever (MPI_Test, MPI_Iprobe), never blocked ----
# record must take it for hung, name each rank's polling call and its line, end the job (no
# leftovers) and exit 1; each rank's run of failed polls is one event, the last in its trace.
if compile rec-poll-forever; then
	POLLS=$BINDIR/rec-poll-forever
	dir=$WORK/polls
	run_cmd "$WORK/polls.record.log" "$LIMIT" "$MPIVERIFY" record -o "$dir" \
		--deadlock-timeout 2 -- "$MPIRUN" -np 2 "$POLLS"
	expect "polls: record ends the job and exits 1" "$(test "$RC" -eq 1; echo $?)" \
		"$(describe "$RC"), want 1" "$WORK/polls.record.log"
	for want in "no progress" \
		"rank 0: polling without progress: [0-9]* failed MPI_Test .* at .*rec-poll-forever.c:17" \
		"rank 1: polling without progress: [0-9]* failed MPI_Iprobe .* at .*rec-poll-forever.c:20"; do
		expect "polls: the report says '$want'" \
			"$(grep -q -- "$want" "$WORK/polls.record.log"; echo $?)" "missing" \
			"$WORK/polls.record.log"
	done
	rank_case polls "$dir" 0 3 any MPI_Test
	rank_case polls "$dir" 1 2 any MPI_Iprobe
	# the polls that never found anything are where the ranks are stuck
	check_case polls "$dir" 1 "rank 0  blocked in MPI_Test" "rank 1  blocked in MPI_Iprobe"
	if no_leftovers "$POLLS"; then
		pass "polls: no leftover processes"
	else
		echo "$LEFTOVERS" >"$WORK/leftovers.log"
		fail "polls: no leftover processes" "processes still running (killed now)" \
			"$WORK/leftovers.log"
	fi
fi

# ---- one completion of 6000 requests: longer than the buffer, written on its own ----
dir=$WORK/bigwait
run_cmd "$WORK/bigwait.record.log" "$LIMIT" "$MPIVERIFY" record -o "$dir" -- \
	"$MPIRUN" -np 2 "$ENDS" bigwait 5
expect "bigwait: record" "$RC" "$(describe "$RC")" "$WORK/bigwait.record.log"
rank_case bigwait "$dir" 1 $((1 + 10 + 6000 + 1 + 1)) false MPI_Finalize
expect "bigwait: every request listed" "$(test "$(grep -c '"req":' "$WORK/json")" -eq 12000; \
	echo $?)" "$(grep -c '"req":' "$WORK/json") request entries, want 12000" "$WORK/json"

# ---- MPI_THREAD_MULTIPLE: two threads per rank ----
# thread_check NAME FILE RANK PER MAIN: the events of FILE (rank RANK's trace as JSON) are in
# index order 0, 1, ...; each names its thread (none: the main thread, 0): MAIN events on
# thread 0, then PER on each of threads 1 and 2, each thread on its own tag, rank 1's
# alternating MPI_Recv and MPI_Send.
thread_check()
{
	local why
	why=$(awk -v per="$4" -v r="$3" -v main="$5" '
		function flush() {
			if (call == "") return
			thr[th]++
			if (th != 0 && tag != "") {
				if (th in tagof && tagof[th] != tag) bad = bad " thread " th " changed tags;"
				tagof[th] = tag
			}
			if (r == 1 && th != 0) {
				want = (thr[th] % 2) ? "MPI_Recv" : "MPI_Send"
				if (call != want) bad = bad " thread " th " made " call " where " want " was due;"
			}
		}
		/^    {/ { flush(); call = ""; tag = ""; th = 0; next }
		/^      "index":/ { v = $2 + 0; if (v != n) bad = bad " index " v " at position " n ";"; n++ }
		/^      "call":/ { call = $2; gsub(/[",]/, "", call) }
		/^      "tag":/ { tag = $2 + 0 }
		/^      "thread":/ { th = $2 + 0 }
		END {
			flush()
			if (thr[0] != main) bad = bad " " thr[0] " events on the main thread, want " main ";"
			if (thr[1] != per || thr[2] != per)
				bad = bad " threads 1 and 2 made " thr[1] " and " thr[2] " calls, want " per ";"
			print bad
		}' "$2")
	expect "$1: rank $3's events in index order, per thread" "$(test -z "$why"; echo $?)" \
		"$why" "$2"
}

dir=$WORK/threads
run_cmd "$WORK/threads.record.log" "$LIMIT" "$MPIVERIFY" record -o "$dir" -- \
	"$MPIRUN" -np 2 "$BINDIR/rec-threads" "$ROUNDS"
expect "threads: record" "$RC" "$(describe "$RC")" "$WORK/threads.record.log"
# rank 0: Isend, Recv, Wait per round and thread; rank 1: Recv, Send; both Init and Finalize
rank_case threads "$dir" 0 $((2 + 2 * 3 * ROUNDS)) false MPI_Finalize
thread_check threads "$WORK/json" 0 $((3 * ROUNDS)) 2
rank_case threads "$dir" 1 $((2 + 2 * 2 * ROUNDS)) false MPI_Finalize
thread_check threads "$WORK/json" 1 $((2 * ROUNDS)) 2

# Rank 0's main thread blocked in MPI_Recv while its threads go on: the recorder writes the
# call as incomplete after a second, taking its index there, and replaces it when it returns.
# R rounds of at least 5 ms keep the threads busy for 2 s.
R=400
dir=$WORK/blocked
run_cmd "$WORK/blocked.record.log" "$LIMIT" "$MPIVERIFY" record -o "$dir" -- \
	"$MPIRUN" -np 2 "$BINDIR/rec-threads" "$R" blocked
expect "blocked: record" "$RC" "$(describe "$RC")" "$WORK/blocked.record.log"
rank_case blocked "$dir" 0 $((3 + 2 * 3 * R)) false MPI_Finalize
thread_check blocked "$WORK/json" 0 $((3 * R)) 3
why=$(awk -v last=$((1 + 2 * 3 * R)) '
	/^      "index":/ { idx = $2 + 0 }
	/^      "tag": 99/ { found = idx }
	/^      "incomplete":/ && found == idx { bad = bad " still incomplete;" }
	/^      "src":/ && found == idx && $2 + 0 != 1 { bad = bad " matched " $2 ";" }
	END {
		if (found == "") bad = bad " no MPI_Recv of tag 99;"
		else if (found + 0 >= last) bad = bad " at index " found ", after every call of the threads: never written as incomplete while blocked;"
		print bad
	}' "$WORK/json")
expect "blocked: the blocked call was written among the threads' calls, then completed" \
	"$(test -z "$why"; echo $?)" "$why" "$WORK/json"

# ---- one-sided: window ids, groups, targets and lock types as world ranks ----
# rma_events RANK: rank RANK's window and RMA-data events of $WORK/rma, one per line, without
# their call sites (an event with requests up to its first request's id).
rma_events()
{
	"$MPIVERIFY" trace -r "$1" "$WORK/rma" | tr -d ' \n' | sed 's/"site":{[^}]*},*//g' |
		grep -o '"call":"MPI_\(Win\|Put\|Get\|Acc\|Rget\)[^}]*' | sed 's/,$//'
}
if compile rec-rma; then
	run_cmd "$WORK/rma.record.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/rma" -- \
		"$MPIRUN" -np 3 "$BINDIR/rec-rma"
	expect "rma: record" "$RC" "$(describe "$RC")" "$WORK/rma.record.log"
	# window 1 is on a communicator that reverses the ranks (each rank's first derived
	# communicator: id 2): its group and targets are world ranks all the same
	common='"call":"MPI_Win_create","comm":0,"bytes":16,"win":0,"group":[0,1,2]
"call":"MPI_Win_allocate","comm":2,"bytes":8,"win":1,"group":[2,1,0]'
	want[0]="$common"'
"call":"MPI_Win_start","win":0,"group":[2,1]
"call":"MPI_Put","peer":2,"bytes":8,"win":0
"call":"MPI_Win_complete","win":0
"call":"MPI_Win_lock","peer":2,"win":1,"lock":"exclusive"
"call":"MPI_Accumulate","peer":2,"bytes":4,"win":1
"call":"MPI_Win_flush","peer":2,"win":1
"call":"MPI_Win_unlock","peer":2,"win":1'
	want[1]="$common"'
"call":"MPI_Win_post","win":0,"group":[0]
"call":"MPI_Win_wait","win":0
"call":"MPI_Win_lock","peer":0,"win":1,"lock":"shared"
"call":"MPI_Get","peer":0,"bytes":8,"win":1
"call":"MPI_Rget","peer":0,"bytes":4,"win":1,"reqs":[{"req":0
"call":"MPI_Win_unlock","peer":0,"win":1'
	want[2]="$common"'
"call":"MPI_Win_post","win":0,"group":[0]
"call":"MPI_Win_wait","win":0'
	for r in 0 1 2; do
		want[r]="${want[r]}"'
"call":"MPI_Win_fence","win":1
"call":"MPI_Win_allocate_shared","comm":0,"bytes":4,"win":2,"group":[0,1,2]
"call":"MPI_Win_create_dynamic","comm":2,"win":3,"group":[2,1,0]
"call":"MPI_Win_free","win":3
"call":"MPI_Win_free","win":2
"call":"MPI_Win_free","win":1
"call":"MPI_Win_free","win":0'
		rma_events "$r" >"$WORK/rma-$r.got" 2>&1
		printf '%s\n' "${want[r]}" >"$WORK/rma-$r.want"
		if diff "$WORK/rma-$r.want" "$WORK/rma-$r.got" >"$WORK/rma-$r.diff"; then
			pass "rma: rank $r's window fields"
		else
			fail "rma: rank $r's window fields" "recorded fields differ (want, got)" \
				"$WORK/rma-$r.diff"
		fi
	done
fi

# ---- a job that spawns processes: its children run unrecorded ----
# MPI_Comm_spawn's children inherit the recorder with the job's environment and number their
# ranks from 0 again: recorded, they wrote over their parents' traces, and check failed on
# "data after the end record". They run unrecorded and say so once; the parents' traces read
# back whole, and check leaves out each rank's calls from the spawn on, naming it (dynamic
# processes are not modelled): inconclusive.
# Debian's MPICH 4.0.2 (ch4:ucx) fails MPI_Comm_spawn on a machine without a network: where
# the program fails without mpiverify, the case says so and is skipped.
if compile rec-spawn; then
	run_cmd "$WORK/spawn.plain.log" "$LIMIT" "$MPIRUN" -np 2 "$BINDIR/rec-spawn"
	if test "$RC" -ne 0; then
		echo "note: rec-spawn fails without mpiverify on $MPI_TITLE ($(describe "$RC")):" \
			"the spawn case is skipped"
	else
		dir=$WORK/spawn
		run_cmd "$WORK/spawn.record.log" "$LIMIT" "$MPIVERIFY" record -o "$dir" -- \
			"$MPIRUN" -np 2 "$BINDIR/rec-spawn"
		expect_text "spawn: the children run, unrecorded, and say so" 0 \
			"$WORK/spawn.record.log" "child 0 got 42" "child 1 got 0" \
			"this job was started by MPI_Comm_spawn: its 2 rank(s) are not recorded"
		files=$(cd "$dir" && echo rank-*.mpivt)
		expect "spawn: the parents' traces alone" \
			"$(test "$files" = "rank-0.mpivt rank-1.mpivt"; echo $?)" "trace files: $files"
		rank_case spawn "$dir" 0 5 false MPI_Finalize
		rank_case spawn "$dir" 1 4 false MPI_Finalize
		check_case spawn "$dir" 5 \
			"left out from its event 1 on: the trace uses MPI_Comm_spawn"
	fi
fi

# ---- an unwritable trace directory: refused before the launcher runs (exit 3) ----
# unwritable_case NAME DIR [RUNNER...]: record into DIR must exit 3 naming it and not run.
unwritable_case()
{
	local name=$1 dir=$2 log=$WORK/unwritable.log marker=$WORK/launched
	shift 2
	rm -f "$marker"
	run_cmd "$log" "$LIMIT" "$@" "$MPIVERIFY" record -o "$dir" -- sh -c "touch '$marker'"
	if test "$RC" -ne 3; then
		fail "unwritable: $name" "$(describe "$RC"), want 3" "$log"
	elif test -e "$marker"; then
		fail "unwritable: $name" "exit 3, but the launcher ran" "$log"
	elif ! grep -q "$dir" "$log"; then
		fail "unwritable: $name" "exit 3, but the message does not name '$dir'" "$log"
	else
		pass "unwritable: $name"
	fi
}
ro=$WORK/read-only
mkdir -p "$ro" && chmod 555 "$ro"
chmod 755 "$WORK"	# the unprivileged user must reach it
touch "$WORK/a-file"
if test "$(id -u)" -ne 0; then
	unwritable_case "a read-only directory" "$ro"
elif command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups \
	test -x "$MPIVERIFY" 2>/dev/null; then
	unwritable_case "a read-only directory (as nobody)" "$ro" \
		setpriv --reuid=65534 --regid=65534 --clear-groups
else
	echo "note: running as root, and user nobody cannot run '$MPIVERIFY' (no setpriv, or a" \
		"directory on the way it may not enter): the read-only directory case is skipped"
fi
unwritable_case "a directory under a regular file" "$WORK/a-file/trace"
unwritable_case "a directory no one may create files in" /proc/1

# ---- communicators: ids the same call gives alike, members as world ranks ----
# rec-comms writes, per rank (into rec-comms-R.txt), every communicator it makes by dup,
# idup, split, split_type, create, create_group (even ranks), cart (twice), cart_sub,
# dist_graph (MPI_Dist_graph_create_adjacent), dup_with_info, graph (MPI_Graph_create) and
# dist_graph_general (MPI_Dist_graph_create), intercomm (MPI_Intercomm_create of the split
# halves) and merge (MPI_Intercomm_merge), then a dup after freeing them all, as "rank R
# NAME: MEMBERS" (world ranks by rank in it; "null" for MPI_COMM_NULL), and then calls
# MPI_Barrier on it. The trace must list the same members on the creating event, give each
# communicator a new id (never one freed before, even if MPI reuses the handle) and name it
# in the barrier that follows.
compile rec-comms || exit 1
dir=$WORK/comms
run_cmd "$WORK/comms.record.log" "$LIMIT" "$MPIVERIFY" record -o "$dir" -- \
	"$MPIRUN" -np 4 "$BINDIR/rec-comms"
expect "comms: record" "$RC" "$(describe "$RC")" "$WORK/comms.record.log"
for r in 0 1 2 3; do
	# what the program saw: "CALL MEMBERS" per creation, in order
	sed -n "s/^rank $r \([a-z_0-9]*\):\(.*\)$/\1 \2/p" "$WORK/rec-comms-$r.txt" |
		awk 'BEGIN { name["cart"] = "MPI_Cart_create"; name["cart_sub"] = "MPI_Cart_sub"
			     name["dist_graph"] = "MPI_Dist_graph_create_adjacent"
			     name["graph"] = "MPI_Graph_create"
			     name["dist_graph_general"] = "MPI_Dist_graph_create"
			     name["intercomm"] = "MPI_Intercomm_create"
			     name["merge"] = "MPI_Intercomm_merge" }
		     { n = $1; sub(/2$/, "", n)	# dup2, cart2: a second one
		       call = n in name ? name[n] : "MPI_Comm_" n; m = ""
		       for (i = 2; i <= NF; i++) m = m (i > 2 ? "," : "") $i
		       print call, (m == "null" ? "-" : m) }' >"$WORK/comms-want-$r"
	trace_json "$dir" "$r"
	# what the trace says: the same, and the ids checked along the way
	tr -d ' \n' <"$WORK/json" | sed 's/{"index":/\n/g' | awk -F'"call":"' '
		NF > 1 {
			split($2, a, "\""); call = a[1]
			id = ""; m = "-"; comm = ""
			if (match($0, /"newcomm":[0-9]+/)) id = substr($0, RSTART + 10, RLENGTH - 10) + 0
			if (match($0, /"members":\[[0-9,]*\]/)) m = substr($0, RSTART + 11, RLENGTH - 12)
			if (match($0, /"comm":-?[0-9]+/)) comm = substr($0, RSTART + 7, RLENGTH - 7) + 0
			if (call ~ /^MPI_(Comm_(dup|dup_with_info|idup|split|split_type|create|create_group)|Cart_(create|sub)|Dist_graph_create(_adjacent)?|Graph_create|Intercomm_(create|merge))$/) {
				print call, m
				if (id != "") {
					if (id <= last) bad = bad " id " id " after " last ";"
					last = id; want = id
				}
			}
			if (call == "MPI_Barrier" && comm != want)
				bad = bad " barrier on comm " comm ", want " want ";"
		}
		END { if (bad != "") print "BAD" bad }' >"$WORK/comms-got-$r"
	if grep -q '^BAD' "$WORK/comms-got-$r"; then
		fail "comms: rank $r's communicator ids" "$(grep '^BAD' "$WORK/comms-got-$r")" \
			"$WORK/json"
	elif ! test -s "$WORK/comms-want-$r"; then
		fail "comms: rank $r's communicators" "the program wrote none" \
			"$WORK/comms.record.log"
	elif cmp -s "$WORK/comms-want-$r" "$WORK/comms-got-$r"; then
		pass "comms: rank $r's communicators, their members and ids"
	else
		diff "$WORK/comms-want-$r" "$WORK/comms-got-$r" >"$WORK/comms-diff-$r"
		fail "comms: rank $r's communicators" "trace and program disagree" \
			"$WORK/comms-diff-$r"
	fi
done
check_case comms "$dir" 0 "no deadlock on the recorded path"

# ---- the quick way of the most frequent calls records what the common way does ----
# rec-quick runs once with MPI_Init (Send, Isend, Recv, Irecv and Wait take the quick way)
# and once with MPI_THREAD_MULTIPLE (calls may overlap: every call takes the common way); the
# traces must have the same events, field for field, but for the first (MPI_Init or
# MPI_Init_thread); the header says which thread level.
compile rec-quick || exit 1
for mode in single multiple; do
	run_cmd "$WORK/quick-$mode.record.log" "$LIMIT" "$MPIVERIFY" record \
		-o "$WORK/quick-$mode" -- "$MPIRUN" -np 2 "$BINDIR/rec-quick" "$mode"
	expect "quick: record ($mode)" "$RC" "$(describe "$RC")" "$WORK/quick-$mode.record.log"
done
for r in 0 1; do
	for mode in single multiple; do
		run_cmd "$WORK/quick-$mode-$r.json" "$LIMIT" "$MPIVERIFY" trace -r "$r" \
			"$WORK/quick-$mode"
		# an event a line, the header and event 0 left out
		tr -d ' \n' <"$WORK/quick-$mode-$r.json" | sed 's/},{"index"/}\n{"index"/g' |
			sed 1d >"$WORK/quick-$mode-$r.events"
	done
	n=$(grep -c '"call":' "$WORK/quick-single-$r.events")
	if ! test "$n" -gt 100000; then
		fail "quick: rank $r's events" "$n events, want over 100000" "$WORK/quick-single-$r.json"
	elif cmp -s "$WORK/quick-single-$r.events" "$WORK/quick-multiple-$r.events"; then
		pass "quick: rank $r's $n events, the quick and the common way alike"
	else
		diff "$WORK/quick-single-$r.events" "$WORK/quick-multiple-$r.events" | head -n 40 \
			>"$WORK/quick-diff-$r"
		fail "quick: rank $r's events" "the quick way records otherwise" "$WORK/quick-diff-$r"
	fi
done
grep -q '"incomplete"' "$WORK/quick-single-0.events" &&
	fail "quick: the blocked receive" "still incomplete in the trace" "$WORK/quick-single-0.json"

# ---- a program that runs close to its stack limit: recording must not change its fate ----
# rec-stack-limit makes its point-to-point calls (one blocked for 1.5 s, long enough for its
# stack to be taken) MARGIN bytes above the lowest address its stack may reach. MARGIN is
# what those calls take without a tool (measured first, on a painted stack) plus a little:
# STACK_SLACK. Every plain run must pass (else MARGIN is too small for MPI itself, and the
# case says so), and so must every recorded one: before the recorder took stacks on an
# alternate signal stack, its handler and unwinder took some 4 KiB there, and most recorded
# runs crashed.
STACK_RUNS=${STACK_RUNS:-4}	# runs of each kind
STACK_SLACK=1024	# bytes beyond what MPI takes (the frames of the recursion add up to 2 KiB)
compile rec-stack-limit || exit 1
run_cmd "$WORK/stack-measure.log" "$LIMIT" bash -c "ulimit -s 8192 && exec \"\$@\"" stack \
	"$MPIRUN" -np 2 "$BINDIR/rec-stack-limit" measure
used=$(sed -n 's/^rank 0: \([0-9]*\) bytes used$/\1/p' "$WORK/stack-measure.log")
if test "$RC" -ne 0 || test -z "$used"; then
	fail "stack: measure what MPI takes" "$(describe "$RC")" "$WORK/stack-measure.log"
else
	margin=$((used + STACK_SLACK))
	plain=0 recorded=0
	for ((i = 0; i < STACK_RUNS; i++)); do
		run_cmd "$WORK/stack-plain-$i.log" "$LIMIT" bash -c "ulimit -s 8192 && exec \"\$@\"" \
			stack "$MPIRUN" -np 2 "$BINDIR/rec-stack-limit" "$margin"
		test "$RC" -eq 0 && grep -q '^ok$' "$WORK/stack-plain-$i.log" && plain=$((plain + 1))
		run_cmd "$WORK/stack-rec-$i.log" "$LIMIT" bash -c "ulimit -s 8192 && exec \"\$@\"" \
			stack "$MPIVERIFY" record -o "$WORK/stack-trace" -- "$MPIRUN" -np 2 \
			"$BINDIR/rec-stack-limit" "$margin"
		test "$RC" -eq 0 && grep -q '^ok$' "$WORK/stack-rec-$i.log" &&
			recorded=$((recorded + 1))
	done
	if test "$plain" -ne "$STACK_RUNS"; then
		fail "stack: $STACK_RUNS plain runs $margin bytes above the limit" \
			"$plain passed: MPI takes more than measured ($used bytes)" \
			"$WORK/stack-plain-0.log"
	elif test "$recorded" -ne "$plain"; then
		fail "stack: recorded runs $margin bytes above the limit" \
			"$recorded of $STACK_RUNS passed, against $plain of $STACK_RUNS plain" \
			"$WORK/stack-rec-0.log"
	else
		pass "stack: $plain of $STACK_RUNS plain and $recorded of $STACK_RUNS recorded runs pass, $margin bytes above the limit (MPI takes $used)"
	fi
fi

summary
