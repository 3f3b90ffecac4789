// device_walks.hpp in a build without CUDA (RNGVET_WITH_CUDA=OFF): no device, every test runs its
// CPU path.
#include "device_walks.hpp"

namespace rngvet::native {

std::optional<std::vector<long>> device_random_walk_counts(Numbers&, long, long, int, int, long)
{
    return std::nullopt;
}

std::optional<std::vector<std::uint64_t>> device_serial_over_counts(Numbers&, long, int, long, int)
{
    return std::nullopt;
}

} // namespace rngvet::native
