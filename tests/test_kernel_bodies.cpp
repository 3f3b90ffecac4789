// Every kernel body (kernels/grid.hpp) on the CPU, run by the host grid (host_grid.hpp) with the
// blocks and threads the launch plan gives it on each backend (launch_plan.hpp), against the
// reference engines (make_stream), bit for bit: RANMAR's one-warp-per-instance, tiled and
// jump-parallel grids (one warp per unit, and the same unit of neighbouring instances per block
// under interleave), and the Mersenne Twister's one-thread-per-instance, lane, register and
// jump-parallel (one warp per unit) grids, over several launches of odd lengths that must
// continue one another. Each grid runs twice, its threads resumed in opposite orders between
// barriers, so that a race between two threads of a block shows as a difference, with
// block-shared scratch that starts as garbage, as a GPU's shared memory does.
#include "generators/configuration.hpp"
#include "generators/error.hpp"
#include "kernels/host_grid.hpp"
#include "kernels/launch_plan.hpp"
#include "kernels/mt_registers.hpp"
#include "support.hpp"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <gtest/gtest.h>
#include <string>
#include <vector>

namespace rngvet {
namespace {

using namespace rngvet_test;

// Block-shared scratch that starts every block as garbage.
template <class T> struct Scratch {
    explicit Scratch(std::size_t n)
        : words(n)
    {
    }
    void garble(std::uint64_t block)
    {
        for (std::size_t k = 0; k < words.size(); ++k)
            words[k] = static_cast<T>(0x9E3779B97F4A7C15ull * (block + k + 1));
    }
    T* at(std::size_t offset) { return words.data() + offset; }
    std::vector<T> words;
};

// --- A plan's launch on the host grid ---------------------------------------------------

void run_on_host(const Launch& l, RanmarSetup& setup, std::uint64_t* out, bool reverse)
{
    const RanmarKernelParams p = l.ranmar;
    std::uint64_t* const state = setup.state.data();
    const unsigned warps = l.per_block;
    if (l.grid == Grid::ranmar_warps) {
        Scratch<std::uint64_t> hist(warps * RNGVET_RANMAR_LAGS);
        host_launch(
            l.blocks, l.threads,
            [&](std::uint64_t b, unsigned t) {
                ranmar_warps_body(p, state, out, hist.at(0), b, t, warps);
            },
            reverse, [&](std::uint64_t b) { hist.garble(b); });
    } else if (l.grid == Grid::ranmar_tiled) {
        constexpr std::size_t hist = RNGVET_RANMAR_TILE * RNGVET_RANMAR_LAGS;
        constexpr std::size_t tile = 2 * RNGVET_RANMAR_TILE * RNGVET_RANMAR_TILE_PITCH;
        Scratch<std::uint64_t> s(hist + tile + 2 * RNGVET_RANMAR_TILE);
        host_launch(
            l.blocks, l.threads,
            [&](std::uint64_t b, unsigned t) {
                ranmar_tiled_body(p, state, out, s.at(0), s.at(hist), s.at(hist + tile),
                    s.at(hist + tile + RNGVET_RANMAR_TILE), b, t);
            },
            reverse, [&](std::uint64_t b) { s.garble(b); });
    } else if (l.grid == Grid::ranmar_interleaved) {
        // warps: the instances of a block's tile.
        const std::size_t ring = warps * RNGVET_RANMAR_SEG_SCRATCH;
        const std::size_t xch = warps * RNGVET_RANMAR_LANES;
        Scratch<std::uint64_t> s(ring + xch + RNGVET_RANMAR_ILV_TILE_WORDS);
        host_launch(
            l.blocks, l.threads,
            [&](std::uint64_t b, unsigned t) {
                ranmar_interleaved_body(p, state, setup.jump.data(), out, s.at(0), s.at(ring),
                    s.at(ring + xch), b, t, warps);
            },
            reverse, [&](std::uint64_t b) { s.garble(b); });
    } else {
        ASSERT_EQ(l.grid, Grid::ranmar_segments);
        Scratch<std::uint64_t> s(warps * (RNGVET_RANMAR_SEG_SCRATCH + RNGVET_RANMAR_LANES));
        host_launch(
            l.blocks, l.threads,
            [&](std::uint64_t b, unsigned t) {
                ranmar_segments_body(p, state, setup.jump.data(), out, s.at(0),
                    s.at(warps * RNGVET_RANMAR_SEG_SCRATCH), b, t, warps);
            },
            reverse, [&](std::uint64_t b) { s.garble(b); });
    }
}

template <int NN, bool Interleave, int Share>
void run_registers(const Launch& l, MtSetup& setup, std::uint64_t* out, bool reverse)
{
    host_launch(
        l.blocks, l.threads,
        [&](std::uint64_t b, unsigned t) {
            mt_registers_body<NN, Interleave, Share>(
                l.mt, setup.state.data(), setup.position.data(), setup.consts.data(), out, b, t);
        },
        reverse);
}

// The register grids the tests use: MT521 (nn 17) and MT607 (nn 19).
template <int NN>
void run_registers(const Launch& l, MtSetup& setup, std::uint64_t* out, bool reverse)
{
    const bool interleave = l.mt.layout == RNGVET_LAYOUT_INTERLEAVE;
    if (interleave && l.per_block == 1) run_registers<NN, true, 1>(l, setup, out, reverse);
    if (interleave && l.per_block == 2) run_registers<NN, true, 2>(l, setup, out, reverse);
    if (!interleave && l.per_block == 1) run_registers<NN, false, 1>(l, setup, out, reverse);
    if (!interleave && l.per_block == 2) run_registers<NN, false, 2>(l, setup, out, reverse);
}

void run_on_host(const Launch& l, MtSetup& setup, std::uint64_t* out, bool reverse)
{
    const MtKernelParams p = l.mt;
    std::uint32_t* const st = setup.state.data();
    std::uint32_t* const pos = setup.position.data();
    const std::uint32_t* const consts = setup.consts.data();
    if (l.grid == Grid::mt_words) {
        host_launch(
            l.blocks, l.threads,
            [&](std::uint64_t b, unsigned t) { mt_words_body(p, st, pos, consts, out, b, t); },
            reverse);
    } else if (l.grid == Grid::mt_segments) {
        host_launch(
            l.blocks, l.threads,
            [&](std::uint64_t b, unsigned t) {
                mt_segments_body(p, setup.unit_words.data(), setup.unit_position.data(),
                    setup.unit_scratch.data(), consts, setup.jump_bits.data(),
                    setup.jump_degree.data(), out, b, t);
            },
            reverse);
    } else if (l.grid == Grid::mt_lanes) {
        const unsigned teams = l.per_block;
        Scratch<std::uint32_t> sh(teams * RNGVET_MT_TEAM * RNGVET_MT_LANE_PITCH);
        host_launch(
            l.blocks, l.threads,
            [&](std::uint64_t b, unsigned t) {
                mt_lanes_body(p, st, pos, consts, out, sh.at(0), b, t, teams);
            },
            reverse, [&](std::uint64_t b) { sh.garble(b); });
    } else {
        ASSERT_EQ(l.grid, Grid::mt_registers);
        ASSERT_TRUE(p.nn == 17 || p.nn == 19) << p.nn;
        if (p.nn == 17)
            run_registers<17>(l, setup, out, reverse);
        else
            run_registers<19>(l, setup, out, reverse);
    }
}

const std::vector<std::uint64_t> odd_lengths = { 1000, 1, 333, 4097, 65 };

// n numbers of the setup's configuration, the plan's launches of odd_lengths (cycled) on the
// host grid, which must be the grid `expect`.
template <class Setup>
std::vector<std::uint64_t> on_host(
    Setup setup, const GridShape& shape, Grid expect, std::size_t n, bool reverse)
{
    const LaunchPlan plan(setup, shape);
    EXPECT_EQ(static_cast<int>(plan.grid()), static_cast<int>(expect));
    std::vector<std::uint64_t> out(n, ~std::uint64_t(0));
    std::size_t done = 0;
    for (std::size_t k = 0; done < n; ++k) {
        const std::uint64_t len
            = std::min<std::uint64_t>(odd_lengths[k % odd_lengths.size()], n - done);
        run_on_host(plan.launch(setup.start + done, len, false), setup, out.data() + done, reverse);
        done += static_cast<std::size_t>(len);
    }
    return out;
}

struct Backend {
    const char* name;
    GridShape shape;
};

const Backend backends[] = {
    { "cuda", cuda_grid_shape(132) },
    { "opencl", opencl_grid_shape() },
    { "openmp", openmp_grid_shape() },
};

// --- RANMAR ---------------------------------------------------------------------------

TEST(KernelBodies, RanmarGridsOfEveryBackendAreTheReference)
{
    constexpr std::size_t n = 8000;
    const Configuration cases[] = {
        ranmar_config("ranmar48x", 1, "single", "increment", 1802, 9373),
        ranmar_config("ranmar24", 7, "interleave", "hash", 1, 2, "keep", 5),
        ranmar_config("ranmar48", 20, "block:3", "increment", 1802, 9373, "smallest"),
        ranmar_config("ranmar48x", 18, "request:100", "stride:7", 77, 88, "keep", 1001),
    };
    for (const Configuration& c : cases) {
        const std::vector<std::uint64_t> want = reference(c, n);
        for (const Backend& b : backends)
            for (bool reverse : { false, true }) {
                const std::string how
                    = std::string(" on ") + b.name + (reverse ? ", reversed" : "");
                const bool tiled = b.shape.tiled && c.layout.kind != LayoutKind::single;
                const bool interleaved
                    = b.shape.interleaved && c.layout.kind == LayoutKind::interleave;
                SCOPED_TRACE(canonical_name(c) + how);
                EXPECT_TRUE(same_words(want,
                    on_host(ranmar_setup(c), b.shape,
                        tiled ? Grid::ranmar_tiled : Grid::ranmar_warps, n, reverse)));
                SCOPED_TRACE("jump-parallel, 3 units x 211 numbers");
                EXPECT_TRUE(same_words(want,
                    on_host(ranmar_setup(c, 3, 211), b.shape,
                        interleaved ? Grid::ranmar_interleaved : Grid::ranmar_segments, n,
                        reverse)));
            }
    }
}

// --- RANMAR jump-parallel under interleave (ranmar_interleaved_body) ----------------------

// The interleaved grid's launch of a setup for [g0, g0 + len), for any instance count (CUDA's
// plan takes it from 2 instances on; the body holds for 1 as well).
Launch interleaved_launch(const RanmarSetup& setup, std::uint64_t g0, std::uint64_t len)
{
    Launch l;
    l.grid = Grid::ranmar_interleaved;
    l.ranmar = setup.params;
    l.ranmar.g0 = g0;
    l.ranmar.len = len;
    l.per_block = ranmar_interleaved_tile(setup.instances);
    l.blocks = (setup.instances + l.per_block - 1) / l.per_block * setup.params.segments;
    l.threads = l.per_block * RNGVET_RANMAR_LANES;
    return l;
}

// Faults planted in a stream of interleaved launches; each must change what comes out.
enum class Fault {
    none,
    block_left_out, // the fourth launch (4097 numbers) runs every block but the last
    start_moved, // every launch counts the chunks from one combined index later
    tile_short, // the body is told one instance fewer per block than the launch has warps
    units_swapped, // the states of units (0, 0) and (1, 0) swapped after the first launch
};

// n numbers of the setup's configuration through interleaved launches of `lengths` (cycled).
std::vector<std::uint64_t> interleaved_on_host(RanmarSetup setup, std::size_t n, bool reverse,
    const std::vector<std::uint64_t>& lengths, Fault fault = Fault::none)
{
    std::vector<std::uint64_t> out(n, ~std::uint64_t(0));
    std::size_t done = 0;
    for (std::size_t k = 0; done < n; ++k) {
        const std::uint64_t len = std::min<std::uint64_t>(lengths[k % lengths.size()], n - done);
        Launch l = interleaved_launch(setup, setup.start + done, len);
        if (fault == Fault::block_left_out && k == 3) l.blocks -= 1;
        if (fault == Fault::start_moved) l.ranmar.start += 1;
        if (fault == Fault::tile_short) {
            // The body is told tile - 1 instances per block; the block keeps its warps.
            const unsigned tile = l.per_block - 1;
            const std::size_t ring = l.per_block * RNGVET_RANMAR_SEG_SCRATCH;
            const std::size_t xch = l.per_block * RNGVET_RANMAR_LANES;
            Scratch<std::uint64_t> s(ring + xch + RNGVET_RANMAR_ILV_TILE_WORDS);
            host_launch(
                l.blocks, l.threads,
                [&](std::uint64_t b, unsigned t) {
                    ranmar_interleaved_body(l.ranmar, setup.state.data(), setup.jump.data(),
                        out.data() + done, s.at(0), s.at(ring), s.at(ring + xch), b, t, tile);
                },
                reverse, [&](std::uint64_t b) { s.garble(b); });
        } else {
            run_on_host(l, setup, out.data() + done, reverse);
        }
        if (fault == Fault::units_swapped && k == 0) {
            std::uint64_t* a = setup.state.data();
            std::uint64_t* b = a + setup.params.segments * RNGVET_RANMAR_STRIDE;
            std::swap_ranges(a, a + RNGVET_RANMAR_STRIDE, b);
        }
        done += static_cast<std::size_t>(len);
    }
    return out;
}

// Interleaved instances 1, 2, 3, 8 (two whole tiles of 4) and 16 (four), chunk lengths and launches
// that are no multiple of a tile's step (32 N numbers), of a chunk or of a round of chunks,
// skips that put the chunks' first numbers on any instance: the body on the host grid, threads
// resumed in both orders, is the reference bit for bit, and CUDA's plan runs it from 2
// instances on with the blocks and threads it is written for.
TEST(KernelBodies, RanmarInterleavedJumpParallelIsTheReference)
{
    constexpr std::size_t n = 12000;
    struct Case {
        Configuration c;
        std::uint64_t segments, length;
    };
    const Case cases[] = {
        { ranmar_config("ranmar48", 1, "interleave", "increment", 1802, 9373), 3, 211 },
        { ranmar_config("ranmar24", 2, "interleave", "hash", 1, 2, "keep", 5), 4, 97 },
        { ranmar_config("ranmar48x", 3, "interleave", "stride:7", 77, 88, "keep", 1001), 5, 64 },
        { ranmar_config("ranmar48", 8, "interleave", "increment", 1802, 9373), 3, 211 },
        { ranmar_config("ranmar48", 8, "interleave", "hash", 3, 4, "smallest", 13), 2, 1000 },
        { ranmar_config("ranmar48x", 8, "interleave", "increment", 1802, 9373, "keep", 7), 7, 33 },
        { ranmar_config("ranmar24", 16, "interleave", "increment", 1802, 9373, "keep", 29), 3,
            100 },
        { ranmar_config("ranmar48", 16, "interleave", "hash", 9, 9), 2, 5 },
    };
    const std::vector<std::uint64_t> lengths[] = {
        odd_lengths, // 1000, 1, 333, 4097, 65
        { 257, 3, 8191, 16, 511 },
    };
    for (const Case& k : cases) {
        const Configuration& c = k.c;
        const std::vector<std::uint64_t> want = reference(c, n);
        const RanmarSetup setup = ranmar_setup(c, k.segments, k.length);
        const std::string what = canonical_name(c) + ", " + std::to_string(k.segments) + " units x "
            + std::to_string(k.length);
        if (c.instances >= 2) {
            const LaunchPlan plan(setup, backends[0].shape);
            const Launch got = plan.launch(setup.start, 4097, false);
            const Launch expect = interleaved_launch(setup, setup.start, 4097);
            EXPECT_EQ(got.grid, Grid::ranmar_interleaved) << what;
            EXPECT_EQ(got.blocks, expect.blocks) << what;
            EXPECT_EQ(got.threads, expect.threads) << what;
            EXPECT_EQ(got.per_block, expect.per_block) << what;
            EXPECT_EQ(got.per_block,
                static_cast<unsigned>(std::min(c.instances, RNGVET_RANMAR_ILV_TILE_CHOSEN)))
                << what;
            // Neither OpenCL nor OpenMP has the grid.
            EXPECT_NE(LaunchPlan(setup, backends[1].shape).grid(), Grid::ranmar_interleaved);
            EXPECT_NE(LaunchPlan(setup, backends[2].shape).grid(), Grid::ranmar_interleaved);
        }
        for (const auto& lens : lengths)
            for (bool reverse : { false, true }) {
                SCOPED_TRACE(what + ", launches of " + std::to_string(lens[0]) + ", ..."
                    + (reverse ? ", reversed" : ""));
                EXPECT_TRUE(same_words(want, interleaved_on_host(setup, n, reverse, lens)));
            }
    }
}

// RNGVET_RANMAR_KERNEL: `segments` gives CUDA's one warp per unit, `interleaved:T` blocks of T
// instances (a last block with fewer: 8 instances in tiles of 3, 16 in tiles of 5; tiles of 8,
// the largest, on 8 and 16), each the reference; other values are refused in one line naming the
// variable.
TEST(KernelBodies, RanmarInterleavedTileIsForcedOrRefused)
{
    constexpr std::size_t n = 9000;
    struct Forced {
        Configuration c;
        const char* kernel;
        Grid grid;
        unsigned tile;
    };
    const Configuration eight
        = ranmar_config("ranmar48", 8, "interleave", "increment", 1802, 9373, "keep", 11);
    const Configuration sixteen = ranmar_config("ranmar24", 16, "interleave", "hash", 5, 6);
    const Forced cases[] = {
        { eight, "segments", Grid::ranmar_segments, 4 },
        { eight, "interleaved:3", Grid::ranmar_interleaved, 3 },
        { eight, "interleaved:4", Grid::ranmar_interleaved, 4 },
        { sixteen, "interleaved:5", Grid::ranmar_interleaved, 5 },
        { eight, "interleaved:8", Grid::ranmar_interleaved, 8 },
        { sixteen, "interleaved:8", Grid::ranmar_interleaved, 8 },
        { ranmar_config("ranmar48x", 1, "interleave", "increment", 1802, 9373), "interleaved:8",
            Grid::ranmar_interleaved, 1 },
    };
    for (const Forced& f : cases) {
        const ScopedEnv env("RNGVET_RANMAR_KERNEL", f.kernel);
        const RanmarSetup setup = ranmar_setup(f.c, 3, 150);
        SCOPED_TRACE(canonical_name(f.c) + ", " + f.kernel);
        EXPECT_EQ(LaunchPlan(setup, backends[0].shape).launch(0, 1, false).per_block, f.tile);
        for (bool reverse : { false, true })
            EXPECT_TRUE(same_words(
                reference(f.c, n), on_host(setup, backends[0].shape, f.grid, n, reverse)));
    }
    {
        const ScopedEnv env("RNGVET_RANMAR_KERNEL", "");
        const RanmarSetup one
            = ranmar_setup(ranmar_config("ranmar48", 1, "interleave", "hash", 1, 2), 3, 150);
        EXPECT_EQ(LaunchPlan(one, backends[0].shape).grid(), Grid::ranmar_segments);
    }
    for (const char* kernel : { "interleaved:0", "interleaved:9", "interleaved:", "interleaved:44",
             "tiled", "Segments" }) {
        const ScopedEnv env("RNGVET_RANMAR_KERNEL", kernel);
        try {
            LaunchPlan(ranmar_setup(eight, 3, 150), backends[0].shape);
            ADD_FAILURE() << "RNGVET_RANMAR_KERNEL=" << kernel << " chose a grid";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("RNGVET_RANMAR_KERNEL"), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    }
}

// Each slot of a launch is written once (count mode: out[j] += 1), none outside it, and a
// planted fault in the launches, their start, the tile or the units' states changes the output.
TEST(KernelBodies, RanmarInterleavedWritesEachSlotOnceAndFaultsShow)
{
    const Configuration c
        = ranmar_config("ranmar48", 16, "interleave", "increment", 1802, 9373, "keep", 3);
    const RanmarSetup setup = ranmar_setup(c, 3, 100);
    for (const std::uint64_t g0 : { std::uint64_t(3), std::uint64_t(4800 + 3 + 17) })
        for (const std::uint64_t len :
            { std::uint64_t(1), std::uint64_t(15), std::uint64_t(5000), std::uint64_t(9601) }) {
            RanmarSetup s = setup;
            std::vector<std::uint64_t> out(len + 64, 0);
            Launch l = interleaved_launch(s, g0, len);
            l.ranmar.count_mode = 1;
            run_on_host(l, s, out.data() + 32, true);
            std::size_t wrong = 0;
            for (std::size_t j = 0; j < out.size(); ++j)
                wrong += out[j] != (j >= 32 && j < 32 + len ? 1u : 0u);
            EXPECT_EQ(wrong, 0u) << "launch of " << len << " at " << g0;
        }

    constexpr std::size_t n = 12000;
    const std::vector<std::uint64_t> want = reference(c, n);
    EXPECT_TRUE(same_words(want, interleaved_on_host(setup, n, false, odd_lengths)));
    for (const Fault f :
        { Fault::block_left_out, Fault::start_moved, Fault::tile_short, Fault::units_swapped }) {
        SCOPED_TRACE("fault " + std::to_string(static_cast<int>(f)));
        EXPECT_FALSE(same_words(want, interleaved_on_host(setup, n, false, odd_lengths, f)));
    }
}

// --- Mersenne Twister -----------------------------------------------------------------

TEST(KernelBodies, MtOneThreadPerInstanceIsTheReference)
{
    constexpr std::size_t n = 8000;
    const Configuration cases[] = {
        mt_config("mt19937", "", 1, "single", "same", { 5489 }),
        mt_config("mt19937", "", 3, "interleave", "increment", { 5489 }, 0, 7),
        mt_config("mtdc", "nvidia-sdk-mt607", 130, "block:5", "hash", { 9 }),
    };
    const ScopedEnv words("RNGVET_MT_KERNEL", "words"); // for the SDK's sets on CUDA
    for (const Configuration& c : cases) {
        const std::vector<std::uint64_t> want = reference(c, n);
        for (const Backend& b : { backends[0], backends[2] })
            for (bool reverse : { false, true }) {
                SCOPED_TRACE(canonical_name(c) + " on " + b.name + (reverse ? ", reversed" : ""));
                EXPECT_TRUE(
                    same_words(want, on_host(mt_setup(c), b.shape, Grid::mt_words, n, reverse)));
            }
    }
}

// DC sets the lane and register grids take: MT521 (nn 17) and the SDK's MT607 (nn 19).
std::vector<Configuration> mt_small_cases()
{
    return {
        mt_config("mtdc", "fixstars-mt521", 1, "single", "same", { 5 }),
        mt_config("mtdc", "fixstars-mt521", 32, "interleave", "hash", { 12345 }, 0, 3),
        mt_config("mtdc", "nvidia-sdk-mt607", 33, "block:7", "increment", { 5 }, 0, 1001),
        mt_config("mtdc", "nvidia-sdk-mt607", 9, "request:40", "stride:0x33ff", { 0 }),
    };
}

TEST(KernelBodies, MtLanesAreTheReference)
{
    constexpr std::size_t n = 8000;
    for (const Configuration& c : mt_small_cases()) {
        const std::vector<std::uint64_t> want = reference(c, n);
        for (const Backend& b : { backends[0], backends[1] }) // 8 teams per block, 1
            for (bool reverse : { false, true }) {
                SCOPED_TRACE(canonical_name(c) + " on " + b.name + (reverse ? ", reversed" : ""));
                EXPECT_TRUE(
                    same_words(want, on_host(mt_setup(c), b.shape, Grid::mt_lanes, n, reverse)));
            }
    }
}

TEST(KernelBodies, MtRegistersAreTheReference)
{
    constexpr std::size_t n = 8000;
    for (const Configuration& c : mt_small_cases()) {
        const std::vector<std::uint64_t> want = reference(c, n);
        for (const char* kernel : { "registers:1", "registers:2" }) {
            const ScopedEnv env("RNGVET_MT_KERNEL", kernel);
            for (bool reverse : { false, true }) {
                SCOPED_TRACE(canonical_name(c) + ", " + kernel + (reverse ? ", reversed" : ""));
                EXPECT_TRUE(same_words(
                    want, on_host(mt_setup(c), backends[0].shape, Grid::mt_registers, n, reverse)));
            }
        }
    }
}

// Jump-parallel MT on CUDA's grid (mt_segments_body, one warp per unit): 1, 2, 9 and 32
// instances, single, interleave, block:K and request:R, start offsets, chunks that launches of odd
// lengths cut anywhere, one, two and several rounds of chunks per launch.
TEST(KernelBodies, MtSegmentsAreTheReference)
{
    struct Case {
        Configuration c;
        std::uint64_t segments, length;
    };
    const Case cases[] = {
        { mt_config("mt19937", "", 1, "single", "same", { 5489 }, 0, 12345), 3, 211 },
        { mt_config("mtdc", "fixstars-mt521", 1, "single", "same", { 5 }), 7, 64 },
        { mt_config("mtdc", "fixstars-mt521", 2, "interleave", "hash", { 12345 }, 0, 3), 4, 100 },
        { mt_config("mtdc", "fixstars-mt521", 32, "block:7", "increment", { 5 }, 0, 1001), 2, 33 },
        { mt_config("mtdc", "nvidia-sdk-mt607", 32, "interleave", "stride:0x33ff", { 0 }, 0,
              (std::uint64_t(1) << 33) + 5),
            3, 50 },
        { mt_config("mtdc", "nvidia-sdk-mt607", 9, "request:40", "hash", { 3 }, 0, 77), 5, 45 },
    };
    constexpr std::size_t n = 8000;
    for (const Case& k : cases) {
        const std::vector<std::uint64_t> want = reference(k.c, n);
        for (bool reverse : { false, true }) {
            SCOPED_TRACE(canonical_name(k.c) + ", " + std::to_string(k.segments) + " units x "
                + std::to_string(k.length) + (reverse ? ", reversed" : ""));
            const MtSetup setup = mt_setup(k.c, k.segments, k.length);
            EXPECT_EQ(setup.params.segments, k.segments);
            EXPECT_TRUE(
                same_words(want, on_host(setup, backends[0].shape, Grid::mt_segments, n, reverse)));
        }
    }
}

// The same grid with a fault planted where each part of it could go wrong: a unit's jump
// polynomial, its state at a later chunk, the chunk length it counts with. Each must show.
TEST(KernelBodies, MtSegmentsFaultsShow)
{
    const Configuration c = mt_config("mtdc", "fixstars-mt521", 2, "interleave", "hash", { 7 });
    constexpr std::size_t n = 4000;
    const std::vector<std::uint64_t> want = reference(c, n);
    const MtSetup good = mt_setup(c, 4, 100);
    ASSERT_TRUE(same_words(want, on_host(good, backends[0].shape, Grid::mt_segments, n, false)));
    MtSetup poly = good; // one coefficient of instance 1's jump flipped
    poly.jump_bits[poly.params.jump_words + 3] ^= 1u << 5;
    EXPECT_FALSE(same_words(want, on_host(poly, backends[0].shape, Grid::mt_segments, n, false)));
    MtSetup state = good; // unit 2 (instance 0's third) one word off
    state.unit_words[2 * state.params.nn + 4] ^= 1u << 30;
    EXPECT_FALSE(same_words(want, on_host(state, backends[0].shape, Grid::mt_segments, n, false)));
    MtSetup length = good; // chunks counted one number short
    length.params.seg_length -= 1;
    EXPECT_FALSE(same_words(want, on_host(length, backends[0].shape, Grid::mt_segments, n, false)));
}

// CUDA's MT grid (launch_plan.hpp): registers from 2048 instances of sets it is compiled for,
// two warps per 32 instances where there are fewer than 4 warps per multiprocessor; else lanes
// where the sets allow, else words; RNGVET_MT_KERNEL forces one or is refused in one line.
TEST(KernelBodies, CudaMtGridFollowsItsRule)
{
    MtKernelParams p{};
    p.nn = 19;
    p.mm = 9;
    p.instances = 4096;
    EXPECT_EQ(mt_register_choice(p, 132).grid, Grid::mt_registers);
    EXPECT_EQ(mt_register_choice(p, 132).per_block, 2u); // 128 warps < 4 x 132
    EXPECT_EQ(mt_register_choice(p, 16).per_block, 1u);
    p.instances = 2047;
    EXPECT_EQ(mt_register_choice(p, 132).grid, Grid::mt_lanes);
    p.nn = 624;
    p.mm = 397;
    p.instances = 1 << 20;
    EXPECT_EQ(mt_register_choice(p, 132).grid, Grid::mt_words);
    for (const char* kernel : { "registers", "lanes", "registers:4", "fastest" }) {
        const ScopedEnv env("RNGVET_MT_KERNEL", kernel);
        try {
            mt_register_choice(p, 132);
            ADD_FAILURE() << "RNGVET_MT_KERNEL=" << kernel << " chose a grid for nn=624";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("RNGVET_MT_KERNEL"), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << what;
        }
    }
}

// The host grid's barrier: no thread passes it before every live thread of its block has
// reached it, whatever order the threads are resumed in.
TEST(KernelBodies, HostBarrierHoldsEveryThreadOfTheBlock)
{
    for (bool reverse : { false, true }) {
        std::vector<int> phase(64, 0);
        bool ordered = true;
        host_launch(
            3, 64,
            [&](std::uint64_t, unsigned t) {
                for (int k = 0; k < 5; ++k) {
                    phase[t] = k;
                    host_barrier();
                    for (int q : phase)
                        ordered = ordered && q == k;
                    host_barrier();
                }
            },
            reverse);
        EXPECT_TRUE(ordered);
    }
}

} // namespace
} // namespace rngvet
