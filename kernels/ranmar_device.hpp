// RANMAR on the backends: the host-side setup (seeding, skip) and the family's kernel traits.
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

// Writes the device state (RNGVET_RANMAR_STRIDE words, see ranmar_kernel.hpp) of a reference
// state that has made `position` numbers: slot (position + m) mod 97 = u[(i97 - m) mod 97].
void ranmar_device_state(const RanmarState& s, std::uint64_t position, std::uint64_t* words);

// RANMAR's kernels as the dispatch reads them (families.hpp): grids on every backend, and
// jump-parallel generation for few instances with chunks of at least 32768 numbers on OpenMP
// and 4096 on the GPUs.
struct RanmarKernels {
    static constexpr GeneratorFamily family = families::ranmar;
    static constexpr KernelForm form = KernelForm::grids;
    using Setup = RanmarSetup;
    static SegmentPlan plan(const Configuration& c, const BackendOptions& options)
    {
        return segment_plan(c, options, 32768, 4096);
    }
    static Setup setup(const Configuration& c, const SegmentPlan& plan)
    {
        return ranmar_setup(c, plan.segments, plan.length);
    }
};

} // namespace rngvet
