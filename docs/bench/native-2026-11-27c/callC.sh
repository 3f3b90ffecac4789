#!/usr/bin/env bash
# Call C (final): the merged binary on a 4-GPU host. GPU 0 and cores 0-15: CUDA start-up costs,
# the CUDA tests (new kernels: 8 interleaved RANMAR, jump-parallel MT, the family templates),
# the MT checks, generation benches, Crush timed and a whole BigCrush (compared afterwards).
# GPU 3 and cores 56-63: the device Metropolis checks and the lattice bench. Cores 16-55: the
# ising L = 64 runs still missing. Then the BigCrush campaign on all GPUs until the deadline.
cd "$(dirname "$0")" && mkdir -p w && tar xJf bin.tar.xz -C w && cd w || exit 1
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
B=$PWD/rngvet-z
S=$(date +%s) END=$(( $(date +%s) + ${1:-440} ))
exec 3>>"$OUT/times.txt"
T() { local a=$(date +%s.%N); "$@"; local rc=$?; echo "rc $rc, $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $a}") s: $*" >&3; return $rc; }
P() { (cd "$OUT" && for f in "$@"; do [ -e "$f" ] && tar rf out.tar "$f" && rm -f "$f"; done); }
G() { CUDA_VISIBLE_DEVICES=0 taskset -c 0-15 "$@"; }
Q() { G "$B" run --seed 1802,9373 --mode sharded --jobs 16 "$@" > /dev/null 2>>"$OUT/runs.log"; }
BOOK="--generator mtdc --params fixstars-mt521 --instances 32 --layout block:1000 --seeding stride:13311 --seed 0"
{
nvidia-smi -L; nproc; date -u
( STOP_AT=$((S + 200)) taskset -c 16-55 ./ising-seeds.sh "$B" "$OUT/ising-L64.sqlite" 64 0 9 40 cpu \
    sdk-mt607-same sdk-mt607-hash book-mt521 ranmar48-interleave8 ranmar48x ranmar48x-request8 \
    ranmar48x-interleave8 ranmar48-x64-lanes64 ranmar24 ranmar24-request8 ranmar24-interleave8 \
    > "$OUT/ising.log" 2>&1; echo "ising L64 end $(( $(date +%s) - S )) s" ) &
ISING=$!
( M="--generator ranmar48 --seed 1802,9373 --instances 16384 --layout interleave --battery ising(L=256,therm=256,steps=1024,reps=2) --tests 2"
  export CUDA_VISIBLE_DEVICES=3
  for be in cuda cpu; do T taskset -c 56-63 "$B" run $M --backend $be --db "$OUT/metro-$be.sqlite" > /dev/null 2>>"$OUT/metro.log"; done
  RNGVET_ISING_SERIAL_FILLS=1 T taskset -c 56-63 "$B" run $M --backend cuda --db "$OUT/metro-cuda-serial.sqlite" > /dev/null 2>>"$OUT/metro.log"
  T timeout 170 taskset -c 56-63 "$B" bench --lattice --backend cuda --seconds 0.3 > "$OUT/lattice.txt" 2>&1 ) &
METRO=$!
for m in "" EAGER; do
  CUDA_MODULE_LOADING=$m G bash -c "time $B generate --generator ranmar48 --seed 1802,9373 --count 1000 --backend cuda --format u32 --out /dev/null" 2>&1 | grep real | sed "s/^/one process, loading '$m': /"
  CUDA_MODULE_LOADING=$m G bash -c "time (for i in \$(seq 16); do $B generate --generator ranmar48 --seed 1802,9373 --count 1000 --backend cuda --format u32 --out /dev/null & done; wait)" 2>&1 | grep real | sed "s/^/16 at once, loading '$m': /"
done
export RNGVET_REQUIRE_BACKENDS=cuda
G T ./test_backends --gtest_filter='*/cuda:JumpParallelPlan.*:Conversions.*:RanmarKernelMath.*:HostMemory.*:KernelFamilies.*' 2>&1 | tail -4
G T ./test_known_answers --gtest_filter='*cuda*' 2>&1 | tail -3
G T ./test_library --gtest_filter='*cuda*:*Device*:-*TheStreamIsWhatRngvetGenerateWrites*' 2>&1 | tail -3
unset RNGVET_REQUIRE_BACKENDS
G T "$B" validate --engine native --backend cuda -q 2>&1 | tail -2
for be in cuda cpu; do G "$B" generate $BOOK --skip 76965813944320 --count 200000000 --backend $be --format u32 --out "/tmp/book-$be"; done
cmp /tmp/book-cuda /tmp/book-cpu && echo "book 32 MT521 at 70 x 2^40: cuda = cpu (2e8 words)"
for be in cuda cpu; do G "$B" generate --generator mt19937 --seed 5489 --skip 1000000007 --count 50000000 --backend $be --format u32 --out "/tmp/mt-$be"; done
cmp /tmp/mt-cuda /tmp/mt-cpu && echo "mt19937 at 1000000007: cuda = cpu (5e7 words)"
rm -f /tmp/book-* /tmp/mt-*
G T timeout 120 "$B" run $BOOK --battery bigcrush --tests 71 --engine native --backend cuda --mode sharded --jobs 16 --db "$OUT/book-t71.sqlite" > /dev/null 2>>"$OUT/runs.log"
G T "$B" bench --backend cuda --seconds 0.3 --only ranmar48/ > "$OUT/bench.txt" 2>&1
RNGVET_RANMAR_KERNEL=segments G T "$B" bench --backend cuda --seconds 0.3 --only ranmar48/8/interleave > "$OUT/bench-segments.txt" 2>&1
for o in /32/block mt19937/1/single; do G T "$B" bench --backend cuda --seconds 0.3 --only $o; done > "$OUT/bench-mt.txt" 2>&1
P bench.txt bench-segments.txt bench-mt.txt book-t71.sqlite
T Q --generator ranmar48 --battery crush --backend cuda --engine native --db "$OUT/crush-ranmar48.sqlite"
T Q --generator ranmar48 --battery crush --backend cuda --engine native --db "$OUT/crush-ranmar48-b.sqlite"
T Q --generator ranmar48 --battery bigcrush --backend cuda --engine native --db "$OUT/bigcrush-ranmar48.sqlite"
P crush-ranmar48.sqlite crush-ranmar48-b.sqlite bigcrush-ranmar48.sqlite
echo "phase 1 end $(( $(date +%s) - S )) s"
wait $ISING
P ising-L64.sqlite ising.log
left=$(( END - $(date +%s) ))
[ $left -gt 60 ] && T timeout -s TERM $left "$B" campaign run ../../../examples/findings/bigcrush.ini --jobs 64 --gpus 4 --out camp 2>"$OUT/campaign.log" | tail -3
wait
echo "end $(( $(date +%s) - S )) s"; date -u
} > "$OUT/call.txt" 2>&1
P metro-cuda.sqlite metro-cpu.sqlite metro-cuda-serial.sqlite metro.log lattice.txt runs.log campaign.log
tar czf "$OUT/camp.tgz" camp/done.txt camp/tasks camp/logs camp/campaign.sqlite 2>/dev/null
