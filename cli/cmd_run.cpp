#include <ctime>
#include <iostream>
#include <unistd.h>

#include "batteries/battery.hpp"
#include "batteries/testu01_gen.hpp"
#include "commands.hpp"
#include "generators/error.hpp"
#include "options.hpp"
#include "reports/store.hpp"
#include "rngvet/version.hpp"

namespace rngvet::cli {
namespace {

    std::string utc_now()
    {
        const std::time_t t = std::time(nullptr);
        std::tm tm {};
        gmtime_r(&t, &tm);
        char buf[32];
        std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
        return buf;
    }

    std::string host_name()
    {
        char buf[256] = {0};
        if (gethostname(buf, sizeof buf - 1) != 0) return "unknown";
        return buf;
    }

    std::vector<int> parse_tests(const std::string& text, const BatteryCatalogue& battery)
    {
        std::vector<int> tests;
        for (std::int64_t n : parse_seed(text)) {
            if (n < 1 || n > static_cast<std::int64_t>(battery.tests.size()))
                throw InputError("--tests: " + std::string(battery.name) + " has tests 1.."
                                 + std::to_string(battery.tests.size()) + ", got "
                                 + std::to_string(n));
            tests.push_back(static_cast<int>(n));
        }
        return tests;
    }

}  // namespace

int cmd_run(int argc, char** argv)
{
    ConfigurationOptions config_options;
    std::string battery_name, db_path, log_path, tests_text;
    po::options_description options("rngvet run options");
    config_options.add_to(options);
    options.add_options()
        ("battery,b", po::value(&battery_name)->default_value("smallcrush"),
         "TestU01 battery: smallcrush, crush, bigcrush")
        ("tests", po::value(&tests_text), "run only these tests of the battery, e.g. 1,5,10")
        ("db", po::value(&db_path)->default_value("rngvet.sqlite"), "SQLite result store")
        ("log", po::value(&log_path), "write TestU01's own output to this file");
    po::variables_map vm;
    if (!parse(argc, argv, options,
               "usage: rngvet run --generator G [--seed S] [configuration options] "
               "[--battery B] [--db FILE]",
               vm))
        return 0;

    // Everything that can be refused is refused before the battery starts.
    const Configuration config = config_options.configuration();
    const BatteryCatalogue& battery = catalogue_for(battery_name);
    const std::vector<int> tests = tests_text.empty() ? std::vector<int> {} : parse_tests(tests_text, battery);
    Store store(db_path);

    auto stream = make_stream(config);
    const std::string name = canonical_name(config);
    TestU01Generator gen(*stream, name + " backend=" + config.backend);

    RunRecord run;
    run.generator = config.generator;
    run.config = name;
    run.seed = seed_string(config.seed);
    run.backend = config.backend;
    run.battery = battery.name;
    run.mode = "serial";
    run.resolution_bits = stream->bits();
    run.params_sha256 = params_sha256(config);
    run.rngvet_version = std::string(version) + " (" + git_commit + ")";
    run.host = host_name();
    run.command_line = recorded_command_line();
    run.started_at = utc_now();
    std::cerr << "rngvet: running " << battery.name << " on " << name << "\n";

    const BatteryResult result = run_battery(gen.get(), battery, tests, log_path);

    run.finished_at = utc_now();
    run.status = "complete";
    run.testu01_version = result.testu01_version;
    run.numbers_used = gen.consumed();
    run.cpu_seconds = result.cpu_seconds;
    std::vector<StatisticRecord> stats;
    int suspect = 0, failed = 0;
    for (const Statistic& s : result.statistics) {
        stats.push_back({s.stat_index, s.test_number, s.test_name, s.pvalue});
        const std::string v = verdict(s.pvalue);
        suspect += v == "suspect";
        failed += v == "fail";
    }
    const std::int64_t id = store.insert_run(run, stats);
    std::cout << "run " << id << " stored in " << db_path << ": " << stats.size()
              << " statistics, " << suspect << " suspect, " << failed << " failed\n";
    return 0;
}

}  // namespace rngvet::cli
