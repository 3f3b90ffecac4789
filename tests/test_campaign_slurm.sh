#!/usr/bin/env bash
# A campaign on a real Slurm (scripts/slurm-ci): examples/campaign-small.ini (two configurations x
# two seeds x SmallCrush in three shards = 12 array tasks) is submitted; one task is killed with
# SIGKILL part way; the queue drains (the afterany merge job runs anyway); resubmit runs only that
# task, which resumes its finished tests; the merged database then holds every statistic of every
# task exactly once, merging again changes nothing, and rngvet report reads it. Then a campaign
# of 4 tasks with tasks-per-gpu = 2 runs as 2 array tasks (on backend cpu: no GPU here), and a
# task of it cut short is resumed by resubmitting its array task.
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

# partial DB: the task database holds some but not all of its run's tests.
partial() {
  local done_tests all_tests
  done_tests=$(q "$1" "SELECT count(*) FROM tests" 2>/dev/null || echo 0)
  all_tests=$(q "$1" "SELECT length(tests_selected) - length(replace(tests_selected, ',', '')) + 1 FROM runs" 2>/dev/null || echo 0)
  [ "${done_tests:-0}" -ge 1 ] && [ "${done_tests:-0}" -lt "${all_tests:-0}" ] || return 1
  echo "$done_tests of $all_tests"
}

# stopped PID...: every one of these processes is stopped or gone (the state field follows the
# command's closing parenthesis in /proc/PID/stat).
stopped() {
  local p s
  for p in "$@"; do
    s=$(sed 's/.*) //' "/proc/$p/stat" 2>/dev/null | cut -c1) || continue
    case "$s" in "" | T | t | Z | X) ;; *) return 1 ;; esac
  done
}

# Kill one task by Slurm while it has stored some but not all of its tests. A native SmallCrush
# test takes milliseconds, so a task seen part way may finish before a signal lands: the task's
# processes are first stopped (SIGSTOP, this is a single-node Slurm), its database is read again
# while nothing can write it, and only a task still part way is killed; any other goes on.
killed=""
end=$((SECONDS + 60))
while [ -z "$killed" ] && [ "$SECONDS" -lt "$end" ] && [ -n "$(squeue -h -j "$A" 2>/dev/null)" ]; do
  for db in "$C"/tasks/task-*.sqlite; do
    [ -e "$db" ] || continue
    t=${db##*/task-}; t=${t%.sqlite}
    partial "$db" >/dev/null || continue
    mapfile -t pids < <(pgrep -f -- "--db $db\$" || true)
    [ "${#pids[@]}" -gt 0 ] || continue
    kill -STOP "${pids[@]}" 2>/dev/null || true
    for _ in $(seq 500); do stopped "${pids[@]}" && break; sleep 0.01; done
    if stopped "${pids[@]}" && seen=$(partial "$db") && [ "$(squeue -h -j "${A}_$t" -o %T 2>/dev/null)" = RUNNING ]; then
      scancel --full --signal=KILL "${A}_$t" && killed=$t
      echo "killed task $t after $seen tests"
      break
    fi
    kill -CONT "${pids[@]}" 2>/dev/null || true
  done
  sleep 0.05
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

# ---- packing: tasks-per-gpu = 2 runs 4 campaign tasks in 2 array tasks -----------------------
# No GPU here: the tasks run on backend cpu, and gpu = yes with gpu-request = none makes them GPU
# tasks that ask Slurm for nothing, so the packing itself runs.
P="$W/packed"
cat >"$W/packed.ini" <<'EOF'
[campaign]
name    = packed
battery = smallcrush
seeds   = 1802,9373 17,42 5,6 7,8

[configuration ranmar48]
generator = ranmar48
backend   = cpu

[slurm]
time          = 00:10:00
cpus-per-task = 2
gpu           = yes
gpu-request   = none
tasks-per-gpu = 2
EOF
# jobcomp.txt outlives earlier starts of this Slurm, whose job ids may recur: count only what
# is written after a line number taken before each submission.
jobcomp_lines() { wc -l <"$SLURM_CI_DIR/jobcomp.txt" 2>/dev/null || echo 0; }
array_tasks_since() { tail -n +"$(($1 + 1))" "$SLURM_CI_DIR/jobcomp.txt" | grep -c "ArrayJobId=$2 " || true; }
before=$(jobcomp_lines)
"$RNGVET" campaign submit "$W/packed.ini" --slurm --out "$P" || fail "packed submit"
grep -q '^#SBATCH --array=0-1$' "$P/campaign.sbatch" || fail "packed script: $(grep SBATCH "$P/campaign.sbatch")"
if grep -qE '^#SBATCH --(gres|gpus)' "$P/campaign.sbatch"; then fail "gpu-request = none asked for a GPU"; fi
PA=$(awk '$1 == "array" {print $2}' "$P/jobs.tsv")
PM=$(awk '$1 == "merge" {print $2}' "$P/jobs.tsv")
[ "$(awk '$1 == "array" {print $3}' "$P/jobs.tsv")" = "0-3" ] || fail "packed jobs.tsv: $(cat "$P/jobs.tsv")"
wait_queue "$PA,$PM" 120
grep -q "4 tasks: 4 done" "$P"/logs/merge.job-"$PM".out || fail "packed merge: $(cat "$P"/logs/merge.job-"$PM".out)"
# Slurm ran exactly 2 array tasks; each campaign task has its own log and database.
ran=$(array_tasks_since "$before" "$PA")
[ "$ran" = 2 ] || fail "packed: Slurm ran $ran array tasks, not 2"
for t in 0 1 2 3; do
  [ -s "$P/logs/task-$t.job-$PA.out" ] || fail "packed: no log of task $t"
  [ "$(q "$P/tasks/task-$t.sqlite" "SELECT count(*) || ' ' || min(status) FROM runs")" = "1 complete" ] \
    || fail "packed: task $t: $(q "$P/tasks/task-$t.sqlite" "SELECT run_id, status FROM runs")"
done
[ "$(q "$P/campaign.sqlite" "SELECT count(*) FROM statistics")" = 60 ] || fail "packed statistics"
# The two tasks of an array task ran at once: each started before the other finished, at the
# stores' resolution of one second (two short tasks may start and end within the same second).
for pair in "0 1" "2 3"; do
  set -- $pair
  a_start=$(q "$P/tasks/task-$1.sqlite" "SELECT started_at FROM runs")
  a_end=$(q "$P/tasks/task-$1.sqlite" "SELECT finished_at FROM runs")
  b_start=$(q "$P/tasks/task-$2.sqlite" "SELECT started_at FROM runs")
  b_end=$(q "$P/tasks/task-$2.sqlite" "SELECT finished_at FROM runs")
  [[ ! "$b_end" < "$a_start" && ! "$a_end" < "$b_start" ]] \
    || fail "packed: tasks $1 ($a_start to $a_end) and $2 ($b_start to $b_end) did not run at once"
done

# Task 3 as a run killed part way leaves it (its last test gone, still 'running'); the campaign
# database is set aside, so the next merge builds it afresh. Resubmit runs array task 1 again:
# task 3 resumes its run, task 2 (done) only confirms its own.
q "$P/tasks/task-3.sqlite" "DELETE FROM statistics WHERE test_number = 10; DELETE FROM tests WHERE test_number = 10; UPDATE runs SET status = 'running'"
mv "$P/campaign.sqlite" "$W/packed-first.sqlite"
status=$("$RNGVET" campaign status "$P")
echo "$status"
echo "$status" | grep -q "4 tasks: 3 done, 0 running, 1 failed, 0 missing" || fail "packed status after the damage"
before=$(jobcomp_lines)
out=$("$RNGVET" campaign resubmit "$P") || fail "packed resubmit"
echo "$out"
echo "$out" | grep -q "resubmitted tasks 3 as array job [0-9]* (array tasks 1; task 2 of the same array task only confirms its run)" \
  || fail "packed resubmit did not pick array task 1 for task 3"
PA2=$(awk '$1 == "array" {a = $2} END {print a}' "$P/jobs.tsv")
PM2=$(awk '$1 == "merge" {m = $2} END {print m}' "$P/jobs.tsv")
[ "$(awk '$1 == "array" {t = $3} END {print t}' "$P/jobs.tsv")" = "2-3" ] || fail "packed resubmit jobs.tsv: $(cat "$P/jobs.tsv")"
wait_queue "$PA2,$PM2" 120
grep -q "4 tasks: 4 done" "$P"/logs/merge.job-"$PM2".out || fail "packed second merge: $(cat "$P"/logs/merge.job-"$PM2".out)"
ran=$(array_tasks_since "$before" "$PA2")
[ "$ran" = 1 ] || fail "packed resubmit ran $ran array tasks, not 1"
[ ! -e "$P/logs/task-0.job-$PA2.out" ] && [ ! -e "$P/logs/task-1.job-$PA2.out" ] || fail "packed resubmit ran task 0 or 1"
for t in 2 3; do
  [ -s "$P/logs/task-$t.job-$PA2.out" ] || fail "packed: task $t did not run in the resubmitted array task"
  [ "$(q "$P/tasks/task-$t.sqlite" "SELECT count(*) || ' ' || min(status) FROM runs")" = "1 complete" ] \
    || fail "packed: task $t after resubmit: $(q "$P/tasks/task-$t.sqlite" "SELECT run_id, status FROM runs")"
  [ "$(q "$P/tasks/task-$t.sqlite" "SELECT count(*) = 10 AND count(*) = count(DISTINCT test_number) FROM tests")" = 1 ] \
    || fail "packed: task $t does not hold each test once"
done
[ "$(q "$P/campaign.sqlite" "SELECT count(*) FROM statistics")" = 60 ] || fail "packed statistics after resume"
pvalues="SELECT group_concat(pvalue) FROM (SELECT pvalue FROM pvalues ORDER BY config, seed, stat_index)"
[ "$(q "$P/campaign.sqlite" "$pvalues")" = "$(q "$W/packed-first.sqlite" "$pvalues")" ] \
  || fail "packed: the resumed campaign's p-values differ from the first"
echo "PASS: packed campaign on Slurm: 4 tasks in 2 array tasks, task 3 resumed in array task 1"
