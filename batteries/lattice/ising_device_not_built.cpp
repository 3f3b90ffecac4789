// ising_device.hpp in a build without CUDA (RNGVET_WITH_CUDA=OFF): no device, every replica
// runs on the host.
#include "batteries/lattice/ising_device.hpp"

namespace rngvet::lattice {

std::optional<DeviceMetropolisResult> device_metropolis(native::Numbers&, const DeviceMetropolis&)
{
    return std::nullopt;
}

std::optional<DeviceWolffResult> device_wolff(native::Numbers&, const DeviceWolff&)
{
    return std::nullopt;
}

} // namespace rngvet::lattice
