#include "worker_pool.hpp"

#include "child_pool.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/socket.h>
#include <unistd.h>

namespace rngvet {
namespace {

// All of `text` into the socket fd; false on a failure (a worker that ended: no SIGPIPE).
bool send_all(int fd, const std::string& text)
{
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        done += static_cast<std::size_t>(n);
    }
    return true;
}

// The next line from fd (without its newline); false at the end of the pipe or on an error.
bool read_line(int fd, std::string& line)
{
    line.clear();
    char c = 0;
    for (;;) {
        const ssize_t n = read(fd, &c, 1);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        if (c == '\n') return true;
        line.push_back(c);
    }
}

// The report of a complete frame "LENGTH\n" + bytes at the start of `output`; false while the
// frame is incomplete.
bool complete_frame(const std::string& output, std::string& report)
{
    const std::size_t newline = output.find('\n');
    if (newline == std::string::npos) return false;
    const std::size_t length = std::strtoull(output.c_str(), nullptr, 10);
    if (output.size() - newline - 1 < length) return false;
    report = output.substr(newline + 1, length);
    return true;
}

} // namespace

WorkerPool::WorkerPool(int slots, Work work, std::string label, bool default_signals)
    : slots_(std::max(1, slots))
    , work_(std::move(work))
    , label_(std::move(label))
    , default_signals_(default_signals)
{
}

WorkerPool::~WorkerPool()
{
    for (const Worker& w : workers_) {
        kill(w.pid, SIGKILL);
        reap(w.pid);
        close(w.fd);
    }
}

int WorkerPool::busy() const
{
    return static_cast<int>(
        std::count_if(workers_.begin(), workers_.end(), [](const Worker& w) { return w.busy; }));
}

void WorkerPool::serve(int fd) const
{
    std::string line;
    while (read_line(fd, line)) {
        int job = 0, arg = 0;
        if (std::sscanf(line.c_str(), "%d %d", &job, &arg) != 2) std::_Exit(3);
        std::string report;
        try {
            report = work_(job, arg);
        } catch (const std::exception& e) {
            std::fprintf(stderr, "rngvet: error: %s %d: %s\n", label_.c_str(), job, e.what());
            std::fflush(stderr);
            std::_Exit(2);
        }
        std::fflush(stdout);
        std::fflush(stderr);
        if (!send_all(fd, std::to_string(report.size()) + "\n" + report)) std::_Exit(3);
    }
    std::_Exit(0);
}

WorkerPool::Worker WorkerPool::fork_worker()
{
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        throw std::runtime_error("socketpair failed: " + std::string(std::strerror(errno)));
    pid_t pid = -1;
    try {
        pid = fork_child(default_signals_);
    } catch (...) {
        close(fds[0]);
        close(fds[1]);
        throw;
    }
    if (pid == 0) {
        // The other workers' sockets, inherited from the parent, are not this worker's.
        for (const Worker& w : workers_)
            close(w.fd);
        close(fds[0]);
        try {
            if (on_fork_) on_fork_();
        } catch (...) { // a setup that fails leaves the jobs to do it as they would anyway
        }
        serve(fds[1]);
    }
    close(fds[1]);
    Worker w;
    w.pid = pid;
    w.fd = fds[0];
    return w;
}

void WorkerPool::prepare(int count)
{
    while (workers() < std::min(count, slots_))
        workers_.push_back(fork_worker());
}

void WorkerPool::start(int job, int arg)
{
    if (full())
        throw std::runtime_error("no free worker for " + label_ + " " + std::to_string(job));
    const std::string line = std::to_string(job) + " " + std::to_string(arg) + "\n";
    auto idle
        = std::find_if(workers_.begin(), workers_.end(), [](const Worker& w) { return !w.busy; });
    // An idle worker that has ended (killed while it waited) refuses the job: it is reaped and
    // the job goes to a fresh worker.
    if (idle != workers_.end() && !send_all(idle->fd, line)) {
        kill(idle->pid, SIGKILL);
        reap(idle->pid);
        close(idle->fd);
        workers_.erase(idle);
        idle = workers_.end();
    }
    if (idle == workers_.end()) {
        workers_.push_back(fork_worker());
        idle = workers_.end() - 1;
        if (!send_all(idle->fd, line))
            throw std::runtime_error("cannot hand " + label_ + " " + std::to_string(job)
                + " to a worker: " + std::strerror(errno));
    }
    idle->busy = true;
    idle->job = job;
    idle->output.clear();
}

std::vector<WorkerPool::Ended> WorkerPool::wait(int timeout_ms)
{
    std::vector<pollfd> polls;
    for (const Worker& w : workers_)
        polls.push_back({ w.fd, POLLIN, 0 });
    const int ready = poll(polls.data(), polls.size(), timeout_ms);
    if (ready < 0 && errno != EINTR) throw std::runtime_error("poll failed");
    std::vector<Ended> ended;
    std::vector<int> gone; // the sockets of workers that ended
    for (const pollfd& p : polls) {
        if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
        Worker& w = *std::find_if(
            workers_.begin(), workers_.end(), [&](const Worker& x) { return x.fd == p.fd; });
        char buf[4096];
        const ssize_t n = read(p.fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n > 0) {
            w.output.append(buf, static_cast<std::size_t>(n));
            std::string report;
            if (w.busy && complete_frame(w.output, report)) {
                ended.push_back({ w.job, true, std::move(report), 0 });
                w.busy = false;
                w.output.clear();
            }
            continue;
        }
        // The worker ended: its running job, if any, failed.
        const int status = reap(w.pid);
        if (w.busy) ended.push_back({ w.job, false, std::move(w.output), status });
        gone.push_back(p.fd);
    }
    for (int fd : gone) {
        auto w = std::find_if(
            workers_.begin(), workers_.end(), [&](const Worker& x) { return x.fd == fd; });
        close(w->fd);
        workers_.erase(w);
    }
    return ended;
}

void WorkerPool::signal_all(int signal)
{
    for (const Worker& w : workers_)
        kill(w.pid, signal);
}

} // namespace rngvet
