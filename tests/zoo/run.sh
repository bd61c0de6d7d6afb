#!/bin/bash
# The farm zoo (tests/zoo/README.md): `mpiverify verify` on master/worker programs of every
# shape tests/zoo/farm.c makes, each correct or with one bug planted on one path. A correct
# shape must come out "no deadlock, every decision explored" (exit 0), a buggy one "deadlock
# confirmed on the real MPI library" (exit 1), in both buffering modes.
#
#	tests/zoo/run.sh		the shapes of make check (SHAPES=check)
#	SHAPES=long tests/zoo/run.sh	every reply, stop and bug, 2 to 5 workers, 1 to 16 tasks
#	SHAPES='r2 s2 b0 t8 w3' ...	one shape: reply, stop, bug, tasks, workers
#	SHAPES='r2 s2 b0 t8 w3 n3 y2'	the same farm in 3 rounds, parted by MPI_Allreduce
#	SHAPES='r2 s2 b0 t8 w3 m1'	one round, the master replying with MPI_Isend (SENDS)
#	JOBS2=1				also verify --jobs 2 and compare the answers
#
# The shapes of at most EXHAUSTIVE_WORKERS workers and EXHAUSTIVE_TASKS tasks (2 and 3 in
# make check, 3 and 4 in the long list) are verified again with --exhaustive, every order of
# every decision a run of its own: the verdict must be the same (the reductions lose none);
# of the farms in rounds, those of 2 rounds.
#
# A farm in rounds (n2 and up) must take at most ROUND_RUNS runs (12) a round and worker past the
# first, ROUND_RUNS_UNPARTED (16) with nothing between the rounds: the runs of its rounds add up,
# where they multiplied before the model took its loops a phase at a time. A farm in one round
# whose workers stop after their known share of more tasks than workers must take at most
# ROUND_RUNS runs and COUNT_RUNS (4) a task: each task handed to a worker at each turn, where
# each share of the tasks was a path of its own before (doc/verify.md, "Data no one reads").
# Reply 13 is left out: its receive posted ahead is live wherever the master takes a word, which
# leaves the master no places, and its runs grow with the orders of the workers' last words (2
# workers: 72 runs for 9 tasks, the 200-run cap for 16; "inconclusive" all the same).
#
# Prints `ok NAME` or `FAIL NAME: why` per shape, with the runs verify made, and ends with
# `N passed, M failed`. KEEP=1 keeps tests/out/zoo.*. Exit status: 0, 1, or 77 (no MPI).
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN"
require_mpiverify
require_mpi_built

WORK=$(make_workdir zoo) || exit 1
VERIFY_LIMIT=${VERIFY_LIMIT:-300}

# The shapes of make check: every reply with every stop, correct, and every reply with each bug
# (on a stop that turns with the reply), over 2 and 3 workers and 2 to 5 tasks; the smallest
# also with --exhaustive.
check_shapes()
{
	local r s b i=0
	for r in 1 2 3 4 5 6 7; do
		for s in 1 2 3 4; do
			for b in 0 1 2 3; do
				i=$((i + 1))
				test "$b" -eq 0 || test "$s" -eq $(((r + b - 2) % 4 + 1)) || continue
				echo "r$r s$s b$b t$((2 + i % 4)) w$((2 + (i / 3) % 2))"
			done
		done
	done
	# in rounds: every reply, correct in 3 rounds and with each bug in the last of 2, each
	# way of parting them
	for r in 1 2 3 4 5 6 7; do
		echo "r$r s$((r % 4 + 1)) b0 t2 w2 n3 y$((r % 3 + 1))"
		b=$((r % 3 + 1))
		echo "r$r s$(((r + b - 2) % 4 + 1)) b$b t2 w2 n2 y$(((r + 1) % 3 + 1))"
	done
	# counts that share the tasks out unevenly: the last worker still asking is served
	# alone, its receive the only one posted again, and the round goes on
	echo "r2 s3 b0 t4 w3"
	echo "r7 s3 b1 t5 w3"
	# and more tasks than that, each worker's result sent with its next request: the data
	# no one reads, each task handed to a worker once, somewhere (128 runs before)
	echo "r1 s3 b0 t9 w2"
	# a poll that stops on a count, after every order of the rounds before
	echo "r6 s3 b0 t3 w3 n3 y1"
	# matched probes, blocking and polled; a wildcard receive posted ahead, the last
	# cancelled (never "no deadlock": shape())
	echo "r11 s2 b0 t3 w3"
	echo "r11 s1 b1 t4 w3"
	echo "r12 s3 b0 t4 w3"
	echo "r12 s2 b2 t3 w2"
	echo "r13 s1 b0 t3 w2"
	echo "r13 s1 b1 t4 w3"
	# receives tested in turn with MPI_Test: never "no deadlock" (shape())
	echo "r8 s3 b0 t3 w3"
	echo "r8 s2 b1 t4 w3"
	# a wildcard MPI_Irecv, waited for or polled with MPI_Test
	echo "r9 s2 b0 t4 w3"
	echo "r9 s3 b1 t4 w3"
	echo "r10 s1 b0 t3 w3"
	echo "r10 s3 b1 t4 w3"
	echo "r9 s4 b0 t2 w2"
	echo "r10 s2 b2 t3 w2"
	# the other ways requests and replies travel: the master's MPI_Isend, its wait for the
	# last reply to a worker following the input, the workers' MPI_Sendrecv, the workers'
	# receive posted before their request
	echo "r1 s1 b1 t4 w3 m1"
	echo "r2 s2 b0 t4 w3 m1"
	echo "r4 s4 b0 t2 w2 m1"
	echo "r9 s3 b0 t5 w3 m1"
	echo "r1 s2 b0 t3 w2 m2"
	echo "r6 s3 b2 t4 w3 m2"
	echo "r9 s3 b1 t4 w3 m3"
	echo "r3 s1 b0 t3 w2 m3"
	# rounds with nothing between them, told apart by the workers' stops
	echo "r1 s1 b0 t2 w2 n3 y0"
	echo "r5 s2 b0 t2 w2 n3 y0"
	echo "r2 s1 b0 t2 w2 n3 y0"
	echo "r1 s2 b2 t2 w2 n2 y0"
	echo "r5 s1 b1 t2 w2 n2 y0"
	# and served by any-completions to 3 workers, whose next round's receives follow no
	# input of the round before
	echo "r2 s2 b0 t3 w3 n2 y0"
	echo "r3 s1 b2 t2 w3 n2 y0"
}

long_shapes()
{
	local r s b t w
	for w in 2 3 5; do
		for t in 1 4 9 16; do
			for r in 1 2 3 4 5 6 7 8 9 10 11 12 13; do
				for s in 1 2 3 4; do
					for b in 0 1 2 3; do
						echo "r$r s$s b$b t$t w$w"
						test "$t" -ne 4 ||
							echo "r$r s$s b$b t$t w$w n3 y$(((r + s + b) % 3 + 1))"
						test "$t" -ne 4 ||
							echo "r$r s$s b$b t$t w$w m$(((r + s + b) % 3 + 1))"
					done
				done
			done
		done
	done
}

# answer LOG: the verdict and the calls every confirmed deadlock is blocked in.
answer()
{
	sed -n 's/^  "verdict": \(.*\),$/verdict \1/p' "$1"
	grep -o '"call": "MPI_[A-Za-z_]*"' "$1" | LC_ALL=C sort -u
}

# shape R S B T W [N Y] [M]: build the shape, verify it, check the answer.
shape()
{
	local r=${1#r} s=${2#s} b=${3#b} t=${4#t} w=${5#w} n=1 y=1 m=0 name arg
	shift 5
	for arg; do
		case $arg in
		n*) n=${arg#n} ;;
		y*) y=${arg#y} ;;
		m*) m=${arg#m} ;;
		esac
	done
	name="reply=$r stop=$s bug=$b tasks=$t workers=$w"
	test "$n" -eq 1 || name="$name rounds=$n sync=$y"
	test "$m" -eq 0 || name="$name sends=$m"
	local prog="$WORK/farm-r$r-s$s-b$b-t$t-n$n-y$y-m$m"
	local dir="$WORK/r$r-s$s-b$b-t$t-w$w-n$n-y$y-m$m"
	local want=0 runs why= because=
	test "$b" -eq 0 || want=1
	# receives tested in turn: which comes first is a decision no run is steered to, so a
	# correct one is never "no deadlock", and a buggy one "deadlock" or that (doc/verify.md)
	if test "$r" -eq 8; then
		why=polls-unsteered because="receives polled in turn"
		test "$b" -ne 0 || want=5
	fi
	# the receive posted ahead is cancelled, a call verify leaves out: a correct farm is
	# "inconclusive", and a deadlock after the cancel (bug 2) may be too, as may a crash on
	# an order past the cancel that no run happened to take (bug 3)
	if test "$r" -eq 13 && test "$b" -ne 1; then
		why=calls-left-out because="the cancel left out"
		test "$b" -ne 0 || want=5
	fi
	if ! test -x "$prog" &&
		! "$MPICC" -g -DREPLY="$r" -DSTOP="$s" -DBUG="$b" -DNTASKS="$t" -DROUNDS="$n" \
			-DSYNC="$y" -DSENDS="$m" -o "$prog" "$SRCDIR/tests/zoo/farm.c" \
			>"$prog.log" 2>&1; then
		fail "$name: compile" "$MPICC failed" "$prog.log"
		return
	fi
	run_cmd "$dir.log" "$VERIFY_LIMIT" "$MPIVERIFY" verify -o "$dir" --deadlock-timeout 2 \
		--json -- "$MPIRUN" -np $((w + 1)) "$prog"
	runs=$(sed -n 's/^    "runs": \([0-9]*\),$/\1/p' "$dir.log" | head -n 1)
	if test -n "$why" && test "$RC" -eq 5; then
		if sed -n '/^  "inconclusive": \[/,/\]/p' "$dir.log" | grep -q "\"$why\""
		then
			pass "$name: inconclusive, $because ($runs runs)"
		else
			fail "$name" "inconclusive, but not for $because" "$dir.log"
		fi
	elif test "$RC" -ne "$want"; then
		fail "$name" "$(describe_rc "$RC"), want exit $want" "$dir.log"
	else
		pass "$name ($runs runs)"
	fi
	# rounds with nothing between them are told apart by the workers' stops alone, and a
	# bug in the last is found after 19 to 28 runs in 2 rounds of 2 workers (five CI runs)
	local per=${ROUND_RUNS:-12} again most= bound
	test "$y" != 0 || per=${ROUND_RUNS_UNPARTED:-16}
	if test "$n" -gt 1; then
		most=$((n * (w - 1) * per)) bound="at most $per runs a round and worker past one"
	elif test "$s" -eq 3 && test "$t" -gt "$w" && test "$r" -ne 13; then
		most=$((per + t * ${COUNT_RUNS:-4}))
		bound="at most $per runs and ${COUNT_RUNS:-4} a task"
	fi
	# Polled farms take more runs where the ranks' timing varies more (a loaded machine:
	# reply=6 stop=3 in 3 rounds of 3 workers took 22 runs alone, 65 beside two busy
	# loops, 95 beside CI's other lane): over the bound, a second verify must keep to it.
	if test -n "$most" && test "${runs:-0}" -gt "$most"; then
		run_cmd "$dir-again.log" "$VERIFY_LIMIT" "$MPIVERIFY" verify -o "$dir-again" \
			--deadlock-timeout 2 --json -- "$MPIRUN" -np $((w + 1)) "$prog"
		again=$(sed -n 's/^    "runs": \([0-9]*\),$/\1/p' "$dir-again.log" | head -n 1)
		if test "$RC" -ne "$want" || test "${again:-0}" -gt "$most"; then
			fail "$name: $bound" \
				"$runs runs, then $(describe_rc "$RC") after ${again:-no} runs" \
				"$dir-again.log"
		else
			pass "$name: $bound, on a second try ($runs runs, then $again)"
		fi
	fi
	# the planted abort is a crash, not a deadlock
	if test "$b" -eq 3 && test "$RC" -eq 1 && ! grep -q '"kind": "crash"' "$dir.log"; then
		fail "$name: the abort is reported as a crash" "no crash finding" "$dir.log"
	fi
	echo "$r $s $b $t $w $n $y $m $RC ${runs:-0}" >>"$WORK/runs.txt"
	check_leftovers "$name: no leftover processes" "$prog"
	if test "$w" -le "$EXHAUSTIVE_WORKERS" && test "$t" -le "$EXHAUSTIVE_TASKS" &&
		test "$n" -le 2 && test "$r" -ne 8; then
		run_cmd "$dir-all.log" "$VERIFY_LIMIT" "$MPIVERIFY" verify -o "$dir-all" --exhaustive \
			--max-runs 2000 --deadlock-timeout 2 --json -- "$MPIRUN" -np $((w + 1)) "$prog"
		runs=$(sed -n 's/^    "runs": \([0-9]*\),$/\1/p' "$dir-all.log" | head -n 1)
		if test "$RC" -eq "$want"; then
			pass "$name: --exhaustive gives the same verdict ($runs runs)"
		else
			fail "$name: --exhaustive gives the same verdict" \
				"$(describe_rc "$RC"), want exit $want" "$dir-all.log"
		fi
	fi
	test -n "${JOBS2:-}" || return 0
	run_cmd "$dir-jobs2.log" "$VERIFY_LIMIT" "$MPIVERIFY" verify -o "$dir-jobs2" \
		--deadlock-timeout 3 --jobs 2 --json -- "$MPIRUN" -np $((w + 1)) "$prog"
	if cmp -s <(answer "$dir.log") <(answer "$dir-jobs2.log"); then
		pass "$name: --jobs 2 answers as --jobs 1"
	else
		fail "$name: --jobs 2 answers as --jobs 1" "the answers differ" "$dir-jobs2.log"
	fi
}

EXHAUSTIVE_WORKERS=${EXHAUSTIVE_WORKERS:-2}
EXHAUSTIVE_TASKS=${EXHAUSTIVE_TASKS:-3}
case ${SHAPES:-check} in
check) check_shapes >"$WORK/shapes" ;;
long)
	long_shapes >"$WORK/shapes"
	EXHAUSTIVE_WORKERS=3
	EXHAUSTIVE_TASKS=4
	;;
*) echo "$SHAPES" >"$WORK/shapes" ;;
esac
while read -r r s b t w more; do
	test -n "$r" && shape "$r" "$s" "$b" "$t" "$w" $more
done <"$WORK/shapes"
finish_work
