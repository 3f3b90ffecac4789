#!/usr/bin/env bash
# Call D: GPU 0 and cores 0-15 measure (CUDA start-up phases, the CUDA tests with both RANMAR
# grids, validate, generation benches, Crush with 16/8/4 workers, BigCrush); GPU 3 and cores
# 48-63 the lattice bench; GPUs 1 and 2 (cores 16-47) the BigCrush campaign, GPU 0 joining it after.
cd "$(dirname "$0")" && mkdir -p w && tar xJf bin.tar.xz -C w && cd w || exit 1
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
B=$PWD/rngvet-z
S=$(date +%s) END=$(( $(date +%s) + ${1:-540} ))
exec 3>>"$OUT/times.txt"
T() { local a=$(date +%s.%N); "$@"; local rc=$?; echo "rc $rc, $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $a}") s: $*" >&3; return $rc; }
P() { (cd "$OUT" && for f in "$@"; do [ -e "$f" ] && tar rf out.tar "$f" && rm -f "$f"; done); }
G="env CUDA_VISIBLE_DEVICES=0 taskset -c 0-15"
BOOK="--generator mtdc --params fixstars-mt521 --instances 32 --layout block:1000 --seeding stride:13311 --seed 0"
./camp.sh "$END" queue "80-89 30-39 40-49 50-59 60-69 70-79 90-99 100-109 110-119 24-29"
{
nvidia-smi -L; nproc; uname -r; date -u
nvidia-smi -q | grep -iE "persistence|driver version|compute mode" | sort -u
( ./lanes.sh "$END" "1 2" ) &
LANES=$!
( export CUDA_VISIBLE_DEVICES=3
  T timeout 280 taskset -c 48-63 "$B" bench --lattice --backend cuda --seconds 0.3 > "$OUT/lattice.txt" 2>&1
  left=$(( END - $(date +%s) - 10 ))
  [ $left -gt 200 ] && RNGVET_ISING_SERIAL_FILLS=1 T timeout $left taskset -c 48-63 "$B" bench --lattice --backend cuda --seconds 0.3 > "$OUT/lattice-serial.txt" 2>&1 ) &
LAT=$!
echo "== ctx (context, 256 MiB device, 256 MiB pinned, kernel, copy)"
for i in 1 2; do $G ./ctx; done
echo "-- 16 at once"; T bash -c "for i in \$(seq 16); do $G ./ctx & done; wait"
echo "-- 4 at once"; T bash -c "for i in \$(seq 4); do $G ./ctx & done; wait"
echo "-- rngvet generate, one, then 16 at once"
T $G "$B" generate --generator ranmar48 --seed 1802,9373 --count 1000 --backend cuda --format u32 --out /dev/null
T bash -c "for i in \$(seq 16); do $G $B generate --generator ranmar48 --seed 1802,9373 --count 1000 --backend cuda --format u32 --out /dev/null & done; wait"
echo "== CUDA tests (segments grid, then interleaved:8)"
export RNGVET_REQUIRE_BACKENDS=cuda
for k in "" interleaved:8; do
  echo "-- RNGVET_RANMAR_KERNEL='$k'"
  RNGVET_RANMAR_KERNEL=$k T $G ./test_backends --gtest_filter='*/cuda:JumpParallelPlan.*:Conversions.*:RanmarKernelMath.*:HostMemory.*:KernelFamilies.*' 2>&1 | tail -3
  RNGVET_RANMAR_KERNEL=$k T $G ./test_known_answers --gtest_filter='*cuda*' 2>&1 | tail -2
  RNGVET_RANMAR_KERNEL=$k T $G ./test_library --gtest_filter='*cuda*:*Device*:-*TheStreamIsWhatRngvetGenerateWrites*' 2>&1 | tail -2
done
unset RNGVET_REQUIRE_BACKENDS
T $G "$B" validate --engine native --backend cuda -q 2>&1 | tail -2
echo "== benches"
T $G "$B" bench --backend cuda --seconds 0.3 --only ranmar48/ > "$OUT/bench.txt" 2>&1
RNGVET_RANMAR_KERNEL=interleaved:8 T $G "$B" bench --backend cuda --seconds 0.3 --only ranmar48/8/interleave > "$OUT/bench-il8.txt" 2>&1
for o in /32/block mt19937/1/single; do T $G "$B" bench --backend cuda --seconds 0.3 --only $o; done > "$OUT/bench-mt.txt" 2>&1
T $G timeout 120 "$B" run $BOOK --battery bigcrush --tests 71 --engine native --backend cuda --mode sharded --jobs 16 --db "$OUT/book-t71.sqlite" > /dev/null 2>>"$OUT/runs.log"
P bench.txt bench-il8.txt bench-mt.txt book-t71.sqlite
echo "== batteries"
R="run --generator ranmar48 --seed 1802,9373 --mode sharded --backend cuda --engine native"
T $G "$B" $R --battery crush --jobs 16 --db "$OUT/crush-j16.sqlite" > /dev/null 2>>"$OUT/runs.log"
T $G "$B" $R --battery crush --jobs 16 --db "$OUT/crush-j16b.sqlite" > /dev/null 2>>"$OUT/runs.log"
T $G "$B" $R --battery crush --jobs 8 --db "$OUT/crush-j8.sqlite" > /dev/null 2>>"$OUT/runs.log"
T $G "$B" $R --battery crush --jobs 4 --db "$OUT/crush-j4.sqlite" > /dev/null 2>>"$OUT/runs.log"
T $G "$B" $R --battery bigcrush --jobs 16 --db "$OUT/bigcrush-j16.sqlite" > /dev/null 2>>"$OUT/runs.log"
P crush-j16.sqlite crush-j16b.sqlite crush-j8.sqlite crush-j4.sqlite bigcrush-j16.sqlite
echo "phase 1 end $(( $(date +%s) - S )) s"
( ./lanes.sh "$END" 0 ) &
wait $LAT; echo "lattice end $(( $(date +%s) - S )) s"
P lattice.txt lattice-serial.txt
wait
echo "end $(( $(date +%s) - S )) s"; date -u
} > "$OUT/call.txt" 2>&1
P runs.log call.txt
tar czf "$OUT/camp.tgz" camp/done.txt camp/tasks camp/logs camp/lanes.log camp/queue 2>/dev/null
