#!/usr/bin/env bash
# The start check (rngvet validate, docs/reports.md) on every multi-instance configuration of
# examples/findings/smallcrush.ini, first seed of each. Usage: start-checks.sh [RNGVET]
set -euo pipefail
rngvet="${1:-rngvet}"
check() { "$rngvet" validate "$@" | grep -E 'instance-start' || true; }
for g in ranmar24 ranmar48 ranmar48x; do
    check --generator "$g" --seed 1802,9373 --instances 8 --layout block:12500 --seeding increment
    check --generator "$g" --seed 1802,9373 --instances 8 --layout interleave --seeding increment
done
check --generator mtdc --params nvidia-sdk-mt607 --instances 4096 --layout interleave --seeding same --seed 777
check --generator mtdc --params nvidia-sdk-mt607 --instances 4096 --layout interleave --seeding hash --seed 777
check --generator mtdc --params fixstars-mt521 --instances 32 --layout block:1000 --seeding stride:13311 --seed 0
