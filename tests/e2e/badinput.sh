#!/bin/bash
# Bad input and the command line's edge cases (tests/run.sh runs them as the part `bad-input`):
#  - every case of tests/traces-invalid/ (a trace directory, made binary by json2bin where
#    the case says so, and in `error` the error check must give: the file, the rank, the
#    event and the field, or the JSON path): check and trace exit 3 with that error, and
#    nothing crashes;
#  - trace printing every rank to a file, one rank as valid JSON;
#  - the "replay it:" command check prints, run from another directory;
#  - a counterexample naming events its trace does not have;
#  - two records into one directory at once;
#  - SIGTERM and SIGINT to check while pan searches;
#  - counterexamples of an earlier check removed;
#  - seconds options of 0, help help, sizes of 2^31 bytes and more in the report;
#  - every invalid suppressions file of tests/suppressions-invalid/: check and verify exit 3
#    naming the file and the line, before running anything.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped (mpicc, mpirun or spin missing).
# KEEP=1 keeps the work directory under tests/out/ even when everything passed.
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN" spin
require_mpiverify
require_mpi_built

WORK=$(make_workdir badinput) || exit 1
mkdir -p "$BINDIR"
cd "$SRCDIR" || exit 1
LIMIT=120	# safety net per command

# ---- invalid traces: exit 3 naming the file, rank, event and field ----
# A case with a `binary` file is a binary trace: each rank-N.json written by json2bin as
# rank-N.mpivt (of this build's format), with the fields the file sets for rank N.
JSON2BIN=$BUILDDIR/tests/tools/json2bin
test -x "$JSON2BIN" || fail "invalid traces: setup" "'$JSON2BIN' not built (make check builds it)"
for dir in tests/traces-invalid/*/; do
	dir=${dir%/}
	name=$(basename "$dir")
	want=$(cat "$dir/error")
	if test -f "$dir/binary"; then
		bin=$WORK/cases/$name
		mkdir -p "$bin"
		for json in "$dir"/rank-*.json; do
			r=${json##*/rank-}
			r=${r%.json}
			# shellcheck disable=SC2046
			"$JSON2BIN" "$json" "$bin/rank-$r.mpivt" $(awk -v r="$r" \
				'!/^#/ && $1 == r { print $2, $3, $4 }' "$dir/binary") ||
				fail "invalid trace $name: json2bin" "rank $r not written"
		done
		test -f "$dir/meta.json" && cp "$dir/meta.json" "$bin/"
		dir=$bin
	fi
	run_cmd "$WORK/$name.check.log" "$LIMIT" "$MPIVERIFY" check "$dir" -o "$WORK/$name.out"
	expect_text "invalid trace $name: check says why" 3 "$WORK/$name.check.log" \
		"/$name/$want"
	run_cmd "$WORK/$name.trace.log" "$LIMIT" "$MPIVERIFY" trace "$dir"
	expect_text "invalid trace $name: trace says why" 3 "$WORK/$name.trace.log" "/$name/$want"
done

# ---- invalid suppressions files: exit 3 naming the file and the line, nothing run ----
for supp in tests/suppressions-invalid/*.supp; do
	name=$(basename "$supp" .supp)
	want="'$supp': $(sed -n '1s/^# expect: //p' "$supp")"
	run_cmd "$WORK/supp-$name.check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/no-such-trace" \
		--suppressions "$supp"
	expect_text "invalid suppressions $name: check says where and why" 3 \
		"$WORK/supp-$name.check.log" "$want"
	run_cmd "$WORK/supp-$name.verify.log" "$LIMIT" "$MPIVERIFY" verify -o "$WORK/supp-verify" \
		--suppressions "$supp" -- /bin/false
	expect_text "invalid suppressions $name: verify says where and why" 3 \
		"$WORK/supp-$name.verify.log" "$want"
done
run_cmd "$WORK/supp-missing.log" "$LIMIT" "$MPIVERIFY" check "$WORK/no-such-trace" \
	--suppressions "$WORK/no-such.supp"
expect_text "suppressions file missing: named" 3 "$WORK/supp-missing.log" \
	"'$WORK/no-such.supp': cannot read suppressions: No such file or directory"

# ---- trace: every rank to a file, one rank as JSON ----
# The ranks printed one after the other are what `trace -o` writes, each and a newline;
# before, every rank reopened /dev/stdout, truncating the file: only the last one was left,
# and one rank's newline overwrote its opening brace.
case_dir=$SRCDIR/tests/model/cases/wildcard-race
"$MPIVERIFY" trace -o "$WORK/trace-o" "$case_dir" >"$WORK/trace-o.log" 2>&1
"$MPIVERIFY" trace "$case_dir" >"$WORK/trace-all.json" 2>"$WORK/trace-all.log"
for r in 0 1 2; do
	cat "$WORK/trace-o/rank-$r.json"
	echo
done >"$WORK/trace-want.json"
if cmp -s "$WORK/trace-want.json" "$WORK/trace-all.json"; then
	pass "trace DIR > FILE keeps every rank"
else
	fail "trace DIR > FILE keeps every rank" "the file is not the three ranks of trace -o" \
		"$WORK/trace-all.json"
fi
# ... and what record saw of the run goes with them: of a hung job, which ranks were inside
# MPI_Finalize when record ended it (tests/unit/data: a farm whose master polls for a word
# worker 1 never sends). Without its meta.json, those ranks would be ones that stopped, and
# the deadlock on them inconclusive.
hung_dir=$SRCDIR/tests/unit/data/farm-stuck-polling/2
run_cmd "$WORK/hung-trace.log" "$LIMIT" "$MPIVERIFY" trace -o "$WORK/hung-json" "$hung_dir"
expect_text "trace -o of a hung run" 0 "$WORK/hung-trace.log"
run_cmd "$WORK/hung-check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/hung-json"
expect_text "check of trace -o's copy of a hung run finds its deadlock" 1 \
	"$WORK/hung-check.log" "1 deadlock found on the recorded path"
mkdir -p "$WORK/trace-one"
cp "$WORK/trace-o/rank-0.json" "$WORK/trace-o/rank-2.json" "$WORK/trace-one/"
"$MPIVERIFY" trace -r 1 "$case_dir" >"$WORK/trace-one/rank-1.json"
run_cmd "$WORK/trace-one.log" "$LIMIT" "$MPIVERIFY" trace "$WORK/trace-one"
expect_text "trace -r 1 > FILE is a JSON trace check reads" 0 "$WORK/trace-one.log"

# ---- the replay command check prints, from another directory ----
prog=$BINDIR/wildcard-recv-order
"$MPICC" -g -O0 -o "$prog" examples/deadlock/wildcard-recv-order.c >"$WORK/cc.log" 2>&1 ||
	fail "compile wildcard-recv-order" "mpicc failed" "$WORK/cc.log"
mkdir -p "$WORK/run" "$WORK/elsewhere"
(cd "$WORK/run" && run_cmd "$WORK/record.log" "$LIMIT" "$MPIVERIFY" record -o trace \
	-- "$MPIRUN" -np 3 "$prog" && exit "$RC")
RC=$?
expect_text "record into a relative directory" 0 "$WORK/record.log"
(cd "$WORK/run" && run_cmd "$WORK/check.log" "$LIMIT" "$MPIVERIFY" check trace \
	--buffering zero && exit "$RC")
RC=$?
expect_text "check a relative directory" 1 "$WORK/check.log" "replay it: mpiverify replay"
replay_line=$(sed -n 's/^  replay it: mpiverify //p' "$WORK/check.log" | head -n 1)
cex=$WORK/run/trace/check/cex.json
# before, the counterexample named its trace 'trace', relative to where check ran: replay
# from anywhere else did not find it
(cd "$WORK/elsewhere" && eval "run_cmd \"\$WORK/replay-elsewhere.log\" \"\$LIMIT\" \
	\"\$MPIVERIFY\" $replay_line --timeout 3" && exit "$RC")
RC=$?
expect_text "the printed replay command, run from another directory" 1 \
	"$WORK/replay-elsewhere.log" "reproduced"
no_leftovers "$prog" || fail "replay: no leftover processes" "$LEFTOVERS"

# ---- a counterexample naming events its trace does not have ----
# (before, a match or a wait-for edge naming event 99 of a 4-event trace went to the ranks)
perl -0pe 's/("match": \{\s*"rank": \d+,\s*"op": )\d+/${1}99/' "$cex" >"$WORK/cex-match.json"
run_cmd "$WORK/cex-match.log" "$LIMIT" "$MPIVERIFY" replay --trace "$WORK/cex-match.json" \
	--timeout 3
expect_text "replay refuses a match with an event the trace lacks" 3 "$WORK/cex-match.log" \
	"cex-match.json': rank 1: event 99: ranks[0].ops[0].match: rank 1's event 99 is not in"
perl -0pe 's/("cycle": \[\s*\{\s*"rank": (\d+),\s*"op": )\d+/${1}77/' "$cex" \
	>"$WORK/cex-cycle.json"
run_cmd "$WORK/cex-cycle.log" "$LIMIT" "$MPIVERIFY" replay --trace "$WORK/cex-cycle.json" \
	--timeout 3
expect_text "replay refuses a wait-for edge at an event the trace lacks" 3 "$WORK/cex-cycle.log" \
	"event 77: cycle[0]: rank"

# ---- two records into one directory ----
# the first runs a program that waits a few seconds between MPI_Init and MPI_Finalize
cat >"$WORK/slow.c" <<'C'
#include <mpi.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	sleep(4);
	MPI_Barrier(MPI_COMM_WORLD);
	MPI_Finalize();
	return 0;
}
C
"$MPICC" -o "$BINDIR/slow" "$WORK/slow.c" >"$WORK/slow-cc.log" 2>&1 ||
	fail "compile slow.c" "mpicc failed" "$WORK/slow-cc.log"
"$MPIVERIFY" record -o "$WORK/shared" -- "$MPIRUN" -np 2 "$BINDIR/slow" \
	>"$WORK/record-first.log" 2>&1 &
first=$!
for _ in $(seq 50); do
	test -s "$WORK/shared/.mpiverify-lock" && break
	sleep 0.1
done
run_cmd "$WORK/record-second.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/shared" \
	-- "$MPIRUN" -np 1 "$BINDIR/slow"
expect_text "a second record into a directory in use is refused" 3 "$WORK/record-second.log" \
	"'$WORK/shared' is in use by another mpiverify (pid $first)"
wait "$first"
RC=$?
expect_text "the first record into it goes on" 0 "$WORK/record-first.log"
run_cmd "$WORK/record-third.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/shared" \
	-- "$MPIRUN" -np 1 "$BINDIR/slow"
expect_text "a record into it once the first ended" 0 "$WORK/record-third.log"

# ---- SIGTERM and SIGINT to check: the search is stopped, pan with it ----
# pans_in DIR: the pids of the verifiers running in DIR or below it (a prebuilt pan/pan-WORDS
# or one compiled into the output directory; check runs it there)
pans_in()
{
	local pid cwd
	for pid in $(pgrep -f -- '/pan(-[0-9]+)?( |$)' || true); do
		cwd=$(readlink "/proc/$pid/cwd" 2>/dev/null) || continue
		case $cwd/ in "$1"/*) echo "$pid" ;; esac
	done
}
# A master taking 64 results from 8 workers with alternating tags: minutes of search.
for sig in TERM INT; do
	out=$WORK/stop-$sig
	# SIGINT not ignored: a background job of a script ignores it, and so does check when it
	# starts ignoring it (nohup), however this script was started (job control in it or not)
	env --default-signal=INT "$MPIVERIFY" check tests/model/limits/wildcard-tags-8x8 \
		--buffering zero --time-limit 300 -o "$out" >"$out.log" 2>&1 &
	pid=$!
	for _ in $(seq 600); do
		test -n "$(pans_in "$out")" && break
		sleep 0.1
	done
	if test -z "$(pans_in "$out")"; then
		kill -KILL "$pid" 2>/dev/null
		wait "$pid"
		fail "SIG$sig to check" "pan never started" "$out.log"
		continue
	fi
	kill -"$sig" "$pid"
	wait "$pid"
	RC=$?
	want=$((128 + $(kill -l "$sig")))
	expect_text "SIG$sig to check: no verdict, exit $want" "$want" "$out.log" \
		"interrupted by signal $(kill -l "$sig"): search stopped, no verdict"
	for _ in $(seq 15); do
		test -z "$(pans_in "$out")" && break
		sleep 0.2
	done
	left=$(pans_in "$out")
	if test -z "$left"; then
		pass "SIG$sig to check: pan ended too"
	else
		# shellcheck disable=SC2086
		kill -9 $left 2>/dev/null
		fail "SIG$sig to check: pan ended too" "pan still ran: $left"
	fi
done

# ---- counterexamples of an earlier check ----
out=$WORK/stale
run_cmd "$WORK/stale-1.log" "$LIMIT" "$MPIVERIFY" check tests/model/cases/head-to-head \
	--buffering zero -o "$out"
cp "$out/cex.json" "$out/cex-7.json"
run_cmd "$WORK/stale-2.log" "$LIMIT" "$MPIVERIFY" check tests/model/cases/sendrecv-ring \
	--buffering zero -o "$out"
if test "$RC" -eq 0 && ! test -e "$out/cex.json" && ! test -e "$out/cex-7.json"; then
	pass "check removes the counterexamples an earlier check left"
else
	fail "check removes the counterexamples an earlier check left" \
		"exit $RC, left: $(cd "$out" && echo cex*.json)" "$WORK/stale-2.log"
fi

# ---- seconds options of 0: refused, not "no limit" ----
run_cmd "$WORK/tl0.log" 10 "$MPIVERIFY" check --time-limit 0 tests/model/cases/head-to-head
expect_text "check --time-limit 0 is a usage error" 2 "$WORK/tl0.log" \
	"invalid --time-limit '0': expected a positive number of seconds"
run_cmd "$WORK/dt0.log" 10 "$MPIVERIFY" record --deadlock-timeout 0 -- true
expect_text "record --deadlock-timeout 0 is a usage error" 2 "$WORK/dt0.log" \
	"invalid --deadlock-timeout '0'"
for n in 0 256 x; do
	run_cmd "$WORK/ee$n.log" 10 "$MPIVERIFY" record --error-exitcode "$n" -- true
	expect_text "record --error-exitcode $n is a usage error" 2 "$WORK/ee$n.log" \
		"invalid --error-exitcode '$n'"
done
run_cmd "$WORK/rt0.log" 10 "$MPIVERIFY" replay --trace "$cex" --timeout 0
expect_text "replay --timeout 0 (--deadlock-timeout's former name) is a usage error" 2 \
	"$WORK/rt0.log" "invalid --deadlock-timeout '0'"
run_cmd "$WORK/rt0c.log" 10 "$MPIVERIFY" replay --cex "$cex" --deadlock-timeout 0
expect_text "replay --cex CEX --deadlock-timeout 0 is a usage error" 2 "$WORK/rt0c.log" \
	"invalid --deadlock-timeout '0'"

# ---- help help ----
# (before, it said "unknown command 'help'" and sent to `help --help`, which said the same)
run_cmd "$WORK/helphelp.log" 10 "$MPIVERIFY" help help
expect_text "help help shows help's own usage" 0 "$WORK/helphelp.log" "usage: mpiverify help"
run_cmd "$WORK/helphelp2.log" 10 "$MPIVERIFY" help --help
expect_text "help --help shows help's own usage" 0 "$WORK/helphelp2.log" "usage: mpiverify help"

# ---- sizes of 2^31 bytes and more ----
big=$WORK/big
mkdir -p "$big"
# head to head; rank 0's receive is a byte short of the message, rank 1 sends 4 GiB more
# that nobody receives. rank_json R EVENTS: rank R of 2 as a JSON trace, its events between
# MPI_Init and MPI_Finalize.
rank_json()
{
	printf '{"format": "mpiverify-trace", "version": 1, "rank": %d, "size": 2, "events": [\n' "$1"
	printf ' {"call": "MPI_Init"},\n %s,\n {"call": "MPI_Finalize"}]}\n' "$2"
}
rank_json 0 '{"call": "MPI_Send", "peer": 1, "tag": 0, "comm": 0, "bytes": 2147483648},
 {"call": "MPI_Recv", "peer": 1, "tag": 0, "comm": 0, "bytes": 2147483647}' >"$big/rank-0.json"
rank_json 1 '{"call": "MPI_Send", "peer": 0, "tag": 0, "comm": 0, "bytes": 2147483648},
 {"call": "MPI_Send", "peer": 0, "tag": 1, "comm": 0, "bytes": 4294967296},
 {"call": "MPI_Recv", "peer": 0, "tag": 0, "comm": 0, "bytes": 2147483648}' >"$big/rank-1.json"
run_cmd "$WORK/big.log" "$LIMIT" "$MPIVERIFY" check "$big" --buffering zero -o "$big/check"
expect_text "a size of 2^31 bytes prints as it is" 1 "$WORK/big.log" \
	"MPI_Send(dest=1, tag=0, comm=WORLD, 2147483648 bytes)"
run_cmd "$WORK/big-json.log" "$LIMIT" "$MPIVERIFY" check "$big" --buffering infinite --json \
	-o "$big/check"
expect_text "sizes of 2^31 and 2^32 bytes in check --json" 0 "$WORK/big-json.log" \
	'"bytes": 4294967296' '"bytes": 2147483647' '"message_bytes": 2147483648'
expect_text "sizes of 2^31 and 2^32 bytes in the warnings" 0 "$WORK/big-json.log" \
	'took a 2147483648-byte message into 2147483647 bytes' \
	'MPI_Send(dest=0, tag=1, comm=WORLD, 4294967296 bytes)'

finish_work
