// One run of a battery on a configuration, from its record in the store to its last stored test:
// the record of a new run, the plan of a resumed one (rebuilt from what the store recorded),
// the progress line, and the run of its tests that stores each as it finishes.
#pragma once

#include "batteries/catalogue.hpp"
#include "batteries/runner.hpp"
#include "generators/configuration.hpp"
#include "reports/gate.hpp"
#include "reports/store.hpp"

#include <chrono>
#include <csignal>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <sys/types.h>
#include <vector>

namespace rngvet {

// "1,5,10": tests of the battery, each once, in the order given (--tests); throws InputError.
std::vector<int> parse_tests(const std::string& text, const BatteryCatalogue& battery);

// ---- a new run ---------------------------------------------------------------------------

struct NewRun {
    Configuration config; // its backend resolved (not "auto")
    const BatteryCatalogue* battery = nullptr;
    std::vector<int> tests; // the tests selected; empty: the whole battery
    RunMode mode = RunMode::serial;
    int jobs = 1;
    std::vector<std::string> devices; // of the backend (cuda, opencl: the run's GPU model)
    std::string options; // the configuration's options, one per line
    std::string command_line; // as given, for provenance
    std::string input_sha256; // file: generators
    std::string params_check; // mtdc: what the parameter-set check found
    Engine engine = Engine::testu01; // as asked for (checked against the battery's tests)
};

// The run's record, status running, started now on this host with this build.
RunRecord new_run_record(const NewRun& run);

// ---- a resumed run -----------------------------------------------------------------------

// The value of option `name` (e.g. "--params") in a run's stored options ("" when absent).
std::string stored_option(const std::string& options, const std::string& name);

// The configuration a stored run ran: its canonical name read back (parse_canonical_name), on
// the backend it recorded, with the location of its parameter sets from its options. Resume
// continues a run only on the stream it started: parameter sets and an input file must hash as
// they did then (input_sha256 hashes a file: configuration's input); else an InputError.
Configuration stored_configuration(
    const RunRecord& run, const std::function<std::string(const Configuration&)>& input_sha256);

struct ResumePlan {
    const BatteryCatalogue* battery = nullptr;
    std::vector<int> tests; // the run's tests, all of them
    std::vector<int> to_run; // those the store has not
    RunMode mode = RunMode::serial; // the run's
    std::uint64_t serial_start = 0; // serial: where the last finished test ended
    Engine engine = Engine::testu01; // the run's
};

// What is left of stored run `run` (mode: as requested, nullopt for the run's own); refuses
// (InputError) another mode, a serial run missing a test before one it has, and an engine that
// no longer has a native form of a missing test.
ResumePlan plan_resume(Store& store, const RunRecord& run, std::optional<RunMode> mode);

// ---- running and storing ------------------------------------------------------------------

// Tests done / total, elapsed, and an ETA from the catalogue's cost of what is left, one line
// per finished test (rewritten in place on a terminal).
class Progress {
public:
    Progress(const BatteryCatalogue& battery, const std::vector<int>& tests, std::ostream& out,
        bool terminal);
    void test_done(int test);
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

private:
    const BatteryCatalogue& battery_;
    std::ostream& out_;
    std::size_t total_, done_ = 0;
    bool terminal_;
    double remaining_cost_ = 0, total_cost_ = 0;
    std::chrono::steady_clock::time_point start_;
};

// Disk space held beside the store while a run writes to it: when the disk fills up, the run
// gives the space back and so can still record that it failed, instead of staying 'running'.
// The file is the run's own: created under a fresh name (STORE-reserve-XXXXXX, exclusively, so
// no file or link already there is opened), locked while the run holds it, and removed only
// while that name is still the same file. A reserve that a run killed with kill -9 left behind
// is no longer locked; the next run on the store removes it.
class DiskReserve {
public:
    static constexpr off_t bytes = 256 * 1024;
    explicit DiskReserve(const std::string& db_path);
    ~DiskReserve() { release(); }
    DiskReserve(const DiskReserve&) = delete;
    DiskReserve& operator=(const DiskReserve&) = delete;
    void release();

private:
    std::string path_;
    int fd_ = -1;
};

struct StoredRunResult {
    RunStatus status = RunStatus::complete; // complete, interrupted or failed, as stored
    std::size_t statistics = 0; // stored now
    int suspect = 0, failed = 0; // statistics by verdict
    std::vector<int> unfinished; // tests whose worker died or failed
    bool interrupted = false;
    // A file: input that is not the file hashed when the run started (the run is failed): why.
    std::string input_changed;
};

// The claim of one process on one stored run, for as long as it runs the run's tests: an
// open-file-description lock (F_OFD_SETLK) on one byte of the store file far beyond its data
// and beyond SQLite's own lock bytes, at an offset given by the run id. A second process that
// would run the same run (two --resume at once, or --resume of a run still running) is refused
// before it writes anything; the lock ends with the process, kill -9 included (the children
// it forks close their copy at once, so none keeps it after a kill). The lock's descriptor must
// outlive the process's SQLite connections to the store (closing a descriptor of a file drops
// the process's POSIX locks on it, SQLite's among them): destroy it after the Store.
class RunLock {
public:
    // Throws InputError when another process holds the run, std::runtime_error when the store
    // cannot be opened for the lock.
    RunLock(const std::string& db_path, std::int64_t run_id);
    ~RunLock();
    RunLock(const RunLock&) = delete;
    RunLock& operator=(const RunLock&) = delete;

private:
    int fd_ = -1;
};

// Stores a new run (run_id 0; returns its id) or marks stored run run_id running again.
std::int64_t open_run(Store& store, const RunRecord& run, std::int64_t run_id);

// After whatever ended a run by an exception (a full disk, a failing backend): a run left
// 'running' is marked failed; the tests it stored stay, and --resume runs the rest.
void mark_failed_if_running(Store& store, std::int64_t run_id) noexcept;

// Runs `to_run` of stored run `run_id` (its record `run`, its configuration `config`) and stores
// each test as it finishes (Store::insert_test), the progress line on `progress`; marks the
// run complete, interrupted or failed. A file: input is hashed again at the end: when it is
// not the file the run recorded, the run is failed (StoredRunResult::input_changed). Holds a
// DiskReserve beside the store while the tests run. runner's on_stop and on_failure are set
// here: each marks the run and closes the store.
StoredRunResult run_stored_tests(Store& store, std::int64_t run_id, const RunRecord& run,
    const Configuration& config, const BatteryCatalogue& battery, const std::vector<int>& to_run,
    RunnerOptions runner, Progress& progress);

// --fail-on for a finished run: the run and the other stored seeds of its configuration and
// battery.
GateResult gate_run(Store& store, std::int64_t run_id, const RunRecord& run, FailOn fail_on);

} // namespace rngvet
