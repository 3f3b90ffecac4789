// Runs the tests of a battery one by one and reports each as it finishes, so that every test's
// p-values can be committed on their own and an interrupted run resumed.
//
//   serial:  one process, one stream, tests in TestU01's order: exactly the battery TestU01
//            runs (the same numbers reach the same tests), started at a given stream offset.
//   sharded: each test in its own worker process (TestU01 reports through process globals),
//            reading its own segment of the stream that starts at (test number - 1) * 2^40,
//            reached by exact jump-ahead; up to `jobs` workers at once, longest test first (by
//            the native form's measured time where it runs natively, native/costs.hpp, else by
//            the catalogue's cost).
#pragma once

#include "battery.hpp"
#include "engine.hpp"
#include "generators/stream.hpp"
#include "records.hpp"

#include <csignal>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rngvet {

// Segments of the sharded mode: test k reads [ (k-1) * 2^40, k * 2^40 ). No battery test reads
// more than 2^40 numbers (BigCrush reads about 2^38 in all); a test that did would be an error.
inline constexpr std::uint64_t shard_stride = 1ull << 40;

// A finished test: the record the store keeps for it, and what it produced.
struct TestOutcome : TestRecord {
    std::string testu01_version;
    std::vector<Statistic> statistics;
};

struct RunnerOptions {
    RunMode mode = RunMode::serial;
    Engine engine = Engine::testu01; // native and auto: the native form where a test has one
    int jobs = 1;
    bool on_device = false; // the stream runs on a CUDA device (the native families' device paths)
    bool prefetch = false;
    std::uint64_t serial_start = 0; // serial: stream offset of the first test to run
    std::string log_path; // TestU01's output (serial: the whole run; sharded: per test, suffixed)
    // Set by the caller's signal handler; the runner stops at the next opportunity.
    const volatile std::sig_atomic_t* stop_flag = nullptr;
    std::function<void()> on_stop; // serial: called from inside TestU01 before the process exits
    std::function<void()> on_failure; // serial: the stream failed; called before the process exits
    // Sharded: what each worker of native tests starts on a thread of its own as soon as it is
    // forked (the workers are forked before the first test is handed out), e.g. creating its
    // CUDA context while the worker sets up its first stream.
    std::function<void()> warm_up;
};

// Builds the configuration's stream positioned `offset` numbers in (by jump-ahead where the
// backend has it, so that a shard's start costs O(log offset)).
using StreamFactoryFn = std::function<std::unique_ptr<Stream>(std::uint64_t offset)>;
using TestDone = std::function<void(const TestOutcome&)>;

struct RunnerResult {
    std::vector<int> failed; // tests whose worker died or failed
    bool interrupted = false;
};

// RNGVET_SHARD_THREADS=N: every native test of a sharded run gets N threads (1 to 4096),
// whatever runs beside it; unset or empty, 0 (then, for a stream on a CUDA device, every core
// this process may run on; else twice the cores shared by the tests running at once, at most all
// of them). InputError for any other value.
int shard_threads();

// The order a sharded run starts `tests` in: longest first, by the native form's measured time
// (native/costs.hpp) where `engine` runs the test natively and a run measured it, else by the
// catalogue's cost; ties keep their order.
std::vector<int> sharded_order(
    const BatteryCatalogue& battery, std::vector<int> tests, Engine engine, bool on_device);

RunnerResult run_tests(const StreamFactoryFn& make, const std::string& name,
    const BatteryCatalogue& battery, const std::vector<int>& tests, const RunnerOptions& options,
    const TestDone& done);

// CPU seconds this process has used (a worker's cost of one test).
double process_cpu_seconds();
std::string utc_now();
std::string host_name();

} // namespace rngvet
