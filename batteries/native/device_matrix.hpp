// The ranks of smarsa_MatrixRank's matrices computed on the CUDA device a stream runs on
// (device_matrix_counts.hpp's algorithms, built into device_matrix_cuda.cu), for matrix_rank.cpp:
// where the counts come back, the family computes its statistic from them with the code of its
// CPU path. As device.hpp: nullopt, with nothing read, where the stream's words cannot be written
// into device memory (a stream on the host, a build without CUDA, no usable device, device memory
// short); once words were read, a failure throws std::runtime_error with a one-line message.
#pragma once

#include "source.hpp"

#include <optional>
#include <vector>

namespace rngvet::native {

// smarsa_MatrixRank's counts of the ranks 0 .. min(l, k) of its N replications of n matrices
// (parameters as matrix_rank accepts them): hist[replication (min(l, k) + 1) + rank].
std::optional<std::vector<long>> device_matrix_rank_counts(
    Numbers& in, long N, long n, int r, int s, int l, int k);

} // namespace rngvet::native
