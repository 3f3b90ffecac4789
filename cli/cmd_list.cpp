#include "batteries/battery_choice.hpp"
#include "batteries/catalogue.hpp"
#include "batteries/engine.hpp"
#include "batteries/registry.hpp"
#include "commands.hpp"
#include "generators/configuration_options.hpp"
#include "kernels/backend.hpp"
#include "options.hpp"
#include "reports/gate.hpp"

#include <iostream>
#include <utility>
#include <vector>

namespace rngvet::cli {

int cmd_list(int argc, char** argv)
{
    po::options_description options("rngvet list options");
    po::variables_map vm;
    if (!parse(argc, argv, options, "usage: rngvet list", vm)) return 0;

    std::cout << "generators:\n";
    for (const GeneratorTraits& g : generator_registry()) {
        std::cout << "  " << g.name << " (" << family_traits(g.family).describe(g) << ")\n";
    }
    std::cout << "batteries:\n";
    // Batteries with parameters are counted at their defaults (Rabbit and Alphabit leave out
    // tests whose sample would be too small).
    for (const BatteryFamily& family : battery_registry()) {
        const BatteryCatalogue& c = catalogue_for(family.name);
        std::string about = family.about;
        if (!about.empty()) about += ": ";
        std::cout << "  " << family.name << " (" << about << c.tests.size() << " tests, "
                  << c.total_statistics() << " statistics";
        if (!family.keys.empty()) std::cout << " at " << c.name.substr(c.name.find('(')) << ";";
        for (std::size_t k = 0; k < family.options.size(); ++k)
            std::cout << (k ? ", --" : " --") << family.options[k].option;
        if (family.native_by_default) std::cout << "; --engine auto by default";
        const std::string native = native_tests_text(c);
        if (!native.empty()) std::cout << "; --engine native: tests " << native;
        std::cout << ")\n";
    }
    std::cout << "parameter sets (built in, --params):\n";
    for (const Word& w : builtin_param_set_words())
        std::cout << "  " << w.form << " (" << w.meaning << ")\n";
    // Every value of every option that takes words, as its parser reads them (the bash
    // completion reads this section): the configuration options' and the battery choice's from
    // their rows, then the command line's own.
    std::vector<std::pair<std::string, std::string>> values;
    for (const ConfigurationOption& row : configuration_options())
        if (row.values) values.emplace_back(row.name, row.values());
    for (const BatteryChoiceOption& row : battery_choice_options())
        if (row.values) values.emplace_back(row.name, row.values());
    values.insert(values.end(),
        {
            { "mode", word_list(mode_words()) },
            { "prefetch", word_list(prefetch_words()) },
            { "fail-on", word_list(fail_on_words()) },
            { "format", word_list(format_words()) },
            { "compat", word_list(dc_compat_words()) },
        });
    std::cout << "option values:\n";
    for (const auto& [option, words] : values)
        std::cout << "  --" << option << ": " << words << "\n";
    std::cout << "backends (available here):\n";
    for (const Backend b : available_backends()) {
        std::cout << "  " << to_string(b);
        if (b != Backend::cpu) {
            const auto devices = backend_devices(b);
            for (std::size_t i = 0; i < devices.size(); ++i)
                std::cout << (i ? "; " : ": ") << devices[i];
        }
        std::cout << "\n";
    }
    // The others with the reason the probe found (not built, no driver, no device).
    std::string missing;
    for (const Backend b : { Backend::openmp, Backend::opencl, Backend::cuda }) {
        const std::string why = backend_unavailable_reason(b);
        if (!why.empty()) missing += "  " + std::string(to_string(b)) + ": " + why + "\n";
    }
    if (!missing.empty()) std::cout << "backends (not available here):\n" << missing;
    return 0;
}

} // namespace rngvet::cli
