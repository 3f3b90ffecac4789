// device_walks.hpp on CUDA: device_walks_counts.hpp's algorithms compiled by nvcc for Thrust's CUDA
// system, with device_cuda.cu's options and its rules: device memory is taken on the calling
// thread's current device, the stream's own; where that memory or the device is not to be had
// before a word was read, the test runs its CPU path; once words were read, a failure is an
// error.
#include "device_calls.cuh"
#include "device_walks.hpp"
#include "device_walks_counts.hpp"

namespace rngvet::native {

using device_calls::on_device;

std::optional<std::vector<long>> device_random_walk_counts(
    Numbers& in, long N, long n, int r, int s, long L)
{
    return on_device(in, "swalk_RandomWalk1",
        [&] { return device_counts::random_walk_counts(in, N, n, r, s, L); });
}

std::optional<std::vector<std::uint64_t>> device_serial_over_counts(
    Numbers& in, long n, int r, long d, int t)
{
    return on_device(
        in, "smarsa_SerialOver", [&] { return device_counts::serial_over_counts(in, n, r, d, t); });
}

} // namespace rngvet::native
