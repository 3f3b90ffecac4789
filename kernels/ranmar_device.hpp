// RANMAR on the backends: the host-side setup (seeding, skip) and each backend's launcher.
#pragma once

#include "generators/configuration.hpp"
#include "generators/ranmar.hpp"
#include "kernels/device.hpp"
#include "kernels/ranmar_kernel.hpp"

#include <memory>

namespace rngvet {

// Instances (warps of 32 lanes) per block of the one-warp grids on CUDA and OpenMP (OpenCL: one
// per work-group).
inline constexpr int ranmar_instances_per_block = 4;

// Everything a launcher needs, prepared on the host from a validated configuration.
struct RanmarSetup {
    RanmarKernelParams params{}; // g0, len and count_mode are set per launch
    // units * RNGVET_RANMAR_STRIDE words, at `start`; unit i * S + s is instance i's chunk s.
    std::vector<std::uint64_t> state;
    std::uint64_t start = 0; // combined index of the first launch (the configuration's skip)
    std::uint64_t instances = 0;
    std::uint64_t units = 0; // instances * params.segments
    std::vector<std::uint64_t> jump; // segments > 1: the 97 words of RanmarJump::poly
    int bits = 0;
    std::string name; // canonical_name of the configuration
};

// Seeds every instance as make_stream does and jumps it over its share of c.skip. Throws
// InputError for configurations the kernels cannot run (N*K too large for 64-bit indices).
// segments > 1: jump-parallel generation (ranmar_kernel.hpp) with chunks of `length` numbers;
// unit (i, s) starts s * length numbers after instance i's start, and the jump by
// (segments - 1) * length is computed here, once.
RanmarSetup ranmar_setup(const Configuration& config);
RanmarSetup ranmar_setup(const Configuration& config, std::uint64_t segments, std::uint64_t length);

// How many units per instance and numbers per chunk a configuration runs with on a backend,
// for launches of `launch` numbers: segments 1 (one warp per instance) where the instances
// alone fill the device; else chunks of at least `min_length` numbers, as many units per
// instance as bring the
// device's units to about `target`, but no more than one chunk per unit and launch (a jump is
// 97 dot products of 97 terms, made once per chunk).
// forced_segments / forced_length, when not 0, replace the choice (tests, `rngvet bench`).
struct SegmentPlan {
    std::uint64_t segments = 1;
    std::uint64_t length = 0;
};
SegmentPlan plan_segments(std::uint64_t instances, std::uint64_t launch, std::uint64_t target,
    std::uint64_t min_length, std::uint64_t forced_segments = 0, std::uint64_t forced_length = 0);

// Writes the device state (RNGVET_RANMAR_STRIDE words, see ranmar_kernel.hpp) of a reference
// state that has made `position` numbers: slot (position + m) mod 97 = u[(i97 - m) mod 97].
void ranmar_device_state(const RanmarState& s, std::uint64_t position, std::uint64_t* words);

// device: index into opencl_device_names() / CUDA ordinal; -1 chooses (OpenCL: the
// RNGVET_OPENCL_DEVICE environment variable if set, else the first GPU, else the first device).
std::unique_ptr<KernelDevice> make_openmp_ranmar(const RanmarSetup& setup);
std::unique_ptr<KernelDevice> make_opencl_ranmar(const RanmarSetup& setup, int device);
std::unique_ptr<KernelDevice> make_cuda_ranmar(const RanmarSetup& setup, int device);

} // namespace rngvet
