#!/bin/bash
# The standalone Promela model (check --promela, translator/tr_promela.c): the model as a user
# gets it, through plain spin, cc and pan; its refusals; then the differential test against
# the engine (tests/tools/oracles.c): every model case in every buffering mode, and random
# trace sets from a fixed seed (the same ones every run). A disagreement fails and names both
# verdicts; a trace the standalone model cannot take, or cannot search to the end, is "not
# comparable", said and counted, never taken for agreement.
#
#   tests/promela/run.sh           what make check runs
#   tests/promela/run.sh --long    make differential: the cases in the plain model of each
#                                  mode, and DIFFERENTIAL_COUNT random sets (default 3000)
#                                  from DIFFERENTIAL_SEED (default 100000)
set -u

. "$(dirname "$0")/../lib.sh"
require_tools spin cc
require_mpiverify

ORACLES=$BUILDDIR/tests/tools/oracles
if ! test -x "$ORACLES"; then
	echo "FAIL setup: '$ORACLES' not built (make tests/tools/oracles)"
	echo "0 passed, 1 failed"
	exit 1
fi
WORK=$(make_workdir promela)
LONG=0
test "${1:-}" = --long && LONG=1

# differential NAME LOG ARGS...: oracles ARGS agree (exit 0); the lines that are not
# agreement (disagreements, what was not comparable, tool failures) and the count are shown.
differential()
{
	local name=$1 log=$2 rc=0
	shift 2
	"$ORACLES" "$@" >"$log" 2>&1 </dev/null || rc=$?
	grep -v '^agree: ' "$log" | sed -e 's/^/    /'
	case $rc in
	0) pass "$name" ;;
	1) fail "$name" "the engine and the standalone model disagree (DISAGREE above)" ;;
	*) fail "$name" "oracles exited $rc (FAIL above)" ;;
	esac
}

if test "$LONG" -eq 0; then
	# ---- the model as check --promela writes it, through plain SPIN ----
	h2h=$SRCDIR/tests/model/cases/head-to-head
	plain=$WORK/plain
	mkdir -p "$plain"
	run_cmd "$plain/write.log" 60 "$MPIVERIFY" check --promela "$plain/h2h.pml" "$h2h"
	if test "$RC" -eq 0 && grep -q '^#define BUFFERING ZERO$' "$plain/h2h.pml"; then
		pass "check --promela writes the model, buffering zero by default"
	else
		fail "check --promela writes the model" "exit $RC, or no #define BUFFERING ZERO" \
			"$plain/write.log"
	fi
	# spin -a, cc, ./pan exactly as the model's header says, then its trail replayed
	(cd "$plain" && spin -a h2h.pml && cc -o pan pan.c && ./pan) >"$plain/pan.log" 2>&1
	(cd "$plain" && ./pan -r h2h.pml.trail) >"$plain/trail.log" 2>&1
	if grep -q 'errors: 1$' "$plain/pan.log" && grep -q 'invalid end state' "$plain/pan.log" &&
		grep -q '^rank 0: MPI_Send(dest=1, tag=0, comm=WORLD, 4 bytes) \[event 1\] sends' \
			"$plain/trail.log" &&
		grep -q 'proc 0 (rank0).*(invalid end state)' "$plain/trail.log"; then
		pass "plain spin, cc and pan find the head-to-head deadlock; the trail names the calls"
	else
		fail "plain spin, cc and pan on head-to-head" "want errors: 1, an invalid end state \
and a trail naming rank 0's MPI_Send" "$plain/pan.log"
		sed -e 's/^/    trail| /' "$plain/trail.log" | head -n 20
	fi
	# the reader changes the #define: with every send buffered there is no deadlock
	sed -e 's/^#define BUFFERING ZERO$/#define BUFFERING INFINITE/' "$plain/h2h.pml" \
		>"$plain/inf.pml"
	(cd "$plain" && spin -a inf.pml && cc -o pan pan.c && ./pan) >"$plain/inf.log" 2>&1
	if grep -q 'errors: 0$' "$plain/inf.log"; then
		pass "the same model with BUFFERING INFINITE: no deadlock"
	else
		fail "the model with BUFFERING INFINITE" "want errors: 0" "$plain/inf.log"
	fi
	run_cmd "$plain/eager.log" 60 "$MPIVERIFY" check --promela - --buffering eager:4 "$h2h"
	if test "$RC" -eq 0 && grep -q '^#define BUFFERING EAGER$' "$plain/eager.log" &&
		grep -q '^#define EAGER_LIMIT 4$' "$plain/eager.log"; then
		pass "check --promela - --buffering eager:4: the model on standard output, EAGER 4"
	else
		fail "check --promela - --buffering eager:4" "exit $RC, or not the #defines" \
			"$plain/eager.log"
	fi

	# ---- what it refuses ----
	run_cmd "$plain/all.log" 60 "$MPIVERIFY" check --promela "$plain/all.pml" \
		--buffering all "$h2h"
	expect_text "check --promela --buffering all: a usage error" 2 "$plain/all.log" \
		"--promela writes one buffering mode"
	# above the size limit: a rank with 600 MPI_Send (1200 operations), no file left behind
	big=$WORK/big
	mkdir -p "$big"
	{
		printf '{"format": "mpiverify-trace", "version": 1, "rank": 0, "size": 2,\n'
		printf ' "events": [{"call": "MPI_Init"}'
		for ((i = 0; i < 600; i++)); do
			printf ', {"call": "MPI_Send", "peer": 1, "tag": 0, "comm": 0, "bytes": 4}'
		done
		printf ', {"call": "MPI_Finalize"}]}\n'
	} >"$big/rank-0.json"
	printf '{"format": "mpiverify-trace", "version": 1, "rank": 1, "size": 2,
 "events": [{"call": "MPI_Init"}, {"call": "MPI_Finalize"}]}\n' >"$big/rank-1.json"
	run_cmd "$plain/big.log" 60 "$MPIVERIFY" check --promela "$plain/big.pml" "$big"
	if test "$RC" -eq 3 && grep -q 'for traces of at most 1000' "$plain/big.log" &&
		! test -e "$plain/big.pml"; then
		pass "a trace above the size limit: refused (exit 3), saying the limit"
	else
		fail "a trace above the size limit" "want exit 3 naming the limit, no file" \
			"$plain/big.log"
	fi
	# a message larger than Promela's int counts: refused, naming the rank, event and call
	huge=$WORK/huge
	mkdir -p "$huge"
	printf '{"format": "mpiverify-trace", "version": 1, "rank": 0, "size": 2,
 "events": [{"call": "MPI_Init"}, {"call": "MPI_Send", "peer": 1, "tag": 0, "comm": 0, "bytes": 4000000000},
 {"call": "MPI_Finalize"}]}\n' >"$huge/rank-0.json"
	printf '{"format": "mpiverify-trace", "version": 1, "rank": 1, "size": 2,
 "events": [{"call": "MPI_Init"}, {"call": "MPI_Recv", "peer": 0, "tag": 0, "comm": 0},
 {"call": "MPI_Finalize"}]}\n' >"$huge/rank-1.json"
	run_cmd "$plain/huge.log" 60 "$MPIVERIFY" check --promela "$plain/huge.pml" "$huge"
	expect "a call the model cannot encode: refused (exit 3), naming it" 3 "$plain/huge.log" \
		"rank 0: event 1: MPI_Send of 4000000000 bytes"

	# ---- what it leaves out ----
	# a call check cannot judge yet (MPI_Comm_spawn): rank 0's calls from it on are left
	# out, as check leaves them out; the model stops the rank there, free as a rank that
	# might have gone on. After the head-to-head sends, their deadlock is the judge's; with
	# the spawn first, rank 1 waits for a rank that might have gone on: no deadlock.
	left_out()
	{
		local name=$1 errors=$2 first=$3 then=$4 dir=$WORK/left-$1
		mkdir -p "$dir"
		printf '{"format": "mpiverify-trace", "version": 1, "rank": 0, "size": 2,
 "events": [{"call": "MPI_Init"}, %s, %s, {"call": "MPI_Finalize"}]}\n' "$first" "$then" \
			>"$dir/rank-0.json"
		printf '{"format": "mpiverify-trace", "version": 1, "rank": 1, "size": 2,
 "events": [{"call": "MPI_Init"}, %s, {"call": "MPI_Finalize"}]}\n' "$h2h_calls" \
			>"$dir/rank-1.json"
		run_cmd "$dir/write.log" 60 "$MPIVERIFY" check --promela "$dir/m.pml" "$dir"
		(cd "$dir" && spin -a m.pml && cc -o pan pan.c && ./pan) >"$dir/pan.log" 2>&1
		if test "$RC" -eq 0 &&
			grep -q 'note: .*m.pml: rank 0 was left out from its event' "$dir/write.log" &&
			grep -q 'the rank was left out from its event [0-9]* on: .*MPI_Comm_spawn' \
				"$dir/m.pml" &&
			grep -q "errors: $errors\$" "$dir/pan.log"; then
			pass "check --promela with a call check cannot judge, $name: written (exit 0), the calls left out named, $errors deadlock"
		else
			fail "check --promela with a call check cannot judge, $name" \
				"want exit 0, a note naming rank 0, errors: $errors from pan" \
				"$dir/write.log"
			sed -e 's/^/    pan| /' "$dir/pan.log" | tail -n 5
		fi
	}
	spawn='{"call": "MPI_Comm_spawn", "comm": 0}'
	h2h_calls='{"call": "MPI_Send", "peer": 0, "tag": 0, "comm": 0, "bytes": 4},
 {"call": "MPI_Recv", "peer": 0, "tag": 0, "comm": 0, "bytes": 4}'
	left_out after-h2h 1 "${h2h_calls//peer\": 0/peer\": 1}" "$spawn"
	left_out before-h2h 0 "$spawn" "${h2h_calls//peer\": 0/peer\": 1}"

	# ---- the differential test ----
	cases=("$SRCDIR"/tests/model/cases/*/ "$SRCDIR"/tests/model/library/*/ \
		"$SRCDIR"/tests/model/reports/*/)
	differential "differential: every model case, zero, infinite and eager:16" \
		"$WORK/cases.log" case --memory 256 --work "$WORK/cases" "${cases[@]}"
	# the eager thresholds the cases' expect files name
	for dir in "${cases[@]}"; do
		test -f "$dir/expect" || continue
		for mode in $(sed -n 's/^\(eager:[0-9]*\) .*/\1/p' "$dir/expect"); do
			differential "differential: $(basename "$dir") $mode" \
				"$WORK/$(basename "$dir")-$mode.log" case --modes "$mode" \
				--memory 256 --work "$WORK/eager" "$dir"
		done
	done
	differential "differential: 300 random trace sets (seeds 1 to 300), every mode" \
		"$WORK/random.log" random --memory 256 --work "$WORK/random" 1 300
else
	# ---- make differential ----
	cases=("$SRCDIR"/tests/model/cases/*/ "$SRCDIR"/tests/model/library/*/ \
		"$SRCDIR"/tests/model/reports/*/)
	differential "differential: every model case, the plain model of each mode" \
		"$WORK/cases.log" case --plain --work "$WORK/cases" "${cases[@]}"
	seed=${DIFFERENTIAL_SEED:-100000}
	count=${DIFFERENTIAL_COUNT:-3000}
	differential "differential: $count random trace sets from seed $seed" \
		"$WORK/random.log" random --work "$WORK/random" "$seed" "$count"
fi
echo "work directory: $WORK"
summary
