// device_runs.hpp on CUDA: device_runs_counts.hpp's algorithms compiled by nvcc for Thrust's CUDA
// system, with --fmad=false (batteries/native/CMakeLists.txt) as device_cuda.cu: sknuth_Run
// compares StripD's values, each operation rounded as on the host.
//
// As device_cuda.cu: memory is taken on the calling thread's current device, the stream's own;
// where it or the device is not to be had before a word was read, the test runs its CPU path;
// once words were read, a failure is an error.
#include "device_calls.cuh"
#include "device_runs.hpp"
#include "device_runs_counts.hpp"

#include <cuda_runtime.h>
#include <stdexcept>
#include <string>

namespace rngvet::native {

namespace {

namespace counts = device_runs_counts;

using device_calls::on_device;

// sstring_Run's blocks: at most 2^26 bits (positions and classes of as many transitions, 768 MiB
// at most).
constexpr std::size_t bit_run_bits = std::size_t(1) << 26;

} // namespace

std::optional<std::vector<std::vector<std::uint64_t>>> device_period_histograms(
    Numbers& in, long N, long n, int r, int s, const std::vector<std::uint32_t>& correlations)
{
    return on_device(in, "sstring_PeriodsInStrings",
        [&] { return counts::period_histograms(in, N, n, r, s, correlations); });
}

std::optional<std::vector<std::vector<OnesRuns>>> device_head_runs(
    Numbers& in, long N, long n, int r, int s, long K)
{
    return on_device(
        in, "sstring_LongestHeadRun", [&] { return counts::head_runs(in, N, n, r, s, K); });
}

bool device_run_chunks(Numbers& in, long N, long n, int r, bool up, const RunChunkDone& chunk)
{
    return on_device(in, "sknuth_Run", [&]() -> std::optional<bool> {
        if (!counts::run_chunks(in, N, n, r, up, chunk)) return std::nullopt;
        return true;
    }).value_or(false);
}

namespace {

class CudaBitRunScan : public DeviceBitRunScan {
public:
    CudaBitRunScan(Numbers& in, int r, int s, int k)
        : in_(in)
        , scan_(in, r, s, k, bit_run_bits)
    {
    }
    std::size_t max_words() const override { return scan_.max_words(); }
    bool scan(std::size_t size, int prev, BitRunBlock& out) override
    {
        return on_device(in_, "sstring_Run", [&]() -> std::optional<bool> {
            if (!scan_.scan(size, prev, out)) return std::nullopt;
            return true;
        }).value_or(false);
    }

private:
    Numbers& in_;
    counts::BitRunScan scan_;
};

} // namespace

std::unique_ptr<DeviceBitRunScan> device_bit_run_scan(Numbers& in, int r, int s, int k)
{
    if (!in.fill_device(nullptr, 0)) return nullptr;
    return on_device(in, "sstring_Run", [&]() -> std::optional<std::unique_ptr<DeviceBitRunScan>> {
        return std::make_unique<CudaBitRunScan>(in, r, s, k);
    }).value_or(nullptr);
}

} // namespace rngvet::native
