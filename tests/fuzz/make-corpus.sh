#!/bin/bash
# Remake the fuzz targets' seed corpora (tests/fuzz/corpus/TARGET/) from the examples: each
# example is compiled and recorded under mpirun, its trace printed as JSON and checked, and
# what that wrote becomes seeds: the rank files (trace: concatenated; json: joined by NUL
# bytes), meta.json, every model.dat and cex.json, the steering files of a few verify runs of
# examples/verify/, a few examples recorded with --timestamps (NAME-timed: traces with times,
# runs of failed polls and threads among them), a few recorded with --last 3 (NAME-window:
# windows of the run's last calls), and the cex.json files of the trace the
# cex target checks against (tests/model/cases/wildcard-race). Run by hand (it takes a few
# minutes); the corpora are committed, and make check only reads them.
set -u

. "$(dirname "$0")/../lib.sh"
require_tools "$MPICC" "$MPIRUN" spin
require_mpiverify
require_mpi_built

CORPUS=$SRCDIR/tests/fuzz/corpus
WORK=$(make_workdir corpus) || exit 1
# corpus/suppress/ is written by hand: kept
rm -rf "$CORPUS"/trace "$CORPUS"/json "$CORPUS"/cex "$CORPUS"/meta "$CORPUS"/model "$CORPUS"/steer
mkdir -p "$CORPUS"/trace "$CORPUS"/json "$CORPUS"/cex "$CORPUS"/meta "$CORPUS"/model \
	"$CORPUS"/steer

# keep FILE DEST MAX: move FILE to DEST if it holds at most MAX bytes, else drop it. A long
# polling run is no seed: the fuzzer works on inputs of a few KiB, and the corpora are
# committed.
keep()
{
	if test "$(stat -c %s "$1")" -le "$3"; then
		mv "$1" "$2"
	else
		rm -f "$1"
	fi
}

# seeds NAME DIR: the seeds of a trace directory DIR that was checked into DIR/check.
seeds()
{
	local name=$1 dir=$2 f r n
	n=0
	while test -f "$dir/rank-$n.mpivt" || test -f "$dir/rank-$n.json"; do
		n=$((n + 1))
	done
	test "$n" -gt 0 || return 0
	if test -f "$dir/rank-0.mpivt"; then
		for ((r = 0; r < n; r++)); do cat "$dir/rank-$r.mpivt"; done >"$WORK/$name.seed"
		keep "$WORK/$name.seed" "$CORPUS/trace/$name" 65536
		"$MPIVERIFY" trace -o "$WORK/$name.json" "$dir" >/dev/null 2>&1 || return 0
		dir_json=$WORK/$name.json
	else
		dir_json=$dir
	fi
	for ((r = 0; r < n; r++)); do
		test "$r" -gt 0 && printf '\0'
		cat "$dir_json/rank-$r.json"
	done >"$WORK/$name.json-seed"
	keep "$WORK/$name.json-seed" "$CORPUS/json/$name" 65536
	test -f "$dir/meta.json" && cp "$dir/meta.json" "$CORPUS/meta/$name.json"
	for f in "$dir"/check/*/model.dat; do
		test -f "$f" && cp "$f" "$WORK/model-seed" &&
			keep "$WORK/model-seed" "$CORPUS/model/start-$name-$(basename "$(dirname "$f")")" 65536
	done
	for f in "$dir"/check-spin/*/model.dat; do
		test -f "$f" && cp "$f" "$WORK/model-seed" &&
			keep "$WORK/model-seed" "$CORPUS/model/$name-$(basename "$(dirname "$f")")" 65536
	done
	for f in "$dir"/check/cex*.json; do
		test -f "$f" && cp "$f" "$CORPUS/cex/$name-$(basename "$f")"
	done
	return 0
}

cd "$SRCDIR" || exit 1
while IFS= read -r src; do
	parse_header "$src" >/dev/null || continue
	name=$(basename "$src" .c)
	"$MPICC" -g -O0 -o "$WORK/$name" "$src" || continue
	run_cmd "$WORK/$name.record.log" 90 "$MPIVERIFY" record -o "$WORK/$name.trace" \
		--deadlock-timeout 3 -- "$MPIRUN" -np "$NP" "$WORK/$name"
	run_cmd "$WORK/$name.check.log" 300 "$MPIVERIFY" check "$WORK/$name.trace" \
		--time-limit 60
	# check writes model.dat only where SPIN searches (from a start state): the whole
	# program of every mode too, as SPIN searches it from the start
	run_cmd "$WORK/$name.check-spin.log" 300 env MPIVERIFY_SPIN_FROM_START=1 "$MPIVERIFY" \
		check "$WORK/$name.trace" --time-limit 60 -o "$WORK/$name.trace/check-spin"
	seeds "$name" "$WORK/$name.trace"
	# verify's steering files: a few runs of the programs whose answer depends on paths
	case $src in
	examples/verify/*)
		run_cmd "$WORK/$name.verify.log" 120 "$MPIVERIFY" verify -o "$WORK/$name.verify" \
			--max-runs 3 --deadlock-timeout 3 -- "$MPIRUN" -np "$NP" "$WORK/$name"
		for f in "$WORK/$name.verify"/runs/*.steer; do
			test -f "$f" && cp "$f" "$CORPUS/steer/$name-$(basename "$f" .steer)"
		done
		;;
	esac
	echo "seeds of $name"
done < <(find examples -name '*.c' | LC_ALL=C sort)

# traces with times: point-to-point, collectives, a wildcard, runs of failed polls, threads
for name in ring-isend-irecv collectives wildcard-recv-order test-polling threads-exchange; do
	src=$(find examples -name "$name.c" | head -n 1)
	test -n "$src" && parse_header "$src" >/dev/null || continue
	"$MPICC" -g -O0 -o "$WORK/$name" "$src" -lpthread || continue
	run_cmd "$WORK/$name-timed.record.log" 90 "$MPIVERIFY" record --timestamps \
		-o "$WORK/$name-timed.trace" --deadlock-timeout 3 -- "$MPIRUN" -np "$NP" "$WORK/$name"
	seeds "$name-timed" "$WORK/$name-timed.trace"
	echo "seeds of $name, with times"
done

# windows of a run's last calls (record --last 3): restart records, with times and without
for name in ring-isend-irecv test-polling threads-exchange; do
	src=$(find examples -name "$name.c" | head -n 1)
	test -n "$src" && parse_header "$src" >/dev/null || continue
	"$MPICC" -g -O0 -o "$WORK/$name" "$src" -lpthread || continue
	for how in window window-timed; do
		run_cmd "$WORK/$name-$how.record.log" 90 "$MPIVERIFY" record --last 3 \
			$(test "$how" = window-timed && echo --timestamps) \
			-o "$WORK/$name-$how.trace" --deadlock-timeout 3 -- "$MPIRUN" -np "$NP" \
			"$WORK/$name"
		seeds "$name-$how" "$WORK/$name-$how.trace"
	done
	echo "seeds of $name, windows"
done

# the cex target's trace, checked in each mode: counterexamples of that very trace
cp -r "$SRCDIR/tests/model/cases/wildcard-race" "$WORK/wildcard-race"
for mode in zero infinite; do
	"$MPIVERIFY" check "$WORK/wildcard-race" --buffering "$mode" \
		-o "$WORK/wildcard-race/check-$mode" >/dev/null 2>&1
	cp "$WORK/wildcard-race/check-$mode/cex.json" "$CORPUS/cex/wildcard-race-$mode.json"
done
# steering with a buffering line, and the forms verify writes rarely
printf 'mpiverify-steer 1\nbuffering eager 8192\nrank 0 2\nMPI_Recv 0 -1 src 2\nMPI_Waitany -3 -3 reqs 1 4\nrank 1 1\nMPI_Waitsome -3 -3 reqs 2 0 1\n' \
	>"$CORPUS/steer/eager-recv-waitany"
printf 'mpiverify-steer 1\nbuffering zero\nrank 2 1\nMPI_Sendrecv 0 7 src 0\nrank 0 0\n' \
	>"$CORPUS/steer/zero-sendrecv"
# the seeds name this machine's directories: make them relative (relative-paths.py)
find "$CORPUS" -type f -exec python3 "$SRCDIR/tests/fuzz/relative-paths.py" "$SRCDIR" {} + ||
	echo "some paths could not be made relative (above)"
rm -rf "$WORK"
du -sh "$CORPUS"/*
