#!/usr/bin/env bash
# Call G (the H100 machine): the CUDA tests under the power-of-two Mersenne Twister plan,
# generate cuda = cpu for MT19937 and the book's sets, RANMAR generation against device write
# (1 and 8 instances, each grid), and the lattice bench, on an otherwise idle node.
cd "$(dirname "$0")" && mkdir -p w && tar xJf bin.tar.xz -C w && cd w || exit 1
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
B=$PWD/rngvet-z
S=$(date +%s)
exec 3>>"$OUT/times.txt"
T() { local a=$(date +%s.%N); "$@"; local rc=$?; echo "rc $rc, $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $a}") s: $*" >&3; return $rc; }
BOOK="--generator mtdc --params fixstars-mt521 --instances 32 --layout block:1000 --seeding stride:13311 --seed 0"
{
nvidia-smi -L; nproc; lscpu | grep "Model name"; date -u
nvidia-smi -q | grep -iE "persistence|driver version|compute mode" | sort -u
echo "== CUDA tests"
export RNGVET_REQUIRE_BACKENDS=cuda
T ./test_backends --gtest_filter='*/cuda:JumpParallelPlan.*:Conversions.*:RanmarKernelMath.*:HostMemory.*:KernelFamilies.*' 2>&1 | grep -E "FAILED|PASSED|tests ran"
T ./test_known_answers --gtest_filter='*cuda*' 2>&1 | grep -E "FAILED|PASSED|tests ran"
unset RNGVET_REQUIRE_BACKENDS
echo "== generate cuda = cpu"
for be in cuda cpu; do T "$B" generate $BOOK --skip 76965813944320 --count 200000000 --backend $be --format u32 --out "/tmp/book-$be"; done
cmp /tmp/book-cuda /tmp/book-cpu && echo "book 32 MT521 at 70 x 2^40: cuda = cpu (2e8 words)"
for be in cuda cpu; do T "$B" generate --generator mt19937 --seed 5489 --skip 1000000007 --count 100000000 --backend $be --format u32 --out "/tmp/mt-$be"; done
cmp /tmp/mt-cuda /tmp/mt-cpu && echo "mt19937 at 1000000007: cuda = cpu (1e8 words)"
for be in cuda cpu; do T "$B" generate --generator ranmar48 --seed 1802,9373 --instances 8 --skip 1000000007 --count 100000000 --backend $be --format double --out "/tmp/r8-$be"; done
cmp /tmp/r8-cuda /tmp/r8-cpu && echo "ranmar48 8 interleaved at 1000000007: cuda = cpu (1e8 words)"
rm -f /tmp/book-* /tmp/mt-* /tmp/r8-*
echo "== generation"
T "$B" bench --backend cuda --seconds 0.3 --only ranmar48/ > "$OUT/bench.txt" 2>&1
for k in segments interleaved:4 interleaved:2; do
  echo "-- RNGVET_RANMAR_KERNEL=$k"; RNGVET_RANMAR_KERNEL=$k T "$B" bench --backend cuda --seconds 0.3 --only ranmar48/8/interleave
done > "$OUT/bench-il8.txt" 2>&1
for o in mt19937/1/single /32/block; do T "$B" bench --backend cuda --seconds 0.3 --only $o; done > "$OUT/bench-mt.txt" 2>&1
echo "== lattice"
T timeout 240 "$B" bench --lattice --backend cuda --seconds 0.3 > "$OUT/lattice.txt" 2>&1
echo "end $(( $(date +%s) - S )) s"; date -u
} > "$OUT/call.txt" 2>&1
