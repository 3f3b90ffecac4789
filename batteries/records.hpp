// What one test of a battery leaves behind: its statistics and where in the stream it ran at
// what cost; and what one call of a battery's runner returns. The runner (runner.hpp) produces them
// and the store (reports/store.hpp) keeps and returns the same structs. Plain data: no TestU01
// header needed.
#pragma once

#include "generators/words.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rngvet {

// How a run reads its stream (runner.hpp), as runs.mode stores it and --mode takes it.
enum class RunMode { serial, sharded };
inline constexpr Term<RunMode> run_mode_terms[] = {
    { RunMode::serial, "serial", "one stream, exactly as TestU01 runs the battery" },
    { RunMode::sharded, "sharded", "one process per test, each on its own jumped-to segment" },
};
constexpr const char* to_text(RunMode m)
{
    return term_text(run_mode_terms, m);
}
// The table of the type's terms (found by argument-dependent lookup, as the store's columns do).
constexpr const auto& terms_of(RunMode)
{
    return run_mode_terms;
}
// nullopt for any other text.
inline std::optional<RunMode> run_mode_from_text(const std::string& text)
{
    return term_value(run_mode_terms, text);
}

// One p-value of a battery.
struct Statistic {
    int stat_index = 0; // position in the whole battery, 1-based (as in bbattery_pVal)
    int test_number = 0; // TestU01's test number, 1-based
    std::string test_name;
    double pvalue = 0;
};

// Provenance of one test of a run: where in the stream it started and what it cost.
struct TestRecord {
    int test_number = 0;
    std::uint64_t start_offset = 0;
    std::uint64_t numbers_used = 0;
    double cpu_seconds = 0;
    std::string worker;
    std::uint64_t refills = 0;
    std::uint64_t refill_waits = 0;
    std::string started_at;
    std::string finished_at;
    std::string engine = "testu01"; // what computed its statistics: testu01 or native
    double wall_seconds = 0; // from the test's start to its end, in the process that ran it
};

// What one call of a battery's runner returns (run_battery, and rngvet's own batteries' runners).
struct BatteryResult {
    std::vector<Statistic> statistics;
    std::string testu01_version; // as TestU01 prints it, e.g. "TestU01 1.2.3"
    double cpu_seconds = 0;
};

} // namespace rngvet
