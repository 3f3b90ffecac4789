#!/usr/bin/env bash
# Call F (H100 node): the merged code's CUDA tests (family files, the MT plan), generation checks
# cuda = cpu for the Mersenne Twisters under the new plan, their bench rows, Crush and BigCrush
# timed with every core per test, then the BigCrush campaign on the GPU until the deadline.
cd "$(dirname "$0")" && mkdir -p w && tar xJf bin.tar.xz -C w && cd w || exit 1
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
B=$PWD/rngvet-z
S=$(date +%s) END=$(( $(date +%s) + ${1:-480} ))
exec 3>>"$OUT/times.txt"
T() { local a=$(date +%s.%N); "$@"; local rc=$?; echo "rc $rc, $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $a}") s: $*" >&3; return $rc; }
P() { (cd "$OUT" && for f in "$@"; do [ -e "$f" ] && tar rf out.tar "$f" && rm -f "$f"; done); }
R="run --generator ranmar48 --seed 1802,9373 --mode sharded --jobs 16 --backend cuda --engine native"
BOOK="--generator mtdc --params fixstars-mt521 --instances 32 --layout block:1000 --seeding stride:13311 --seed 0"
./camp.sh "$END" queue "85-89 40-49 50-59 60-69 70-79 90-99 100-109 110-119 24-29 30-39"
{
nvidia-smi -L; nproc; date -u
export RNGVET_REQUIRE_BACKENDS=cuda
T ./test_backends --gtest_filter='*/cuda:JumpParallelPlan.*:Conversions.*:RanmarKernelMath.*:HostMemory.*:KernelFamilies.*' 2>&1 | tail -3
T ./test_known_answers --gtest_filter='*cuda*' 2>&1 | tail -2
T ./test_library --gtest_filter='*cuda*:*Device*:*EveryFamily*:-*TheStreamIsWhatRngvetGenerateWrites*' 2>&1 | tail -2
unset RNGVET_REQUIRE_BACKENDS
for be in cuda cpu; do T "$B" generate $BOOK --skip 76965813944320 --count 200000000 --backend $be --format u32 --out "/tmp/book-$be"; done
cmp /tmp/book-cuda /tmp/book-cpu && echo "book 32 MT521 at 70 x 2^40: cuda = cpu (2e8 words)"
for be in cuda cpu; do T "$B" generate --generator mt19937 --seed 5489 --skip 1000000007 --count 100000000 --backend $be --format u32 --out "/tmp/mt-$be"; done
cmp /tmp/mt-cuda /tmp/mt-cpu && echo "mt19937 at 1000000007: cuda = cpu (1e8 words)"
rm -f /tmp/book-* /tmp/mt-*
for o in mt19937/1/single /32/block; do T "$B" bench --backend cuda --seconds 0.3 --only $o 2>&1 | grep "cuda device"; done
T "$B" $R --battery crush --db "$OUT/crush-a.sqlite" > /dev/null 2>>"$OUT/runs.log"
T "$B" $R --battery crush --db "$OUT/crush-b.sqlite" > /dev/null 2>>"$OUT/runs.log"
T "$B" $R --battery bigcrush --db "$OUT/bigcrush.sqlite" > /dev/null 2>>"$OUT/runs.log"
P crush-a.sqlite crush-b.sqlite bigcrush.sqlite
echo "checks end $(( $(date +%s) - S )) s"
./lanes.sh "$END" 0
echo "end $(( $(date +%s) - S )) s"; date -u
} > "$OUT/call.txt" 2>&1
P runs.log call.txt
tar czf "$OUT/camp.tgz" camp/done.txt camp/tasks camp/logs camp/lanes.log camp/queue 2>/dev/null
