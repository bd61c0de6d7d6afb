#!/bin/bash
# `mpiverify trace --otf2` end to end (make check): examples recorded under the real mpirun,
# with and without --timestamps, and a counterexample check found, written as OTF2 archives
# that otf2-print (Debian's otf2-tools) must read, with the records each call makes: Enter and
# Leave around every call, MpiIsend/MpiIrecv with their requests on a ring, MpiSend/MpiRecv of
# MPI_Sendrecv, collective begin and end with their roots; every message received no earlier
# than it was sent (the run's times, or synthetic ones).
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped (mpicc, mpirun or otf2-print missing,
# or mpiverify built without OTF2).
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN" spin
require_mpiverify
if ! command -v otf2-print >/dev/null 2>&1; then
	echo "skipped: otf2-print not found (install the Debian package 'otf2-tools')"
	exit 77
fi
if ! grep -q '^#define HAVE_OTF2 1' "$BUILDDIR/config.h" 2>/dev/null; then
	echo "skipped: mpiverify was built without OTF2 (install 'libotf2-trace-dev', run ./configure)"
	exit 77
fi

WORK=$(make_workdir otf2) || exit 1
LIMIT=120	# safety net of every command

# build NAME SOURCE: compile an example into $WORK/NAME.
build()
{
	if ! "$MPICC" -g -O0 -o "$WORK/$1" "$SRCDIR/$2" >"$WORK/$1.cc.log" 2>&1; then
		fail "compile $1" "$MPICC failed" "$WORK/$1.cc.log"
		return 1
	fi
}

# export NAME ARGS...: mpiverify trace --otf2 -o $WORK/NAME.otf2 ARGS, then otf2-print of the
# archive's events into $WORK/NAME.events and of its definitions into $WORK/NAME.defs; sets RC.
export_otf2()
{
	local name=$1
	shift
	run_cmd "$WORK/$name.export.log" "$LIMIT" "$MPIVERIFY" trace --otf2 -o "$WORK/$name.otf2" "$@"
	test "$RC" -eq 0 || return
	run_cmd "$WORK/$name.events" "$LIMIT" otf2-print "$WORK/$name.otf2/traces.otf2"
	test "$RC" -eq 0 || return
	run_cmd "$WORK/$name.defs" "$LIMIT" otf2-print -G "$WORK/$name.otf2/traces.otf2"
}

# record_export NAME NP PROGRAM [RECORD-OPTION]: record PROGRAM on NP ranks into
# $WORK/NAME.trace, then export_otf2 NAME; 0 if both went well, else 1 after failing the case.
record_export()
{
	# shellcheck disable=SC2086 # the option is one word or none
	run_cmd "$WORK/$1.record.log" "$LIMIT" "$MPIVERIFY" record ${4:-} -o "$WORK/$1.trace" -- \
		"$MPIRUN" -np "$2" "$3"
	if test "$RC" -ne 0; then
		fail "$1: record" "exit $RC" "$WORK/$1.record.log"
		return 1
	fi
	export_otf2 "$1" "$WORK/$1.trace"
	if test "$RC" -ne 0; then
		fail "$1: export and otf2-print" "exit $RC" "$WORK/$1.export.log"
		return 1
	fi
}

# count FILE RECORD [LOCATION]: the records of a kind (at one location) in otf2-print's output.
count()
{
	awk -v k="$2" -v l="${3:-}" '$1 == k && (l == "" || $2 == l) { n++ } END { print n + 0 }' "$1"
}

# in_order FILE: every MPI_RECV and MPI_IRECV (its completion) comes no earlier than the send
# it received (paired by sender, receiver, communicator and tag, in order); prints the first
# that does not, and fails.
in_order()
{
	awk '
	function field(name,   i) {
		for (i = 4; i <= NF; i++)
			if ($i == name ":") { v = $(i + 1); sub(/,$/, "", v); return v }
		return ""
	}
	$1 == "MPI_SEND" || $1 == "MPI_ISEND" {
		k = $2 " " field("Receiver") " " field("Communicator") " " field("Tag")
		q[k, n[k]++] = $3
	}
	$1 == "MPI_RECV" || $1 == "MPI_IRECV" {
		k = field("Sender") " " $2 " " field("Communicator") " " field("Tag")
		i = m[k]++ + 0
		if (!((k, i) in q)) { print "no send for " $0; bad = 1; exit }
		if ($3 < q[k, i]) { print "received at " $3 " before sent at " q[k, i] ": " $0; bad = 1; exit }
	}
	END { exit bad }' "$1"
}

# ---- a ring of Isend/Irecv/Waitall, recorded with and without times ----
build ring examples/ok/ring-isend-irecv.c &&
for mode in timed synthetic; do
	opt=''
	test "$mode" = timed && opt=--timestamps
	record_export "ring-$mode" 4 "$WORK/ring" "$opt" || continue
	why=''
	for loc in 0 1 2 3; do
		# 3 iterations of 2 Irecv, 2 Isend, 1 Waitall; Init, Barrier and Finalize
		for rec in MPI_ISEND:6 MPI_ISEND_COMPLETE:6 MPI_IRECV_REQUEST:6 MPI_IRECV:6 \
			ENTER:18 LEAVE:18; do
			n=$(count "$WORK/ring-$mode.events" "${rec%:*}" "$loc")
			test "$n" -eq "${rec#*:}" || why="$why location $loc: $n ${rec%:*}, want ${rec#*:};"
		done
	done
	grep -q '^LOCATION .*# Events' "$WORK/ring-$mode.defs" || why="$why no locations;"
	test "$(grep -c '^LOCATION ' "$WORK/ring-$mode.defs")" -eq 4 || why="$why not 4 locations;"
	if test "$mode" = timed; then
		grep -q 'CLOCK_PROPERTIES.*Date: UNDEFINED' "$WORK/ring-$mode.defs" &&
			why="$why the run's times have no date;"
	else
		grep -q 'CLOCK_PROPERTIES.*Date: UNDEFINED' "$WORK/ring-$mode.defs" ||
			why="$why synthetic times with a date;"
	fi
	order=$(in_order "$WORK/ring-$mode.events") || why="$why $order"
	if test -z "$why"; then
		pass "ring ($mode): every rank's Isend, Irecv and their completions, in order"
	else
		fail "ring ($mode): records" "$why" "$WORK/ring-$mode.events"
	fi
done

# ---- collectives and MPI_Sendrecv, with times ----
build coll examples/ok/collectives.c && record_export coll 4 "$WORK/coll" --timestamps &&
{
	why=''
	# Bcast, Reduce, Allreduce, Gather, Scatter, Allgather, Alltoall, Scan, Exscan: 9
	# blocking collectives a rank; one Sendrecv
	for rec in MPI_COLLECTIVE_BEGIN:36 MPI_COLLECTIVE_END:36 MPI_SEND:4 MPI_RECV:4; do
		n=$(count "$WORK/coll.events" "${rec%:*}")
		test "$n" -eq "${rec#*:}" || why="$why $n ${rec%:*}, want ${rec#*:};"
	done
	grep -q 'MPI_COLLECTIVE_END .*Operation: REDUCE, .*Root: 1' "$WORK/coll.events" ||
		why="$why no MPI_Reduce with root 1;"
	grep -q 'MPI_COLLECTIVE_END .*Operation: GATHER, .*Root: 2' "$WORK/coll.events" ||
		why="$why no MPI_Gather with root 2;"
	grep -q '^REGION .*"MPI_Alltoall".*Role: COLL_ALL2ALL' "$WORK/coll.defs" ||
		why="$why no all-to-all region;"
	order=$(in_order "$WORK/coll.events") || why="$why $order"
	if test -z "$why"; then
		pass "collectives: begin and end with operation and root, Sendrecv's send and receive"
	else
		fail "collectives: records" "$why" "$WORK/coll.events"
	fi
}

# ---- a counterexample's way to its deadlock ----
build wildcard examples/deadlock/wildcard-recv-order.c &&
{
	run_cmd "$WORK/wildcard.record.log" "$LIMIT" "$MPIVERIFY" record \
		-o "$WORK/wildcard.trace" -- "$MPIRUN" -np 3 "$WORK/wildcard"
	run_cmd "$WORK/wildcard.check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/wildcard.trace" \
		--buffering zero
	cex=$WORK/wildcard.trace/check/cex.json
	if test "$RC" -ne 1 || ! test -f "$cex"; then
		fail "counterexample: check finds the deadlock" "exit $RC" "$WORK/wildcard.check.log"
	else
		export_otf2 cex --cex "$cex"
		if test "$RC" -ne 0; then
			fail "counterexample: export and otf2-print" "exit $RC" "$WORK/cex.export.log"
		else
			why=''
			# rank 0 took rank 1's message with its wildcard receive, then blocks in
			# its second receive from rank 1; rank 2's send to rank 0 never returns
			grep -q 'MPI_RECV  *0 .*Sender: 1 ' "$WORK/cex.events" ||
				why="$why rank 0's receive does not take rank 1's message;"
			last0=$(awk '$2 == 0 { l = $1 " " $3 } END { print l }' "$WORK/cex.events")
			end=$(sed -n 's/.*Length: \([0-9]*\).*/\1/p' "$WORK/cex.defs" | head -n 1)
			test "$last0" = "LEAVE $end" ||
				why="$why rank 0's blocked call not left at the end ($last0, end $end);"
			grep -q 'counterexample' "$WORK/cex.otf2/traces.otf2" ||
				why="$why the description does not say it is a counterexample;"
			order=$(in_order "$WORK/cex.events") || why="$why $order"
			if test -z "$why"; then
				pass "counterexample: its matches, its blocked calls left at the end"
			else
				fail "counterexample: records" "$why" "$WORK/cex.events"
			fi
		fi
	fi
}

# ---- usage ----
run_cmd "$WORK/usage1.log" "$LIMIT" "$MPIVERIFY" trace --cex x.json "$WORK/ring-timed.trace"
expect_rc=$RC
run_cmd "$WORK/usage2.log" "$LIMIT" "$MPIVERIFY" trace --otf2 "$WORK/ring-timed.trace"
if test "$expect_rc" -eq 2 && test "$RC" -eq 2 && grep -q "needs -o OUTDIR" "$WORK/usage2.log"; then
	pass "usage: --cex without --otf2, --otf2 without -o"
else
	fail "usage: --cex without --otf2, --otf2 without -o" "exit $expect_rc and $RC, want 2" \
		"$WORK/usage2.log"
fi

summary
