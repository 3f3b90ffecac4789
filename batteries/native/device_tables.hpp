// The per-replication tables of smarsa_Savir2 and smarsa_GCD, and sknuth_MaxOft's maxima in
// increasing order, computed on the CUDA device a stream runs on (device_tables_counts.hpp's
// algorithms, built into device_tables_cuda.cu), for the families' hooks (smarsa_more.cpp,
// max_oft.cpp): the integer tables (or the sorted maxima) come back and the family computes its
// statistics and p-values from them with the code of its CPU path.
//
// As device.hpp: each function decides at its start (nullopt, with nothing read, where the
// stream's words cannot be written into device memory: the family then runs its CPU path); once
// words were read, a failure throws std::runtime_error with a one-line message.
#pragma once

#include "source.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace rngvet::native {

// smarsa_Savir2's final I (I = m, then t times I = 1 + StripD(r) * I, TestU01's double
// operations), clamped to msup, of each of the n groups of t words of each of N replications: N
// rows of msup + 1 counts (row[I], I = 1 .. msup; row[0] is 0).
std::optional<std::vector<std::vector<std::uint64_t>>> device_savir2_histograms(
    Numbers& in, long N, long n, int r, long m, int t, long msup);

// smarsa_GCD's pairs of StripB(r, s) values, n pairs without a zero in each of N replications (a
// pair with a zero is read and dropped, exactly the numbers TestU01 reads): for each replication
// a row of 1 + (jmax + 1) (kmax + 1) counts, row[0] the pairs dropped and row[1 + g (kmax + 1) + k]
// the pairs of GCD min(g', jmax) = g found in min(k', kmax) = k steps of Euclid's algorithm.
std::optional<std::vector<std::vector<std::uint64_t>>> device_gcd_tables(
    Numbers& in, long N, long n, int r, int s, int jmax, int kmax);

// sknuth_MaxOft's maxima (MaxU of each of the n groups of t words, as device_maxima computes them)
// of each of its N replications, sorted in increasing order: done(replication, the n values);
// false, with nothing read and done never called, where the stream cannot write device memory.
using SortedValuesDone = std::function<void(long, const double*)>;
bool device_sorted_maxima(Numbers& in, long N, long n, int r, int t, const SortedValuesDone& done);

} // namespace rngvet::native
