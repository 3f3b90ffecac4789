#!/usr/bin/env bash
# Call B: the BigCrush campaign on GPUs 0-2; on GPU 3 first the ising own-lanes run on openmp
# (cuda's is in call A) and the lattice bench, then the campaign.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
B=./rngvet-z
S=$(date +%s) END=$(( $(date +%s) + ${1:-550} ))
exec 3>>"$OUT/times.txt"
T() { local a=$(date +%s.%N); "$@"; local rc=$?; echo "rc $rc, $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $a}") s: $*" >&3; }
P() { (cd "$OUT" && for f in "$@"; do [ -e "$f" ] && tar rf out.tar "$f" && rm -f "$f"; done); }
{
nvidia-smi -L; nproc; date -u
./camp.sh $END queue; echo "queue $(wc -l < camp/queue) tasks"
for g in 0 1 2; do ./camp.sh $END lane $g & done
( CUDA_VISIBLE_DEVICES=3 T timeout 240 taskset -c 48-63 $B run --generator ranmar48 --seed 1802,9373 --instances 4096 --layout interleave --battery 'ising(therm=1024,steps=4096,reps=4096,lanes=4096,own=1)' --tests 1 --backend openmp --db "$OUT/ising-own-openmp.sqlite" >/dev/null 2>>"$OUT/runs.log"
  CUDA_VISIBLE_DEVICES=3 T timeout 200 taskset -c 48-63 $B bench --lattice --backend cuda --seconds 0.3 > "$OUT/lattice.txt" 2>&1
  ./camp.sh $END lane 3 ) &
wait
T $B campaign merge camp > /dev/null 2>>"$OUT/runs.log"
echo "end $(( $(date +%s) - S )) s"; date -u
} > "$OUT/call.txt" 2>&1
P ising-own-openmp.sqlite runs.log lattice.txt
tar czf "$OUT/camp.tgz" camp/done.txt camp/lanes.log camp/tasks camp/logs
