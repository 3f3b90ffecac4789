#!/usr/bin/env bash
# The follow-ups of docs/findings.md: statistics that failed or were suspect on the first seeds,
# re-run alone (--tests, sharded, so each test reads the stream segment it reads in the whole
# battery) on 10 further seeds each, top32 view.
#   failures:    ranmar48 (1 instance), Crush tests 34 (Gap, r = 22) and 54 (WeightDistrib,
#                r = 24) on RANMAR seeds k = 3..12; BigCrush tests 35 (Gap, r = 25),
#                61 (WeightDistrib, r = 28), 64 (WeightDistrib, r = 26), 98 (HammingIndep,
#                L = 300, r = 26) on k = 1..10
#   suspects:    BigCrush's suspect values on seed k = 0: ranmar48 tests 59 (WeightDistrib,
#                r = 0) and 80 (LinearComp, r = 0), ranmar48x tests 59 and 60 (WeightDistrib,
#                r = 20), on k = 1..10
#   crush-part2: the statistics outside [0.001, 0.999] on any seed of crush-part2.ini, on the
#                10 seeds after its three (k = 3..12): ranmar48 in block:12500 tests 34 and 54,
#                ranmar48 8 interleaved test 10 (CollisionOver, t = 20), the SDK's 4096 MT607
#                sets hashed test 87 (HammingIndep, L = 300) and seeded alike test 15
#                (BirthdaySpacings, t = 7), the book's 32 MT521 sets tests 48 (SampleCorr) and
#                95 (AutoCor, d = 30). ranmar48 with --zero smallest is left out: its p-values
#                equal --zero keep's (no exact zero occurs), whose follow-ups are 'failures'.
#   crush-part3: the statistics outside [0.001, 0.999] on any seed of crush-part3.ini but
#                MT19937's (the published failure), on k = 3..12: ranmar48's low32 view, tests
#                34 (Gap, r = 22), 52, 53, 54 (WeightDistrib, r = 8, 16, 24) and 67
#                (RandomWalk1, L = 1000); the same view in block:12500, tests 9 (CollisionOver,
#                t = 20), 34, 52, 53, 54 and 70 (RandomWalk1, L = 10000); ranmar48x's low32
#                view, test 66 (RandomWalk1, L = 90)
#   crush-part4: the statistics outside [0.001, 0.999] on any seed of crush-part4.ini, on
#                k = 3..12: ranmar48 8 interleaved, low32 view, tests 33 and 34 (Gap, r = 0 and
#                r = 22); ranmar48x in block:12500, low32 view, test 85 (HammingIndep, L = 30),
#                and packed view, test 32 (Gap, r = 27)
# with IJ = (1802 + 1553 k) mod 31329, KL = (9373 + 2671 k) mod 30082, the seeds of
# examples/findings/smallcrush.ini (Mersenne Twisters 777 + k, the book's sets k).
# Usage: followups.sh RNGVET DB [PARALLEL [SET ...]]   SET: failures (about 45 CPU minutes),
# suspects (about 45 CPU minutes), crush-part2 (about 20 CPU minutes), crush-part3 (about 21 CPU
# minutes), crush-part4 (about 10 CPU minutes); default all five.
# PARALLEL runs at once (default 4).
set -euo pipefail
rngvet="$1" db="$2" parallel="${3:-4}"
shift $(($# < 3 ? $# : 3))
sets="${*:-failures suspects crush-part2 crush-part3 crush-part4}"
seed() { echo "$(((1802 + 1553 * $1) % 31329)),$(((9373 + 2671 * $1) % 30082))"; }
# One line a run: BATTERY TESTS JOBS SEED RNGVET-RUN-OPTIONS...
run_one() {
    local battery="$1" tests="$2" jobs="$3" seed="$4"
    shift 4
    "$rngvet" run "$@" --seed "$seed" --battery "$battery" --tests "$tests" --mode sharded \
        --jobs "$jobs" --db "$db" >/dev/null
}
export -f run_one
export rngvet db
sdk="--generator mtdc --params nvidia-sdk-mt607 --instances 4096 --layout interleave"
{
    for set in $sets; do
        case "$set" in
        failures)
            for k in $(seq 3 12); do echo "crush 34,54 2 $(seed "$k") --generator ranmar48"; done
            for k in $(seq 1 10); do echo "bigcrush 35,61,64,98 4 $(seed "$k") --generator ranmar48"; done ;;
        suspects)
            for k in $(seq 1 10); do echo "bigcrush 59,80 2 $(seed "$k") --generator ranmar48"; done
            for k in $(seq 1 10); do echo "bigcrush 59,60 2 $(seed "$k") --generator ranmar48x"; done ;;
        crush-part2)
            for k in $(seq 3 12); do
                echo "crush 34,54 2 $(seed "$k") --generator ranmar48 --instances 8 --layout block:12500"
                echo "crush 10 1 $(seed "$k") --generator ranmar48 --instances 8 --layout interleave"
                echo "crush 87 1 $((777 + k)) $sdk --seeding hash"
                echo "crush 15 1 $((777 + k)) $sdk --seeding same"
                echo "crush 48,95 2 $k --generator mtdc --params fixstars-mt521 --instances 32 --layout block:1000 --seeding stride:13311"
            done ;;
        crush-part3)
            for k in $(seq 3 12); do
                echo "crush 67 1 $(seed "$k") --generator ranmar48 --view low32"
                echo "crush 34,52,53,54 2 $(seed "$k") --generator ranmar48 --view low32"
                echo "crush 9,34,52,53,54,70 2 $(seed "$k") --generator ranmar48 --instances 8 --layout block:12500 --view low32"
                echo "crush 66 1 $(seed "$k") --generator ranmar48x --view low32"
            done ;;
        crush-part4)
            for k in $(seq 3 12); do
                echo "crush 33,34 2 $(seed "$k") --generator ranmar48 --instances 8 --layout interleave --view low32"
                echo "crush 85 1 $(seed "$k") --generator ranmar48x --instances 8 --layout block:12500 --view low32"
                echo "crush 32 1 $(seed "$k") --generator ranmar48x --instances 8 --layout block:12500 --view packed"
            done ;;
        *) echo "followups.sh: unknown set '$set' (failures, suspects, crush-part2, crush-part3, crush-part4)" >&2; exit 2 ;;
        esac
    done
} | xargs -r -P "$parallel" -L 1 bash -c 'run_one "$@"' _
