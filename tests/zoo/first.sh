#!/bin/bash
# The first-sender zoo (tests/zoo/README.md): `mpiverify verify` on programs whose rank 0
# takes one message from each of its peers and acts on which came first (tests/zoo/first.c):
# each way to take the first message, branching on its source, its value or its tag, correct
# or with a bug on the branch of the sender that comes last when the run is left to itself.
# A correct shape must come out "no deadlock, every decision explored" (exit 0), a buggy one
# "deadlock confirmed on the real MPI library" (exit 1), in at most FIRST_RUNS runs a sender
# (2): a run for each sender taking the branch, whatever way the message was taken.
#
#	tests/zoo/first.sh			the shapes of make check (SHAPES=check)
#	SHAPES=long tests/zoo/first.sh		every take, branch and bug, 2 and 3 senders
#	SHAPES='k5 o2 b1 n3' tests/zoo/first.sh	one shape: take, on, bug, senders
#
# Prints `ok NAME` or `FAIL NAME: why` per shape, with the runs verify made, and ends with
# `N passed, M failed`. KEEP=1 keeps tests/out/first.*. Exit status: 0, 1, or 77 (no MPI).
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN"
require_mpiverify
require_mpi_built

WORK=$(make_workdir first) || exit 1
VERIFY_LIMIT=${VERIFY_LIMIT:-120}

# The shapes of make check: every take once, with the branch and the bug turning with it, of
# 2 senders; the takes that post a receive per sender again of 3 (those that take the others
# by name are not answered yet at 3 senders: tests/zoo/README.md).
check_shapes()
{
	local k
	for k in 1 2 3 4 5 6 7 8 9; do
		echo "k$k o$((k % 3 + 1)) b$((k % 4)) n2"
	done
	echo "k5 o3 b0 n3"
	echo "k6 o2 b1 n3"
	echo "k8 o1 b2 n3"
}

long_shapes()
{
	local k o b n
	for n in 2 3; do
		for k in 1 2 3 4 5 6 7 8 9; do
			for o in 1 2 3; do
				for b in 0 1 2 3; do
					echo "k$k o$o b$b n$n"
				done
			done
		done
	done
}

# shape K O B N: build the shape, verify it, check the answer.
shape()
{
	local k=${1#k} o=${2#o} b=${3#b} n=${4#n}
	local name="take=$k on=$o bug=$b senders=$n"
	local prog="$WORK/first-k$k-o$o-b$b-n$n" dir="$WORK/k$k-o$o-b$b-n$n"
	local want=0 runs most=$((n * ${FIRST_RUNS:-2}))
	test "$b" -eq 0 || want=1
	if ! test -x "$prog" &&
		! "$MPICC" -g -DTAKE="$k" -DON="$o" -DBUG="$b" -DSENDERS="$n" -o "$prog" \
			"$SRCDIR/tests/zoo/first.c" >"$prog.log" 2>&1; then
		fail "$name: compile" "$MPICC failed" "$prog.log"
		return
	fi
	run_cmd "$dir.log" "$VERIFY_LIMIT" "$MPIVERIFY" verify -o "$dir" --deadlock-timeout 2 \
		--json -- "$MPIRUN" -np $((n + 1)) "$prog"
	runs=$(sed -n 's/^    "runs": \([0-9]*\),$/\1/p' "$dir.log" | head -n 1)
	if test "$RC" -ne "$want"; then
		fail "$name" "$(describe_rc "$RC"), want exit $want" "$dir.log"
	elif test "${runs:-0}" -gt "$most"; then
		fail "$name: at most $most runs" "$runs runs" "$dir.log"
	else
		pass "$name ($runs runs)"
	fi
	check_leftovers "$name: no leftover processes" "$prog"
}

case ${SHAPES:-check} in
check) check_shapes >"$WORK/shapes" ;;
long) long_shapes >"$WORK/shapes" ;;
*) echo "$SHAPES" >"$WORK/shapes" ;;
esac
while read -r k o b n; do
	test -n "$k" && shape "$k" "$o" "$b" "$n"
done <"$WORK/shapes"
finish_work
