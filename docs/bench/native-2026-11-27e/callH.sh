#!/usr/bin/env bash
# Calls H..: the BigCrush campaign (camp/, carried between calls) on every GPU of the host, one
# lane per GPU with its own 16 cores, until the deadline $1 s from now. Before GPU 0 joins:
# the CUDA tests and generate cuda = cpu under the interleaved grid of 4 instances a block, and
# the 8-interleaved generation bench with tiles of 8 and 4 (alternated) (only where $2 = bench).
cd "$(dirname "$0")" && mkdir -p w && tar xJf bin.tar.xz -C w && cp -r camp w/ && cd w || exit 1
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
B=$PWD/rngvet-z
S=$(date +%s) END=$(( $(date +%s) + ${1:-540} ))
exec 3>>"$OUT/times.txt"
T() { local a=$(date +%s.%N); "$@"; local rc=$?; echo "rc $rc, $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $a}") s: $*" >&3; return $rc; }
NG=$(nvidia-smi -L | wc -l)
./camp.sh "$END" queue "${3:-24-29 41-59 30-39 60-79 90-119}"
{
nvidia-smi -L; nproc; lscpu | grep "Model name"; date -u
( ./lanes.sh "$END" "$(seq -s ' ' 1 $((NG - 1)))" ) &
if [ "$2" = bench ]; then
  G="env CUDA_VISIBLE_DEVICES=0 taskset -c 0-15"
  export RNGVET_REQUIRE_BACKENDS=cuda
  RNGVET_RANMAR_KERNEL=interleaved:4 T $G ./test_backends --gtest_filter='*/cuda:JumpParallelPlan.*:Conversions.*:RanmarKernelMath.*:HostMemory.*:KernelFamilies.*' 2>&1 | grep -E "FAILED|PASSED|tests ran"
  RNGVET_RANMAR_KERNEL=interleaved:4 T $G ./test_known_answers --gtest_filter='*cuda*' 2>&1 | grep -E "FAILED|PASSED|tests ran"
  unset RNGVET_REQUIRE_BACKENDS
  for be in cuda cpu; do RNGVET_RANMAR_KERNEL=interleaved:4 T $G "$B" generate --generator ranmar48 --seed 1802,9373 --instances 8 --skip 1000000007 --count 100000000 --backend $be --format double --out "/tmp/r8-$be"; done
  cmp /tmp/r8-cuda /tmp/r8-cpu && echo "ranmar48 8 interleaved at 1000000007, interleaved:4: cuda = cpu (1e8 words)"
  rm -f /tmp/r8-*
  for k in interleaved:8 interleaved:4 interleaved:8 interleaved:4; do
    echo "-- RNGVET_RANMAR_KERNEL=$k"; RNGVET_RANMAR_KERNEL=$k T $G "$B" bench --backend cuda --seconds 0.5 --only ranmar48/8/interleave 2>&1 | grep -E "device \| 2|device memory write"
  done
fi
( ./lanes.sh "$END" 0 ) &
wait
echo "end $(( $(date +%s) - S )) s"; date -u
} > "$OUT/call.txt" 2>&1
tar czf "$OUT/camp.tgz" camp/done.txt camp/tasks camp/logs camp/lanes.log camp/queue 2>/dev/null
