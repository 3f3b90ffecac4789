// The bit counts of sstring_AutoCor, sstring_HammingIndep, sstring_HammingCorr and
// sstring_HammingWeight2 computed on the CUDA device a stream runs on (device_bits_counts.hpp's
// algorithms, built into device_bits_cuda.cu), for the families' hooks (bit_runs.cpp,
// hamming_indep.cpp, sstring_bits.cpp): the words stay in device memory, only integers come
// back (counts, tables, the weights of blocks), and the family computes its statistics and
// p-values from them with the code of its CPU path.
//
// As device.hpp's functions: each decides at its start; false or nullopt, with nothing read,
// where the stream's words cannot be written into device memory (a stream on the host, a build
// without CUDA, no usable device, device memory short); the family then runs its CPU path. Once
// words were read, a failure throws std::runtime_error with a one-line message. Each reads
// exactly the numbers the family's CPU path reads, in the same order.
#pragma once

#include "source.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace rngvet::native {

// sstring_AutoCor's A of each of its N replications: over the first K s bits of the string of
// StripB (r, s) values, the bits that differ from the bit d places further (a replication reads
// d / s + 1 + K numbers). Parameters as auto_cor accepts them (1 <= s, r + s <= 32, d >= 1).
std::optional<std::vector<std::uint64_t>> device_auto_cor_differing(
    Numbers& in, long N, long K, int r, int s, int d);

// For each of N replications, in order, a table of (L + 1) x (L + 1) counts, row-major, then
// done(replication, table).
using BitTableDone = std::function<void(long, const std::vector<std::uint64_t>&)>;

// sstring_HammingIndep's Counters: the n pairs of blocks of L bits of each replication counted
// by [weight of the first][weight of the second] (hamming_indep.cpp's layout of the blocks).
bool device_hamming_indep_tables(
    Numbers& in, long N, long n, int r, int s, int L, const BitTableDone& done);

// sstring_HammingCorr's Counters: the pairs of successive weights of the n blocks of L bits of
// each replication, [previous][next] (the first block has no pair).
bool device_hamming_corr_tables(
    Numbers& in, long N, long n, int r, int s, int L, const BitTableDone& done);

// sstring_HammingWeight2's blocks of L bits (n / L of them with L >= s; with L < s every block
// of the ceil((n / L) / (s / L)) numbers read): their weights in stream order, a run of them at a
// time, done(replication, weights, count); each replication's runs in order, then the next's.
using BlockWeightsDone = std::function<void(long, const long*, std::size_t)>;
bool device_hamming_weights(
    Numbers& in, long N, long n, int r, int s, long L, const BlockWeightsDone& done);

} // namespace rngvet::native
