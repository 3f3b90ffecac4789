// rngvet: validates parallel random number generators with TestU01.
#include "commands.hpp"
#include "generators/error.hpp"
#include "options.hpp"
#include "process/die_with_parent.hpp"
#include "process/openmp_waits.hpp"
#include "reports/gate.hpp"
#include "rngvet/version.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>

namespace {

struct Command {
    const char* name;
    int (*run)(int, char**);
    const char* summary;
};

const Command commands[] = {
    { "list", rngvet::cli::cmd_list, "generators, batteries and backends of this build" },
    { "run", rngvet::cli::cmd_run, "run a TestU01 battery on a configuration and store it" },
    { "status", rngvet::cli::cmd_status, "runs in a database and their progress" },
    { "campaign", rngvet::cli::cmd_campaign,
        "configurations x seeds as tasks on a Slurm queue or here" },
    { "report", rngvet::cli::cmd_report, "the report of stored runs: markdown, JSON or JUnit XML" },
    { "generate", rngvet::cli::cmd_generate, "write a configuration's stream for other tools" },
    { "validate", rngvet::cli::cmd_validate,
        "known answers, output contracts, layouts, instances" },
    { "bench", rngvet::cli::cmd_bench, "throughput of configurations and references, per backend" },
    { "dc", rngvet::cli::cmd_dc, "Dynamic Creator: create and verify MT parameter sets" },
};

void usage(std::ostream& out)
{
    out << "usage: rngvet <command> [options]   (rngvet <command> --help for its options)\n"
           "       rngvet --version | -V\n\n"
           "commands:\n";
    for (const auto& c : commands)
        out << "  " << c.name << std::string(10 - std::strlen(c.name), ' ') << c.summary << "\n";
}

// A command's output that did not reach standard output (a full disk, /dev/full, a closed
// pipe) is a failure of the machine, not a success nor a reached --fail-on gate: returns 1
// after one line on standard error.
int checked_output(int status)
{
    errno = 0;
    std::cout.flush();
    const bool failed = !std::cout.good() || std::fflush(stdout) != 0 || std::ferror(stdout);
    if (!failed) return status;
    const int err = errno;
    std::cerr << "rngvet: error: cannot write standard output"
              << (err ? std::string(": ") + std::strerror(err) : std::string()) << "\n";
    return status == 0 || status == rngvet::gate_exit_status ? 1 : status;
}

} // namespace

int main(int argc, char** argv)
{
    rngvet::start_with_passive_openmp_waits(argv);
    if (argc < 2 || std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0) {
        usage(argc < 2 ? std::cerr : std::cout);
        return argc < 2 ? 2 : 0;
    }
    if (std::strcmp(argv[1], "--version") == 0 || std::strcmp(argv[1], "-V") == 0) {
        std::cout << "rngvet " << rngvet::version << " (" << rngvet::git_commit << ")\n";
        return checked_output(0);
    }
    // A task run started by `rngvet campaign run` ends with the campaign (SIGTERM: the run is
    // marked interrupted and its own workers follow it).
    if (const char* parent = std::getenv("RNGVET_DIE_WITH_PARENT")) {
        const pid_t pid = static_cast<pid_t>(std::atol(parent));
        unsetenv("RNGVET_DIE_WITH_PARENT");
        rngvet::die_with_parent(pid, SIGTERM);
    }
    rngvet::cli::set_command_line(argc, argv);
    for (const auto& c : commands) {
        if (argv[1] != std::string(c.name)) continue;
        try {
            return checked_output(c.run(argc - 1, argv + 1));
        } catch (const rngvet::InputError& e) {
            std::cerr << "rngvet: error: " << rngvet::one_line(e.what()) << "\n";
            return 2;
        } catch (const std::exception& e) {
            std::cerr << "rngvet: error: " << rngvet::one_line(e.what()) << "\n";
            return 1;
        }
    }
    std::cerr << "rngvet: error: unknown command '" << rngvet::one_line(argv[1])
              << "' (see rngvet --help)\n";
    return 2;
}
