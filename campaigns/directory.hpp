// A campaign directory on disk: DIR/tasks.tsv (the task table), DIR/tasks/task-N.sqlite (one
// database per task), DIR/logs, DIR/jobs.tsv (the Slurm jobs submitted for it). What each task's
// state is, from its database and Slurm's queue; the merge of the task databases into the
// campaign's; the submission of the array job and its merge job.
#pragma once

#include "campaign.hpp"
#include "reports/store.hpp"

#include <map>
#include <optional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace rngvet::campaigns {

// ---- files -------------------------------------------------------------------------------

bool exists(const std::string& path);
// The absolute path of the running binary (/proc/self/exe).
std::string self_exe();
// realpath, or an InputError naming the path.
std::string absolute(const std::string& path);
// Written to a temporary name and renamed, so a reader never sees half a file.
void write_file(const std::string& path, const std::string& text, mode_t mode = 0644);
// The whole text of a campaign file (read_input_file: a regular file of at most 64 MiB).
std::string read_text(const std::string& path);
// Creates DIR, DIR/tasks and DIR/logs, proves DIR/tasks is writable; returns DIR, absolute.
std::string prepare_directory(const std::string& dir);
// The first executable `name` on PATH.
std::optional<std::string> find_in_path(const std::string& name);

std::string table_path(const std::string& dir); // DIR/tasks.tsv
std::string task_db(const std::string& dir, int id); // DIR/tasks/task-N.sqlite
std::string jobs_path(const std::string& dir); // DIR/jobs.tsv
TaskTable load(const std::string& dir); // DIR's task table; throws InputError
std::string default_dir(const Campaign& c); // campaign-NAME

// "task 3 (x4, seed 1802,9373, tests 1,5,10)"
std::string describe(const CampaignTask& t);

// Stamps the task's database with its campaign and task and returns the run to resume there
// (0: start a new run). Refuses a database that holds another task's run.
std::int64_t prepare_task(const std::string& dir, const TaskTable& table, int id);

// ---- state -------------------------------------------------------------------------------

struct QueueState {
    bool known = false; // Slurm answered for every job of the campaign
    std::map<int, std::string> tasks; // task -> state (PENDING, RUNNING, ...) while queued
    std::map<int, std::string> job; // task -> array job id of its latest submission
    int tasks_per_array_task = 1; // task t runs in array task t / tasks_per_array_task
};
// Tasks of this campaign that Slurm still has queued or running (squeue), from DIR/jobs.tsv;
// an array task queued or running counts for every campaign task it runs.
QueueState queue_state(const std::string& dir, int tasks_per_array_task = 1);

enum class State { done, running, failed, missing };
const char* name(State s);

struct TaskState {
    State state = State::missing;
    std::string detail;
    bool unusable = false; // damaged or foreign database: resubmitting cannot help
};
TaskState inspect(const std::string& dir, const TaskTable& table, const CampaignTask& task,
    const QueueState& queue);
std::vector<TaskState> inspect_all(
    const std::string& dir, const TaskTable& table, const QueueState& queue);
std::map<State, int> summarise(const std::vector<TaskState>& states);
// "12 tasks: 10 done, 1 running, 1 failed, 0 missing"
std::string counts(const std::vector<TaskState>& states);
// A missing or failed task runs again (when its database is usable: see TaskState::unusable).
bool to_resubmit(const TaskState& state);

// ---- merge -------------------------------------------------------------------------------

// The target of a merge must be this campaign's database: not a task's, not another
// campaign's. Refused with one line (InputError) before anything is written.
void check_campaign_target(Store& store, const std::string& db_path, const std::string& campaign);
// The same on the file at db_path, read without writing (an older schema is upgraded first, as
// a merge would); nothing when no file is there.
void check_campaign_target_file(const std::string& db_path, const std::string& campaign);

struct MergeResult {
    int merged = 0; // task databases that added a run or tests
    std::int64_t tests = 0, statistics = 0; // added
    std::vector<std::string> refused; // "task N (...): why", one per refused task database
    std::vector<TaskState> states; // of every task after the merge
    // 0 when every task is done and merged, 1 when tasks are missing or failed, 2 when a task
    // database was refused.
    int exit_status() const;
};
// Folds every task database into `db_path` (Store::merge_campaign_task).
MergeResult merge_tasks(const std::string& dir, const TaskTable& table, const std::string& db_path);

// ---- Slurm -------------------------------------------------------------------------------

// A new campaign directory for Slurm: DIR (campaign-NAME when "") with campaign.ini (the
// campaign file's text), the array script campaign.sbatch, merge.sbatch and the task table.
// Refuses (InputError) a DIR that holds a campaign already or whose path an #SBATCH line
// cannot hold. `rngvet` is the binary the scripts run.
struct SlurmCampaign {
    std::string dir; // absolute
    TaskTable table;
};
SlurmCampaign write_slurm_campaign(const std::string& file, const Campaign& campaign,
    const std::vector<CampaignTask>& tasks, std::string dir, const std::string& rngvet);

// Refuses (InputError) when sbatch is not on PATH.
void need_sbatch();
// Submits the array job for campaign tasks `ids` (the array tasks that hold them: with several
// tasks per array task, the others of those array tasks run again too, a done one only
// confirming its run) and the merge job after it, and records both in DIR/jobs.tsv.
struct Submission {
    std::string array, merge; // job ids
    std::vector<int> array_tasks; // the array's indices
    std::vector<int> tasks; // every campaign task they run
};
Submission submit_jobs(const std::string& dir, const TaskTable& table, const std::vector<int>& ids);

} // namespace rngvet::campaigns
