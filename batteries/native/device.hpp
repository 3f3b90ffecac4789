// The per-replication counts of smarsa_BirthdaySpacings, smarsa_CollisionOver,
// svaria_WeightDistrib, sknuth_SimpPoker, sknuth_Permutation and sknuth_CollisionPermut computed
// on the CUDA device a stream runs on (device_counts.hpp's algorithms, built into
// device_cuda.cu), for the families' hooks (birthday_spacings.cpp, collision.cpp, max_oft.cpp,
// gap.cpp, sknuth_order.cpp): where counts come back, the family computes its p-value from them
// with the code of its CPU path.
//
// Each function decides at its start: nullopt, with nothing read, where the stream's words
// cannot be written into device memory (a stream on the host, a build without CUDA, no usable
// device, device memory short): the family then runs its CPU path. Once words were read,
// a failure throws std::runtime_error with a one-line message.
#pragma once

#include "source.hpp"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace rngvet::native {

struct BirthdaySpacingsParams; // birthday_spacings.hpp

// smarsa_BirthdaySpacings's collision counts Y, one per replication, for a test TestU01 does
// not decline.
std::optional<std::vector<long>> device_birthday_collisions(
    Numbers& in, const BirthdaySpacingsParams& p);

// smarsa_CollisionOver's number of distinct cells among the n overlapping t-tuples of each of
// its N replications, for parameters collision_over accepts.
std::optional<std::vector<std::uint64_t>> device_collision_over_distinct(
    Numbers& in, long N, long n, int r, long d, int t);

// svaria_WeightDistrib's histogram of W (0 .. k) for each of its N replications of n groups of k
// words, W the number of StripD(r) values in [alpha, beta).
std::optional<std::vector<std::vector<std::uint64_t>>> device_weight_histograms(
    Numbers& in, long N, long n, int r, long k, double alpha, double beta);

// sknuth_SimpPoker's histogram of the number of distinct StripL(r, d) values (0 .. k) in each
// hand of k words, for each of its N replications of n hands (2 <= d, k <= 127).
std::optional<std::vector<std::vector<std::uint64_t>>> device_poker_histograms(
    Numbers& in, long N, long n, int r, int d, int k);

// sknuth_Permutation's counts of its t! cells (smultin_GenerCellPermut) for each of its N
// replications of n groups of t words (t! of them fitting in device memory).
std::optional<std::vector<std::vector<std::uint64_t>>> device_permutation_histograms(
    Numbers& in, long N, long n, int r, int t);

// sknuth_CollisionPermut's number of distinct cells among the n groups of t words of each of its
// N replications (2 <= t <= 20).
std::optional<std::vector<std::uint64_t>> device_permutation_distinct(
    Numbers& in, long N, long n, int r, int t);

// For each of the N replications of n groups of t words of sknuth_MaxOft (the maxima, MaxU) or
// svaria_SampleProd (the products): the n values, then done(replication, values); false, with
// nothing read and done never called, where the stream cannot write device memory.
using GroupValuesDone = std::function<void(long, const double*)>;
bool device_maxima(Numbers& in, long N, long n, int r, int t, const GroupValuesDone& done);
bool device_products(Numbers& in, long N, long n, int r, int t, const GroupValuesDone& done);

// sknuth_Gap's scan of one block of words on the device (gap.cpp joins the blocks): the first
// visit of [alpha, beta) (-1 for none), the visits, the numbers after the last one, and
// counts[0..t] the gaps between visits by length, capped at t.
class DeviceGapScan {
public:
    virtual ~DeviceGapScan() = default;
    // Blocks of at most this many words.
    virtual std::size_t max_words() const = 0;
    // Reads the next `size` words and scans them. False, with nothing read, where the test's
    // first block finds no device memory to write (the test then reads on the host).
    virtual bool scan(
        std::size_t size, long& first, long& visits, long& trailing, std::vector<long>& counts)
        = 0;
};
// nullptr, with nothing read, where the stream cannot write device memory.
std::unique_ptr<DeviceGapScan> device_gap_scan(
    Numbers& in, int r, double alpha, double beta, long t);

} // namespace rngvet::native
