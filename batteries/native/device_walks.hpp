// The walks of swalk_RandomWalk1 and the cell counts of smarsa_SerialOver computed on the CUDA
// device a stream runs on (device_walks_counts.hpp's algorithms, built into
// device_walks_cuda.cu), for random_walk.cpp and smarsa_more.cpp: the words stay in device
// memory, only integer counts come back, and the family computes its statistics and p-values
// from them with the code of its CPU path.
//
// As device.hpp's functions: each decides at its start; nullopt, with nothing read, where the
// stream's words cannot be written into device memory (a stream on the host, a build without
// CUDA, no usable device, device memory short); the family then runs its CPU path. Once words
// were read, a failure throws std::runtime_error with a one-line message. Each reads exactly the
// numbers the family's CPU path reads, in the same order.
#pragma once

#include "source.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace rngvet::native {

// swalk_RandomWalk1's walks of one length L (L0 = L1 = L, even; 1 <= s <= 32, r + s <= 32) of
// its N replications of n walks, each walk reading L / s numbers and one more where s does not
// divide L: per replication the histograms of H, M, J, R and C, L + 1 counters each,
// hist[(replication 5 + statistic) (L + 1) + value] (random_walk.cpp's layout; J counted as 2 J).
std::optional<std::vector<long>> device_random_walk_counts(
    Numbers& in, long N, long n, int r, int s, long L);

// smarsa_SerialOver's counts of the k = d^t cells of one replication's n overlapping (circular)
// t-tuples of StripL(r, d) values, reading n numbers: count[cell], cells numbered as Horner's
// rule in base d over the tuple (its first value most significant). Parameters as serial_over
// accepts them (n > 4, 2 <= t <= n, d >= 2, d^t <= 2^28). Throws std::runtime_error, as the CPU
// path, where StripL gives a value outside [0, d).
std::optional<std::vector<std::uint64_t>> device_serial_over_counts(
    Numbers& in, long n, int r, long d, int t);

} // namespace rngvet::native
