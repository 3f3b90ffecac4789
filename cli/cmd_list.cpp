#include <iostream>

#include "batteries/catalogue.hpp"
#include "commands.hpp"
#include "options.hpp"

namespace rngvet::cli {

int cmd_list(int argc, char** argv)
{
    po::options_description options("rngvet list options");
    po::variables_map vm;
    if (!parse(argc, argv, options, "usage: rngvet list", vm)) return 0;

    std::cout << "generators:\n";
    for (const auto& g : generator_names()) std::cout << "  " << g << "\n";
    std::cout << "batteries:\n";
    for (const char* b : {"smallcrush", "crush", "bigcrush"}) {
        const BatteryCatalogue& c = catalogue_for(b);
        std::cout << "  " << b << " (" << c.tests.size() << " tests, " << c.total_statistics()
                  << " statistics)\n";
    }
    std::cout << "backends:\n  cpu\n";
    return 0;
}

}  // namespace rngvet::cli
