// device.hpp on CUDA: device_counts.hpp's algorithms compiled by nvcc for Thrust's CUDA system.
//
// Compiled with --fmad=false (batteries/native/CMakeLists.txt): StripL's
// (long) (d * (2^r U - (long) 2^r U)) must be rounded as the host rounds it, each operation on
// its own; nvcc's default contracts a product and an addition into one fused multiply-add,
// rounded once.
//
// Device memory is taken on the calling thread's current device, the stream's own: the CUDA
// backend selects its device on the thread that creates the stream and again at each launch.
// Where that memory or the device is not to be had before a word was read (no device, device
// memory short), the test runs its CPU path; once words were read, a failure is an error.
#include "device.hpp"
#include "device_counts.hpp"

#include <cuda_runtime.h>
#include <new>
#include <stdexcept>
#include <string>
#include <thrust/system_error.h>

namespace rngvet::native {

namespace {

std::string one_line(std::string s)
{
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return s;
}

// Runs `count` (a device_counts function); nullopt where it fails before reading a word.
template <class Count>
auto on_device(Numbers& in, const char* test, const Count& count) -> decltype(count())
{
    const std::uint64_t before = in.consumed();
    try {
        return count();
    } catch (const std::bad_alloc& e) {
        cudaGetLastError(); // an allocation failure is not sticky: clear it
        if (in.consumed() == before) return std::nullopt;
        throw std::runtime_error(
            std::string(test) + " on CUDA: device memory short: " + one_line(e.what()));
    } catch (const thrust::system_error& e) {
        cudaGetLastError();
        if (in.consumed() == before) return std::nullopt;
        throw std::runtime_error(std::string(test) + " on CUDA: " + one_line(e.what()));
    }
}

} // namespace

std::optional<std::vector<long>> device_birthday_collisions(
    Numbers& in, const BirthdaySpacingsParams& p)
{
    return on_device(in, "smarsa_BirthdaySpacings",
        [&] { return device_counts::birthday_spacings_counts(in, p); });
}

std::optional<std::vector<std::uint64_t>> device_collision_over_distinct(
    Numbers& in, long N, long n, int r, long d, int t)
{
    return on_device(in, "smarsa_CollisionOver",
        [&] { return device_counts::collision_over_counts(in, N, n, r, d, t); });
}

std::optional<std::vector<std::vector<std::uint64_t>>> device_weight_histograms(
    Numbers& in, long N, long n, int r, long k, double alpha, double beta)
{
    return on_device(in, "svaria_WeightDistrib", [&] {
        return device_counts::group_histograms(in, N, n, k, static_cast<std::uint64_t>(k) + 1,
            device_counts::WeightCell{ device_counts::strip_d_for(in, r), alpha, beta,
                static_cast<device_counts::Index>(k) });
    });
}

std::optional<std::vector<std::vector<std::uint64_t>>> device_poker_histograms(
    Numbers& in, long N, long n, int r, int d, int k)
{
    return on_device(in, "sknuth_SimpPoker", [&] {
        return device_counts::group_histograms(in, N, n, k, static_cast<std::uint64_t>(k) + 1,
            device_counts::PokerCell{
                device_counts::strip_for(in, r, d), static_cast<device_counts::Index>(k) });
    });
}

std::optional<std::vector<std::vector<std::uint64_t>>> device_permutation_histograms(
    Numbers& in, long N, long n, int r, int t)
{
    return on_device(in, "sknuth_Permutation", [&] {
        return device_counts::group_histograms(in, N, n, t, device_counts::factorial(t),
            device_counts::PermutationCell{ device_counts::strip_d_for(in, r), t });
    });
}

std::optional<std::vector<std::uint64_t>> device_permutation_distinct(
    Numbers& in, long N, long n, int r, int t)
{
    return on_device(in, "sknuth_CollisionPermut", [&] {
        return device_counts::group_distinct(
            in, N, n, t, device_counts::PermutationCell{ device_counts::strip_d_for(in, r), t });
    });
}

} // namespace rngvet::native
