/* The Mersenne Twister step (generators/mt.hpp: parameter sets, seeding, the reference engine),
 * as integer functions every backend compiles (C subset, portable.hpp):
 *
 *     x    = (x_k & umask) | (x_{k+1} & lmask)
 *     x_k' = x_{k+mm} ^ (x >> 1) ^ (x & 1 ? aaa : 0)                       mt_twist
 *     y    = x_k';  y ^= y >> shift0;  y ^= (y << shiftB) & maskB;
 *          y ^= (y << shiftC) & maskC;  y ^= y >> shift1                    mt_temper_word
 *
 * (indices mod nn). The CPU reference (mt_next, mt_temper) and every MT kernel
 * (kernels/mt_kernel.hpp, the CUDA register kernel) call these; nothing else restates them.
 * Where the nn words live (one array, word-major rows across instances, local memory,
 * registers) is each caller's own business.
 * LOCKED with mt.hpp: the known answers pin these formulas down. */
#ifndef RNGVET_MT_STEP_HPP
#define RNGVET_MT_STEP_HPP

#if !defined(RNGVET_OPENCL_C)
#include "portable.hpp"
#endif

#if defined(__cplusplus)
namespace rngvet {
#endif

/* The new word from the one it replaces (x_k), the next (x_k+1) and the one mm ahead (x_k+mm). */
RNGVET_HD rv_u32 mt_twist(rv_u32 xk, rv_u32 xk1, rv_u32 xkm, rv_u32 umask, rv_u32 lmask, rv_u32 aaa)
{
    const rv_u32 x = (xk & umask) | (xk1 & lmask);
    return xkm ^ (x >> 1) ^ ((x & 1u) ? aaa : 0u);
}

/* The tempering of a new word into the output. */
RNGVET_HD rv_u32 mt_temper_word(rv_u32 y, rv_u32 shift0, rv_u32 shift_b, rv_u32 shift_c,
    rv_u32 shift1, rv_u32 mask_b, rv_u32 mask_c)
{
    y ^= y >> shift0;
    y ^= (y << shift_b) & mask_b;
    y ^= (y << shift_c) & mask_c;
    return y ^ (y >> shift1);
}

#if defined(__cplusplus)
} /* namespace rngvet */
#endif

#endif
