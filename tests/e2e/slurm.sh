#!/bin/bash
# End-to-end tests with a real Slurm cluster that the test starts itself (tests/slurm/cluster.sh:
# munged, slurmctld and slurmd from Debian's packages, more CPUs declared than the machine
# has): record, check, replay and verify through `srun --mpi=pmi2`, a real hang detected and its
# job ended, verify --jobs 2 inside an allocation running its runs as concurrent job steps with
# the answer of --jobs 1, and --time-limit ending every step. Then two nodes, each in network,
# UTS and mount namespaces of the test's own joined by a veth pair: a run spanning both, its
# hang detected across them; then the same with node-local trace directories (each node's own
# /tmp), gathered by mpiverify: record, a hang, replay and verify --jobs 2.
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

# verify inside an allocation: runs are job steps, two at once with --jobs 2 (the farm's
# second round has two runs)
verify_in_allocation()	# LOG JOBS DIR [ARGS...]
{
	local log=$1 jobs=$2 dir=$3
	shift 3
	run_cmd "$log" "$LIMIT" "${NODE_A[@]}" salloc -n 8 "$MPIVERIFY" verify -o "$dir" --jobs "$jobs" \
		--deadlock-timeout 3 --json "$@"
}
# farm_answer NAME LOG RUNS: one case, that verify of the correct farm under --max-runs RUNS
# gave one of its two right answers. Usually the bound ends it with decisions left (exit 5);
# but how many decisions the runs meet is the MPI library's timing (a first run in which one
# worker took most tasks meets few), and a verify that explored them all within the bound
# answers "no deadlock", complete (exit 0). Either way, nothing else.
farm_answer()
{
	local name=$1 log=$2 runs=$3
	if test "$RC" -eq 5; then
		expect "$name" 5 "$log" '"verdict": "inconclusive"' \
			"\"stopped_early\": \"--max-runs $runs reached\""
	else
		expect "$name" 0 "$log" '"verdict": "no deadlock"' '"complete": true'
	fi
}
verify_in_allocation "$WORK/verify1.log" 1 "$WORK/v1" --max-runs 3 -- \
	srun -n 4 --mpi=pmi2 "$WORK/farm-waitany"
farm_answer "slurm: verify --jobs 1 in an allocation" "$WORK/verify1.log" 3
watch_steps "$WORK/most-steps" &
watcher=$!
verify_in_allocation "$WORK/verify2.log" 2 "$WORK/v2" --max-runs 3 -- \
	srun -n 4 --mpi=pmi2 "$WORK/farm-waitany"
kill "$watcher" 2>/dev/null
wait "$watcher" 2>/dev/null
farm_answer "slurm: verify --jobs 2 in an allocation" "$WORK/verify2.log" 3
most=$(cat "$WORK/most-steps")
if test "$most" -ge 2; then
	pass "slurm: verify --jobs 2 ran two job steps at once ($most seen by squeue)"
else
	fail "slurm: verify --jobs 2 ran two job steps at once" "squeue showed at most $most" \
		"$WORK/verify2.log"
fi
# same_answer NAME LOG1 LOG2: one case, that two verify --json runs gave the same verdict,
# runs and reason to stop. (Not the decisions left: which orders the runs took, and so which
# decisions they met, is the MPI library's timing.) A verify that explored every decision
# within the bound (see farm_answer) gave the other right answer, and is not compared.
same_answer()
{
	local a1 a2
	a1=$(grep -E '"(verdict|stopped_early|runs)": [^[]' "$2")
	a2=$(grep -E '"(verdict|stopped_early|runs)": [^[]' "$3")
	if grep -q '"complete": true' "$2" "$3"; then
		pass "$1 (one explored every decision within the bound)"
	elif test -n "$a1" && test "$a1" = "$a2"; then
		pass "$1"
	else
		printf '%s\n---\n%s\n' "$a1" "$a2" >"$WORK/answers.log"
		fail "$1" "the answers differ" "$WORK/answers.log"
	fi
}
same_answer "slurm: verify --jobs 2 answers as --jobs 1" "$WORK/verify1.log" "$WORK/verify2.log"
no_jobs_left "slurm: verify left no job step"

verify_in_allocation "$WORK/verify-dl.log" 2 "$WORK/v3" -- \
	srun -n 3 --mpi=pmi2 "$WORK/first-sender-branch"
expect "slurm: verify confirms a deadlock through srun" 1 "$WORK/verify-dl.log" \
	'"verdict": "deadlock"' 'first-sender-branch.c:[0-9]'
check_gone "slurm: verify: no rank left" "$WORK/first-sender-branch"

# --time-limit ends every step under way (1 s: far less than the farm's paths take)
verify_in_allocation "$WORK/verify-limit.log" 2 "$WORK/v4" --time-limit 1 -- \
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
farm_answer "slurm: verify --jobs 2 in a two-node allocation" "$WORK/verify2n.log" 4
no_jobs_left "slurm: the two-node verify left no job step"

# Node-local trace directories: -o under /tmp, which is each node's own. Inside a two-node
# allocation the ranks write where they run, a helper on each node watches its ranks, and
# mpiverify gathers every node's files afterwards (doc/cluster.md).
LOCAL=/tmp/mpiverify-e2e-$$
# hosts_of DIR: the hosts the status files in DIR (on node A; a pattern) name, sorted, on one
# line.
hosts_of()
{
	on_node A sh -c "cat $1/rank-*.status 2>/dev/null" | tr -c 'a-z\n' '\n' |
		grep -x 'node[ab]' | sort -u | tr '\n' ' '
}
run_cmd "$WORK/local-ok.log" "$LIMIT" "${NODE_A[@]}" salloc -N 2 -n 4 "$MPIVERIFY" record \
	-o "$LOCAL/t-ok" -- srun -n 4 --mpi=pmi2 "$WORK/farm-waitany"
expect "slurm: record into node-local directories across two nodes" 0 "$WORK/local-ok.log" \
	"traces in"
if on_node B test -e "$LOCAL/t-ok/rank-0.mpivt" 2>/dev/null ||
	! on_node B sh -c "ls $LOCAL/t-ok/rank-*.mpivt" >/dev/null 2>&1; then
	fail "slurm: node b's ranks wrote into node b's own directory" \
		"node b holds rank 0's trace, or no trace at all" "$WORK/local-ok.log"
else
	pass "slurm: node b's ranks wrote into node b's own directory"
fi
n=$(on_node A sh -c "ls $LOCAL/t-ok/rank-*.mpivt 2>/dev/null" | grep -c .)
hosts=$(hosts_of "$LOCAL/t-ok")
if test "$n" = 4 && test "$hosts" = "nodea nodeb "; then
	pass "slurm: every node's traces gathered onto node a (4 ranks, on: $hosts)"
else
	fail "slurm: every node's traces gathered onto node a" "$n traces, ranks on '$hosts'" \
		"$WORK/local-ok.log"
fi
run_cmd "$WORK/local-check.log" "$LIMIT" "${NODE_A[@]}" "$MPIVERIFY" check "$LOCAL/t-ok"
expect "slurm: check of the gathered traces" 0 "$WORK/local-check.log" "no deadlock"

run_cmd "$WORK/local-hang.log" "$LIMIT" "${NODE_A[@]}" salloc -N 2 -n 4 "$MPIVERIFY" record \
	-o "$LOCAL/t-hang" --deadlock-timeout 3 -- srun -n 4 --mpi=pmi2 "$WORK/recv-cycle"
expect "slurm: a hang across two nodes with node-local directories is detected" 1 \
	"$WORK/local-hang.log" "deadlocked" \
	"rank 0: blocked in MPI_Recv .*recv-cycle.c" "rank 3: blocked in MPI_Recv .*recv-cycle.c" \
	"#0 recv-cycle.c:[0-9]+"
hosts=$(hosts_of "$LOCAL/t-hang")
if test "$hosts" = "nodea nodeb "; then
	pass "slurm: the hung job's ranks ran on both nodes"
else
	fail "slurm: the hung job's ranks ran on both nodes" "status files name '$hosts'" \
		"$WORK/local-hang.log"
fi
no_jobs_left "slurm: the hung job with node-local directories was ended"
check_gone "slurm: no rank of it left on either node" "$WORK/recv-cycle"

run_cmd "$WORK/local-wild.log" "$LIMIT" "${NODE_A[@]}" salloc -N 2 -n 4 "$MPIVERIFY" record \
	-o "$LOCAL/t-wild" -- srun -n 4 --mpi=pmi2 "$WORK/wildcard-recv-order"
expect "slurm: record wildcard-recv-order into node-local directories" 0 "$WORK/local-wild.log"
run_cmd "$WORK/local-wild-check.log" "$LIMIT" "${NODE_A[@]}" "$MPIVERIFY" check \
	--buffering zero "$LOCAL/t-wild"
expect "slurm: check finds its deadlock" 1 "$WORK/local-wild-check.log" "deadlock"
run_cmd "$WORK/local-replay.log" "$LIMIT" "${NODE_A[@]}" salloc -N 2 -n 4 "$MPIVERIFY" replay \
	--timeout 3 --trace "$LOCAL/t-wild/check/cex.json"
expect "slurm: replay across two nodes, the traces sent to each" 1 "$WORK/local-replay.log" \
	"^reproduced"
check_gone "slurm: no rank of the replay left" "$WORK/wildcard-recv-order"

run_cmd "$WORK/local-verify.log" "$LIMIT" "${NODE_A[@]}" salloc -N 2 -n 8 "$MPIVERIFY" verify \
	-o "$LOCAL/v" --jobs 2 --deadlock-timeout 3 --max-runs 4 --json -- \
	srun -n 4 --mpi=pmi2 "$WORK/farm-waitany"
farm_answer "slurm: verify --jobs 2 in a two-node allocation, node-local -o" \
	"$WORK/local-verify.log" 4
same_answer "slurm: node-local -o gives the answer of a shared one" "$WORK/verify2n.log" \
	"$WORK/local-verify.log"
hosts=$(hosts_of "$LOCAL/v/runs/*")
if test "$hosts" = "nodea nodeb "; then
	pass "slurm: verify's runs ran on both nodes, their files gathered"
else
	fail "slurm: verify's runs ran on both nodes, their files gathered" \
		"status files name '$hosts'" "$WORK/local-verify.log"
fi
run_cmd "$WORK/local-verify-dl.log" "$LIMIT" "${NODE_A[@]}" salloc -N 2 -n 8 "$MPIVERIFY" \
	verify -o "$LOCAL/v-dl" --jobs 2 --deadlock-timeout 3 -- \
	srun -N 2 -n 3 --mpi=pmi2 "$WORK/first-sender-branch"
expect "slurm: verify confirms a deadlock across two nodes, node-local -o" 1 \
	"$WORK/local-verify-dl.log" "verdict: 1 deadlock confirmed" 'first-sender-branch.c:[0-9]'
# A deadlock the model predicts is confirmed once every rank has sat still where the model has
# it (the nodes' status files gathered then), not after the timeout (30 s here; a run that
# hangs where the model did not predict it waits for it). One run at a time: a run's time is
# then its own, not also its wait for CPUs another run's step holds.
run_cmd "$WORK/local-verify-pred.log" "$LIMIT" "${NODE_A[@]}" salloc -N 2 -n 8 "$MPIVERIFY" \
	verify -o "$LOCAL/v-pred" --jobs 1 --deadlock-timeout 30 --json -- \
	srun -N 2 -n 4 --mpi=pmi2 "$WORK/wildcard-recv-order"
expect "slurm: verify confirms a predicted deadlock across two nodes" 1 \
	"$WORK/local-verify-pred.log" '"verdict": "deadlock"' '"end": "deadlocked as predicted"'
took=$(awk '/"end": "deadlocked as predicted"/ { p = 1 }
	p && /"started"/ { gsub(/[^0-9.]/, ""); s = $0 }
	p && /"ended"/ { gsub(/[^0-9.]/, ""); print $0 - s; exit }' "$WORK/local-verify-pred.log")
if test -n "$took" && awk -v t="$took" 'BEGIN { exit !(t < 15) }'; then
	pass "slurm: its run confirmed it without the 30 s timeout (${took} s)"
else
	fail "slurm: its run confirmed it without the 30 s timeout" "the run took '$took' s" \
		"$WORK/local-verify-pred.log"
fi
no_jobs_left "slurm: verify with node-local directories left no job step"
check_gone "slurm: verify: no rank left on either node" "$WORK/first-sender-branch"
check_gone "slurm: verify: no rank of the predicted deadlock left" "$WORK/wildcard-recv-order"
summary
