#!/usr/bin/env bash
# Call 1 of 2026-11-27b: Crush timeline, generation of 1 and 8 instances (+ ncu), crush-part4's
# remaining tasks, BigCrush ranmar48x k = 9, 10.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
B=./rngvet-a
T() { local a=$(date +%s.%N); "$@"; local rc=$?; echo "  -> rc $rc, $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $a}") s: $*"; }
{
nvidia-smi -L; nproc; date -u
T $B run --generator ranmar48 --seed 1802,9373 --battery crush --mode sharded --jobs 16 --backend cuda --engine native --db $OUT/crush.sqlite > $OUT/crush.log 2>&1
tail -2 $OUT/crush.log
T $B run --generator ranmar48 --seed 1802,9373 --battery crush --tests 1 --backend cuda --engine native --db /tmp/one.sqlite >/dev/null 2>&1
CUDA_MODULE_LOADING=EAGER T $B run --generator ranmar48 --seed 1802,9373 --battery crush --tests 1 --backend cuda --engine native --db /tmp/one2.sqlite >/dev/null 2>&1
T $B run --generator ranmar48 --seed 1802,9373 --battery crush --tests 1 --backend cpu --engine native --db /tmp/one3.sqlite >/dev/null 2>&1
# 16 processes at once, each one small test on cuda
a=$(date +%s.%N); for i in $(seq 16); do $B run --generator ranmar48 --seed 1802,9373 --battery crush --tests 1 --backend cuda --engine native --db /tmp/p$i.sqlite >/dev/null 2>&1 & done; wait
echo "16 concurrent single-test cuda runs: $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $a}") s"
T $B bench --backend cuda --seconds 0.5 > $OUT/bench.txt 2>&1
T $B bench --backend cuda --seconds 0.5 --launch 4194304 --only /1/single >> $OUT/bench.txt 2>&1
T $B bench --backend cuda --seconds 0.5 --launch 4194304 --only /8/ >> $OUT/bench.txt 2>&1
for L in 4096 16384 65536 262144; do T $B bench --backend cuda --seconds 0.3 --only ranmar48/1/single --segment-length $L >> $OUT/bench.txt 2>&1; done
timeout 120 ncu --clock-control none --launch-skip 5 --launch-count 2 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section SchedulerStats $B bench --backend cuda --seconds 0.05 --only ranmar48/1/single > $OUT/ncu.txt 2>&1
timeout 120 ncu --clock-control none --launch-skip 5 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats $B bench --backend cuda --seconds 0.05 --only ranmar48/8/interleave >> $OUT/ncu.txt 2>&1
date -u
T $B campaign run cp4/campaign.ini --jobs 16 --out cp4 > $OUT/cp4.log 2>&1
cp cp4/campaign.sqlite $OUT/cp4-campaign.sqlite
date -u
SEEDBIN=rngvet-a ./seeds.sh 9 10 ranmar48x
cp "$OUT/seeds.sqlite" "$OUT/seeds-x910.sqlite" 2>/dev/null; rm -f "$OUT/seeds.sqlite"
date -u
} > $OUT/call1.txt 2>&1
cd $OUT && tar czf logs.tgz *.log seeds.* 2>/dev/null && rm -f *.log seeds.txt seeds.err; ls
