#include "commands.hpp"
#include "kernels/backend.hpp"
#include "options.hpp"
#include "validators/checks.hpp"

#include <iostream>

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

} // namespace

int cmd_validate(int argc, char** argv)
{
    ConfigurationOptions config_options;
    po::options_description options("rngvet validate options");
    // Without --generator a built-in set of configurations is checked.
    config_options.add_to(options, false);
    options.add_options()("quiet,q", "print failed checks and the summary only");
    po::variables_map vm;
    if (!parse(argc, argv, options,
            "usage: rngvet validate [--backend B] [--generator G ... configuration options]", vm))
        return 0;

    std::vector<Configuration> configs;
    if (config_options.generator.empty()) {
        configs = default_configurations(config_options.backend);
        (void)make_backend_stream(configs.front()); // the backend exists here
    } else {
        configs.push_back(config_options.configuration());
    }
    // Every check runs on the chosen backend; the layout checks compare against the reference.
    const StreamFactory factory = [](const Configuration& c) { return make_backend_stream(c); };

    std::vector<CheckResult> results = check_known_answers(factory, config_options.backend);
    for (auto& r : check_output_contracts())
        results.push_back(r);
    for (const Configuration& c : configs) {
        for (auto& r : check_layout(c, factory))
            results.push_back(r);
        for (auto& r : check_instances(c))
            results.push_back(r);
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
    return failed ? 1 : 0;
}

} // namespace rngvet::cli
