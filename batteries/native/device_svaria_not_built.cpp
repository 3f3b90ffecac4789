// device_svaria.hpp in a build without CUDA (RNGVET_WITH_CUDA=OFF): no device, every test runs
// its CPU path.
#include "device_svaria.hpp"

namespace rngvet::native {

std::unique_ptr<DeviceSumScan> device_sum_scan(Numbers&, int, double, int)
{
    return nullptr;
}

std::unique_ptr<DeviceAppearanceScan> device_appearance_scan(Numbers&, long, int, int, int)
{
    return nullptr;
}

bool device_sample_sums(Numbers&, long, long, int, const std::function<void(const double*)>&)
{
    return false;
}

} // namespace rngvet::native
