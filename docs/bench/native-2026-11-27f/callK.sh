#!/usr/bin/env bash
# Calls K, L and M (a host of 4 GPUs and 64 cores). BigCrush in serial mode checked by offsets,
# the TestU01 half: each test in serial-all.txt ("GENERATOR TEST OFFSET", longest first by the
# catalogue; serial-tests-call-K.txt in call K, its 5 killed tests in call L, none in M) is run
# alone in TestU01 at the native serial run's offset, many at once on every core. Beside them,
# the findings' BigCrush campaign (camp/, carried between calls) on every GPU, one lane per GPU
# with its 16 cores, until the deadline $1 s from now; RANGES ($2) orders the campaign's queue.
# Call K ran the lanes at the serial tests' priority; calls L and M under `nice -n 5` (below),
# so that the long serial tests left from K were not slowed by them.
cd "$(dirname "$0")" && mkdir -p w && tar xJf bin.tar.xz -C w && cp -r camp camp.sh lanes.sh serial-all.txt w/ && cd w || exit 1
export LD_LIBRARY_PATH="$PWD/lib:/usr/local/cuda/lib64" OMP_WAIT_POLICY=PASSIVE
B=$PWD/rngvet-z
S=$(date +%s) END=$(( $(date +%s) + ${1:-540} ))
NG=$(nvidia-smi -L | wc -l)
./camp.sh "$END" queue "${2:-33-39 72-79 90-119}"
one() { # GENERATOR TEST OFFSET
  local a=$(date +%s.%N) left=$(( END - $(date +%s) ))
  [ "$left" -gt 5 ] || { echo "$1 test $2 not started" >> ser/times.txt; return 0; }
  timeout -s KILL "$left" "$B" run --generator "$1" --seed 1802,9373 --battery bigcrush --tests "$2" --skip "$3" \
    --mode serial --engine testu01 --backend cpu --db "ser/$1/test-$2.sqlite" > "ser/$1/test-$2.log" 2>&1
  echo "$1 test $2 rc $? $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $a}") s" >> ser/times.txt
}
export -f one; export B END
{
nvidia-smi -L; nproc; lscpu | grep "Model name"; date -u
mkdir -p ser/ranmar48 ser/ranmar48x
if [ -s serial-all.txt ]; then
  ( xargs -P "${SERIAL_JOBS:-60}" -L 1 bash -c 'one "$@"' _ < serial-all.txt
    echo "serial done $(( $(date +%s) - S )) s" ) &
fi
( nice -n 5 ./lanes.sh "$END" "$(seq -s ' ' 0 $((NG - 1)))" ) &
wait
echo "end $(( $(date +%s) - S )) s"; date -u
} > "$OUT/call.txt" 2>&1
tar czf "$OUT/ser.tgz" ser 2>/dev/null
tar czf "$OUT/camp.tgz" camp/done.txt camp/tasks camp/logs camp/lanes.log camp/queue 2>/dev/null
