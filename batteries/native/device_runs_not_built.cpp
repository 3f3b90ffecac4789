// device_runs.hpp in a build without CUDA (RNGVET_WITH_CUDA=OFF): no device, every test runs its
// CPU path.
#include "device_runs.hpp"

namespace rngvet::native {

std::optional<std::vector<std::vector<std::uint64_t>>> device_period_histograms(
    Numbers&, long, long, int, int, const std::vector<std::uint32_t>&)
{
    return std::nullopt;
}

std::optional<std::vector<std::vector<OnesRuns>>> device_head_runs(
    Numbers&, long, long, int, int, long)
{
    return std::nullopt;
}

bool device_run_chunks(Numbers&, long, long, int, bool, const RunChunkDone&)
{
    return false;
}

std::unique_ptr<DeviceBitRunScan> device_bit_run_scan(Numbers&, int, int, int)
{
    return nullptr;
}

} // namespace rngvet::native
