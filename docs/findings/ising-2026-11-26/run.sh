#!/bin/sh
# Reproduces docs/findings.md, "ising on the CPU, 2026-11-26": the ising battery at L = 16 (the
# defaults) and L = 32 (therm=4096) on three seeds each of r250, mt19937, ranmar48, and
# ranmar48 with 64 interleaved instances, one sequence per replica (lanes 1) and per site
# (lanes 64). Usage: run.sh RNGVET L [TESTS] (run.sh build/cli/rngvet 16; run.sh
# build/cli/rngvet 32 1,2 for Wolff and Metropolis only); writes ising-L<L>.sqlite and the logs
# logs/L<L>-<name>-<seed>.testK here.
set -e
rngvet=$1
L=$2
tests=${3:-1,2,3}
here=$(dirname "$0")
params="L=$L"
[ "$L" -gt 16 ] && params="L=$L,therm=4096"
db="$here/ising-L$L.sqlite"
mkdir -p "$here/logs"
run() { # name seed extra-parameters options...
    name=$1 seed=$2 extra=$3
    shift 3
    nice "$rngvet" run --seed "$seed" "$@" --battery "ising($params$extra)" --tests "$tests" \
        --db "$db" --log "$here/logs/L$L-$name-$(echo "$seed" | tr , _)" >/dev/null
}
for s in 1 2 3; do run r250 $s "" --generator r250; done
for s in 1 2 3; do run mt19937 $s "" --generator mt19937; done
for s in 1802,9373 3355,12044 4908,14715; do
    run ranmar48 $s "" --generator ranmar48
    run ranmar48x64 $s "" --generator ranmar48 --instances 64 --layout interleave
    run ranmar48x64-lanes64 $s ",lanes=64" --generator ranmar48 --instances 64 \
        --layout interleave
done
