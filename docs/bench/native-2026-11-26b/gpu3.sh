#!/usr/bin/env bash
# BigCrush on ranmar48x resumed (the run stopped by the time limit), then BigCrush natively on
# the CPU's cores alone (openmp backend).
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
R=./rngvet
S=$(date +%s)
BUDGET=${BUDGET:-570}
left() { echo $(( BUDGET - ($(date +%s) - S) )); }
{
cp bigcrush-ranmar48x-partial.sqlite "$OUT/bigcrush-ranmar48x-cuda.sqlite"
a=$(date +%s.%N)
timeout "$(left)" $R run --resume 1 --jobs 4 --db "$OUT/bigcrush-ranmar48x-cuda.sqlite" > "$OUT/bigcrush-ranmar48x-resume.log" 2>&1
rc=$?; b=$(date +%s.%N)
echo "bigcrush ranmar48x resumed: exit $rc, wall $(awk "BEGIN { printf \"%.1f\", $b - $a }") s"
a=$(date +%s.%N)
timeout "$(left)" $R run --generator ranmar48 --seed 1802,9373 --battery bigcrush --mode sharded --jobs ${JOBS:-8} --backend openmp --engine native --db "$OUT/bigcrush-ranmar48-openmp.sqlite" > "$OUT/bigcrush-ranmar48-openmp.log" 2>&1
rc=$?; b=$(date +%s.%N)
echo "bigcrush ranmar48 openmp jobs ${JOBS:-8}: exit $rc, wall $(awk "BEGIN { printf \"%.1f\", $b - $a }") s"
} 2>&1 | tee "$OUT/gpu3.txt"
