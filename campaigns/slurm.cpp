// The campaign's Slurm side: [slurm] gpu-request values, how the tasks map onto one job array
// (SlurmShape, array task <-> campaign task), and the sbatch array and merge scripts.
#include "campaign.hpp"
#include "generators/error.hpp"

#include <algorithm>
#include <ostream>
#include <set>
#include <sstream>

namespace rngvet::campaigns {

std::string check_gpu_request(const std::string& value)
{
    const std::string forms = "gres=SPEC (e.g. gres=gpu:h100:1), gpus=[TYPE:]N, "
                              "gpus-per-task=[TYPE:]N, gpus-per-node=[TYPE:]N or none";
    if (value == "none") return value;
    const auto eq = value.find('=');
    if (eq == std::string::npos)
        throw InputError("GPU request '" + value + "' is none of " + forms);
    const std::string key = value.substr(0, eq), spec = value.substr(eq + 1);
    if (key != "gres" && key != "gpus" && key != "gpus-per-task" && key != "gpus-per-node")
        throw InputError(
            "GPU request '" + value + "': '" + key + "' is no GPU option; use " + forms);
    // What an #SBATCH line can hold unquoted: names, counts, ':' and ','.
    const bool plain = !spec.empty()
        && spec.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                  "0123456789_.:,-")
            == std::string::npos
        && spec.front() != ':' && spec.back() != ':' && spec.front() != ',' && spec.back() != ',';
    if (!plain)
        throw InputError("GPU request '" + value + "': '" + spec
            + "' is not a Slurm resource (letters, digits, '_', '.', '-', ':' and ','); use "
            + forms);
    if (key != "gres") {
        // [TYPE:]N, N a positive count.
        const std::string count = spec.substr(spec.rfind(':') + 1);
        if (count.empty() || count.find_first_not_of("0123456789") != std::string::npos
            || count.find_first_not_of('0') == std::string::npos || count.size() > 4
            || spec.find(',') != std::string::npos)
            throw InputError("GPU request '" + value + "': " + key
                + " takes [TYPE:]N with N a count of GPUs, e.g. " + key + "=1 or " + key
                + "=h100:1");
    }
    return value;
}

namespace {
bool is_cuda(const CampaignConfiguration& c)
{
    return c.keys.backend == "cuda";
}
} // namespace

SlurmShape slurm_shape(const Campaign& campaign)
{
    const SlurmResources& r = campaign.slurm;
    std::vector<const CampaignConfiguration*> gpu, host;
    for (const CampaignConfiguration& c : campaign.configurations)
        (is_cuda(c) ? gpu : host).push_back(&c);
    SlurmShape shape;
    if (r.gpu == "no") {
        if (!gpu.empty())
            throw InputError("[configuration " + gpu.front()->name
                + "] runs on backend cuda and needs a GPU, which [slurm] gpu = no asks for none "
                  "(gpu-request = none leaves the GPU to the site)");
    } else if (r.gpu == "yes" || host.empty()) {
        shape.gpu = true;
    } else if (!gpu.empty() && (r.gpu_request != "none" || r.tasks_per_gpu > 1)) {
        throw InputError("[configuration " + gpu.front()->name
            + "] needs a GPU (backend cuda) and [configuration " + host.front()->name
            + "] none (backend " + host.front()->keys.backend
            + "), and every task of a Slurm array asks for the same resources: split the campaign "
              "in two, or set gpu = yes in [slurm] to give every task a GPU");
    }
    if (r.tasks_per_gpu > 1) {
        if (!shape.gpu)
            throw InputError("[slurm] tasks-per-gpu = " + std::to_string(r.tasks_per_gpu)
                + " packs tasks onto a GPU, and no task of this campaign asks for one (backend "
                  "cuda, or gpu = yes in [slurm])");
        shape.tasks_per_array_task = r.tasks_per_gpu;
    }
    return shape;
}

std::vector<int> array_tasks_of(const std::vector<int>& ids, int tasks_per_array_task)
{
    std::set<int> out;
    for (int id : ids)
        out.insert(id / std::max(1, tasks_per_array_task));
    return { out.begin(), out.end() };
}

std::vector<int> tasks_of_array_tasks(
    const std::vector<int>& array_tasks, int tasks_per_array_task, std::size_t count)
{
    const int k = std::max(1, tasks_per_array_task);
    std::set<int> out;
    for (int a : array_tasks)
        for (int t = a * k; t < (a + 1) * k && t < static_cast<int>(count); ++t)
            out.insert(t);
    return { out.begin(), out.end() };
}

namespace {

void resource_lines(std::ostream& out, const SlurmResources& r, bool task, bool gpu = false)
{
    auto line = [&](const char* key, const std::string& value, const char* hint) {
        if (!value.empty())
            out << "#SBATCH --" << key << "=" << value << "\n";
        else
            out << "##SBATCH --" << key << "=" << hint << "   (not set; remove one '#' to use)\n";
    };
    line("partition", r.partition, "PARTITION");
    line("account", r.account, "ACCOUNT");
    if (!r.qos.empty()) out << "#SBATCH --qos=" << r.qos << "\n";
    if (task) {
        line("time", r.time, "HH:MM:SS");
        out << "#SBATCH --cpus-per-task=" << r.cpus_per_task << "\n";
        if (!r.mem.empty()) out << "#SBATCH --mem=" << r.mem << "\n";
        std::string gres = r.gres, gpu_option;
        if (gpu) {
            if (r.gpu_request == "none") {
                out << "# The tasks use the GPU the site gives them unasked ([slurm] gpu-request = "
                       "none).\n";
            } else {
                out << "# A GPU for each array task ([slurm] gpu-request or campaign submit "
                       "--gpu-request;\n# the line may be edited to the site's form).\n";
                if (r.gpu_request.rfind("gres=", 0) == 0)
                    gres += (gres.empty() ? "" : ",") + r.gpu_request.substr(5);
                else
                    gpu_option = r.gpu_request;
            }
        }
        if (!gres.empty()) out << "#SBATCH --gres=" << gres << "\n";
        if (!gpu_option.empty()) out << "#SBATCH --" << gpu_option << "\n";
        if (!r.constraint.empty()) out << "#SBATCH --constraint=" << r.constraint << "\n";
    } else {
        out << "#SBATCH --time=" << r.merge_time << "\n#SBATCH --cpus-per-task=1\n";
    }
}

} // namespace

std::string array_script(const Campaign& campaign, const TaskTable& table, const ScriptPaths& paths)
{
    const BatteryCatalogue& battery = catalogue_for(campaign.battery);
    const SlurmShape shape = slurm_shape(campaign);
    const int per = shape.tasks_per_array_task;
    if (table.tasks_per_array_task != per)
        throw InputError("the task table packs " + std::to_string(table.tasks_per_array_task)
            + " tasks per array task, the campaign " + std::to_string(per));
    const int cpus = std::max(1, campaign.slurm.cpus_per_task / per);
    const std::size_t array_tasks = (table.tasks.size() + per - 1) / per;
    double total = 0, longest = 0;
    for (const CampaignTask& t : table.tasks) {
        total += t.cost;
        std::vector<double> costs;
        for (int n : t.tests)
            costs.push_back(battery.test(n).cost);
        longest = std::max(longest, longest_first_makespan(costs, cpus));
    }
    std::ostringstream out;
    out << "#!/bin/bash\n"
        << "# rngvet campaign '" << campaign.name << "' (id " << table.campaign_id
        << "): " << table.tasks.size() << " tasks of " << campaign.battery
        << ", one per configuration,\n"
        << "# seed and shard of the tests. Each task runs 'rngvet run' for its shard into "
           "its own\n"
        << "# SQLite file, " << paths.dir
        << "/tasks/task-<i>.sqlite; 'rngvet campaign merge' folds them.\n";
    if (per > 1)
        out << "# Array task <a> runs tasks <a>*" << per << " to <a>*" << per << "+" << per - 1
            << " at once on its GPU ([slurm] tasks-per-gpu = " << per
            << "), each\n# a process of its own with " << cpus
            << " of the array task's CPUs, its output in logs/task-<i>.job-<array job>.out.\n";
    out << "# Estimated CPU time " << clock_time(total) << " in all; the longest task about "
        << clock_time(longest) << " on " << cpus << " CPU(s) (rough: catalogue costs).\n"
        << "# The #SBATCH lines may be edited. 'rngvet campaign resubmit' submits this script "
           "again\n"
        << "# with --array set to the " << (per > 1 ? "array tasks that hold tasks" : "tasks")
        << " that are missing or failed.\n"
        << "#SBATCH --job-name=rngvet-" << campaign.name << "\n"
        << "#SBATCH --array=0-" << array_tasks - 1 << "\n";
    resource_lines(out, campaign.slurm, true, shape.gpu);
    out << "#SBATCH --output=" << paths.dir
        << (per > 1 ? "/logs/array-%a.job-%A.out\n" : "/logs/task-%a.job-%A.out\n") << "\nset -eu\n"
        << "RNGVET=" << shell_quote(paths.rngvet) << "\n"
        << "DIR=" << shell_quote(paths.dir) << "\n";
    std::string indent;
    if (per == 1) {
        out << "TASK=${SLURM_ARRAY_TASK_ID:?submit this script with sbatch --array}\n"
            << "JOBS=${SLURM_CPUS_PER_TASK:-1}\n";
    } else {
        out << "ARRAY_TASK=${SLURM_ARRAY_TASK_ID:?submit this script with sbatch --array}\n"
            << "PER=" << per << "   # campaign tasks per array task, at once\n"
            << "TASKS=" << table.tasks.size() << "\n"
            << "JOBS=$(( ${SLURM_CPUS_PER_TASK:-1} / PER ))\n"
            << "[ \"$JOBS\" -ge 1 ] || JOBS=1\n\n"
            << "# One campaign task, in a subshell of its own.\n"
            << "run_task() {\n"
            << "  TASK=$1\n";
        indent = "  ";
    }
    out << indent << "DB=\"$DIR/tasks/task-$TASK.sqlite\"\n\n" << indent << "case \"$TASK\" in\n";
    for (const CampaignTask& t : table.tasks) {
        out << indent << "  # configuration " << t.configuration << ", seed " << t.seed
            << ", tests " << join_ints(t.tests) << ", about " << clock_time(t.cost) << " CPU\n"
            << indent << "  " << t.id << ") RUN=(";
        for (std::size_t i = 0; i < t.run_arguments.size(); ++i)
            out << (i ? " " : "") << shell_quote(t.run_arguments[i]);
        out << ") ;;\n";
    }
    out << indent
        << "  *) echo \"rngvet campaign: no task $TASK in this campaign\" >&2; exit 2 ;;\n"
        << indent << "esac\n\n"
        << indent
        << "# Stamps the task database with the campaign and task (a database of another task "
           "is\n"
        << indent
        << "# refused) and prints the run to resume when an earlier attempt was cut short (time "
           "limit,\n"
        << indent << "# node failure): its finished tests are kept, only the missing ones run.\n"
        << indent << "RESUME=$(\"$RNGVET\" campaign prepare \"$DIR\" \"$TASK\")\n"
        << indent << "if [ -n \"$RESUME\" ]; then\n"
        << indent
        << "  exec \"$RNGVET\" run --resume \"$RESUME\" --mode sharded --jobs \"$JOBS\" --db "
           "\"$DB\"\n"
        << indent << "fi\n"
        << indent
        << "exec \"$RNGVET\" run \"${RUN[@]}\" --mode sharded --jobs \"$JOBS\" --db \"$DB\"\n";
    if (per > 1)
        out << "}\n\n"
            << "# The array task's campaign tasks at once; it fails when one of them fails (the "
               "others\n"
            << "# still finish). A task already done only confirms its stored run.\n"
            << "PIDS=()\n"
            << "RUNS=()\n"
            << "for ((TASK = ARRAY_TASK * PER; TASK < (ARRAY_TASK + 1) * PER && TASK < TASKS; "
               "TASK++)); do\n"
            << "  ( run_task \"$TASK\" ) "
               ">\"$DIR/logs/task-$TASK.job-${SLURM_ARRAY_JOB_ID:-0}.out\" "
               "2>&1 &\n"
            << "  PIDS+=(\"$!\")\n"
            << "  RUNS+=(\"$TASK\")\n"
            << "done\n"
            << "[ \"${#PIDS[@]}\" -gt 0 ] || { echo \"rngvet campaign: no array task $ARRAY_TASK "
               "in this campaign\" >&2; exit 2; }\n"
            << "STATUS=0\n"
            << "for i in \"${!PIDS[@]}\"; do\n"
            << "  if wait \"${PIDS[$i]}\"; then\n"
            << "    echo \"task ${RUNS[$i]}: done\"\n"
            << "  else\n"
            << "    CODE=$?\n"
            << "    echo \"task ${RUNS[$i]}: exit status $CODE\" >&2\n"
            << "    STATUS=1\n"
            << "  fi\n"
            << "done\n"
            << "exit \"$STATUS\"\n";
    return out.str();
}

std::string merge_script(const Campaign& campaign, const TaskTable& table, const ScriptPaths& paths)
{
    std::ostringstream out;
    out << "#!/bin/bash\n"
        << "# Merges the task databases of rngvet campaign '" << campaign.name << "' (id "
        << table.campaign_id << ")\n# into " << paths.dir
        << "/campaign.sqlite. Submitted with --dependency=afterany:<array job>,\n"
        << "# so it runs once every task has ended, however it ended; it lists missing or failed "
           "tasks.\n"
        << "#SBATCH --job-name=rngvet-" << campaign.name << "-merge\n";
    resource_lines(out, campaign.slurm, false);
    out << "#SBATCH --output=" << paths.dir << "/logs/merge.job-%j.out\n\n"
        << "exec " << shell_quote(paths.rngvet) << " campaign merge " << shell_quote(paths.dir)
        << "\n";
    return out.str();
}

} // namespace rngvet::campaigns
