#!/usr/bin/env bash
# Runs the campaign in ./camp (written by `rngvet campaign submit --dry-run`, its task table the
# store's) on this GPU host as Slurm would: each task is `bash camp/campaign.sbatch` with
# SLURM_ARRAY_TASK_ID set, one lane per GPU (CUDA_VISIBLE_DEVICES) with its own 16 cores
# (taskset). Lanes take tasks in order from a queue of those not done; none starts after
# DEADLINE (epoch s) - 80, and a running one is sent SIGTERM at DEADLINE (it stores its finished
# tests; the next call resumes it).
# Usage: camp.sh DEADLINE queue "RANGES"  (the tasks of RANGES, e.g. "33-39 72-79", not done)
#        camp.sh DEADLINE lane G         (one lane: GPU G, cores 16G..16G+15)
cd "$(dirname "$0")"
W=$PWD C=$PWD/camp deadline=$1
sed -i "s|^RNGVET=.*|RNGVET=$W/rngvet-z|; s|^DIR=.*|DIR=$C|" "$C/campaign.sbatch"
touch "$C/done.txt"
mkdir -p "$C/logs" "$C/tasks"
if [ "$2" = queue ]; then
  for r in $3; do seq "${r%-*}" "${r#*-}"; done | while read -r t; do
    grep -qx "$t" "$C/done.txt" || echo "$t"
  done > "$C/queue"
  exit 0
fi
next() { ( flock 9; t=$(head -1 "$C/queue"); [ -n "$t" ] || exit 1; sed -i 1d "$C/queue"; echo "$t" ) 9>"$C/queue.lock"; }
g=$3 cpus=$(( $3 * 16 ))-$(( $3 * 16 + 15 ))
while t=$(next); do
  left=$(( deadline - $(date +%s) ))
  if [ "$left" -lt 80 ]; then echo "$t" >> "$C/queue"; break; fi
  a=$(date +%s.%N)
  CUDA_VISIBLE_DEVICES=$g SLURM_ARRAY_TASK_ID=$t SLURM_CPUS_PER_TASK=16 \
    timeout -s TERM "$left" taskset -c "$cpus" bash "$C/campaign.sbatch" \
    > "$C/logs/task-$t.local.out" 2>&1
  rc=$?
  [ $rc -eq 0 ] && echo "$t" >> "$C/done.txt"
  echo "task $t gpu $g rc $rc $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $a}") s" >> "$C/lanes.log"
done
