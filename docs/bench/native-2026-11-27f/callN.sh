#!/usr/bin/env bash
# Call N (the H100 machine of the targets, one GPU, 16 cores): BigCrush native on the 16 CPU
# cores only (--backend openmp), then on the GPU, the node otherwise idle; then the findings'
# campaign (camp/) on the GPU until the deadline $1 s from now.
cd "$(dirname "$0")" && mkdir -p w && tar xJf bin.tar.xz -C w && cp -r camp camp.sh lanes.sh w/ && cd w || exit 1
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64"
B=$PWD/rngvet-z
S=$(date +%s) END=$(( $(date +%s) + ${1:-540} ))
exec 3>>"$OUT/times.txt"
T() { local a=$(date +%s.%N); "$@"; local rc=$?; echo "rc $rc, $(awk "BEGIN{printf \"%.2f\", $(date +%s.%N) - $a}") s: $*" >&3; return $rc; }
R="run --generator ranmar48 --seed 1802,9373 --battery bigcrush --mode sharded --jobs 16 --engine native"
./camp.sh "$END" queue "${2:-33-39 72-79 90-119}"
{
nvidia-smi -L; nproc; lscpu | grep "Model name"; date -u
T "$B" $R --backend openmp --db "$OUT/bigcrush-openmp.sqlite" > /dev/null 2>>"$OUT/runs.log"
T "$B" $R --backend cuda --db "$OUT/bigcrush-cuda.sqlite" > /dev/null 2>>"$OUT/runs.log"
echo "benchmarks end $(( $(date +%s) - S )) s"
( ./lanes.sh "$END" 0 )
echo "end $(( $(date +%s) - S )) s"; date -u
} > "$OUT/call.txt" 2>&1
tar czf "$OUT/camp.tgz" camp/done.txt camp/tasks camp/logs camp/lanes.log camp/queue 2>/dev/null
