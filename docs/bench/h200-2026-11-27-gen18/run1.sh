#!/usr/bin/env bash
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/../native/lib:/usr/local/cuda/lib64"
B=./rngvet
{
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv; date -u
echo "== tests (cuda required)"
RNGVET_REQUIRE_BACKENDS=cuda timeout 50 ./test_backends --gtest_filter='*JumpParallel*:*OneWarpPerInstance*:*SegmentPlans*' 2>&1 | grep -E "OK|FAILED|PASSED|tests ran|Failure|Expected|Which|ranmar" | head -40
echo "== bench default plan"
timeout 30 $B bench --backend cuda --seconds 0.3 --only ranmar48/1/single 2>&1
timeout 30 $B bench --backend cuda --seconds 0.3 --only ranmar48/8/interleave 2>&1 | grep -E "ranmar|write"
for SL in "512 8192" "2048 2048" "4096 8192" "256 16384"; do set -- $SL; timeout 20 $B bench --backend cuda --seconds 0.2 --only ranmar48/1/single --segments $1 --segment-length $2 2>&1 | grep -E "\| device \|"; done
date -u
} > $OUT/run1.txt 2>&1
cat $OUT/run1.txt
