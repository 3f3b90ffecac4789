// A TestU01 generator record (unif01_Gen) served from a Stream through a buffer that the
// stream refills in blocks. The record is filled by hand (state/param pointers), so any number
// of them can exist in one process, unlike unif01_CreateExternGen*.
//
// GetU01 returns x * 2^-bits (all 48 bits for the 48-bit generators); GetBits returns the top
// 32 bits, left-aligned at bit 31 for the 24-bit generators.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

extern "C" {
#include <testu01/unif01.h>
}

#include "generators/stream.hpp"

namespace rngvet {

class TestU01Generator {
public:
    TestU01Generator(Stream& stream, const std::string& name, std::size_t block = 1u << 16);
    TestU01Generator(const TestU01Generator&) = delete;
    TestU01Generator& operator=(const TestU01Generator&) = delete;

    unif01_Gen* get() { return &gen_; }
    // Numbers handed to TestU01 so far.
    std::uint64_t consumed() const { return delivered_; }
    // Times the buffer was refilled.
    std::uint64_t refills() const { return refills_; }

private:
    static double get_u01(void* param, void* state);
    static unsigned long get_bits(void* param, void* state);
    static void write_state(void* state);
    std::uint64_t next();
    void refill();

    Stream& stream_;
    std::vector<char> name_;
    std::vector<std::uint64_t> buffer_;
    std::size_t position_;
    std::size_t limit_;
    std::uint64_t delivered_ = 0;
    std::uint64_t refills_ = 0;
    int bits_;
    double scale_;
    unif01_Gen gen_;
};

}  // namespace rngvet
