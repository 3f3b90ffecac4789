// device_tables.hpp in a build without CUDA (RNGVET_WITH_CUDA=OFF): no device, every test runs
// its CPU path.
#include "device_tables.hpp"

namespace rngvet::native {

std::optional<std::vector<std::vector<std::uint64_t>>> device_savir2_histograms(
    Numbers&, long, long, int, long, int, long)
{
    return std::nullopt;
}

std::optional<std::vector<std::vector<std::uint64_t>>> device_gcd_tables(
    Numbers&, long, long, int, int, int, int)
{
    return std::nullopt;
}

bool device_sorted_maxima(Numbers&, long, long, int, int, const SortedValuesDone&)
{
    return false;
}

} // namespace rngvet::native
