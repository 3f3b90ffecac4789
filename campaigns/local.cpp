#include "local.hpp"

#include "batteries/runner.hpp"
#include "generators/error.hpp"
#include "process/child_pool.hpp"
#include "process/files.hpp"
#include "reports/store.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <stdexcept>
#include <sys/file.h>
#include <unistd.h>

extern char** environ;

namespace rngvet::campaigns {
namespace {

// In a child before exec: `fd` becomes `opened`, the descriptor of `path`.
void redirect(int fd, int opened, const std::string& path)
{
    if (opened < 0 || dup2(opened, fd) < 0)
        throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    close(opened);
}

// The devices a task may be given, as CUDA_VISIBLE_DEVICES names them: this process's own
// list where it has one (a Slurm allocation's), else 0 .. gpus - 1.
std::vector<std::string> gpu_names(int gpus)
{
    std::vector<std::string> names;
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    if (visible == nullptr || *visible == '\0') {
        for (int g = 0; g < gpus; ++g)
            names.push_back(std::to_string(g));
        return names;
    }
    std::string list = visible;
    for (std::size_t at = 0; at <= list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        if (comma > at) names.push_back(list.substr(at, comma - at));
        at = comma + 1;
    }
    if (static_cast<int>(names.size()) < gpus)
        throw InputError("--gpus " + std::to_string(gpus) + ": this process sees "
            + std::to_string(names.size()) + " (CUDA_VISIBLE_DEVICES=" + list + ")");
    names.resize(static_cast<std::size_t>(gpus));
    return names;
}

} // namespace

LocalResult run_here(const LocalRun& run)
{
    const std::string& file = run.file;
    std::string dir = run.dir, db = run.db;
    const int jobs = run.jobs;
    const auto stopped = [&] { return run.stop && *run.stop; };
    const auto say = [&](const std::string& line) {
        if (run.say) run.say(line);
    };
    // Refused before anything is read or written.
    if (run.gpus < 0 || run.gpus > 1024 || run.tasks_per_gpu < 1 || run.tasks_per_gpu > 1024)
        throw InputError("--gpus must be 0 to 1024 and --tasks-per-gpu 1 to 1024");
    const std::vector<std::string> gpus = gpu_names(run.gpus);
    const Campaign c = parse_campaign_file(file);
    const auto tasks = expand(c);
    if (dir.empty()) dir = default_dir(c);
    TaskTable table{ new_campaign_id(c.name), c.name, c.battery, join_ints(c.tests), tasks };
    if (exists(table_path(dir))) {
        // Running again continues the same campaign; another campaign's directory is refused.
        const TaskTable held = load(dir);
        // A configuration whose name changed while its tasks stayed: a plugin's library (its
        // hash is in the name) or a parameter file that changed since the campaign was planned.
        if (held.tasks.size() == tasks.size())
            for (std::size_t i = 0; i < tasks.size(); ++i)
                if (held.tasks[i].config != tasks[i].config
                    && held.tasks[i].configuration == tasks[i].configuration
                    && held.tasks[i].seed == tasks[i].seed)
                    throw InputError("'" + dir + "' holds campaign " + held.campaign_id
                        + ", planned with task " + std::to_string(i) + " on " + held.tasks[i].config
                        + "; its configuration is now " + tasks[i].config
                        + " (its library or parameter file changed)");
        if (!same_tasks(held.tasks, tasks) || held.battery != table.battery
            || held.tests_selected != table.tests_selected)
            throw InputError("'" + dir + "' holds campaign " + held.campaign_id
                + ", whose tasks differ from this file's; choose another --out");
        table.campaign_id = held.campaign_id;
    }
    // Refused before any task runs, not after, and before the file is opened for writing.
    if (!db.empty()) check_campaign_target_file(db, table.campaign_id);
    dir = prepare_directory(dir);
    const int lock = open_own_file(dir + "/.campaign-run.lock", O_CREAT | O_RDWR);
    if (lock < 0)
        throw InputError("cannot open '" + dir
            + "/.campaign-run.lock' as a file of its own: " + std::strerror(errno));
    if (flock(lock, LOCK_EX | LOCK_NB) != 0)
        throw InputError("another 'rngvet campaign run' is working in '" + dir + "'");
    if (!exists(table_path(dir))) {
        write_file(dir + "/campaign.ini", read_text(file));
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
    // With GPUs, a slot is one task's place on one GPU: slot s is on GPU s / tasks_per_gpu.
    const int places = gpus.empty() ? jobs : static_cast<int>(gpus.size()) * run.tasks_per_gpu;
    const int slots = std::max(1, std::min(places, static_cast<int>(pending.size())));
    const int per_task = std::max(1, jobs / slots);
    std::vector<int> slot_task(static_cast<std::size_t>(slots), -1); // task id, -1: free
    say("rngvet: campaign " + table.campaign_id + ": " + std::to_string(pending.size()) + " of "
        + std::to_string(tasks.size()) + " tasks to run, " + std::to_string(slots)
        + " at a time with " + std::to_string(per_task) + " job(s) each"
        + (gpus.empty() ? ""
                        : ", " + std::to_string(run.tasks_per_gpu) + " on each of "
                    + std::to_string(gpus.size()) + " GPU(s)"));
    const std::string& exe = run.rngvet;
    ChildPool pool(slots);
    std::size_t next = 0, finished = 0;
    while ((next < pending.size() && !stopped()) || !pool.empty()) {
        while (!stopped() && next < pending.size() && !pool.full()) {
            const int id = pending[next++];
            const CampaignTask& t = tasks[static_cast<std::size_t>(id)];
            // The task's worker holds a lock on its database for as long as it lives (the
            // descriptor is inherited): a re-run after the campaign was killed never starts a
            // task beside a worker that is still finishing it.
            const std::string lock_path = task_db(dir, id) + ".lock";
            const int task_lock = open_own_file(lock_path, O_CREAT | O_RDWR);
            if (task_lock >= 0) fcntl(task_lock, F_SETFD, 0); // inherited across exec
            bool locked = task_lock >= 0 && flock(task_lock, LOCK_EX | LOCK_NB) == 0;
            for (int wait = 0; !locked && task_lock >= 0 && wait < 100; ++wait) {
                usleep(100000);
                locked = flock(task_lock, LOCK_EX | LOCK_NB) == 0;
            }
            if (!locked) {
                if (task_lock >= 0) close(task_lock);
                say("rngvet: " + describe(t)
                    + ": a worker of an earlier run still holds it; not started");
                continue;
            }
            const auto slot = static_cast<std::size_t>(
                std::find(slot_task.begin(), slot_task.end(), -1) - slot_task.begin());
            const std::string gpu
                = gpus.empty() ? "" : gpus[slot / static_cast<std::size_t>(run.tasks_per_gpu)];
            const std::int64_t resume = prepare_task(dir, table, id);
            std::vector<std::string> args{ exe, "run" };
            if (resume)
                args.insert(args.end(), { "--resume", std::to_string(resume) });
            else
                args.insert(args.end(), t.run_arguments.begin(), t.run_arguments.end());
            args.insert(args.end(),
                { "--mode", to_text(RunMode::sharded), "--jobs", std::to_string(per_task), "--db",
                    task_db(dir, id) });
            std::vector<char*> argp;
            for (auto& a : args)
                argp.push_back(a.data());
            argp.push_back(nullptr);
            const std::string log = dir + "/logs/task-" + std::to_string(id) + ".local.out";
            // The task run ends with this process (rngvet's main reads the variable).
            std::vector<std::string> env_text;
            for (char** e = environ; *e; ++e)
                if (std::strncmp(*e, "RNGVET_DIE_WITH_PARENT=", 23) != 0
                    && (gpu.empty() || std::strncmp(*e, "CUDA_VISIBLE_DEVICES=", 21) != 0))
                    env_text.push_back(*e);
            env_text.push_back("RNGVET_DIE_WITH_PARENT=" + std::to_string(getpid()));
            if (!gpu.empty()) env_text.push_back("CUDA_VISIBLE_DEVICES=" + gpu);
            std::vector<char*> envp;
            for (auto& e : env_text)
                envp.push_back(e.data());
            envp.push_back(nullptr);
            // The child: no input, output to the task's log, then the task's rngvet run, which
            // keeps the lock and the pool's pipe until it and its workers end.
            pool.start(id, describe(t), [&]() -> std::string {
                redirect(STDIN_FILENO, open("/dev/null", O_RDONLY), "/dev/null");
                // The log is in the campaign folder: opened only as a file of its own.
                redirect(STDOUT_FILENO, open_own_file(log, O_WRONLY | O_CREAT | O_APPEND), log);
                if (dup2(STDOUT_FILENO, STDERR_FILENO) < 0)
                    throw std::runtime_error(std::string("dup2: ") + std::strerror(errno));
                if (!gpu.empty())
                    dprintf(STDOUT_FILENO, "rngvet campaign: task %d on GPU %s\n", id, gpu.c_str());
                execve(exe.c_str(), argp.data(), envp.data());
                throw std::runtime_error("cannot start " + exe + ": " + std::strerror(errno));
            });
            close(task_lock); // the worker keeps it
            slot_task[slot] = id;
        }
        // A stop reaches the running tasks too: each marks its run interrupted with the tests
        // it finished and ends, instead of finishing the test in flight first.
        const std::vector<ChildPool::Ended> ended = pool.wait(500);
        if (stopped()) pool.signal_all(SIGTERM);
        for (const ChildPool::Ended& e : ended) {
            ++finished;
            std::replace(slot_task.begin(), slot_task.end(), e.job, -1);
            say("rngvet: " + describe(tasks[static_cast<std::size_t>(e.job)])
                + (e.ok ? " done" : " FAILED") + " [" + std::to_string(finished) + "/"
                + std::to_string(pending.size()) + "]"
                + (e.ok ? ""
                        : "; log: " + dir + "/logs/task-" + std::to_string(e.job) + ".local.out"));
        }
    }
    LocalResult result;
    result.dir = dir;
    result.db = db;
    result.table = table;
    result.merge = merge_tasks(dir, table, db);
    result.stopped = stopped();
    close(lock);
    return result;
}

} // namespace rngvet::campaigns
