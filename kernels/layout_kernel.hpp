/* How N instances' numbers are combined into one stream (Configuration::layout), as integer
 * functions every backend compiles (C subset, kernel_portability.hpp).
 *
 *   single     g = t                       (N = 1)
 *   interleave g = i + N*t
 *   block:K    g = (t / K)*N*K + i*K + t mod K
 *
 * (g: combined index; i: instance; t: the instance's own number.) Within any range of combined
 * indices an instance's numbers are consecutive, so a launch over [g0, g0 + len) asks instance
 * i for its numbers rv_layout_count_before(g0) .. rv_layout_count_before(g0 + len) - 1 and
 * writes number t to out[rv_layout_index(i, t) - g0]: output lands directly in the layout, and
 * launches of any length continue one another exactly. Callers keep N*K below 2^62. */
#ifndef RNGVET_LAYOUT_KERNEL_HPP
#define RNGVET_LAYOUT_KERNEL_HPP

#if !defined(RNGVET_OPENCL_C)
#include "kernels/kernel_portability.hpp"
#endif

#define RNGVET_LAYOUT_SINGLE 0
#define RNGVET_LAYOUT_INTERLEAVE 1
#define RNGVET_LAYOUT_BLOCK 2

#if defined(__cplusplus)
namespace rngvet {
#endif

/* How many of instance i's numbers have combined index < g (0 for i >= n). */
RNGVET_HD rv_u64 rv_layout_count_before(rv_u64 n, rv_u64 layout, rv_u64 block, rv_u64 i, rv_u64 g)
{
    if (i >= n) return 0;
    if (layout == RNGVET_LAYOUT_INTERLEAVE) return (g + n - 1 - i) / n;
    if (layout == RNGVET_LAYOUT_BLOCK) {
        const rv_u64 round = n * block;
        const rv_u64 rem = g % round;
        const rv_u64 first = i * block;
        rv_u64 extra = rem > first ? rem - first : 0;
        if (extra > block) extra = block;
        return (g / round) * block + extra;
    }
    return g;
}

/* Combined index of instance i's t-th number. */
RNGVET_HD rv_u64 rv_layout_index(rv_u64 n, rv_u64 layout, rv_u64 block, rv_u64 i, rv_u64 t)
{
    if (layout == RNGVET_LAYOUT_INTERLEAVE) return i + n * t;
    if (layout == RNGVET_LAYOUT_BLOCK) return (t / block) * n * block + i * block + t % block;
    return t;
}

#if defined(__cplusplus)
} /* namespace rngvet */
#endif

#endif
