// rngvet's native statistics engine: its own implementation of TestU01's tests, each consuming
// the same numbers in the same order as TestU01's function, computing the same statistic and
// giving the same p-value, bit for bit (docs/native.md). The integer work (cells, sorts,
// counts) is rngvet's own and runs in blocks and in parallel; every floating-point value that
// reaches a p-value is computed with TestU01's operations in TestU01's order, through
// TestU01's own probability library where TestU01 uses it.
//
// One row per test of a battery that has a native form: its battery, its TestU01 test number,
// and the function that runs it with that battery's parameters.
#pragma once

#include "source.hpp"

#include <functional>
#include <string>
#include <vector>

namespace rngvet::native {

// One p-value, named as TestU01's battery names it (bbattery_TestNames).
struct NativeStatistic {
    std::string name;
    double pvalue = 0;
};

struct NativeTest {
    const char* battery; // "smallcrush", "crush", "bigcrush"
    int number; // TestU01's test number in that battery
    // Runs the test on the next numbers of `in`; the p-values in the order the battery
    // writes them. A family's row table binds its parameters here.
    std::function<std::vector<NativeStatistic>(Numbers& in)> run;
};

// The native form of test `number` of `battery` (a battery family name), or nullptr.
const NativeTest* find_test(const std::string& battery, int number);
// Every native test, battery by battery in test-number order.
const std::vector<NativeTest>& all_tests();

} // namespace rngvet::native
