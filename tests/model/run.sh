#!/bin/bash
# The model through SPIN: `mpiverify check` on every case of tests/model/cases (trace
# directories written as JSON, with the verdict per buffering mode in `expect`; "infinite-sync"
# or "eager:N-sync", the mode with every collective synchronising), comparing the exit code
# with the expected verdict. The unit tests check the same cases on the engine
# alone, so this is also the differential test between SPIN's search and the native one.
set -u

. "$(dirname "$0")/../lib.sh"
require_tools spin
require_mpiverify

WORK=$(make_workdir model)
for dir in "$SRCDIR"/tests/model/cases/*/; do
	name=$(basename "$dir")
	while read -r mode verdict; do
		case $mode in '' | '#'* | *-sync) continue ;; esac
		# check searches a buffered mode's twin whose collectives synchronise too (a
		# "MODE-sync" line, which the unit tests take alone): a deadlock there is check's
		grep -q "^$mode-sync deadlock" "$dir/expect" && verdict=deadlock
		case $verdict in
		deadlock) want=1 ;;
		ok) want=0 ;;
		*)
			fail "$name $mode" "bad verdict '$verdict' in $dir/expect"
			continue
			;;
		esac
		out="$WORK/$name-${mode//:/-}"
		run_cmd "$out.log" 120 "$MPIVERIFY" check "$dir" --buffering "$mode" -o "$out"
		if test "$RC" -ne "$want"; then
			fail "$name $mode" "expected $verdict (exit $want), check exited $RC" "$out.log"
		elif test "$want" -eq 1 && ! test -s "$out/cex.json"; then
			fail "$name $mode" "deadlock reported but no cex.json written" "$out.log"
		else
			pass "$name $mode"
		fi
	done <"$dir/expect"
done
# --buffering all also searches with the eager threshold of the library the traces name
# (base/mpilib.c): a head-to-head MPI_Send cycle deadlocks there with 100000-byte messages,
# not with 4-byte ones; a potential deadlock either way.
for size in 100000 4; do
	case $size in 100000) want=happens ;; *) want='does not happen' ;; esac
	name="library eager threshold, $size bytes"
	run_cmd "$WORK/library-$size.log" 120 "$MPIVERIFY" check \
		"$SRCDIR/tests/model/library/send-cycle-$size" -o "$WORK/library-$size"
	if test "$RC" -eq 1 && grep -q "^potential deadlock" "$WORK/library-$size.log" &&
		grep -q "up to 8255 bytes buffered) it $want\$" "$WORK/library-$size.log"; then
		pass "$name"
	else
		fail "$name" "want exit 1, a potential deadlock that $want at 8255 bytes, got $RC" \
			"$WORK/library-$size.log"
	fi
done

# Reports: `check` (every mode) on each case of tests/model/reports; its `expect` file gives
# the exit status ("exit N"), lines the report must hold ("grep TEXT") and must not ("not
# TEXT").
for dir in "$SRCDIR"/tests/model/reports/*/; do
	name="report: $(basename "$dir")"
	out="$WORK/report-$(basename "$dir")"
	run_cmd "$out.log" 120 "$MPIVERIFY" check "$dir" -o "$out"
	why=''
	while read -r key text; do
		case $key in
		exit) test "$RC" -eq "$text" || why="$why; exit $RC, want $text" ;;
		grep) grep -qF -- "$text" "$out.log" || why="$why; no '$text'" ;;
		not) grep -qF -- "$text" "$out.log" && why="$why; has '$text'" ;;
		esac
	done < <(grep -v '^#' "$dir/expect")
	if test -n "$why"; then
		fail "$name" "${why#; }" "$out.log"
	else
		pass "$name"
	fi
done

# check's own pass (translator/tr_cut.c: the paths of one choice at a time run natively,
# SPIN only from the first state with several, on what is left of the program) against SPIN
# searching from the start (MPIVERIFY_SPIN_FROM_START), on every case, in every mode its
# expect file names and in the default ones, and on generated traces: the same exit status,
# the same report, the same counterexamples.
# compare_checks WHAT NAME DIR ENV-A ENV-B [ARGS...]: check DIR ARGS with the variable setting
# ENV-A and with ENV-B ("" for none) gives the same exit status, report and counterexamples;
# the two reports, if not, are kept as cmp-N.a and cmp-N.b.
ncompared=0
compare_checks()
{
	local what=$1 name=$2 dir=$3 ea=$4 eb=$5 a=$WORK/cmp-a b=$WORK/cmp-b
	shift 5
	rm -rf "$a" "$b"
	# shellcheck disable=SC2086 # an empty setting is no word
	run_cmd "$a.log" 120 env $ea "$MPIVERIFY" check "$dir" "$@" -o "$a"
	local rca=$RC
	# shellcheck disable=SC2086
	run_cmd "$b.log" 120 env $eb "$MPIVERIFY" check "$dir" "$@" -o "$b"
	WHY=''
	test "$rca" -eq "$RC" || WHY="exit $rca, then $RC"
	same_checks "$a" "$a.log" "$b" "$b.log"
	ncompared=$((ncompared + 1))
	if test -n "$WHY"; then
		diff "$a.log.norm" "$b.log.norm" >"$WORK/cmp.diff"
		fail "$what: $name" "$WHY" "$WORK/cmp.diff"
		cp "$a.log.norm" "$WORK/cmp-$ncompared.a"
		cp "$b.log.norm" "$WORK/cmp-$ncompared.b"
	else
		pass "$what: $name"
	fi
}
# compare_ways NAME DIR [ARGS...]: check's own pass against SPIN from the start.
compare_ways()
{
	local name=$1 dir=$2
	shift 2
	compare_checks "own pass = SPIN from the start" "$name" "$dir" "" \
		MPIVERIFY_SPIN_FROM_START=1 "$@"
}
for dir in "$SRCDIR"/tests/model/cases/*/ "$SRCDIR"/tests/model/reports/*/ \
	"$SRCDIR"/tests/model/library/*/; do
	name=$(basename "$dir")
	compare_ways "$name" "$dir"
	test -f "$dir/expect" || continue
	while read -r mode verdict; do
		case $mode in *-sync) ;; zero | infinite | eager:*) compare_ways "$name $mode" \
			"$dir" --buffering "$mode" ;; esac
	done <"$dir/expect"
done
gen=$BUILDDIR/bench/gen_trace
if test -x "$gen"; then
	for args in "halo 4 20" "halo 16 3" "halo-any 4 12" "cycle-any 3 7" "mw 4 3" "mw 6 5" \
		"rounds 3 4" "farm 2 6" "farm 3 12" "farm 5 100" "farm-rounds 3 4"; do
		dir=$WORK/gen-${args// /-}
		mkdir -p "$dir" && "$gen" ${args%% *} "$dir" ${args#* } >/dev/null
		compare_ways "generated $args" "$dir"
		compare_ways "generated $args, eager:0" "$dir" --buffering eager:0
	done
else
	fail "own pass = SPIN from the start: generated traces" "'$gen' not built (make check)"
fi

# A long run checked a segment at a time (translator/tr_segment.c) against it checked as one
# program: on every case, and on generated traces, with segments of a few events (however
# short the run, MPIVERIFY_SEGMENT_EVENTS), the same exit status, report and counterexamples.
# The segments only ever answer "no deadlock"; elsewhere check goes on with the whole program.
# compare_segments NAME DIR EVENTS: one case.
compare_segments()
{
	compare_checks "segments = one program" "$1" "$2" MPIVERIFY_SEGMENT_EVENTS=0 \
		MPIVERIFY_SEGMENT_EVENTS="$3"
}
for dir in "$SRCDIR"/tests/model/cases/*/ "$SRCDIR"/tests/model/reports/*/ \
	"$SRCDIR"/tests/model/library/*/; do
	compare_segments "$(basename "$dir")" "$dir" 3
done
if test -x "$gen"; then
	for args in "halo 4 20" "halo 16 3" "halo-any 4 12" "cycle-any 3 7" "mw 4 3" "rounds 3 4" \
		"farm 3 12" "farm-rounds 3 4"; do
		dir=$WORK/gen-${args// /-}
		for events in 1 7 40; do
			compare_segments "generated $args, $events events" "$dir" "$events"
		done
	done
	# The runs that can be cut are checked in segments indeed, as their JSON says: a halo
	# exchange, its requests completed by MPI_Waitall or by any-completions; rounds closed by
	# barriers, of wildcard receives, of buffered sends (each segment with the buffer
	# attached before it: were it not, its sends would fail, and check would check the whole
	# program instead), of wildcard probes, and of a task farm answered with buffering.
	# in_segments NAME EVENTS DIR ARGS...: check ARGS of DIR, in segments of about EVENTS
	# events ('': the default), ends with no deadlock, in two segments at least.
	in_segments()
	{
		local name=$1 events=$2 log=$WORK/seg-$1.json
		shift 2
		run_cmd "$log" 60 env MPIVERIFY_SEGMENT_EVENTS="$events" "$MPIVERIFY" check --json \
			"$@" -o "$WORK/seg-$name"
		if test "$RC" -eq 0 && grep -Eq '"count": ([2-9]|[1-9][0-9]+),' "$log"; then
			pass "segments: $name, in segments"
		else
			fail "segments: $name, in segments" "exit $RC, or not in several \"segments\"" \
				"$log"
		fi
	}
	in_segments halo 40 "$WORK/gen-halo-4-20"
	in_segments halo-any 40 "$WORK/gen-halo-any-4-12"
	in_segments rounds 5 "$WORK/gen-rounds-3-4"
	in_segments bsend-rounds-barrier '' "$SRCDIR/tests/model/cases/bsend-rounds-barrier"
	in_segments probe-any-rounds-barrier '' "$SRCDIR/tests/model/cases/probe-any-rounds-barrier"
	in_segments farm-rounds '' "$WORK/gen-farm-rounds-3-4" --buffering infinite
fi

# A search stopped by its time or memory limit (the memory limit is pan's, at run time) is
# inconclusive (exit 5), never "no deadlock": a master receiving 64 results with
# MPI_ANY_SOURCE from 8 workers, alternately with a tag and with MPI_ANY_TAG (so that the
# receives are not interchangeable), has about 9^8 states.
# limit_case NAME DIR WHAT VALUE TEXT: check of DIR with --WHAT-limit VALUE exits 5 and says
# TEXT.
big=$SRCDIR/tests/model/limits/wildcard-tags-8x8
limit_case()
{
	local log=$WORK/$1.log
	run_cmd "$log" 120 "$MPIVERIFY" check "$2" --buffering zero "--$3-limit" "$4" \
		-o "$WORK/$1"
	if test "$RC" -eq 5 && grep -q "$5" "$log"; then
		pass "$3 limit: $1, inconclusive"
	else
		fail "$3 limit: $1, inconclusive" "expected exit 5 naming the $3 limit, got $RC" \
			"$log"
	fi
}
limit_case search "$big" time 2 "time limit"
limit_case search "$big" memory 16 "memory limit of 16 MB reached"

# A search is as deep as the program's threads' operations, each of which may be a step of
# its own: two threads a rank exchanging 30 rounds on one tag (every match a choice) is
# searched to its end, no deadlock, not cut short by the depth bound.
log=$WORK/threads-depth.log
run_cmd "$log" 120 "$MPIVERIFY" check "$SRCDIR/tests/model/limits/threads-shared-tag-rounds" \
	-o "$WORK/threads-depth"
if test "$RC" -eq 0 && grep -q "^mpiverify: no deadlock" "$log"; then
	pass "depth: threads-shared-tag-rounds searched to its end"
else
	fail "depth: threads-shared-tag-rounds searched to its end" "exit $RC" "$log"
fi

# check's own pass holds the program it walks, and the memory limit bounds that too: a master
# receiving 200,000 results with MPI_ANY_SOURCE, which cannot be cut, passes 16 MB (48 bytes
# an instruction) as it is built, inconclusive; a halo exchange of 100,000 events is checked
# in segments the limit sizes (a quarter of the instructions it allows), no deadlock.
if test -x "$gen"; then
	mkdir -p "$WORK/gen-mw-16-12500" "$WORK/gen-halo-16-1250" &&
		"$gen" mw "$WORK/gen-mw-16-12500" 16 12500 >/dev/null &&
		"$gen" halo "$WORK/gen-halo-16-1250" 16 1250 >/dev/null
	limit_case program "$WORK/gen-mw-16-12500" memory 16 "more than the memory limit of 16 MB"
	in_segments halo-memory-limit-16 '' "$WORK/gen-halo-16-1250" --memory-limit 16
fi

# --swarm: bitstate searches, each in an order of its own, several at once. They find a
# deadlock (checked by the engine as any trail is), but a swarm is not exhaustive, even when
# each search ran to its end: without a deadlock found it is inconclusive, never "no deadlock".
# swarm_case NAME DIR WANT-EXIT TEXT [ARGS...]: check --swarm 3 DIR exits WANT-EXIT, says TEXT.
swarm_case()
{
	local name=$1 dir=$2 want=$3 text=$4 out
	shift 4
	out=$WORK/swarm-$(basename "$dir")
	run_cmd "$out.log" 120 "$MPIVERIFY" check "$dir" --swarm 3 --memory-limit 64 -o "$out" "$@"
	if test "$RC" -eq "$want" && grep -q "$text" "$out.log" &&
		grep -q "a swarm of 3 bitstate searches is not exhaustive" "$out.log" &&
		test -e "$out/zero/swarm-2/pan.out"; then
		pass "$name"
	else
		fail "$name" "expected exit $want, '$text' and three searches; got exit $RC" \
			"$out.log"
	fi
}
swarm_case "swarm: a deadlock found" "$SRCDIR/tests/model/cases/wildcard-race" 1 \
	"^deadlock 1 of" --buffering zero
swarm_case "swarm: none found is inconclusive" "$SRCDIR/tests/model/cases/master-worker-8x8" \
	5 "^mpiverify: inconclusive: no deadlock found"
swarm_case "swarm: a search one core does not finish, inconclusive" "$big" 5 \
	"not exhaustive (time limit of 3 s reached)" --buffering zero --time-limit 3
run_cmd "$WORK/swarm-0.log" 10 "$MPIVERIFY" check --swarm 0 "$SRCDIR/tests/model/cases/head-to-head"
expect_text "swarm: --swarm 0 is a usage error" 2 "$WORK/swarm-0.log" \
	"invalid --swarm '0': expected a number of searches, 1 to 1000"
run_cmd "$WORK/swarm-promela.log" 10 "$MPIVERIFY" check --swarm 2 --promela - \
	"$SRCDIR/tests/model/cases/head-to-head"
expect_text "swarm: with --promela, a usage error" 2 "$WORK/swarm-promela.log" \
	"--swarm has nothing to do with it"

# The verifier (check/spin_run.c): none where every state of the search offers one choice at
# most (check runs that path itself, translator/tr_cut.c); else a prebuilt pan when one has
# room for the state, so that nothing is compiled into the output directory; else one
# compiled there (in the directory of the mode searched), same verdict.
# verifier_case NAME DIR WANT-EXIT OWN-PAN [VAR=VALUE...]: check DIR, with the variables set,
# exits WANT-EXIT, and its output directory has a pan of its own (OWN-PAN yes) or not (no).
verifier_case()
{
	local name=$1 dir=$2 want=$3 want_own=$4 own=no out p
	shift 4
	nverifier=$((${nverifier:-0} + 1))
	out=$WORK/verifier-$nverifier
	run_cmd "$out.log" 120 env "$@" "$MPIVERIFY" check "$dir" -o "$out"
	for p in "$out"/pan "$out"/*/pan; do
		test -x "$p" && own=yes
	done
	if test "$RC" -eq "$want" && test "$own" = "$want_own"; then
		pass "$name"
	else
		fail "$name" "expected exit $want, own pan: $want_own; got exit $RC, own pan: $own" \
			"$out.log"
	fi
}
mkdir -p "$WORK/no-verifiers"
h2h=$SRCDIR/tests/model/cases/head-to-head
verifier_case "verifier: none for one path, none compiled" "$h2h" 1 no \
	MPIVERIFY_PAN_DIR="$WORK/no-verifiers"
if test -e "$out/zero/pan.out"; then
	fail "verifier: none for one path, none run" "pan ran on a search of one path" "$out.log"
else
	pass "verifier: none for one path, none run"
fi
race=$SRCDIR/tests/model/cases/wildcard-race
verifier_case "verifier: prebuilt" "$race" 1 no
verifier_case "verifier: none in MPIVERIFY_PAN_DIR, compiled" "$race" 1 yes \
	MPIVERIFY_PAN_DIR="$WORK/no-verifiers"
# A barrier among n ranks keeps n * (n + 1) collective counts in the state (per rank, per
# communicator, the n MPI_COMM_SELFs included): n grows until that is more words than the
# largest prebuilt pan has room for. After the barrier rank 0 receives twice from anyone, of
# three messages (two from rank 1, one from rank 2, sent with MPI_Isend): a search of
# several paths, for SPIN.
largest=$(ls "$BUILDDIR/pan" 2>/dev/null | sed -n 's/^pan-\([0-9]*\)$/\1/p' | sort -n | tail -n 1)
n=2
while ((n * (n + 1) <= ${largest:-0})); do
	n=$((n * 2))
done
wide=$WORK/barrier-$n-ranks
mkdir -p "$wide"
for ((r = 0; r < n; r++)); do
	events='{"call": "MPI_Init"}, {"call": "MPI_Barrier", "comm": 0}'
	case $r in
	0) events="$events"', {"call": "MPI_Recv", "peer": "any", "tag": 0, "comm": 0}'
	   events="$events"', {"call": "MPI_Recv", "peer": "any", "tag": 0, "comm": 0}' ;;
	1) events="$events"', {"call": "MPI_Isend", "peer": 0, "tag": 0, "comm": 0, "req": 0}'
	   events="$events"', {"call": "MPI_Isend", "peer": 0, "tag": 0, "comm": 0, "req": 1}' ;;
	2) events="$events"', {"call": "MPI_Isend", "peer": 0, "tag": 0, "comm": 0, "req": 0}' ;;
	esac
	printf '{"format": "mpiverify-trace", "version": 1, "rank": %d, "size": %d,\n' "$r" "$n" \
		>"$wide/rank-$r.json"
	printf ' "events": [%s, {"call": "MPI_Finalize"}]}\n' "$events" >>"$wide/rank-$r.json"
done
verifier_case "verifier: a state larger than every prebuilt one ($n ranks), compiled" \
	"$wide" 0 yes
summary
