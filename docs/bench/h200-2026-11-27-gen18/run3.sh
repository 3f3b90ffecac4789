#!/usr/bin/env bash
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/../native/lib:/usr/local/cuda/lib64"
B=./rngvet
{
nvidia-smi --query-gpu=name --format=csv,noheader; date -u
echo "== tests (cuda required)"
RNGVET_REQUIRE_BACKENDS=cuda timeout 50 ./test_backends --gtest_filter='*JumpParallel*:*OneWarpPerInstance*:*SegmentPlans*' 2>&1 | grep -E "OK|FAILED|PASSED|Failure|Expected|Which" | head -30
echo "== bench default plan"
timeout 30 $B bench --backend cuda --seconds 0.3 --only ranmar48/1/single 2>/dev/null | grep -E "\| device \|"
timeout 30 $B bench --backend cuda --seconds 0.3 --only ranmar48/8/interleave 2>/dev/null | grep -E "\| device \|"
for SL in "2048 2048" "4096 1024" "4096 8192"; do set -- $SL; timeout 20 $B bench --backend cuda --seconds 0.2 --only ranmar48/1/single --segments $1 --segment-length $2 2>/dev/null | grep -E "ranmar.*\| device \|"; done
echo "== ncu"
timeout 60 ncu --clock-control none -k regex:segments --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats --section InstructionStats $B bench --backend cuda --seconds 0.02 --only ranmar48/1/single > $OUT/ncu.txt 2>&1
grep -E "Duration|Registers|Achieved Occupancy|Theoretical Occ|Issue Slots Busy|No Eligible|Active Warps Per|Eligible Warps|Executed Instructions  |Stall|DRAM Throughput|Memory Throughput|Compute \(SM\)|Block Limit" $OUT/ncu.txt | head -40
date -u
} > $OUT/run3.txt 2>&1
cat $OUT/run3.txt
