#include "runner.hpp"

#include "generators/die_with_parent.hpp"
#include "testu01_gen.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <map>
#include <poll.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace rngvet {
namespace {

double process_cpu_seconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

FeedOptions feed_options(const RunnerOptions& options)
{
    FeedOptions feed;
    feed.prefetch = options.prefetch;
    feed.stop_flag = options.stop_flag;
    feed.on_stop = options.on_stop;
    feed.on_failure = options.on_failure;
    return feed;
}

// Runs one test on `gen`, which may have served earlier tests (serial mode): the outcome
// counts only this test's numbers and refills.
TestOutcome run_one(TestU01Generator& gen, const BatteryCatalogue& battery, int test,
    std::uint64_t start, const std::string& log_path)
{
    TestOutcome out;
    out.test_number = test;
    out.start_offset = start;
    out.worker = host_name() + ":" + std::to_string(getpid());
    out.started_at = utc_now();
    const std::uint64_t used = gen.consumed(), refills = gen.refills(), waits = gen.refill_waits();
    const double cpu = process_cpu_seconds();
    BatteryResult r = run_battery(gen.get(), battery, { test }, log_path);
    out.cpu_seconds = process_cpu_seconds() - cpu;
    out.finished_at = utc_now();
    out.numbers_used = gen.consumed() - used;
    out.refills = gen.refills() - refills;
    out.refill_waits = gen.refill_waits() - waits;
    out.testu01_version = r.testu01_version;
    out.statistics = std::move(r.statistics);
    return out;
}

// Sharded workers report to the parent through a pipe, one record a line, fields tab-
// separated; p-values in C99 hexadecimal floating point so they cross exactly.
std::string encode(const TestOutcome& t)
{
    std::ostringstream o;
    char buf[64];
    for (const Statistic& s : t.statistics) {
        std::snprintf(buf, sizeof buf, "%a", s.pvalue);
        o << "stat\t" << s.stat_index << "\t" << s.test_number << "\t" << buf << "\t" << s.test_name
          << "\n";
    }
    std::snprintf(buf, sizeof buf, "%a", t.cpu_seconds);
    o << "done\t" << t.numbers_used << "\t" << buf << "\t" << t.refills << "\t" << t.refill_waits
      << "\t" << t.started_at << "\t" << t.finished_at << "\t" << t.worker << "\t"
      << t.testu01_version << "\n";
    return o.str();
}

std::vector<std::string> split_tabs(const std::string& line)
{
    std::vector<std::string> f;
    std::size_t start = 0;
    while (true) {
        const auto tab = line.find('\t', start);
        f.push_back(line.substr(start, tab - start));
        if (tab == std::string::npos) return f;
        start = tab + 1;
    }
}

// Parses a worker's report; false if it is incomplete (the worker died).
bool decode(const std::string& text, TestOutcome& t)
{
    std::istringstream in(text);
    std::string line;
    bool done = false;
    while (std::getline(in, line)) {
        const auto f = split_tabs(line);
        if (f[0] == "stat" && f.size() == 5) {
            t.statistics.push_back(
                { std::stoi(f[1]), std::stoi(f[2]), f[4], std::strtod(f[3].c_str(), nullptr) });
        } else if (f[0] == "done" && f.size() == 9) {
            t.numbers_used = std::stoull(f[1]);
            t.cpu_seconds = std::strtod(f[2].c_str(), nullptr);
            t.refills = std::stoull(f[3]);
            t.refill_waits = std::stoull(f[4]);
            t.started_at = f[5];
            t.finished_at = f[6];
            t.worker = f[7];
            t.testu01_version = f[8];
            done = true;
        }
    }
    return done;
}

bool write_all(int fd, const std::string& s)
{
    std::size_t off = 0;
    while (off < s.size()) {
        const ssize_t n = write(fd, s.data() + off, s.size() - off);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        off += static_cast<std::size_t>(n);
    }
    return true;
}

std::string shard_log(const std::string& base, int test)
{
    return base.empty() ? "" : base + ".test" + std::to_string(test);
}

struct Worker {
    pid_t pid;
    int fd;
    int test;
    std::string output;
};

RunnerResult run_sharded(const StreamFactoryFn& make, const std::string& name,
    const BatteryCatalogue& battery, std::vector<int> tests, const RunnerOptions& options,
    const TestDone& done)
{
    RunnerResult result;
    std::stable_sort(tests.begin(), tests.end(),
        [&](int a, int b) { return battery.test(a).cost > battery.test(b).cost; });
    std::map<int, Worker> running; // by fd
    std::size_t next = 0;
    auto stopping = [&] { return options.stop_flag && *options.stop_flag; };
    while (next < tests.size() || !running.empty()) {
        while (
            !stopping() && next < tests.size() && static_cast<int>(running.size()) < options.jobs) {
            const int test = tests[next++];
            int fds[2];
            if (pipe(fds) != 0)
                throw std::runtime_error("pipe failed: " + std::string(std::strerror(errno)));
            std::fflush(stdout);
            std::fflush(stderr);
            const pid_t parent = getpid();
            const pid_t pid = fork();
            if (pid < 0)
                throw std::runtime_error("fork failed: " + std::string(std::strerror(errno)));
            if (pid == 0) {
                // Worker: default signal handling, no database, one test, report, exit; killed
                // with its parent.
                std::signal(SIGINT, SIG_DFL);
                std::signal(SIGTERM, SIG_DFL);
                die_with_parent(parent, SIGKILL);
                close(fds[0]);
                int status = 0;
                try {
                    const std::uint64_t start = static_cast<std::uint64_t>(test - 1) * shard_stride;
                    auto stream = make(start);
                    RunnerOptions worker = options;
                    worker.stop_flag = nullptr;
                    worker.on_failure = nullptr;
                    TestU01Generator gen(*stream, name, feed_options(worker));
                    TestOutcome t
                        = run_one(gen, battery, test, start, shard_log(options.log_path, test));
                    if (t.numbers_used > shard_stride)
                        throw std::runtime_error("test read past its segment");
                    if (!write_all(fds[1], encode(t))) status = 3;
                } catch (const std::exception& e) {
                    std::fprintf(stderr, "rngvet: error: test %d: %s\n", test, e.what());
                    status = 2;
                }
                close(fds[1]);
                std::_Exit(status);
            }
            close(fds[1]);
            running[fds[0]] = { pid, fds[0], test, "" };
        }
        if (running.empty()) break;
        std::vector<pollfd> polls;
        for (const auto& [fd, w] : running)
            polls.push_back({ fd, POLLIN, 0 });
        const int ready = poll(polls.data(), polls.size(), 500);
        if (ready < 0 && errno != EINTR) throw std::runtime_error("poll failed");
        if (stopping()) {
            for (const auto& [fd, w] : running)
                kill(w.pid, SIGTERM);
        }
        for (const pollfd& p : polls) {
            if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
            Worker& w = running[p.fd];
            char buf[4096];
            const ssize_t n = read(p.fd, buf, sizeof buf);
            if (n > 0) {
                w.output.append(buf, static_cast<std::size_t>(n));
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            // End of the worker's report.
            close(p.fd);
            int status = 0;
            while (waitpid(w.pid, &status, 0) < 0 && errno == EINTR) { }
            TestOutcome t;
            t.test_number = w.test;
            t.start_offset = static_cast<std::uint64_t>(w.test - 1) * shard_stride;
            if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && decode(w.output, t)) {
                done(t);
            } else {
                result.failed.push_back(w.test);
            }
            running.erase(p.fd);
        }
    }
    result.interrupted = stopping();
    return result;
}

} // namespace

std::string utc_now()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string host_name()
{
    char buf[256] = { 0 };
    if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
    return buf;
}

RunnerResult run_tests(const StreamFactoryFn& make, const std::string& name,
    const BatteryCatalogue& battery, const std::vector<int>& tests, const RunnerOptions& options,
    const TestDone& done)
{
    if (options.mode == "sharded") return run_sharded(make, name, battery, tests, options, done);

    // Serial: the tests in TestU01's order on one stream, each starting where the last ended.
    RunnerResult result;
    std::vector<int> ordered = tests;
    std::sort(ordered.begin(), ordered.end());
    auto stream = make(options.serial_start);
    // One generator for all tests, so that no number read ahead into its buffer is lost.
    TestU01Generator gen(*stream, name, feed_options(options));
    std::uint64_t offset = options.serial_start;
    for (int test : ordered) {
        if (options.stop_flag && *options.stop_flag) {
            result.interrupted = true;
            break;
        }
        TestOutcome t = run_one(gen, battery, test, offset, shard_log(options.log_path, test));
        offset += t.numbers_used;
        done(t);
    }
    return result;
}

} // namespace rngvet
