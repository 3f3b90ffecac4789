// Mersenne Twister (mtdc, mt19937) on the backends: the host-side setup and each backend's
// kernel traits. One thread per instance, state word-major across instances (mt_kernel.hpp).
#pragma once

#include "generators/configuration.hpp"
#include "generators/gf2poly.hpp"
#include "generators/mt.hpp"
#include "kernels/device.hpp"
#include "kernels/mt_kernel.hpp"

#include <memory>

namespace rngvet {

struct MtSetup {
    MtKernelParams params{}; // g0, len and count_mode are set per launch
    std::vector<std::uint32_t> state; // params.nn rows of params.stride words
    std::vector<std::uint32_t> position; // k of each instance
    std::vector<std::uint32_t> consts; // 3 rows of params.stride words: aaa, maskB, maskC
    std::uint64_t start = 0; // combined index of the first launch (the configuration's skip)
    std::uint64_t instances = 0;
    int bits = 32;
    std::string name; // canonical_name of the configuration
    // Jump-parallel generation (OpenMP and CUDA, segments > 1; mt_kernel.hpp, "Jump-parallel
    // generation"): instance i's stream in chunks of `length`, counted from its position at
    // `start`, unit i * segments + s making chunks s, s + segments, ...; the unit's reference
    // state (at its first chunk), instance i's parameters and its jump by (segments - 1) *
    // length. OpenMP runs the reference states (mt_unit); the grid of mt_segments_body takes the
    // same in the buffers below (params.segments, seg_length, start and jump_words set).
    std::uint64_t segments = 1;
    std::uint64_t length = 0;
    std::vector<MtState> unit_states;
    std::vector<MtParams> instance_params;
    std::vector<Gf2Poly> jumps;
    std::vector<std::uint32_t> unit_words; // unit u's word w at u * nn + w
    std::vector<std::uint32_t> unit_position; // unit u's k
    std::vector<std::uint32_t> unit_scratch; // the units' jump accumulators (zeros)
    std::vector<std::uint32_t> jump_bits; // instance i's coefficient c at i * jump_words + c/32
    std::vector<std::uint32_t> jump_degree; // instance i's degree of its jump polynomial
};

// Seeds every instance as make_stream does and jumps it over its share of c.skip. Throws
// InputError when the instances do not share one layout (nn, mm, rr, shifts) or N*K is too
// large for 64-bit indices.
MtSetup mt_setup(const Configuration& config);
MtSetup mt_setup(const Configuration& config, std::uint64_t segments, std::uint64_t length);

// Writes instance i's state (stride-separated words) and position from a reference state.
void mt_device_state(const MtState& s, const MtParams& prm, std::uint64_t i, MtSetup& setup);

// CUDA runs fewer instances than this jump-parallel (MtKernels::plan): from 64 on, the lane
// kernel has 512 threads or more, and each unit pays a jump per chunk (to be measured: `rngvet
// bench --segments 1`).
inline constexpr int cuda_mt_segment_limit = 64;

// The Mersenne Twisters' kernels as the dispatch reads them (families.hpp): grids on every
// backend, and jump-parallel generation for few instances (plan): on OpenMP with chunks of at
// least 10 jumps' worth of numbers, on CUDA below cuda_mt_segment_limit instances with the GPUs'
// chunks (mt_segments_body).

struct MtKernels {
    static constexpr GeneratorFamily family = families::mt;
    static constexpr KernelForm form = KernelForm::grids;
    using Setup = MtSetup;
    static SegmentPlan plan(const Configuration& c, const BackendOptions& options);
    static Setup setup(const Configuration& c, const SegmentPlan& plan)
    {
        return mt_setup(c, plan.segments, plan.length);
    }
};

} // namespace rngvet
