// Campaigns: many configurations x many seeds x one battery, split into tasks of roughly equal
// estimated cost that run anywhere (a Slurm job array or this machine), each into its own
// SQLite file, and are merged afterwards. The file format is described in docs/campaigns.md.
// One header for the parts, each defined in its own file: ini.cpp (the INI reader, ini.hpp),
// campaign_file.cpp (the sections and keys), plan.cpp (shards, tasks, estimates), task_table.cpp
// (DIR/tasks.tsv), slurm.cpp (the job array and its scripts), campaign.cpp (what they share).
#pragma once

#include "batteries/catalogue.hpp"
#include "generators/configuration.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rngvet::campaigns {

// ---- campaign.cpp: configurations and their rngvet run options --------------------------------

// The keys of a [configuration NAME] section but its seeds, as the file gives them (the spellings
// of rngvet run's options of the same names).
// A section's configuration keys are rngvet run's option words (seed left empty: the seeds
// are the campaign's).
using ConfigurationKeys = ConfigurationText;

// The configuration the keys name with `seed`, validated as rngvet run validates its options
// (the same checks, the same messages); throws InputError.
Configuration configuration_of(const ConfigurationKeys& keys, const std::string& seed);

// The options of `rngvet run` that give the same configuration, one word per element.
std::vector<std::string> run_options(const ConfigurationKeys& keys, const std::string& seed);

// ---- campaign_file.cpp, slurm.cpp: what a campaign file holds ---------------------------------

// One [configuration NAME] section.
struct CampaignConfiguration {
    std::string name;
    ConfigurationKeys keys; // everything but the seed
    std::vector<std::string> seeds; // canonical seed strings, e.g. "1802,9373"
    // The canonical name of each seed's configuration (runs.config), resolved and validated
    // once when the file was read.
    std::vector<std::string> configs;
};

// The [slurm] section: per-task resources, written as #SBATCH lines.
struct SlurmResources {
    std::string partition, account, qos, time, mem, gres, constraint;
    std::string merge_time = "01:00:00";
    int cpus_per_task = 1;
    // Which tasks ask for a GPU: "auto" (those of a configuration with backend cuda), "yes"
    // (every task: backend auto on a build with CUDA, or a GPU the backend does not name),
    // "no" (none).
    std::string gpu = "auto";
    // How a task asks for its GPU (check_gpu_request): "gres=SPEC", "gpus=[TYPE:]N",
    // "gpus-per-task=[TYPE:]N", "gpus-per-node=[TYPE:]N", or "none" (the site gives one unasked).
    std::string gpu_request = "gres=gpu:1";
    // Campaign tasks one Slurm array task runs at once on the GPU it holds.
    int tasks_per_gpu = 1;
};

struct Campaign {
    std::string name; // letters, digits, '.', '_', '-'
    std::string battery; // catalogue name
    std::vector<int> tests; // the battery's tests to run; all of them when empty
    int shards = 1; // per (configuration, seed)
    // rngvet run --engine: testu01, native or auto; "" for the battery's default (engine.hpp)
    std::string engine;
    std::vector<CampaignConfiguration> configurations;
    SlurmResources slurm;
};

// ---- slurm.cpp: GPU requests and the job array's shape -----------------------------------------

// A GPU request as [slurm] gpu-request or campaign submit --gpu-request gives it, checked: the
// value itself, or an InputError of one line naming the forms.
std::string check_gpu_request(const std::string& value);

// How the campaign's tasks map onto one Slurm job array (every element of an array asks for the
// same resources): whether each array task asks for a GPU, and how many campaign tasks it runs
// (array task i runs campaign tasks i*K .. i*K+K-1). InputError when the tasks cannot share one
// array: some need a GPU and some not, tasks-per-gpu without a GPU, backend cuda with gpu = no.
struct SlurmShape {
    bool gpu = false;
    int tasks_per_array_task = 1;
};
SlurmShape slurm_shape(const Campaign& campaign);
// The array tasks that run campaign tasks `ids` with K campaign tasks each (ascending, once).
std::vector<int> array_tasks_of(const std::vector<int>& ids, int tasks_per_array_task);
// Every campaign task those array tasks run (ascending), of `count` tasks in all.
std::vector<int> tasks_of_array_tasks(
    const std::vector<int>& array_tasks, int tasks_per_array_task, std::size_t count);

// ---- plan.cpp expands a campaign into tasks ----------------------------------------------------

// One task: one configuration, one seed, one shard of the tests.
struct CampaignTask {
    int id = 0; // 0-based; the Slurm array index (with K tasks per array task: id / K)
    std::string configuration; // the campaign's name of the configuration
    std::string config; // canonical configuration name (runs.config)
    std::string seed; // canonical seed string (runs.seed)
    std::vector<int> tests; // ascending
    double cost = 0; // estimated CPU seconds (the catalogue's costs)
    // Arguments of `rngvet run` for this task, without --mode, --jobs and --db.
    std::vector<std::string> run_arguments;
};

// ---- campaign_file.cpp: reading a campaign file ------------------------------------------------

// The keys a section of kind "campaign", "configuration" or "slurm" takes, as the parser checks
// them; a [configuration NAME] section's are the configuration options a campaign file reads
// (configuration_options.hpp) and the seeds. None for another kind.
std::vector<std::string> section_keys(const std::string& kind);

// Parses and validates a campaign file. Every problem is an InputError "FILE:LINE: ...".
// Relative parameter-set file names are resolved against the file's directory.
Campaign parse_campaign_file(const std::string& path);
Campaign parse_campaign(
    const std::string& text, const std::string& file_name, const std::string& base_dir);

// ---- plan.cpp: shards, tasks and estimates -----------------------------------------------------

// Splits `tests` into `shards` groups of roughly equal cost: greedy longest-first (each test,
// costliest first, goes to the group with the least cost so far). Groups are sorted ascending
// and ordered by their smallest test.
std::vector<std::vector<int>> pack_shards(
    const BatteryCatalogue& battery, const std::vector<int>& tests, int shards);

// Wall time of `costs` run on `workers` identical workers, longest first onto the least loaded.
double longest_first_makespan(std::vector<double> costs, int workers);

// configurations x seeds x shards, in that order; task ids 0, 1, ...
std::vector<CampaignTask> expand(const Campaign& campaign);

// What a campaign costs on `nodes` nodes of `cpus_per_node` CPUs, from the catalogue's costs:
// each task's wall time on its cpus-per-task, longest test first; the tasks longest first
// onto the nodes' task slots.
struct CampaignPlan {
    std::size_t pairs = 0; // (configuration, seed) pairs
    int cpus_per_task = 1;
    int slots = 1; // tasks at once
    double cpu_seconds = 0; // every task's tests on one CPU
    double shortest_task = 0, longest_task = 0; // wall seconds of one task
    double wall_seconds = 0; // of the whole campaign
};
CampaignPlan plan_campaign(
    const Campaign& campaign, const std::vector<CampaignTask>& tasks, int nodes, int cpus_per_node);

// ---- task_table.cpp: DIR/tasks.tsv --------------------------------------------------------------

// The task table (DIR/tasks.tsv) that merge, status and resubmit read back.
struct TaskTable {
    std::string campaign_id;
    std::string name;
    std::string battery;
    std::string tests_selected; // "" for the whole battery
    std::vector<CampaignTask> tasks; // run_arguments only as text in the file
    // Campaign tasks per Slurm array task (SlurmShape); a header line only when above 1.
    int tasks_per_array_task = 1;
};
std::string write_task_table(const TaskTable& table);
TaskTable read_task_table(const std::string& path); // throws InputError
// The same on the table's text; `path` names it in messages.
TaskTable parse_task_table(const std::string& text, const std::string& path);
// True when two tables describe the same tasks (ids, configurations, seeds, tests).
bool same_tasks(const std::vector<CampaignTask>& a, const std::vector<CampaignTask>& b);

// ---- campaign.cpp: text helpers and ids --------------------------------------------------------

// Shell quoting ('...' where needed) and "0-3,5,7-9" ranges of sorted ids.
std::string shell_quote(const std::string& word);
std::string id_ranges(const std::vector<int>& ids);
std::string join_ints(const std::vector<int>& values);
// "00:01:05" and "2.5 h" style durations.
std::string clock_time(double seconds);

// ---- slurm.cpp: the scripts --------------------------------------------------------------------

// The sbatch array script and the merge script, self-contained and editable.
struct ScriptPaths {
    std::string rngvet; // absolute path of the binary
    std::string dir; // absolute campaign directory
};
std::string array_script(
    const Campaign& campaign, const TaskTable& table, const ScriptPaths& paths);
std::string merge_script(
    const Campaign& campaign, const TaskTable& table, const ScriptPaths& paths);

// ---- campaign.cpp ------------------------------------------------------------------------------

// A new campaign id: NAME-YYYYMMDDThhmmssZ-xxxxxx (random hex).
std::string new_campaign_id(const std::string& name);

} // namespace rngvet::campaigns
