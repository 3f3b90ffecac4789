#include "stored_run.hpp"

#include "generators/error.hpp"
#include "generators/sha256.hpp"
#include "kernels/backend.hpp"
#include "kernels/device.hpp"
#include "reports/classify.hpp"
#include "rngvet/version.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <map>
#include <pthread.h>
#include <set>
#include <sstream>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rngvet {
namespace {

std::string join(const std::vector<int>& v)
{
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i)
        s += (i ? "," : "") + std::to_string(v[i]);
    return s;
}

std::string first_line_of(const char* path, const char* key)
{
    std::FILE* f = std::fopen(path, "r");
    if (!f) return "";
    char line[512];
    std::string found;
    while (std::fgets(line, sizeof line, f)) {
        std::string l = line;
        if (l.rfind(key, 0) != 0) continue;
        const auto colon = l.find(':');
        found = l.substr(colon + 1);
        found.erase(0, found.find_first_not_of(" \t"));
        found.erase(found.find_last_not_of(" \t\n") + 1);
        break;
    }
    std::fclose(f);
    return found;
}

std::string duration(double seconds)
{
    const long s = static_cast<long>(seconds + 0.5);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%02ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
    return buf;
}

[[noreturn]] void refuse_other_stream(const RunRecord& run, const std::string& what,
    const std::string& stored, const std::string& now)
{
    throw InputError("run " + std::to_string(run.run_id) + " was started on " + what
        + " of SHA-256 " + stored + "; it now has SHA-256 " + now
        + "; resuming would mix two streams in one run");
}

// A stored field that --resume cannot trust: refused before anything is written.
[[noreturn]] void refuse_damaged(const RunRecord& run, const std::string& field,
    const std::string& value, const std::string& why)
{
    throw InputError("run " + std::to_string(run.run_id) + " cannot be resumed: its stored " + field
        + " '" + value + "' is damaged (" + why + ")");
}

// The run's fields that its plan is read from, each checked.
const BatteryCatalogue& stored_battery(const RunRecord& run)
{
    if (run.jobs < 1) refuse_damaged(run, "jobs", std::to_string(run.jobs), "at least 1");
    const BatteryCatalogue* battery = nullptr;
    try {
        battery = &catalogue_for(run.battery);
    } catch (const InputError& e) {
        refuse_damaged(run, "battery", run.battery, e.what());
    }
    if (battery->name != run.battery)
        refuse_damaged(run, "battery", run.battery, "its name is " + battery->name);
    return *battery;
}

// The tests a run has finished, checked against its plan: each a test of the run, each where
// its mode puts it in the stream (serial: one after another from offset 0; sharded: test k at
// (k - 1) x 2^40), each having read numbers unless the battery's catalogue says the test writes
// nothing at its parameters (Rabbit and Alphabit leave tests out at a small nb).
void check_finished_tests(const RunRecord& run, const BatteryCatalogue& battery,
    const std::vector<int>& selected, const std::map<int, TestRecord>& finished)
{
    std::uint64_t serial_offset = 0;
    for (const auto& [n, t] : finished) {
        if (std::find(selected.begin(), selected.end(), n) == selected.end())
            refuse_damaged(run, "test_number", std::to_string(n), "not a test of the run");
        const std::uint64_t expected = run.mode == RunMode::serial
            ? serial_offset
            : static_cast<std::uint64_t>(n - 1) * shard_stride;
        if (t.start_offset != expected)
            refuse_damaged(run, "start_offset of test " + std::to_string(n),
                std::to_string(t.start_offset),
                std::string(to_text(run.mode)) + " puts it at " + std::to_string(expected));
        const std::uint64_t most = run.mode == RunMode::serial ? ~expected : shard_stride;
        const bool reads = battery.test(n).statistics > 0;
        if ((reads && t.numbers_used == 0) || t.numbers_used > most)
            refuse_damaged(run, "numbers_used of test " + std::to_string(n),
                std::to_string(t.numbers_used), (reads ? "1 to " : "0 to ") + std::to_string(most));
        serial_offset = expected + t.numbers_used;
    }
}

} // namespace

std::vector<int> parse_tests(const std::string& text, const BatteryCatalogue& battery)
{
    if (text.empty()) throw InputError("--tests needs test numbers, e.g. --tests 1,5,10");
    std::vector<std::int64_t> numbers;
    std::stringstream in(text);
    for (std::string part; std::getline(in, part, ',');) {
        if (part.empty() || part.size() > 9 || part.find_first_not_of("0123456789") != part.npos)
            throw InputError("--tests must be test numbers separated by commas, e.g. 1,5,10; got '"
                + text + "'");
        numbers.push_back(std::stoll(part));
    }
    if (text.back() == ',')
        throw InputError(
            "--tests must be test numbers separated by commas, e.g. 1,5,10; got '" + text + "'");
    std::vector<int> tests;
    for (std::int64_t n : numbers) {
        if (n < 1 || n > static_cast<std::int64_t>(battery.tests.size()))
            throw InputError("--tests: " + std::string(battery.name) + " has tests 1.."
                + std::to_string(battery.tests.size()) + ", got " + std::to_string(n));
        if (std::find(tests.begin(), tests.end(), n) != tests.end())
            throw InputError("--tests names test " + std::to_string(n) + " twice");
        tests.push_back(static_cast<int>(n));
    }
    return tests;
}

RunRecord new_run_record(const NewRun& n)
{
    const Configuration& config = n.config;
    RunRecord run;
    run.input_sha256 = n.input_sha256;
    run.params_check = n.params_check;
    run.generator = to_string(config.generator);
    run.config = canonical_name(config);
    run.seed = recorded_seed(config);
    run.backend = to_string(config.backend);
    run.battery = n.battery->name;
    run.mode = n.mode;
    run.status = RunStatus::running;
    run.resolution_bits = resolution_bits(config);
    run.params_sha256 = params_sha256(config);
    run.testu01_version = "";
    run.rngvet_version = std::string(version) + " (" + git_commit + ")";
    run.host = host_name();
    run.command_line = n.command_line;
    run.started_at = utc_now();
    run.jobs = n.jobs;
    run.cpu_model = first_line_of("/proc/cpuinfo", "model name");
    if (config.backend == Backend::cuda || config.backend == Backend::opencl) {
        for (const std::string& d : n.devices)
            run.gpu_model += (run.gpu_model.empty() ? "" : "; ") + d;
    }
    run.options = n.options;
    run.tests_selected = join(n.tests);
    run.engine = to_string(n.engine);
    return run;
}

std::string stored_option(const std::string& options, const std::string& name)
{
    // Option and value alternate, one per line.
    std::istringstream lines(options);
    for (std::string option, value; std::getline(lines, option) && std::getline(lines, value);)
        if (option == name) return value;
    return "";
}

Configuration stored_configuration(
    const RunRecord& run, const std::function<std::string(const Configuration&)>& input_sha256)
{
    // The canonical name keeps only the file name of mtdc's parameter sets; the options keep
    // where they were.
    const std::string params = stored_option(run.options, "--params");
    Backend backend = Backend::automatic;
    try {
        backend = parse_backend(run.backend);
    } catch (const InputError& e) {
        refuse_damaged(run, "backend", run.backend, e.what());
    }
    if (backend == Backend::automatic)
        refuse_damaged(run, "backend", run.backend, "a run records the backend it chose");
    GeneratorName generator;
    try {
        generator = parse_generator(run.generator);
    } catch (const InputError& e) {
        refuse_damaged(run, "generator", run.generator, e.what());
    }
    if (family_traits(generator).loaded_sha256) {
        // A loaded file (a plugin's library) is checked before it is loaded: the run continues
        // only on the file it started with (its SHA-256 in full).
        const std::string now = sha256_of_file(generator.path);
        if (!run.input_sha256.empty() && now != run.input_sha256)
            refuse_other_stream(run, "the library '" + generator.path + "'", run.input_sha256, now);
    }
    if (run.generator == "mtdc") {
        Configuration sets;
        sets.generator = run.generator;
        sets.params = params;
        const std::string now = params_sha256(sets);
        if (now != run.params_sha256)
            refuse_other_stream(run, "parameter sets '" + params + "'", run.params_sha256, now);
    }
    Configuration config;
    try {
        // The name of a generator whose name holds a path (a named file stream's, a plugin's)
        // leaves out the path; the generator column holds it, after the row's prefix.
        const std::size_t prefix = std::string(traits(generator).prefix).size();
        config
            = parse_canonical_name(run.config, params, prefix ? run.generator.substr(prefix) : "");
    } catch (const InputError& e) {
        refuse_damaged(run, "config", run.config, e.what());
    }
    if (run.generator != to_string(config.generator))
        refuse_damaged(
            run, "generator", run.generator, "its config names " + to_string(config.generator));
    if (run.seed != recorded_seed(config))
        refuse_damaged(run, "seed", run.seed, "its config has seed " + recorded_seed(config));
    config.backend = backend;
    if (!hashed_file(config.generator).empty()) {
        const std::string now = input_sha256(config);
        if (!run.input_sha256.empty() && now != run.input_sha256)
            refuse_other_stream(run, "'" + config.generator.path + "'", run.input_sha256, now);
    }
    return config;
}

ResumePlan plan_resume(Store& store, const RunRecord& run, std::optional<RunMode> mode)
{
    ResumePlan plan;
    plan.battery = &stored_battery(run);
    try {
        if (!run.tests_selected.empty())
            plan.tests = parse_tests(run.tests_selected, *plan.battery);
    } catch (const InputError& e) {
        refuse_damaged(run, "tests_selected", run.tests_selected, e.what());
    }
    if (plan.tests.empty())
        for (const auto& t : plan.battery->tests)
            plan.tests.push_back(t.number);
    std::map<int, TestRecord> finished;
    for (const TestRecord& t : store.tests(run.run_id))
        finished[t.test_number] = t;
    check_finished_tests(run, *plan.battery, plan.tests, finished);
    for (int t : plan.tests)
        if (!finished.count(t)) plan.to_run.push_back(t);
    try {
        plan.engine = parse_engine(run.engine);
    } catch (const InputError&) {
        refuse_damaged(run, "engine", run.engine, "testu01, native or auto");
    }
    check_engine(plan.engine, *plan.battery, plan.to_run);
    plan.mode = mode.value_or(run.mode);
    if (plan.mode == RunMode::serial && run.mode == RunMode::serial) {
        // Continue the one stream where the last finished test ended; serial tests run in
        // order, so only a tail can be missing.
        for (const auto& [n, t] : finished)
            plan.serial_start = std::max(plan.serial_start, t.start_offset + t.numbers_used);
        for (int t : plan.to_run)
            for (const auto& [n, f] : finished)
                if (n > t)
                    throw InputError("run " + std::to_string(run.run_id) + " has test "
                        + std::to_string(n) + " but not test " + std::to_string(t)
                        + "; a serial run cannot be resumed out of order");
    }
    if (plan.mode != run.mode)
        throw InputError("run " + std::to_string(run.run_id) + " was " + to_text(run.mode)
            + "; resume it in the same mode");
    return plan;
}

Progress::Progress(const BatteryCatalogue& battery, const std::vector<int>& tests,
    std::ostream& out, bool terminal)
    : battery_(battery)
    , out_(out)
    , total_(tests.size())
    , terminal_(terminal)
    , start_(std::chrono::steady_clock::now())
{
    for (int t : tests)
        remaining_cost_ += battery.test(t).cost;
    total_cost_ = remaining_cost_;
}

void Progress::test_done(int test)
{
    ++done_;
    remaining_cost_ -= battery_.test(test).cost;
    const double elapsed
        = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double done_cost = total_cost_ - remaining_cost_;
    const double eta = done_cost > 0 ? elapsed * remaining_cost_ / done_cost : 0;
    std::ostringstream line;
    line << "rngvet: " << done_ << "/" << total_ << " tests done (last: " << test << " "
         << battery_.test(test).name << "), elapsed " << duration(elapsed) << ", ETA "
         << duration(eta);
    if (terminal_)
        out_ << "\r" << line.str() << "   " << std::flush;
    else
        out_ << line.str() << "\n";
}

Progress::~Progress()
{
    if (terminal_ && done_) out_ << "\n";
}

namespace {

// The file `path` is open as `fd` under that name still (not replaced since).
bool still_named(int fd, const std::string& path)
{
    struct stat held {
    }, named{};
    return ::fstat(fd, &held) == 0 && ::lstat(path.c_str(), &named) == 0
        && held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

// Removes the reserves of `db_path` that no run holds any more (their run was killed): files
// named STORE-reserve-XXXXXX of this user, of the reserve's size, that nobody has locked.
void remove_abandoned_reserves(const std::string& db_path)
{
    const auto slash = db_path.find_last_of('/');
    const std::string dir = slash == std::string::npos ? "." : db_path.substr(0, slash + 1);
    const std::string prefix
        = (slash == std::string::npos ? db_path : db_path.substr(slash + 1)) + "-reserve-";
    DIR* d = ::opendir(dir.c_str());
    if (!d) return;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name.size() != prefix.size() + 6 || name.compare(0, prefix.size(), prefix) != 0)
            continue;
        const std::string path = (slash == std::string::npos ? "" : dir) + name;
        const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0) continue;
        struct stat st { };
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid()
            && st.st_size == DiskReserve::bytes && ::flock(fd, LOCK_EX | LOCK_NB) == 0
            && still_named(fd, path))
            ::unlink(path.c_str());
        ::close(fd);
    }
    ::closedir(d);
}

} // namespace

DiskReserve::DiskReserve(const std::string& db_path)
{
    remove_abandoned_reserves(db_path);
    std::string name = db_path + "-reserve-XXXXXX";
    fd_ = ::mkostemp(name.data(), O_CLOEXEC);
    if (fd_ < 0) return;
    path_ = name;
    // Best effort: without the space the run goes on, as it would have without it.
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0 || ::posix_fallocate(fd_, 0, bytes) != 0) release();
}

void DiskReserve::release()
{
    if (fd_ < 0) return;
    if (still_named(fd_, path_)) ::unlink(path_.c_str());
    ::close(fd_);
    fd_ = -1;
}

namespace {

// Far beyond any store's data and SQLite's lock bytes (at 1 GiB), below the largest offset.
constexpr off_t run_lock_base = off_t{ 1 } << 50;

// The descriptor of this process's RunLock, closed in every child it forks (test workers,
// probes): a child that outlived a killed parent would otherwise keep the run claimed. Closing
// it in the child leaves the parent's lock (it is the open file description's, held while the
// parent's descriptor is open) and drops no POSIX lock of the parent's.
int held_run_lock = -1;

void close_run_lock_in_child()
{
    if (held_run_lock >= 0) ::close(held_run_lock);
    held_run_lock = -1;
}

struct flock run_lock_range(std::int64_t run_id)
{
    struct flock range { };
    range.l_type = F_WRLCK;
    range.l_whence = SEEK_SET;
    range.l_start = run_lock_base + static_cast<off_t>(run_id);
    range.l_len = 1;
    return range;
}

} // namespace

RunLock::RunLock(const std::string& db_path, std::int64_t run_id)
{
    fd_ = ::open(db_path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
    if (fd_ < 0)
        throw std::runtime_error("cannot open '" + db_path + "' to claim run "
            + std::to_string(run_id) + ": " + std::strerror(errno));
    struct flock range = run_lock_range(run_id);
    if (::fcntl(fd_, F_OFD_SETLK, &range) != 0) {
        const int err = errno;
        ::close(fd_);
        fd_ = -1;
        if (err == EAGAIN || err == EACCES)
            throw InputError("run " + std::to_string(run_id) + " of " + db_path
                + " is being run by another process; wait for it to end");
        throw std::runtime_error("cannot claim run " + std::to_string(run_id) + " of '" + db_path
            + "': " + std::strerror(err));
    }
    static const bool registered = ::pthread_atfork(nullptr, nullptr, close_run_lock_in_child) == 0;
    (void)registered;
    held_run_lock = fd_;
}

RunLock::~RunLock()
{
    if (held_run_lock == fd_) held_run_lock = -1;
    if (fd_ >= 0) ::close(fd_);
}

std::int64_t open_run(Store& store, const RunRecord& run, std::int64_t run_id)
{
    if (run_id == 0) return store.create_run(run);
    store.finish_run(run_id, RunStatus::running, "");
    return run_id;
}

void mark_failed_if_running(Store& store, std::int64_t run_id) noexcept
{
    try {
        const auto now = store.run(run_id);
        if (now && now->status == RunStatus::running)
            store.finish_run(run_id, RunStatus::failed, utc_now());
    } catch (...) {
    }
}

namespace {

// What changed a file: input since its hash was recorded when the run started; "" when it is
// the same file (or the run reads no file). Its tests may have read the changed data.
std::string changed_input(const RunRecord& run, const Configuration& config)
{
    if (hashed_file(config.generator).empty() || run.input_sha256.empty()) return "";
    const std::string& path = config.generator.path;
    std::string now;
    try {
        now = sha256_of_file(path);
    } catch (const InputError& e) {
        return "'" + path + "' cannot be hashed again at the end of the run (" + e.what() + ")";
    }
    if (now == run.input_sha256) return "";
    return "'" + path + "' changed during the run (SHA-256 " + run.input_sha256
        + " when it started, " + now + " at the end)";
}

} // namespace

StoredRunResult run_stored_tests(Store& store, std::int64_t run_id, const RunRecord& run,
    const Configuration& config, const BatteryCatalogue& battery, const std::vector<int>& to_run,
    RunnerOptions runner, Progress& progress)
{
    DiskReserve reserve(store.path());
    // A serial run that is stopped, or whose stream fails, ends inside TestU01 with _Exit, which
    // runs no destructor: the reserve is given back, the run marked and the store closed here,
    // so the store is one whole file, as on every other exit.
    const auto end_with = [&](RunStatus status) {
        return [&store, &reserve, run_id, status] {
            reserve.release();
            try {
                store.finish_run(run_id, status, utc_now());
            } catch (...) { // nothing may cross TestU01; the run stays as it was stored
            }
            store.close();
        };
    };
    runner.on_stop = end_with(RunStatus::interrupted);
    runner.on_failure = end_with(RunStatus::failed);
    // A sharded run's workers create their CUDA context as soon as they are forked (device 0,
    // make_backend_stream's default).
    if (config.backend == Backend::cuda) runner.warm_up = [] { warm_up_cuda(0); };
    StoredRunResult result;
    const auto at = [&](std::uint64_t offset) {
        Configuration c = config;
        c.skip += offset;
        return make_backend_stream(c);
    };
    const RunnerResult ran = run_tests(at, run.config + " backend=" + to_string(config.backend),
        battery, to_run, runner, [&](const TestOutcome& t) {
            for (const Statistic& s : t.statistics) {
                const PValueVerdict v = verdict(s.pvalue);
                result.suspect += v == PValueVerdict::suspect;
                result.failed += v == PValueVerdict::fail;
            }
            result.statistics += t.statistics.size();
            store.insert_test(run_id, t, t.statistics);
            store.set_testu01_version(run_id, t.testu01_version);
            progress.test_done(t.test_number);
        });
    result.unfinished = ran.failed;
    result.interrupted = ran.interrupted;
    result.status = ran.interrupted ? RunStatus::interrupted
        : ran.failed.empty()        ? RunStatus::complete
                                    : RunStatus::failed;
    result.input_changed = changed_input(run, config);
    if (!result.input_changed.empty()) result.status = RunStatus::failed;
    store.finish_run(run_id, result.status, utc_now());
    return result;
}

GateResult gate_run(Store& store, std::int64_t run_id, const RunRecord& run, FailOn fail_on)
{
    std::vector<RunRecord> compared;
    const std::string family = configuration_family(run.config);
    for (const RunRecord& r : store.runs())
        if (r.run_id == run_id
            || (r.battery == run.battery && configuration_family(r.config) == family))
            compared.push_back(r);
    return check_fail_on(store, compared, fail_on);
}

} // namespace rngvet
