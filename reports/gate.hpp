// Exit statuses that say what was found: `--fail-on LEVEL` of rngvet run, report and campaign
// merge makes the command exit gate_exit_status (3) when the stored verdicts of its runs reach
// LEVEL, so that a simulation code's CI can gate on a battery and tell a gate from a failure of
// the machine (1) or bad input (2). The runs a report judges (--run, --config). And the summary
// block TestU01 prints after a battery, rendered from the store.
#pragma once

#include "generators/words.hpp"
#include "store.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rngvet {

// The exit status of a command whose --fail-on level was reached.
inline constexpr int gate_exit_status = 3;

enum class FailOn {
    never, // the verdicts never change the exit status
    fail, // some p-value is a clear failure (outside [1e-10, 1 - 1e-10])
    suspect, // some p-value is suspect or a failure (outside [0.001, 0.999])
    systematic, // the comparison across seeds classes some statistic as systematic
};
// The levels' words; their meanings hold verdict.hpp's thresholds and are fail_on_help's.
inline constexpr Term<FailOn> fail_on_terms[] = {
    { FailOn::never, "never", "" },
    { FailOn::fail, "fail", "" },
    { FailOn::suspect, "suspect", "" },
    { FailOn::systematic, "systematic", "" },
};

// A word of fail_on_terms; anything else is an InputError naming them.
FailOn parse_fail_on(const std::string& text);
// "never", "fail", "suspect", "systematic", from fail_on_terms.
const Words& fail_on_words();
const char* fail_on_name(FailOn level);
// The --fail-on help text, with the thresholds of verdict.hpp: "exit 1 when <whose> verdicts
// reach this level: never, fail (a p-value outside [1e-10, 1 - 1e-10]), ... the comparison
// across <across> classes systematic)".
std::string fail_on_help(const std::string& whose, const std::string& across);

struct GateResult {
    bool reached = false;
    std::string reason; // one line: what reached the level, e.g. "3 statistics fail (run 2: ...)"
};

// Whether the stored statistics of `runs` reach `level`. For `systematic` the runs are
// compared as the report compares them (reports/compare.hpp): per configuration over its seeds.
GateResult check_fail_on(Store& store, const std::vector<RunRecord>& runs, FailOn level);

// The runs a report covers and its --fail-on judges: those of the --run values (run ids,
// ranges and lists: "3", "1-5", "2,4,7-9") and of the --config values (a canonical
// configuration name as stored, or its configuration without the seed, "ranmar48/1/single/
// increment/*"); both given, the runs chosen by both. None given: every run.
struct RunScope {
    struct Range {
        std::int64_t first = 0, last = 0;
        std::string text; // as given, for messages
    };
    std::vector<Range> ranges;
    std::vector<std::string> configs;
    bool empty() const { return ranges.empty() && configs.empty(); }
};

// Adds one --run value; text that is not run ids and ranges, or a range whose first run is
// after its last, is an InputError.
void add_run_ranges(RunScope& scope, const std::string& text);

// The stored runs in the scope, by run id. A single id that is not stored, a range holding no
// stored run, a configuration no stored run has, and a --run and --config that share no run
// are InputErrors naming db_label.
std::vector<RunRecord> select_runs(
    Store& store, const RunScope& scope, const std::string& db_label);

// TestU01's closing summary of a battery for one stored run: the version, the generator, the
// number of statistics, the CPU time, and each statistic outside [0.001, 0.999] with its
// p-value in TestU01's notation, or "All tests were passed".
std::string battery_summary(const RunRecord& run, const std::vector<StatisticRecord>& stats);

} // namespace rngvet
