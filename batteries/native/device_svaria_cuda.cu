// device_svaria.hpp on CUDA: device_svaria_counts.hpp's algorithms compiled by nvcc for Thrust's
// CUDA system, with device_cuda.cu's options (--fmad=false: each addition of SumCollector's sums
// rounded as on the host) and its rules: device memory is taken on the calling thread's current
// device, the stream's own; where that memory or the device is not to be had before a word was
// read, the test runs its CPU path; once words were read, a failure is an error.
#include "device_calls.cuh"
#include "device_svaria.hpp"
#include "device_svaria_counts.hpp"

namespace rngvet::native {

using device_calls::on_device;

namespace {

// SumCollector's sub-blocks (a thread's own sequence) and how many a chain walks through at most
// to meet another (two chains of sums of g = 10 on random numbers meet after about a thousand
// numbers, rarely after more than a few thousand).
constexpr std::size_t sum_sub_words = 1024;
constexpr std::size_t sum_walk_limit = 64;

class CudaSumScan : public DeviceSumScan {
public:
    CudaSumScan(Numbers& in, int r, double g, int cap)
        : in_(in)
        , scan_(in, r, g, cap, device_counts::chunk_words, sum_sub_words, sum_walk_limit)
    {
    }
    std::size_t max_words() const override { return scan_.max_words(); }
    bool scan(std::size_t size, double& x, long& numbers, std::vector<long>& by_length,
        long& ends) override
    {
        return on_device(in_, "svaria_SumCollector", [&]() -> std::optional<bool> {
            if (!scan_.scan(size, x, numbers, by_length, ends)) return std::nullopt;
            return true;
        }).value_or(false);
    }

private:
    Numbers& in_;
    device_counts::SumScan scan_;
};

class CudaAppearanceScan : public DeviceAppearanceScan {
public:
    CudaAppearanceScan(Numbers& in, long init, int r, int s, int L)
        : in_(in)
        , scan_(in, init, r, s, L, device_counts::chunk_words)
    {
    }
    std::size_t max_words() const override { return scan_.max_words(); }
    bool scan(std::size_t size, bool start, std::vector<std::uint32_t>& distances) override
    {
        return on_device(in_, "svaria_AppearanceSpacings", [&]() -> std::optional<bool> {
            if (!scan_.scan(size, start, distances)) return std::nullopt;
            return true;
        }).value_or(false);
    }

private:
    Numbers& in_;
    device_counts::AppearanceScan scan_;
};

} // namespace

std::unique_ptr<DeviceSumScan> device_sum_scan(Numbers& in, int r, double g, int cap)
{
    if (!in.fill_device(nullptr, 0)) return nullptr;
    return on_device(in, "svaria_SumCollector",
        [&]() -> std::optional<std::unique_ptr<DeviceSumScan>> {
            return std::make_unique<CudaSumScan>(in, r, g, cap);
        })
        .value_or(nullptr);
}

std::unique_ptr<DeviceAppearanceScan> device_appearance_scan(
    Numbers& in, long init, int r, int s, int L)
{
    if (!in.fill_device(nullptr, 0)) return nullptr;
    return on_device(in, "svaria_AppearanceSpacings",
        [&]() -> std::optional<std::unique_ptr<DeviceAppearanceScan>> {
            return std::make_unique<CudaAppearanceScan>(in, init, r, s, L);
        })
        .value_or(nullptr);
}

bool device_sample_sums(
    Numbers& in, long N, long n, int r, const std::function<void(const double*)>& done)
{
    return on_device(in, "svaria_SampleMean", [&]() -> std::optional<bool> {
        if (!device_counts::group_values(in, 1, N, n,
                device_counts::MeanSum{
                    device_counts::strip_d_for(in, r), static_cast<device_counts::Index>(n) },
                [&](long, const double* sums) { done(sums); }))
            return std::nullopt;
        return true;
    }).value_or(false);
}

} // namespace rngvet::native
