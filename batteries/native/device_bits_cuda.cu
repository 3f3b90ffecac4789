// device_bits.hpp on CUDA: device_bits_counts.hpp's algorithms compiled by nvcc for Thrust's CUDA
// system, with the options of device_cuda.cu (batteries/native/CMakeLists.txt). Only integers
// are computed here; device memory is taken on the calling thread's current device, the
// stream's own (device_cuda.cu says more). Where that memory or the device is not to be had
// before a word was read, the test runs its CPU path; once words were read, a failure is an
// error.
#include "device_bits.hpp"
#include "device_bits_counts.hpp"
#include "device_calls.cuh"

#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

namespace rngvet::native {

namespace {

using device_calls::on_device;

// A device_bits_counts function that returns false where it read nothing, on_device.
template <class Count> bool on_device_bool(Numbers& in, const char* test, const Count& count)
{
    return on_device(in, test, [&]() -> std::optional<bool> {
        if (!count()) return std::nullopt;
        return true;
    }).value_or(false);
}

} // namespace

std::optional<std::vector<std::uint64_t>> device_auto_cor_differing(
    Numbers& in, long N, long K, int r, int s, int d)
{
    return on_device(
        in, "sstring_AutoCor", [&] { return device_counts::auto_cor_counts(in, N, K, r, s, d); });
}

bool device_hamming_indep_tables(
    Numbers& in, long N, long n, int r, int s, int L, const BitTableDone& done)
{
    return on_device_bool(in, "sstring_HammingIndep",
        [&] { return device_counts::hamming_indep_counts(in, N, n, r, s, L, done); });
}

bool device_hamming_corr_tables(
    Numbers& in, long N, long n, int r, int s, int L, const BitTableDone& done)
{
    return on_device_bool(in, "sstring_HammingCorr",
        [&] { return device_counts::hamming_corr_counts(in, N, n, r, s, L, done); });
}

bool device_hamming_weights(
    Numbers& in, long N, long n, int r, int s, long L, const BlockWeightsDone& done)
{
    return on_device_bool(in, "sstring_HammingWeight2",
        [&] { return device_counts::hamming_weight_blocks(in, N, n, r, s, L, done); });
}

} // namespace rngvet::native
