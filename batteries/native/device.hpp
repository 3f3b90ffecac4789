// The per-replication counts of smarsa_BirthdaySpacings and smarsa_CollisionOver computed on the
// CUDA device a stream runs on (device_counts.hpp's algorithms, built into device_cuda.cu), for
// the families' hooks (birthday_spacings.cpp, collision.cpp): where a count vector comes back,
// the family computes its p-value from it with the code of its CPU path.
//
// Each function decides at its start: nullopt, with nothing read, where the stream's words
// cannot be written into device memory (a stream on the host, a build without CUDA, no usable
// device, device memory short): the family then runs its CPU path. Once words were read,
// a failure throws std::runtime_error with a one-line message.
#pragma once

#include "birthday_spacings.hpp"
#include "source.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace rngvet::native {

// smarsa_BirthdaySpacings's collision counts Y, one per replication, for a test TestU01 does
// not decline.
std::optional<std::vector<long>> device_birthday_collisions(
    Numbers& in, const BirthdaySpacingsParams& p);

// smarsa_CollisionOver's number of distinct cells among the n overlapping t-tuples of each of
// its N replications, for parameters collision_over accepts.
std::optional<std::vector<std::uint64_t>> device_collision_over_distinct(
    Numbers& in, long N, long n, int r, long d, int t);

} // namespace rngvet::native
