#!/usr/bin/env bash
# The ising battery's Wolff test at Ferrenberg, Landau and Wong's length (docs/findings.md,
# "Wolff at Ferrenberg et al.'s length"): L = 16, K_c, 8 replicas of 1250304 clusters each
# (10002432 in all) after 4096 of thermalisation; one run a configuration and seed, two at once.
# Usage: run.sh RNGVET OUT_DIR
set -eu
rngvet=$1 out=$2
W='ising(L=16,therm=4096,steps=1250304,reps=8'
mkdir -p "$out/logs"
one() { # NAME BATTERY RNGVET-RUN-ARGUMENTS...
    local name=$1 battery=$2
    shift 2
    "$rngvet" run "$@" --battery "$battery" --tests 1 --db "$out/$name.sqlite" \
        --log "$out/logs/$name" > /dev/null
}
one pl-1802 "$W,lanes=64)" --generator ranmar48 --seed 1802,9373 --instances 64 --layout interleave &
one pl-3355 "$W,lanes=64)" --generator ranmar48 --seed 3355,12044 --instances 64 --layout interleave
wait
one pl-4908 "$W,lanes=64)" --generator ranmar48 --seed 4908,14715 --instances 64 --layout interleave &
one pl-6461 "$W,lanes=64)" --generator ranmar48 --seed 6461,17386 --instances 64 --layout interleave
wait
one one-1802 "$W)" --generator ranmar48 --seed 1802,9373 &
one one-3355 "$W)" --generator ranmar48 --seed 3355,12044
wait
one mt-5489 "$W)" --generator mt19937 --seed 5489 &
one r250-1 "$W)" --generator r250 --seed 1
wait
# Then 10 more seeds of each, by the findings' rule (IJ = (1802 + 1553 k) mod 31329, KL = (9373 +
# 2671 k) mod 30082): per site k = 4..13, one stream k = 14..23, so that no single stream is
# seeded as a per-site run's instance.
seed() { echo "$(((1802 + 1553 * $1) % 31329)),$(((9373 + 2671 * $1) % 30082))"; }
for k in 4 6 8 10 12; do
    one "pl-k$k" "$W,lanes=64)" --generator ranmar48 --seed "$(seed $k)" --instances 64 --layout interleave &
    one "pl-k$((k + 1))" "$W,lanes=64)" --generator ranmar48 --seed "$(seed $((k + 1)))" --instances 64 --layout interleave
    wait
done
for k in 14 16 18 20 22; do
    one "one-k$k" "$W)" --generator ranmar48 --seed "$(seed $k)" &
    one "one-k$((k + 1))" "$W)" --generator ranmar48 --seed "$(seed $((k + 1)))"
    wait
done
