#!/usr/bin/env bash
# The follow-ups of docs/findings.md: the statistics of ranmar48 (1 instance, top32) that were
# suspect in Crush or failed in BigCrush, re-run alone (--tests, sharded, so each test reads the
# stream segment it reads in the whole battery) on 10 further seeds each.
#   Crush tests 34 (Gap, r = 22) and 54 (WeightDistrib, r = 24): RANMAR seeds k = 3..12
#   BigCrush tests 35 (Gap, r = 25), 61 (WeightDistrib, r = 28), 64 (WeightDistrib, r = 26),
#   98 (HammingIndep, L = 300, r = 26): seeds k = 1..10
# with IJ = (1802 + 1553 k) mod 31329, KL = (9373 + 2671 k) mod 30082, the seeds of
# examples/findings/smallcrush.ini (k = 0..2 ran in crush.ini, k = 0 in BigCrush).
# Usage: followups.sh RNGVET DB [PARALLEL]   (about 45 CPU minutes; PARALLEL runs at once)
set -euo pipefail
rngvet="$1" db="$2" parallel="${3:-4}"
seed() { echo "$(((1802 + 1553 * $1) % 31329)),$(((9373 + 2671 * $1) % 30082))"; }
run_one() {
    "$rngvet" run --generator ranmar48 --seed "$4" --battery "$1" --tests "$2" --mode sharded \
        --jobs "$3" --db "$db" >/dev/null
}
export -f run_one
export rngvet db
{
    for k in $(seq 3 12); do echo "crush 34,54 2 $(seed "$k")"; done
    for k in $(seq 1 10); do echo "bigcrush 35,61,64,98 4 $(seed "$k")"; done
} | xargs -P "$parallel" -L 1 bash -c 'run_one "$@"' _
