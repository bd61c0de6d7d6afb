#!/bin/bash
# What the recorder writes for every call of the point-to-point, probe, completion, persistent
# and collective families (tests/e2e/programs/rec-calls.c, two ranks under the real mpirun):
# each expected event must appear in the rank's trace, in this order, with the fields given
# (peer and matched source as world ranks, tag, communicator, bytes, root, requests). A field
# written `!text` must be absent. Communicators and one-sided calls have tests of their own.
# Recorded with --timestamps, the same events must have their times, in order, and check
# must warn of a blocking send whose receiver came late (tests/e2e/programs/rec-late-receiver.c).
# The digests of messages' data (tests/e2e/programs/rec-digests.c): every receive, blocking or
# completed, took what its sender sent, by every kind of send, receive and completion; the same
# data the same digest, other data another; a non-contiguous type none.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped (mpicc or mpirun missing).
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN"
require_mpiverify
require_mpi_built

WORK=$(make_workdir record-calls) || exit 1
LIMIT=60

# events DIR RANK: rank RANK's events, one JSON object a line (call sites left out), in
# $WORK/events-RANK; the header line first.
events()
{
	run_cmd "$WORK/trace-$2.json" "$LIMIT" "$MPIVERIFY" trace -r "$2" "$1"
	tr -d ' \n' <"$WORK/trace-$2.json" |
		sed 's/"events":\[{"index"/"events":[\n{"index"/; s/},{"index"/}\n{"index"/g' |
		sed 's/,"site":{[^}]*}//' >"$WORK/events-$2"
	echo >>"$WORK/events-$2"	# the last event's line end
}

# expect_events RANK: reads "CALL FIELD..." lines (fields separated by spaces, no spaces
# inside one) and finds each in order in $WORK/events-RANK. A field is a whole JSON member
# ("tag":1 does not match "tag":12) unless it ends in punctuation: then it is a prefix.
expect_events()
{
	local r=$1 at=1 line call fields f n ok found
	while read -r call fields; do
		case $call in '' | '#'*) continue ;; esac
		found=''
		n=0
		while IFS= read -r line; do
			n=$((n + 1))
			test "$n" -le "$at" && continue
			case $line in *"\"call\":\"$call\""*) ;; *) continue ;; esac
			ok=1
			for f in $fields; do
				case $f in
				'!'*) case $line in *"${f#!}"*) ok='' ;; esac ;;
				*[],}:[{]) case $line in *"$f"*) ;; *) ok='' ;; esac ;;
				*) case $line in *"$f,"* | *"$f}"*) ;; *) ok='' ;; esac ;;
				esac
			done
			if test -n "$ok"; then
				found=$n
				break
			fi
		done <"$WORK/events-$r"
		if test -n "$found"; then
			pass "rank $r: $call $fields"
			at=$found
		else
			fail "rank $r: $call $fields" \
				"no such event after event $((at - 2)) of the trace" "$WORK/events-$r"
		fi
	done
}

# compile NAME: tests/e2e/programs/NAME.c into $WORK/NAME, a case that fails (returning 1) if
# $MPICC failed or warned.
compile()
{
	local log=$WORK/$1.compile.log
	if ! "$MPICC" -g -O0 -Wall -o "$WORK/$1" "$SRCDIR/tests/e2e/programs/$1.c" \
		</dev/null >"$log" 2>&1 || test -s "$log"; then
		fail "compile $1" "$MPICC failed or warned" "$log"
		return 1
	fi
	pass "compile $1"
}

# record_run NAME OUT [OPTION...]: record $WORK/NAME on two ranks into $WORK/OUT with record's
# OPTIONs, a case that fails (returning 1) unless record exits 0.
record_run()
{
	local name=$1 out=$2 what
	shift 2
	what="record${*:+ $*} $name"
	run_cmd "$WORK/$out.record.log" "$LIMIT" "$MPIVERIFY" record "$@" -o "$WORK/$out" -- \
		"$MPIRUN" -np 2 "$WORK/$name"
	if test "$RC" -ne 0; then
		fail "$what" "$(describe "$RC" 2>/dev/null || echo "exit $RC"), want 0" \
			"$WORK/$out.record.log"
		return 1
	fi
	pass "$what"
}

if ! compile rec-calls || ! record_run rec-calls trace; then
	summary
	exit
fi
events "$WORK/trace" 0
events "$WORK/trace" 1

for r in 0 1; do
	if grep -q '"thread_level":1,' "$WORK/events-$r"; then
		pass "rank $r: the thread level MPI_Init_thread granted (MPI_THREAD_FUNNELED)"
	else
		fail "rank $r: the thread level MPI_Init_thread granted (MPI_THREAD_FUNNELED)" \
			"no '\"thread_level\":1' in the trace's header" "$WORK/events-$r"
	fi
done

expect_events 0 <<'EOF_RANK0'
MPI_Init_thread
# point to point: every send mode, to a world rank, with its size in bytes
MPI_Send "peer":1 "tag":1 "comm":0 "bytes":4
MPI_Bsend "peer":1 "tag":2 "bytes":8
MPI_Ssend "peer":1 "tag":3 "bytes":12
MPI_Barrier "comm":0
MPI_Rsend "peer":1 "tag":4 "bytes":4
MPI_Isend "tag":5 "reqs":[{"req":0}]
MPI_Ibsend "tag":6 "reqs":[{"req":1}]
MPI_Issend "tag":7 "reqs":[{"req":2}]
MPI_Waitall "reqs":[{"req":0},{"req":1},{"req":2}]
MPI_Irsend "tag":8 "bytes":4
MPI_Wait
MPI_Sendrecv "peer":1 "tag":9 "peer2":1 "tag2":9 "src":1 "mtag":9 "bytes":8
MPI_Sendrecv_replace "peer":1 "tag":10 "peer2":"any" "src":1 "mtag":10
MPI_Send "peer":"null"
MPI_Recv "peer":"null"
MPI_Send "tag":11
MPI_Send "tag":14
MPI_Send "tag":22
MPI_Isend "tag":24
MPI_Request_free "reqs":[{"req":
# persistent requests
MPI_Send_init "peer":1 "tag":25 "bytes":4
MPI_Bsend_init "tag":26 "bytes":8
MPI_Ssend_init "tag":27 "bytes":12
MPI_Startall "reqs":[{"req":
MPI_Waitall
MPI_Start
MPI_Wait
MPI_Request_free
MPI_Request_free
MPI_Request_free
MPI_Rsend_init "tag":28
MPI_Start
MPI_Wait
MPI_Request_free
# collectives: communicator, root as a world rank, bytes this rank contributes
MPI_Barrier "comm":0
MPI_Bcast "comm":0 "root":1 "bytes":8
MPI_Reduce "root":0 "bytes":4
MPI_Allreduce "bytes":12 !"root"
MPI_Gather "root":1 "bytes":4
MPI_Gatherv "root":0
MPI_Scatter "root":0
MPI_Scatterv "root":1
MPI_Allgather "bytes":4
MPI_Allgatherv
MPI_Alltoall "bytes":4
MPI_Alltoallv "bytes":8
MPI_Alltoallw "bytes":8
MPI_Alltoallv "bytes":8
MPI_Reduce_scatter "bytes":8
MPI_Reduce_scatter_block "bytes":4
MPI_Scan "bytes":4
MPI_Exscan "bytes":4
MPI_Ibarrier "comm":0 "reqs":[{"req":
MPI_Wait
MPI_Ibcast "root":1 "bytes":8 "reqs":
MPI_Ireduce "root":0 "reqs":
MPI_Iallreduce "bytes":12 "reqs":
MPI_Igather "root":1 "reqs":
MPI_Igatherv "root":0 "reqs":
MPI_Iscatter "root":0 "reqs":
MPI_Iscatterv "root":1 "reqs":
MPI_Iallgather "reqs":
MPI_Iallgatherv "reqs":
MPI_Ialltoall "reqs":
MPI_Ialltoallv "bytes":8 "reqs":
MPI_Ialltoallw "bytes":8 "reqs":
MPI_Ireduce_scatter "bytes":8 "reqs":
MPI_Ireduce_scatter_block "reqs":
MPI_Iscan "reqs":
MPI_Iexscan "reqs":
MPI_Wait
MPI_Finalize
EOF_RANK0

expect_events 1 <<'EOF_RANK1'
MPI_Init_thread
# receives: the source and tag they matched, wildcards as such
MPI_Recv "peer":0 "tag":1 "comm":0 "src":0 "mtag":1 "bytes":4
MPI_Recv "peer":"any" "tag":2 "src":0 "mtag":2 "bytes":8
MPI_Recv "peer":0 "tag":"any" "src":0 "mtag":3 "bytes":12
MPI_Irecv "tag":4 "reqs":[{"req":0}]
MPI_Wait "reqs":[{"req":0,"src":0,"tag":4,"data":
MPI_Irecv "peer":"any" "tag":6
MPI_Irecv "peer":0 "tag":"any"
MPI_Waitall "src":0,"tag":5,"data": "src":0,"tag":6,"data": "src":0,"tag":7,"data":
MPI_Wait "src":0,"tag":8,"data":
MPI_Sendrecv "peer":0 "peer2":0 "src":0 "mtag":9
MPI_Sendrecv_replace "peer2":"any" "src":0 "mtag":10
MPI_Send "peer":"null"
MPI_Recv "peer":"null"
# probes: a probe takes nothing, the receive after it takes the message
MPI_Probe "peer":"any" "tag":11 "src":0 "mtag":11
MPI_Recv "tag":11 "src":0
MPI_Iprobe "peer":0 "tag":12 "src":0 "mtag":12
MPI_Recv "tag":12
MPI_Mprobe "tag":13 "src":0 "mtag":13
MPI_Mrecv "bytes":4
MPI_Improbe "peer":"any" "tag":14 "src":0 "mtag":14
MPI_Imrecv "reqs":[{"req":
MPI_Wait
# completions: which requests completed, the others listed as pending
MPI_Waitany "pending":1 "src":0,"tag":15,"data":
MPI_Wait "src":0,"tag":16,"data":
MPI_Waitsome "src":0
MPI_Test "src":0,"tag":19,"data": !"pending"
MPI_Testany "src":0,"tag":20,"data": !"pending"
MPI_Testall "src":0,"tag":21,"data": "src":0,"tag":22,"data": !"pending"
MPI_Testsome "src":0,"tag":24,"data": !"pending"
# a cancelled receive: the request named, and no source when it completes
MPI_Irecv "tag":99 "reqs":[{"req":15}]
MPI_Cancel "reqs":[{"req":15}]
MPI_Wait "reqs":[{"req":15}]
# a generalized request: its request named where it is made and completed; no source
MPI_Grequest_start "reqs":[{"req":16}]
MPI_Grequest_complete "reqs":[{"req":16}]
MPI_Wait "reqs":[{"req":16}]
MPI_Recv_init "peer":0 "tag":25 "bytes":4 "reqs":[{"req":17}]
MPI_Start "reqs":[{"req":17}]
MPI_Wait "reqs":[{"req":17,"src":0,"tag":25,"data":
MPI_Start "reqs":[{"req":17}]
MPI_Request_free "reqs":[{"req":17}]
MPI_Bcast "root":1
MPI_Iexscan
MPI_Finalize
EOF_RANK1

# check judges the whole trace, the cancelled receive included (doc/semantics.md 4.7): the
# run completes, and no message can reach the cancelled receive
run_cmd "$WORK/check.log" 120 "$MPIVERIFY" check "$WORK/trace" -o "$WORK/check"
if test "$RC" -eq 0 && grep -q "^mpiverify: no deadlock" "$WORK/check.log"; then
	pass "check judges a trace with MPI_Cancel: no deadlock"
else
	fail "check judges a trace with MPI_Cancel: no deadlock" "exit $RC, want 0" \
		"$WORK/check.log"
fi

# ---- data digests: what each receive took is what its sender sent ----
# digests RANK: from $WORK/events-RANK, one line per message a call of the rank sent or took,
# "TAG send DIGEST" or "TAG recv DIGEST" (0 for none), in call order: sends and send-receives
# by their tag, a start by its request's, blocking receives by the tag they matched (MPI_Mrecv
# by its probe's), a request's completion by the tag of the receive that made it (MPI_Imrecv's
# by its probe's). Messages to or from MPI_PROC_NULL are left out.
digests()
{
	awk '
	# field(s, name): the integer member name of s ("tag" is neither "mtag" nor "tag2")
	function field(s, name) {
		if (!match(s, "\"" name "\":-?[0-9]+"))
			return ""
		return substr(s, RSTART + length(name) + 3, RLENGTH - length(name) - 3)
	}
	function digest(s, name) { return field(s, name) == "" ? 0 : field(s, name) }
	/"peer":"null"/ { next }
	{
		line = $0
		reqs = ""
		if ((i = index(line, "\"reqs\":[")) > 0) {
			reqs = substr(line, i + 8)
			line = substr(line, 1, i - 1)
		}
		if (!match(line, /"call":"MPI_[A-Za-z_]+"/))
			next
		call = substr(line, RSTART + 12, RLENGTH - 13)
		if (call ~ /^(Send|[BSR]send|I[bsr]?send|Sendrecv|Sendrecv_replace)$/)
			print field(line, "tag"), "send", digest(line, "data")
		if (call ~ /^(Recv|Sendrecv|Sendrecv_replace)$/)
			print field(line, "mtag"), "recv", digest(line, "rdata")
		if (call ~ /^(Probe|Mprobe|Improbe)$/ && field(line, "mtag") != "")
			probed = field(line, "mtag")
		if (call == "Mrecv")
			print probed, "recv", digest(line, "rdata")
		n = split(reqs, obj, /\{"req":/)
		done = n - 1 - digest(line, "pending")
		for (k = 2; k <= n; k++) {
			id = obj[k]
			sub(/[,}].*/, "", id)
			if (call ~ /^(Irecv|Recv_init|Imrecv)$/) {
				of[id] = call == "Imrecv" ? probed : field(line, "tag")
				recv[id] = 1
			} else if (call ~ /_init$/) {
				of[id] = field(line, "tag")
			} else if (call ~ /^Start/ && !recv[id]) {
				print of[id], "send", digest(obj[k], "data")
			} else if (call ~ /^(Wait|Test)/ && recv[id] && k - 1 <= done) {
				print of[id], "recv", digest(obj[k], "data")
			}
		}
	}' "$WORK/events-$1" >"$WORK/digests-$1"
}

# sent RANK TAG, took RANK TAG: the digests of the messages of tag TAG rank RANK sent, took.
sent()
{
	awk -v t="$2" '$1 == t && $2 == "send" { printf "%s%s", s, $3; s = " " }' "$WORK/digests-$1"
}
took()
{
	awk -v t="$2" '$1 == t && $2 == "recv" { printf "%s%s", s, $3; s = " " }' "$WORK/digests-$1"
}

# same_digests WHAT TAG FROM TO: the messages of tag TAG took what their sender sent, each with
# a digest.
same_digests()
{
	local what=$1 tag=$2 from=$3 to=$4 s t
	s=$(sent "$from" "$tag")
	t=$(took "$to" "$tag")
	if test -n "$s" && test "$s" = "$t" && ! echo " $s " | grep -q ' 0 '; then
		pass "digests: $what (tag $tag, rank $from to $to): received as sent"
	else
		fail "digests: $what (tag $tag, rank $from to $to)" \
			"rank $from sent '$s', rank $to took '$t'" "$WORK/digests-$to"
	fi
}

# digests_are WHAT GOT WANT, digests_differ WHAT GOT OTHER: one case each, passed if the digests
# GOT are WANT, or are not OTHER.
digests_are()
{
	if test "$2" = "$3"; then
		pass "digests: $1"
	else
		fail "digests: $1" "'$2', want '$3'" "$WORK/digests-0"
	fi
}
digests_differ()
{
	if test "$2" != "$3"; then
		pass "digests: $1"
	else
		fail "digests: $1" "'$2' both" "$WORK/digests-0"
	fi
}

# null_calls RANK KEY: how many of rank RANK's calls name MPI_PROC_NULL, and how many of those
# have KEY.
null_calls()
{
	printf '%s %s' "$(grep -c '"peer":"null"' "$WORK/events-$1")" \
		"$(grep '"peer":"null"' "$WORK/events-$1" | grep -c "\"$2\"")"
}

if compile rec-digests && record_run rec-digests digests; then
	for r in 0 1; do
		events "$WORK/digests" "$r"
		digests "$r"
	done
	same_digests "blocking" 1 0 1
	same_digests "blocking, other data" 2 0 1
	same_digests "blocking, from any source" 3 0 1
	same_digests "one call site, other data: MPI_Send, MPI_Recv" 4 0 1
	same_digests "buffered" 5 0 1
	same_digests "synchronous" 6 0 1
	same_digests "one call site, other data: MPI_Isend, MPI_Irecv, MPI_Wait" 8 0 1
	same_digests "persistent, at each start" 9 0 1
	same_digests "MPI_Sendrecv" 10 0 1
	same_digests "MPI_Sendrecv" 10 1 0
	same_digests "MPI_Sendrecv_replace" 11 0 1
	same_digests "MPI_Sendrecv_replace" 11 1 0
	same_digests "MPI_Probe, then MPI_Recv" 12 0 1
	same_digests "MPI_Mprobe, then MPI_Mrecv" 13 0 1
	same_digests "MPI_Improbe, then MPI_Imrecv and MPI_Wait" 14 0 1
	for tag in 15 16; do same_digests "MPI_Waitany" "$tag" 0 1; done
	for tag in 17 18; do same_digests "MPI_Waitsome" "$tag" 0 1; done
	for tag in 19 20; do same_digests "MPI_Testany" "$tag" 0 1; done
	for tag in 23 24 25; do same_digests "longer than what is hashed" "$tag" 0 1; done
	same_digests "a derived type that is contiguous" 27 0 1
	a=$(sent 0 1)
	b=$(sent 0 2)
	digests_are "the same data, the same digest, from any send" \
		"$(sent 0 3) $(sent 0 5) $(sent 0 12) $(sent 0 27) $(sent 0 6)" "$a $a $a $a $b"
	digests_differ "other data, another digest" "$a" "$b"
	digests_are "a loop of A, A, B, B, A: MPI_Send" "$(sent 0 4)" "$a $a $b $b $a"
	digests_are "a loop of A, A, B, B, A: MPI_Isend" "$(sent 0 8)" "$a $a $b $b $a"
	digests_are "persistent: what each start sends" "$(sent 0 9)" "$a $b"
	digests_are "beyond the first 64 bytes, nothing counts" "$(sent 0 24)" "$(sent 0 23)"
	digests_differ "the size counts" "$(sent 0 25)" "$(sent 0 23)"
	# tag 28: a vector type that took the handle of a freed contiguous one
	digests_are "a vector type: no digest, sent or received" \
		"$(sent 0 21) $(took 1 22) $(sent 0 28)" "0 0 0"
	digests_are "to and from MPI_PROC_NULL: no digest (calls, calls with one)" \
		"$(null_calls 0 data) $(null_calls 1 rdata)" "1 0 1 0"
fi

# ---- with --timestamps: the same events, each with its times, in order ----
# untimed_calls FILE: the events of an events file without their indices and failed polls,
# and MPI_Waitsome's and MPI_Testsome's requests completed one a line: how many such a call
# returns at once is the run's timing too (two, or one and then the other).
untimed_calls()
{
	grep '"call":' "$1" |
		grep -v -E '"call":"MPI_(Iprobe|Improbe|Test|Testany|Testall|Testsome|Waitsome)"' |
		sed 's/"index":[0-9]*,//'
	grep -E '"call":"MPI_(Iprobe|Improbe|Test|Testany|Testall)"' "$1" |
		grep '"src":' | sed 's/"index":[0-9]*,//' | sed 's/^/poll /'
	grep -E '"call":"MPI_(Testsome|Waitsome)"' "$1" | grep -o '{"req":[0-9]*,"src":[^}]*}' |
		sed 's/^/some /'
}
if record_run rec-calls timed --timestamps; then
	for r in 0 1; do
		events "$WORK/trace" "$r"
		cp "$WORK/events-$r" "$WORK/untimed-$r"
		events "$WORK/timed" "$r"
		why=''
		head -n 1 "$WORK/events-$r" | grep -q '"clock":{"kind":"monotonic"' || why="no clock;"
		# every event entered, every one that returned left, not before it entered, and
		# entered not before the one before it left (one thread)
		bad=$(grep '"call":' "$WORK/events-$r" | awk '
			{ e = ""; l = ""
			  if (match($0, /"enter":[0-9]+/)) e = substr($0, RSTART + 8, RLENGTH - 8) + 0
			  if (match($0, /"leave":[0-9]+/)) l = substr($0, RSTART + 8, RLENGTH - 8) + 0
			  if (e == "") { print "event " NR - 1 " has no enter"; exit }
			  if (l == "" && $0 !~ /"incomplete":true/) { print "event " NR - 1 " has no leave"; exit }
			  if (l != "" && l < e) { print "event " NR - 1 " left before it entered"; exit }
			  if (NR > 1 && e < last) { print "event " NR - 1 " entered before event " NR - 2 " left"; exit }
			  last = (l == "" ? e : l) }')
		test -n "$bad" && why="$why $bad;"
		# the same events but for their times, and for the polls that found nothing: how
		# often MPI_Iprobe polls before its message is there is the run's, not the recorder's
		# (rec-calls polls only for receives: a poll that found something has a source)
		untimed_calls "$WORK/events-$r" | sed 's/,"enter":[0-9]*//; s/,"leave":[0-9]*//' \
			>"$WORK/timed-less-$r"
		untimed_calls "$WORK/untimed-$r" >"$WORK/untimed-calls-$r"
		cmp -s "$WORK/timed-less-$r" "$WORK/untimed-calls-$r" ||
			why="$why other events than without --timestamps;"
		if test -z "$why"; then
			pass "rank $r: every event with its times, in order, the same events as untimed"
		else
			fail "rank $r: events with times" "$why" "$WORK/events-$r"
		fi
	done
fi

# ---- a receiver that comes late: check warns of the long send ----
if compile rec-late-receiver && record_run rec-late-receiver late --timestamps; then
	run_cmd "$WORK/late.check.json" 120 "$MPIVERIFY" check --json "$WORK/late" -o "$WORK/late.check"
	if test "$RC" -eq 0 && tr -d ' \n' <"$WORK/late.check.json" |
		grep -q '"kind":"long-send","rank":0,"event":1,"call":"MPI_Send'; then
		pass "check warns of a long send (a late receiver), with times"
	else
		fail "check warns of a long send (a late receiver), with times" \
			"exit $RC, want 0 and a long-send warning" "$WORK/late.check.json"
	fi
	run_cmd "$WORK/late.check.txt" 120 "$MPIVERIFY" check "$WORK/late" -o "$WORK/late.check"
	if grep -q 'the receiver came late' "$WORK/late.check.txt"; then
		pass "check's text report: the receiver came late"
	else
		fail "check's text report: the receiver came late" "no such warning" \
			"$WORK/late.check.txt"
	fi
fi
summary
