// The ranks of smarsa_MatrixRank's matrices and the segments of sknuth_CouponCollector computed on
// the CUDA device a stream runs on (device_matrix_counts.hpp's algorithms, built into
// device_matrix_cuda.cu), for matrix_rank.cpp and gap.cpp: where the counts come back, the family
// computes its statistic from them with the code of its CPU path. As device.hpp: nullopt, with
// nothing read, where the stream's words cannot be written into device memory (a stream on the
// host, a build without CUDA, no usable device, device memory short); once words were read, a
// failure throws std::runtime_error with a one-line message.
#pragma once

#include "source.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

namespace rngvet::native {

// smarsa_MatrixRank's counts of the ranks 0 .. min(l, k) of its N replications of n matrices
// (parameters as matrix_rank accepts them): hist[replication (min(l, k) + 1) + rank].
std::optional<std::vector<long>> device_matrix_rank_counts(
    Numbers& in, long N, long n, int r, int s, int l, int k);

// sknuth_CouponCollector's scan of one block of words on the device (gap.cpp joins the blocks and
// bounds them): the segments that end in it, by class (by_class[0..62]: a segment's length, or 62
// for 61 numbers without all d values), from the segment open before it (reads, seen, distinct:
// its numbers, the StripL(r, d) values among them as bits, how many), then left open after it.
class DeviceCouponScan {
public:
    virtual ~DeviceCouponScan() = default;
    // Blocks of at most this many words.
    virtual std::size_t max_words() const = 0;
    // Reads the next `size` words and scans them. False, with nothing read, where the test's
    // first block finds no device memory to write (the test then reads on the host).
    virtual bool scan(std::size_t size, long& reads, std::uint64_t& seen, int& distinct,
        std::vector<long>& by_class)
        = 0;
};
// nullptr, with nothing read, where the stream cannot write device memory (2 <= d <= 61).
std::unique_ptr<DeviceCouponScan> device_coupon_scan(Numbers& in, int r, int d);

} // namespace rngvet::native
