// A campaign run on this machine: its tasks, each `rngvet run` in its own process of the child
// pool (process/child_pool.hpp), `jobs` CPUs in all, then merged into the campaign's database.
#pragma once

#include "campaign.hpp"
#include "directory.hpp"

#include <csignal>
#include <functional>
#include <string>

namespace rngvet::campaigns {

struct LocalRun {
    std::string file; // the campaign file
    std::string dir; // the campaign directory ("": campaign-NAME)
    std::string db; // the campaign database ("": DIR/campaign.sqlite)
    int jobs = 1; // CPUs in all
    // GPUs to spread the tasks over (0: none named; each task sees the GPUs its process
    // inherits). With gpus > 0, tasks_per_gpu tasks at once on each: a task's process sees
    // its GPU alone (CUDA_VISIBLE_DEVICES: the GPU's entry of this process's own list where
    // it has one, else its number 0 .. gpus - 1).
    int gpus = 0;
    int tasks_per_gpu = 1;
    std::string rngvet; // the binary each task runs (`rngvet run`)
    volatile std::sig_atomic_t* stop = nullptr; // set: start no more tasks
    std::function<void(const std::string&)> say; // one line of progress, without its newline
};

struct LocalResult {
    std::string dir; // the campaign directory, absolute
    std::string db; // the campaign database
    TaskTable table; // the campaign's tasks
    bool stopped = false; // *stop was set before every task ran
    MergeResult merge; // of the task databases into db, after the tasks ran
};

// Runs the campaign's tasks that are not done (a re-run continues the campaign in the same
// directory; another campaign's directory is refused), then merges. Throws InputError for what
// refuses the run before any task starts.
LocalResult run_here(const LocalRun& run);

} // namespace rngvet::campaigns
