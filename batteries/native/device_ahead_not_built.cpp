// device_ahead.hpp in a build without CUDA (RNGVET_WITH_CUDA=OFF): no device, Gap runs its CPU
// path.
#include "device_ahead.hpp"

namespace rngvet::native {

std::unique_ptr<DeviceGapAhead> device_gap_ahead(Numbers&, int, double, double, long, long)
{
    return nullptr;
}

} // namespace rngvet::native
