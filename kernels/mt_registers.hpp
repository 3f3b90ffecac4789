// The Mersenne Twister register grid (C++: CUDA and the host grid, not OpenCL C): each
// instance's nn state words live in registers for the whole launch, for DC sets with
// mm = nn / 2 and an nn compiled in (NN). Register w holds the word at position pos + w (mod nn)
// throughout; the loop is unrolled so that every index is a constant, and step r replaces
// register w = r mod nn from registers w, w + 1 and w + mm (mt_twist, mt_temper of
// mt_kernel.hpp). The nn - mm steps whose inputs are all older words are independent: that much
// instruction-level parallelism per thread. Lane l of every warp of block b runs instance
// 32 b + l; a block has Share warps (1 or 2) and each runs the whole recurrence, but warp q
// tempers and stores only the instance's numbers t with t - first = q (mod Share): with few
// instances (the SDK's 4096 are 128 warps on 132 SMs) that puts two warps on two schedulers
// where one would issue alone. (Four warps were measured slower than one: docs/benchmarks.md,
// run 6.) Under interleave a warp's store is 32 neighbouring words. The state is word-major in
// global memory between launches, as for the other grids; warp 0 writes it back, after a
// barrier that follows every warp's load.
#pragma once

#include "kernels/grid.hpp"
#include "kernels/mt_kernel.hpp"

#if defined(__CUDACC__)
#define RV_UNROLL _Pragma("unroll")
#else
#define RV_UNROLL
#endif

namespace rngvet {

constexpr int mt_register_warp = 32;

// The nn values the register grid is compiled for (DC sets of MT521, MT607 and MT1279).
inline bool mt_registers_compiled(const MtKernelParams& p)
{
    return p.mm == p.nn / 2 && (p.nn == 17 || p.nn == 19 || p.nn == 40);
}

template <int NN, bool Interleave, int Share, int Q>
RV_BODY void mt_registers_run(const MtKernelParams& p, std::uint32_t (&x)[NN], std::uint32_t* st,
    std::uint32_t* pos, const std::uint32_t* consts, std::uint64_t* out, std::uint64_t i,
    std::uint32_t k0)
{
    constexpr int MM = NN / 2;
    constexpr int Round = NN * Share; // after Round steps, registers and owners repeat
    const std::uint64_t first = rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0);
    const std::uint64_t end
        = rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0 + p.len);
    if (end <= first) return;
    const std::uint64_t n = end - first;
    const std::uint32_t aaa = consts[i];
    const std::uint32_t mask_b = consts[p.stride + i];
    const std::uint32_t mask_c = consts[2 * p.stride + i];
    const std::uint32_t umask = static_cast<std::uint32_t>(p.umask);
    const std::uint32_t lmask = static_cast<std::uint32_t>(p.lmask);
    std::uint64_t t = first + Q; // the next number this warp stores
    std::uint64_t j = Interleave ? rv_layout_index(p.instances, p.layout, p.block, i, t) - p.g0 : 0;
    const std::uint64_t j_step = Share * p.instances;
    auto step = [&](int r) {
        const int w = r % NN;
        x[w] = mt_twist(x[w], x[(w + 1) % NN], x[(w + MM) % NN], umask, lmask, aaa);
        if (r % Share != Q) return;
        const std::uint32_t y = mt_temper(p, x[w], mask_b, mask_c);
        std::uint64_t* slot
            = out + (Interleave ? j : rv_layout_index(p.instances, p.layout, p.block, i, t) - p.g0);
        if (p.count_mode != 0)
            *slot += 1;
        else
            *slot = y;
        t += Share;
        j += j_step;
    };
    for (std::uint64_t k = n / Round; k > 0; --k) {
        RV_UNROLL
        for (int r = 0; r < Round; ++r)
            step(r);
    }
    const std::uint64_t rest = n % Round;
    RV_UNROLL
    for (int r = 0; r < Round; ++r)
        if (static_cast<std::uint64_t>(r) < rest) step(r);
    if constexpr (Q == 0) { // the other warps hold the same state
        RV_UNROLL
        for (int w = 0; w < NN; ++w)
            st[(k0 + w < NN ? k0 + w : k0 + w - NN) * p.stride + i] = x[w];
        pos[i] = static_cast<std::uint32_t>((k0 + n % NN) % NN);
    }
}

// Thread `thread` of block `block`, of mt_register_warp * Share threads per block.
template <int NN, bool Interleave, int Share>
RV_BODY void mt_registers_body(const MtKernelParams& p, std::uint32_t* st, std::uint32_t* pos,
    const std::uint32_t* consts, std::uint64_t* out, std::uint64_t block, unsigned thread)
{
    const std::uint64_t i = block * mt_register_warp + thread % mt_register_warp;
    const unsigned q = thread / mt_register_warp;
    const bool active = i < p.instances;
    std::uint32_t x[NN];
    const std::uint32_t k0 = active ? pos[i] : 0;
    RV_UNROLL
    for (int w = 0; w < NN; ++w)
        x[w] = active ? st[(k0 + w < NN ? k0 + w : k0 + w - NN) * p.stride + i] : 0;
    if (Share > 1) RV_SYNC_BLOCK(); // every warp has read the state before warp 0 rewrites it
    if (!active) return;
    if (q == 0) mt_registers_run<NN, Interleave, Share, 0>(p, x, st, pos, consts, out, i, k0);
    if constexpr (Share > 1)
        if (q == 1) mt_registers_run<NN, Interleave, Share, 1>(p, x, st, pos, consts, out, i, k0);
}

} // namespace rngvet
