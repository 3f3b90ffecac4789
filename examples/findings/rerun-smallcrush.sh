#!/usr/bin/env bash
# Re-runs the SmallCrush rows of docs/findings.md in CI size: the first SEEDS seeds (default 2)
# of some configurations of examples/findings/smallcrush.ini, through `rngvet campaign run`, and
# compares every p-value with the stored campaign (docs/findings/smallcrush-2026-11-24): the
# same configuration and seed must give the same p-values, exactly.
#
#   examples/findings/rerun-smallcrush.sh RNGVET [SEEDS] [CONFIGURATION ...]
#
# With no configuration given: one of each kind (RANMAR 24/48/48x, views, arrangements, the
# SDK's and the OpenCL book's MT sets, MT19937). Prints the number of p-values compared.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rngvet=$(realpath "$1")
seeds=${2:-2}
shift $(($# < 2 ? $# : 2))
configurations=("$@")
[ ${#configurations[@]} -gt 0 ] || configurations=(ranmar48-single-top32 ranmar24-single-packed
    ranmar48x-request8-low32 ranmar48-interleave8-top32 sdk-mt607-4096-same book-mt521-32 mt19937)
stored=$here/../../docs/findings/smallcrush-2026-11-24/campaign.sqlite
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The campaign section and the chosen configurations, each seeds line cut to its first seeds.
awk -v keep="${configurations[*]}" -v n="$seeds" '
    BEGIN { split(keep, k, " "); for (i in k) want["[configuration " k[i] "]"] = 1 }
    /^\[/ { on = ($0 == "[campaign]") || ($0 in want); if ($0 in want) found++ }
    on && /^seeds[ \t]*=/ { split($0, f, "="); split(f[2], s, " "); line = "seeds ="
        for (i = 1; i <= n && i in s; i++) line = line " " s[i]; print line; next }
    on { print }
    END { if (found != length(want)) { print "unknown configuration" > "/dev/stderr"; exit 2 } }
' "$here/smallcrush.ini" >"$work/ci.ini"
"$rngvet" campaign run "$work/ci.ini" --jobs "$(nproc)" --out "$work/campaign" >"$work/log" 2>&1 \
    || { cat "$work/log"; echo "rerun-smallcrush: the campaign failed" >&2; exit 1; }
cp "$stored" "$work/stored.sqlite"
sqlite3 "$work/campaign/campaign.sqlite" >"$work/counts" <<SQL
ATTACH '$work/stored.sqlite' AS stored;
SELECT count(*),
       sum(s.pvalue = t.pvalue),
       sum(t.pvalue IS NULL)
FROM runs r JOIN statistics s USING (run_id)
LEFT JOIN (SELECT sr.config, sr.seed, ss.stat_index, ss.pvalue
           FROM stored.runs sr JOIN stored.statistics ss USING (run_id)) t
  ON t.config = r.config AND t.seed = r.seed AND t.stat_index = s.stat_index;
SQL
IFS='|' read -r total equal missing <"$work/counts"
runs=$(sqlite3 "$work/campaign/campaign.sqlite" "SELECT count(*) FROM runs WHERE status = 'complete'")
echo "rerun-smallcrush: $runs runs, $total p-values: $equal equal to the stored ones, $missing not stored"
[ "$total" -gt 0 ] && [ "$total" = "$equal" ] && [ "$missing" = 0 ]
