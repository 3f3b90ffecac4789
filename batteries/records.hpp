// What one test of a battery leaves behind: its statistics and where in the stream it ran at
// what cost; and what one call of a battery's runner returns. The runner (runner.hpp) produces them
// and the store (reports/store.hpp) keeps and returns the same structs. Plain data: no TestU01
// header needed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace rngvet {

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
