// Worker processes: the sharded runner's test workers (batteries/runner.hpp), the feed bench's
// (batteries/feed_bench.hpp), a local campaign's task runs (campaigns/) and the child of the
// backend checks (answer_in_child: kernels/backend.cpp, kernels/bench.cpp). Each job runs in a
// forked child, which dies with its parent (die_with_parent.hpp) and sends the text its work
// returns through a pipe; the parent keeps at most `slots` children at once and collects each
// report when its child ends. A child whose work executes another program keeps the pipe's
// write end (no report): the pool sees it end when that program, and every process it started,
// has exited.
//
//   ChildPool pool(jobs);
//   while (more work or !pool.empty()) {
//       while (more work && !pool.full()) pool.start(test, "test 5", [&] { return report; });
//       for (ChildPool::Ended& e : pool.wait(500)) ...   // e.ok: exit status 0
//   }
#pragma once

#include <functional>
#include <map>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rngvet {

class ChildPool {
public:
    struct Ended {
        int job = 0; // the number the job was started with (a test number)
        bool ok = false; // the child exited with status 0, after sending its whole report
        std::string report; // what the child sent
        int status = 0; // the child's wait status (waitpid)
    };

    explicit ChildPool(int slots); // at most max(1, slots) children at once
    ~ChildPool(); // kills (SIGKILL) and reaps the children still running
    ChildPool(const ChildPool&) = delete;
    ChildPool& operator=(const ChildPool&) = delete;

    bool full() const { return static_cast<int>(children_.size()) >= slots_; }
    bool empty() const { return children_.empty(); }
    int running() const { return static_cast<int>(children_.size()); }

    // Forks a child that runs `work` and sends back what it returns, then exits 0 (3 when the
    // report cannot be written). An exception from `work` is printed on standard error as
    // "rngvet: error: <label>: <what>" and the child exits 2. With default_signals the child
    // resets SIGINT and SIGTERM to their default action (the parent's handlers are for it).
    // Throws std::runtime_error when the pipe or the fork fails.
    void start(int job, const std::string& label, const std::function<std::string()>& work,
        bool default_signals = false);

    // Waits up to timeout_ms (-1: no limit) for a child to send something or end, reads what
    // the children sent, and returns those that ended, reaped (often none: call it again). A
    // signal ends the wait early.
    std::vector<Ended> wait(int timeout_ms);

    // Sends `signal` to every child still running.
    void signal_all(int signal);

private:
    struct Child {
        pid_t pid;
        int job;
        std::string output;
    };
    int slots_;
    std::map<int, Child> children_; // by the read end of the child's pipe
};

// fork(2) for a worker: standard output and error flushed first (so nothing buffered is written
// twice), and in the child (0 returned) SIGINT and SIGTERM reset to their default action where
// default_signals, and death with this process (die_with_parent). Throws std::runtime_error when
// the fork fails.
pid_t fork_child(bool default_signals);

// Waits for the child `pid` to end, through interruptions, and returns its wait status.
int reap(pid_t pid);

// Runs f in one child of a ChildPool and returns what f returned: for work this process must not
// do itself (it must not initialise a GPU driver before it forks workers). f's exceptions come
// back as InputError with their message, and a child that ends without answering is an
// InputError naming `what`.
std::string answer_in_child(const std::function<std::string()>& f, const std::string& what);

} // namespace rngvet
