/* How N instances' numbers are combined into one stream (Configuration::layout), as integer
 * functions every backend compiles (C subset, portable.hpp): the CPU reference (CombinedStream,
 * engines.hpp) and every kernel call these, and nothing else restates them.
 *
 *   single     g = t                       (N = 1)
 *   interleave g = i + N*t
 *   block:K    g = (t / K)*N*K + i*K + t mod K
 *   request:R  each request of R numbers divided among the instances as evenly as possible, in
 *              instance order: with q = R / N and r = R mod N, instance i takes c_i = q + (i < r)
 *              numbers starting at s_i = i*q + min(i, r), so g = (t / c_i)*R + s_i + t mod c_i
 *              (R >= N; for R a multiple of N this is block:R/N)
 *
 * (g: combined index; i: instance; t: the instance's own number.) Within any range of combined
 * indices an instance's numbers are consecutive, so a launch over [g0, g0 + len) asks instance
 * i for its numbers rv_layout_count_before(g0) .. rv_layout_count_before(g0 + len) - 1 and
 * writes number t to out[rv_layout_index(i, t) - g0]: output lands directly in the layout, and
 * launches of any length continue one another exactly. Callers keep N*K below 2^62. */
#ifndef RNGVET_LAYOUT_INDEX_HPP
#define RNGVET_LAYOUT_INDEX_HPP

#if !defined(RNGVET_OPENCL_C)
#include "portable.hpp"
#endif

#define RNGVET_LAYOUT_SINGLE 0
#define RNGVET_LAYOUT_INTERLEAVE 1
#define RNGVET_LAYOUT_BLOCK 2
#define RNGVET_LAYOUT_REQUEST 3

#if defined(__cplusplus)
namespace rngvet {
#endif

/* request:R: instance i's share of each request (c_i) and where it starts in it (s_i). */
RNGVET_HD rv_u64 rv_request_share(rv_u64 n, rv_u64 request, rv_u64 i)
{
    return request / n + (i < request % n ? 1 : 0);
}
RNGVET_HD rv_u64 rv_request_start(rv_u64 n, rv_u64 request, rv_u64 i)
{
    const rv_u64 r = request % n;
    return i * (request / n) + (i < r ? i : r);
}

/* How many of instance i's numbers have combined index < g (0 for i >= n). */
RNGVET_HD rv_u64 rv_layout_count_before(rv_u64 n, rv_u64 layout, rv_u64 block, rv_u64 i, rv_u64 g)
{
    if (i >= n) return 0;
    if (layout == RNGVET_LAYOUT_INTERLEAVE) return (g + n - 1 - i) / n;
    if (layout == RNGVET_LAYOUT_REQUEST) {
        const rv_u64 share = rv_request_share(n, block, i);
        const rv_u64 start = rv_request_start(n, block, i);
        const rv_u64 rem = g % block;
        rv_u64 extra = rem > start ? rem - start : 0;
        if (extra > share) extra = share;
        return (g / block) * share + extra;
    }
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
    if (layout == RNGVET_LAYOUT_REQUEST) {
        const rv_u64 share = rv_request_share(n, block, i);
        return (t / share) * block + rv_request_start(n, block, i) + t % share;
    }
    return t;
}

/* The instance whose number has combined index g. */
RNGVET_HD rv_u64 rv_layout_instance(rv_u64 n, rv_u64 layout, rv_u64 block, rv_u64 g)
{
    if (layout == RNGVET_LAYOUT_INTERLEAVE) return g % n;
    if (layout == RNGVET_LAYOUT_BLOCK) return (g / block) % n;
    if (layout == RNGVET_LAYOUT_REQUEST) {
        const rv_u64 rem = g % block, q = block / n, r = block % n;
        return rem < r * (q + 1) ? rem / (q + 1) : r + (rem - r * (q + 1)) / q;
    }
    return 0;
}

#if defined(__cplusplus)
} /* namespace rngvet */
#endif

#endif
