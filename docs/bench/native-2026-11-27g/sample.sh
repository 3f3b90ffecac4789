#!/usr/bin/env bash
# Eight BigCrush tests (Gap, SumCollector, CollisionPermut, HammingCorr, Run, MaxOft,
# BirthdaySpacings, AppearanceSpacings), native, on the host only (backend openmp), 2 jobs, on
# the 2-core development machine: binary OLD, then binary NEW, one after the other.
#   usage: sample.sh OLD NEW    (each a path to an rngvet binary; stores and times go to ./)
set -u
TESTS=36,65,44,94,39,49,13,57
for which in old new; do
  B=$1; [ "$which" = new ] && B=$2
  rm -f "bigcrush-sample-$which.sqlite"
  a=$(date +%s.%N)
  OMP_WAIT_POLICY=PASSIVE "$B" run --generator ranmar48 --seed 1802,9373 --battery bigcrush \
    --tests $TESTS --mode sharded --jobs 2 --engine native --backend openmp \
    --db "bigcrush-sample-$which.sqlite" > "bigcrush-sample-$which.log" 2>&1
  echo "$which rc $? wall $(awk "BEGIN{printf \"%.1f\", $(date +%s.%N) - $a}") s"
done
