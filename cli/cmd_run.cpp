#include "batteries/battery_choice.hpp"
#include "batteries/registry.hpp"
#include "commands.hpp"
#include "generators/error.hpp"
#include "guards.hpp"
#include "kernels/auto_backend.hpp"
#include "kernels/backend.hpp"
#include "options.hpp"
#include "reports/gate.hpp"
#include "reports/store.hpp"
#include "runs/stored_run.hpp"

#include <csignal>
#include <iostream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace rngvet::cli {
namespace {

volatile std::sig_atomic_t stop_requested = 0;
void on_signal(int)
{
    stop_requested = 1;
}

// The battery named by --battery, with the options that set its parameters (the registry's,
// e.g. --nb) applied. Refuses an option of another battery, and one beside a --battery that
// already names its parameters ("rabbit(nb=1048576)", as a campaign passes it).
const BatteryCatalogue& battery_from_options(const std::string& battery,
    const po::variables_map& vm, const std::map<std::string, std::string>& option_text)
{
    std::vector<std::string> given_options;
    for (const auto& o : option_text)
        if (vm.count(o.first)) given_options.push_back(o.first);
    if (given_options.empty()) return catalogue_for(battery);
    const BatteryFamily& family = battery_family_row(battery_family(battery));
    BatteryParameters given;
    for (const std::string& option : given_options) {
        const BatteryOption* own = nullptr;
        for (const BatteryOption& o : family.options)
            if (option == o.option) own = &o;
        if (own == nullptr) {
            std::string takers;
            for (const BatteryFamily& f : battery_registry())
                for (const BatteryOption& o : f.options)
                    if (option == o.option)
                        takers += (takers.empty() ? "" : " and ") + std::string(f.name);
            throw InputError("--" + option + " applies to " + takers + ", not to " + battery);
        }
        given[own->key] = { option_text.at(option), "--" + option };
    }
    if (battery_family(battery).size() != battery.size())
        throw InputError("--battery " + battery
            + " names its parameters already; give them there or as options, not both");
    return family.catalogue(given);
}

int run_and_store(Store& store, std::int64_t run_id, const RunRecord& run,
    const Configuration& config, const BatteryCatalogue& battery, const std::vector<int>& to_run,
    RunMode mode, int jobs, Prefetch prefetch, std::uint64_t serial_start,
    const std::string& log_path, const std::string& db_path, FailOn fail_on);

// Sharded mode starts each test 2^40 numbers further on: a stream that cannot jump is refused.
void refuse_sharded_without_jumps(const Configuration& config)
{
    if (jumps_ahead(config)) return;
    throw InputError("sharded mode (--jobs > 1, --mode sharded) jumps in the stream, and "
        + family_traits(config.generator).why_no_jumps(config)
        + "; it can only run serially (--jobs 1)");
}

} // namespace

int cmd_run(int argc, char** argv)
{
    ConfigurationOptions config_options;
    BatteryChoiceText choice; // --battery, --tests, --engine
    std::string db_path, log_path, mode_text;
    std::map<std::string, std::string> battery_options; // --nb and the like: option -> text
    int jobs = 1;
    std::int64_t resume = 0;
    std::string prefetch_text = term_text(prefetch_terms, Prefetch::automatic);
    std::string fail_on_text = "never";
    bool allow_unverified = false;
    int seed_count = 0;
    po::options_description options("rngvet run options");
    config_options.add_to(options, false);
    // The options campaign files share (battery_choice.hpp), the battery's parameter options
    // (--nb and the like) after --battery.
    const BatteryChoiceText defaults;
    for (const BatteryChoiceOption& row : battery_choice_options()) {
        const std::string spec
            = std::string(row.name) + (row.short_name ? std::string(",") + row.short_name : "");
        auto* value = po::value(&(choice.*row.field));
        if (!(defaults.*row.field).empty()) value->default_value(defaults.*row.field);
        options.add_options()(spec.c_str(), value, row.help().c_str());
        if (row.field != &BatteryChoiceText::battery) continue;
        for (const BatteryFamily& family : battery_registry())
            for (const BatteryOption& o : family.options)
                if (battery_options.emplace(o.option, "").second)
                    options.add_options()(o.option, po::value(&battery_options[o.option]), o.help);
    }
    options.add_options()("mode", po::value(&mode_text),
        (word_help(mode_words()) + "; default: sharded when --jobs > 1").c_str())(
        "jobs,j", po::value(&jobs)->default_value(1), "worker processes (sharded mode)")("prefetch",
        po::value(&prefetch_text)->default_value(prefetch_text),
        ("fill the next block on a producer thread: " + word_help(prefetch_words())).c_str())(
        "resume", po::value(&resume), "run only the tests that run RUN of --db is missing")(
        "db", po::value(&db_path)->default_value("rngvet.sqlite"), "SQLite result store")(
        "log", po::value(&log_path), "write TestU01's own output to FILE.testN")("fail-on",
        po::value(&fail_on_text)->default_value("never"),
        fail_on_help("the run's stored", "the stored seeds of this configuration").c_str())(
        "allow-unverified-params", po::bool_switch(&allow_unverified),
        "mtdc: use parameter sets that fail rngvet dc verify's checks (the run records it)")(
        "seeds", po::value(&seed_count),
        "run the battery on N seeds one after the other (1..100000), each a stored run: --seed "
        "and the next N-1 of docs/findings.md's series (RANMAR: IJ + 1553 k mod 31329, KL + "
        "2671 k mod 30082; one number: S + k); without --seed from 1802,9373 (RANMAR) or 777. "
        "The exit status is the worst run's");
    po::variables_map vm;
    if (!parse(argc, argv, options,
            "usage: rngvet run --generator G [--seed S] [--seeds N] [configuration options] "
            "[--battery B] [--jobs N] [--db FILE]\n"
            "       rngvet run --resume RUN [--jobs N] [--db FILE]",
            vm))
        return 0;

    // Everything that can be refused is refused before anything is stored or run.
    if (jobs < 1) throw InputError("--jobs must be at least 1");
    const FailOn fail_on = parse_fail_on(fail_on_text);
    check_log_path(log_path);
    const Prefetch prefetch = parse_term(prefetch_terms, prefetch_text, "prefetch");
    // --mode as asked for (none: the default of a new run, the stored run's own on --resume).
    std::optional<RunMode> asked_mode;
    if (vm.count("mode")) asked_mode = parse_term(run_mode_terms, mode_text, "mode");
    RunMode mode = RunMode::serial;
    Engine engine = vm.count("engine") ? parse_engine(choice.engine) : Engine::testu01;
    // --seeds N: the seeds of the runs, each resolved (and so checked) as a configuration
    // before any is stored; the runs take these configurations.
    std::vector<std::string> series;
    std::vector<Configuration> series_configs;
    if (vm.count("seeds")) {
        if (seed_count < 1 || seed_count > 100000)
            throw InputError("--seeds must be in 1..100000, got " + std::to_string(seed_count));
        if (vm.count("resume"))
            throw InputError("--seeds starts new runs and --resume continues a stored one; give "
                             "one or the other");
        if (config_options.generator.empty())
            throw InputError("the option '--generator' is required but missing (see --help)");
        const GeneratorFamily generator_family = family(parse_generator(config_options.generator));
        if (family_traits(generator_family).reads_words)
            throw InputError("--seeds counts up seeds, and the external stream '"
                + config_options.generator + "' has none; run each stream on its own");
        try {
            const std::vector<std::int64_t> first = config_options.seed.empty()
                ? default_first_seed(generator_family)
                : config_options.configuration().seed;
            for (int k = 0; k < seed_count; ++k) {
                ConfigurationOptions one = config_options;
                one.seed = seed_string(series_seed(generator_family, first, k));
                series_configs.push_back(one.configuration());
                series.push_back(one.seed);
            }
        } catch (const InputError& error) {
            throw InputError("--seeds " + std::to_string(seed_count) + ": " + error.what());
        }
    }
    RunRecord run;
    std::vector<int> tests;
    std::vector<int> to_run;
    std::int64_t run_id = 0;
    std::uint64_t serial_start = 0;
    Configuration config;
    std::vector<std::string> devices; // of the backend, for the run record
    const BatteryCatalogue* battery = nullptr;
    // The claim on the run outlives the store's connection (see RunLock).
    std::unique_ptr<RunLock> claim;
    std::unique_ptr<Store> store;
    // Checked before a store is opened for writing, in both branches.
    const auto check_mode_and_jobs = [&](RunMode m) {
        if (m == RunMode::serial && jobs > 1)
            throw InputError("--jobs " + std::to_string(jobs)
                + " runs tests in parallel, which only --mode sharded does");
        if (m == RunMode::sharded) (void)shard_threads(); // RNGVET_SHARD_THREADS, refused here
    };

    // A new run of config_options's configuration (`resolved`: that configuration, already
    // resolved), stored and ready to run.
    const auto start_new_run = [&](const Configuration* resolved) {
        if (config_options.generator.empty())
            throw InputError("the option '--generator' is required but missing (see --help)");
        config = resolved ? *resolved : config_options.configuration();
        // --backend auto is measured for the first run of --seeds N; the others take its
        // choice (config_options.backend holds it).
        if (resolved && config.backend == Backend::automatic)
            config.backend = parse_backend(config_options.backend);
        battery = &battery_from_options(choice.battery, vm, battery_options);
        // ising's own lanes (own=1): replica r reads instance r alone, so the lanes are the
        // configuration's instances, interleaved.
        if (battery->own
            && (config.instances != battery->lanes || config.layout.kind != LayoutKind::interleave))
            throw InputError("--battery " + battery->name
                + ": own=1 gives replica r instance r alone; run it with --instances "
                + std::to_string(battery->lanes) + " --layout interleave (the lanes), not "
                + std::to_string(config.instances) + " instance"
                + (config.instances == 1 ? "" : "s") + " laid out " + to_string(config.layout));
        if (!vm.count("engine")) engine = default_engine(*battery);
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
        tests = vm.count("tests") ? parse_tests(choice.tests, *battery) : std::vector<int>{};
        check_engine(engine, *battery, tests);
        mode = asked_mode.value_or(jobs > 1 ? RunMode::sharded : RunMode::serial);
        if (mode == RunMode::sharded) refuse_sharded_without_jumps(config);
        check_mode_and_jobs(mode);
        NewRun start;
        start.input_sha256 = check_external_input(config);
        start.params_check = check_param_sets(config, allow_unverified);
        store = std::make_unique<Store>(db_path);
        to_run = tests;
        if (to_run.empty())
            for (const auto& t : battery->tests)
                to_run.push_back(t.number);
        start.config = config;
        start.battery = battery;
        start.tests = tests;
        start.mode = mode;
        start.jobs = jobs;
        start.engine = engine;
        start.devices = devices;
        // RANMAR's one-number seed IJKL is stored as the IJ,KL it stands for.
        if (family(config.generator) == families::ranmar
            && config_options.seed.find(',') == std::string::npos)
            config_options.seed = seed_string(config.seed);
        start.options = config_options.arguments();
        start.command_line = recorded_command_line();
        run = new_run_record(start);
    };
    // Runs the run (new or resumed) and stores its results; the exit status.
    const auto run_stored = [&]() -> int {
        if (mode == RunMode::sharded && jobs == 1 && !vm.count("jobs")) jobs = run.jobs;

        const bool new_run = run_id == 0;
        run_id = open_run(*store, run, run_id);
        if (new_run) claim = std::make_unique<RunLock>(db_path, run_id);
        try {
            return run_and_store(*store, run_id, run, config, *battery, to_run, mode, jobs,
                prefetch, serial_start, log_path, db_path, fail_on);
        } catch (...) {
            // run_stored_tests gave its disk reserve back as the exception left it.
            mark_failed_if_running(*store, run_id);
            throw;
        }
    };

    if (vm.count("resume")) {
        if (!config_options.generator.empty())
            throw InputError(
                "--resume takes the configuration from the stored run; give no --generator");
        std::string parameter_options;
        bool parameter_given = false;
        for (const auto& o : battery_options) {
            parameter_options += ", --" + o.first;
            parameter_given = parameter_given || vm.count(o.first) > 0;
        }
        if (parameter_given || vm.count("tests") || !vm["battery"].defaulted() || allow_unverified
            || vm.count("engine"))
            throw InputError("--resume takes the battery, its tests, the engine and the parameter "
                             "check from the stored run; give no --battery, --tests, --engine"
                + parameter_options + " or --allow-unverified-params");
        // Everything is checked on the store read as it is; it is opened for writing only when
        // nothing is left to refuse. A store of an older schema is upgraded first (what
        // resume has always done), one of another kind is refused unopened.
        struct stat st { };
        if (::stat(db_path.c_str(), &st) != 0) throw InputError("no database at '" + db_path + "'");
        check_store_path(db_path);
        {
            const int version = store_file_schema_version(db_path);
            Store reader(db_path,
                version > 0 && version < store_schema_version ? Store::Access::read_write
                                                              : Store::Access::read_only);
            auto stored = reader.run(resume);
            if (!stored) throw InputError("no run " + std::to_string(resume) + " in " + db_path);
            run = *stored;
            config = stored_configuration(run, check_external_input);
            if (run.params_check != "unverified (allowed)") check_param_sets(config, false);
            const ResumePlan plan = plan_resume(reader, run, asked_mode);
            check_mode_and_jobs(plan.mode);
            if (plan.mode == RunMode::sharded) refuse_sharded_without_jumps(config);
            // The stored configuration must still build on its backend here.
            (void)check_backend_stream(config);
        }
        run_id = resume;
        // One process at a time runs a run: a second --resume, or --resume of a run that is
        // still running, is refused here, before anything is written.
        claim = std::make_unique<RunLock>(db_path, run_id);
        store = std::make_unique<Store>(db_path);
        // Read again now that the run is this process's: what another process finished while
        // this one checked is not run twice.
        if (auto now = store->run(resume)) run = *now;
        const ResumePlan plan = plan_resume(*store, run, asked_mode);
        battery = plan.battery;
        to_run = plan.to_run;
        mode = plan.mode;
        engine = plan.engine;
        serial_start = plan.serial_start;
        if (to_run.empty()) {
            std::cout << "run " << run_id << " has every test already\n";
            store->finish_run(
                run_id, RunStatus::complete, run.finished_at.empty() ? utc_now() : run.finished_at);
            return 0;
        }
        return run_stored();
    }
    if (series.empty()) {
        start_new_run(nullptr);
        return run_stored();
    }
    // The worst exit status of the runs: a failure (1) over a tripped --fail-on (3).
    int worst = 0;
    std::string run_ids;
    for (std::size_t k = 0; k < series.size(); ++k) {
        store.reset();
        claim.reset();
        run_id = 0;
        config_options.seed = series[k];
        start_new_run(&series_configs[k]);
        const int status = run_stored();
        run_ids += (run_ids.empty() ? "" : ", ") + std::to_string(run_id);
        if (status == 130) return status;
        if (status != 0 && worst != 1) worst = status == gate_exit_status ? gate_exit_status : 1;
    }
    std::cout << "runs " << run_ids << " in " << db_path << ": " << series.size() << " seeds, from "
              << series.front() << " to " << series.back() << "\n";
    return worst;
}

namespace {

// Runs the tests of a stored run and stores each as it finishes; the exit status.
int run_and_store(Store& store, std::int64_t run_id, const RunRecord& run,
    const Configuration& config, const BatteryCatalogue& battery, const std::vector<int>& to_run,
    RunMode mode, int jobs, Prefetch prefetch, std::uint64_t serial_start,
    const std::string& log_path, const std::string& db_path, FailOn fail_on)
{
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    RunnerOptions ro;
    ro.mode = mode;
    ro.engine = parse_engine(run.engine); // checked when the run was started or resumed
    ro.jobs = jobs;
    ro.on_device = config.backend == Backend::cuda;
    // On the host backends the cores that run the tests make the numbers: a producer thread
    // would only copy each block once more and hand it over (native Crush of ranmar48 on openmp,
    // --jobs 2, 2-core machine: 249 CPU s of tests with it, 219 without; docs/benchmarks.md).
    ro.prefetch = prefetch == Prefetch::on
        || (prefetch == Prefetch::automatic && config.backend != Backend::cpu
            && config.backend != Backend::openmp);
    ro.serial_start = serial_start;
    ro.log_path = log_path;
    ro.stop_flag = &stop_requested;

    std::cerr << "rngvet: run " << run_id << ": " << battery.name << " (" << to_run.size()
              << " tests, " << to_text(mode)
              << (mode == RunMode::sharded ? ", " + std::to_string(jobs) + " jobs" : "") << ") on "
              << run.config << "\n";
    StoredRunResult result;
    {
        Progress progress(battery, to_run, std::cerr, isatty(STDERR_FILENO) != 0);
        result = run_stored_tests(store, run_id, run, config, battery, to_run, ro, progress);
    }
    std::cout << "run " << run_id << " " << to_text(result.status) << " in " << db_path << ": "
              << result.statistics << " statistics stored now, " << result.suspect << " suspect, "
              << result.failed << " failed\n";
    if (const auto stored = store.run(run_id); stored && result.status == RunStatus::complete)
        std::cout << battery_summary(*stored, store.statistics(run_id));
    if (!result.input_changed.empty()) {
        std::cerr << "rngvet: error: " << one_line(result.input_changed) << "; run " << run_id
                  << " is marked failed\n";
        return 1;
    }
    if (result.interrupted) return 130;
    if (!result.unfinished.empty()) {
        std::cerr << "rngvet: error: tests ";
        for (std::size_t i = 0; i < result.unfinished.size(); ++i)
            std::cerr << (i ? "," : "") << result.unfinished[i];
        std::cerr << " did not finish; rngvet run --resume " << run_id << " --db "
                  << one_line(db_path) << " runs them again\n";
        return 1;
    }
    const GateResult gate = gate_run(store, run_id, run, fail_on);
    if (gate.reached) {
        std::cerr << "rngvet: --fail-on " << fail_on_name(fail_on) << ": " << gate.reason << "\n";
        return gate_exit_status;
    }
    return 0;
}

} // namespace

} // namespace rngvet::cli
