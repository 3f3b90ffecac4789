// device_tables.hpp on CUDA: device_tables_counts.hpp's algorithms compiled by nvcc for Thrust's
// CUDA system, with --fmad=false (batteries/native/CMakeLists.txt) as device_cuda.cu: Savir2's
// products and sums are rounded one by one, as on the host.
//
// As device_cuda.cu: memory is taken on the calling thread's current device, the stream's own;
// where it or the device is not to be had before a word was read, the test runs its CPU path;
// once words were read, a failure is an error.
#include "device_calls.cuh"
#include "device_tables.hpp"
#include "device_tables_counts.hpp"

namespace rngvet::native {

namespace counts = device_tables_counts;
using device_calls::on_device;

std::optional<std::vector<std::vector<std::uint64_t>>> device_savir2_histograms(
    Numbers& in, long N, long n, int r, long m, int t, long msup)
{
    return on_device(
        in, "smarsa_Savir2", [&] { return counts::savir2_histograms(in, N, n, r, m, t, msup); });
}

std::optional<std::vector<std::vector<std::uint64_t>>> device_gcd_tables(
    Numbers& in, long N, long n, int r, int s, int jmax, int kmax)
{
    return on_device(
        in, "smarsa_GCD", [&] { return counts::gcd_tables(in, N, n, r, s, jmax, kmax); });
}

bool device_sorted_maxima(Numbers& in, long N, long n, int r, int t, const SortedValuesDone& done)
{
    return on_device(in, "sknuth_MaxOft", [&]() -> std::optional<bool> {
        if (!counts::sorted_maxima(in, N, n, r, t, done)) return std::nullopt;
        return true;
    }).value_or(false);
}

} // namespace rngvet::native
