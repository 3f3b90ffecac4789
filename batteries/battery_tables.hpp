// The tests of every battery, one table per battery (battery_tables.cpp): the single source of
// the catalogues (catalogue.hpp) and of the bits each test reads (bits_read.hpp). Internal to
// batteries/; callers use those two headers.
#pragma once

#include <cstddef>

namespace rngvet::tables {

struct TestRow {
    int number; // TestU01's test number, 1-based; the rows of a battery are in this order
    const char* name; // the first statistic's name as TestU01 writes it in bbattery_TestNames
    int statistics; // p-values the test writes when it runs (mcpi: 0, from its parameters)
    double min_nb; // Rabbit, Alphabit: TestU01 leaves the test out below this nb; 0: never
    double cost; // CPU seconds on one core (Rabbit, Alphabit: at nb = 2^25; mcpi: 0)
    int r; // most significant bits of U dropped (Alphabit: the battery's r)
    int bits; // bits read after them; 0: U used as a real number (Alphabit: the battery's s)
    const char* call; // the TestU01 call with its bit-relevant arguments
};

// The rows of one battery, in test-number order: row k - 1 is test k.
struct Rows {
    const TestRow* first;
    std::size_t count;
    const TestRow* begin() const { return first; }
    const TestRow* end() const { return first + count; }
    std::size_t size() const { return count; }
    const TestRow& operator[](std::size_t i) const { return first[i]; }
};

// Each battery's table (the registry, registry.hpp, names which is whose).
extern const Rows smallcrush_tests;
extern const Rows crush_tests;
extern const Rows bigcrush_tests;
extern const Rows rabbit_tests;
extern const Rows alphabit_tests;
extern const Rows mcpi_tests;
extern const Rows ising_tests;

} // namespace rngvet::tables
