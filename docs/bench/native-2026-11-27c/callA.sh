#!/usr/bin/env bash
# Call A: native Crush/BigCrush timed on GPU 0 and its 16 cores (the host otherwise quiet), the
# BigCrush stores compared afterwards with the TestU01 stores; then TestU01's Crush on the same
# 16 cores beside the campaign lanes; ising own-lanes cuda vs openmp and the lattice bench on
# GPU 3; the BigCrush campaign (camp.sh) on the other GPUs until the deadline.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
B=./rngvet-z
S=$(date +%s) END=$(( $(date +%s) + ${1:-550} ))
NG=$(nvidia-smi -L | wc -l)
exec 3>>"$OUT/times.txt"
T() { local a=$(date +%s.%N); "$@"; local rc=$?; echo "rc $rc, $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $a}") s: $*" >&3; }
Q() { CUDA_VISIBLE_DEVICES=0 T taskset -c 0-15 $B run --seed 1802,9373 --mode sharded --jobs 16 "$@" > /dev/null 2>>"$OUT/runs.log"; }
P() { (cd "$OUT" && for f in "$@"; do [ -e "$f" ] && tar rf out.tar "$f" && rm -f "$f"; done); }
{
nvidia-smi -L; nproc; lscpu | grep "Model name"; date -u
./camp.sh $END queue; echo "queue $(wc -l < camp/queue) tasks"
Q --generator ranmar48 --battery crush --backend cuda --engine native --db "$OUT/crush-ranmar48.sqlite"
Q --generator ranmar48 --battery crush --backend cuda --engine native --db "$OUT/crush-ranmar48-b.sqlite"
Q --generator ranmar48x --battery crush --backend cuda --engine native --db "$OUT/crush-ranmar48x.sqlite"
P crush-ranmar48.sqlite crush-ranmar48-b.sqlite crush-ranmar48x.sqlite
Q --generator ranmar48 --battery bigcrush --backend cuda --engine native --db "$OUT/bigcrush-ranmar48.sqlite"
Q --generator ranmar48x --battery bigcrush --backend cuda --engine native --db "$OUT/bigcrush-ranmar48x.sqlite"
P bigcrush-ranmar48.sqlite bigcrush-ranmar48x.sqlite
echo "phase 1 end $(( $(date +%s) - S )) s"
if [ "$NG" -ge 4 ]; then
  for g in 1 2; do ./camp.sh $END lane $g & done
  ( for be in cuda openmp; do CUDA_VISIBLE_DEVICES=3 T timeout 90 taskset -c 48-63 $B run --generator ranmar48 --seed 1802,9373 --instances 4096 --layout interleave --battery 'ising(therm=1024,steps=4096,reps=4096,lanes=4096,own=1)' --tests 1 --backend $be --db "$OUT/ising-own-$be.sqlite" >/dev/null 2>>"$OUT/runs.log"; done
    CUDA_VISIBLE_DEVICES=3 T timeout 100 taskset -c 48-63 $B bench --lattice --backend cuda > "$OUT/lattice.txt" 2>&1
    ./camp.sh $END lane 3 ) &
  Q --generator ranmar48 --battery crush --backend cuda --engine testu01 --db "$OUT/crush-ranmar48-testu01.sqlite"
  ./camp.sh $END lane 0
  wait
else
  Q --generator ranmar48 --battery crush --backend cuda --engine testu01 --db "$OUT/crush-ranmar48-testu01.sqlite"
  ./camp.sh $END lane 0
fi
T $B campaign merge camp > /dev/null 2>>"$OUT/runs.log"
echo "end $(( $(date +%s) - S )) s"; date -u
} > "$OUT/call.txt" 2>&1
P ising-own-cuda.sqlite ising-own-openmp.sqlite crush-ranmar48-testu01.sqlite runs.log lattice.txt
tar czf "$OUT/camp.tgz" camp
