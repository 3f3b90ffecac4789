#!/usr/bin/env bash
# Whole batteries with the native engine, sharded on cuda, one binary per step:
# STEPS="name:battery:generator:backend:jobs:binary[:tests]"; writes $OUT/NAME.{sqlite,log} and
# $OUT/summary.txt (wall per step); BUDGET seconds in all.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
S=$(date +%s)
BUDGET=${BUDGET:-580}
left() { echo $(( BUDGET - ($(date +%s) - S) )); }
step() { # name battery generator backend jobs binary [tests]
  local t; t=$(left)
  if [ "$t" -lt 30 ]; then echo "$1: not run (time)" | tee -a "$OUT/summary.txt"; return; fi
  local a=$(date +%s.%N)
  timeout "$t" ./"$6" run --generator "$3" --seed 1802,9373 --battery "$2" ${7:+--tests $7} \
    --mode sharded --jobs "$5" --backend "$4" --engine native --db "$OUT/$1.sqlite" > "$OUT/$1.log" 2>&1
  local rc=$? b=$(date +%s.%N)
  echo "$1: $2, $3, backend $4, jobs $5, $6: exit $rc, wall $(awk "BEGIN { printf \"%.1f\", $b - $a }") s" | tee -a "$OUT/summary.txt"
}
{
nvidia-smi -L; nproc
for s in $STEPS; do
  IFS=: read -r name battery gen backend jobs binary tests <<< "$s"
  step "$name" "$battery" "$gen" "$backend" "$jobs" "$binary" "$tests"
done
} 2>&1 | tee "$OUT/gpu5.log"
