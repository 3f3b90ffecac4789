// device.hpp in a build without CUDA (RNGVET_WITH_CUDA=OFF): no device, every test runs its CPU
// path.
#include "device.hpp"

namespace rngvet::native {

std::optional<std::vector<long>> device_birthday_collisions(Numbers&, const BirthdaySpacingsParams&)
{
    return std::nullopt;
}

std::optional<std::vector<std::uint64_t>> device_collision_over_distinct(
    Numbers&, long, long, int, long, int)
{
    return std::nullopt;
}

std::optional<std::vector<std::vector<std::uint64_t>>> device_weight_histograms(
    Numbers&, long, long, int, long, double, double)
{
    return std::nullopt;
}

std::optional<std::vector<std::vector<std::uint64_t>>> device_poker_histograms(
    Numbers&, long, long, int, int, int)
{
    return std::nullopt;
}

std::optional<std::vector<std::vector<std::uint64_t>>> device_permutation_histograms(
    Numbers&, long, long, int, int)
{
    return std::nullopt;
}

std::optional<std::vector<std::uint64_t>> device_permutation_distinct(
    Numbers&, long, long, int, int)
{
    return std::nullopt;
}

} // namespace rngvet::native
