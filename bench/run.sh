#!/bin/bash
# make bench: figures as ratios within one run, never timed tests.
#  1. recording overhead: a two-rank ping-pong under the same mpirun, with and without the
#     recorder (best of 3 each), and trace bytes per operation;
#  2. check time and peak memory against trace size: a wildcard-free halo exchange
#     (ranks x iterations) and a master/worker with MPI_ANY_SOURCE receives.
set -u

. "$(dirname "$0")/../tests/lib.sh"
require_tools mpicc mpirun spin
require_mpiverify
WORK=$(make_workdir bench)
cd "$WORK" || exit 1

"$MPICC" -O2 -o pingpong "$SRCDIR/bench/pingpong.c" || exit 1
cc -O2 -I"$SRCDIR/common" -o gen_trace "$SRCDIR/bench/gen_trace.c" "$SRCDIR/common/tracefmt.c" \
	"$SRCDIR/common/event.c" || exit 1

best()	# best (smallest) seconds of three runs of "$@", whose last output word is seconds
{
	local b='' s
	for _ in 1 2 3; do
		s=$("$@" 2>/dev/null | awk 'NF == 2 { print $2 }' | tail -n 1)
		if test -z "$b" || awk -v s="$s" -v b="$b" 'BEGIN { exit !(s < b) }'; then b=$s; fi
	done
	echo "$b"
}

ITERS=20000
echo "== recording overhead: ping-pong, 2 ranks, $ITERS round trips, best of 3"
plain=$(best mpirun -np 2 ./pingpong $ITERS)
rec=$(best "$MPIVERIFY" record -o trace-pp -- mpirun -np 2 ./pingpong $ITERS)
ops=$((4 * ITERS))
bytes=$(cat trace-pp/rank-*.mpivt | wc -c)
awk -v p="$plain" -v r="$rec" -v b="$bytes" -v o="$ops" 'BEGIN {
	printf "plain %.3f s, recorded %.3f s: ratio %.2fx; %.1f us per recorded call\n",
		p, r, r / p, (r - p) * 1e6 / (o / 2);
	printf "trace: %d bytes for %d operations, %.1f bytes per operation\n", b, o, b / o }'

echo
echo "== check time and peak memory against trace size (--buffering all)"
printf '%-28s %10s %10s %10s\n' trace operations seconds "peak MiB"
bench_check()	# NAME GENERATOR-ARGS...
{
	local name=$1 dir=trace-$1 t rc ops
	shift
	rm -rf "$dir" && mkdir -p "$dir" && ./gen_trace "$1" "$dir" "$2" "$3"
	ops=$("$MPIVERIFY" trace "$dir" | grep -c '"call"')
	/usr/bin/time -f '%e %M' -o time.out "$MPIVERIFY" check "$dir" -o "$dir.check" \
		>"$dir.log" 2>&1
	rc=$?
	read -r t mem <time.out
	printf '%-28s %10s %10s %10.0f   exit %d\n' "$name" "$ops" "$t" "$(awk -v m="$mem" 'BEGIN { print m / 1024 }')" "$rc"
}
command -v /usr/bin/time >/dev/null || { echo "skipped: /usr/bin/time missing (apt-get install time)"; exit 0; }
for size in "8 100" "16 500" "64 100" "64 1000"; do
	set -- $size
	bench_check "halo ${1}x${2}" halo "$1" "$2"
done
for size in "2 4" "4 2" "4 3" "6 2"; do
	set -- $size
	bench_check "master/worker ${1}x${2}" mw "$1" "$2"
done
echo
echo "work directory: $WORK"
