// A TestU01 generator record (unif01_Gen) served from a Stream. The record is filled by hand
// (state/param pointers), so any number of them can exist in one process, unlike
// unif01_CreateExternGen*.
//
// GetU01 returns x * 2^-bits (all 48 bits for the 48-bit generators); GetBits returns the top
// 32 bits, left-aligned at bit 31 for the 24-bit generators.
//
// Numbers come from blocks, read in place (Stream::take): from a device stream with host
// staging (CUDA) that is the pinned buffer the GPU copied them into, while the next launch is
// generated and copied into the other one. With prefetch on and a stream that does not read
// ahead by itself, a producer thread fills the next block while TestU01 reads the current one.
// Either way the generator counts refills and how many of them had to wait for the producer
// (the device's read-ahead, or the thread).
#pragma once

#include <atomic>
#include <condition_variable>
#include <csignal>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

extern "C" {
#include <testu01/unif01.h>
}

#include "batteries/native/source.hpp"
#include "generators/stream.hpp"

namespace rngvet {

struct FeedOptions {
    std::size_t block = 1u << 16; // numbers per block
    bool prefetch = false; // fill the next block on a producer thread
    // Checked at every refill: when it becomes non-zero, on_stop runs and the process ends
    // with status 130 (TestU01 cannot be left in the middle of a test otherwise).
    const volatile std::sig_atomic_t* stop_flag = nullptr;
    std::function<void()> on_stop;
    // Runs when the stream fails (an external stream ended, a device error), before the
    // process ends with the one-line error and status 2.
    std::function<void()> on_failure;
};

// It is also the native tests' word source (native/source.hpp): a native test and a TestU01 test
// read the same blocks and are counted alike.
class TestU01Generator : public native::WordSource {
public:
    TestU01Generator(Stream& stream, const std::string& name, FeedOptions options = {});
    ~TestU01Generator() override;
    TestU01Generator(const TestU01Generator&) = delete;
    TestU01Generator& operator=(const TestU01Generator&) = delete;

    unif01_Gen* get() { return &gen_; }
    // The feed whose record `gen` is; nullptr for another generator record.
    static TestU01Generator* of(unif01_Gen* gen);
    // Numbers handed to TestU01 so far.
    std::uint64_t consumed() const { return delivered_; }
    // Times a block was taken, and how many of those found the producer not yet done. When the
    // device reads ahead (device_fed()), a refill is one launch taken from a staging slot.
    std::uint64_t refills() const;
    std::uint64_t refill_waits() const;
    bool device_fed() const { return device_fed_; }

    // native::WordSource: the rest of the current block (a new one when it is used up).
    int bits() const override { return bits_; }
    Stream::View peek(std::size_t n) override;
    void advance(std::size_t k) override;
    bool fill_device(void* out, std::size_t n) override;
    // The words given back come first, then the rest of the current block.
    bool give_back(const std::uint64_t* words, std::size_t n) override;

private:
    static double get_u01(void* param, void* state);
    static unsigned long get_bits(void* param, void* state);
    static void write_state(void* state);
    std::uint64_t next();
    void refill();
    void produce();
    std::size_t fill_block(std::vector<std::uint64_t>& block);
    void take_block();

    Stream& stream_;
    FeedOptions options_;
    bool device_fed_; // prefetch by the device's own read-ahead (take) instead of a thread
    std::vector<char> name_;
    const std::uint64_t* data_ = nullptr; // the current block: in the stream, or current_
    std::vector<std::uint64_t> current_; // the producer thread's blocks
    std::vector<std::uint64_t> given_back_; // a block of words given back (give_back)
    std::size_t position_ = 0;
    std::size_t limit_ = 0;
    std::uint64_t delivered_ = 0;
    std::uint64_t refills_ = 0;
    std::uint64_t waits_ = 0;
    int bits_;
    double scale_;
    unif01_Gen gen_;

    // Producer side (prefetch only).
    std::vector<std::uint64_t> next_block_;
    std::size_t next_limit_ = 0;
    bool next_ready_ = false;
    bool quit_ = false;
    std::string producer_error_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::thread producer_;
};

} // namespace rngvet
