#!/usr/bin/env bash
# Quality and speed of `rngvet dc create` beside dcmt 0.6.1 (Matsumoto & Nishimura's Dynamic
# Creator, https://github.com/MersenneTwister-Lab/dcmt, BSD), one markdown table on stdout.
#
#   scripts/dc_bench.sh RNGVET DCMT_SOURCE [THREADS] ["P LIST"] [COUNT]
#
# RNGVET: the rngvet binary (e.g. build/cli/rngvet). DCMT_SOURCE: a dcmt 0.6.1 or 0.6.2 source
# tree (its lib/ and include/); it is copied to a temporary folder and built there with its own
# Makefile, for this measurement only (nothing of dcmt is part of rngvet). THREADS: threads of
# the parallel rngvet runs (default: all cores). P LIST: default "521 607 1279 2203". COUNT:
# sets per p (default 32). DC seed 4172, ids 0..COUNT-1.
#
# Per p: dcmt's get_mt_parameters_st(32, p, 0, COUNT-1, 4172) on one thread; rngvet
# --compat dcmt-0.6.1 on 1 and THREADS threads (checked identical to dcmt's sets); rngvet's
# own mode on 1 and THREADS threads; the k(v) defect sums (median, min-max over the sets) of
# dcmt's and rngvet's sets, from `rngvet dc verify`.
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '4,9p' "$0" >&2
    exit 2
fi
rngvet=$(realpath "$1")
dcmt_src=$(realpath "$2")
threads=${3:-$(nproc)}
plist=${4:-"521 607 1279 2203"}
count=${5:-32}
seed=4172
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cp -r "$dcmt_src/lib" "$dcmt_src/include" "$work/"
make -s -C "$work/lib" >/dev/null 2>&1
cat >"$work/sets.c" <<'C'
/* Prints get_mt_parameters_st(32, p, 0, count - 1, seed) as "id aaa maskB maskC" (hex). */
#include <stdio.h>
#include <stdlib.h>
#include "dc.h"
int main(int argc, char **argv)
{
    int n = 0, p = atoi(argv[1]), count = atoi(argv[2]);
    uint32_t seed = (uint32_t)strtoul(argv[3], NULL, 10);
    mt_struct **m = get_mt_parameters_st(32, p, 0, count - 1, seed, &n);
    for (int i = 0; i < n; i++)
        printf("%d %08x %08x %08x\n", i, m[i]->aaa, m[i]->maskB, m[i]->maskC);
    return n == count ? 0 : 1;
}
C
gcc -O3 -std=c99 -I"$work/include" "$work/sets.c" "$work/lib/libdcmt.a" -o "$work/sets"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
# "median (min-max)" of the defect sums in a parameter file.
quality() {
    "$rngvet" dc verify "$1" --threads "$threads" |
        awk '/^k\(v\) defect sum/ { gsub(",", ""); print $9 " (" $7 "-" $11 ")" }'
}
sets_only() { grep -v '^#' "$1" | grep -v '^p=' | awk '{ print $1, $2, $3, $4 }'; }

echo "DC seed $seed, $count sets per p, ids 0..$((count - 1)); rngvet threads: 1 and $threads;" \
    "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo
echo "| p | dcmt 0.6.1, 1 thread | compat, 1 thread | compat, $threads threads | compat = dcmt | rngvet, 1 thread | rngvet, $threads threads | defect sum dcmt: median (min-max) | defect sum rngvet |"
echo "|---|---|---|---|---|---|---|---|---|"
for p in $plist; do
    t0=$(now)
    "$work/sets" "$p" "$count" "$seed" >"$work/dcmt_$p.sets"
    t1=$(now)
    { echo "p=$p w=32"; cat "$work/dcmt_$p.sets"; } >"$work/dcmt_$p.txt"
    "$rngvet" dc create --p "$p" --count "$count" --seed "$seed" --compat dcmt-0.6.1 \
        --threads 1 --out "$work/c1_$p.txt" 2>/dev/null
    t2=$(now)
    "$rngvet" dc create --p "$p" --count "$count" --seed "$seed" --compat dcmt-0.6.1 \
        --threads "$threads" --out "$work/cn_$p.txt" 2>/dev/null
    t3=$(now)
    "$rngvet" dc create --p "$p" --count "$count" --seed "$seed" --threads 1 \
        --out "$work/r1_$p.txt" 2>/dev/null
    t4=$(now)
    "$rngvet" dc create --p "$p" --count "$count" --seed "$seed" --threads "$threads" \
        --out "$work/rn_$p.txt" 2>/dev/null
    t5=$(now)
    same=no
    if cmp -s <(sets_only "$work/c1_$p.txt") "$work/dcmt_$p.sets" &&
        cmp -s <(sets_only "$work/cn_$p.txt") "$work/dcmt_$p.sets"; then
        same=yes
    fi
    # Note: each rngvet time includes its own dc verify of the new sets (k(v) for the header).
    echo "| $p | $(secs "$t0" "$t1") s | $(secs "$t1" "$t2") s | $(secs "$t2" "$t3") s | $same" \
        "| $(secs "$t3" "$t4") s | $(secs "$t4" "$t5") s | $(quality "$work/dcmt_$p.txt")" \
        "| $(quality "$work/r1_$p.txt") |"
done
