#!/usr/bin/env bash
# Final check of the session's merged binary (rngvet-z): CUDA tests of the changed kernels,
# whole batteries (compared here afterwards with the TestU01 stores), Crush/BigCrush timings with
# TestU01's Crush beside, generation and lattice benches, the ising own-lanes mode cuda vs
# openmp, and a serial cuda run of Crush 31-36 (Gap's give-back) against the cpu backend.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
B=./rngvet-z
S=$(date +%s)
exec 3>>"$OUT/times.txt"
T() { local a=$(date +%s.%N); "$@"; local rc=$?; echo "rc $rc, $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $a}") s: $*" >&3; }
R() { T $B run --seed 1802,9373 --mode sharded --jobs 16 "$@" > /dev/null 2>>"$OUT/runs.log"; }
ok() { [ $(( $(date +%s) - S )) -lt "$1" ]; }
{
nvidia-smi -L; nproc; date -u
export RNGVET_REQUIRE_BACKENDS=cuda
T ./test_backends --gtest_filter='*cuda*:Conversions.*:RanmarKernelMath.*:HostMemory.*' 2>&1 | tail -4
T ./test_known_answers --gtest_filter='*cuda*' 2>&1 | tail -3
T ./test_library --gtest_filter='*cuda*:*Device*:-*TheStreamIsWhatRngvetGenerateWrites*' 2>&1 | tail -4
unset RNGVET_REQUIRE_BACKENDS
T $B validate --engine native --backend cuda -q 2>&1 | tail -2
R --generator ranmar48 --battery crush --backend cuda --engine native --db "$OUT/crush-ranmar48.sqlite"
R --generator ranmar48x --battery crush --backend cuda --engine native --db "$OUT/crush-ranmar48x.sqlite"
R --generator ranmar48 --battery crush --backend cuda --engine native --db "$OUT/crush-ranmar48-b.sqlite"
R --generator ranmar48 --battery bigcrush --backend cuda --engine native --db "$OUT/bigcrush-ranmar48.sqlite"
R --generator ranmar48x --battery bigcrush --backend cuda --engine native --db "$OUT/bigcrush-ranmar48x.sqlite"
T $B bench --backend cuda --seconds 0.3 --only ranmar48/ > "$OUT/bench.txt" 2>&1
for be in cuda openmp; do ok 400 && T timeout 90 $B run --generator ranmar48 --seed 1802,9373 --instances 4096 --layout interleave --battery 'ising(therm=1024,steps=4096,reps=4096,lanes=4096,own=1)' --tests 1 --backend $be --db "$OUT/ising-own.sqlite" >/dev/null 2>>"$OUT/runs.log"; done
ok 420 && T timeout 100 $B bench --lattice --backend cuda > "$OUT/lattice.txt" 2>&1
ok 450 && R --generator ranmar48 --battery crush --backend cuda --engine testu01 --db "$OUT/crush-ranmar48-testu01.sqlite"
for be in cuda cpu; do ok 540 && T timeout 100 $B run --generator ranmar48 --seed 1802,9373 --battery crush --tests 31,32,33,34,35,36 --mode serial --backend $be --engine native --db "$OUT/serial-$be.sqlite" >/dev/null 2>>"$OUT/runs.log"; done
echo "end $(( $(date +%s) - S )) s"; date -u
} > "$OUT/call.txt" 2>&1
cd "$OUT" && tar czf stores.tgz *.sqlite runs.log 2>/dev/null && rm -f *.sqlite runs.log; ls
