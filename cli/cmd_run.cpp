#include "batteries/runner.hpp"
#include "commands.hpp"
#include "generators/error.hpp"
#include "guards.hpp"
#include "kernels/backend.hpp"
#include "options.hpp"
#include "reports/compare.hpp"
#include "reports/gate.hpp"
#include "reports/store.hpp"
#include "rngvet/version.hpp"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <iostream>
#include <map>
#include <sstream>
#include <unistd.h>

namespace rngvet::cli {
namespace {

volatile std::sig_atomic_t stop_requested = 0;
void on_signal(int)
{
    stop_requested = 1;
}

std::vector<int> parse_tests(const std::string& text, const BatteryCatalogue& battery)
{
    if (text.empty()) throw InputError("--tests needs test numbers, e.g. --tests 1,5,10");
    std::vector<int> tests;
    for (std::int64_t n : parse_seed(text)) {
        if (n < 1 || n > static_cast<std::int64_t>(battery.tests.size()))
            throw InputError("--tests: " + std::string(battery.name) + " has tests 1.."
                + std::to_string(battery.tests.size()) + ", got " + std::to_string(n));
        if (std::find(tests.begin(), tests.end(), n) != tests.end())
            throw InputError("--tests names test " + std::to_string(n) + " twice");
        tests.push_back(static_cast<int>(n));
    }
    return tests;
}

// Disk space held beside the store while a run writes to it: when the disk fills up, the run
// gives the space back and so can still record that it failed, instead of staying 'running'.
class DiskReserve {
public:
    explicit DiskReserve(const std::string& db_path)
        : path_(db_path + "-reserve")
    {
        const int fd = ::open(path_.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
        if (fd < 0) return;
        // Best effort: without the space the run goes on, as it would have without it.
        held_ = ::posix_fallocate(fd, 0, 256 * 1024) == 0;
        ::close(fd);
        if (!held_) ::unlink(path_.c_str());
    }
    ~DiskReserve() { release(); }
    DiskReserve(const DiskReserve&) = delete;
    DiskReserve& operator=(const DiskReserve&) = delete;
    void release()
    {
        if (held_) ::unlink(path_.c_str());
        held_ = false;
    }

private:
    std::string path_;
    bool held_ = false;
};

// Resume continues a run only on the stream it started: the parameter sets and the input file
// must hash as they did then.
void check_same_stream(const RunRecord& run, const Configuration& config)
{
    const auto refuse
        = [&](const std::string& what, const std::string& stored, const std::string& now) {
              throw InputError("run " + std::to_string(run.run_id) + " was started on " + what
                  + " of SHA-256 " + stored + "; it now has SHA-256 " + now
                  + "; resuming would mix two streams in one run");
          };
    const std::string params_now = params_sha256(config);
    if (params_now != run.params_sha256)
        refuse("parameter sets '" + config.params + "'", run.params_sha256, params_now);
    if (config.generator.kind == GeneratorKind::file) {
        const std::string input_now = check_external_input(config);
        if (!run.input_sha256.empty() && input_now != run.input_sha256)
            refuse("'" + config.generator.path + "'", run.input_sha256, input_now);
    }
}

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

// Tests done / total, elapsed, and an ETA from the catalogue's cost of what is left.
class Progress {
public:
    Progress(const BatteryCatalogue& battery, const std::vector<int>& tests, int jobs)
        : battery_(battery)
        , total_(tests.size())
        , jobs_(jobs)
        , terminal_(isatty(STDERR_FILENO) != 0)
        , start_(std::chrono::steady_clock::now())
    {
        for (int t : tests)
            remaining_cost_ += battery.test(t).cost;
        total_cost_ = remaining_cost_;
    }
    void test_done(int test)
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
            std::cerr << "\r" << line.str() << "   " << std::flush;
        else
            std::cerr << line.str() << "\n";
    }
    ~Progress()
    {
        if (terminal_ && done_) std::cerr << "\n";
    }

private:
    const BatteryCatalogue& battery_;
    std::size_t total_, done_ = 0;
    int jobs_;
    bool terminal_;
    double remaining_cost_ = 0, total_cost_ = 0;
    std::chrono::steady_clock::time_point start_;
};

// The battery named by --battery, with --nb, --alphabit-r and --alphabit-s applied to Rabbit
// and Alphabit and --mcpi-points, --mcpi-reps to mcpi. Refuses those options for other
// batteries, and beside a --battery that already names its parameters ("rabbit(nb=1048576)",
// as a campaign passes it).
const BatteryCatalogue& battery_from_options(const std::string& battery,
    const po::variables_map& vm, const std::string& nb, int r, int s,
    const std::string& mcpi_points, int mcpi_reps)
{
    const bool nb_given = vm.count("nb") > 0;
    const bool rs_given = vm.count("alphabit-r") > 0 || vm.count("alphabit-s") > 0;
    const bool mcpi_given = vm.count("mcpi-points") > 0 || vm.count("mcpi-reps") > 0;
    if (!nb_given && !rs_given && !mcpi_given) return catalogue_for(battery);
    const std::string family = battery_family(battery);
    if (mcpi_given && family != "mcpi")
        throw InputError(
            "--mcpi-points and --mcpi-reps apply to the mcpi battery, not to " + battery);
    if ((nb_given || rs_given) && family != "rabbit" && family != "alphabit")
        throw InputError("--nb, --alphabit-r and --alphabit-s apply to the rabbit and alphabit "
                         "batteries, not to "
            + battery);
    if (family == "rabbit" && rs_given)
        throw InputError("--alphabit-r and --alphabit-s apply to alphabit, not to rabbit");
    if (battery != family)
        throw InputError("--battery " + battery
            + " names its parameters already; give them there or as options, not both");
    if (family == "mcpi")
        return mcpi_catalogue(vm.count("mcpi-points") ? parse_count(mcpi_points, "--mcpi-points")
                                                      : mcpi_default_points,
            vm.count("mcpi-reps") ? mcpi_reps : mcpi_default_reps);
    const double bits = nb_given ? parse_bit_count(nb, "--nb") : bit_battery_default_nb;
    return family == "rabbit" ? rabbit_catalogue(bits) : alphabit_catalogue(bits, r, s);
}

int run_and_store(Store& store, std::int64_t run_id, const RunRecord& run,
    const Configuration& config, const BatteryCatalogue& battery, const std::vector<int>& to_run,
    const std::string& mode, int jobs, const std::string& prefetch, std::uint64_t serial_start,
    const std::string& log_path, const std::string& db_path, FailOn fail_on);

} // namespace

int cmd_run(int argc, char** argv)
{
    ConfigurationOptions config_options;
    std::string battery_name, db_path, log_path, tests_text, mode, nb_text, mcpi_points;
    int jobs = 1;
    int mcpi_reps = mcpi_default_reps;
    int alphabit_r = alphabit_default_r, alphabit_s = alphabit_default_s;
    std::int64_t resume = 0;
    std::string prefetch = "auto";
    std::string fail_on_text = "never";
    bool allow_unverified = false;
    po::options_description options("rngvet run options");
    config_options.add_to(options, false);
    options.add_options()("battery,b", po::value(&battery_name)->default_value("smallcrush"),
        "battery: smallcrush, crush, bigcrush, rabbit, alphabit (TestU01), mcpi (Monte Carlo pi, "
        "rngvet's own); also with its parameters, e.g. rabbit(nb=2^20), mcpi(points=10^6,reps=4)")(
        "nb", po::value(&nb_text),
        "rabbit, alphabit: bits each test reads, digits or 2^K; a multiple of 32 from 512 to "
        "2^40 (default 2^25)")("alphabit-r", po::value(&alphabit_r),
        "alphabit: most significant bits dropped from each number (default 0)")("alphabit-s",
        po::value(&alphabit_s), "alphabit: bits used from each number, r + s <= 32 (default 32)")(
        "mcpi-points", po::value(&mcpi_points),
        "mcpi: points per replication, digits, 2^K or 10^K, at least 100 (default 4000000)")(
        "mcpi-reps", po::value(&mcpi_reps), "mcpi: replications per test, 1 to 100 (default 10)")(
        "tests", po::value(&tests_text), "run only these tests of the battery, e.g. 1,5,10")("mode",
        po::value(&mode),
        "serial (one stream, exactly as TestU01 runs the battery) or sharded (one process per "
        "test, each on its own jumped-to segment); default: sharded when --jobs > 1")(
        "jobs,j", po::value(&jobs)->default_value(1), "worker processes (sharded mode)")("prefetch",
        po::value(&prefetch)->default_value("auto"),
        "fill the next block on a producer thread: on, off, auto (on for device backends)")(
        "resume", po::value(&resume), "run only the tests that run RUN of --db is missing")(
        "db", po::value(&db_path)->default_value("rngvet.sqlite"), "SQLite result store")(
        "log", po::value(&log_path), "write TestU01's own output to FILE.testN")("fail-on",
        po::value(&fail_on_text)->default_value("never"),
        fail_on_help("the run's stored", "the stored seeds of this configuration").c_str())(
        "allow-unverified-params", po::bool_switch(&allow_unverified),
        "mtdc: use parameter sets that fail rngvet dc verify's checks (the run records it)");
    po::variables_map vm;
    if (!parse(argc, argv, options,
            "usage: rngvet run --generator G [--seed S] [configuration options] "
            "[--battery B] [--jobs N] [--db FILE]\n"
            "       rngvet run --resume RUN [--jobs N] [--db FILE]",
            vm))
        return 0;

    // Everything that can be refused is refused before anything is stored or run.
    if (jobs < 1) throw InputError("--jobs must be at least 1");
    const FailOn fail_on = parse_fail_on(fail_on_text);
    check_log_path(log_path);
    if (prefetch != "auto" && prefetch != "on" && prefetch != "off")
        throw InputError("--prefetch must be on, off or auto");
    RunRecord run;
    std::vector<int> tests;
    std::vector<int> to_run;
    std::int64_t run_id = 0;
    std::uint64_t serial_start = 0;
    Configuration config;
    std::vector<std::string> devices; // of the backend, for the run record
    const BatteryCatalogue* battery = nullptr;
    std::unique_ptr<Store> store;

    if (vm.count("resume")) {
        if (!config_options.generator.empty())
            throw InputError(
                "--resume takes the configuration from the stored run; give no --generator");
        if (vm.count("nb") || vm.count("alphabit-r") || vm.count("alphabit-s") || vm.count("tests")
            || vm.count("mcpi-points") || vm.count("mcpi-reps") || !vm["battery"].defaulted()
            || allow_unverified)
            throw InputError("--resume takes the battery, its tests and the parameter check "
                             "from the stored run; give no --battery, --tests, --nb, "
                             "--alphabit-r, --alphabit-s, --mcpi-points, --mcpi-reps or "
                             "--allow-unverified-params");
        store = std::make_unique<Store>(db_path);
        auto stored = store->run(resume);
        if (!stored) throw InputError("no run " + std::to_string(resume) + " in " + db_path);
        run = *stored;
        run_id = resume;
        std::vector<std::string> args{ "rngvet" };
        std::istringstream lines(run.options);
        for (std::string l; std::getline(lines, l);)
            args.push_back(l);
        std::vector<char*> argp;
        for (auto& a : args)
            argp.push_back(a.data());
        ConfigurationOptions again;
        po::options_description o;
        again.add_to(o);
        po::variables_map v2;
        parse(static_cast<int>(argp.size()), argp.data(), o, "", v2);
        config = again.configuration();
        check_same_stream(run, config);
        if (run.params_check != "unverified (allowed)") check_param_sets(config, false);
        battery = &catalogue_for(run.battery);
        tests = run.tests_selected.empty() ? std::vector<int>{}
                                           : parse_tests(run.tests_selected, *battery);
        if (tests.empty())
            for (const auto& t : battery->tests)
                tests.push_back(t.number);
        std::map<int, TestRecord> finished;
        for (const TestRecord& t : store->tests(run_id))
            finished[t.test_number] = t;
        for (int t : tests)
            if (!finished.count(t)) to_run.push_back(t);
        if (!vm.count("mode")) mode = run.mode;
        if (mode == "serial" && run.mode == "serial") {
            // Continue the one stream where the last finished test ended; serial tests run in
            // order, so only a tail can be missing.
            for (const auto& [n, t] : finished)
                serial_start = std::max(serial_start, t.start_offset + t.numbers_used);
            for (int t : to_run)
                for (const auto& [n, f] : finished)
                    if (n > t)
                        throw InputError("run " + std::to_string(run_id) + " has test "
                            + std::to_string(n) + " but not test " + std::to_string(t)
                            + "; a serial run cannot be resumed out of order");
        }
        if (mode != run.mode)
            throw InputError("run " + std::to_string(run_id) + " was " + run.mode
                + "; resume it in the same mode");
        if (to_run.empty()) {
            std::cout << "run " << run_id << " has every test already\n";
            store->finish_run(
                run_id, "complete", run.finished_at.empty() ? utc_now() : run.finished_at);
            return 0;
        }
        // The stored configuration must still build on its backend here.
        (void)check_backend_stream(config);
    } else {
        if (config_options.generator.empty())
            throw InputError("the option '--generator' is required but missing (see --help)");
        config = config_options.configuration();
        battery = &battery_from_options(
            battery_name, vm, nb_text, alphabit_r, alphabit_s, mcpi_points, mcpi_reps);
        if (config.backend == Backend::automatic) {
            // Measured once, here (in a child process); the run records the backend chosen,
            // and its command line the request.
            std::string report;
            config.backend = resolve_auto_backend(config, BackendOptions{}, &report, jobs);
            config_options.backend = to_string(config.backend);
            std::istringstream lines(report);
            for (std::string line; std::getline(lines, line);)
                std::cerr << "rngvet: " << line << "\n";
        }
        // The configuration must build on its backend before the run is stored.
        devices = check_backend_stream(config);
        tests = vm.count("tests") ? parse_tests(tests_text, *battery) : std::vector<int>{};
        if (mode.empty()) mode = jobs > 1 ? "sharded" : "serial";
        if (mode != "serial" && mode != "sharded")
            throw InputError("--mode must be serial or sharded, got '" + mode + "'");
        if (mode == "sharded" && family(config.generator) == GeneratorFamily::external)
            throw InputError(
                "sharded mode jumps in the stream; an external stream can only run serially");
        run.input_sha256 = check_external_input(config);
        run.params_check = check_param_sets(config, allow_unverified);
        store = std::make_unique<Store>(db_path);
        to_run = tests;
        if (to_run.empty())
            for (const auto& t : battery->tests)
                to_run.push_back(t.number);
        run.generator = to_string(config.generator);
        run.config = canonical_name(config);
        run.seed = seed_string(config.seed);
        run.backend = to_string(config.backend);
        run.battery = battery->name;
        run.mode = mode;
        run.status = "running";
        run.resolution_bits = resolution_bits(config);
        run.params_sha256 = params_sha256(config);
        run.testu01_version = "";
        run.rngvet_version = std::string(version) + " (" + git_commit + ")";
        run.host = host_name();
        run.command_line = recorded_command_line();
        run.started_at = utc_now();
        run.jobs = jobs;
        run.cpu_model = first_line_of("/proc/cpuinfo", "model name");
        if (config.backend == Backend::cuda || config.backend == Backend::opencl) {
            for (const std::string& d : devices)
                run.gpu_model += (run.gpu_model.empty() ? "" : "; ") + d;
        }
        run.options = config_options.arguments();
        run.tests_selected = join(tests);
    }
    if (mode == "serial" && jobs > 1)
        throw InputError("--jobs " + std::to_string(jobs)
            + " runs tests in parallel, which only --mode sharded does");
    if (mode == "sharded" && jobs == 1 && !vm.count("jobs")) jobs = run.jobs;

    if (run_id == 0)
        run_id = store->create_run(run);
    else
        store->finish_run(run_id, "running", "");
    DiskReserve reserve(db_path);
    try {
        return run_and_store(*store, run_id, run, config, *battery, to_run, mode, jobs, prefetch,
            serial_start, log_path, db_path, fail_on);
    } catch (...) {
        // Whatever ended the run here (a full disk, a failing backend), the run is not left
        // 'running'; the tests it stored stay, and --resume runs the rest.
        reserve.release();
        try {
            const auto now = store->run(run_id);
            if (now && now->status == "running") store->finish_run(run_id, "failed", utc_now());
        } catch (...) {
        }
        throw;
    }
}

namespace {

// Runs the tests of a stored run and stores each as it finishes; the exit status.
int run_and_store(Store& store_ref, std::int64_t run_id, const RunRecord& run,
    const Configuration& config, const BatteryCatalogue& battery_ref,
    const std::vector<int>& to_run, const std::string& mode, int jobs, const std::string& prefetch,
    std::uint64_t serial_start, const std::string& log_path, const std::string& db_path,
    FailOn fail_on)
{
    Store* store = &store_ref;
    const BatteryCatalogue* battery = &battery_ref;

    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    RunnerOptions ro;
    ro.mode = mode;
    ro.jobs = jobs;
    ro.prefetch = prefetch == "on" || (prefetch == "auto" && config.backend != Backend::cpu);
    ro.serial_start = serial_start;
    ro.log_path = log_path;
    ro.stop_flag = &stop_requested;
    ro.on_stop = [&] { store->finish_run(run_id, "interrupted", utc_now()); };
    ro.on_failure = [&] { store->finish_run(run_id, "failed", utc_now()); };

    std::cerr << "rngvet: run " << run_id << ": " << battery->name << " (" << to_run.size()
              << " tests, " << mode
              << (mode == "sharded" ? ", " + std::to_string(jobs) + " jobs" : "") << ") on "
              << run.config << "\n";
    Progress progress(*battery, to_run, jobs);
    int suspect = 0, failed = 0;
    std::size_t stats = 0;
    const auto at = [&](std::uint64_t offset) {
        Configuration c = config;
        c.skip += offset;
        return make_backend_stream(c);
    };
    const auto result = run_tests(at, run.config + " backend=" + to_string(config.backend),
        *battery, to_run, ro, [&](const TestOutcome& t) {
            for (const Statistic& s : t.statistics) {
                const std::string v = verdict(s.pvalue);
                suspect += v == "suspect";
                failed += v == "fail";
            }
            stats += t.statistics.size();
            store->insert_test(run_id, t, t.statistics);
            store->set_testu01_version(run_id, t.testu01_version);
            progress.test_done(t.test_number);
        });

    const std::string status = result.interrupted ? "interrupted"
        : result.failed.empty()                   ? "complete"
                                                  : "failed";
    store->finish_run(run_id, status, utc_now());
    std::cout << "run " << run_id << " " << status << " in " << db_path << ": " << stats
              << " statistics stored now, " << suspect << " suspect, " << failed << " failed\n";
    if (const auto stored = store->run(run_id); stored && status == "complete")
        std::cout << battery_summary(*stored, store->statistics(run_id));
    if (result.interrupted) return 130;
    if (!result.failed.empty()) {
        std::cerr << "rngvet: error: tests " << join(result.failed)
                  << " did not finish; rngvet run --resume " << run_id << " --db " << db_path
                  << " runs them again\n";
        return 1;
    }
    // --fail-on: this run and the other stored seeds of its configuration and battery.
    std::vector<RunRecord> compared;
    const std::string family = configuration_family(run.config);
    for (const RunRecord& r : store->runs())
        if (r.run_id == run_id
            || (r.battery == run.battery && configuration_family(r.config) == family))
            compared.push_back(r);
    const GateResult gate = check_fail_on(*store, compared, fail_on);
    if (gate.reached) {
        std::cerr << "rngvet: --fail-on " << fail_on_name(fail_on) << ": " << gate.reason << "\n";
        return 1;
    }
    return 0;
}

} // namespace

} // namespace rngvet::cli
