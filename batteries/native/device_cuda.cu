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
#include "device_calls.cuh"
#include "device_counts.hpp"

#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

namespace rngvet::native {

using device_calls::on_device;

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

bool device_maxima(Numbers& in, long N, long n, int r, int t, const GroupValuesDone& done)
{
    return on_device(in, "sknuth_MaxOft", [&]() -> std::optional<bool> {
        if (!device_counts::group_values(
                in, N, n, t, device_counts::MaxCell{ device_counts::strip_d_for(in, r), t }, done))
            return std::nullopt;
        return true;
    }).value_or(false);
}

bool device_products(Numbers& in, long N, long n, int r, int t, const GroupValuesDone& done)
{
    return on_device(in, "svaria_SampleProd", [&]() -> std::optional<bool> {
        if (!device_counts::group_values(in, N, n, t,
                device_counts::ProductCell{ device_counts::strip_d_for(in, r), t }, done))
            return std::nullopt;
        return true;
    }).value_or(false);
}

namespace {

class CudaGapScan : public DeviceGapScan {
public:
    CudaGapScan(Numbers& in, int r, double alpha, double beta, long t)
        : in_(in)
        , scan_(in, r, alpha, beta, t, device_counts::chunk_words)
    {
    }
    std::size_t max_words() const override { return scan_.max_words(); }
    bool scan(std::size_t size, long& first, long& visits, long& trailing,
        std::vector<long>& counts) override
    {
        return on_device(in_, "sknuth_Gap", [&]() -> std::optional<bool> {
            if (!scan_.scan(size, first, visits, trailing, counts)) return std::nullopt;
            return true;
        }).value_or(false);
    }

private:
    Numbers& in_;
    device_counts::GapScan scan_;
};

} // namespace

std::unique_ptr<DeviceGapScan> device_gap_scan(
    Numbers& in, int r, double alpha, double beta, long t)
{
    if (!in.fill_device(nullptr, 0)) return nullptr;
    return on_device(in, "sknuth_Gap", [&]() -> std::optional<std::unique_ptr<DeviceGapScan>> {
        return std::make_unique<CudaGapScan>(in, r, alpha, beta, t);
    }).value_or(nullptr);
}

} // namespace rngvet::native
