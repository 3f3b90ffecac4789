// Which bits of U each test of SmallCrush, Crush, BigCrush, Rabbit, Alphabit and mcpi reads.
//
// Bits are numbered from the most significant bit of U: bit 1 is the 1/2 bit, bit 24 the last
// bit a 24-bit generator delivers (TestU01 left-aligns such generators, so bits 25..32 of U are
// zero for them). A test that reads bit b > resolution_bits sees constant bits there and is
// expected to fail: its failure describes the generator's resolution, not a defect of the
// recurrence. bits_read.cpp explains how the table was derived from TestU01's bbattery.c.
#pragma once

#include <string>

namespace rngvet {

struct BitsRead {
    int first_bit = 0; // 1-based; r + 1 for a test that drops the top r bits
    int highest_bit = 0; // the least significant bit of U the statistic depends on
    bool all_bits = false; // the test uses U as a real number: every bit after the first r
    const char* call = ""; // the TestU01 call with its bit-relevant arguments
    // False where a generator with fewer bits than highest_bit is nevertheless not expected to
    // fail: mcpi reads every bit, but the lattice of a b-bit generator moves its hit
    // probability by at most 3 x 2^-b, below any z it can reach for b >= 24 (bits_read.cpp).
    bool resolution_matters = true;
};

// The bits read by test `test_number` (1-based, TestU01's numbering) of `battery`
// ("smallcrush", "crush", "bigcrush", or a Rabbit or Alphabit name as catalogue.hpp writes it,
// e.g. "rabbit(nb=33554432)", "alphabit(nb=33554432,r=0,s=32)"). Throws std::out_of_range for
// an unknown battery or a test number outside the battery.
BitsRead bits_read(const std::string& battery, int test_number);

// bits_read(battery, test_number).highest_bit. Tests that use U as a real number (comparisons,
// sums, products, distances) return 32: they read every bit that GetU01 delivers for a 32-bit
// generator, and a generator with fewer bits is expected to fail them.
int highest_bit_read(const std::string& battery, int test_number);

} // namespace rngvet
