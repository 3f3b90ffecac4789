#!/usr/bin/env bash
# BigCrush, whole and native, on further seeds of the single-stream 48-bit RANMARs
# (docs/findings.md, "BigCrush on 11 seeds"): for each CONFIGURATION and each k in FIRST..LAST,
#   rngvet run --generator CONFIGURATION --seed IJ,KL --battery bigcrush --engine native
#              --backend BACKEND --mode sharded --jobs JOBS --db DB
# with IJ = (1802 + 1553 k) mod 31329, KL = (9373 + 2671 k) mod 30082, the seeds of
# examples/findings/smallcrush.ini (k = 0 is 1802,9373, whose TestU01 runs are in
# docs/findings/bigcrush-2026-11-24). The native engine's p-values equal TestU01's bit for bit
# (docs/native.md), so each run is TestU01's BigCrush on that seed.
# Usage: bigcrush-seeds.sh RNGVET DB FIRST LAST BACKEND JOBS CONFIGURATION...
set -euo pipefail
rngvet="$1" db="$2" first="$3" last="$4" backend="$5" jobs="$6"
shift 6
seed() { echo "$(((1802 + 1553 * $1) % 31329)),$(((9373 + 2671 * $1) % 30082))"; }
for configuration in "$@"; do
    for k in $(seq "$first" "$last"); do
        "$rngvet" run --generator "$configuration" --seed "$(seed "$k")" --battery bigcrush \
            --engine native --backend "$backend" --mode sharded --jobs "$jobs" --db "$db" \
            >/dev/null
    done
done
