// Subcommands of the rngvet driver. Each takes the subcommand's own argv (argv[0] is its
// name) and returns the process exit status: 0 success, 1 a check failed or the machine failed,
// 2 bad input, 3 (gate_exit_status, reports/gate.hpp) a --fail-on level reached.
#pragma once

namespace rngvet::cli {

int cmd_list(int argc, char** argv);
int cmd_run(int argc, char** argv);
int cmd_report(int argc, char** argv);
int cmd_generate(int argc, char** argv);
int cmd_validate(int argc, char** argv);
int cmd_dc(int argc, char** argv);
int cmd_status(int argc, char** argv);
int cmd_campaign(int argc, char** argv);
int cmd_bench(int argc, char** argv);

} // namespace rngvet::cli
