#!/usr/bin/env bash
# The lattice battery on 10 seeds of every configuration of docs/findings.md's results table
# (top32 view), plus R250 (the control) and ranmar48 with 64 instances read per site (lanes=64):
# Wolff and Metropolis (ising tests 1 and 2) at L = 16 (the defaults), L = 32 and L = 64
# (therm=4096). Seeds k = FIRST..LAST: RANMAR IJ = (1802 + 1553 k) mod 31329,
# KL = (9373 + 2671 k) mod 30082 (examples/findings/smallcrush.ini), Mersenne Twisters 777 + k,
# the book's MT521 sets k, R250 k + 1.
# Usage: ising-seeds.sh RNGVET DB L FIRST LAST PARALLEL [BACKEND [CONFIGURATION...]]
#   e.g. ising-seeds.sh build/cli/rngvet ising-seeds.sqlite 16 0 9 16 cuda
# Each run: rngvet run OPTIONS --seed S --battery 'ising(L=..)' --tests 1,2 --backend BACKEND,
# on one thread (a run's replicas read its one stream in turn), so PARALLEL runs go at once (the
# machine's cores); r250 and mt19937 run on the cpu backend whatever BACKEND is (R250 has no
# device kernel, and one MT19937 is faster on a core). STOP_AT (epoch seconds), if set, starts
# no run after that time.
set -euo pipefail
rngvet="$1" db="$2" L="$3" first="$4" last="$5" parallel="$6" backend="${7:-cpu}"
shift $(($# < 7 ? $# : 7))
all="r250 mt19937 sdk-mt607-same sdk-mt607-hash book-mt521 ranmar24 ranmar24-request8
ranmar24-interleave8 ranmar48 ranmar48-request8 ranmar48-interleave8 ranmar48x ranmar48x-request8
ranmar48x-interleave8 ranmar48-x64-lanes64"
configurations="${*:-$all}"
battery="ising(L=$L)"
[ "$L" -gt 16 ] && battery="ising(L=$L,therm=4096)"
ranmar() { echo "$(((1802 + 1553 * $1) % 31329)),$(((9373 + 2671 * $1) % 30082))"; }
line() { # configuration k -> "SEED BATTERY BACKEND OPTIONS..."
    local sdk="--generator mtdc --params nvidia-sdk-mt607 --instances 4096 --layout interleave"
    case "$1" in
    r250) echo "$(($2 + 1)) $battery cpu --generator r250" ;;
    mt19937) echo "$((777 + $2)) $battery cpu --generator mt19937" ;;
    sdk-mt607-same) echo "$((777 + $2)) $battery $backend $sdk --seeding same" ;;
    sdk-mt607-hash) echo "$((777 + $2)) $battery $backend $sdk --seeding hash" ;;
    book-mt521) echo "$2 $battery $backend --generator mtdc --params fixstars-mt521 --instances 32 --layout block:1000 --seeding stride:13311" ;;
    ranmar24 | ranmar48 | ranmar48x) echo "$(ranmar "$2") $battery $backend --generator $1" ;;
    *-request8) echo "$(ranmar "$2") $battery $backend --generator ${1%-request8} --instances 8 --layout block:12500 --seeding increment" ;;
    *-interleave8) echo "$(ranmar "$2") $battery $backend --generator ${1%-interleave8} --instances 8 --layout interleave --seeding increment" ;;
    ranmar48-x64-lanes64) echo "$(ranmar "$2") ${battery%)},lanes=64) $backend --generator ranmar48 --instances 64 --layout interleave --seeding increment" ;;
    *) echo "ising-seeds.sh: unknown configuration '$1'" >&2; exit 2 ;;
    esac
}
run_one() {
    local seed="$1" battery="$2" backend="$3"
    shift 3
    if [ -n "${STOP_AT:-}" ] && [ "$(date +%s)" -ge "$STOP_AT" ]; then return 0; fi
    "$rngvet" run "$@" --seed "$seed" --battery "$battery" --tests 1,2 --backend "$backend" \
        --db "$db" >/dev/null
}
export -f run_one
export rngvet db STOP_AT
for c in $configurations; do
    for k in $(seq "$first" "$last"); do line "$c" "$k"; done
done | xargs -r -P "$parallel" -L 1 bash -c 'run_one "$@"' _
