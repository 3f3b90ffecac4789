#!/usr/bin/env bash
# A campaign on a real Slurm (scripts/slurm-ci): examples/campaign-small.ini (two configurations x
# two seeds x SmallCrush in three shards = 12 array tasks) is submitted; one task is killed with
# SIGKILL part way; the queue drains (the afterany merge job runs anyway); resubmit runs only that
# task, which resumes its finished tests; the merged database then holds every statistic of every
# task exactly once, merging again changes nothing, and rngvet report reads it.
#
# usage: test_campaign_slurm.sh RNGVET SOURCE_DIR     exit 77 (skip) when Slurm cannot run here
set -euo pipefail

RNGVET=$1
SRC=$2
CI="$SRC/scripts/slurm-ci"
export SLURM_CI_DIR=${SLURM_CI_DIR:-/tmp/rngvet-slurm}
W=$(mktemp -d /tmp/rngvet-campaign-slurm.XXXXXX)
C="$W/campaign"

fail() {
  echo "FAIL: $*" >&2
  echo "--- campaign directory kept: $W" >&2
  exit 1
}

started=0
cleanup() {
  local rc=$?
  [ "$started" = 1 ] && "$CI" stop || true
  [ "$rc" = 0 ] && rm -rf "$W"
  return 0
}
trap cleanup EXIT

command -v sqlite3 >/dev/null || fail "the sqlite3 shell is needed (scripts/setup installs it)"
"$CI" stop || true
set +e
SLURM_CI_SMOKE=0 "$CI" start
rc=$?
set -e
if [ "$rc" = 77 ]; then
  echo "SKIP: Slurm cannot run on this machine (see the slurm-ci message above)"
  exit 77
fi
[ "$rc" = 0 ] || fail "scripts/slurm-ci start failed ($rc)"
started=1
# shellcheck disable=SC1091
source "$SLURM_CI_DIR/env.sh"

# Polls until `squeue -j IDS` is empty: at most $2 seconds.
wait_queue() {
  local ids=$1 end=$((SECONDS + $2))
  while [ -n "$(squeue -h -j "$ids" 2>/dev/null)" ]; do
    [ "$SECONDS" -lt "$end" ] || { squeue -j "$ids" >&2; fail "jobs $ids still queued after $2 s"; }
    sleep 0.5
  done
}

q() { sqlite3 -batch -noheader "$1" "$2"; }

"$RNGVET" campaign submit "$SRC/examples/campaign-small.ini" --slurm --out "$C" || fail "submit"
A=$(awk '$1 == "array" {print $2}' "$C/jobs.tsv")
M=$(awk '$1 == "merge" {print $2}' "$C/jobs.tsv")
[ -n "$A" ] && [ -n "$M" ] || fail "no job ids recorded in jobs.tsv"

# Kill one task as soon as it has stored some but not all of its tests.
killed=""
end=$((SECONDS + 60))
while [ -z "$killed" ] && [ "$SECONDS" -lt "$end" ] && [ -n "$(squeue -h -j "$A" 2>/dev/null)" ]; do
  for db in "$C"/tasks/task-*.sqlite; do
    [ -e "$db" ] || continue
    t=${db##*/task-}; t=${t%.sqlite}
    done_tests=$(q "$db" "SELECT count(*) FROM tests" 2>/dev/null || echo 0)
    all_tests=$(q "$db" "SELECT length(tests_selected) - length(replace(tests_selected, ',', '')) + 1 FROM runs" 2>/dev/null || echo 0)
    if [ "${done_tests:-0}" -ge 1 ] && [ "${done_tests:-0}" -lt "${all_tests:-0}" ] \
       && [ "$(squeue -h -j "${A}_$t" -o %T 2>/dev/null)" = RUNNING ]; then
      scancel --full --signal=KILL "${A}_$t" && killed=$t
      echo "killed task $t after $done_tests of $all_tests tests"
      break
    fi
  done
  sleep 0.1
done
[ -n "$killed" ] || fail "no task was seen part way through to kill"

wait_queue "$A,$M" 120
grep -q "merged" "$C"/logs/merge.job-"$M".out || fail "the merge job did not run: $(cat "$C"/logs/merge.job-"$M".out 2>&1)"
status=$("$RNGVET" campaign status "$C")
echo "$status"
echo "$status" | grep -q "12 tasks: 11 done, 0 running, 1 failed, 0 missing" || fail "status after the kill"

out=$("$RNGVET" campaign resubmit "$C") || fail "resubmit"
echo "$out"
echo "$out" | grep -q "resubmitted tasks $killed as array job" || fail "resubmit did not pick exactly task $killed"
A2=$(awk '$1 == "array" {a = $2} END {print a}' "$C/jobs.tsv")
M2=$(awk '$1 == "merge" {m = $2} END {print m}' "$C/jobs.tsv")
wait_queue "$A2,$M2" 60
grep -q "12 tasks: 12 done" "$C"/logs/merge.job-"$M2".out || fail "second merge: $(cat "$C"/logs/merge.job-"$M2".out)"
[ -s "$C/logs/task-$killed.job-$A2.out" ] || fail "task $killed did not run again"

DB="$C/campaign.sqlite"
# The killed task resumed its run (a fresh start would have made a second): each test once.
TDB="$C/tasks/task-$killed.sqlite"
[ "$(q "$TDB" "SELECT count(*) || ' ' || min(status) FROM runs")" = "1 complete" ] || fail "task $killed: $(q "$TDB" "SELECT run_id, status FROM runs")"
[ "$(q "$TDB" "SELECT count(*) = count(DISTINCT test_number) FROM tests")" = 1 ] || fail "task $killed stored a test twice"

# Every statistic of every (configuration, seed) exactly once; all 12 tasks recorded.
[ "$(q "$DB" "SELECT count(*) FROM runs WHERE status = 'complete'")" = 4 ] || fail "runs: $(q "$DB" "SELECT run_id, config, status FROM runs")"
bad=$(q "$DB" "SELECT run_id FROM statistics GROUP BY run_id HAVING count(*) != 15 OR count(DISTINCT stat_index) != 15")
[ -z "$bad" ] || fail "runs without exactly 15 distinct statistics: $bad"
[ "$(q "$DB" "SELECT count(*) FROM statistics")" = 60 ] || fail "statistics: $(q "$DB" "SELECT count(*) FROM statistics")"
[ "$(q "$DB" "SELECT count(DISTINCT r.config || '/' || s.stat_index) FROM statistics s JOIN runs r USING (run_id)")" = 60 ] \
  || fail "a statistic is stored under two runs"
[ "$(q "$DB" "SELECT count(DISTINCT task_id) FROM campaign_tasks")" = 12 ] || fail "not every task was merged"
[ "$(q "$DB" "SELECT count(*) FROM tests")" = 40 ] || fail "tests: $(q "$DB" "SELECT count(*) FROM tests")"

# Merging again changes nothing.
before=$(sqlite3 "$DB" .dump)
"$RNGVET" campaign merge "$C" >/dev/null || fail "merge again"
[ "$before" = "$(sqlite3 "$DB" .dump)" ] || fail "merging twice changed the database"

"$RNGVET" campaign resubmit "$C" | grep -q "nothing to resubmit" || fail "resubmit of a finished campaign"
report=$("$RNGVET" report --db "$DB") || fail "rngvet report"
echo "$report" | grep -q "ranmar48x/4/interleave/increment" || fail "report lacks a configuration"
echo "$report" | grep -q "ranmar48/1/single/increment" || fail "report lacks a configuration"

# Slurm's own record: every task of the first array ended.
[ "$(awk -v a="$A" '/ArrayJobId=/ {if ($0 ~ "ArrayJobId=" a " ") n++} END {print n + 0}' "$SLURM_CI_DIR/jobcomp.txt")" -ge 12 ] \
  || fail "jobcomp.txt lacks array tasks"
echo "PASS: campaign on Slurm: 12 tasks, one killed and resumed, 60 statistics each once"
