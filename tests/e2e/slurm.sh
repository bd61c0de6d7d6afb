#!/bin/bash
# End-to-end tests with a real Slurm cluster that the test starts itself (tests/slurm/cluster.sh:
# munged, slurmctld and slurmd from Debian's packages, more CPUs declared than the machine
# has): record, check, replay and verify through `srun --mpi=pmi2`, a real hang detected and its
# job ended, verify --jobs 2 inside an allocation running its runs as concurrent job steps with
# the answer of --jobs 1, and --time-limit ending every step. Then two nodes, each in network,
# UTS and mount namespaces of the test's own joined by a veth pair: a run spanning both, its
# hang detected across them.
#
# Prints `ok NAME` or `FAIL NAME: why` per case and ends with `N passed, M failed`.
# Exit status: 0 all passed, 1 a case failed, 77 skipped (Slurm, munge, root or MPI missing).
# Holds no lock itself: run it, as make check is run, under the shared mpirun lock.
set -u

. "$(dirname "$0")/../lib.sh"
. "$SRCDIR/tests/slurm/cluster.sh"

require_tools "$MPICC" spin
require_mpiverify
cluster_need

WORK=$(make_workdir slurm) || exit 1
cd "$WORK" || exit 1
CPUS=16
LIMIT=240

cleanup()
{
	cluster_stop
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for src in ok/sendrecv-ring deadlock/recv-cycle deadlock/wildcard-recv-order \
	verify/farm-waitany verify/first-sender-branch; do
	"$MPICC" -g -o "$WORK/${src#*/}" "$SRCDIR/examples/$src.c" 2>"$WORK/compile.log" ||
		{ fail "compile $src" "mpicc failed" "$WORK/compile.log"; summary; exit 1; }
done

# steps_now: the job steps running on the cluster, one a line.
steps_now()
{
	on_node A squeue -h -s -o %i 2>/dev/null | grep -E '^[0-9]+\.[0-9]+$'
}

# no_jobs_left NAME: one case, that no job or step is left on the cluster (5 s to go).
no_jobs_left()
{
	local i left
	for i in $(seq 25); do
		left=$(on_node A squeue -h -o %i 2>/dev/null)
		test -z "$left" && { pass "$1"; return; }
		sleep 0.2
	done
	echo "$left" >"$WORK/left.log"
	fail "$1" "jobs still on the cluster" "$WORK/left.log"
}

# watch_steps FILE: in the background, the largest number of job steps seen running at once,
# written to FILE every time it grows; stopped with kill.
watch_steps()
{
	local most=0 n
	echo 0 >"$1"
	while :; do
		n=$(steps_now | grep -c .)
		if test "$n" -gt "$most"; then
			most=$n
			echo "$most" >"$1"
		fi
		sleep 0.2
	done
}

# ---- one node ----
if ! cluster_start_one "$WORK/cluster1" "$CPUS"; then
	cat "$WORK"/cluster1/log/*.log >"$WORK/cluster1.log" 2>/dev/null
	fail "slurm: a one-node cluster starts" "slurmctld or slurmd did not come up" \
		"$WORK/cluster1.log"
	summary
	exit 1
fi
pass "slurm: a one-node cluster starts ($CPUS CPUs declared)"

run_cmd "$WORK/record-ok.log" "$LIMIT" "${NODE_A[@]}" "$MPIVERIFY" record -o "$WORK/t-ok" -- \
	srun -n 3 --mpi=pmi2 "$WORK/sendrecv-ring"
expect "slurm: record through srun --mpi=pmi2" 0 "$WORK/record-ok.log" "traces in"
if test -f "$WORK/t-ok/rank-2.mpivt" && test -f "$WORK/t-ok/meta.json"; then
	pass "slurm: record wrote a trace per rank"
else
	fail "slurm: record wrote a trace per rank" "no rank-2.mpivt or meta.json" \
		"$WORK/record-ok.log"
fi
run_cmd "$WORK/check-ok.log" "$LIMIT" "$MPIVERIFY" check "$WORK/t-ok"
expect "slurm: check of a run recorded through srun" 0 "$WORK/check-ok.log"

run_cmd "$WORK/record-hang.log" "$LIMIT" "${NODE_A[@]}" "$MPIVERIFY" record -o "$WORK/t-hang" \
	--deadlock-timeout 3 -- srun -n 3 --mpi=pmi2 "$WORK/recv-cycle"
expect "slurm: record detects a real hang under srun" 1 "$WORK/record-hang.log" \
	"deadlocked" "blocked in MPI_Recv"
no_jobs_left "slurm: the hung job was ended"
check_gone()
{
	if no_leftovers "$2"; then
		pass "$1"
	else
		echo "$LEFTOVERS" >"$WORK/leftovers.log"
		fail "$1" "processes of '$2' still running (killed now)" "$WORK/leftovers.log"
	fi
}
check_gone "slurm: no rank of the hung job left" "$WORK/recv-cycle"

run_cmd "$WORK/record-wild.log" "$LIMIT" "${NODE_A[@]}" "$MPIVERIFY" record -o "$WORK/t-wild" -- \
	srun -n 3 --mpi=pmi2 "$WORK/wildcard-recv-order"
expect "slurm: record wildcard-recv-order" 0 "$WORK/record-wild.log"
run_cmd "$WORK/check-wild.log" "$LIMIT" "$MPIVERIFY" check --buffering zero "$WORK/t-wild"
expect "slurm: check finds the deadlock" 1 "$WORK/check-wild.log" "deadlock"
run_cmd "$WORK/replay-wild.log" "$LIMIT" "${NODE_A[@]}" "$MPIVERIFY" replay --timeout 3 \
	--trace "$WORK/t-wild/check/cex.json"
expect "slurm: replay reproduces it through srun (the recorded command)" 1 \
	"$WORK/replay-wild.log" "^reproduced"
no_jobs_left "slurm: the replayed job was ended"
check_gone "slurm: no rank of the replayed job left" "$WORK/wildcard-recv-order"

# verify inside an allocation: runs are job steps, two at once with --jobs 2
verify_in_allocation()	# LOG JOBS DIR [ARGS...]
{
	local log=$1 jobs=$2 dir=$3
	shift 3
	run_cmd "$log" "$LIMIT" "${NODE_A[@]}" salloc -n 8 "$MPIVERIFY" verify -o "$dir" --jobs "$jobs" \
		--deadlock-timeout 3 --json "$@"
}
verify_in_allocation "$WORK/verify1.log" 1 "$WORK/v1" --max-runs 6 -- \
	srun -n 4 --mpi=pmi2 "$WORK/farm-waitany"
expect "slurm: verify --jobs 1 in an allocation" 5 "$WORK/verify1.log" '"verdict": "inconclusive"'
watch_steps "$WORK/most-steps" &
watcher=$!
verify_in_allocation "$WORK/verify2.log" 2 "$WORK/v2" --max-runs 6 -- \
	srun -n 4 --mpi=pmi2 "$WORK/farm-waitany"
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
expect "slurm: verify --jobs 2 in an allocation" 5 "$WORK/verify2.log" '"verdict": "inconclusive"'
most=$(cat "$WORK/most-steps")
if test "$most" -ge 2; then
	pass "slurm: verify --jobs 2 ran two job steps at once ($most seen by squeue)"
else
	fail "slurm: verify --jobs 2 ran two job steps at once" "squeue showed at most $most" \
		"$WORK/verify2.log"
fi
a1=$(grep -E '"(verdict|decisions_left|runs)": [^[]' "$WORK/verify1.log")
a2=$(grep -E '"(verdict|decisions_left|runs)": [^[]' "$WORK/verify2.log")
if test -n "$a1" && test "$a1" = "$a2"; then
	pass "slurm: verify --jobs 2 answers as --jobs 1"
else
	printf '%s\n---\n%s\n' "$a1" "$a2" >"$WORK/answers.log"
	fail "slurm: verify --jobs 2 answers as --jobs 1" "the answers differ" "$WORK/answers.log"
fi
no_jobs_left "slurm: verify left no job step"

verify_in_allocation "$WORK/verify-dl.log" 2 "$WORK/v3" -- \
	srun -n 3 --mpi=pmi2 "$WORK/first-sender-branch"
expect "slurm: verify confirms a deadlock through srun" 1 "$WORK/verify-dl.log" \
	'"verdict": "deadlock"' 'first-sender-branch.c:[0-9]'
check_gone "slurm: verify: no rank left" "$WORK/first-sender-branch"

# --time-limit ends every step under way
verify_in_allocation "$WORK/verify-limit.log" 2 "$WORK/v4" --time-limit 4 -- \
	srun -n 4 --mpi=pmi2 "$WORK/farm-waitany"
expect "slurm: verify --time-limit stops with decisions left" 5 "$WORK/verify-limit.log" \
	'"stopped_early": "--time-limit reached"'
no_jobs_left "slurm: --time-limit ended every job step"
check_gone "slurm: --time-limit: no rank left" "$WORK/farm-waitany"

# Ctrl-C (SIGINT to verify alone: it passes it on to its runs) ends every step under way
"${NODE_A[@]}" salloc -n 8 "$MPIVERIFY" verify -o "$WORK/v5" --jobs 2 --deadlock-timeout 3 -- \
	srun -n 4 --mpi=pmi2 "$WORK/farm-waitany" >"$WORK/verify-int.log" 2>&1 </dev/null &
bg=$!
for _ in $(seq 150); do
	test -n "$(steps_now)" && break
	sleep 0.2
done
pid=$(pgrep -o -f -- "^$MPIVERIFY verify -o $WORK/v5 ")
test -n "$pid" && kill -INT "$pid"
RC=0
wait "$bg" || RC=$?
expect "slurm: verify interrupted while its steps run exits 130" 130 "$WORK/verify-int.log" \
	"interrupted|signal 2"
no_jobs_left "slurm: the interruption ended every job step"
check_gone "slurm: interrupted: no rank left" "$WORK/farm-waitany"
cluster_stop

# ---- two nodes ----
mkdir -p "$WORK/cluster2"
if ! cluster_start_two "$WORK/cluster2" "$CPUS"; then
	if test -n "$CLUSTER_SKIP"; then
		echo "skipped: two nodes: $CLUSTER_SKIP"
	else
		cat "$WORK"/cluster2/log/*.log >"$WORK/cluster2.log" 2>/dev/null
		fail "slurm: a two-node cluster starts" "slurmctld or a slurmd did not come up" \
			"$WORK/cluster2.log"
	fi
	summary
	exit $?
fi
pass "slurm: two nodes in namespaces of their own, joined by a veth pair"
# the trace directory is on a file system both nodes see (the test's directory; each node's
# /tmp is its own)
run_cmd "$WORK/record2-ok.log" "$LIMIT" "${NODE_A[@]}" "$MPIVERIFY" record -o "$WORK/t2-ok" -- \
	srun -N 2 -n 4 --mpi=pmi2 "$WORK/farm-waitany"
expect "slurm: record a 4-rank run spanning two nodes" 0 "$WORK/record2-ok.log"
hosts=$(cat "$WORK"/t2-ok/rank-*.status 2>/dev/null | tr -c 'a-z\n' '\n' | grep -x 'node[ab]' |
	sort -u | tr '\n' ' ')
if test "$hosts" = "nodea nodeb "; then
	pass "slurm: its ranks ran on nodea and nodeb"
else
	fail "slurm: its ranks ran on nodea and nodeb" "status files name: '$hosts'" \
		"$WORK/record2-ok.log"
fi
run_cmd "$WORK/record2-hang.log" "$LIMIT" "${NODE_A[@]}" "$MPIVERIFY" record -o "$WORK/t2-hang" \
	--deadlock-timeout 3 -- srun -N 2 -n 4 --mpi=pmi2 "$WORK/recv-cycle"
expect "slurm: a hang across two nodes is detected" 1 "$WORK/record2-hang.log" "deadlocked"
no_jobs_left "slurm: the hung two-node job was ended"
check_gone "slurm: no rank of it left on either node" "$WORK/recv-cycle"
run_cmd "$WORK/verify2n.log" "$LIMIT" "${NODE_A[@]}" salloc -N 2 -n 8 "$MPIVERIFY" verify \
	-o "$WORK/v2n" --jobs 2 --deadlock-timeout 3 --max-runs 4 --json -- \
	srun -n 4 --mpi=pmi2 "$WORK/farm-waitany"
expect "slurm: verify --jobs 2 in a two-node allocation" 5 "$WORK/verify2n.log" \
	'"verdict": "inconclusive"' '"stopped_early": "--max-runs 4 reached"'
no_jobs_left "slurm: the two-node verify left no job step"
summary
