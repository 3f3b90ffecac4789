#include "runner.hpp"

#include "generators/error.hpp"
#include "native/costs.hpp"
#include "native/native.hpp"
#include "process/child_pool.hpp"
#include "process/memory.hpp"
#include "process/worker_pool.hpp"
#include "testu01_gen.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <omp.h>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <unistd.h>
#include <utility>

namespace rngvet {
namespace {

FeedOptions feed_options(const RunnerOptions& options)
{
    FeedOptions feed;
    feed.prefetch = options.prefetch;
    feed.stop_flag = options.stop_flag;
    feed.on_stop = options.on_stop;
    feed.on_failure = options.on_failure;
    return feed;
}

// The native form of a test, as a battery's statistics: their positions in the whole battery
// as the catalogue places them, the names and p-values as the native test returns them.
std::vector<Statistic> run_native(
    TestU01Generator& gen, const BatteryCatalogue& battery, const native::NativeTest& test)
{
    std::vector<native::NativeStatistic> values;
    {
        native::Numbers in(gen);
        values = test.run(in);
    }
    int index = 0;
    for (const TestEntry& t : battery.tests) {
        if (t.number == test.number) break;
        index += t.statistics;
    }
    const int expected = battery.test(test.number).statistics;
    if (static_cast<int>(values.size()) != expected)
        throw std::logic_error("native test " + std::to_string(test.number) + " of " + battery.name
            + " gave " + std::to_string(values.size()) + " statistics where the catalogue has "
            + std::to_string(expected));
    std::vector<Statistic> out;
    for (const native::NativeStatistic& v : values)
        out.push_back({ ++index, test.number, v.name, v.pvalue });
    return out;
}

// --log for a test the native engine computed: TestU01 wrote nothing, so the log says which
// engine computed the test and the p-values it gave (as stored, %.17g).
void write_native_log(const std::string& path, const BatteryCatalogue& battery, int test,
    const std::vector<Statistic>& statistics)
{
    std::ostringstream o;
    o << "rngvet native engine: " << battery.name << " test " << test << " ("
      << battery.test(test).name << "), computed by rngvet's native form of TestU01's test\n";
    char value[32];
    for (const Statistic& s : statistics) {
        std::snprintf(value, sizeof value, "%.17g", s.pvalue);
        o << "  " << s.test_name << ": p-value " << value << "\n";
    }
    std::FILE* f = std::fopen(path.c_str(), "wb");
    const std::string text = o.str();
    bool written = f != nullptr && std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (f != nullptr && std::fclose(f) != 0) written = false;
    if (!written) throw std::runtime_error("cannot write the log '" + path + "'");
}

// Runs one test on `gen`, which may have served earlier tests (serial mode): the outcome
// counts only this test's numbers and refills.
TestOutcome run_one(TestU01Generator& gen, const BatteryCatalogue& battery, int test,
    std::uint64_t start, const std::string& log_path, Engine engine)
{
    TestOutcome out;
    out.test_number = test;
    out.start_offset = start;
    out.worker = host_name() + ":" + std::to_string(getpid());
    out.started_at = utc_now();
    const std::uint64_t used = gen.consumed(), refills = gen.refills(), waits = gen.refill_waits();
    const double cpu = process_cpu_seconds();
    const auto wall = std::chrono::steady_clock::now();
    const native::NativeTest* native_form = native_test(engine, battery, test);
    BatteryResult r;
    if (native_form) {
        r.statistics = run_native(gen, battery, *native_form);
        r.testu01_version = testu01_library_version();
        out.engine = to_string(Engine::native);
        if (!log_path.empty()) write_native_log(log_path, battery, test, r.statistics);
    } else {
        r = run_battery(gen.get(), battery, { test }, log_path);
    }
    out.cpu_seconds = process_cpu_seconds() - cpu;
    out.wall_seconds
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
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
    std::snprintf(buf, sizeof buf, "%a\t%a", t.cpu_seconds, t.wall_seconds);
    o << "done\t" << t.engine << "\t" << t.numbers_used << "\t" << buf << "\t" << t.refills << "\t"
      << t.refill_waits << "\t" << t.started_at << "\t" << t.finished_at << "\t" << t.worker << "\t"
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
        } else if (f[0] == "done" && f.size() == 11) {
            t.engine = f[1];
            t.numbers_used = std::stoull(f[2]);
            t.cpu_seconds = std::strtod(f[3].c_str(), nullptr);
            t.wall_seconds = std::strtod(f[4].c_str(), nullptr);
            t.refills = std::stoull(f[5]);
            t.refill_waits = std::stoull(f[6]);
            t.started_at = f[7];
            t.finished_at = f[8];
            t.worker = f[9];
            t.testu01_version = f[10];
            done = true;
        }
    }
    return done;
}

std::string shard_log(const std::string& base, int test)
{
    return base.empty() ? "" : base + ".test" + std::to_string(test);
}

// Sharded mode: each test on its own segment of the stream, in a worker process, at most
// options.jobs at once. A test the native engine computes runs in a long-lived worker
// (WorkerPool), which serves one test after another and so sets up its device context once; a
// test TestU01 computes runs in a child of its own (ChildPool), since TestU01 keeps its state in
// process globals.
RunnerResult run_sharded(const StreamFactoryFn& make, const std::string& name,
    const BatteryCatalogue& battery, std::vector<int> tests, const RunnerOptions& options,
    const TestDone& done)
{
    RunnerResult result;
    tests = sharded_order(battery, std::move(tests), options.engine, options.on_device);
    // A worker: default signal handling, no database; runs the test, returns its report.
    auto run_test = [&](int test, int threads) {
        const std::uint64_t start = static_cast<std::uint64_t>(test - 1) * shard_stride;
        // The test's threads also make its numbers where OpenMP does (backend openmp): a stream
        // of the machine's every core in each of `jobs` workers would take turns on the cores.
        native::set_threads(threads);
        omp_set_num_threads(threads);
        auto stream = make(start);
        RunnerOptions worker = options;
        worker.stop_flag = nullptr;
        worker.on_failure = nullptr;
        TestU01Generator gen(*stream, name, feed_options(worker));
        TestOutcome t
            = run_one(gen, battery, test, start, shard_log(options.log_path, test), options.engine);
        if (t.numbers_used > shard_stride) throw std::runtime_error("test read past its segment");
        return encode(t);
    };
    ChildPool children(options.jobs);
    WorkerPool workers(options.jobs, run_test, "test");
    workers.set_on_fork([warm_up = options.warm_up] {
        keep_freed_memory();
        if (warm_up) std::thread(warm_up).detach();
    });
    // The workers of the native tests forked at once, each setting up while tests are handed out.
    workers.prepare(static_cast<int>(std::count_if(tests.begin(), tests.end(),
        [&](int test) { return native_test(options.engine, battery, test) != nullptr; })));
    auto running = [&] { return children.running() + workers.busy(); };
    std::size_t next = 0;
    const int cores = native::threads();
    const int fixed_threads = shard_threads();
    auto stopping = [&] { return options.stop_flag && *options.stop_flag; };
    while (next < tests.size() || running() > 0) {
        while (!stopping() && next < tests.size() && running() < options.jobs) {
            const int test = tests[next++];
            // The native engine's threads (RNGVET_SHARD_THREADS overrides them). A stream on a
            // CUDA device: every core, whatever runs beside (the kernel shares them), so that
            // the parallel parts of the long tests, which start first, take the cores the short
            // ones leave: on an H100 node's 16 cores BigCrush took 44.0 s so, 55.2 s with the
            // rule below (docs/benchmarks.md, part 9). On the host, where the tests' work is
            // several times larger, the cores shared by the workers that run beside this one
            // (fewer at the end of the run), twice over, so that a test with little parallel work
            // left does not leave its core idle: all the cores were slower there (part 4).
            const int beside = static_cast<int>(std::min<std::size_t>(
                static_cast<std::size_t>(options.jobs), tests.size() - next + 1));
            const int threads = fixed_threads > 0 ? fixed_threads
                : options.on_device               ? cores
                                    : std::max(1, std::min(cores, 2 * cores / std::max(1, beside)));
            if (native_test(options.engine, battery, test) != nullptr)
                workers.start(test, threads);
            else
                children.start(
                    test, "test " + std::to_string(test),
                    [&, test, threads] { return run_test(test, threads); }, true);
        }
        if (running() == 0) break;
        // Both kinds at once: short waits on each in turn.
        const int wait_ms = children.empty() || workers.empty() ? 500 : 20;
        std::vector<std::pair<int, std::string>> ended; // test, report
        auto collect = [&](int test, bool ok, std::string& report) {
            if (ok)
                ended.emplace_back(test, std::move(report));
            else
                result.failed.push_back(test);
        };
        if (!children.empty())
            for (ChildPool::Ended& e : children.wait(wait_ms))
                collect(e.job, e.ok, e.report);
        if (!workers.empty())
            for (WorkerPool::Ended& e : workers.wait(wait_ms))
                collect(e.job, e.ok, e.report);
        if (stopping()) {
            children.signal_all(SIGTERM);
            workers.signal_all(SIGTERM);
        }
        for (const auto& [test, report] : ended) {
            TestOutcome t;
            t.test_number = test;
            t.start_offset = static_cast<std::uint64_t>(test - 1) * shard_stride;
            if (decode(report, t))
                done(t);
            else
                result.failed.push_back(test);
        }
    }
    result.interrupted = stopping();
    return result;
}

} // namespace

double process_cpu_seconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

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

int shard_threads()
{
    const char* env = std::getenv("RNGVET_SHARD_THREADS");
    if (env == nullptr || *env == '\0') return 0;
    char* end = nullptr;
    const long n = std::strtol(env, &end, 10);
    if (*end != '\0' || n < 1 || n > 4096)
        throw InputError(std::string("RNGVET_SHARD_THREADS='") + env
            + "' is not a number of threads from 1 to 4096");
    return static_cast<int>(n);
}

std::vector<int> sharded_order(
    const BatteryCatalogue& battery, std::vector<int> tests, Engine engine, bool on_device)
{
    auto seconds = [&](int test) {
        if (native_test(engine, battery, test) != nullptr) {
            const double measured = native::measured_seconds(battery.name, test, on_device);
            if (measured >= 0) return measured;
        }
        return battery.test(test).cost;
    };
    std::stable_sort(
        tests.begin(), tests.end(), [&](int a, int b) { return seconds(a) > seconds(b); });
    return tests;
}

RunnerResult run_tests(const StreamFactoryFn& make, const std::string& name,
    const BatteryCatalogue& battery, const std::vector<int>& tests, const RunnerOptions& options,
    const TestDone& done)
{
    if (options.mode == RunMode::sharded)
        return run_sharded(make, name, battery, tests, options, done);

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
        TestOutcome t = run_one(
            gen, battery, test, offset, shard_log(options.log_path, test), options.engine);
        offset += t.numbers_used;
        done(t);
    }
    return result;
}

} // namespace rngvet
