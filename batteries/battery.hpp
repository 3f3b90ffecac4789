// Runs a TestU01 battery (or a chosen subset of its tests) on one generator and returns every
// statistic's p-value with TestU01's own numbering. This file and testu01_gen.cpp are the only
// places that touch TestU01's process-global state (bbattery_pVal, bbattery_TestNames, swrite):
// one battery per process at a time. The application battery mcpi (mcpi.hpp), rngvet's own,
// runs through the same call on the same generator record.
#pragma once

#include <string>
#include <vector>

extern "C" {
#include <testu01/unif01.h>
}

#include "catalogue.hpp"
#include "records.hpp" // BatteryResult

namespace rngvet {

// The installed TestU01's version as its batteries print it ("TestU01 1.2.3"), read once per
// process: the version whose p-values the native engine reproduces (with its probability
// library), recorded for the tests the native engine computes.
std::string testu01_library_version();

// Runs the tests numbered in `tests` (all of them when empty) of the battery. TestU01's own
// text output (mcpi: its estimates) goes to `log_path` (discarded when empty).
BatteryResult run_battery(unif01_Gen* gen, const BatteryCatalogue& battery,
    const std::vector<int>& tests, const std::string& log_path);

} // namespace rngvet
