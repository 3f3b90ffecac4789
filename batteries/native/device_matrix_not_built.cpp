// device_matrix.hpp in a build without CUDA (RNGVET_WITH_CUDA=OFF): no device, every test runs
// its CPU path.
#include "device_matrix.hpp"

namespace rngvet::native {

std::optional<std::vector<long>> device_matrix_rank_counts(Numbers&, long, long, int, int, int, int)
{
    return std::nullopt;
}

std::unique_ptr<DeviceCouponScan> device_coupon_scan(Numbers&, int, int)
{
    return nullptr;
}

} // namespace rngvet::native
