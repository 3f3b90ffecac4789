#include "directory.hpp"

#include "batteries/runner.hpp"
#include "generators/error.hpp"
#include "generators/input_file.hpp"
#include "merge.hpp"
#include "process/files.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <limits.h>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace rngvet::campaigns {
namespace {

struct Captured {
    int status = -1;
    std::string out; // stdout and stderr
};

Captured capture(const std::vector<std::string>& argv)
{
    std::string cmd;
    for (const auto& a : argv)
        cmd += (cmd.empty() ? "" : " ") + shell_quote(a);
    Captured c;
    std::FILE* p = popen((cmd + " 2>&1 </dev/null").c_str(), "r");
    if (!p) return c;
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;)
        c.out.append(buf, n);
    const int raw = pclose(p);
    c.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    return c;
}

std::string first_line(const std::string& s)
{
    std::string l = s.substr(0, s.find('\n'));
    return l.empty() ? "(no output)" : l;
}

CampaignStamp stamp_of(const TaskTable& table, const CampaignTask& t)
{
    return { table.campaign_id, t.id, t.configuration, t.seed, join_ints(t.tests) };
}

std::string sbatch_job_id(const Captured& c, const std::string& what)
{
    // --parsable prints "jobid" or "jobid;cluster".
    const std::string line = first_line(c.out);
    if (c.status != 0 || line.empty() || !std::isdigit(static_cast<unsigned char>(line[0])))
        throw std::runtime_error("sbatch refused the " + what + ": " + first_line(c.out));
    return line.substr(0, line.find_first_not_of("0123456789"));
}

void record_job(const std::string& dir, const std::string& kind, const std::string& job,
    const std::string& what)
{
    const std::string line = kind + "\t" + job + "\t" + what + "\t" + utc_now() + "\n";
    const int fd = open_own_file(jobs_path(dir), O_WRONLY | O_CREAT | O_APPEND);
    if (fd < 0 || write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
        const int err = errno;
        if (fd >= 0) close(fd);
        throw std::runtime_error("cannot write '" + jobs_path(dir) + "': " + std::strerror(err));
    }
    close(fd);
}

void make_dirs(const std::string& path)
{
    std::string partial;
    std::istringstream parts(path);
    if (!path.empty() && path[0] == '/') partial = "/";
    for (std::string p; std::getline(parts, p, '/');) {
        if (p.empty()) continue;
        partial += (partial.empty() || partial.back() == '/' ? "" : "/") + p;
        if (mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST)
            throw InputError("cannot create directory '" + partial + "': " + std::strerror(errno));
    }
    struct stat st { };
    if (stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw InputError("'" + path + "' is not a directory");
}

// The campaign folder may be shared: a task database is only opened as a file of its own, not
// through a link (or a hard link) that someone else put at its name.
void check_own_file(const std::string& path)
{
    struct stat st { };
    if (lstat(path.c_str(), &st) == 0 && (!S_ISREG(st.st_mode) || st.st_nlink != 1))
        throw InputError(
            "'" + path + "' is not a file of its own (a link or another kind of file)");
}

} // namespace

bool exists(const std::string& path)
{
    struct stat st { };
    return stat(path.c_str(), &st) == 0;
}

std::string self_exe()
{
    char buf[PATH_MAX];
    const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) throw InputError("cannot find the rngvet binary through /proc/self/exe");
    return std::string(buf, static_cast<std::size_t>(n));
}

std::string absolute(const std::string& path)
{
    char buf[PATH_MAX];
    if (!realpath(path.c_str(), buf))
        throw InputError("cannot resolve '" + path + "': " + std::strerror(errno));
    return buf;
}

// Written to a fresh temporary name and renamed, so a reader never sees half a file and no
// name planted in the folder is written through.
void write_file(const std::string& path, const std::string& text, mode_t mode)
{
    try {
        replace_file(path, text, mode);
    } catch (const std::runtime_error& e) {
        throw InputError(e.what());
    }
}

// Creates DIR, DIR/tasks and DIR/logs, and proves DIR/tasks is writable.
std::string prepare_directory(const std::string& dir)
{
    make_dirs(dir);
    const std::string abs = absolute(dir);
    make_dirs(abs + "/tasks");
    make_dirs(abs + "/logs");
    std::string probe = abs + "/tasks/.rngvet-write-test-XXXXXX";
    const int fd = mkostemp(probe.data(), O_CLOEXEC);
    if (fd < 0 || write(fd, "ok\n", 3) != 3) {
        if (fd >= 0) unlink(probe.c_str());
        throw InputError("cannot write in '" + abs + "/tasks'");
    }
    close(fd);
    unlink(probe.c_str());
    return abs;
}

std::optional<std::string> find_in_path(const std::string& name)
{
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string d; std::getline(dirs, d, ':');) {
        const std::string candidate = (d.empty() ? "." : d) + "/" + name;
        if (access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return std::nullopt;
}

std::string read_text(const std::string& path)
{
    return read_input_file(path, "campaign file");
}

std::string table_path(const std::string& dir)
{
    return dir + "/tasks.tsv";
}
std::string task_db(const std::string& dir, int id)
{
    return dir + "/tasks/task-" + std::to_string(id) + ".sqlite";
}
std::string jobs_path(const std::string& dir)
{
    return dir + "/jobs.tsv";
}

TaskTable load(const std::string& dir)
{
    return read_task_table(table_path(dir));
}

std::string default_dir(const Campaign& c)
{
    return "campaign-" + c.name;
}

// Stamps the task database and returns the run to resume (0: start a new run).
std::int64_t prepare_task(const std::string& dir, const TaskTable& table, int id)
{
    if (id < 0 || id >= static_cast<int>(table.tasks.size()))
        throw InputError("campaign " + table.campaign_id + " has tasks 0.."
            + std::to_string(table.tasks.size() - 1) + ", not " + std::to_string(id));
    const CampaignTask& task = table.tasks[static_cast<std::size_t>(id)];
    check_own_file(task_db(dir, id));
    Store store(task_db(dir, id));
    store.stamp_campaign_task(stamp_of(table, task));
    std::int64_t resume = 0;
    for (const RunRecord& r : store.runs()) {
        if (r.config != task.config || r.battery != table.battery
            || r.tests_selected != join_ints(task.tests))
            throw InputError(task_db(dir, id) + " holds run " + std::to_string(r.run_id) + " of "
                + r.config + ", not task " + std::to_string(id) + "'s " + task.config);
        resume = r.run_id;
    }
    return resume;
}

// Tasks of this campaign that Slurm still has queued or running (squeue).
QueueState queue_state(const std::string& dir, int tasks_per_array_task)
{
    QueueState q;
    q.tasks_per_array_task = std::max(1, tasks_per_array_task);
    std::ifstream in(jobs_path(dir));
    if (!in || !find_in_path("squeue")) return q;
    std::vector<std::string> arrays;
    for (std::string line; std::getline(in, line);) {
        std::istringstream f(line);
        std::string kind, job, ids;
        f >> kind >> job >> ids;
        if (kind != "array") continue;
        arrays.push_back(job);
        std::istringstream parts(ids);
        for (std::string part; std::getline(parts, part, ',');) {
            const auto dash = part.find('-');
            const int a = std::stoi(part.substr(0, dash));
            const int b = dash == std::string::npos ? a : std::stoi(part.substr(dash + 1));
            for (int t = a; t <= b; ++t)
                q.job[t] = job;
        }
    }
    if (arrays.empty()) return q;
    for (const std::string& job : arrays) {
        const Captured c = capture({ "squeue", "-h", "-r", "-j", job, "-o", "%i %T" });
        // After MinJobAge a finished job is forgotten: "Invalid job id specified".
        if (c.status != 0 && c.out.find("Invalid job id") == std::string::npos) return q;
        if (c.status != 0) continue;
        std::istringstream lines(c.out);
        for (std::string id, state; lines >> id >> state;) {
            const auto underscore = id.find('_');
            if (underscore == std::string::npos || id.substr(0, underscore) != job) continue;
            const int element = std::atoi(id.c_str() + underscore + 1);
            for (int task = element * q.tasks_per_array_task;
                 task < (element + 1) * q.tasks_per_array_task; ++task)
                if (q.job.count(task) && q.job[task] == job) q.tasks[task] = state;
        }
    }
    q.known = true;
    return q;
}

const char* name(State s)
{
    switch (s) {
    case State::done:
        return "done";
    case State::running:
        return "running";
    case State::failed:
        return "failed";
    case State::missing:
        return "missing";
    }
    return "";
}

namespace {

// A task database opened to be looked at: read-only, so that a read-only copy of a campaign
// reads. One of an older schema needs the upgrade that opening for writing makes, as before.
std::unique_ptr<Store> open_task_db(const std::string& db)
{
    try {
        return std::make_unique<Store>(db, Store::Access::read_only);
    } catch (const InputError& read_only) {
        try {
            return std::make_unique<Store>(db);
        } catch (const InputError&) {
            throw read_only;
        }
    }
}

} // namespace

TaskState inspect(const std::string& dir, const TaskTable& table, const CampaignTask& task,
    const QueueState& queue)
{
    TaskState s;
    const auto queued = queue.tasks.find(task.id);
    if (queued != queue.tasks.end()) {
        s.state = State::running;
        s.detail = "job " + queue.job.at(task.id) + "_"
            + std::to_string(task.id / std::max(1, queue.tasks_per_array_task)) + " "
            + queued->second;
    }
    const std::string db = task_db(dir, task.id);
    if (!exists(db)) {
        if (s.detail.empty()) s.detail = "not started";
        return s;
    }
    std::size_t done = 0;
    std::optional<RunStatus> status; // of the task's last run; nullopt for none
    try {
        check_own_file(db);
        const std::unique_ptr<Store> opened = open_task_db(db);
        Store& store = *opened;
        const auto stamp = store.campaign_stamp();
        const CampaignStamp expected = stamp_of(table, task);
        if (stamp
            && (stamp->campaign_id != expected.campaign_id || stamp->task_id != expected.task_id))
            throw InputError("it belongs to campaign " + stamp->campaign_id + " task "
                + std::to_string(stamp->task_id));
        const auto runs = store.runs();
        if (!stamp && !runs.empty()) throw InputError("it holds runs but no campaign stamp");
        if (!runs.empty()) {
            status = runs.back().status;
            done = store.tests(runs.back().run_id).size();
        }
    } catch (const InputError& e) {
        s.state = State::failed;
        s.unusable = true;
        s.detail = "task database unusable: " + std::string(e.what());
        return s;
    }
    const std::string progress
        = std::to_string(done) + "/" + std::to_string(task.tests.size()) + " tests";
    if (queued != queue.tasks.end()) {
        s.detail += ", " + progress;
        return s;
    }
    if (!status) {
        s.state = State::missing;
        s.detail = "no run stored yet";
    } else if (*status == RunStatus::complete && done == task.tests.size()) {
        s.state = State::done;
        s.detail = progress;
    } else if (*status == RunStatus::running && !queue.known) {
        s.state = State::running;
        s.detail = progress + " (no queue information: running, or killed)";
    } else {
        s.state = State::failed;
        s.detail = (*status == RunStatus::running ? std::string("stopped while running")
                                                  : std::string(to_text(*status)))
            + ", " + progress;
    }
    return s;
}

std::map<State, int> summarise(const std::vector<TaskState>& states)
{
    std::map<State, int> n{ { State::done, 0 }, { State::running, 0 }, { State::failed, 0 },
        { State::missing, 0 } };
    for (const auto& s : states)
        ++n[s.state];
    return n;
}

std::string counts(const std::vector<TaskState>& states)
{
    auto n = summarise(states);
    return std::to_string(states.size()) + " tasks: " + std::to_string(n[State::done]) + " done, "
        + std::to_string(n[State::running]) + " running, " + std::to_string(n[State::failed])
        + " failed, " + std::to_string(n[State::missing]) + " missing";
}

bool to_resubmit(const TaskState& state)
{
    return state.state == State::missing || state.state == State::failed;
}

std::string describe(const CampaignTask& t)
{
    return "task " + std::to_string(t.id) + " (" + t.configuration + ", seed " + t.seed + ", tests "
        + join_ints(t.tests) + ")";
}

std::vector<TaskState> inspect_all(
    const std::string& dir, const TaskTable& table, const QueueState& queue)
{
    std::vector<TaskState> states;
    for (const CampaignTask& t : table.tasks)
        states.push_back(inspect(dir, table, t, queue));
    return states;
}

// The target of a merge must be this campaign's database: not a task's, not another
// campaign's. Refused with one line before anything is written.
void check_campaign_target(Store& store, const std::string& db_path, const std::string& campaign)
{
    if (const auto stamp = store.campaign_stamp())
        throw InputError("'" + db_path + "' is the database of task "
            + std::to_string(stamp->task_id) + " of campaign " + stamp->campaign_id
            + ", not a campaign database; merge into DIR/campaign.sqlite or a new file");
    for (const std::string& id : store.campaign_ids())
        if (id != campaign)
            throw InputError("'" + db_path + "' holds campaign " + id + ", not " + campaign
                + "; merge into DIR/campaign.sqlite or a new file");
}

void check_campaign_target_file(const std::string& db_path, const std::string& campaign)
{
    if (!exists(db_path)) return;
    const int version = store_file_schema_version(db_path);
    Store store(db_path,
        version > 0 && version < store_schema_version ? Store::Access::read_write
                                                      : Store::Access::read_only);
    check_campaign_target(store, db_path, campaign);
}

MergeResult merge_tasks(const std::string& dir, const TaskTable& table, const std::string& db_path)
{
    const BatteryCatalogue& battery = catalogue_for(table.battery);
    const int battery_tests = table.tests_selected.empty()
        ? static_cast<int>(battery.tests.size())
        : static_cast<int>(parse_seed(table.tests_selected).size());
    check_campaign_target_file(db_path, table.campaign_id);
    Store store(db_path);
    check_campaign_target(store, db_path, table.campaign_id);
    MergeResult result;
    for (const CampaignTask& t : table.tasks) {
        if (!exists(task_db(dir, t.id))) continue;
        CampaignTaskSpec spec{ stamp_of(table, t), t.config, table.battery, table.tests_selected,
            battery_tests };
        try {
            const CampaignMerge m = merge_campaign_task(store, task_db(dir, t.id), spec, utc_now());
            result.tests += m.tests_added;
            result.statistics += m.statistics_added;
            result.merged += m.run_id != 0;
        } catch (const InputError& e) {
            result.refused.push_back(describe(t) + ": " + e.what());
        }
    }
    result.states = inspect_all(dir, table, queue_state(dir, table.tasks_per_array_task));
    return result;
}

int MergeResult::exit_status() const
{
    if (!refused.empty()) return 2;
    return summarise(states)[State::done] == static_cast<int>(states.size()) ? 0 : 1;
}

// Submits the array for the tasks `ids` and the merge job after it.
Submission submit_jobs(const std::string& dir, const TaskTable& table, const std::vector<int>& ids)
{
    Submission s;
    const int per = table.tasks_per_array_task;
    s.array_tasks = array_tasks_of(ids, per);
    s.tasks = tasks_of_array_tasks(s.array_tasks, per, table.tasks.size());
    s.array = sbatch_job_id(capture({ "sbatch", "--parsable", "--array=" + id_ranges(s.array_tasks),
                                dir + "/campaign.sbatch" }),
        "task array");
    // The campaign tasks the array runs (queue_state maps its indices back with the table).
    record_job(dir, "array", s.array, id_ranges(s.tasks));
    s.merge = sbatch_job_id(capture({ "sbatch", "--parsable", "--dependency=afterany:" + s.array,
                                "--kill-on-invalid-dep=yes", dir + "/merge.sbatch" }),
        "merge job");
    record_job(dir, "merge", s.merge, s.array);
    return s;
}

SlurmCampaign write_slurm_campaign(const std::string& file, const Campaign& c,
    const std::vector<CampaignTask>& tasks, std::string dir, const std::string& rngvet)
{
    // A campaign that cannot be one Slurm array is refused before anything is written.
    const SlurmShape shape = slurm_shape(c);
    if (dir.empty()) dir = default_dir(c);
    const auto refuse_unwritable = [](const std::string& d) {
        if (d.find_first_of(" \t\n%") != std::string::npos)
            throw InputError(
                "'" + d + "' holds white space or '%', which #SBATCH --output lines cannot hold");
    };
    refuse_unwritable(dir);
    if (exists(table_path(dir))) {
        const TaskTable held = load(dir);
        throw InputError("'" + dir + "' already holds campaign " + held.campaign_id
            + "; 'rngvet campaign resubmit " + dir + "' submits its missing or failed tasks");
    }
    dir = prepare_directory(dir);
    refuse_unwritable(dir);
    const ScriptPaths paths{ rngvet, dir };
    TaskTable table{ new_campaign_id(c.name), c.name, c.battery, join_ints(c.tests), tasks };
    table.tasks_per_array_task = shape.tasks_per_array_task;
    write_file(dir + "/campaign.ini", read_text(file));
    write_file(dir + "/campaign.sbatch", array_script(c, table, paths), 0755);
    write_file(dir + "/merge.sbatch", merge_script(c, table, paths), 0755);
    write_file(table_path(dir), write_task_table(table));
    return { dir, table };
}

void need_sbatch()
{
    if (!find_in_path("sbatch"))
        throw InputError(
            "sbatch is not on PATH: submit from a Slurm login node, write the scripts only with "
            "--dry-run, or run the campaign here with 'rngvet campaign run'");
}

} // namespace rngvet::campaigns
