// Command-line pieces shared by the subcommands.
#pragma once

#include "generators/configuration.hpp"

#include <boost/program_options.hpp>
#include <string>

namespace rngvet::cli {

namespace po = boost::program_options;

// The options that name a generator configuration (--generator, --seed, --instances, ...).
struct ConfigurationOptions {
    std::string generator;
    std::string seed;
    std::string params;
    int param_id = 0;
    int instances = 1;
    std::string layout;
    std::string seeding = "increment";
    std::string zero = "keep";
    std::uint64_t skip = 0;
    std::string backend = "cpu";

    void add_to(po::options_description& options, bool generator_required = true);
    // Parses and validates; throws InputError.
    Configuration configuration() const;
    // The options as given, one per line ("--seed\n1802,9373\n..."), to rebuild the
    // configuration later (rngvet run --resume).
    std::string arguments() const;
};

// Parses argv against `options`; returns false (after printing usage) when --help was given.
// Throws InputError on unknown or malformed options.
bool parse(int argc, char** argv, const po::options_description& options, const std::string& usage,
    po::variables_map& vm, const po::positional_options_description* positional = nullptr);

// The process's command line, shell-quoted where needed, for provenance.
std::string command_line(int argc, char** argv);
void set_command_line(int argc, char** argv);
const std::string& recorded_command_line();

} // namespace rngvet::cli
