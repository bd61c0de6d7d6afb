#!/bin/bash
# The report files of check and verify (doc/reports.md), on real runs under mpirun:
#  - report.sarif is a SARIF 2.1.0 log (tests/tools/sarif_check reads it with Jansson), the
#    same that --sarif prints, and its fingerprints are the same for two recordings of one
#    program;
#  - waits-for.dot is drawn by Graphviz (`dot -Tsvg`), where it is installed;
#  - report.html is rendered by headless Chromium, where it is installed, and the rendered
#    DOM has a lane per rank, the blocked calls, the wait-for cycle, the matched messages, the
#    recorded run's other match, file:line and the source line; recorded with --timestamps
#    it draws each call at its times on a time axis, except the calls a counterexample makes
#    otherwise than the recorded run (in order), and without times in order only; a
#    million-event trace gives a small page; replay's outcome is added to it;
#  - --diagnostics-format=gcc prints a FILE:LINE: error: line per deadlock, at a line of the
#    program that calls MPI, and notes, as a CI problem matcher reads them;
#  - ranks grouped by what they do: a 256-rank ring of head-to-head sends, written as JSON
#    (in the text report, and in report.html: blocked calls and who waits for whom by class)
#    traces, and the same hung (record ended it): check's text report names each class once
#    and stays within 40 lines, --json keeps every rank;
#  - suppressions: --gen-suppressions writes what --suppressions takes, which hides the
#    finding from the exit status and lists it; --ignore-potential-below; the options' edge
#    cases; verify's report files and suppressions.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped (mpicc, mpirun or spin missing).
# KEEP=1 keeps the work directory under tests/out/ even when everything passed.
set -u

. "$(dirname "$0")/../lib.sh"

require_tools "$MPICC" "$MPIRUN" spin
require_mpiverify

WORK=$(make_workdir reports) || exit 1
SARIF_CHECK=$BUILDDIR/tests/tools/sarif_check
LIMIT=300	# safety net per command
cd "$SRCDIR" || exit 1

CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
test -n "$CHROMIUM" || echo "note: chromium not found: the page's rendering cases are skipped" \
	"(apt-get install chromium)"
command -v dot >/dev/null || echo "note: dot not found: waits-for.dot is not drawn" \
	"(apt-get install graphviz)"

# compile NAME SOURCE: the example, with debug information (file:line in the reports).
compile()
{
	"$MPICC" -g -O0 -o "$WORK/$1" "$2" || fail "compile $1" "$MPICC failed"
}

# record NAME DIR NP [OPTION...]: a recorded run of program NAME into DIR, with record's
# OPTIONs.
record()
{
	run_cmd "$WORK/$2.record.log" "$LIMIT" "$MPIVERIFY" record -o "$WORK/$2" "${@:4}" -- \
		"$MPIRUN" -np "$3" "$WORK/$1"
	test "$RC" -eq 0 || fail "record $2" "exit $RC" "$WORK/$2.record.log"
}

# render HTML OUT: the page as headless Chromium renders it (its DOM after the script ran).
render()
{
	timeout -k 5 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$WORK/chromium" --dump-dom "file://$1" >"$2" 2>"$2.err"
}

# dom NAME FILE PATTERN MIN [MAX]: the rendered DOM FILE has at least MIN (at most MAX) matches
# of the extended regular expression PATTERN.
dom()
{
	local n
	n=$(grep -oE -- "$3" "$2" | wc -l)
	if test "$n" -lt "$4" || { test -n "${5:-}" && test "$n" -gt "$5"; }; then
		fail "$1" "$n matches of '$3' in the rendered page, want ${5:+$4 to }${5:-at least $4}"
	else
		pass "$1"
	fi
}

# json_int FILE KEY: the first integer value of "KEY" in a JSON file.
json_int()
{
	grep -oE "\"$2\": [0-9]+" "$1" | head -n 1 | grep -oE '[0-9]+$'
}

compile cycle examples/deadlock/send-send-cycle.c
compile wildcard examples/deadlock/wildcard-recv-order.c
compile branch examples/verify/first-sender-branch.c
record cycle cycle-a 2
record cycle cycle-b 2
record wildcard wild 3
record cycle cycle-t 2 --timestamps
record wildcard wild-t 3 --timestamps

# ---- the files check writes, and SARIF ----
run_cmd "$WORK/cycle-a.check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/cycle-a"
expect "check: a deadlock" 1 "$WORK/cycle-a.check.log" "potential deadlock 1 of 1"
OUT_A=$WORK/cycle-a/check
for f in report.html report.sarif waits-for.dot; do
	if test -s "$OUT_A/$f"; then pass "check writes $f"; else fail "check writes $f" "missing"; fi
done
run_cmd "$WORK/sarif-a.log" 60 "$SARIF_CHECK" "$OUT_A/report.sarif"
expect "report.sarif: a valid SARIF 2.1.0 log, one result" 0 "$WORK/sarif-a.log" \
	'^ok: 1 results \(0 suppressed\)'
# the example is compiled from the source tree by a relative path: relative to the root
grep -q '"uri": "examples/deadlock/send-send-cycle.c"' "$OUT_A/report.sarif" &&
	grep -q '"uriBaseId": "%SRCROOT%"' "$OUT_A/report.sarif" &&
	grep -q '"startLine": [1-9]' "$OUT_A/report.sarif" &&
	grep -q '"relatedLocations"' "$OUT_A/report.sarif" &&
	pass "report.sarif: at the blocked call's line, the other rank's call related" ||
	fail "report.sarif: at the blocked call's line" "no uri, startLine or related location" \
		"$OUT_A/report.sarif"
"$MPIVERIFY" check "$WORK/cycle-a" --sarif >"$WORK/cycle-a.sarif" 2>"$WORK/cycle-a.sarif.err"
RC=$?
if test "$RC" -eq 1 && cmp -s "$WORK/cycle-a.sarif" "$OUT_A/report.sarif"; then
	pass "--sarif prints report.sarif, exit 1"
else
	fail "--sarif prints report.sarif" "exit $RC, or it differs" "$WORK/cycle-a.sarif.err"
fi
"$MPIVERIFY" check "$WORK/cycle-a" --json >"$WORK/cycle-a.json" 2>/dev/null
grep -q '"kind": "potential-deadlock"' "$WORK/cycle-a.json" &&
	grep -q '"fingerprint": "[0-9a-f]\{16\}:1"' "$WORK/cycle-a.json" &&
	pass "--json: each finding's kind and fingerprint" ||
	fail "--json: each finding's kind and fingerprint" "missing" "$WORK/cycle-a.json"

# ---- --diagnostics-format=gcc, read as an editor's error list or a CI problem matcher ----
# diag_case NAME TRACE SOURCE: check TRACE --diagnostics-format=gcc prints only lines a
# matcher of "FILE:LINE: SEVERITY: MESSAGE" (or "mpiverify: SEVERITY: ...") reads; one error
# line per deadlock of --json; each FILE:LINE a line of SOURCE that calls MPI; the exit
# status that of the text report.
diag_case()
{
	local name=$1 trace=$2 src=$3 log=$WORK/$1.gcc.log rc ndl nerr bad=''
	"$MPIVERIFY" check "$trace" --diagnostics-format=gcc -o "$WORK/$1.gcc" >"$log" 2>&1
	rc=$?
	ndl=$("$MPIVERIFY" check "$trace" --json -o "$WORK/$1.json" 2>/dev/null |
		grep -c '"replay": ')
	nerr=$(grep -c -E '^[^:]+:[0-9]+: error: ' "$log")
	while IFS= read -r line; do
		if [[ $line =~ ^([^:]+):([0-9]+):\ (error|warning|note):\ .+$ ]]; then
			case ${BASH_REMATCH[1]} in
			*"$(basename "$src")") sed -n "${BASH_REMATCH[2]}p" "$src" | grep -q 'MPI_' ||
				bad="$bad line ${BASH_REMATCH[2]} is no MPI call;" ;;
			*) bad="$bad another file '${BASH_REMATCH[1]}';" ;;
			esac
		elif ! [[ $line =~ ^mpiverify:\ (error|warning|note):\ .+$ ]]; then
			bad="$bad a line no matcher reads: '$line';"
		fi
	done <"$log"
	if test "$rc" -eq 1 && test "$nerr" -ge 1 && test "$nerr" -eq "$ndl" && test -z "$bad"; then
		pass "$name: --diagnostics-format=gcc, $nerr error line(s) at MPI calls, exit 1"
	else
		fail "$name: --diagnostics-format=gcc" \
			"exit $rc, $nerr error lines for $ndl deadlocks;$bad" "$log"
	fi
}
diag_case "cycle" "$WORK/cycle-a" examples/deadlock/send-send-cycle.c
diag_case "wildcard" "$WORK/wild" examples/deadlock/wildcard-recv-order.c
run_cmd "$WORK/diag-bad.log" 60 "$MPIVERIFY" check "$WORK/cycle-a" --diagnostics-format=msvc
expect "--diagnostics-format=msvc: a usage error" 2 "$WORK/diag-bad.log" \
	"invalid --diagnostics-format 'msvc'"
run_cmd "$WORK/diag-two.log" 60 "$MPIVERIFY" check "$WORK/cycle-a" --json \
	--diagnostics-format=gcc
expect "--json with --diagnostics-format=gcc: a usage error" 2 "$WORK/diag-two.log" \
	"cannot be given together"

# the same program recorded again: the same findings, by their fingerprints
run_cmd "$WORK/cycle-b.check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/cycle-b"
"$SARIF_CHECK" --fingerprints "$OUT_A/report.sarif" | grep -v '^ok' | sort >"$WORK/fp-a"
"$SARIF_CHECK" --fingerprints "$WORK/cycle-b/check/report.sarif" | grep -v '^ok' | sort \
	>"$WORK/fp-b"
if test -s "$WORK/fp-a" && cmp -s "$WORK/fp-a" "$WORK/fp-b"; then
	pass "fingerprints: the same for two recordings of one program"
else
	diff "$WORK/fp-a" "$WORK/fp-b" >"$WORK/fp.diff"
	fail "fingerprints: the same for two recordings" "they differ, or there are none" \
		"$WORK/fp.diff"
fi

# ---- waits-for.dot, through Graphviz ----
if command -v dot >/dev/null; then
	run_cmd "$WORK/dot.log" 60 dot -Tsvg "$OUT_A/waits-for.dot" -o "$WORK/waits-for.svg"
	if test "$RC" -eq 0 && grep -q '<svg' "$WORK/waits-for.svg" &&
		test "$(grep -c 'color=red' "$OUT_A/waits-for.dot")" -eq 2; then
		pass "waits-for.dot: dot draws it, the cycle's two edges red"
	else
		fail "waits-for.dot: dot draws it" "exit $RC, or not two red edges" "$WORK/dot.log"
	fi
fi

# ---- replay's outcome, added to the page of the check that wrote the counterexample ----
run_cmd "$WORK/wild.check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/wild"
cp "$WORK/wild/check/report.html" "$WORK/wild-before-replay.html"
run_cmd "$WORK/wild.replay.log" "$LIMIT" "$MPIVERIFY" replay --trace "$WORK/wild/check/cex.json" \
	--timeout 3
if test "$RC" -eq 1 && grep -q '"replay_outcome":{"outcome":"reproduced","exit":1' \
	"$WORK/wild/check/report.html"; then
	pass "replay: its outcome added to report.html"
else
	fail "replay: its outcome added to report.html" "exit $RC, or not in the page" \
		"$WORK/wild.replay.log"
fi

# ---- report.html, rendered by Chromium ----
if test -n "$CHROMIUM"; then
	render "$OUT_A/report.html" "$WORK/cycle.dom"
	line=$(grep -oE '"line": [0-9]+' "$WORK/cycle-a.json" | head -n 1 | grep -oE '[0-9]+$')
	dom "page: drawn by its script" "$WORK/cycle.dom" '<svg class="spacetime"[^>]*data-layout="logical"' 1 1
	dom "page: a lane per rank" "$WORK/cycle.dom" '<g class="lane( on-cycle)?" data-rank="[0-9]+"' 2 2
	dom "page: both ranks on the cycle" "$WORK/cycle.dom" '<g class="lane on-cycle"' 2 2
	dom "page: each rank's blocked send at its lane's end" "$WORK/cycle.dom" \
		'<g class="op op-send blocked' 2 2
	dom "page: the wait-for cycle in the diagram" "$WORK/cycle.dom" '<path class="wait cycle"' 2 2
	dom "page: the wait-for graph, its cycle" "$WORK/cycle.dom" '<path class="edge cycle"' 2 2
	dom "page: file:line of the blocked calls" "$WORK/cycle.dom" \
		"send-send-cycle\\.c:$line \\(main\\)" 2
	dom "page: the source line of the blocked call" "$WORK/cycle.dom" \
		"<span class=\"here\" data-line=\"$line\">[^<]*MPI_Send" 1
	dom "page: the verdict per buffering mode" "$WORK/cycle.dom" '<tr class="mode" data-mode="(zero|infinite)"' 2

	# matched messages, and the recorded run's other match
	render "$WORK/wild/check/report.html" "$WORK/wild.dom"
	dom "page: the counterexample's matched messages" "$WORK/wild.dom" '<path class="msg( wildcard)?"' 1
	dom "page: the wildcard receive's choice" "$WORK/wild.dom" '<path class="msg wildcard"' 1
	dom "page: the match the recorded run made instead" "$WORK/wild.dom" \
		'<path class="msg recorded-other"' 1 1
	dom "page: a finished rank's lane" "$WORK/wild.dom" '✓ finished' 1
	dom "page: replay's outcome" "$WORK/wild.dom" \
		'<div class="outcome replay" data-outcome="reproduced">' 1 1
	render "$WORK/wild-before-replay.html" "$WORK/wild-before.dom"
	dom "page: drawn again after replay, the same diagram" "$WORK/wild-before.dom" \
		'<path class="msg' "$(grep -oE '<path class="msg' "$WORK/wild.dom" | wc -l)" \
		"$(grep -oE '<path class="msg' "$WORK/wild.dom" | wc -l)"

	# without times, the order layout only: no time in the data, no axis of times
	dom "page: no times, no time axis" "$WORK/cycle.dom" '<g class="tick"' 0 0
	dom "page: no times, no timed call" "$WORK/cycle.dom" 'data-t0=' 0 0

	# recorded with --timestamps: each call at its times, on a time axis
	run_cmd "$WORK/cycle-t.check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/cycle-t"
	expect "check --timestamps trace: a deadlock" 1 "$WORK/cycle-t.check.log" \
		"potential deadlock 1 of 1"
	render "$WORK/cycle-t/check/report.html" "$WORK/cycle-t.dom"
	dom "page: drawn to the recorded run's times" "$WORK/cycle-t.dom" \
		'<svg class="spacetime"[^>]*data-layout="time"' 1 1
	dom "page: drawn to scale, the same lanes" "$WORK/cycle-t.dom" \
		'<g class="lane( on-cycle)?" data-rank' 2 2
	dom "page: a time axis with ticks" "$WORK/cycle-t.dom" \
		'<g class="tick" data-ns="[0-9.e+]+"><line[^>]*></line><text[^>]*>[0-9.]+ (ns|µs|ms|s)</text>' 2
	# the sends the counterexample blocks in: entered when the recorded run entered them,
	# never left
	dom "page: the blocked sends at their entry times, never left" "$WORK/cycle-t.dom" \
		'<g class="op op-send blocked[^"]*" data-rank="[0-9]+" data-ev="[0-9]+" data-t0="[0-9]+">' 2 2

	# the counterexample takes another match than the recorded run: the receiving rank's
	# calls from there on are drawn in order, the other ranks' at their times
	run_cmd "$WORK/wild-t.check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/wild-t"
	render "$WORK/wild-t/check/report.html" "$WORK/wild-t.dom"
	dom "page: wildcard, drawn to the recorded run's times" "$WORK/wild-t.dom" \
		'<svg class="spacetime"[^>]*data-layout="time"' 1 1
	dom "page: wildcard, the match the recorded run made instead" "$WORK/wild-t.dom" \
		'<path class="msg recorded-other"' 1 1
	dom "page: the other ranks' calls at their times" "$WORK/wild-t.dom" \
		'<g class="op [^"]*" data-rank="[0-9]+" data-ev="[0-9]+" data-t0="[0-9]+"' 2
	dom "page: a call the recorded run left, from entry to exit" "$WORK/wild-t.dom" \
		'<g class="op [^"]*" data-rank="[0-9]+" data-ev="[0-9]+" data-t0="[0-9]+" data-t1="[0-9]+">' 1
	dom "page: calls after another match, in order, without times" "$WORK/wild-t.dom" \
		'<g class="op [^"]*untimed[^"]*" data-rank="[0-9]+" data-ev="[0-9]+">' 1
fi

# ---- a million-event trace: a small page, the rest folded ----
GEN=$WORK/gen_trace
if cc -O2 -I"$SRCDIR/base" -o "$GEN" "$SRCDIR/bench/gen_trace.c" "$SRCDIR/base/tracefmt.c" \
	"$SRCDIR/base/event.c" "$SRCDIR/base/reduction.c"; then
	mkdir -p "$WORK/big"
	"$GEN" cycle "$WORK/big" 2 100000
	run_cmd "$WORK/big.check.log" "$LIMIT" "$MPIVERIFY" check "$WORK/big" --buffering zero
	size=$(stat -c %s "$WORK/big/check/report.html" 2>/dev/null || echo 0)
	if test "$RC" -eq 1 && test "$size" -gt 0 && test "$size" -lt 262144; then
		pass "1,000,004 events: report.html of $size bytes"
	else
		fail "1,000,004 events: a small report.html" "exit $RC, $size bytes" "$WORK/big.check.log"
	fi
	if test -n "$CHROMIUM"; then
		render "$WORK/big/check/report.html" "$WORK/big.dom"
		dom "1,000,004 events: the earlier operations folded" "$WORK/big.dom" \
			'… 4999[0-9]+ earlier' 2 2
		dom "1,000,004 events: the last operations drawn" "$WORK/big.dom" '<g class="op ' 80 82
	fi
else
	fail "gen_trace" "does not compile"
fi

# ---- ranks grouped by what they do ----
# ring_traces DIR N HUNG: N ranks, each sending 1 MiB to the next, then receiving from the
# one before (HUNG: each trace ends inside its send, and record ended the run).
ring_traces()
{
	local dir=$1 n=$2 hung=$3 r end='' events
	mkdir -p "$dir"
	for ((r = 0; r < n; r++)); do
		events='{"call": "MPI_Init"}, {"call": "MPI_Send", "peer": '$(((r + 1) % n))
		events+=', "tag": 0, "comm": 0, "bytes": 1048576'
		if test "$hung" = 1; then
			end=', "end": {"how": "signal", "code": 15}'
			events+=', "incomplete": true}'
		else
			events+='}, {"call": "MPI_Recv", "peer": '$(((r + n - 1) % n))', "tag": 0,'
			events+=' "comm": 0, "bytes": 1048576}, {"call": "MPI_Finalize"}'
		fi
		printf '{"format": "mpiverify-trace", "version": 1, "rank": %d, "size": %d%s,\n' \
			"$r" "$n" "$end" >"$dir/rank-$r.json"
		printf ' "events": [%s]}\n' "$events" >>"$dir/rank-$r.json"
	done
	test "$hung" = 1 && printf '%s\n' '{"format": "mpiverify-meta", "version": 2,' \
		'"command": ["mpirun", "./ring"], "exit_status": 143, "hung": true,' \
		'"job": "deadlock"}' >"$dir/meta.json"
	return 0
}

for hung in 0 1; do
	name="grouped ranks (256-rank ring$(test "$hung" = 1 && echo ', hung'))"
	dir=$WORK/ring256-$hung
	ring_traces "$dir" 256 "$hung"
	run_cmd "$dir.log" "$LIMIT" "$MPIVERIFY" check "$dir" --buffering zero -o "$dir/check"
	expect_text "$name: a deadlock (exit 1)" 1 "$dir.log" "1 deadlock found"
	lines=$(wc -l <"$dir.log")
	if test "$lines" -le 40; then
		pass "$name: the report is $lines lines"
	else
		fail "$name: the report within 40 lines" "$lines lines" "$dir.log"
	fi
	expect_text "$name: one class" "$RC" "$dir.log" "ranks 0-255 (256)  blocked in MPI_Send"
	if test "$hung" = 1; then
		expect_text "$name: their notes, once" "$RC" "$dir.log" \
			"note: the traces of ranks 0-255 (256) end inside MPI_Send"
		expect_text "$name: who did not finish, once" "$RC" "$dir.log" \
			"  ranks 0-255 (256)  was blocked in its last call"
	fi
	if test -n "$CHROMIUM"; then
		render "$dir/check/report.html" "$dir.dom"
		dom "$name: report.html, one class of blocked calls for 256 ranks" "$dir.dom" \
			'<details class="rank-class" data-ranks="256">' 1 1
		dom "$name: report.html, its first rank's call, not 256" "$dir.dom" \
			'<div class="blocked-call"' 1 1
		dom "$name: report.html, who waits for whom by class, on the cycle" "$dir.dom" \
			'<tr class="class-wait"><td>0-255 \(256\)</td>.*256 on the cycle' 1 1
		dom "$name: report.html, the unbuffered sends by event" "$dir.dom" \
			'not buffered on the way: ranks 0-199 \(200\) event 1; and 56 more' 1 1
	fi
	run_cmd "$dir.json" "$LIMIT" "$MPIVERIFY" check "$dir" --buffering zero --json \
		-o "$dir/check-json"
	n=$(grep -c '"call": "MPI_Send"' "$dir.json" || true)
	if test "$n" -ge 256; then
		pass "$name: --json keeps every rank ($n blocked ranks)"
	else
		fail "$name: --json keeps every rank" "$n blocked ranks in the JSON" "$dir.json"
	fi
done

# ---- why check is inconclusive, as words a script tests (doc/check-json.md) ----
# rank 1 was killed before it finished, with no call blocked: nothing to find, nothing to
# say "no deadlock" of
STOP=$WORK/stopped-rank
mkdir -p "$STOP"
printf '%s\n' '{"format": "mpiverify-trace", "version": 1, "rank": 0, "size": 2,' \
	' "events": [{"call": "MPI_Init"}, {"call": "MPI_Finalize"}]}' >"$STOP/rank-0.json"
printf '%s\n' '{"format": "mpiverify-trace", "version": 1, "rank": 1, "size": 2,' \
	' "end": {"how": "signal", "code": 9}, "events": [{"call": "MPI_Init"}]}' \
	>"$STOP/rank-1.json"
run_cmd "$STOP.log" "$LIMIT" "$MPIVERIFY" check "$STOP" --json -o "$STOP/check"
if test "$RC" -eq 5 && tr -d ' \n' <"$STOP.log" | grep -q '"inconclusive":\["ranks-stopped"\]'
then
	pass "check --json: inconclusive, because a rank stopped (ranks-stopped)"
else
	fail "check --json: inconclusive, because a rank stopped" "exit $RC, or no reason" \
		"$STOP.log"
fi

# ---- suppressions ----
SUPP=$WORK/cycle.supp
run_cmd "$WORK/gen.log" "$LIMIT" "$MPIVERIFY" check "$WORK/cycle-a" --gen-suppressions="$SUPP"
if test "$RC" -eq 1 && grep -q '^   mpiverify:potential-deadlock$' "$SUPP" &&
	grep -qE '^   MPI_Send fun:main src:send-send-cycle\.c$' "$SUPP"; then
	pass "--gen-suppressions=FILE: one for the deadlock, by kind and call"
else
	fail "--gen-suppressions=FILE" "exit $RC, or not the suppression" "$SUPP"
fi
run_cmd "$WORK/gen-stdout.log" "$LIMIT" "$MPIVERIFY" check "$WORK/cycle-a" --gen-suppressions
expect_text "--gen-suppressions: after the report, on standard output" 1 "$WORK/gen-stdout.log" \
	"potential deadlock 1 of 1" "   mpiverify:potential-deadlock"
run_cmd "$WORK/supp.log" "$LIMIT" "$MPIVERIFY" check "$WORK/cycle-b" --suppressions "$SUPP"
expect_text "--suppressions: the other recording's deadlock hidden, exit 0" 0 "$WORK/supp.log" \
	"suppressed findings (1), not counted in the exit status:" \
	"but those suppressed"
printf '# nothing yet\n' >"$WORK/empty.supp"
run_cmd "$WORK/supp2.log" "$LIMIT" "$MPIVERIFY" check "$WORK/cycle-b" --suppressions \
	"$WORK/empty.supp" --suppressions "$SUPP" --json
expect_text "--suppressions twice, --json: exit 0, the entry says what hides it" 0 \
	"$WORK/supp2.log" '"exit": 0' '"suppressed": 1' '"suppressed": "potential-deadlock: MPI_Send'
run_cmd "$WORK/supp3.log" "$LIMIT" "$MPIVERIFY" check "$WORK/cycle-b" --suppressions \
	"$WORK/empty.supp"
expect "--suppressions that match nothing: exit 1" 1 "$WORK/supp3.log" "potential deadlock 1 of 1"
"$MPIVERIFY" check "$WORK/cycle-b" --suppressions "$SUPP" >/dev/null 2>&1
run_cmd "$WORK/sarif-supp.log" 60 "$SARIF_CHECK" "$WORK/cycle-b/check/report.sarif"
expect "report.sarif: the suppressed finding kept, marked" 0 "$WORK/sarif-supp.log" \
	'^ok: 1 results \(1 suppressed\)'
if test -n "$CHROMIUM"; then
	render "$WORK/cycle-b/check/report.html" "$WORK/supp.dom"
	dom "page: the suppressed deadlock marked" "$WORK/supp.dom" \
		'<section class="deadlock suppressed"' 1 1
fi

# --ignore-potential-below: only when every unbuffered send is smaller
bytes=$(json_int "$WORK/cycle-a.json" unbuffered_max_bytes)
run_cmd "$WORK/ignore-above.log" "$LIMIT" "$MPIVERIFY" check "$WORK/cycle-a" \
	--ignore-potential-below "$((bytes + 1))"
expect_text "--ignore-potential-below $((bytes + 1)): the $bytes-byte sends' deadlock hidden" 0 \
	"$WORK/ignore-above.log" "(by '--ignore-potential-below $((bytes + 1))')"
run_cmd "$WORK/ignore-at.log" "$LIMIT" "$MPIVERIFY" check "$WORK/cycle-a" \
	--ignore-potential-below "$bytes"
expect "--ignore-potential-below $bytes: not smaller, kept" 1 "$WORK/ignore-at.log" \
	"potential deadlock 1 of 1"

# the options' edge cases
for args in "--json --sarif" "--json --gen-suppressions" "--ignore-potential-below 0" \
	"--ignore-potential-below 12x" "--gen-suppressions="; do
	# shellcheck disable=SC2086
	run_cmd "$WORK/usage.log" 60 "$MPIVERIFY" check "$WORK/cycle-a" $args
	expect "check $args: a usage error" 2 "$WORK/usage.log" "try 'mpiverify check --help'"
done

# ---- verify: the same files, a run's deadlock drawn, suppressions ----
run_cmd "$WORK/verify.log" "$LIMIT" "$MPIVERIFY" verify -o "$WORK/verify" \
	--gen-suppressions="$WORK/verify.supp" -- "$MPIRUN" -np 3 "$WORK/branch"
expect "verify: a deadlock confirmed" 1 "$WORK/verify.log" "^verdict: 1 deadlock confirmed"
run_cmd "$WORK/verify-sarif.log" 60 "$SARIF_CHECK" "$WORK/verify/report.sarif"
expect "verify: report.sarif valid, one result" 0 "$WORK/verify-sarif.log" '^ok: 1 results'
test -s "$WORK/verify/waits-for.dot" && pass "verify: waits-for.dot written" ||
	fail "verify: waits-for.dot written" "missing"
if test -n "$CHROMIUM"; then
	render "$WORK/verify/report.html" "$WORK/verify.dom"
	dom "verify page: the run's lanes" "$WORK/verify.dom" '<g class="lane( on-cycle)?" data-rank' 3 3
	dom "verify page: the blocked call at its lane's end" "$WORK/verify.dom" \
		'<g class="op op-[a-z]+ blocked' 1
	dom "verify page: its stack, taken in the run" "$WORK/verify.dom" \
		'<ol class="stack"[^>]*><li>first-sender-branch\.c:[0-9]+ \(main\)' 1
fi
run_cmd "$WORK/verify-supp.log" "$LIMIT" "$MPIVERIFY" verify -o "$WORK/verify" \
	--suppressions "$WORK/verify.supp" -- "$MPIRUN" -np 3 "$WORK/branch"
expect_text "verify --suppressions: the deadlock hidden, exit 0" 0 "$WORK/verify-supp.log" \
	"suppressed findings (1)" "verdict: no deadlock on any path but those suppressed"

summary
rc=$?
test "$rc" -eq 0 && test -z "${KEEP:-}" && rm -rf "$WORK"
exit $rc
