# shellcheck shell=bash
# A real Slurm cluster for the tests, started and stopped by the test itself (sourced, not run):
# munged, slurmctld and slurmd from Debian's slurm-wlm and munge, with a configuration in a
# directory of the test's own. slurmd declares more CPUs than the machine has
# (SlurmdParameters=config_overrides), so that several 4-rank job steps fit at once.
#
#   cluster_need                     exit 77, saying why, where a cluster cannot be had
#   cluster_start_one DIR CPUS       one node, on this host's loopback
#   cluster_start_two DIR CPUS       two nodes, "nodea" and "nodeb": each in a network, UTS
#                                    and mount namespace the test makes, joined by a veth
#                                    pair, with its own hostname and its own /tmp; returns 1
#                                    (CLUSTER_SKIP says why) where namespaces cannot be made
#   on_node A|B CMD...               run CMD on a node (in its namespaces; on this host for
#                                    the one-node cluster), SLURM_CONF set; "${NODE_A[@]}"
#                                    CMD... the same where a function cannot be (timeout)
#   cluster_stop                     end every job, daemon and namespace it started
#
# Every process the cluster starts carries MPIVERIFY_SLURM_TEST=DIR in its environment, which
# is how cluster_stop finds the job steps' processes (slurmstepd and the ranks) to end.

# cluster_need: skip (exit 77) unless the Slurm and munge daemons are installed and we are root
# (slurmd runs the job steps as their user, which needs root).
cluster_need()
{
	local t
	for t in slurmctld slurmd srun salloc squeue scancel sinfo munged; do
		if ! command -v "$t" >/dev/null 2>&1; then
			echo "skipped: '$t' not found (install slurmctld, slurmd, slurm-client and munge)"
			exit 77
		fi
	done
	if test "$(id -u)" -ne 0; then
		echo "skipped: the test starts slurmd, which must run as root"
		exit 77
	fi
	if ! test -e /usr/lib/x86_64-linux-gnu/slurm-wlm/mpi_pmi2.so &&
		! srun --mpi=list 2>/dev/null | grep -q pmi2; then
		echo "skipped: Slurm's PMI2 plugin (mpi_pmi2.so, slurm-wlm-basic-plugins) not found"
		exit 77
	fi
}

# free_port FROM: the first TCP port from FROM on that nothing listens on.
free_port()
{
	local p=$1
	while ss -Htln "sport = :$p" 2>/dev/null | grep -q .; do
		p=$((p + 1))
	done
	echo "$p"
}

# cluster_conf DIR CTLD_HOST CTLD_ADDR NODE_LINES: the configuration, with ports of its own.
cluster_conf()
{
	local dir=$1 host=$2 addr=$3 nodes=$4 names=$5 port
	port=$(free_port $((16800 + $$ % 1000 * 2)))
	cat >"$dir/slurm.conf" <<CONF
ClusterName=mpiverify
SlurmctldHost=$host($addr)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/socket
CredType=cred/munge
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd-%n.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
MpiDefault=none
ReturnToService=2
SlurmdTimeout=10
InactiveLimit=0
KillWait=2
SlurmdParameters=config_overrides
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
$nodes
PartitionName=test Nodes=$names Default=YES MaxTime=INFINITE State=UP
CONF
}

# start_munge DIR: munged with a key of its own; its socket is a file, which every node's
# namespaces see.
start_munge()
{
	local dir=$1
	mkdir -p "$dir/munge" "$dir/log" "$dir/state" "$dir/spool"
	chmod 700 "$dir/munge"
	head -c 1024 /dev/urandom >"$dir/munge/munge.key"
	chmod 600 "$dir/munge/munge.key"
	env MPIVERIFY_SLURM_TEST="$dir" munged -f --socket="$dir/munge/socket" \
		--key-file="$dir/munge/munge.key" --log-file="$dir/log/munged.log" \
		--pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/seed" 2>>"$dir/log/setup.log"
}

# wait_nodes N: until N nodes are idle (30 s at most).
wait_nodes()
{
	local i
	for i in $(seq 1 150); do
		test "$(on_node A sinfo -h -t idle -o %n 2>/dev/null | grep -c .)" -ge "$1" && return 0
		sleep 0.2
	done
	return 1
}

CLUSTER_DIR=''
CLUSTER_NS_A=''
CLUSTER_NS_B=''
CLUSTER_SKIP=''

# NODE_A, NODE_B: the words that run a command on a node, for run_cmd and the like.
NODE_A=()
NODE_B=()

set_nodes()
{
	local mark=("env" "SLURM_CONF=$CLUSTER_DIR/slurm.conf" "MPIVERIFY_SLURM_TEST=$CLUSTER_DIR")
	if test -z "$CLUSTER_NS_A"; then
		NODE_A=("${mark[@]}")
		NODE_B=("${mark[@]}")
	else
		NODE_A=(nsenter -t "$CLUSTER_NS_A" -n -u -m -- "${mark[@]}")
		NODE_B=(nsenter -t "$CLUSTER_NS_B" -n -u -m -- "${mark[@]}")
	fi
}

on_node()
{
	local node=$1
	shift
	case $node in
	A) "${NODE_A[@]}" "$@" ;;
	*) "${NODE_B[@]}" "$@" ;;
	esac
}

cluster_start_one()
{
	local dir=$1 cpus=$2 host
	CLUSTER_DIR=$dir
	set_nodes
	host=$(hostname -s)
	start_munge "$dir" || return 1
	cluster_conf "$dir" "$host" 127.0.0.1 \
		"NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus State=UNKNOWN" "$host"
	on_node A slurmctld -f "$dir/slurm.conf" 2>>"$dir/log/setup.log" &&
		on_node A slurmd -f "$dir/slurm.conf" -N "$host" 2>>"$dir/log/setup.log" &&
		wait_nodes 1
}

# in_ns PID CMD...: run CMD in the namespaces of PID.
in_ns()
{
	local pid=$1
	shift
	nsenter -t "$pid" -n -u -m -- "$@"
}

# own_tmp DIR: the shell commands that give a node's namespace a /tmp of its own, a tmpfs;
# when DIR (the cluster's files, on the "shared file system") is under /tmp, the tree holding
# it is bound back in at the same path, as a shared file system would be mounted.
own_tmp()
{
	local top
	case $1 in
	/tmp/*)
		top=${1#/tmp/}
		top=${top%%/*}
		echo "mount --bind /tmp /mnt && mount -t tmpfs tmpfs /tmp &&
			mkdir -p '/tmp/$top' && mount --bind '/mnt/$top' '/tmp/$top'"
		;;
	*) echo "mount -t tmpfs tmpfs /tmp" ;;
	esac
}

cluster_start_two()
{
	local dir=$1 cpus=$2 a=mvva$$ b=mvvb$$
	CLUSTER_DIR=$dir
	a=${a:0:15}
	b=${b:0:15}
	# the namespaces: a process that sleeps in each holds them
	unshare -n -u -m --propagation private sleep 100000 &
	CLUSTER_NS_A=$!
	unshare -n -u -m --propagation private sleep 100000 &
	CLUSTER_NS_B=$!
	sleep 0.3
	if ! kill -0 "$CLUSTER_NS_A" 2>/dev/null || ! kill -0 "$CLUSTER_NS_B" 2>/dev/null; then
		CLUSTER_SKIP="unshare cannot make network, UTS and mount namespaces here"
		return 1
	fi
	if ! ip link add "$a" type veth peer name "$b" 2>>"$dir/setup.err" ||
		! ip link set "$a" netns "$CLUSTER_NS_A" 2>>"$dir/setup.err" ||
		! ip link set "$b" netns "$CLUSTER_NS_B" 2>>"$dir/setup.err"; then
		CLUSTER_SKIP="a veth pair cannot be made between namespaces: $(head -n 1 "$dir/setup.err")"
		return 1
	fi
	# the addresses exist only in these two namespaces
	printf '127.0.0.1 localhost\n10.207.0.1 nodea\n10.207.0.2 nodeb\n' >"$dir/hosts"
	mkdir -p "$dir/tmp-a" "$dir/tmp-b"
	in_ns "$CLUSTER_NS_A" sh -c "hostname nodea && ip link set lo up &&
		ip addr add 10.207.0.1/24 dev $a && ip link set $a up &&
		mount --bind '$dir/hosts' /etc/hosts && $(own_tmp "$dir")" ||
		{ CLUSTER_SKIP="cannot set up node a's namespaces"; return 1; }
	in_ns "$CLUSTER_NS_B" sh -c "hostname nodeb && ip link set lo up &&
		ip addr add 10.207.0.2/24 dev $b && ip link set $b up &&
		mount --bind '$dir/hosts' /etc/hosts && $(own_tmp "$dir")" ||
		{ CLUSTER_SKIP="cannot set up node b's namespaces"; return 1; }
	set_nodes
	start_munge "$dir" || { CLUSTER_SKIP="munged does not start"; return 1; }
	cluster_conf "$dir" nodea 10.207.0.1 \
		"NodeName=nodea NodeAddr=10.207.0.1 CPUs=$cpus State=UNKNOWN
NodeName=nodeb NodeAddr=10.207.0.2 CPUs=$cpus State=UNKNOWN" "nodea,nodeb"
	on_node A slurmctld -f "$dir/slurm.conf" 2>>"$dir/log/setup.log" &&
		on_node A slurmd -f "$dir/slurm.conf" -N nodea 2>>"$dir/log/setup.log" &&
		on_node B slurmd -f "$dir/slurm.conf" -N nodeb 2>>"$dir/log/setup.log" &&
		wait_nodes 2
}

# marked_pids DIR: the processes whose environment carries the cluster's mark.
marked_pids()
{
	local f pid
	for f in /proc/[0-9]*/environ; do
		pid=${f#/proc/}
		pid=${pid%/environ}
		test "$pid" = "$$" && continue
		if { tr '\0' '\n' <"$f"; } 2>/dev/null | grep -qx "MPIVERIFY_SLURM_TEST=$1"; then
			echo "$pid"
		fi
	done
}

cluster_stop()
{
	local dir=$CLUSTER_DIR pids i
	test -n "$dir" || return 0
	if test -f "$dir/slurm.conf"; then
		timeout 10 env SLURM_CONF="$dir/slurm.conf" scancel --quiet --user=root \
			>/dev/null 2>&1 || true
	fi
	# the daemons and what they started, by the mark (slurmd and slurmctld first: they
	# would start more)
	for i in 1 2 3; do
		pids=$(marked_pids "$dir")
		test -z "$pids" && break
		# shellcheck disable=SC2086
		kill -TERM $pids 2>/dev/null
		sleep 1
	done
	pids=$(marked_pids "$dir")
	# shellcheck disable=SC2086
	test -z "$pids" || kill -KILL $pids 2>/dev/null
	for pid in $CLUSTER_NS_A $CLUSTER_NS_B; do
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	CLUSTER_NS_A=''
	CLUSTER_NS_B=''
	CLUSTER_DIR=''
}
