// Long-lived worker processes, each running many jobs one after another: the sharded runner's
// native tests (batteries/runner.cpp), so that what a worker sets up once (a GPU context, the
// pinned staging its streams reuse) is paid once per worker instead of once per test.
//
// A worker is forked when a job finds no idle one (at most `slots` of them), dies with its
// parent (die_with_parent.hpp), and reads jobs from its socket (a socketpair): one line
// "JOB ARG". It answers each with one frame on the same socket, "LENGTH\n" and then the
// report's bytes. A job whose work
// throws prints "rngvet: error: <label> JOB: <what>" on standard error and ends its worker with
// status 2, as a ChildPool child does: the job is reported failed and a later job gets a fresh
// worker, so no state a failure may have left behind (a GPU error, a half-written buffer) serves
// another job. A worker killed mid-job (a signal, the out-of-memory killer) fails its job alike.
//
//   WorkerPool pool(jobs, [](int job, int arg) { return report; }, "test");
//   while (more work or !pool.empty()) {
//       while (more work && !pool.full()) pool.start(test, threads);
//       for (WorkerPool::Ended& e : pool.wait(500)) ...   // e.ok: the job's report came back
//   }
#pragma once

#include <functional>
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

namespace rngvet {

class WorkerPool {
public:
    using Work = std::function<std::string(int job, int arg)>;
    struct Ended {
        int job = 0;
        bool ok = false; // the whole report came back
        std::string report;
        int status = 0; // a failed job's worker's wait status (waitpid); 0 when ok
    };

    // With default_signals the workers reset SIGINT and SIGTERM to their default action.
    WorkerPool(int slots, Work work, std::string label, bool default_signals = true);
    ~WorkerPool(); // kills (SIGKILL) and reaps every worker, busy or idle
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    int busy() const; // jobs running
    bool full() const { return busy() >= slots_; }
    bool empty() const { return busy() == 0; }
    int workers() const { return static_cast<int>(workers_.size()); } // busy and idle

    // What each worker runs first, in the worker, as soon as it is forked (before it reads a
    // job): e.g. starting a thread that sets up its GPU context.
    void set_on_fork(std::function<void()> on_fork) { on_fork_ = std::move(on_fork); }
    // Forks idle workers until `count` (at most the slots) exist, so that they set up while this
    // process prepares the jobs. Throws std::runtime_error when a pipe or a fork fails.
    void prepare(int count);

    // Hands the job to an idle worker, forking one where none is idle. Throws
    // std::runtime_error when the pool is full, or a pipe, the fork or the hand-over fails.
    void start(int job, int arg);

    // Waits up to timeout_ms (-1: no limit) for a worker to answer or end, and returns the jobs
    // that ended (often none: call it again). A signal ends the wait early.
    std::vector<Ended> wait(int timeout_ms);

    // Sends `signal` to every worker, busy or idle.
    void signal_all(int signal);

private:
    struct Worker {
        pid_t pid = -1;
        int fd = -1; // the parent's end of the worker's socket: jobs out, reports in
        int job = 0;
        bool busy = false;
        std::string output; // what came back of the running job's frame
    };
    Worker fork_worker();
    [[noreturn]] void serve(int fd) const;

    int slots_;
    Work work_;
    std::string label_;
    bool default_signals_;
    std::function<void()> on_fork_;
    std::vector<Worker> workers_;
};

} // namespace rngvet
