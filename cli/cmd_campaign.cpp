// rngvet campaign plan|submit|merge|status|resubmit|run: many configurations x seeds x shards of
// a battery as independent tasks, on a Slurm queue or on this machine (docs/campaigns.md).
#include "process/child_pool.hpp"
#include "batteries/runner.hpp"
#include "campaigns/campaign.hpp"
#include "commands.hpp"
#include "generators/error.hpp"
#include "options.hpp"
#include "reports/gate.hpp"
#include "reports/store.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <iostream>
#include <limits.h>
#include <map>
#include <optional>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace rngvet::cli {
namespace {

// ---- files and processes -------------------------------------------------------------

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

std::string absolute(const std::string& path)
{
    char buf[PATH_MAX];
    if (!realpath(path.c_str(), buf))
        throw InputError("cannot resolve '" + path + "': " + std::strerror(errno));
    return buf;
}

// Written to a temporary name and renamed, so a reader never sees half a file.
void write_file(const std::string& path, const std::string& text, mode_t mode = 0644)
{
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::trunc);
        out << text;
        out.close();
        if (!out) throw InputError("cannot write '" + tmp + "'");
    }
    chmod(tmp.c_str(), mode);
    if (std::rename(tmp.c_str(), path.c_str()) != 0)
        throw InputError("cannot write '" + path + "': " + std::strerror(errno));
}

// Creates DIR, DIR/tasks and DIR/logs, and proves DIR/tasks is writable.
std::string prepare_directory(const std::string& dir)
{
    make_dirs(dir);
    const std::string abs = absolute(dir);
    make_dirs(abs + "/tasks");
    make_dirs(abs + "/logs");
    const std::string probe = abs + "/tasks/.rngvet-write-test";
    {
        std::ofstream out(probe);
        out << "ok\n";
        out.close();
        if (!out) throw InputError("cannot write in '" + abs + "/tasks'");
    }
    std::remove(probe.c_str());
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

// ---- the campaign directory ----------------------------------------------------------

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

CampaignStamp stamp_of(const TaskTable& table, const CampaignTask& t)
{
    return { table.campaign_id, t.id, t.configuration, t.seed, join_ints(t.tests) };
}

// Stamps the task database and returns the run to resume (0: start a new run).
std::int64_t prepare_task(const std::string& dir, const TaskTable& table, int id)
{
    if (id < 0 || id >= static_cast<int>(table.tasks.size()))
        throw InputError("campaign " + table.campaign_id + " has tasks 0.."
            + std::to_string(table.tasks.size() - 1) + ", not " + std::to_string(id));
    const CampaignTask& task = table.tasks[static_cast<std::size_t>(id)];
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

struct QueueState {
    bool known = false; // Slurm answered for every job of the campaign
    std::map<int, std::string> tasks; // task -> state (PENDING, RUNNING, ...) while queued
    std::map<int, std::string> job; // task -> array job id of its latest submission
};

// Tasks of this campaign that Slurm still has queued or running (squeue).
QueueState queue_state(const std::string& dir)
{
    QueueState q;
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
            const int task = std::atoi(id.c_str() + underscore + 1);
            if (q.job.count(task) && q.job[task] == job) q.tasks[task] = state;
        }
    }
    q.known = true;
    return q;
}

enum class State { done, running, failed, missing };
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

struct TaskState {
    State state = State::missing;
    std::string detail;
    bool unusable = false; // damaged or foreign database: resubmitting cannot help
};

TaskState inspect(const std::string& dir, const TaskTable& table, const CampaignTask& task,
    const QueueState& queue)
{
    TaskState s;
    const auto queued = queue.tasks.find(task.id);
    if (queued != queue.tasks.end()) {
        s.state = State::running;
        s.detail
            = "job " + queue.job.at(task.id) + "_" + std::to_string(task.id) + " " + queued->second;
    }
    const std::string db = task_db(dir, task.id);
    if (!exists(db)) {
        if (s.detail.empty()) s.detail = "not started";
        return s;
    }
    std::size_t done = 0;
    std::string status;
    try {
        Store store(db);
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
    if (status.empty()) {
        s.state = State::missing;
        s.detail = "no run stored yet";
    } else if (status == "complete" && done == task.tests.size()) {
        s.state = State::done;
        s.detail = progress;
    } else if (status == "running" && !queue.known) {
        s.state = State::running;
        s.detail = progress + " (no queue information: running, or killed)";
    } else {
        s.state = State::failed;
        s.detail = (status == "running" ? "stopped while running" : status) + ", " + progress;
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

// Folds every task database into `db_path`; prints what was refused and what is not done.
// Returns 0 when every task is done and merged, 1 when tasks are missing or failed, 2 when
// a task database was refused.
int merge_all(const std::string& dir, const TaskTable& table, const std::string& db_path)
{
    const BatteryCatalogue& battery = catalogue_for(table.battery);
    const int battery_tests = table.tests_selected.empty()
        ? static_cast<int>(battery.tests.size())
        : static_cast<int>(parse_seed(table.tests_selected).size());
    Store store(db_path);
    check_campaign_target(store, db_path, table.campaign_id);
    std::int64_t tests = 0, stats = 0;
    int merged = 0, refused = 0;
    for (const CampaignTask& t : table.tasks) {
        if (!exists(task_db(dir, t.id))) continue;
        CampaignTaskSpec spec{ stamp_of(table, t), t.config, table.battery, table.tests_selected,
            battery_tests };
        try {
            const CampaignMerge m = store.merge_campaign_task(task_db(dir, t.id), spec, utc_now());
            tests += m.tests_added;
            stats += m.statistics_added;
            merged += m.run_id != 0;
        } catch (const InputError& e) {
            std::cerr << "rngvet: error: " << describe(t) << ": " << e.what() << "\n";
            ++refused;
        }
    }
    const auto states = inspect_all(dir, table, queue_state(dir));
    std::cout << "merged " << merged << " task databases into " << db_path << ": " << stats
              << " statistics and " << tests << " tests added\n";
    for (std::size_t i = 0; i < states.size(); ++i)
        if (states[i].state != State::done)
            std::cout << "  " << describe(table.tasks[i]) << ": " << name(states[i].state) << ", "
                      << states[i].detail << "\n";
    std::cout << counts(states) << "\n";
    if (refused) return 2;
    return summarise(states)[State::done] == static_cast<int>(states.size()) ? 0 : 1;
}

TaskTable load(const std::string& dir)
{
    return read_task_table(table_path(dir));
}

std::string default_dir(const Campaign& c)
{
    return "campaign-" + c.name;
}

// ---- Slurm -----------------------------------------------------------------------------

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
    std::ofstream out(jobs_path(dir), std::ios::app);
    out << kind << "\t" << job << "\t" << what << "\t" << utc_now() << "\n";
}

// Submits the array for `ids` and the merge job after it; returns {array, merge}.
std::pair<std::string, std::string> submit_jobs(const std::string& dir, const std::vector<int>& ids)
{
    const std::string ranges = id_ranges(ids);
    const std::string array = sbatch_job_id(
        capture({ "sbatch", "--parsable", "--array=" + ranges, dir + "/campaign.sbatch" }),
        "task array");
    record_job(dir, "array", array, ranges);
    const std::string merge
        = sbatch_job_id(capture({ "sbatch", "--parsable", "--dependency=afterany:" + array,
                            "--kill-on-invalid-dep=yes", dir + "/merge.sbatch" }),
            "merge job");
    record_job(dir, "merge", merge, array);
    return { array, merge };
}

void need_sbatch()
{
    if (!find_in_path("sbatch"))
        throw InputError(
            "sbatch is not on PATH: submit from a Slurm login node, write the scripts only with "
            "--dry-run, or run the campaign here with 'rngvet campaign run'");
}

// ---- subcommands -----------------------------------------------------------------------

po::positional_options_description positional(const char* first, const char* second = nullptr)
{
    po::positional_options_description p;
    p.add(first, 1);
    if (second) p.add(second, 1);
    return p;
}

void require(const po::variables_map& vm, const char* key, const char* what)
{
    if (!vm.count(key)) throw InputError(std::string("missing ") + what + " (see --help)");
}

int plan(int argc, char** argv)
{
    std::string file;
    int nodes = 1;
    int cpus_per_node = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    bool list = false;
    po::options_description options("rngvet campaign plan options");
    options.add_options()("file", po::value(&file), "campaign file")("nodes",
        po::value(&nodes)->default_value(1), "nodes the tasks run on at once")("cpus-per-node",
        po::value(&cpus_per_node)->default_value(cpus_per_node),
        "CPUs of each node (default: this machine's)")(
        "list", po::bool_switch(&list), "list every task");
    po::variables_map vm;
    const auto pos = positional("file");
    if (!parse(argc, argv, options,
            "usage: rngvet campaign plan FILE [--nodes N] [--cpus-per-node K] [--list]", vm, &pos))
        return 0;
    require(vm, "file", "campaign FILE");
    if (nodes < 1 || cpus_per_node < 1)
        throw InputError("--nodes and --cpus-per-node must be at least 1");
    const Campaign c = parse_campaign_file(file);
    const auto tasks = expand(c);
    const BatteryCatalogue& battery = catalogue_for(c.battery);
    const int cpus = c.slurm.cpus_per_task;
    double total = 0;
    std::vector<double> walls;
    std::size_t seeds = 0;
    for (const auto& conf : c.configurations)
        seeds += conf.seeds.size();
    for (const CampaignTask& t : tasks) {
        total += t.cost;
        std::vector<double> costs;
        for (int n : t.tests)
            costs.push_back(battery.test(n).cost);
        walls.push_back(longest_first_makespan(costs, cpus));
    }
    const int slots = nodes * std::max(1, cpus_per_node / cpus);
    char hours[32];
    std::snprintf(hours, sizeof hours, "%.2f", total / 3600);
    std::cout << "campaign " << c.name << ": " << c.configurations.size() << " configurations, "
              << seeds << " (configuration, seed) pairs, " << c.shards << " shards of " << c.battery
              << " each\n"
              << "tasks: " << tasks.size() << " (estimated "
              << clock_time(*std::min_element(walls.begin(), walls.end())) << " to "
              << clock_time(*std::max_element(walls.begin(), walls.end())) << " each on " << cpus
              << " CPU(s))\n"
              << "estimated CPU time: " << hours << " CPU hours\n"
              << "expected wall time on " << nodes << " node(s) x " << cpus_per_node << " CPUs ("
              << slots << " tasks at once): " << clock_time(longest_first_makespan(walls, slots))
              << "\n"
              << "(estimates from the catalogue's test costs, seconds on one ~3 GHz core; Slurm's "
                 "scheduling adds to them)\n";
    if (tasks.size() > 1000)
        std::cout << "note: Slurm's default MaxArraySize is 1001; this campaign needs array "
                     "indices up to "
                  << tasks.size() - 1 << "\n";
    if (list)
        for (const CampaignTask& t : tasks)
            std::cout << "  " << describe(t) << ", about " << clock_time(t.cost) << " CPU\n";
    return 0;
}

int submit(int argc, char** argv)
{
    std::string file, dir;
    bool slurm = false, dry_run = false;
    po::options_description options("rngvet campaign submit options");
    options.add_options()("file", po::value(&file), "campaign file")(
        "slurm", po::bool_switch(&slurm), "submit to Slurm (the only queue supported)")("dry-run",
        po::bool_switch(&dry_run), "write the scripts and the task table, submit nothing")(
        "out", po::value(&dir), "campaign directory (default: campaign-NAME)");
    po::variables_map vm;
    const auto pos = positional("file");
    if (!parse(argc, argv, options,
            "usage: rngvet campaign submit FILE --slurm [--dry-run] [--out DIR]", vm, &pos))
        return 0;
    require(vm, "file", "campaign FILE");
    if (!slurm) throw InputError("name the queue: --slurm (the only one supported)");
    const Campaign c = parse_campaign_file(file);
    const auto tasks = expand(c);
    if (!dry_run) need_sbatch();
    if (dir.empty()) dir = default_dir(c);
    if (dir.find_first_of(" \t\n%") != std::string::npos)
        throw InputError(
            "'" + dir + "' holds white space or '%', which #SBATCH --output lines cannot hold");
    if (exists(table_path(dir))) {
        const TaskTable held = load(dir);
        throw InputError("'" + dir + "' already holds campaign " + held.campaign_id
            + "; 'rngvet campaign resubmit " + dir + "' submits its missing or failed tasks");
    }
    dir = prepare_directory(dir);
    if (dir.find_first_of(" \t\n%") != std::string::npos)
        throw InputError(
            "'" + dir + "' holds white space or '%', which #SBATCH --output lines cannot hold");
    const ScriptPaths paths{ self_exe(), dir };
    TaskTable table{ new_campaign_id(c.name), c.name, c.battery, join_ints(c.tests), tasks };
    {
        std::ifstream in(file);
        std::ostringstream text;
        text << in.rdbuf();
        write_file(dir + "/campaign.ini", text.str());
    }
    write_file(dir + "/campaign.sbatch", array_script(c, table, paths), 0755);
    write_file(dir + "/merge.sbatch", merge_script(c, table, paths), 0755);
    write_file(table_path(dir), write_task_table(table));
    std::cout << "campaign " << table.campaign_id << ": " << tasks.size() << " tasks written to "
              << dir << "\n";
    if (dry_run) {
        std::cout << "not submitted (--dry-run). To submit by hand:\n"
                  << "  A=$(sbatch --parsable " << dir << "/campaign.sbatch)\n"
                  << "  sbatch --dependency=afterany:$A --kill-on-invalid-dep=yes " << dir
                  << "/merge.sbatch\n"
                  << "(or 'rngvet campaign resubmit " << dir
                  << "', which also records the job ids)\n";
        return 0;
    }
    std::vector<int> ids;
    for (const auto& t : tasks)
        ids.push_back(t.id);
    const auto [array, merge] = submit_jobs(dir, ids);
    std::cout << "submitted array job " << array << " (tasks " << id_ranges(ids)
              << ") and merge job " << merge << "\n'rngvet campaign status " << dir
              << "' shows progress\n";
    return 0;
}

int resubmit(int argc, char** argv)
{
    std::string dir;
    po::options_description options("rngvet campaign resubmit options");
    options.add_options()("dir", po::value(&dir), "campaign directory");
    po::variables_map vm;
    const auto pos = positional("dir");
    if (!parse(argc, argv, options, "usage: rngvet campaign resubmit DIR", vm, &pos)) return 0;
    require(vm, "dir", "campaign DIR");
    const TaskTable table = load(dir);
    need_sbatch();
    dir = absolute(dir);
    const QueueState queue = queue_state(dir);
    if (exists(jobs_path(dir)) && !queue.known)
        throw InputError(
            "squeue did not answer for the campaign's jobs; cannot tell which tasks still run");
    const auto states = inspect_all(dir, table, queue);
    std::vector<int> ids;
    for (std::size_t i = 0; i < states.size(); ++i) {
        if (states[i].state != State::missing && states[i].state != State::failed) continue;
        if (states[i].unusable) {
            std::cerr << "rngvet: error: " << describe(table.tasks[i]) << ": " << states[i].detail
                      << "; move the file away to run the task afresh\n";
            continue;
        }
        ids.push_back(table.tasks[i].id);
    }
    if (ids.empty()) {
        std::cout << "nothing to resubmit; " << counts(states) << "\n";
        return 0;
    }
    const auto [array, merge] = submit_jobs(dir, ids);
    std::cout << "resubmitted tasks " << id_ranges(ids) << " as array job " << array
              << ", merge job " << merge << "\n";
    return 0;
}

int status(int argc, char** argv)
{
    std::string dir;
    bool all = false;
    po::options_description options("rngvet campaign status options");
    options.add_options()("dir", po::value(&dir), "campaign directory")(
        "all", po::bool_switch(&all), "list every task, done ones too");
    po::variables_map vm;
    const auto pos = positional("dir");
    if (!parse(argc, argv, options, "usage: rngvet campaign status DIR [--all]", vm, &pos))
        return 0;
    require(vm, "dir", "campaign DIR");
    const TaskTable table = load(dir);
    const QueueState queue = queue_state(dir);
    const auto states = inspect_all(dir, table, queue);
    std::cout << "campaign " << table.campaign_id << " (" << table.battery << ")"
              << (queue.known                     ? ""
                         : exists(jobs_path(dir)) ? ", no answer from squeue"
                                                  : "")
              << "\n";
    for (std::size_t i = 0; i < states.size(); ++i)
        if (all || states[i].state != State::done)
            std::cout << "  " << describe(table.tasks[i]) << ": " << name(states[i].state) << ", "
                      << states[i].detail << "\n";
    std::cout << counts(states) << "\n";
    return 0;
}

int merge(int argc, char** argv)
{
    std::string dir, db, fail_on_text = "never";
    po::options_description options("rngvet campaign merge options");
    options.add_options()("dir", po::value(&dir), "campaign directory")(
        "db", po::value(&db), "campaign database (default: DIR/campaign.sqlite)")("fail-on",
        po::value(&fail_on_text)->default_value("never"),
        "exit 1 when the merged runs' verdicts reach this level: never, fail, suspect, "
        "systematic (as for rngvet run)");
    po::variables_map vm;
    const auto pos = positional("dir");
    if (!parse(argc, argv, options, "usage: rngvet campaign merge DIR [--db CAMPAIGN.sqlite]", vm,
            &pos))
        return 0;
    require(vm, "dir", "campaign DIR");
    const FailOn fail_on = parse_fail_on(fail_on_text);
    const TaskTable table = load(dir);
    if (db.empty()) db = dir + "/campaign.sqlite";
    const int status = merge_all(dir, table, db);
    Store store(db);
    const GateResult gate = check_fail_on(store, store.runs(), fail_on);
    if (gate.reached) {
        std::cerr << "rngvet: --fail-on " << fail_on_text << ": " << gate.reason << "\n";
        return status == 0 ? 1 : status;
    }
    return status;
}

int prepare(int argc, char** argv)
{
    std::string dir;
    int task = -1;
    po::options_description options("rngvet campaign prepare options");
    options.add_options()("dir", po::value(&dir), "campaign directory")(
        "task", po::value(&task), "task id");
    po::variables_map vm;
    const auto pos = positional("dir", "task");
    if (!parse(argc, argv, options,
            "usage: rngvet campaign prepare DIR TASK\n"
            "Stamps the task's database and prints the run to resume, if any (used by "
            "campaign.sbatch)",
            vm, &pos))
        return 0;
    require(vm, "task", "DIR and TASK");
    const std::int64_t resume = prepare_task(dir, load(dir), task);
    if (resume) std::cout << resume << "\n";
    return 0;
}

// In a child before exec: `fd` opened on `path`.
void redirect(int fd, const char* path, int flags)
{
    const int opened = open(path, flags, 0644);
    if (opened < 0 || (opened != fd && dup2(opened, fd) < 0))
        throw std::runtime_error(std::string("cannot open ") + path + ": " + std::strerror(errno));
    if (opened != fd) close(opened);
}

volatile std::sig_atomic_t local_stop = 0;
void on_local_signal(int)
{
    local_stop = 1;
}

// Runs the tasks here, `jobs` CPUs in all, each task's `rngvet run` in its own process.
int run_local(int argc, char** argv)
{
    std::string file, dir, db;
    int jobs = 1;
    po::options_description options("rngvet campaign run options");
    options.add_options()("file", po::value(&file), "campaign file")(
        "jobs,j", po::value(&jobs)->default_value(1), "CPUs to use in all")(
        "out", po::value(&dir), "campaign directory (default: campaign-NAME)")(
        "db", po::value(&db), "campaign database (default: DIR/campaign.sqlite)");
    po::variables_map vm;
    const auto pos = positional("file");
    if (!parse(argc, argv, options,
            "usage: rngvet campaign run FILE [--jobs N] [--out DIR] [--db FILE]", vm, &pos))
        return 0;
    require(vm, "file", "campaign FILE");
    if (jobs < 1) throw InputError("--jobs must be at least 1");
    const Campaign c = parse_campaign_file(file);
    const auto tasks = expand(c);
    if (dir.empty()) dir = default_dir(c);
    TaskTable table{ new_campaign_id(c.name), c.name, c.battery, join_ints(c.tests), tasks };
    if (exists(table_path(dir))) {
        // Running again continues the same campaign; another campaign's directory is refused.
        const TaskTable held = load(dir);
        if (!same_tasks(held.tasks, tasks) || held.battery != table.battery
            || held.tests_selected != table.tests_selected)
            throw InputError("'" + dir + "' holds campaign " + held.campaign_id
                + ", whose tasks differ from this file's; choose another --out");
        table.campaign_id = held.campaign_id;
    }
    if (!db.empty() && exists(db)) {
        // Refused before any task runs, not after.
        Store target(db);
        check_campaign_target(target, db, table.campaign_id);
    }
    dir = prepare_directory(dir);
    const int lock
        = open((dir + "/.campaign-run.lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
    if (lock < 0 || flock(lock, LOCK_EX | LOCK_NB) != 0)
        throw InputError("another 'rngvet campaign run' is working in '" + dir + "'");
    if (!exists(table_path(dir))) {
        std::ifstream in(file);
        std::ostringstream text;
        text << in.rdbuf();
        write_file(dir + "/campaign.ini", text.str());
        write_file(table_path(dir), write_task_table(table));
    }
    if (db.empty()) db = dir + "/campaign.sqlite";

    std::vector<int> pending;
    const auto states = inspect_all(dir, table, QueueState{});
    for (std::size_t i = 0; i < states.size(); ++i) {
        if (states[i].state == State::done) continue;
        if (states[i].unusable)
            throw InputError(describe(tasks[i]) + ": " + states[i].detail
                + "; move the file away to run it afresh");
        pending.push_back(tasks[i].id);
    }
    const int slots = std::max(1, std::min(jobs, static_cast<int>(pending.size())));
    const int per_task = std::max(1, jobs / slots);
    std::cerr << "rngvet: campaign " << table.campaign_id << ": " << pending.size() << " of "
              << tasks.size() << " tasks to run, " << slots << " at a time with " << per_task
              << " job(s) each\n";
    const std::string exe = self_exe();
    std::signal(SIGINT, on_local_signal);
    std::signal(SIGTERM, on_local_signal);
    ChildPool pool(slots);
    std::size_t next = 0, finished = 0;
    int failures = 0;
    while ((next < pending.size() && !local_stop) || !pool.empty()) {
        while (!local_stop && next < pending.size() && !pool.full()) {
            const int id = pending[next++];
            const CampaignTask& t = tasks[static_cast<std::size_t>(id)];
            // The task's worker holds a lock on its database for as long as it lives (the
            // descriptor is inherited): a re-run after the campaign was killed never starts a
            // task beside a worker that is still finishing it.
            const std::string lock_path = task_db(dir, id) + ".lock";
            const int task_lock = open(lock_path.c_str(), O_CREAT | O_RDWR, 0644);
            bool locked = task_lock >= 0 && flock(task_lock, LOCK_EX | LOCK_NB) == 0;
            for (int wait = 0; !locked && task_lock >= 0 && wait < 100; ++wait) {
                usleep(100000);
                locked = flock(task_lock, LOCK_EX | LOCK_NB) == 0;
            }
            if (!locked) {
                if (task_lock >= 0) close(task_lock);
                std::cerr << "rngvet: " << describe(t)
                          << ": a worker of an earlier run still holds it; not started\n";
                ++failures;
                continue;
            }
            const std::int64_t resume = prepare_task(dir, table, id);
            std::vector<std::string> args{ exe, "run" };
            if (resume)
                args.insert(args.end(), { "--resume", std::to_string(resume) });
            else
                args.insert(args.end(), t.run_arguments.begin(), t.run_arguments.end());
            args.insert(args.end(),
                { "--mode", "sharded", "--jobs", std::to_string(per_task), "--db",
                    task_db(dir, id) });
            std::vector<char*> argp;
            for (auto& a : args)
                argp.push_back(a.data());
            argp.push_back(nullptr);
            const std::string log = dir + "/logs/task-" + std::to_string(id) + ".local.out";
            // The task run ends with this process (rngvet's main reads the variable).
            std::vector<std::string> env_text;
            for (char** e = environ; *e; ++e)
                if (std::strncmp(*e, "RNGVET_DIE_WITH_PARENT=", 23) != 0) env_text.push_back(*e);
            env_text.push_back("RNGVET_DIE_WITH_PARENT=" + std::to_string(getpid()));
            std::vector<char*> envp;
            for (auto& e : env_text)
                envp.push_back(e.data());
            envp.push_back(nullptr);
            // The child: no input, output to the task's log, then the task's rngvet run, which
            // keeps the lock and the pool's pipe until it and its workers end.
            pool.start(id, describe(t), [&]() -> std::string {
                redirect(STDIN_FILENO, "/dev/null", O_RDONLY);
                redirect(STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND);
                if (dup2(STDOUT_FILENO, STDERR_FILENO) < 0)
                    throw std::runtime_error(std::string("dup2: ") + std::strerror(errno));
                execve(exe.c_str(), argp.data(), envp.data());
                throw std::runtime_error("cannot start " + exe + ": " + std::strerror(errno));
            });
            close(task_lock); // the worker keeps it
        }
        for (const ChildPool::Ended& e : pool.wait(-1)) {
            ++finished;
            failures += !e.ok;
            std::cerr << "rngvet: " << describe(tasks[static_cast<std::size_t>(e.job)])
                      << (e.ok ? " done" : " FAILED") << " [" << finished << "/" << pending.size()
                      << "]"
                      << (e.ok ? ""
                               : "; log: " + dir + "/logs/task-" + std::to_string(e.job)
                                     + ".local.out")
                      << "\n";
        }
    }
    const int merged = merge_all(dir, table, db);
    if (local_stop) {
        std::cerr << "rngvet: stopped; 'rngvet campaign run " << file << " --out " << dir
                  << "' continues the campaign\n";
        return 130;
    }
    return merged;
}

} // namespace

int cmd_campaign(int argc, char** argv)
{
    struct Sub {
        const char* name;
        int (*run)(int, char**);
        const char* summary;
    };
    static const Sub subs[] = {
        { "plan", plan, "tasks, estimated CPU hours and wall time of a campaign file" },
        { "submit", submit, "write the Slurm array script and task table, and submit them" },
        { "status", status, "tasks done, running, failed and missing" },
        { "merge", merge, "fold the task databases into the campaign database" },
        { "resubmit", resubmit, "submit the missing and failed tasks again" },
        { "run", run_local, "run the tasks on this machine, then merge" },
        { "prepare", prepare, "(used by the array script) stamp a task's database" },
    };
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        std::ostream& out = argc < 2 ? std::cerr : std::cout;
        out << "usage: rngvet campaign <plan|submit|status|merge|resubmit|run> ...   "
               "(docs/campaigns.md)\n\n";
        for (const Sub& s : subs)
            out << "  " << s.name << std::string(10 - std::strlen(s.name), ' ') << s.summary
                << "\n";
        return argc < 2 ? 2 : 0;
    }
    for (const Sub& s : subs)
        if (argv[1] == std::string(s.name)) return s.run(argc - 1, argv + 1);
    throw InputError(
        "unknown campaign command '" + std::string(argv[1]) + "' (see rngvet campaign --help)");
}

} // namespace rngvet::cli
