#pragma once
#include <string>
#include <vector>
namespace rngvet {
struct TestEntry {
    int number; // TestU01's test number in the battery, 1-based (as in bbattery.tex)
    const char* name; // the first statistic's name as TestU01 writes it in bbattery_TestNames
    int statistics; // how many p-values this test writes into bbattery_pVal when run once
    double cost; // relative CPU cost estimate (seconds on one ~3 GHz core, rough)
};
struct BatteryCatalogue {
    const char* name; // "smallcrush", "crush", "bigcrush"
    std::vector<TestEntry> tests;
    int total_statistics() const;
    const TestEntry& test(int number) const; // throws std::out_of_range
};
const BatteryCatalogue& smallcrush_catalogue();
const BatteryCatalogue& crush_catalogue();
const BatteryCatalogue& bigcrush_catalogue();
const BatteryCatalogue& catalogue_for(const std::string&
        battery); // throws rngvet::InputError (generators/error.hpp) naming valid batteries
} // namespace rngvet
