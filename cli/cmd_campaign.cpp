// rngvet campaign plan|submit|merge|status|resubmit|run: many configurations x seeds x shards of
// a battery as independent tasks, on a Slurm queue or on this machine (docs/campaigns.md).
#include "campaigns/campaign.hpp"
#include "campaigns/directory.hpp"
#include "campaigns/local.hpp"
#include "commands.hpp"
#include "generators/error.hpp"
#include "options.hpp"
#include "process/cores.hpp"
#include "reports/gate.hpp"
#include "reports/store.hpp"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <iterator>

namespace rngvet::cli {
namespace {

using namespace campaigns;

// The merge's refusals, the tasks not done and the counts; the merge's exit status.
int print_merge(const MergeResult& m, const TaskTable& table, const std::string& db_path)
{
    for (const std::string& refused : m.refused)
        std::cerr << "rngvet: error: " << one_line(refused) << "\n";
    std::cout << "merged " << m.merged << " task databases into " << db_path << ": " << m.statistics
              << " statistics and " << m.tests << " tests added\n";
    for (std::size_t i = 0; i < m.states.size(); ++i)
        if (m.states[i].state != State::done)
            std::cout << "  " << describe(table.tasks[i]) << ": " << name(m.states[i].state) << ", "
                      << m.states[i].detail << "\n";
    std::cout << counts(m.states) << "\n";
    return m.exit_status();
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
    int cpus_per_node = usable_cores();
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
    const CampaignPlan p = plan_campaign(c, tasks, nodes, cpus_per_node);
    char hours[32];
    std::snprintf(hours, sizeof hours, "%.2f", p.cpu_seconds / 3600);
    std::cout << "campaign " << c.name << ": " << c.configurations.size() << " configurations, "
              << p.pairs << " (configuration, seed) pairs, " << c.shards << " shards of "
              << c.battery << " each\n"
              << "tasks: " << tasks.size() << " (estimated " << clock_time(p.shortest_task)
              << " to " << clock_time(p.longest_task) << " each on " << p.cpus_per_task
              << " CPU(s))\n"
              << "estimated CPU time: " << hours << " CPU hours\n"
              << "expected wall time on " << nodes << " node(s) x " << cpus_per_node << " CPUs ("
              << p.slots << " tasks at once): " << clock_time(p.wall_seconds) << "\n"
              << "(estimates from the catalogue's test costs, seconds on one ~3 GHz core; Slurm's "
                 "scheduling adds to them)\n";
    try {
        const SlurmShape shape = slurm_shape(c);
        const int per = shape.tasks_per_array_task;
        if (shape.gpu)
            std::cout << "slurm: " << (tasks.size() + per - 1) / per
                      << " array tasks, each asking for a GPU ("
                      << (c.slurm.gpu_request == "none" ? "gpu-request = none"
                                                        : "--" + c.slurm.gpu_request)
                      << ")"
                      << (per > 1 ? " and running " + std::to_string(per) + " tasks at once on it"
                                  : "")
                      << "\n";
    } catch (const InputError& e) {
        std::cout << "slurm: campaign submit --slurm refuses this campaign: " << e.what() << "\n";
    }
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
    std::string file, dir, gpu_request;
    bool slurm = false, dry_run = false;
    po::options_description options("rngvet campaign submit options");
    options.add_options()("file", po::value(&file), "campaign file")(
        "slurm", po::bool_switch(&slurm), "submit to Slurm (the only queue supported)")("dry-run",
        po::bool_switch(&dry_run), "write the scripts and the task table, submit nothing")(
        "out", po::value(&dir), "campaign directory (default: campaign-NAME)")("gpu-request",
        po::value(&gpu_request),
        "how a task that needs a GPU asks for it, in place of [slurm] gpu-request: "
        "gres=SPEC (default gres=gpu:1), gpus=[TYPE:]N, gpus-per-task=[TYPE:]N, "
        "gpus-per-node=[TYPE:]N or none");
    po::variables_map vm;
    const auto pos = positional("file");
    if (!parse(argc, argv, options,
            "usage: rngvet campaign submit FILE --slurm [--dry-run] [--out DIR] "
            "[--gpu-request REQUEST]",
            vm, &pos))
        return 0;
    require(vm, "file", "campaign FILE");
    if (vm.count("gpu-request")) {
        try {
            gpu_request = check_gpu_request(gpu_request);
        } catch (const InputError& e) {
            throw InputError(std::string("--gpu-request: ") + e.what());
        }
    }
    if (!slurm) throw InputError("name the queue: --slurm (the only one supported)");
    Campaign c = parse_campaign_file(file);
    if (vm.count("gpu-request")) c.slurm.gpu_request = gpu_request;
    const SlurmShape shape = slurm_shape(c);
    const auto tasks = expand(c);
    if (!dry_run) need_sbatch();
    const SlurmCampaign written = write_slurm_campaign(file, c, tasks, dir, self_exe());
    dir = written.dir;
    const TaskTable& table = written.table;
    std::cout << "campaign " << table.campaign_id << ": " << tasks.size() << " tasks written to "
              << dir << "\n";
    if (shape.gpu)
        std::cout << "each array task asks for a GPU ("
                  << (c.slurm.gpu_request == "none" ? "none requested: gpu-request = none"
                                                    : "--" + c.slurm.gpu_request)
                  << ")"
                  << (shape.tasks_per_array_task > 1
                             ? " and runs " + std::to_string(shape.tasks_per_array_task)
                                 + " tasks at once on it: "
                                 + std::to_string((tasks.size() + shape.tasks_per_array_task - 1)
                                     / shape.tasks_per_array_task)
                                 + " array tasks"
                             : "")
                  << "\n";
    if (shape.tasks_per_array_task > c.slurm.cpus_per_task)
        std::cout << "note: cpus-per-task = " << c.slurm.cpus_per_task << " for "
                  << shape.tasks_per_array_task
                  << " tasks at once: they share it (give cpus-per-task "
                  << shape.tasks_per_array_task << " times the CPUs one task should have)\n";
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
    const Submission job = submit_jobs(dir, table, ids);
    std::cout << "submitted array job " << job.array << " (tasks " << id_ranges(ids);
    if (table.tasks_per_array_task > 1)
        std::cout << " in array tasks " << id_ranges(job.array_tasks);
    std::cout << ") and merge job " << job.merge << "\n'rngvet campaign status " << dir
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
    const QueueState queue = queue_state(dir, table.tasks_per_array_task);
    if (exists(jobs_path(dir)) && !queue.known)
        throw InputError(
            "squeue did not answer for the campaign's jobs; cannot tell which tasks still run");
    const auto states = inspect_all(dir, table, queue);
    std::vector<int> ids;
    for (std::size_t i = 0; i < states.size(); ++i) {
        if (!to_resubmit(states[i])) continue;
        if (states[i].unusable)
            std::cerr << "rngvet: error: "
                      << one_line(describe(table.tasks[i]) + ": " + states[i].detail)
                      << "; move the file away to run the task afresh\n";
        else
            ids.push_back(table.tasks[i].id);
    }
    if (ids.empty()) {
        std::cout << "nothing to resubmit; " << counts(states) << "\n";
        return 0;
    }
    const Submission job = submit_jobs(dir, table, ids);
    std::cout << "resubmitted tasks " << id_ranges(ids) << " as array job " << job.array;
    if (table.tasks_per_array_task > 1) {
        std::cout << " (array tasks " << id_ranges(job.array_tasks);
        std::vector<int> again;
        std::set_difference(
            job.tasks.begin(), job.tasks.end(), ids.begin(), ids.end(), std::back_inserter(again));
        if (again.size() == 1)
            std::cout << "; task " << again[0] << " of the same array task only confirms its run";
        else if (!again.empty())
            std::cout << "; tasks " << id_ranges(again)
                      << " of the same array tasks only confirm their runs";
        std::cout << ")";
    }
    std::cout << ", merge job " << job.merge << "\n";
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
    const QueueState queue = queue_state(dir, table.tasks_per_array_task);
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
        ("exit " + std::to_string(gate_exit_status)
            + " when the merged runs' verdicts reach this level: never, fail, suspect, "
              "systematic (as for rngvet run)")
            .c_str());
    po::variables_map vm;
    const auto pos = positional("dir");
    if (!parse(argc, argv, options, "usage: rngvet campaign merge DIR [--db CAMPAIGN.sqlite]", vm,
            &pos))
        return 0;
    require(vm, "dir", "campaign DIR");
    const FailOn fail_on = parse_fail_on(fail_on_text);
    const TaskTable table = load(dir);
    if (db.empty()) db = dir + "/campaign.sqlite";
    const int status = print_merge(merge_tasks(dir, table, db), table, db);
    Store store(db);
    const GateResult gate = check_fail_on(store, store.runs(), fail_on);
    if (gate.reached) {
        std::cerr << "rngvet: --fail-on " << fail_on_text << ": " << gate.reason << "\n";
        return status == 0 ? gate_exit_status : status;
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

volatile std::sig_atomic_t local_stop = 0;
void on_local_signal(int)
{
    local_stop = 1;
}

// Runs the tasks here, `jobs` CPUs in all, each task's `rngvet run` in its own process.
int run_local(int argc, char** argv)
{
    std::string file, dir, db;
    int jobs = 1, gpus = 0, tasks_per_gpu = 1;
    po::options_description options("rngvet campaign run options");
    options.add_options()("file", po::value(&file), "campaign file")(
        "jobs,j", po::value(&jobs)->default_value(1), "CPUs to use in all")("gpus",
        po::value(&gpus)->default_value(0),
        "spread the tasks over this many GPUs, each task's process seeing its own alone "
        "(CUDA_VISIBLE_DEVICES: the entries of this process's own, else 0 .. N-1)")("tasks-per-gpu",
        po::value(&tasks_per_gpu)->default_value(1), "with --gpus: tasks at once on each GPU")(
        "out", po::value(&dir), "campaign directory (default: campaign-NAME)")(
        "db", po::value(&db), "campaign database (default: DIR/campaign.sqlite)");
    po::variables_map vm;
    const auto pos = positional("file");
    if (!parse(argc, argv, options,
            "usage: rngvet campaign run FILE [--jobs N] [--gpus G [--tasks-per-gpu K]] "
            "[--out DIR] [--db FILE]",
            vm, &pos))
        return 0;
    require(vm, "file", "campaign FILE");
    if (jobs < 1) throw InputError("--jobs must be at least 1");
    if (vm.count("tasks-per-gpu") && !vm["tasks-per-gpu"].defaulted() && gpus == 0)
        throw InputError("--tasks-per-gpu goes with --gpus");
    LocalRun run{ file, dir, db, jobs, gpus, tasks_per_gpu, self_exe(), &local_stop,
        [](const std::string& line) { std::cerr << line << "\n"; } };
    std::signal(SIGINT, on_local_signal);
    std::signal(SIGTERM, on_local_signal);
    const LocalResult result = run_here(run);
    const int merged = print_merge(result.merge, result.table, result.db);
    if (result.stopped) {
        std::cerr << "rngvet: stopped; 'rngvet campaign run " << file << " --out " << result.dir
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
