#!/usr/bin/env bash
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/../native/lib:/usr/local/cuda/lib64"
B=./rngvet
{
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; lscpu | grep -E "Model name|^CPU\(s\)"; date -u
echo "== tests (cuda required)"
RNGVET_REQUIRE_BACKENDS=cuda timeout 50 ./test_backends --gtest_filter='*JumpParallel*:*OneWarpPerInstance*:*SegmentPlans*' 2>&1 | grep -E "OK|FAILED|PASSED|Failure|Expected|Which" | head -30
echo "== bench default plan"
for c in ranmar48/1/single ranmar48/8/interleave; do
  echo "\$ rngvet bench --backend cuda --seconds 0.3 --only $c"
  timeout 30 $B bench --backend cuda --seconds 0.3 --only $c 2>/dev/null | tee $OUT/bench-$(echo $c | tr / -).md | grep -E "ranmar|write"
done
for c in ranmar24/1/single ranmar48x/1/single; do
  echo "\$ rngvet bench --backend cuda --seconds 0.3 --only $c"
  timeout 30 $B bench --backend cuda --seconds 0.3 --only $c 2>/dev/null | grep -E "\| device \|"
done
for SL in "2048 2048" "4096 8192"; do set -- $SL; echo "\$ rngvet bench --backend cuda --seconds 0.3 --only ranmar48/1/single --segments $1 --segment-length $2"; timeout 20 $B bench --backend cuda --seconds 0.3 --only ranmar48/1/single --segments $1 --segment-length $2 2>/dev/null | grep -E "\| device \|"; done
echo "== ncu"
timeout 40 ncu --clock-control none -k regex:segments --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section InstructionStats $B bench --backend cuda --seconds 0.02 --only ranmar48/1/single > $OUT/ncu.txt 2>&1
grep -E "Duration|Registers|Achieved Occupancy|Issued Warp|No Eligible|Executed Instructions  |DRAM Throughput|Warp Cycles Per Issued" $OUT/ncu.txt | head -20
date -u
} > $OUT/run4.txt 2>&1
cat $OUT/run4.txt
