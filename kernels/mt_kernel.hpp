/* Mersenne Twister kernel body (DC parameter sets and MT19937), shared by the CUDA, OpenCL and
 * OpenMP backends (C subset, kernel_portability.hpp). One thread runs one instance; the
 * arithmetic is mt_next of generators/mt.hpp (the reference, LOCKED), restated for a state
 * laid out word-major across instances:
 *
 *     st[w * stride + i]   word w of instance i   (stride >= N, a multiple of 16)
 *
 * so that neighbouring threads, which are at the same position k, touch neighbouring words
 * (coalesced on a GPU), and a block of 128 instances owns whole cache lines in every row (no
 * false sharing between OpenMP threads). pos[i] is the instance's k (the word the next step
 * replaces). Per-instance parameters: consts[i] = aaa, consts[stride + i] = maskB,
 * consts[2*stride + i] = maskC; the rest of the parameter set (nn, mm, masks, shifts) is
 * uniform, since all sets of a configuration share the Mersenne exponent p. */
#ifndef RNGVET_MT_KERNEL_HPP
#define RNGVET_MT_KERNEL_HPP

#if !defined(RNGVET_OPENCL_C)
#include "kernels/kernel_portability.hpp"
#include "kernels/layout_kernel.hpp"
#endif

#define RNGVET_MT_THREADS_PER_BLOCK 128

#if defined(__cplusplus)
namespace rngvet {
#endif

/* Uniform launch parameters (64-bit members only, so host and OpenCL agree on the layout). */
typedef struct MtKernelParams {
    rv_u64 instances; /* N */
    rv_u64 stride; /* row length of st and consts, >= N, multiple of 16 */
    rv_u64 layout; /* RNGVET_LAYOUT_* */
    rv_u64 block; /* K of block:K */
    rv_u64 g0; /* first combined index of this launch */
    rv_u64 len; /* combined indices in this launch */
    rv_u64 count_mode; /* 1: out[j] += 1 instead of out[j] = value (canary tests) */
    rv_u64 nn, mm, umask, lmask;
    rv_u64 shift0, shift1, shift_b, shift_c;
} MtKernelParams;

/* Instance i makes its numbers of combined indices [g0, g0 + len) and writes them in place. */
RNGVET_HD void mt_generate_instance(MtKernelParams p, RV_GLOBAL rv_u32* st, RV_GLOBAL rv_u32* pos,
    RV_GLOBAL const rv_u32* consts, RV_GLOBAL rv_u64* out, rv_u64 i)
{
    if (i >= p.instances) return;
    const rv_u64 first = rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0);
    const rv_u64 end = rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0 + p.len);
    const rv_u32 aaa = consts[i];
    const rv_u32 mask_b = consts[p.stride + i];
    const rv_u32 mask_c = consts[2 * p.stride + i];
    const rv_u32 umask = (rv_u32)p.umask;
    const rv_u32 lmask = (rv_u32)p.lmask;
    rv_u64 k = pos[i];
    for (rv_u64 t = first; t < end; ++t) {
        const rv_u64 k1 = k + 1 == p.nn ? 0 : k + 1;
        const rv_u64 km = k + p.mm >= p.nn ? k + p.mm - p.nn : k + p.mm;
        const rv_u32 x = (st[k * p.stride + i] & umask) | (st[k1 * p.stride + i] & lmask);
        rv_u32 y = st[km * p.stride + i] ^ (x >> 1) ^ ((x & 1u) ? aaa : 0u);
        st[k * p.stride + i] = y;
        k = k1;
        y ^= y >> p.shift0;
        y ^= (y << p.shift_b) & mask_b;
        y ^= (y << p.shift_c) & mask_c;
        y ^= y >> p.shift1;
        const rv_u64 j = rv_layout_index(p.instances, p.layout, p.block, i, t) - p.g0;
        if (p.count_mode != 0)
            out[j] += 1;
        else
            out[j] = y;
    }
    pos[i] = (rv_u32)k;
}

#if defined(__cplusplus)
} /* namespace rngvet */
#endif

#endif
