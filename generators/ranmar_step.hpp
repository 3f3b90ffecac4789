/* The RANMAR step (generators/ranmar.hpp: the generator, its variants and seeding), as integer
 * functions every backend compiles (C subset, portable.hpp). Values are scaled by 2^bits and
 * mask = 2^bits - 1. Output k is made from
 *
 *     X_k   = (X_{k-97} - X_{k-33}) mod 2^bits                          ranmar_lag_step
 *     c_k   = (c_{k-1} - cd) mod cm                                      ranmar_c_back
 *     out_k = (X_k - c_k) mod 2^bits, 0 -> 1 under ZeroPolicy::smallest  ranmar_output
 *
 * with 0 <= X < 2^bits and 0 <= c < cm <= 2^bits. ranmar_c_back also moves c back by any
 * d < cm (a multiple of cd: several positions at once). The CPU reference (ranmar_next), the
 * reference jump (generators/jump.cpp) and every RANMAR kernel (kernels/ranmar_kernel.hpp) call
 * these; nothing else restates them. Where the values live (James's decreasing indices, the
 * kernels' circular history by absolute position) is each caller's own business.
 * LOCKED with ranmar.hpp: the known answers pin these formulas down. */
#ifndef RNGVET_RANMAR_STEP_HPP
#define RNGVET_RANMAR_STEP_HPP

#if !defined(RNGVET_OPENCL_C)
#include "portable.hpp"
#endif

#define RNGVET_RANMAR_LAGS 97
#define RNGVET_RANMAR_SHORT_LAG 33

#if defined(__cplusplus)
namespace rngvet {
#endif

/* X_k from X_{k-97} and X_{k-33}. */
RNGVET_HD rv_u64 ranmar_lag_step(rv_u64 x_long, rv_u64 x_short, rv_u64 mask)
{
    return (x_long - x_short) & mask;
}

/* c moved back by d (mod cm), for 0 <= c < cm and 0 <= d < cm. */
RNGVET_HD rv_u64 ranmar_c_back(rv_u64 c, rv_u64 d, rv_u64 cm)
{
    return c >= d ? c - d : c + cm - d;
}

/* The output of X_k and c_k; zero_smallest != 0: an output 0 becomes 1 (2^-bits). */
RNGVET_HD rv_u64 ranmar_output(rv_u64 x, rv_u64 c, rv_u64 mask, rv_u64 zero_smallest)
{
    rv_u64 value = (x - c) & mask;
    if (value == 0 && zero_smallest != 0) value = 1;
    return value;
}

#if defined(__cplusplus)
} /* namespace rngvet */
#endif

#endif
