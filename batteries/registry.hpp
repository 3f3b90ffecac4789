// The battery registry: one row per battery family, saying everything rngvet does differently
// from one family to the next: its name and title, its parameters and the options that set
// them, how its catalogue is built, what runs it, which bits its tests read, and which engine
// runs it by default. Adding a battery is adding a row here (with its test table in
// battery_tables.cpp); every other file asks the registry.
#pragma once

#include "battery_tables.hpp"
#include "catalogue.hpp"
#include "records.hpp" // BatteryResult

#include <string>
#include <vector>

extern "C" {
#include <testu01/unif01.h>
}

namespace rngvet {

// An option of `rngvet run` that sets one parameter of a battery: "--nb" sets "nb".
struct BatteryOption {
    const char* option; // without "--"
    const char* key;
    const char* help;
};

struct BatteryFamily {
    const char* name; // as written in --battery and stored names: "rabbit"
    const char* title; // for reports: "Rabbit"
    const char* about; // for `rngvet list`, "" where the battery is TestU01's own
    tables::Rows tests; // its test table (battery_tables.cpp)
    // Its parameters: the keys of "rabbit(nb=BITS)" with the form shown in messages, and the
    // options of `rngvet run` that set them. None: no parameters.
    std::vector<std::string> keys;
    const char* form;
    std::vector<BatteryOption> options;
    // The catalogue at the given parameters (those left out take their defaults); throws
    // InputError for parameters rngvet or TestU01 cannot run.
    const BatteryCatalogue& (*catalogue)(const BatteryParameters& given);
    // What runs the tests marked in rep[1..]: TestU01's bbattery_Repeat* function, or, where the
    // battery is rngvet's own, a runner of its own (the other is nullptr).
    void (*testu01)(unif01_Gen* gen, const BatteryCatalogue& battery, int* rep);
    BatteryResult (*own)(unif01_Gen* gen, const BatteryCatalogue& battery,
        const std::vector<int>& tests, const std::string& log_path);
    // Bits read (bits_read.hpp): true where every test reads the battery's own r and s (from its
    // catalogue) instead of its table row's; false where the generator's resolution excuses no
    // failure (resolution_matters).
    bool bits_from_parameters;
    bool resolution_matters;
    // `--engine auto` is the default: every test has a native form and the whole battery's
    // p-values are proven equal to TestU01's (SmallCrush: tests/test_native_battery.cpp, in CI;
    // Crush and BigCrush: whole runs in both modes on ranmar48 and ranmar48x, docs/native.md).
    bool native_by_default;
};

// Every battery family, in the order reports list them.
const std::vector<BatteryFamily>& battery_registry();
// The row of a family ("rabbit", not "rabbit(nb=1024)"), its name in any case ("SmallCrush"):
// nullptr where there is none, or InputError naming the valid ones.
const BatteryFamily* find_battery_family(const std::string& family);
const BatteryFamily& battery_family_row(const std::string& family);
// "smallcrush, mcpi, ising, crush, bigcrush, rabbit, alphabit".
std::string battery_names();

} // namespace rngvet
