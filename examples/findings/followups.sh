#!/usr/bin/env bash
# The follow-ups of docs/findings.md: statistics that failed or were suspect on the first seeds,
# re-run alone (--tests, sharded, so each test reads the stream segment it reads in the whole
# battery) on 10 further seeds each. Single instance, top32 view.
#   failures: ranmar48, Crush tests 34 (Gap, r = 22) and 54 (WeightDistrib, r = 24) on RANMAR
#             seeds k = 3..12; BigCrush tests 35 (Gap, r = 25), 61 (WeightDistrib, r = 28),
#             64 (WeightDistrib, r = 26), 98 (HammingIndep, L = 300, r = 26) on k = 1..10
#   suspects: BigCrush's suspect values on seed k = 0: ranmar48 tests 59 (WeightDistrib, r = 0)
#             and 80 (LinearComp, r = 0), ranmar48x tests 59 and 60 (WeightDistrib, r = 20),
#             on k = 1..10
# with IJ = (1802 + 1553 k) mod 31329, KL = (9373 + 2671 k) mod 30082, the seeds of
# examples/findings/smallcrush.ini (k = 0..2 ran in crush.ini, k = 0 in BigCrush).
# Usage: followups.sh RNGVET DB [PARALLEL [SET ...]]   SET: failures (about 45 CPU minutes),
# suspects (about 45 CPU minutes); default both. PARALLEL runs at once (default 4).
set -euo pipefail
rngvet="$1" db="$2" parallel="${3:-4}"
shift $(($# < 3 ? $# : 3))
sets="${*:-failures suspects}"
seed() { echo "$(((1802 + 1553 * $1) % 31329)),$(((9373 + 2671 * $1) % 30082))"; }
run_one() {
    "$rngvet" run --generator "$1" --seed "$5" --battery "$2" --tests "$3" --mode sharded \
        --jobs "$4" --db "$db" >/dev/null
}
export -f run_one
export rngvet db
{
    for set in $sets; do
        case "$set" in
        failures)
            for k in $(seq 3 12); do echo "ranmar48 crush 34,54 2 $(seed "$k")"; done
            for k in $(seq 1 10); do echo "ranmar48 bigcrush 35,61,64,98 4 $(seed "$k")"; done ;;
        suspects)
            for k in $(seq 1 10); do echo "ranmar48 bigcrush 59,80 2 $(seed "$k")"; done
            for k in $(seq 1 10); do echo "ranmar48x bigcrush 59,60 2 $(seed "$k")"; done ;;
        *) echo "followups.sh: unknown set '$set' (failures, suspects)" >&2; exit 2 ;;
        esac
    done
} | xargs -r -P "$parallel" -L 1 bash -c 'run_one "$@"' _
