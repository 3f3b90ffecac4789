#!/usr/bin/env bash
# Call E. Phase 1, the host otherwise idle: Crush and BigCrush timed on GPU 0 and cores 0-15
# (threads per test: the default rule, then RNGVET_SHARD_THREADS=8 and 16). Phase 2: the
# BigCrush campaign on GPUs 1-3 (cores 16-63); on GPU 0 the low32 view's device path against
# its host-path store (campaign task 80), the Mersenne Twister plans, then GPU 0 joins the lanes.
cd "$(dirname "$0")" && mkdir -p w && tar xJf bin.tar.xz -C w && cd w || exit 1
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
B=$PWD/rngvet-z
S=$(date +%s) END=$(( $(date +%s) + ${1:-540} ))
exec 3>>"$OUT/times.txt"
T() { local a=$(date +%s.%N); "$@"; local rc=$?; echo "rc $rc, $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $a}") s: $*" >&3; return $rc; }
P() { (cd "$OUT" && for f in "$@"; do [ -e "$f" ] && tar rf out.tar "$f" && rm -f "$f"; done); }
G="env CUDA_VISIBLE_DEVICES=0 taskset -c 0-15"
R="run --generator ranmar48 --seed 1802,9373 --mode sharded --jobs 16 --backend cuda --engine native"
./camp.sh "$END" queue "82-89 40-49 50-59 60-69 70-79 90-99 100-109 110-119 24-29 30-39"
{
nvidia-smi -L; nproc; uname -r; date -u; nvidia-smi -q | grep -iE "persistence|product name" | sort -u
echo "cpu0 siblings: $(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list), cpu15: $(cat /sys/devices/system/cpu/cpu15/topology/thread_siblings_list)"
lscpu | grep -iE "model name|thread|socket|core"
echo "== phase 1 (idle host)"
T $G "$B" $R --battery crush --db "$OUT/crush-a.sqlite" > /dev/null 2>>"$OUT/runs.log"
T $G "$B" $R --battery crush --db "$OUT/crush-b.sqlite" > /dev/null 2>>"$OUT/runs.log"
T $G "$B" $R --battery bigcrush --db "$OUT/bigcrush-rule.sqlite" > /dev/null 2>>"$OUT/runs.log"
RNGVET_SHARD_THREADS=8 T $G "$B" $R --battery bigcrush --db "$OUT/bigcrush-t8.sqlite" > /dev/null 2>>"$OUT/runs.log"
RNGVET_SHARD_THREADS=16 T $G "$B" $R --battery bigcrush --db "$OUT/bigcrush-t16.sqlite" > /dev/null 2>>"$OUT/runs.log"
RNGVET_SHARD_THREADS=8 T $G "$B" $R --battery crush --db "$OUT/crush-t8.sqlite" > /dev/null 2>>"$OUT/runs.log"
P crush-a.sqlite crush-b.sqlite bigcrush-rule.sqlite bigcrush-t8.sqlite bigcrush-t16.sqlite crush-t8.sqlite
echo "phase 1 end $(( $(date +%s) - S )) s"
NG=$(nvidia-smi -L | wc -l)
[ "$NG" -gt 1 ] && ( ./lanes.sh "$END" "$(seq -s " " 1 $((NG - 1)))" ) &
echo "== low32 on the device (campaign task 80's configuration)"
T $G "$B" run --generator ranmar48 --seed 1802,9373 --instances 8 --layout interleave --seeding increment --backend cuda --view low32 --battery bigcrush --engine native --mode sharded --jobs 16 --db "$OUT/low32-device.sqlite" > /dev/null 2>>"$OUT/runs.log"
P low32-device.sqlite
echo "== Mersenne Twister plans"
for sl in "0 0" "256 131072" "1024 32768" "64 524288" "4096 8192" "16 2097152"; do
  set -- $sl
  T $G "$B" bench --backend cuda --seconds 0.3 --launch 33554432 --only mt19937/1/single --segments $1 --segment-length $2 2>&1 | grep "cuda device"
done
for sl in "0 0" "32 32768" "128 8192" "8 131072"; do
  set -- $sl
  T $G "$B" bench --backend cuda --seconds 0.3 --launch 33554432 --only /32/block --segments $1 --segment-length $2 2>&1 | grep "cuda device"
done
echo "== TestU01's Crush on the same GPU and cores"
T $G "$B" run --generator ranmar48 --seed 1802,9373 --mode sharded --jobs 16 --backend cuda --engine testu01 --battery crush --db "$OUT/crush-testu01.sqlite" > /dev/null 2>>"$OUT/runs.log"
P crush-testu01.sqlite
echo "phase 2 end $(( $(date +%s) - S )) s"
( ./lanes.sh "$END" 0 ) &
wait
echo "end $(( $(date +%s) - S )) s"; date -u
} > "$OUT/call.txt" 2>&1
P runs.log call.txt
tar czf "$OUT/camp.tgz" camp/done.txt camp/tasks camp/logs camp/lanes.log camp/queue 2>/dev/null
