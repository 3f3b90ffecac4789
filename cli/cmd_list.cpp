#include "batteries/catalogue.hpp"
#include "batteries/engine.hpp"
#include "commands.hpp"
#include "kernels/backend.hpp"
#include "options.hpp"

#include <iostream>

namespace rngvet::cli {

int cmd_list(int argc, char** argv)
{
    po::options_description options("rngvet list options");
    po::variables_map vm;
    if (!parse(argc, argv, options, "usage: rngvet list", vm)) return 0;

    std::cout << "generators:\n";
    for (const GeneratorTraits& g : generator_registry()) {
        std::cout << "  " << g.name << " (" << g.bits << "-bit ";
        if (g.family == GeneratorFamily::external)
            std::cout << "words read, cpu only";
        else
            std::cout << "outputs, --seed " << g.seed_format
                      << (g.parameter_sets ? ", --params" : "");
        std::cout << ")\n";
    }
    std::cout << "batteries:\n";
    for (const char* b : { "smallcrush", "crush", "bigcrush" }) {
        const BatteryCatalogue& c = catalogue_for(b);
        const std::string native = native_tests_text(c);
        std::cout << "  " << b << " (" << c.tests.size() << " tests, " << c.total_statistics()
                  << " statistics" << (native.empty() ? "" : "; --engine native: tests " + native)
                  << ")\n";
    }
    // Rabbit and Alphabit leave out tests whose sample would be too small: counts at the default.
    for (const char* b : { "rabbit", "alphabit" }) {
        const BatteryCatalogue& c = catalogue_for(b);
        std::cout << "  " << b << " (" << c.tests.size() << " tests, " << c.total_statistics()
                  << " statistics at " << c.name.substr(c.name.find('(')) << "; --nb"
                  << (c.family() == "alphabit" ? ", --alphabit-r, --alphabit-s" : "") << ")\n";
    }
    {
        const BatteryCatalogue& c = mcpi_catalogue();
        std::cout << "  mcpi (Monte Carlo pi, rngvet's own: " << c.tests.size() << " tests, "
                  << c.total_statistics() << " statistics at " << c.name.substr(c.name.find('('))
                  << "; --mcpi-points, --mcpi-reps)\n";
    }
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
    return 0;
}

} // namespace rngvet::cli
