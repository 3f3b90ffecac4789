#include "child_pool.hpp"

#include "die_with_parent.hpp"
#include "files.hpp"
#include "generators/error.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <sys/wait.h>
#include <unistd.h>

namespace rngvet {

pid_t fork_child(bool default_signals)
{
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed: " + std::string(std::strerror(errno)));
    if (pid == 0) {
        if (default_signals) {
            std::signal(SIGINT, SIG_DFL);
            std::signal(SIGTERM, SIG_DFL);
        }
        die_with_parent(parent, SIGKILL);
    }
    return pid;
}

int reap(pid_t pid)
{
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) { }
    return status;
}

ChildPool::ChildPool(int slots)
    : slots_(std::max(1, slots))
{
}

ChildPool::~ChildPool()
{
    for (const auto& [fd, child] : children_) {
        kill(child.pid, SIGKILL);
        reap(child.pid);
        close(fd);
    }
}

void ChildPool::start(int job, const std::string& label, const std::function<std::string()>& work,
    bool default_signals)
{
    // Close-on-exec, so that a program a child executes holds no other child's pipe; the
    // child's own write end is kept across an exec (see the header).
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        throw std::runtime_error("pipe failed: " + std::string(std::strerror(errno)));
    pid_t pid = -1;
    try {
        pid = fork_child(default_signals);
    } catch (...) {
        close(fds[0]);
        close(fds[1]);
        throw;
    }
    if (pid == 0) {
        close(fds[0]);
        fcntl(fds[1], F_SETFD, 0);
        int status = 0;
        try {
            if (write_all(fds[1], work()) != 0) status = 3;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "rngvet: error: %s: %s\n", label.c_str(), e.what());
            status = 2;
        }
        close(fds[1]);
        std::_Exit(status);
    }
    close(fds[1]);
    children_[fds[0]] = { pid, job, "" };
}

std::vector<ChildPool::Ended> ChildPool::wait(int timeout_ms)
{
    std::vector<pollfd> polls;
    for (const auto& [fd, child] : children_)
        polls.push_back({ fd, POLLIN, 0 });
    const int ready = poll(polls.data(), polls.size(), timeout_ms);
    if (ready < 0 && errno != EINTR) throw std::runtime_error("poll failed");
    std::vector<Ended> ended;
    for (const pollfd& p : polls) {
        if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
        Child& child = children_[p.fd];
        char buf[4096];
        const ssize_t n = read(p.fd, buf, sizeof buf);
        if (n > 0) {
            child.output.append(buf, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        // End of the child's report.
        close(p.fd);
        const int status = reap(child.pid);
        ended.push_back({ child.job, WIFEXITED(status) && WEXITSTATUS(status) == 0,
            std::move(child.output), status });
        children_.erase(p.fd);
    }
    return ended;
}

void ChildPool::signal_all(int signal)
{
    for (const auto& [fd, child] : children_)
        kill(child.pid, signal);
}

std::string answer_in_child(const std::function<std::string()>& f, const std::string& what)
{
    ChildPool pool(1);
    pool.start(0, what, [&] {
        try {
            return "ok\n" + f();
        } catch (const std::exception& e) {
            return std::string("error\n") + e.what();
        }
    });
    std::vector<ChildPool::Ended> ended;
    while (ended.empty())
        ended = pool.wait(-1);
    const ChildPool::Ended& child = ended.front();
    const std::string& text = child.report;
    if (text.rfind("error\n", 0) == 0) throw InputError(text.substr(6));
    if (!child.ok || text.rfind("ok\n", 0) != 0)
        throw InputError(
            what + " ended without an answer (exit status " + std::to_string(child.status) + ")");
    return text.substr(3);
}

} // namespace rngvet
