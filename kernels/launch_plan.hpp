// The launch plan of one generator configuration: which grid (kernels/grid.hpp) its launches
// run on a backend, with how many blocks and threads, the launch parameters, and the buffers
// the grid takes. One plan per generator (RANMAR, Mersenne Twister) and one device class per
// backend (openmp/, opencl/, cuda/) that uploads a plan's buffers once and runs its launches:
// copying the parameters, setting the launch's range and picking the grid are written here
// once instead of in every generator x backend pair.
#pragma once

#include "kernels/mt_device.hpp"
#include "kernels/ranmar_device.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rngvet {

enum class Grid {
    ranmar_warps, // ranmar_warps_body: one warp per instance
    ranmar_tiled, // ranmar_tiled_body: RNGVET_RANMAR_TILE instances per block
    ranmar_segments, // ranmar_segments_body: one warp per unit (jump-parallel)
    ranmar_interleaved, // ranmar_interleaved_body: the same unit of T instances per block
    mt_words, // mt_words_body: one thread per instance
    mt_lanes, // mt_lanes_body: RNGVET_MT_LANES threads per instance
    mt_registers, // mt_registers_body: the state in registers (CUDA)
    mt_segments, // jump-parallel MT: mt_segments_body, one warp per unit (CUDA); the
    // reference engine in OpenMP's host loop (mt_unit)
};

// What a backend's grids look like and which it has.
struct GridShape {
    unsigned warps = 1; // warps per block of the RANMAR one-warp grids
    unsigned teams = 1; // lane teams (warps) per block of the MT lane grid
    bool tiled = false; // the tiled RANMAR grid for every layout but single
    bool interleaved = false; // jump-parallel RANMAR under interleave: ranmar_interleaved
    bool lanes = false; // the MT lane grid where the sets allow it
    bool registers = false; // the MT register grid (chosen as mt_register_choice says)
    bool mt_segments = false; // jump-parallel MT (mt_segments)
    bool mt_segment_grid = false; // ... as mt_segments_body's grid (else one block per unit)
    int multiprocessors = 1; // for the register grid's share
};

// The backends' shapes (the CUDA trampolines and OpenCL wrappers are compiled for these).
inline constexpr unsigned cuda_mt_lane_teams = 8;
GridShape cuda_grid_shape(int multiprocessors);
GridShape opencl_grid_shape();
GridShape openmp_grid_shape();

// One launch: the grid, its blocks and threads per block, and the parameters of the launch.
struct Launch {
    Grid grid = Grid::ranmar_warps;
    std::uint64_t blocks = 0;
    unsigned threads = 0;
    unsigned per_block = 1; // warps, instances (ranmar_interleaved) or teams per block;
                            // mt_registers: the share (1 or 2)
    RanmarKernelParams ranmar{}; // RANMAR grids
    MtKernelParams mt{}; // MT grids
};

// A buffer a grid takes, uploaded once and kept on the device between launches. The grids take
// them in this order: RANMAR state (uint64), jump polynomial (uint64, empty without segments);
// MT state, positions, parameter constants, then (empty without segments) the units' states,
// positions and jump accumulators and the instances' jump polynomials and their degrees
// (uint32; mt_segments_body's buffers).
struct PlanBuffer {
    const void* data;
    std::size_t bytes;
    const char* what;
};

class LaunchPlan {
public:
    LaunchPlan(const RanmarSetup& setup, const GridShape& shape);
    LaunchPlan(const MtSetup& setup, const GridShape& shape);

    // The launch for combined indices [g0, g0 + len) (count_mode: out[j] += 1, for tests).
    Launch launch(std::uint64_t g0, std::uint64_t len, bool count_mode) const;
    Grid grid() const { return base_.grid; }
    bool ranmar() const { return ranmar_; }

private:
    Launch base_;
    bool ranmar_;
};

std::vector<PlanBuffer> plan_buffers(const RanmarSetup& setup);
std::vector<PlanBuffer> plan_buffers(const MtSetup& setup);

// CUDA's MT grid: the register grid where it is compiled for the sets' nn and there are at least
// mt_register_min_instances instances (fewer leave most of the GPU idle), else the lane grid
// where the sets allow it, else one thread per instance. The register grid's share is 2 where
// one warp per 32 instances would leave SMs with fewer warps than schedulers (4), else 1.
// RNGVET_MT_KERNEL (registers, registers:1, registers:2, lanes, words) forces one, for the
// exactness tests and the benchmark's comparison; InputError where it cannot run the sets.
inline constexpr std::uint64_t mt_register_min_instances = 2048;
Launch mt_register_choice(const MtKernelParams& p, int multiprocessors);

// CUDA's jump-parallel RANMAR under interleave: the instances per block of the interleaved grid
// (min(N, RNGVET_RANMAR_ILV_TILE_CHOSEN) from 2 instances on), or 0 for one warp per unit (1
// instance, whose numbers are neighbours already). RNGVET_RANMAR_KERNEL forces one:
// `segments` (0) or `interleaved:T` (T from 1 to RNGVET_RANMAR_ILV_TILE, at most N), for the
// exactness tests and the benchmark's comparison; InputError for any other value.
unsigned ranmar_interleaved_choice(std::uint64_t instances);

} // namespace rngvet
