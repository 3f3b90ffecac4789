#include "kernels/launch_plan.hpp"

#include "generators/error.hpp"
#include "kernels/mt_registers.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace rngvet {
namespace {

std::uint64_t blocks_of(std::uint64_t items, std::uint64_t per_block)
{
    return (items + per_block - 1) / per_block;
}

} // namespace

GridShape cuda_grid_shape(int multiprocessors)
{
    GridShape shape;
    shape.warps = ranmar_instances_per_block;
    shape.teams = cuda_mt_lane_teams;
    shape.tiled = true;
    shape.interleaved = true;
    shape.lanes = true;
    shape.registers = true;
    shape.mt_segments = true;
    shape.mt_segment_grid = true;
    shape.multiprocessors = multiprocessors;
    return shape;
}

// One warp (one lane team) per work-group, so that a group's barrier is a warp's.
GridShape opencl_grid_shape()
{
    GridShape shape;
    shape.tiled = true;
    shape.lanes = true;
    return shape;
}

// The host loops: ranmar_instances_per_block warps per block (the group loop takes whole
// blocks), jump-parallel MT on the reference engine.
GridShape openmp_grid_shape()
{
    GridShape shape;
    shape.warps = ranmar_instances_per_block;
    shape.mt_segments = true;
    return shape;
}

LaunchPlan::LaunchPlan(const RanmarSetup& setup, const GridShape& shape)
    : ranmar_(true)
{
    base_.ranmar = setup.params;
    const RanmarKernelParams& p = setup.params;
    // Jump-parallel under interleave: a block's warps are the same unit of neighbouring
    // instances, whose numbers are neighbours in the output (ranmar_interleaved_body).
    unsigned tile = 0; // 0: one warp per unit
    if (p.segments > 1 && p.layout == RNGVET_LAYOUT_INTERLEAVE && shape.interleaved)
        tile = ranmar_interleaved_choice(p.instances);
    if (tile != 0) {
        base_.grid = Grid::ranmar_interleaved;
        base_.per_block = tile;
        base_.blocks = blocks_of(p.instances, tile) * p.segments;
        base_.threads = tile * RNGVET_RANMAR_LANES;
    } else if (p.segments > 1) {
        base_.grid = Grid::ranmar_segments;
        base_.per_block = shape.warps;
        base_.blocks = blocks_of(p.instances * p.segments, shape.warps);
        base_.threads = shape.warps * RNGVET_RANMAR_LANES;
    } else if (p.layout != RNGVET_LAYOUT_SINGLE && shape.tiled) {
        base_.grid = Grid::ranmar_tiled;
        base_.blocks = blocks_of(p.instances, RNGVET_RANMAR_TILE);
        base_.threads = RNGVET_RANMAR_TILED_THREADS;
    } else {
        base_.grid = Grid::ranmar_warps;
        base_.per_block = shape.warps;
        base_.blocks = blocks_of(p.instances, shape.warps);
        base_.threads = shape.warps * RNGVET_RANMAR_LANES;
    }
}

LaunchPlan::LaunchPlan(const MtSetup& setup, const GridShape& shape)
    : ranmar_(false)
{
    const MtKernelParams& p = setup.params;
    if (setup.segments > 1 && shape.mt_segments) {
        base_.grid = Grid::mt_segments;
        base_.blocks = setup.unit_states.size();
        base_.threads = 1;
        if (shape.mt_segment_grid) {
            base_.blocks = blocks_of(setup.unit_states.size(), RNGVET_MT_SEG_WARPS);
            base_.threads = 32 * RNGVET_MT_SEG_WARPS;
        }
    } else if (shape.registers) {
        base_ = mt_register_choice(p, shape.multiprocessors);
        if (base_.grid == Grid::mt_lanes) {
            base_.per_block = shape.teams;
            base_.blocks = blocks_of(p.instances, RNGVET_MT_TEAM * shape.teams);
            base_.threads = 32 * shape.teams;
        }
    } else if (shape.lanes && mt_lanes_fit(p) != 0) {
        base_.grid = Grid::mt_lanes;
        base_.per_block = shape.teams;
        base_.blocks = blocks_of(p.instances, RNGVET_MT_TEAM * shape.teams);
        base_.threads = 32 * shape.teams;
    } else {
        base_.grid = Grid::mt_words;
    }
    if (base_.grid == Grid::mt_words) {
        base_.blocks = blocks_of(p.instances, RNGVET_MT_THREADS_PER_BLOCK);
        base_.threads = RNGVET_MT_THREADS_PER_BLOCK;
    }
    base_.mt = p;
}

unsigned ranmar_interleaved_choice(std::uint64_t instances)
{
    const char* env = std::getenv("RNGVET_RANMAR_KERNEL");
    const std::string forced = env ? env : "";
    if (forced.empty()) return instances >= 2 ? ranmar_interleaved_tile(instances) : 0;
    if (forced == "segments") return 0;
    const std::string prefix = "interleaved:";
    const std::string digits = forced.substr(std::min(prefix.size(), forced.size()));
    if (forced.rfind(prefix, 0) == 0 && digits.size() == 1 && digits[0] >= '1'
        && digits[0] <= '0' + RNGVET_RANMAR_ILV_TILE) {
        const std::uint64_t tile = static_cast<std::uint64_t>(digits[0] - '0');
        return static_cast<unsigned>(std::min(tile, std::max<std::uint64_t>(instances, 1)));
    }
    throw InputError("RNGVET_RANMAR_KERNEL='" + forced
        + "' is not segments or interleaved:T (T 1 to " + std::to_string(RNGVET_RANMAR_ILV_TILE)
        + ")");
}

Launch LaunchPlan::launch(std::uint64_t g0, std::uint64_t len, bool count_mode) const
{
    Launch l = base_;
    if (ranmar_) {
        l.ranmar.g0 = g0;
        l.ranmar.len = len;
        l.ranmar.count_mode = count_mode ? 1 : 0;
    } else {
        l.mt.g0 = g0;
        l.mt.len = len;
        l.mt.count_mode = count_mode ? 1 : 0;
    }
    return l;
}

std::vector<PlanBuffer> plan_buffers(const RanmarSetup& setup)
{
    return {
        { setup.state.data(), setup.state.size() * sizeof(std::uint64_t), "generator states" },
        { setup.jump.data(),
            setup.params.segments > 1 ? setup.jump.size() * sizeof(std::uint64_t) : 0,
            "jump polynomial" },
    };
}

std::vector<PlanBuffer> plan_buffers(const MtSetup& setup)
{
    return {
        { setup.state.data(), setup.state.size() * sizeof(std::uint32_t), "generator states" },
        { setup.position.data(), setup.position.size() * sizeof(std::uint32_t),
            "generator positions" },
        { setup.consts.data(), setup.consts.size() * sizeof(std::uint32_t), "parameter sets" },
        { setup.unit_words.data(), setup.unit_words.size() * sizeof(std::uint32_t),
            "jump-parallel units' states" },
        { setup.unit_position.data(), setup.unit_position.size() * sizeof(std::uint32_t),
            "jump-parallel units' positions" },
        { setup.unit_scratch.data(), setup.unit_scratch.size() * sizeof(std::uint32_t),
            "jump-parallel units' accumulators" },
        { setup.jump_bits.data(), setup.jump_bits.size() * sizeof(std::uint32_t),
            "jump polynomials" },
        { setup.jump_degree.data(), setup.jump_degree.size() * sizeof(std::uint32_t),
            "jump polynomials' degrees" },
    };
}

Launch mt_register_choice(const MtKernelParams& p, int multiprocessors)
{
    Launch words;
    words.grid = Grid::mt_words;
    Launch lanes;
    lanes.grid = Grid::mt_lanes;
    const bool lanes_fit = mt_lanes_fit(p) != 0;
    const std::uint64_t warps = blocks_of(p.instances, mt_register_warp);
    Launch registers;
    registers.grid = Grid::mt_registers;
    registers.per_block = warps < 4 * static_cast<std::uint64_t>(multiprocessors) ? 2 : 1;
    registers.blocks = warps;
    const char* env = std::getenv("RNGVET_MT_KERNEL");
    const std::string forced = env ? env : "";
    if (forced.empty()) {
        if (mt_registers_compiled(p) && p.instances >= mt_register_min_instances) {
            registers.threads = mt_register_warp * registers.per_block;
            return registers;
        }
        return lanes_fit ? lanes : words;
    }
    const std::string sets
        = "sets with nn=" + std::to_string(p.nn) + ", mm=" + std::to_string(p.mm);
    if (forced == "words") return words;
    if (forced == "lanes") {
        if (!lanes_fit) throw InputError("RNGVET_MT_KERNEL=lanes: no lane kernel for " + sets);
        return lanes;
    }
    if (forced.rfind("registers", 0) == 0) {
        if (forced == "registers:1" || forced == "registers:2")
            registers.per_block = static_cast<unsigned>(forced.back() - '0');
        else if (forced != "registers")
            throw InputError("RNGVET_MT_KERNEL='" + forced + "': the share is 1 or 2");
        if (!mt_registers_compiled(p))
            throw InputError("RNGVET_MT_KERNEL=" + forced + ": no register kernel for " + sets
                + " (it is compiled for nn=17, 19, 40 with mm=nn/2)");
        registers.threads = mt_register_warp * registers.per_block;
        return registers;
    }
    throw InputError("RNGVET_MT_KERNEL='" + forced
        + "' is not registers, registers:1, registers:2, lanes or words");
}

} // namespace rngvet
