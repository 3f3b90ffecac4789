// device_bits.hpp in a build without CUDA (RNGVET_WITH_CUDA=OFF): no device, every test runs its
// CPU path.
#include "device_bits.hpp"

namespace rngvet::native {

std::optional<std::vector<std::uint64_t>> device_auto_cor_differing(
    Numbers&, long, long, int, int, int)
{
    return std::nullopt;
}

bool device_hamming_indep_tables(Numbers&, long, long, int, int, int, const BitTableDone&)
{
    return false;
}

bool device_hamming_corr_tables(Numbers&, long, long, int, int, int, const BitTableDone&)
{
    return false;
}

bool device_hamming_weights(Numbers&, long, long, int, int, long, const BlockWeightsDone&)
{
    return false;
}

} // namespace rngvet::native
