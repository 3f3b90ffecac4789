#!/usr/bin/env bash
# How this folder's stores were made, on the 2-core development machine (binary of b5995f4;
# RNGVET is build/cli/rngvet, HERE this folder, S the whole serial Crush stores of 2026-11-26).
RNGVET=${RNGVET:-build/cli/rngvet}
HERE=docs/bench/native-2026-11-27e
S=docs/bench/native-2026-11-26d/serial
# 1. The method on Crush: each of TestU01's 96 tests run alone at the native serial run's
#    offset, against the native run and against TestU01's whole serial run (1000 s, one job).
python3 $HERE/serial_by_offsets.py $RNGVET $S/crush-serial-native.sqlite out/crush --jobs 1 \
    --reference $S/crush-serial-testu01.sqlite -- --generator ranmar48 --seed 1802,9373
cp out/crush/by-offsets.sqlite $HERE/serial/crush-ranmar48-by-offsets.sqlite
# 2. BigCrush in serial mode, native (1540 s on the 2 cores for ranmar48).
for g in ranmar48 ranmar48x; do
  $RNGVET run --generator $g --seed 1802,9373 --battery bigcrush --mode serial --engine native \
      --db $HERE/serial/bigcrush-$g-serial-native.sqlite
done
# 3. TestU01's tests whose count of numbers depends on the numbers (CouponCollector 30-33, Gap
#    34-37, SumCollector 65, GCD 73, Run of bits 101-102) and some short fixed ones, alone at the native
#    offsets (the rest of BigCrush is about 10000 CPU s more: --jobs 64 on a large host, no --tests).
T=30,31,32,33,34,35,36,37,65,73,101,102,53,54,55,56,59,60,61,62,63,64,72,79
for g in ranmar48 ranmar48x; do
  python3 $HERE/serial_by_offsets.py $RNGVET $HERE/serial/bigcrush-$g-serial-native.sqlite \
      out/big-$g --jobs 2 --tests $T -- --generator $g --seed 1802,9373
  cp out/big-$g/by-offsets.sqlite $HERE/serial/bigcrush-$g-by-offsets.sqlite
done
# 4. ranmar48: 65 more tests the same way, reusing the 24 (1807 s on 2 cores).
T2=$T,40,78,85,84,57,42,74,75,1,77,58,76,28,26,2,41,90,91,29,27,38,51,93,98,52,100,49,99,92,48,97
T2=$T2,67,87,104,47,50,70,86,66,106,95,96,103,71,46,105,68,23,3,69,14,83,82,4,22,16,88,17,43,7,89
T2=$T2,81,39,24,80
python3 $HERE/serial_by_offsets.py $RNGVET $HERE/serial/bigcrush-ranmar48-serial-native.sqlite \
    out/big-ranmar48 --jobs 2 --reuse --tests $T2 -- --generator ranmar48 --seed 1802,9373
cp out/big-ranmar48/by-offsets.sqlite $HERE/serial/bigcrush-ranmar48-by-offsets.sqlite
# 5. (2026-11-27, a later session) The rest of both generators: ranmar48's other 17 tests and
#    ranmar48x's other 82, run alone in TestU01 at the native offsets on a host of 4 GPUs and 64
#    cores (docs/bench/native-2026-11-27f/callK.sh, calls K and L: `rngvet run --generator G
#    --seed 1802,9373 --battery bigcrush --tests k --skip O_k --mode serial --engine testu01
#    --backend cpu --db ser/G/test-k.sqlite`, the lines of serial-tests-call-K.txt, 60 at once),
#    their stores brought back to out/big-G/ and compared here (binary of 9c95f07 throughout):
for g in ranmar48 ranmar48x; do
  T=$(awk -v g=$g '$1 == g {print $2}' docs/bench/native-2026-11-27f/serial-tests-call-K.txt | paste -sd,)
  python3 $HERE/serial_by_offsets.py $RNGVET $HERE/serial/bigcrush-$g-serial-native.sqlite \
      out/big-$g --reuse --tests $T -- --generator $g --seed 1802,9373 --backend cpu
  cp out/big-$g/by-offsets.sqlite $HERE/serial/bigcrush-$g-by-offsets-2.sqlite
done
