#!/usr/bin/env bash
# The native engine with the device's counting families (WeightDistrib, SimpPoker, Permutation,
# CollisionPermut): Crush and BigCrush on ranmar48 and ranmar48x (1802,9373), sharded, cuda,
# compared afterwards with docs/findings' TestU01 stores.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
R=./rngvet
S=$(date +%s)
BUDGET=${BUDGET:-580}
left() { echo $(( BUDGET - ($(date +%s) - S) )); }
step() { # name battery generator backend jobs [tests]
  local t; t=$(left)
  if [ "$t" -lt 30 ]; then echo "$1: not run (time)" | tee -a "$OUT/summary.txt"; return; fi
  local a=$(date +%s.%N)
  timeout "$t" $R run --generator "$3" --seed 1802,9373 --battery "$2" ${6:+--tests $6} \
    --mode sharded --jobs "$5" --backend "$4" --engine native --db "$OUT/$1.sqlite" > "$OUT/$1.log" 2>&1
  local rc=$? b=$(date +%s.%N)
  echo "$1: $2, $3, backend $4, jobs $5: exit $rc, wall $(awk "BEGIN { printf \"%.1f\", $b - $a }") s" | tee -a "$OUT/summary.txt"
}
{
nvidia-smi -L; nproc
for s in $STEPS; do
  IFS=: read -r name battery gen backend jobs tests <<< "$s"
  step "$name" "$battery" "$gen" "$backend" "$jobs" "$tests"
done
} 2>&1 | tee "$OUT/gpu4.log"
