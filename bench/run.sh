#!/bin/bash
# make bench: figures as ratios within one run, never timed tests.
#  1. recording overhead, each benchmark under the same mpirun with and without the recorder
#     (best of $RUNS each, 5 unless BENCH_RUNS says; plain and recorded runs alternate, so
#     that a busy spell of the shared machine hits both): a one-rank Isend/Recv/Wait loop on
#     MPI_COMM_SELF (the per-call cost laid bare), the same on a duplicate of it (a
#     communicator the program made), a two-rank small-message ping-pong, and a
#     two-rank halo exchange around a stencil (computation dominates); with the trace's bytes
#     per recorded operation, and the same programs under a PMPI library that forwards their
#     calls and records nothing (bench/passthrough.c): the floor any PMPI tool pays; then the
#     self-loop, ping-pong and halo recorded with --timestamps (two clock readings a call),
#     the self-loop and ping-pong recorded with --last 1000 (hang triage), and a run of 10^7
#     operations recorded whole and with --last 1000: the trace on disk, the peak memory;
#     and the self-loop's instructions per iteration plain, passed through and recorded,
#     counted by callgrind (if valgrind is there): figures a busy machine does not change;
#  2. replay overhead: the ping-pong and the halo exchange replayed (from the traces of 1, with
#     a counterexample that forces nothing) against plain runs, best of $RUNS each; and the CPU
#     a rank spends blocked, recorded (the library polls) against replayed and in verify's
#     run (the call sleeps while it waits, preload/calm.h);
#  3. the fixed cost of a small check: CPU time of `check --buffering all` on recorded
#     examples (two ranks without wildcards, three with), check's own pass against SPIN
#     searching from the start (MPIVERIFY_SPIN_FROM_START), the pan runs each makes, and the
#     compile path (a pan compiled in the output directory, as every check once did);
#  4. the reduction check's cost (record --check-reductions): MPI_Allreduce of 8 and of 1M
#     doubles on 2 and 4 ranks, recorded with the check against recorded without it (and
#     against plain runs), best of $RUNS each, the three kinds of run alternating;
#  5. verify's runs and time against workers (3, 5, 7; BENCH_VERIFY_WORKERS) and tasks (4 to 64;
#     BENCH_VERIFY_TASKS): the farm zoo's value-stop farm, MPI_Waitany farm, value-stop farm
#     replying with MPI_Isend and count-stop farm (correct: no deadlock, every decision explored),
#     how each grows from the fewest tasks to the most, and a plot of the runs (verify-runs.svg,
#     bench/plot-runs.sh); then the NBX exchange over 1 to 8 rounds, the first two farms in 1 to 8
#     rounds (an MPI_Allreduce between them, and the value-stop farm's with nothing between them),
#     the polled farm in 3 rounds and the MPI_Probe farm in 3 unparted rounds verified 5 times
#     idle and 5 beside two busy loops (BENCH_VERIFY_REPEAT), two examples with a bug (found and
#     confirmed), two ranks of 2 and 4
#     threads exchanging 10 to 1000 rounds (examples/ok/threads-exchange.c), and a task farm served
#     by 1 and 2 threads that take requests from any worker (and by 2 that complete their own with
#     MPI_Waitany), against the same farm served by main (tests/e2e/programs/threads-farm.c);
#  6. scale-out: verify's runs per second against --jobs (the MPI_Waitany farm, 3 ranks), and
#     the wall time of `check --buffering all` (its modes' searches at once, a process each)
#     against `--buffering zero` alone, on a master/worker trace;
#  7. the standalone Promela model (check --promela) against trace size: spin -a, the C
#     compiler and pan on a halo exchange of growing length, against check's own search;
#  8. the hang monitor's cost per period against ranks: every rank's status file read on
#     mpiverify's node (one machine) against a job spread over nodes of 64 ranks (each
#     node's helper reads its own; mpiverify reads a summary line per node), on a synthetic
#     status directory (bench/monitor_cost.c);
#  9. check time and peak memory against trace size: a wildcard-free halo exchange
#     (ranks x iterations) and two codes with MPI_ANY_SOURCE receives (a master receiving every
#     result, a task farm answering each), small and at 1M and 10M events, as ratios; the
#     10M halo exchange, which check takes a segment at a time, also as one program, and so
#     the same exchange completing its requests with MPI_Waitany and kin; rounds of wildcard
#     receives closed by barriers, in segments and as one program;
# 10. state explosion: a task farm like a ray tracer's (5 workers, 100 items of three kinds,
#     answers received with MPI_ANY_SOURCE and MPI_ANY_TAG), states and time of each mode's
#     search with the reductions and without them (check --full-search);
# 11. hangs at scale: make check-scale's head-to-head ring at BENCH_HANG_NP ranks (1024 by
#     default; BENCH_HANG_PROGS for its other programs), oversubscribed: record, record --last,
#     check and verify with their wall times (minutes at 1024 ranks on two cores, and some
#     16 GB);
# 12. judging a hang from the traces (explore/stuck.c): record of a run that deadlocks after
#     N round trips against the same run ending cleanly, for N from 10^3 to 3 x 10^5 (up to
#     some 2 x 10^6 events, past the 8 MiB of trace the judgement reads): the time from the
#     hang to record's verdict, and what a million events add to it.
# Arguments name the parts to run (record, replay, small, reduce, verify, scale, promela,
# monitor, check, explosion, hangs, judge; default all):
# `bench/run.sh replay` records the traces it replays once, untimed, and times only the
# replays.
set -u

PARTS=${*:-record replay small reduce verify scale promela monitor check explosion hangs judge}
part()	# part NAME: whether NAME is to run
{
	case " $PARTS " in *" $1 "*) return 0 ;; esac
	return 1
}

. "$(dirname "$0")/../tests/lib.sh"
require_tools "$MPICC" "$MPIRUN" spin
require_mpiverify
require_mpi_built
WORK=$(make_workdir bench)
cd "$WORK" || exit 1

for prog in selfloop pingpong halo allreduce; do
	"$MPICC" -O2 -o $prog "$SRCDIR/bench/$prog.c" || exit 1
done
"$MPICC" -O2 -shared -fPIC -o passthrough.so "$SRCDIR/bench/passthrough.c" || exit 1
GEN_TRACE=$BUILDDIR/bench/gen_trace
if ! test -x "$GEN_TRACE"; then
	echo "FAIL setup: '$GEN_TRACE' not found: run make bench/gen_trace (make bench does)"
	exit 1
fi

RUNS=${BENCH_RUNS:-5}

# The benchmark programs print one line: iterations, CPU seconds of the timed loop (the rank
# process's, bench/bench_clock.h), MPI calls of a rank in the loop, MPI calls of a rank in all.
# run_once CMD...: one run's seconds into S, its line into LINE (S empty if it failed).
run_once()
{
	LINE=$("$@" 2>/dev/null | awk 'NF == 4 && $1 ~ /^[0-9]+$/' | tail -n 1)
	S=$(echo "$LINE" | awk '{ print $2 }')
}

# smaller A B: the smaller of two numbers of seconds, either may be empty.
smaller()
{
	if test -z "$1" || { test -n "$2" && awk -v a="$1" -v b="$2" 'BEGIN { exit !(b < a) }'; }
	then
		echo "$2"
	else
		echo "$1"
	fi
}

best()	# best (smallest) seconds of $RUNS runs of "$@" into BEST; LAST: the last run's line
{
	local i
	BEST='' LAST=''
	for ((i = 0; i < RUNS; i++)); do
		run_once "$@"
		test -n "$S" && LAST=$LINE
		BEST=$(smaller "$BEST" "$S")
	done
	BEST=${BEST:-nan}
}

# overhead NAME NP PROGRAM ARGS...: one line of figures; plain, pass-through and recorded runs
# alternate. RECORD_OPTS: more options of record (--timestamps).
overhead()
{
	local name=$1 np=$2 plain='' pass='' rec='' calls total bytes i
	shift 2
	for ((i = 0; i < RUNS; i++)); do
		run_once "$MPIRUN" -np "$np" "$@"
		plain=$(smaller "$plain" "$S")
		run_once "$MPIRUN" -np "$np" -genv LD_PRELOAD "$PWD/passthrough.so" "$@"
		pass=$(smaller "$pass" "$S")
		# shellcheck disable=SC2086 # RECORD_OPTS is a list of words
		run_once "$MPIVERIFY" record ${RECORD_OPTS:-} -o "trace-$name" -- \
			"$MPIRUN" -np "$np" "$@"
		rec=$(smaller "$rec" "$S")
		test -n "$S" && LAST=$LINE
	done
	plain=${plain:-nan}
	pass=${pass:-nan}
	rec=${rec:-nan}
	calls=$(echo "$LAST" | awk '{ print $3 }')
	total=$(echo "$LAST" | awk -v np="$np" '{ print $4 * np }')
	bytes=$(cat "trace-$name"/rank-*.mpivt 2>/dev/null | wc -c)
	awk -v n="$name" -v p="$plain" -v f="$pass" -v r="$rec" -v c="${calls:-0}" \
		-v t="${total:-0}" -v b="$bytes" 'BEGIN {
		if (p == "nan" || f == "nan" || r == "nan" || c == 0 || t == 0) {
			printf "%-10s failed (plain %s s, pass-through %s s, recorded %s s)\n", n, p, f, r
			exit }
		printf "%-10s plain %7.4f s  pass-through %5.2fx  recorded %7.4f s %5.2fx  %4.0f ns per recorded call  %4.1f bytes per operation\n",
			n, p, f / p, r, r / p, (r - p) * 1e9 / c, b / t }'
}

# triage_size: one line, the trace and peak memory (GNU time's largest process: the rank) of a
# self-loop of 10^7 operations recorded whole and with --last 1000.
triage_size()
{
	local how disk mem line=
	for how in whole last; do
		/usr/bin/time -o "mem-$how" -f %M "$MPIVERIFY" record \
			$(test "$how" = last && echo --last 1000) -o "trace-1e7-$how" -- \
			"$MPIRUN" -np 1 ./selfloop 3333334 >/dev/null 2>&1
		disk=$(stat -c %s "trace-1e7-$how/rank-0.mpivt" 2>/dev/null || echo nan)
		mem=$(tail -n 1 "mem-$how" 2>/dev/null)
		line="$line ${disk:-nan} ${mem:-nan}"
	done
	echo "$line" | awk '{
		if ($1 == "nan" || $3 == "nan") { print "10^7 ops   failed"; exit }
		printf "10^7 ops   whole: trace %7.1f MiB, peak %5.1f MiB   --last 1000: trace %5.1f KiB (%.0fx less), peak %5.1f MiB (%.2fx)\n",
			$1 / 1048576, $2 / 1024, $3 / 1024, $1 / $3, $4 / 1024, $4 / $2 }'
}

# Instructions per iteration of the self-loop, as callgrind counts them (user space, the rank
# alone; no hardware counter needed, and a busy machine does not change them): the counts of
# two runs whose iterations differ by INS_ITERS, over INS_ITERS, so that MPI_Init, MPI_Finalize
# and the recorder's start and end cancel out.
INS_ITERS=20000
# ins_run OUT ITERS CMD...: run CMD... ./selfloop ITERS with the rank under callgrind; the
# instructions it counted into OUT (empty if the run failed).
ins_run()
{
	local out=$1 iters=$2
	shift 2
	rm -f callgrind.out.*
	"$@" valgrind --tool=callgrind --callgrind-out-file="$PWD/callgrind.out.%p" \
		./selfloop "$iters" >/dev/null 2>&1
	printf -v "$out" '%s' "$(awk '/^summary:/ { print $2 }' callgrind.out.* 2>/dev/null)"
}
# ins_per_iter CMD...: instructions per iteration of the self-loop launched by CMD..., or "nan".
ins_per_iter()
{
	local a b
	ins_run a "$INS_ITERS" "$@"
	ins_run b $((2 * INS_ITERS)) "$@"
	if test -z "$a" || test -z "$b"; then
		echo nan
	else
		echo $(((b - a) / INS_ITERS))
	fi
}

if part record; then
echo "== recording overhead: recorded / plain under the same mpirun, best of $RUNS each; pass-through:"
echo "   a PMPI library that forwards the calls and records nothing (bench/passthrough.c)"
echo "   self-loop: 1 rank, Isend/Recv/Wait to itself on MPI_COMM_SELF, 3000000 times"
echo "   self-dup:  the same on a duplicate of MPI_COMM_SELF"
echo "   ping-pong: 2 ranks, 8-byte messages, 200000 round trips"
echo "   halo:      2 ranks, ring halo exchange (Irecv x2, Isend x2, Waitall) around a stencil"
echo "              of 20000 cells, 10000 iterations"
overhead self-loop 1 ./selfloop 3000000
overhead self-dup 1 ./selfloop 3000000 dup
overhead ping-pong 2 ./pingpong 200000
overhead halo 2 ./halo 10000
echo "   the same recorded with --timestamps (their recorded column):"
RECORD_OPTS=--timestamps overhead self-loop-t 1 ./selfloop 3000000
RECORD_OPTS=--timestamps overhead ping-pong-t 2 ./pingpong 200000
RECORD_OPTS=--timestamps overhead halo-t 2 ./halo 10000
echo "   the same recorded with --last 1000 (hang triage: the window of each rank's last calls):"
RECORD_OPTS='--last 1000' overhead self-loop-l 1 ./selfloop 3000000
RECORD_OPTS='--last 1000' overhead ping-pong-l 2 ./pingpong 200000
echo "   a run of 10^7 operations (the self-loop, 3333334 iterations), recorded whole and with"
echo "   --last 1000: the rank's trace on disk and the largest process's peak memory"
triage_size
if command -v valgrind >/dev/null; then
	echo "   instructions per self-loop iteration (Isend, Recv, Wait), counted by callgrind:"
	plain=$(ins_per_iter "$MPIRUN" -np 1)
	pass=$(ins_per_iter "$MPIRUN" -np 1 -genv LD_PRELOAD "$PWD/passthrough.so")
	rec=$(ins_per_iter "$MPIVERIFY" record -o trace-ins -- "$MPIRUN" -np 1)
	awk -v p="$plain" -v f="$pass" -v r="$rec" 'BEGIN {
		if (p == "nan" || f == "nan" || r == "nan" || p == 0) {
			printf "self-loop  instructions failed (plain %s, pass-through %s, recorded %s)\n", p, f, r
			exit }
		printf "self-loop  plain %5d instructions  pass-through %5d %5.2fx  recorded %5d %5.2fx  %4.0f per recorded call\n",
			p, f, f / p, r, r / p, (r - p) / 3 }'
else
	echo "   instructions per self-loop iteration: skipped (valgrind not found)"
fi
elif part replay; then
	# the traces to replay, recorded once
	"$MPIVERIFY" record -o trace-ping-pong -- "$MPIRUN" -np 2 ./pingpong 200000 >/dev/null 2>&1
	"$MPIVERIFY" record -o trace-halo -- "$MPIRUN" -np 2 ./halo 10000 >/dev/null 2>&1
fi

# null_cex TRACE NP: a counterexample of TRACE that forces nothing and has no rank blocked:
# replaying it costs what replay always costs (every call checked against the trace, the live
# status) and nothing that depends on a deadlock.
null_cex()
{
	local r ranks=''
	for ((r = 0; r < $2; r++)); do
		ranks="$ranks${ranks:+, }{\"rank\": $r, \"ops\": [], \"blocked\": null}"
	done
	printf '{"format": "mpiverify-cex", "version": 1, "trace": "%s", "buffering": "zero",\n' \
		"$PWD/$1"
	printf ' "command": [], "nranks": %d, "ranks": [%s], "cycle": [], "matches": []}\n' \
		"$2" "$ranks"
}

# replay_overhead NAME NP PROGRAM ARGS...: one line of figures, replaying the trace that
# overhead NAME recorded.
replay_overhead()
{
	local name=$1 np=$2 plain rep calls
	shift 2
	null_cex "trace-$name" "$np" >"cex-$name.json"
	best "$MPIRUN" -np "$np" "$@"
	plain=$BEST
	best "$MPIVERIFY" replay --trace "cex-$name.json" -o "replay-$name" -- "$MPIRUN" -np "$np" "$@"
	rep=$BEST
	calls=$(echo "$LAST" | awk '{ print $3 }')
	awk -v n="$name" -v p="$plain" -v r="$rep" -v c="${calls:-0}" 'BEGIN {
		if (p == "nan" || r == "nan" || c == 0) {
			printf "%-10s failed (plain %s s, replayed %s s)\n", n, p, r; exit }
		printf "%-10s plain %8.4f s  replayed %8.4f s  ratio %5.2fx  %6.0f ns per replayed call\n",
			n, p, r, r / p, (r - p) * 1e9 / c }'
}

# calm_cpu: one line: the CPU a rank spends in ten blocked calls of 0.25 s each
# (tests/e2e/programs/calm-waits.c, which prints each call's), recorded (the library polls)
# against replayed and in verify's run, where a blocked call sleeps (preload/calm.h).
calm_cpu()
{
	local rec rep ver sum='$1 == "cpu" { n++; s += $3 } END { if (n == 10) print s }'
	echo
	echo "== a blocked rank's CPU: ten blocking point-to-point calls (calm-waits.c), each waiting"
	echo "   0.25 s for a peer outside MPI, then a deadlock: rank 1's CPU over the ten waits"
	if ! "$MPICC" -O2 -o calm-waits "$SRCDIR/tests/e2e/programs/calm-waits.c" >/dev/null 2>&1; then
		echo "calm-waits: does not compile"
		return
	fi
	"$MPIVERIFY" record -o trace-calm --deadlock-timeout 2 -- "$MPIRUN" -np 2 ./calm-waits \
		>calm-record.txt 2>&1
	"$MPIVERIFY" check --buffering zero -o trace-calm/check trace-calm >/dev/null 2>&1
	"$MPIVERIFY" replay --timeout 2 --trace trace-calm/check/cex.json >calm-replay.txt 2>&1
	"$MPIVERIFY" verify -o verify-calm --deadlock-timeout 2 -- "$MPIRUN" -np 2 ./calm-waits \
		>/dev/null 2>&1
	rec=$(awk "$sum" calm-record.txt)
	rep=$(awk "$sum" calm-replay.txt)
	ver=$(awk "$sum" verify-calm/runs/1.out 2>/dev/null)
	awk -v a="$rec" -v b="$rep" -v c="$ver" 'BEGIN {
		if (a == "" || b == "" || c == "") { print "calm-waits: a run failed"; exit }
		printf "2.5 s of waits   recorded %5d ms of CPU   replayed %4d ms (%.0fx less)   verify\047s run %4d ms (%.0fx less)\n",
			a, b, a / (b > 0 ? b : 1), c, a / (c > 0 ? c : 1) }'
}

if part replay; then
echo
echo "== replay overhead: replayed / plain under the same mpirun, best of $RUNS each, replaying the"
echo "   traces recorded above with a counterexample that forces nothing"
replay_overhead ping-pong 2 ./pingpong 200000
replay_overhead halo 2 ./halo 10000
calm_cpu
fi
# cpu_best CMD...: the least user + sys CPU seconds of $RUNS runs of CMD, its children included,
# into BEST (bash's `time`: millisecond resolution); RC: the last run's exit status.
cpu_best()
{
	local i TIMEFORMAT='%3U %3S'
	BEST=''
	for ((i = 0; i < RUNS; i++)); do
		RC=0
		{ time "$@" >/dev/null 2>&1 || RC=$?; } 2>cpu.txt
		BEST=$(smaller "$BEST" "$(awk '{ print $1 + $2 }' cpu.txt)")
	done
}

# check_pans LOG CMD...: run CMD with a wrapper of every prebuilt pan that notes each run; the
# pan runs it made into PANS.
check_pans()
{
	local pan
	mkdir -p pan-counted
	rm -f pan-counted/pan-* pan-runs.txt
	for pan in "$BUILDDIR"/pan/pan-*; do
		printf '#!/bin/bash\necho run >>%q\nexec %q "$@"\n' "$PWD/pan-runs.txt" "$pan" \
			>"pan-counted/${pan##*/}"
		chmod +x "pan-counted/${pan##*/}"
	done
	: >pan-runs.txt
	MPIVERIFY_PAN_DIR=$PWD/pan-counted "$@" >/dev/null 2>&1
	PANS=$(wc -l <pan-runs.txt)
}

# small_check NAME TRACE WANT: one line of figures for `check TRACE` (exit WANT expected):
# its own pass, SPIN from the start, and SPIN from the start with a pan compiled per check.
small_check()
{
	local name=$1 trace=$2 want=$3 own own_rc own_pans spin spin_rc spin_pans comp comp_rc
	cpu_best "$MPIVERIFY" check "$trace" -o "$trace.own"
	own=$BEST own_rc=$RC
	check_pans "$MPIVERIFY" check "$trace" -o "$trace.own"
	own_pans=$PANS
	MPIVERIFY_SPIN_FROM_START=1 cpu_best "$MPIVERIFY" check "$trace" -o "$trace.spin"
	spin=$BEST spin_rc=$RC
	MPIVERIFY_SPIN_FROM_START=1 check_pans "$MPIVERIFY" check "$trace" -o "$trace.spin"
	spin_pans=$PANS
	MPIVERIFY_SPIN_FROM_START=1 MPIVERIFY_PAN_DIR=$PWD/no-verifiers \
		cpu_best "$MPIVERIFY" check "$trace" -o "$trace.compiled"
	comp=$BEST comp_rc=$RC
	awk -v n="$name" -v o="$own" -v op="$own_pans" -v s="$spin" -v sp="$spin_pans" \
		-v c="$comp" -v w="$want" -v r1="$own_rc" -v r2="$spin_rc" -v r3="$comp_rc" 'BEGIN {
		if (o == "" || s == "" || c == "" || r1 != w || r2 != w || r3 != w) {
			printf "%-30s failed (exit %s, %s, %s; want %s)\n", n, r1, r2, r3, w; exit }
		printf "%-30s own pass %6.3f s (%d pan runs)   SPIN from the start %6.3f s (%d pan runs, %4.1fx)   pan compiled %6.3f s (%5.0fx)\n",
			n, o, op, s, sp, (o > 0 ? s / o : 0), c, (o > 0 ? c / o : 0) }'
}

if part small; then
	echo
	echo "== fixed cost of a small check: CPU seconds (user + sys, children included) of"
	echo "   \`check --buffering all\` (zero, infinite and the library's eager threshold), best of"
	echo "   $RUNS, on recorded examples: send-send-cycle (2 ranks, no wildcard, one deadlock) and"
	echo "   wildcard-recv-order (3 ranks, a wildcard receive, one deadlock); check's own pass over"
	echo "   the paths of one choice, SPIN searching every mode from the start (as before it had"
	echo "   one), and that with a pan compiled for each check (as before the prebuilt verifiers)"
	mkdir -p no-verifiers
	for ex in send-send-cycle wildcard-recv-order; do
		np=2
		test $ex = wildcard-recv-order && np=3
		"$MPICC" -O2 -o $ex "$SRCDIR/examples/deadlock/$ex.c" &&
			"$MPIVERIFY" record -o trace-$ex -- "$MPIRUN" -np $np ./$ex >/dev/null 2>&1
		small_check "$ex ($np ranks)" trace-$ex 1
	done
fi
# reduce_cost NAME NP N ITERS: one line of figures for ITERS MPI_Allreduce of N doubles.
reduce_cost()
{
	local name=$1 np=$2 dir=trace-${1// /-} plain='' rec='' chk='' i
	shift 2
	for ((i = 0; i < RUNS; i++)); do
		run_once "$MPIRUN" -np "$np" ./allreduce "$@"
		plain=$(smaller "$plain" "$S")
		run_once "$MPIVERIFY" record -o "$dir" -- "$MPIRUN" -np "$np" ./allreduce "$@"
		rec=$(smaller "$rec" "$S")
		run_once "$MPIVERIFY" record -o "$dir-checked" --check-reductions -- \
			"$MPIRUN" -np "$np" ./allreduce "$@"
		chk=$(smaller "$chk" "$S")
	done
	awk -v n="$name" -v p="${plain:-nan}" -v r="${rec:-nan}" -v c="${chk:-nan}" \
		-v it="$2" 'BEGIN {
		if (p == "nan" || r == "nan" || c == "nan") {
			printf "%-16s failed (plain %s s, recorded %s s, checked %s s)\n", n, p, r, c
			exit }
		printf "%-16s plain %8.4f s  recorded %8.4f s  checked %8.4f s  check/recorded %6.2fx  check/plain %6.2fx  %8.1f us per checked reduction\n",
			n, p, r, c, c / r, c / p, (c - r) * 1e6 / it }'
}

if part reduce; then
echo
echo "== reduction check: MPI_Allreduce of doubles (MPI_SUM) recorded with --check-reductions"
echo "   against recorded without it, and against plain runs, best of $RUNS each"
reduce_cost "8 x 2 ranks" 2 8 20000
reduce_cost "8 x 4 ranks" 4 8 500
reduce_cost "1M x 2 ranks" 2 1048576 20
reduce_cost "1M x 4 ranks" 4 1048576 10
fi
if part verify; then
	echo
	echo "== verify: runs of the program and wall seconds until it answers, against workers and"
	echo "   tasks (tests/zoo/farm.c; --deadlock-timeout 3, --memory-limit 8192; states: the last"
	echo "   search's, both modes)"
	VWORKERS=${BENCH_VERIFY_WORKERS:-3 5 7}
	VTASKS=${BENCH_VERIFY_TASKS:-4 8 16 32 64}
	printf '%-34s %7s %5s %6s %9s %10s  %s\n' program workers tasks runs seconds states verdict
	: >verify.dat
	# bench_verify NAME PROGRAM NP TASKS [ARGS...]: one line of figures; and NAME NP TASKS RUNS
	# SECONDS into verify.dat. PROGRAM is ./PROGRAM unless it is a path; LAUNCH the launcher
	# (default $MPIRUN).
	bench_verify()
	{
		local name=$1 prog=$2 np=$3 tasks=$4 t0 t1 rc
		shift 4
		case $prog in */*) ;; *) prog=./$prog ;; esac
		rm -rf verify.out
		t0=$(date +%s.%N)
		"$MPIVERIFY" verify -o verify.out --deadlock-timeout 3 --memory-limit 8192 --json -- \
			"${LAUNCH:-$MPIRUN}" -np "$np" "$prog" "$@" >verify.json 2>verify.err
		rc=$?
		t1=$(date +%s.%N)
		awk -v name="$name" -v w="$((np - 1))" -v tasks="${tasks:--}" -v t="$(awk -v a="$t0" \
			-v b="$t1" 'BEGIN { print b - a }')" -v rc="$rc" '
			/"runs": [0-9]/ && !runs { gsub(/[^0-9]/, ""); runs = $0 }
			/"states"/ { gsub(/[^0-9]/, ""); states = $0 }
			/"verdict"/ { split($0, a, "\""); verdict = a[4] }
			END { printf "%-34s %7s %5s %6s %9.1f %10s  %s (exit %d)\n", name, w, tasks,
				runs, t, states, verdict, rc
			      printf "%s|%s|%s|%s|%.1f\n", name, w, tasks, runs, t >>"verify.dat" }' \
			verify.json
	}
	# the value-stop farm (MPI_ANY_SOURCE, reply to status.MPI_SOURCE), the MPI_Waitany farm
	# (a receive per worker, reposted), the value-stop farm whose master replies with
	# MPI_Isend, waiting for its last reply to a worker before the next (SENDS=1), and the
	# farm whose workers stop after their known share, their last result sent with each
	# request (STOP=3), all correct: no deadlock, every decision explored
	for farm in "1 2 0 value-stop farm (MPI_ANY_SOURCE)" "2 2 0 MPI_Waitany farm" \
		"1 2 1 value-stop farm, MPI_Isend replies" "1 3 0 count-stop farm (MPI_ANY_SOURCE)"; do
		read -r reply stop sends name <<<"$farm"
		for w in $VWORKERS; do
			for t in $VTASKS; do
				"$MPICC" -O2 -DREPLY="$reply" -DSTOP="$stop" -DNTASKS="$t" -DSENDS="$sends" \
					-o farm-prog "$SRCDIR/tests/zoo/farm.c" || continue
				bench_verify "$name" farm-prog $((w + 1)) "$t"
			done
		done
	done
	# how runs and seconds grow from the fewest tasks to the most, per farm and workers
	echo
	echo "growth from $(set -- $VTASKS; echo "$1") to $(set -- $VTASKS; eval echo "\${$#}") tasks:"
	awk -F'|' '{ k = $1 " | " $2 " workers"; if (!(k in r0)) { r0[k] = $4; s0[k] = $5;
		order[++n] = k } r1[k] = $4; s1[k] = $5 }
		END { for (i = 1; i <= n; i++) { k = order[i]
			printf "  %-48s runs x%.2f, seconds x%.2f\n", k, r0[k] ? r1[k] / r0[k] : 0,
				s0[k] ? s1[k] / s0[k] : 0 } }' verify.dat
	"$SRCDIR/bench/plot-runs.sh" verify.dat >verify-runs.svg &&
		echo "plot of runs against tasks: $WORK/verify-runs.svg"
	# the same two farms (4 tasks, 3 workers) in rounds, a time step's MPI_Allreduce between
	# them (tests/zoo/farm.c's ROUNDS), or nothing (SYNC=0)
	for farm in "1 2 value-stop farm in rounds" "2 2 MPI_Waitany farm in rounds" \
		"1 0 value-stop farm, rounds unparted" "2 0 MPI_Waitany farm, rounds unparted"; do
		read -r reply sync name <<<"$farm"
		for rounds in 1 2 4 8; do
			"$MPICC" -O2 -DREPLY="$reply" -DSTOP=2 -DNTASKS=4 -DROUNDS=$rounds \
				-DSYNC="$sync" -o farm-prog "$SRCDIR/tests/zoo/farm.c" &&
				bench_verify "$name" farm-prog 4 $rounds
		done
	done
	# farms whose runs depend on the orders their free runs took, which load changes, each
	# verified BENCH_VERIFY_REPEAT times (5) on an idle machine and beside two busy loops: the
	# same verdict, in a number of runs that must stay near the idle one. The polled farm
	# (MPI_Iprobe, each worker knows its share: stop on a count) in 3 rounds parted by
	# barriers, 3 workers; the MPI_Probe farm stopped by value in 3 rounds with nothing between
	# them, 2 workers, where a run steered where the program could not go hangs (its ways cut
	# short once made 1 verify in 50 take 44 to 117 runs: doc/verify.md, Ways cut short; a
	# larger BENCH_VERIFY_REPEAT shows such rare ones)
	for farm in "6 3 3 1 4 polled farm in 3 rounds, 3 workers" \
		"5 2 2 0 3 probe farm in 3 unparted rounds, 2 workers"; do
		read -r reply stop tasks sync np name <<<"$farm"
		"$MPICC" -O2 -DREPLY="$reply" -DSTOP="$stop" -DNTASKS="$tasks" -DROUNDS=3 \
			-DSYNC="$sync" -o repeat-prog "$SRCDIR/tests/zoo/farm.c" || continue
		echo
		echo "$name: runs of $((${BENCH_VERIFY_REPEAT:-5})) verifies (min median max, verdicts)"
		for busy in 0 2; do
			pids=()
			for ((i = 0; i < busy; i++)); do
				(while :; do :; done) &
				pids+=($!)
			done
			runs=() verdicts=()
			for ((i = 0; i < ${BENCH_VERIFY_REPEAT:-5}; i++)); do
				rm -rf verify.out
				"$MPIVERIFY" verify -o verify.out --deadlock-timeout 3 --json -- \
					"$MPIRUN" -np "$np" ./repeat-prog >verify.json 2>verify.err
				runs+=("$(awk '/"runs": [0-9]/ { gsub(/[^0-9]/, ""); print; exit }' verify.json)")
				verdicts+=("$(awk -F'"' '/"verdict"/ { print $4; exit }' verify.json)")
			done
			test ${#pids[@]} -gt 0 && kill "${pids[@]}" 2>/dev/null
			wait "${pids[@]}" 2>/dev/null
			printf '  %-26s %s  (%s)\n' "$(test $busy = 0 && echo idle || echo "beside $busy busy loops")" \
				"$(printf '%s\n' "${runs[@]}" | sort -n | awk '{ r[NR] = $1 }
					END { printf "%d %d %d", r[1], r[int((NR + 1) / 2)], r[NR] }')" \
				"$(printf '%s\n' "${verdicts[@]}" | sort | uniq -c | awk '{ $1 = $1; printf "%s%s", sep, $0; sep = ", " }')"
		done
	done
	# the shapes of the examples
	"$MPICC" -O2 -o nbx-prog "$SRCDIR/examples/verify/nbx.c" &&
		for rounds in 1 2 4 8; do
			"$MPICC" -O2 -DROUNDS=$rounds -o nbx-prog "$SRCDIR/examples/verify/nbx.c" &&
				bench_verify "NBX exchange (rounds)" nbx-prog 3 $rounds
		done
	"$MPICC" -O2 -o branch-prog "$SRCDIR/examples/verify/first-sender-branch.c" &&
		bench_verify "branch on the first sender" branch-prog 3 ''
	"$MPICC" -O2 -o branch-prog "$SRCDIR/examples/verify/task-farm-last-task.c" &&
		bench_verify "task farm, bug on the last task" branch-prog 4 ''
	# threads: thread t of rank 0 exchanging with thread t of rank 1 on tag t, threads x
	# rounds; no two threads can meet one message, so one run answers
	for th in 2 4; do
		for rounds in 10 100 1000; do
			"$MPICC" -O2 -DNTHREADS=$th -DROUNDS=$rounds -o threads-prog \
				"$SRCDIR/examples/ok/threads-exchange.c" -lpthread &&
				bench_verify "threads exchange, $th threads (rounds)" threads-prog 2 \
					$rounds
		done
	done
	# threads that decide: a task farm served by 1 or 2 threads of rank 0, each taking
	# requests from any of 2 workers, against the same farm served by main, each server in
	# turn (tests/e2e/programs/threads-farm.c); both make their runs one model
	for nt in 1 2; do
		for t in 1 2 3 4; do
			for inline in 0 1; do
				"$MPICC" -O2 -DNT=$nt -DNTASKS=$t -DINLINE=$inline -o farm-threads \
					"$SRCDIR/tests/e2e/programs/threads-farm.c" -lpthread &&
					bench_verify "farm of $nt server$(test $nt = 1 || echo s), $(test $inline = 1 && echo main || echo threads)" \
						farm-threads 3 $t
			done
		done
	done
	# the same with two servers each completing its own requests with MPI_Waitany (steered
	# by the numbers of each thread's requests)
	for t in 1 2 3; do
		for inline in 0 1; do
			"$MPICC" -O2 -DSERVE=5 -DNT=2 -DNTASKS=$t -DINLINE=$inline -o farm-threads \
				"$SRCDIR/tests/e2e/programs/threads-farm.c" -lpthread &&
				bench_verify "Waitany farm of 2 servers, $(test $inline = 1 && echo main || echo threads)" \
					farm-threads 3 $t
		done
	done
	# the value-stop farm in mpi4py, on the library Debian builds mpi4py for (Open MPI)
	if /usr/bin/python3 -c 'import importlib.util as u; assert u.find_spec("mpi4py")' \
		2>/dev/null && command -v mpirun.openmpi >/dev/null; then
		for t in 3 6 12 24; do
			LAUNCH=mpirun.openmpi OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
				OMPI_MCA_rmaps_base_oversubscribe=1 bench_verify \
				"mpi4py value-stop farm" /usr/bin/python3 4 "$t" \
				"$SRCDIR/examples/python/farm-value.py" "$t"
		done
	fi
fi

if part scale; then
	echo
	echo "== scale-out: verify's runs per second against --jobs (MPI_Waitany farm, 3 ranks, 4"
	echo "   tasks; --deadlock-timeout 3; $(nproc) CPUs here, so --jobs 2 oversubscribes them)"
	printf '%-8s %6s %9s %9s %12s  %s\n' jobs runs seconds runs/s "vs --jobs 1" verdict
	"$MPICC" -O2 -DNTASKS=4 -o scale-prog "$SRCDIR/examples/verify/farm-waitany.c" &&
		for jobs in 1 2 3; do
			rm -rf scale.out
			t0=$(date +%s.%N)
			"$MPIVERIFY" verify -o scale.out --jobs "$jobs" --deadlock-timeout 3 --json -- \
				"$MPIRUN" -np 3 ./scale-prog >scale.json 2>scale.err
			rc=$?
			t1=$(date +%s.%N)
			awk -v jobs="$jobs" -v t="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
				-v rc="$rc" -v base="${base:-}" '
				/"runs": [0-9]/ && !runs { gsub(/[^0-9]/, ""); runs = $0 }
				/"verdict"/ { split($0, a, "\""); verdict = a[4] }
				END { rate = runs / t; printf "%-8s %6s %9.1f %9.2f %12s  %s (exit %d)\n",
					jobs, runs, t, rate, base ? sprintf("%.2fx", rate / base) : "1.00x",
					verdict, rc }' scale.json | tee scale.line
			test -n "${base:-}" || base=$(awk '{ print $4 }' scale.line)
		done
	echo
	echo "== scale-out: wall seconds of check --buffering all (zero and infinite searched at"
	echo "   once) against --buffering zero alone, master/worker traces, best of $RUNS"
	printf '%-24s %10s %10s %8s\n' trace "zero" "all" "all/zero"
	for size in "16 16" "32 32"; do
		set -- $size
		rm -rf "trace-scale" && mkdir -p trace-scale && "$GEN_TRACE" mw trace-scale "$1" "$2" >/dev/null
		one='' all=''
		for ((i = 0; i < RUNS; i++)); do
			t0=$(date +%s.%N)
			"$MPIVERIFY" check --buffering zero trace-scale -o scale.zero >/dev/null 2>&1
			t1=$(date +%s.%N)
			"$MPIVERIFY" check --buffering all trace-scale -o scale.all >/dev/null 2>&1
			t2=$(date +%s.%N)
			one=$(smaller "$one" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
			all=$(smaller "$all" "$(awk -v a="$t1" -v b="$t2" 'BEGIN { print b - a }')")
		done
		awk -v n="master/worker ${1}x${2}" -v o="$one" -v a="$all" \
			'BEGIN { printf "%-24s %10.3f %10.3f %7.2fx\n", n, o, a, a / o }'
	done
fi
if part promela; then
echo
echo "== the standalone Promela model (check --promela) against trace size: a four-rank halo"
echo "   exchange without buffering; CPU seconds of spin -a, of cc -O0 on pan.c (and its peak"
echo "   memory) and of pan, against check's own search of the same trace (--buffering zero)"
printf '%-12s %6s %7s %7s %7s %9s %7s %7s %10s\n' trace calls spin cc "cc MiB" states pan check \
	"model/check"
# cpu_of CMD...: user + system CPU seconds of CMD into CPU, its peak KiB into PEAK
cpu_of()
{
	/usr/bin/time -f '%U %S %M' -o time.out "$@" >cmd.out 2>&1
	read -r u s PEAK <time.out
	CPU=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
}
for it in 12 25 49; do	# at most 1000 operations: 20 per iteration, 4 to start and end
	dir=trace-halo-4x$it
	rm -rf "$dir" && mkdir -p "$dir" && "$GEN_TRACE" halo "$dir" 4 "$it" >/dev/null
	calls=$("$MPIVERIFY" trace "$dir" | grep -c '"call"')
	"$MPIVERIFY" check --promela "$dir.pml" "$dir" || continue
	cpu_of spin -a "$dir.pml"
	t_spin=$CPU
	cpu_of cc -O0 -w -o pan pan.c
	t_cc=$CPU
	cc_mib=$((PEAK / 1024))
	cpu_of ./pan -m100000
	t_pan=$CPU
	states=$(sed -n 's/^ *\([0-9]*\) states, stored.*/\1/p' cmd.out)
	cpu_of "$MPIVERIFY" check "$dir" --buffering zero -o "$dir.check"
	awk -v n="4x$it" -v c="$calls" -v s="$t_spin" -v cc="$t_cc" -v m="$cc_mib" \
		-v st="$states" -v p="$t_pan" -v k="$CPU" 'BEGIN {
		# time counts in hundredths: a check below one is at most 0.01 s
		printf "%-12s %6d %7.2f %7.2f %7d %9d %7.2f %7.2f %9s%.0fx\n", n, c, s, cc, m, st, p, k,
			(k < 0.01 ? ">" : ""), (s + cc + p) / (k < 0.01 ? 0.01 : k) }'
done
fi
if part monitor; then
	echo
	echo "== the hang monitor's wall time per period (every 100 ms) against ranks: each rank's"
	echo "   file read on mpiverify's node, against nodes of 64 ranks (each node's helper reads"
	echo "   its own ranks; mpiverify reads one summary line per node); mean of 50 periods"
	cc -O2 -I"$SRCDIR/common" -I"$SRCDIR/base" -I"$SRCDIR/jobs" -I"$BUILDDIR" -o monitor_cost \
		"$SRCDIR/bench/monitor_cost.c" "$BUILDDIR/jobs/monitor.o" "$BUILDDIR/jobs/launch.o" \
		"$BUILDDIR/jobs/status_file.o" "$BUILDDIR/jobs/nodes.o" "$BUILDDIR/jobs/slurm.o" \
		"$BUILDDIR/libmpiv.a" -ljansson -ldw || exit 1
	printf '%7s %6s %14s %14s %16s %12s\n' ranks nodes "per-rank us" "helper us" \
		"summaries us" "per-rank/sum"
	for n in 256 1024 4096; do
		rm -rf monitor.dir
		./monitor_cost monitor.dir "$n" 64 50 |
			awk '{ printf "%7d %6d %14.1f %14.1f %16.1f %11.0fx\n", $1, $2, $3, $4, $5,
				$3 / $5 }'
	done
	rm -rf monitor.dir
fi
if part check; then
echo
echo "== check time and peak memory against trace size (generated traces, bench/gen_trace):"
echo "   elapsed and CPU seconds (user + sys), peak resident MiB, and per event"
echo "   halo:   wildcard-free ring halo exchange (Irecv x2, Isend x2, Waitall), --buffering all;"
echo "           beyond 2^19 events checked a segment at a time (translator/tr_segment.c),"
echo "           and at 10M also as one program (MPIVERIFY_SEGMENT_EVENTS=0)"
echo "   halo-any: the same, its requests completed by MPI_Waitany, MPI_Waitsome and a failed"
echo "           MPI_Testany by turns, at 10M in segments and as one program"
echo "   rounds: 8 workers send a result each, which rank 0 receives with MPI_ANY_SOURCE,"
echo "           then MPI_Barrier; a segment a round, and at 1M also as one program"
echo "   master: every worker sends its results to rank 0, which receives each with"
echo "           MPI_ANY_SOURCE, --buffering zero (with buffering every result is in flight at"
echo "           once: beyond the model's 4096 messages, inconclusive)"
echo "   farm:   a task farm, rank 0 answering each result with the next item, every receive"
echo "           MPI_ANY_SOURCE and MPI_ANY_TAG, --buffering infinite (without buffering an"
echo "           answer in another order deadlocks at once: SPIN's search stops at 20 of them)"
printf '%-24s %10s %9s %9s %9s %9s %11s  %s\n' trace events seconds "CPU s" "peak MiB" \
	"us/event" "bytes/event" "exit"
# bench_check NAME GENERATOR ARGS... -- CHECK-OPTIONS...: one line of figures; EVENTS, SECS,
# CPUS, MIB for the ratios.
bench_check()
{
	local name=$1 dir=trace-${1// /-} t u s mem rc gen=()
	shift
	while test $# -gt 0 && test "$1" != --; do
		gen+=("$1")
		shift
	done
	shift
	rm -rf "$dir" && mkdir -p "$dir" &&
		EVENTS=$("$GEN_TRACE" "${gen[0]}" "$dir" "${gen[@]:1}" | awk '{ print $1 }')
	/usr/bin/time -f '%e %U %S %M' -o time.out "$MPIVERIFY" check "$dir" "$@" -o "$dir.check" \
		>"$dir.log" 2>&1
	rc=$?
	read -r t u s mem < <(tail -n 1 time.out)
	SECS=$t CPUS=$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')
	MIB=$(awk -v m="$mem" 'BEGIN { print m / 1024 }')
	rm -rf "$dir" "$dir.check"
	awk -v n="$name" -v e="$EVENTS" -v t="$t" -v c="$CPUS" -v m="$MIB" -v rc="$rc" 'BEGIN {
		printf "%-24s %10d %9.2f %9.2f %9.0f %9.2f %11.0f  %d\n", n, e, t, c, m,
			c * 1e6 / e, m * 1048576 / e, rc }'
}
# growth NAME: the ratios of the last two lines (the larger against the smaller)
growth()
{
	awk -v n="$1" -v e1="$E1" -v e2="$EVENTS" -v t1="$T1" -v t2="$CPUS" -v m1="$M1" \
		-v m2="$MIB" 'BEGIN {
		printf "%-24s %9.1fx events: %5.1fx CPU time, %5.1fx peak memory\n", n, e2 / e1,
			t2 / t1, m2 / m1 }'
}
command -v /usr/bin/time >/dev/null || { echo "skipped: /usr/bin/time missing (apt-get install time)"; exit 0; }
for size in "8 100" "64 1000"; do
	set -- $size
	bench_check "halo ${1}x${2}" halo "$1" "$2" --
done
bench_check "halo 64x3125 (1M)" halo 64 3125 --
E1=$EVENTS T1=$CPUS M1=$MIB
bench_check "halo 64x31250 (10M)" halo 64 31250 --
growth "halo, 1M to 10M"
E10=$EVENTS T10=$CPUS M10=$MIB
# the same as one program, as check held every run before it checked long ones in segments
MPIVERIFY_SEGMENT_EVENTS=0 bench_check "halo 10M, one program" halo 64 31250 --
awk -v t1="$T10" -v t2="$CPUS" -v m1="$M10" -v m2="$MIB" 'BEGIN {
	printf "%-24s in segments: %5.2fx CPU time, %5.2fx peak memory of one program\n",
		"halo 10M", t1 / t2, m1 / m2 }'
# the halo exchange completing its requests with MPI_Waitany, MPI_Waitsome and MPI_Testany:
# check follows them too, and cuts as before
bench_check "halo-any 64x20400 (10M)" halo-any 64 20400 --
T10=$CPUS M10=$MIB
MPIVERIFY_SEGMENT_EVENTS=0 bench_check "halo-any 10M, one prog" halo-any 64 20400 --
awk -v t1="$T10" -v t2="$CPUS" -v m1="$M10" -v m2="$MIB" 'BEGIN {
	printf "%-24s in segments: %5.2fx CPU time, %5.2fx peak memory of one program\n",
		"halo-any 10M", t1 / t2, m1 / m2 }'
# rounds of wildcard receives, each closed by a barrier: a segment a round; as one program
# the search branches across rounds and stops at its memory limit (exit 5)
bench_check "rounds 8x40000 (1M)" rounds 8 40000 --
E1=$EVENTS T1=$CPUS M1=$MIB
bench_check "rounds 8x400000 (10M)" rounds 8 400000 --
growth "rounds, 1M to 10M"
MPIVERIFY_SEGMENT_EVENTS=0 bench_check "rounds 1M, one program" rounds 8 40000 --
bench_check "master 16x31250 (1M)" mw 16 31250 -- --buffering zero
E1=$EVENTS T1=$CPUS M1=$MIB
bench_check "master 16x312500 (10M)" mw 16 312500 -- --buffering zero
growth "master, 1M to 10M"
bench_check "farm 16x215000 (1M)" farm 16 215000 -- --buffering infinite
E1=$EVENTS T1=$CPUS M1=$MIB
bench_check "farm 16x2150000 (10M)" farm 16 2150000 -- --buffering infinite
growth "farm, 1M to 10M"
fi
if part explosion; then
	echo
	echo "== state explosion: a task farm like a ray tracer's (bench/gen_trace farm 5 100: 6 ranks,"
	echo "   100 items of three kinds, every receive MPI_ANY_SOURCE and MPI_ANY_TAG), check"
	echo "   --buffering all with the reductions of the search and without (--full-search,"
	echo "   --time-limit 300): states and seconds of each mode's search"
	rm -rf trace-farm && mkdir -p trace-farm
	echo "   ($("$GEN_TRACE" farm trace-farm 5 100))"
	for how in reduced full; do
		opt=()
		test $how = full && opt=(--full-search)
		/usr/bin/time -f '%e %M' -o time.out "$MPIVERIFY" check trace-farm --json \
			--time-limit 300 "${opt[@]}" -o farm-$how >farm-$how.json 2>farm-$how.err
		read -r t mem < <(tail -n 1 time.out)
		eval "T_$how=$t"
		awk -v how="$how" -v t="$t" -v mem="$mem" '
			/"mode":/ { split($0, a, "\""); line = line sep a[4] }
			/"complete":/ { complete = $2 }
			/"why":/ { why = $0; sub(/.*"why": /, "", why); sub(/,$/, "", why) }
			/"states":/ { states = $2; sub(",", "", states) }
			/"deadlock_states":/ {
				cut = ""
				if (complete !~ /true/)
					cut = " (cut short: " why ")"
				line = line sprintf(" %d states%s", states, cut)
				sep = "; " }
			END { printf "%-8s %s\n         %.2f s, peak %.0f MiB\n", how, line, t,
				mem / 1024 }' farm-$how.json
	done
	awk -v r="$T_reduced" -v f="$T_full" 'BEGIN {
		printf "ratio    %.0fx the time without the reductions\n", (r > 0 ? f / r : 0) }'
fi
if part hangs; then
	echo
	echo "== hangs at scale: tests/scale/run.sh (make check-scale) at BENCH_HANG_NP ranks (default"
	echo "   1024), oversubscribed: record, record --last, check and verify of a head-to-head ring"
	SCALE_NP=${BENCH_HANG_NP:-1024} SCALE_PROGS=${BENCH_HANG_PROGS:-ring} \
		"$SRCDIR/tests/scale/run.sh" | grep -E '^   |^FAIL|passed'
fi
# record_secs NAME PROGRAM ROUNDS: the best wall seconds of 3 records of PROGRAM into SECS,
# and the bytes of the last one's trace into BYTES.
record_secs()
{
	local i t0 t1
	SECS=''
	for ((i = 0; i < 3; i++)); do
		rm -rf "judge-$1"
		t0=$(date +%s.%N)
		"$MPIVERIFY" record -o "judge-$1" --deadlock-timeout 60 -- "$MPIRUN" -np 2 "./$2" \
			"$3" >"judge-$1.log" 2>&1
		t1=$(date +%s.%N)
		SECS=$(smaller "$SECS" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')")
	done
	BYTES=$(cat "judge-$1"/rank-*.mpivt | wc -c)
}
if part judge; then
	echo
	echo "== judging a hang from the traces (explore/stuck.c): record of 2 ranks that deadlock"
	echo "   (head-to-head MPI_Ssend) after N round trips, against the same run ending after them,"
	echo "   best of 3 each; the difference is the time from the hang to record's verdict: 0.7 s"
	echo "   of every rank still, then the judgement, which reads and walks the traces (at most"
	echo "   8 MiB of them: past that, record waits for --deadlock-timeout, 60 s here)"
	"$MPICC" -O2 -o late-hang "$SRCDIR/bench/late-hang.c" || exit 1
	"$MPICC" -O2 -DNOHANG -o late-end "$SRCDIR/bench/late-hang.c" || exit 1
	printf '%8s %9s %10s %9s %9s %10s %7s\n' rounds events "trace MiB" "ends s" "hangs s" \
		"verdict s" exit
	first_events='' first_diff=''
	for n in 1000 10000 100000 300000; do
		record_secs end late-end $n
		t_end=$SECS
		record_secs hang late-hang $n
		EVENTS=$((4 * n + 6)) # a send and a receive a round on each rank; the rest
		rc=$(grep -q 'deadlocked' judge-hang.log && echo deadlock || echo other)
		diff=$(awk -v a="$SECS" -v b="$t_end" 'BEGIN { printf "%.3f", a - b }')
		awk -v n=$n -v e="$EVENTS" -v b="$BYTES" -v te="$t_end" -v th="$SECS" -v d="$diff" \
			-v rc="$rc" 'BEGIN { printf "%8d %9d %10.2f %9.2f %9.2f %10.2f %7s\n",
				n, e, b / 1048576, te, th, d, rc }'
		if test -z "$first_events"; then
			first_events=$EVENTS first_diff=$diff
		elif test "$rc" = deadlock && test "$BYTES" -le $((8 << 20)); then
			last_events=$EVENTS last_diff=$diff
		fi
	done
	test -n "${last_events:-}" && awk -v e0="$first_events" -v d0="$first_diff" \
		-v e1="$last_events" -v d1="$last_diff" 'BEGIN {
		printf "a million events add %.2f s to the verdict (%.0f to %.0f events)\n",
			(d1 - d0) / (e1 - e0) * 1e6, e0, e1 }'
fi
echo
echo "work directory: $WORK"
