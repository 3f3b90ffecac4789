// libFuzzer target: what rngvet run --resume reads back from a stored run: the configuration
// name, generator, seed, backend, battery, tests selected and options (stored_configuration,
// stored_option, the battery's catalogue, parse_tests). The input holds those fields, one a
// line. Any input may be refused with InputError; nothing else may escape, crash or leak.
#include "batteries/catalogue.hpp"
#include "generators/configuration.hpp"
#include "generators/error.hpp"
#include "reports/store.hpp"
#include "runs/stored_run.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    rngvet::RunRecord run;
    std::string options;
    std::getline(in, run.config);
    std::getline(in, run.generator);
    std::getline(in, run.seed);
    std::getline(in, run.backend);
    std::getline(in, run.battery);
    std::getline(in, run.tests_selected);
    std::getline(in, run.params_sha256);
    // The rest: the options, one word a line, as rngvet stores them.
    for (std::string line; std::getline(in, line);)
        options += line + "\n";
    run.options = options;
    run.run_id = 1;
    try {
        (void)rngvet::stored_option(run.options, "--params");
        const rngvet::BatteryCatalogue& battery = rngvet::catalogue_for(run.battery);
        if (!run.tests_selected.empty()) (void)rngvet::parse_tests(run.tests_selected, battery);
    } catch (const rngvet::InputError&) {
    }
    try {
        (void)rngvet::stored_configuration(
            run, [](const rngvet::Configuration&) { return std::string(); });
    } catch (const rngvet::InputError&) {
    }
    return 0;
}
