// RANMAR on the backends: the host-side setup (seeding, skip) and each backend's launcher.
#pragma once

#include "generators/configuration.hpp"
#include "generators/ranmar.hpp"
#include "kernels/device.hpp"
#include "kernels/ranmar_kernel.hpp"

#include <memory>

namespace rngvet {

// Instances (warps of 32 lanes) per block / work-group, on every backend.
inline constexpr int ranmar_instances_per_block = 4;

// Everything a launcher needs, prepared on the host from a validated configuration.
struct RanmarSetup {
    RanmarKernelParams params{}; // g0, len and count_mode are set per launch
    std::vector<std::uint64_t> state; // instances * RNGVET_RANMAR_STRIDE words, at `start`
    std::uint64_t start = 0; // combined index of the first launch (the configuration's skip)
    std::uint64_t instances = 0;
    std::uint64_t blocks = 0; // ceil(instances / ranmar_instances_per_block)
    int bits = 0;
    std::string name; // canonical_name of the configuration
};

// Seeds every instance as make_stream does and jumps it over its share of c.skip. Throws
// InputError for configurations the kernels cannot run (N*K too large for 64-bit indices).
RanmarSetup ranmar_setup(const Configuration& config);

// Writes the device state (RNGVET_RANMAR_STRIDE words, see ranmar_kernel.hpp) of a reference
// state that has made `position` numbers: slot (position + m) mod 97 = u[(i97 - m) mod 97].
void ranmar_device_state(const RanmarState& s, std::uint64_t position, std::uint64_t* words);

// device: index into opencl_device_names() / CUDA ordinal; -1 chooses (OpenCL: the
// RNGVET_OPENCL_DEVICE environment variable if set, else the first GPU, else the first device).
std::unique_ptr<KernelDevice> make_openmp_ranmar(const RanmarSetup& setup);
std::unique_ptr<KernelDevice> make_opencl_ranmar(const RanmarSetup& setup, int device);
std::unique_ptr<KernelDevice> make_cuda_ranmar(const RanmarSetup& setup, int device);

} // namespace rngvet
