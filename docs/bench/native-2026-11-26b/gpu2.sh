#!/usr/bin/env bash
# The native engine on the GPU host: every native test of Crush and BigCrush, sharded, on the
# cuda backend (and BigCrush on the CPU's cores alone), into stores compared afterwards with the
# TestU01 stores of docs/findings (same configurations, seeds and segments).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
R=./rngvet
S=$(date +%s)
BUDGET=${BUDGET:-570}
left() { echo $(( BUDGET - ($(date +%s) - S) )); }
native_tests() { $R list | sed -n "s/^  $1 (.*--engine native: tests \([0-9,-]*\)).*/\1/p"; }
step() { # name battery generator backend jobs
  local t; t=$(left)
  if [ "$t" -lt 30 ]; then echo "$1: not run (time)" | tee -a "$OUT/summary.txt"; return; fi
  local tests; tests=$(native_tests "$2")
  local a=$(date +%s.%N)
  timeout "$t" $R run --generator "$3" --seed 1802,9373 --battery "$2" \
    --mode sharded --jobs "$5" --backend "$4" --engine native --db "$OUT/$1.sqlite" > "$OUT/$1.log" 2>&1
  local rc=$? b=$(date +%s.%N)
  echo "$1: $2 tests $tests, $3, backend $4, jobs $5: exit $rc, wall $(awk "BEGIN { printf \"%.1f\", $b - $a }") s" | tee -a "$OUT/summary.txt"
}
{
nvidia-smi -L; nproc; $R list | sed -n '/^batteries/,/^backends/p'
step bigcrush-ranmar48-cuda bigcrush ranmar48 cuda ${JOBS:-4}
step crush-ranmar48-cuda crush ranmar48 cuda ${JOBS:-4}
step crush-ranmar48x-cuda crush ranmar48x cuda ${JOBS:-4}
step bigcrush-ranmar48x-cuda bigcrush ranmar48x cuda ${JOBS:-4}
step bigcrush-ranmar48-openmp bigcrush ranmar48 openmp ${JOBS:-4}
} 2>&1 | tee "$OUT/gpu2.log"
