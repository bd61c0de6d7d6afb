#!/bin/bash
# verify on threaded programs (doc/verify.md): the exchanges of tests/e2e/programs/
# threads-family.c, each written several ways (a tag, a communicator, matched probes,
# nonblocking calls per thread; one tag shared by every thread, with values of each thread's
# own or one value for all) and with 2 and 4 threads, under MPI_THREAD_MULTIPLE on the real
# mpirun. Where no two threads can meet one message, or the messages they can meet are all
# alike, verify answers "no deadlock" from the first run; where they can meet messages that
# differ, inconclusive, naming the two calls that compete; never "no deadlock" then.
#
# Then the task farms of tests/e2e/programs/threads-farm.c, whose server threads take each
# request from any worker: each way of taking it (MPI_Recv, MPI_Probe, MPI_Irecv, polled
# MPI_Iprobe from MPI_ANY_SOURCE, MPI_Waitany over a receive per worker) correct and with a
# deadlock on the paths where the wrong worker gets the last task, one or two servers, made
# by main or by a thread main made (the forms rotate), or an OpenMP team, or by a thread
# that initialised MPI where main did not; workers that ask
# one server after the other, or all at once from a thread each. verify steers each server
# thread's decisions and makes the runs one model: "no deadlock" with decisions explored, or
# the deadlock confirmed on a steered run, whose steering names a thread, and whose report
# has the blocked server thread's stack.
# Servers that share one communicator race for every request, which steering cannot settle:
# inconclusive where correct, never "no deadlock". Two servers' MPI_Waitany each complete the
# requests their own thread made, which steering names by their number among that thread's.
#
# Then MPI initialised by a thread main made, at every thread level (the family of
# tests/e2e/programs/threads-init-family.c, below).
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped (mpicc, mpirun or spin missing).
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN" spin
require_mpiverify
require_mpi_built

WORK=$(make_workdir threads) || exit 1
LIMIT=120

# picked NAME: whether case NAME is to run: THREADS_CASES, an extended regular expression its
# name must match (all if unset; tests/run.sh runs a few on Open MPI)
picked()
{
	test -z "${THREADS_CASES:-}" || printf '%s\n' "$1" | grep -qE -- "$THREADS_CASES"
}

names=("a tag per thread" "a communicator per thread" "matched probes" "nonblocking calls"
	"one tag for every thread" "one tag and one value for every thread")
for by in 0 1 2 3 4 5; do
	for nt in 2 4; do
		name="threads: ${names[$by]}, $nt threads"
		picked "$name" || continue
		prog=$WORK/family-$by-$nt
		# threads that race for every message: the model holds every order of them, 2
		# rounds (5 rounds of 4 threads are 48 s of search)
		rounds=5
		test "$by" -ge 4 && rounds=2
		if ! "$MPICC" -g -O0 -Wall -DBY=$by -DNT=$nt -DROUNDS=$rounds -o "$prog" \
			"$SRCDIR/tests/e2e/programs/threads-family.c" -lpthread >"$prog.cc.log" 2>&1; then
			fail "$name: compile" "$MPICC failed" "$prog.cc.log"
			continue
		fi
		run_cmd "$prog.log" "$LIMIT" "$MPIVERIFY" verify -o "$prog.out" --deadlock-timeout 5 \
			--json -- "$MPIRUN" -np 2 "$prog"
		if test "$by" != 4; then
			expect "$name: no deadlock from one run" 0 "$prog.log" \
				'"verdict": "no deadlock"' '"threads_explored": true'
		else
			expect "$name: inconclusive, the two calls that compete named" 5 "$prog.log" \
				'"verdict": "inconclusive"' '"threads_explored": false' \
				'"threads_left": "rank [01].s threads [0-9]+ and [0-9]+ (send to|receive from) rank [01] with tag 0 .*threads-family.c:[0-9]+'
		fi
		no_leftovers "$prog" || fail "$name: no leftover processes" "$LEFTOVERS"
	done
done

serves=("" "MPI_Recv" "MPI_Probe" "MPI_Irecv" "MPI_Iprobe" "MPI_Waitany")
i=0
for serve in 1 2 3 4 5; do
	for bug in 0 1 2 3; do
		i=$((i + 1))
		shared=0
		test "$bug" -ge 2 && shared=1
		# the forms rotate: one server with 2 tasks, or two with 1 each; made by main or
		# by a thread it made
		nt=$((1 + i % 2))
		nest=$(((i / 2) % 2))
		ntasks=$((3 - nt))
		if test "$shared" = 1; then
			# two servers on one communicator: with MPI_Recv and MPI_Probe; and the
			# MPI_Waitany farm's two servers (below)
			test "$serve" -le 2 || test "$serve" = 5 || continue
			nt=2
			ntasks=1
		fi
		# MPI_Waitany, each server completing the requests it made: one server, or two
		# (each on a communicator of its own)
		if test "$serve" = 5; then
			nt=$((1 + shared))
			ntasks=$((3 - nt))
			shared=0
		fi
		name="threads: farm served by $nt thread(s) with ${serves[$serve]}$(test "$nest" = 1 && echo ", nested")$(test "$shared" = 1 && echo ", one communicator"), bug $((bug % 2))"
		picked "$name" || continue
		prog=$WORK/farm-$serve-$bug
		if ! "$MPICC" -g -O0 -Wall -DSERVE=$serve -DNT=$nt -DNEST=$nest -DSHARED=$shared \
			-DNTASKS=$ntasks -DBUG=$((bug % 2)) -o "$prog" \
			"$SRCDIR/tests/e2e/programs/threads-farm.c" -lpthread >"$prog.cc.log" 2>&1; then
			fail "$name: compile" "$MPICC failed" "$prog.cc.log"
			continue
		fi
		run_cmd "$prog.log" "$LIMIT" "$MPIVERIFY" verify -o "$prog.out" --deadlock-timeout 3 \
			--json -- "$MPIRUN" -np 3 "$prog"
		if test "$shared" = 1 && test "$bug" = 2; then
			expect "$name: inconclusive, the servers' race named" 5 "$prog.log" \
				'"verdict": "inconclusive"' '"threads_left": "rank 0.s .*MPI_ANY_SOURCE'
		elif test "$shared" = 1; then
			if test "$RC" = 0; then
				fail "$name: never no deadlock" "exit 0" "$prog.log"
			else
				pass "$name: never no deadlock (exit $RC)"
			fi
		elif test $((bug % 2)) = 0; then
			expect "$name: no deadlock, the servers' decisions explored, one model" 0 \
				"$prog.log" '"verdict": "no deadlock"' '"complete": true' \
				'"decisions_explored": [1-9]' '"merged": true'
		else
			expect "$name: deadlock confirmed on a run a server thread was steered" 1 \
				"$prog.log" '"verdict": "deadlock"' \
				'"steering": "mpiverify-steer 1\\n.*thread 0 0\.1(\.[12])? ' \
				'#0 threads-farm.c:[0-9]+ \(serve\)'
		fi
		no_leftovers "$prog" || fail "$name: no leftover processes" "$LEFTOVERS"
	done
done

# the servers as an OpenMP team (main serves as its thread 0, the runtime's thread as 0.1);
# two server threads, each worker asking both at once from a thread for each; two servers'
# MPI_Waitany while main's MPI_Ibarrier is a request of its own; two server threads of a
# thread that initialised MPI, not the initial one (thread 0 all the same: their paths are
# 0.1 and 0.2, which steering names); and the same beside a thread made before MPI_Init that
# never calls it (named at the trace's start, with no path: the servers' stay 0.1 and 0.2)
for form in omp-1-0 omp-2-1 workers-1-0 workers-3-1 ibarrier-5-0 ibarrier-5-1 initthread-1-0 \
	initthread-2-1 idlebefore-1-0 idlebefore-2-1; do
	bug=${form##*-}
	serve=${form%-*}
	serve=${serve#*-}
	case ${form%%-*} in
	omp) beside="" flags="-fopenmp -DOPENMP=1" ;;
	ibarrier) beside="main's request beside" flags="-DIBARRIER=1" ;;
	initthread) beside="MPI initialised by a thread main made" flags="-DINIT_THREAD=1" ;;
	idlebefore) beside="an idle thread made before MPI_Init" flags="-DIDLE_BEFORE=1" ;;
	*) beside="workers of 2 threads" flags="-DWORKER_THREADS=1" ;;
	esac
	if test -z "$beside"; then
		name="threads: farm served by an OpenMP team of 2 with ${serves[$serve]}, bug $bug"
	else
		name="threads: farm of 2 server threads with ${serves[$serve]}, $beside, bug $bug"
	fi
	picked "$name" || continue
	prog=$WORK/farm-$form
	if ! "$MPICC" -g -O0 -Wall $flags -DSERVE=$serve -DNT=2 -DNTASKS=1 -DBUG=$bug \
		-o "$prog" "$SRCDIR/tests/e2e/programs/threads-farm.c" -lpthread \
		>"$prog.cc.log" 2>&1; then
		fail "$name: compile" "$MPICC $flags failed" "$prog.cc.log"
		continue
	fi
	run_cmd "$prog.log" "$LIMIT" "$MPIVERIFY" verify -o "$prog.out" --deadlock-timeout 3 \
		--json -- "$MPIRUN" -np 3 "$prog"
	if test "$bug" = 0; then
		expect "$name: no deadlock, the servers' decisions explored, one model" 0 \
			"$prog.log" '"verdict": "no deadlock"' '"complete": true' \
			'"decisions_explored": [1-9]' '"merged": true'
	else
		expect "$name: deadlock confirmed on a steered run" 1 "$prog.log" \
			'"verdict": "deadlock"' '"steering": "mpiverify-steer 1\\n'
	fi
	no_leftovers "$prog" || fail "$name: no leftover processes" "$LEFTOVERS"
done
# MPI initialised by a thread main made (tests/e2e/programs/threads-init-family.c), at each
# thread level, made by main or by a thread of main's (the forms rotate), correct and head to
# head; and under MPI_THREAD_MULTIPLE with the initial thread calling MPI too. The thread that
# initialised MPI is thread 0 of the trace (MPI-4.1 11.6.1's main thread), so a rank below
# MULTIPLE is one sequence of calls; check, replay and verify answer as for a program that
# initialises MPI in main. Below MULTIPLE, main's calls after the other thread's are an error
# of the program's under FUNNELED (exit 3), and under SERIALIZED an order check cannot judge
# yet: it leaves out the rank's calls from there on, inconclusive (exit 5), or the deadlock
# of the head-to-head sends before them (exit 1).
levels=("MPI_Init" "FUNNELED" "SERIALIZED" "MULTIPLE")
refusals=([1]="so the program is erroneous" [2]="which check cannot judge yet")
for form in 0-0 0-1 1-0 1-1 2-0 2-1 3-0 3-1 3-0-initial 3-1-initial 1-0-initial 2-0-initial \
	2-1-initial; do
	level=${form%%-*}
	bug=${form#*-}
	bug=${bug%%-*}
	initial=0
	case $form in *-initial) initial=1 ;; esac
	nest=$(((level + bug) % 2))
	name="threads: MPI initialised by a thread$(test "$nest" = 1 && echo " of a thread") main made, ${levels[$level]}$(test "$initial" = 1 && echo ", main calling MPI too"), $(test "$bug" = 1 && echo "head to head" || echo correct)"
	picked "$name" || continue
	prog=$WORK/init-$form
	if ! "$MPICC" -g -O0 -Wall -DLEVEL=$level -DNEST=$nest -DBUG=$bug -DINITIAL=$initial \
		-o "$prog" "$SRCDIR/tests/e2e/programs/threads-init-family.c" -lpthread \
		>"$prog.cc.log" 2>&1; then
		fail "$name: compile" "$MPICC failed" "$prog.cc.log"
		continue
	fi
	run_cmd "$prog.record.log" "$LIMIT" "$MPIVERIFY" record -o "$prog.trace" \
		--deadlock-timeout 5 -- "$MPIRUN" -np 2 "$prog"
	expect "$name: record" 0 "$prog.record.log" "traces in"
	# the initialising thread's calls are thread 0's: no call of another thread's but main's
	# own exchange (a send and a receive on each of the 2 ranks; thread records name
	# thread 0 as the creator of the threads there were at MPI_Init)
	run_cmd "$prog.trace.log" "$LIMIT" "$MPIVERIFY" trace "$prog.trace"
	threads=$(grep -c '"thread": [1-9]' "$prog.trace.log")
	if test "$threads" = $((initial * 4)); then
		pass "$name: the initialising thread is thread 0"
	else
		fail "$name: the initialising thread is thread 0" \
			"$threads events of another thread, want $((initial * 4))" "$prog.trace.log"
	fi
	for mode in zero infinite; do
		run_cmd "$prog.$mode.log" "$LIMIT" "$MPIVERIFY" check "$prog.trace" \
			--buffering "$mode" -o "$prog.trace/check-$mode"
		if test "$initial" = 1 && test "$level" = 2 && test "$bug" = 1 &&
			test "$mode" = zero; then
			# the head-to-head sends come before: their deadlock is found all the same
			expect_text "$name: check --buffering $mode leaves the rest out, the deadlock" \
				1 "$prog.$mode.log" "was left out from its event" \
				"${refusals[$level]}" "threads-init-family.c:"
		elif test "$initial" = 1 && test "$level" = 2; then
			expect_text "$name: check --buffering $mode leaves the rest out" 5 \
				"$prog.$mode.log" "was left out from its event" \
				"another than the one that initialised MPI" \
				"${refusals[$level]}"
		elif test "$initial" = 1 && test "$level" -lt 3; then
			expect_text "$name: check --buffering $mode refuses it" 3 "$prog.$mode.log" \
				"another than the one that initialised MPI" \
				"${refusals[$level]}"
		elif test "$bug" = 1 && test "$mode" = zero; then
			expect_text "$name: check --buffering $mode: the deadlock" 1 \
				"$prog.$mode.log" "threads-init-family.c:"
			run_cmd "$prog.replay.log" "$LIMIT" "$MPIVERIFY" replay \
				--trace "$prog.trace/check-$mode/cex.json" --deadlock-timeout 5
			expect_text "$name: replay" 1 "$prog.replay.log" reproduced
		else
			expect_text "$name: check --buffering $mode: no deadlock" 0 \
				"$prog.$mode.log" "no deadlock"
		fi
	done
	if test "$initial" = 1 && test "$level" = 2; then
		# verify leaves the same calls out: the deadlock before them is confirmed all
		# the same; without it, never "no deadlock"
		run_cmd "$prog.verify.log" "$LIMIT" "$MPIVERIFY" verify -o "$prog.verify" \
			--deadlock-timeout 3 -- "$MPIRUN" -np 2 "$prog"
		if test "$bug" = 1; then
			expect_text "$name: verify leaves the rest out, the deadlock" 1 \
				"$prog.verify.log" "deadlock confirmed" "was left out from its event"
		else
			expect_text "$name: verify leaves the rest out" 5 "$prog.verify.log" \
				"was left out from its event" \
				"inconclusive: calls verify cannot judge yet were left out"
		fi
	fi
	if test "$initial" = 1 && test "$level" -lt 3; then
		no_leftovers "$prog" || fail "$name: no leftover processes" "$LEFTOVERS"
		continue
	fi
	VERIFY_TIMEOUT=3 verify_family "$name" "$prog" 2 "$bug" "deadlock confirmed"
	no_leftovers "$prog" || fail "$name: no leftover processes" "$LEFTOVERS"
done
# Partitioned sends whose partitions threads ready (tests/e2e/programs/threads-partitioned.c):
# the main thread starts them (together, or one after the other) and completes them, threads
# made each round, made once and met at barriers, or an OpenMP team ready them, by MPI_Pready,
# MPI_Pready_range or MPI_Pready_list, with or without the main thread readying a share,
# completed by MPI_Wait, MPI_Waitall or a loop of MPI_Test (the forms rotate). check: no deadlock in both modes where
# correct; where a thread readies its share only after a reply the peer sends once its own
# send is complete, the deadlock (threads joined after the wait), or inconclusive where the
# other threads wait outside MPI (barriers, a team) and might yet send the reply, never "no
# deadlock"; verify confirms the deadlock. A call of the main thread between the start and
# the wait check cannot judge yet: it leaves out the rank's calls from there on (exit 5), and
# so does verify. MPI-4: MPICH only.
if test "$(mpi_version)" -ge 4; then
	teams=("threads made each round" "threads met at barriers" "an OpenMP team")
	readies=("MPI_Pready" "MPI_Pready_range" "MPI_Pready_list")
	dones=("MPI_Wait" "MPI_Waitall" "MPI_Test" "a send before the wait")
	for form in 0-0-0-1-2-0 1-1-1-0-3-1 2-2-2-1-2-0 0-2-1-1-3-1 1-0-2-1-2-0 2-1-0-1-3-1 \
		0-1-3-1-2-1 bug-0 bug-1 bug-2; do
		case $form in
		bug-*) team=${form#bug-} ready=0 done=0 owner=1 nt=2 start=0 bug=1 ;;
		*)
			IFS=- read -r team ready done owner nt start <<<"$form"
			bug=0
			;;
		esac
		test "$team" = 2 && owner=1
		name="threads: partitioned send readied by ${teams[$team]} ($((nt + owner)) in all), ${readies[$ready]}, ${dones[$done]}$(test "$start" = 1 && echo ", started alone")$(test "$bug" = 1 && echo ", a share readied after the reply")"
		picked "$name" || continue
		prog=$WORK/part-$form
		flags="-DTEAM=$team -DREADY=$ready -DDONE=$done -DOWNER=$owner -DNT=$nt -DBUG=$bug"
		flags="$flags -DSTART=$start"
		test "$team" = 2 && flags="$flags -fopenmp"
		# shellcheck disable=SC2086
		if ! "$MPICC" -g -O0 -Wall $flags -o "$prog" \
			"$SRCDIR/tests/e2e/programs/threads-partitioned.c" -lpthread \
			>"$prog.cc.log" 2>&1; then
			fail "$name: compile" "$MPICC $flags failed" "$prog.cc.log"
			continue
		fi
		run_cmd "$prog.record.log" "$LIMIT" "$MPIVERIFY" record -o "$prog.trace" \
			--deadlock-timeout 3 -- "$MPIRUN" -np 2 "$prog"
		expect "$name: record" "$bug" "$prog.record.log" "traces in"
		run_cmd "$prog.check.log" "$LIMIT" "$MPIVERIFY" check "$prog.trace" \
			--buffering all
		if test "$done" = 3; then
			expect_text "$name: check leaves out the main thread's send on" 5 \
				"$prog.check.log" "was left out from its event" \
				"MPI_Send on thread 0, before it completes request" \
				"cannot judge a call there that may wait, or that names the send, yet"
			# and so does verify: in its model of the runs, or in the model of the
			# first run alone where it leaves choices steering cannot make (which
			# the threads' timing decides)
			run_cmd "$prog.verify.log" "$LIMIT" "$MPIVERIFY" verify -o "$prog.verify" \
				--deadlock-timeout 3 -- "$MPIRUN" -np 2 "$prog"
			expect_grep -E "$name: verify leaves the main thread's send on out" 5 \
				"$prog.verify.log" "was left out from its event" \
				"verdict: inconclusive: (calls verify cannot judge yet were left out|check was inconclusive on run 1's model)"
		elif test "$bug" = 0; then
			expect_text "$name: check: no deadlock" 0 "$prog.check.log" \
				"no deadlock on the recorded path"
		elif test "$team" = 0; then
			expect "$name: check: the deadlock" 1 "$prog.check.log" \
				"thread 0  blocked in MPI_Wait" \
				"thread 1  blocked in MPI_Recv.*tag=9"
			VERIFY_TIMEOUT=3 verify_family "$name" "$prog" 2 1 "deadlock confirmed"
		elif test "$RC" = 0; then
			fail "$name: check: never no deadlock" "exit 0" "$prog.check.log"
		else
			pass "$name: check: never no deadlock (exit $RC)"
		fi
		if test "$form" = 2-2-2-1-2-0; then
			VERIFY_TIMEOUT=3 verify_family "$name" "$prog" 2 0
		fi
		no_leftovers "$prog" || fail "$name: no leftover processes" "$LEFTOVERS"
	done
fi
summary
