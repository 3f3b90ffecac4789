// svaria_SumCollector's sums, svaria_AppearanceSpacings' distances and svaria_SampleMean's sums
// computed on the CUDA device a
// stream runs on (device_svaria_counts.hpp's algorithms, built into device_svaria_cuda.cu), for
// svaria_more.cpp: where the counts or distances come back, the family computes its statistic
// from them with the code of its CPU path. As device.hpp: nullptr, with nothing read, where the
// stream's words cannot be written into device memory (a stream on the host, a build without
// CUDA, no usable device, device memory short); once words were read, a failure throws
// std::runtime_error with a one-line message.
#pragma once

#include "source.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace rngvet::native {

// svaria_SumCollector's chain of sums (each StripD value added to the sum, a sum ending at the
// first number that makes it exceed g, the next one starting from 0.0 after it), one block of
// words at a time (svaria_more.cpp bounds the blocks).
class DeviceSumScan {
public:
    virtual ~DeviceSumScan() = default;
    // Blocks of at most this many words.
    virtual std::size_t max_words() const = 0;
    // Reads the next `size` words and runs the chain through them from a sum x of `numbers`
    // numbers: by_length[l] (l = 1 .. cap, resized to cap + 1) the sums that end in them by their
    // count of numbers, cap for cap or more; `ends` their number; x and numbers left as the chain
    // leaves the block. False, with nothing read, where the test's first block finds no device
    // memory to write (the test then reads on the host).
    virtual bool scan(
        std::size_t size, double& x, long& numbers, std::vector<long>& by_length, long& ends)
        = 0;
};
// nullptr, with nothing read, where the stream cannot write device memory (1 <= cap < 255).
std::unique_ptr<DeviceSumScan> device_sum_scan(Numbers& in, int r, double g, int cap);

// svaria_AppearanceSpacings' blocks of L bits (svaria_more.cpp's layout: L >= s, L / s numbers'
// s bits then L mod s bits of one more; s > L, s / L blocks a number, the lowest bits first) and
// the distance of each block to the last appearance of its value in its replication (the
// position itself where the value was not seen), a chunk of words at a time.
class DeviceAppearanceScan {
public:
    virtual ~DeviceAppearanceScan() = default;
    // Chunks of at most this many words.
    virtual std::size_t max_words() const = 0;
    // Reads the next `size` words (whole blocks of words, within one replication; `start` for a
    // replication's first chunk) and gives the distances of its blocks numbered `init` or more
    // in their replication, in order. False, with nothing read, where the test's first chunk
    // finds no device memory to write.
    virtual bool scan(std::size_t size, bool start, std::vector<std::uint32_t>& distances) = 0;
};
// nullptr, with nothing read, where the stream cannot write device memory (parameters as
// appearance_spacings accepts them; positions below 2^32).
std::unique_ptr<DeviceAppearanceScan> device_appearance_scan(
    Numbers& in, long init, int r, int s, int L);

// svaria_SampleMean's N sums of n StripD values each (0.0, then each value added in order), into
// a host array given to done; false, with nothing read and done never called, where the stream
// cannot write device memory.
bool device_sample_sums(
    Numbers& in, long N, long n, int r, const std::function<void(const double*)>& done);

} // namespace rngvet::native
