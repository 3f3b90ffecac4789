#include "batteries/engine.hpp"
#include "batteries/runner.hpp"
#include "commands.hpp"
#include "generators/error.hpp"
#include "kernels/backend.hpp"
#include "options.hpp"
#include "reports/store.hpp"
#include "rngvet/version.hpp"
#include "runs/stored_run.hpp"
#include "validators/checks.hpp"

#include <cstdio>
#include <iostream>
#include <memory>

namespace rngvet::cli {
namespace {

// Configurations checked when none is named: every generator, the layouts and seedings, and
// the published parallel set-ups (the OpenCL book's 32 MT521 twisters, seeds 0x33ff * gid).
std::vector<Configuration> default_configurations(const std::string& backend)
{
    (void)parse_backend_here(backend); // a name that is no backend: say which ones are here
    auto make = [&](const char* g, const char* seed, int n, const char* layout, const char* seeding,
                    const char* params = "") {
        return config_of(g, n, layout, backend, seed, params, seeding);
    };
    return {
        make("ranmar24", "1802,9373", 1, "single", "increment"),
        make("ranmar48", "1802,9373", 8, "interleave", "increment"),
        make("ranmar48x", "1802,9373", 5, "block:7", "hash"),
        make("ranmar24", "1802,30080", 4, "block:3", "stride:13311"),
        make("mtdc", "0", 32, "block:17", "stride:0x33ff", "fixstars-mt521"),
        make("mtdc", "777", 8, "interleave", "same", "fixstars-mt521"),
        make("mt19937", "5489", 3, "interleave", "increment"),
    };
}

// rngvet validate --engine native: every native test of the battery against TestU01's own
// function on the same stream; the exit status 1 when one differs.
int validate_native_engine(const std::vector<Configuration>& configs,
    const BatteryCatalogue& battery, const std::vector<int>& tests, bool quiet)
{
    int checks = 0, failed = 0;
    double testu01_seconds = 0, native_seconds = 0;
    for (const Configuration& c : configs) {
        const auto make = [&c] { return make_backend_stream(c); };
        for (const EngineCheck& r : check_native_engine(make, battery, tests)) {
            ++checks;
            failed += !r.equal;
            testu01_seconds += r.testu01_seconds;
            native_seconds += r.native_seconds;
            if (r.equal && quiet) continue;
            std::printf("%s native %s test %d (%s) on %s: %s (CPU s: TestU01 %.3f, native %.3f)\n",
                r.equal ? "PASS" : "FAIL", battery.name.c_str(), r.test, r.name.c_str(),
                canonical_name(c).c_str(), r.detail.c_str(), r.testu01_seconds, r.native_seconds);
        }
    }
    if (checks == 0)
        throw InputError("no test of " + battery.name + " selected has a native form (native: "
            + (native_tests_text(battery).empty() ? "none" : native_tests_text(battery)) + ")");
    std::printf("%d checks: %d passed, %d failed (CPU s: TestU01 %.3f, native %.3f)\n", checks,
        checks - failed, failed, testu01_seconds, native_seconds);
    return failed ? 1 : 0;
}

} // namespace

int cmd_validate(int argc, char** argv)
{
    ConfigurationOptions config_options;
    po::options_description options("rngvet validate options");
    // Without --generator a built-in set of configurations is checked.
    config_options.add_to(options, false);
    std::string engine_text, battery_name = "smallcrush", tests_text, db_path;
    options.add_options()("quiet,q", "print failed checks and the summary only")("engine",
        po::value(&engine_text),
        "native: check rngvet's native engine against TestU01's own functions instead (every "
        "native test of --battery, equal p-values as bits and equal numbers read)")("battery",
        po::value(&battery_name)->default_value("smallcrush"),
        "with --engine native: smallcrush, crush or bigcrush")("tests", po::value(&tests_text),
        "with --engine native: only these tests, e.g. 1,5,10")("db", po::value(&db_path),
        "store the start check (instance-start) of each configuration with several instances "
        "in this SQLite result store, where rngvet report shows it");
    po::variables_map vm;
    if (!parse(argc, argv, options,
            "usage: rngvet validate [--backend B] [--generator G ... configuration options]", vm))
        return 0;

    if (!vm.count("engine") && (!vm["battery"].defaulted() || vm.count("tests")))
        throw InputError("--battery and --tests go with --engine native");
    if (vm.count("engine") && vm.count("db"))
        throw InputError("--db stores the start check, which --engine native does not run");
    if (vm.count("engine")) {
        if (parse_engine(engine_text) != Engine::native)
            throw InputError("rngvet validate checks --engine native, got '" + engine_text + "'");
        const BatteryCatalogue& battery = catalogue_for(battery_name);
        const std::vector<int> tests
            = vm.count("tests") ? parse_tests(tests_text, battery) : std::vector<int>{};
        std::vector<Configuration> configs;
        if (config_options.generator.empty()) {
            // One generator of each resolution the feed converts.
            (void)parse_backend_here(config_options.backend);
            configs = { config_of("ranmar24", 1, "single", config_options.backend, "1802,9373"),
                config_of("ranmar48", 1, "single", config_options.backend, "1802,9373"),
                config_of("mt19937", 1, "single", config_options.backend, "5489") };
        } else {
            configs.push_back(config_options.configuration());
        }
        return validate_native_engine(configs, battery, tests, vm.count("quiet") > 0);
    }

    std::vector<Configuration> configs;
    if (config_options.generator.empty()) {
        configs = default_configurations(config_options.backend);
        (void)make_backend_stream(configs.front()); // the backend exists here
    } else {
        configs.push_back(config_options.configuration());
    }
    // Opened (created, migrated) before any check runs: a path that cannot hold a store is
    // refused first.
    std::unique_ptr<Store> store;
    if (vm.count("db")) store = std::make_unique<Store>(db_path);
    // Every check runs on the chosen backend; the layout checks compare against the reference.
    const StreamFactory factory = [](const Configuration& c) { return make_backend_stream(c); };

    std::vector<CheckResult> results = check_known_answers(factory, config_options.backend);
    for (auto& r : check_output_contracts())
        results.push_back(r);
    std::vector<StartCheckRecord> start_checks;
    for (const Configuration& c : configs) {
        for (auto& r : check_layout(c, factory))
            results.push_back(r);
        StartCorrelation start;
        for (auto& r : check_instances(c, &start))
            results.push_back(r);
        if (c.instances < 2) continue;
        StartCheckRecord record;
        record.config = canonical_name(c);
        record.bits = start.bits;
        record.pairs = start.pairs;
        record.steps = start.steps;
        record.agreement = start.agreement;
        record.z = start.z;
        record.p = start.p;
        record.worst_pair = start.worst_pair;
        record.worst_agreement = start.worst_agreement;
        record.worst_p = start.worst_p;
        record.passed = start_check_result(c, start).passed;
        start_checks.push_back(std::move(record));
    }

    int failed = 0, findings = 0;
    for (const CheckResult& r : results) {
        const char* tag = r.passed ? "PASS     " : r.finding ? "VIOLATION" : "FAIL     ";
        failed += !r.passed && !r.finding;
        findings += !r.passed && r.finding;
        if (r.passed && vm.count("quiet")) continue;
        std::cout << tag << " " << r.name << ": " << r.detail << "\n";
    }
    std::cout << results.size()
              << " checks: " << (results.size() - static_cast<std::size_t>(failed + findings))
              << " passed, " << failed << " failed";
    if (findings)
        std::cout << ", " << findings << " violation(s) of conversions rngvet does not use";
    std::cout << "\n";
    if (store) {
        for (StartCheckRecord& record : start_checks) {
            record.checked_at = utc_now();
            record.rngvet_version = std::string(version) + " (" + git_commit + ")";
            record.host = host_name();
            record.command_line = recorded_command_line();
            store->insert_start_check(record);
        }
        std::cout << start_checks.size()
                  << (start_checks.size() == 1 ? " start check" : " start checks") << " stored in "
                  << db_path
                  << (start_checks.empty() ? " (no configuration has several instances)" : "")
                  << "\n";
    }
    return failed ? 1 : 0;
}

} // namespace rngvet::cli
