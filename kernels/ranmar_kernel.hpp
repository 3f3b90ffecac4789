/* RANMAR kernel body, shared by the CUDA, OpenCL and OpenMP backends (C subset, see
 * kernel_portability.hpp). The arithmetic is that of generators/ranmar.hpp (the reference,
 * LOCKED); this file only reorganises it so that 32 lanes compute one instance together.
 *
 * Leapfrog over 32 lanes. The lagged Fibonacci part is
 *     X_k = (X_{k-97} - X_{k-33}) mod 2^bits,
 * so X_k .. X_{k+31} depend only on values at least 2 positions older and 32 lanes compute
 * them at once: lane l makes X_{k+l}. The arithmetic sequence has the closed form
 *     c_k = (c_{-1} - (k+1)*cd) mod cm      (c_{-1} the seeded c, c_k the one output k uses),
 * so lane l starts at c_{k+l} and advances by 32*cd mod cm per step. Output k is
 * (X_k - c_k) mod 2^bits, with 0 replaced by 1 under ZeroPolicy::smallest.
 *
 * History. The last 97 values live in a circular table indexed by absolute position:
 * X_k sits in slot k mod 97, overwriting X_{k-97}; X_{k-33} is in slot (k + 64) mod 97.
 * In a step, lane l writes slot (k+l) mod 97 and reads slots (k+l) and (k+l-33) mod 97; no lane
 * reads a slot another lane writes in the same step (that would need l' - l = 33), so one
 * barrier between steps is enough, and a sequential host loop over the lanes is exact.
 * After ranmar_seed (i97 = 96, j97 = 32, indices decreasing), u[96 - m] holds X_{-97+m}; in
 * general u[(i97 - m) mod 97] holds X_{n-97+m} after n numbers (ranmar_device_state).
 *
 * Device state of one instance: RNGVET_RANMAR_STRIDE words; [0..96] the history slots,
 * [97] c_{n-1} (the c of the last number made; the seeded c when n = 0). The position n is
 * not stored: it is the number of the instance's values before the launch's first combined
 * index, ranmar_count_before(p, i, p.g0). 104 words = 13 cache lines of 64 bytes, so that host
 * threads working on neighbouring instances never share a line.
 *
 * Layouts: layout_kernel.hpp; output goes straight into the configuration's layout.
 */
#ifndef RNGVET_RANMAR_KERNEL_HPP
#define RNGVET_RANMAR_KERNEL_HPP

#if !defined(RNGVET_OPENCL_C)
#include "kernels/kernel_portability.hpp"
#include "kernels/layout_kernel.hpp"
#endif

#define RNGVET_RANMAR_LANES 32
#define RNGVET_RANMAR_LAGS 97
#define RNGVET_RANMAR_STRIDE 104
#define RNGVET_RANMAR_C 97

#if defined(__cplusplus)
namespace rngvet {
#endif

/* Uniform launch parameters. Only 64-bit members, so host and OpenCL agree on the layout. */
typedef struct RanmarKernelParams {
    rv_u64 cd; /* arithmetic sequence decrement, scaled by 2^bits */
    rv_u64 cm; /* its modulus */
    rv_u64 cd_step; /* RNGVET_RANMAR_LANES * cd mod cm */
    rv_u64 mask; /* 2^bits - 1 */
    rv_u64 instances; /* N */
    rv_u64 layout; /* RNGVET_LAYOUT_* */
    rv_u64 block; /* K of block:K */
    rv_u64 g0; /* first combined index of this launch */
    rv_u64 len; /* combined indices in this launch */
    rv_u64 zero_smallest; /* 1: an output 0 becomes 1 */
    rv_u64 count_mode; /* 1: out[j] += 1 instead of out[j] = value (canary tests) */
} RanmarKernelParams;

/* Registers of one lane. */
typedef struct RanmarLane {
    rv_u64 k; /* absolute position of the value this lane makes next */
    rv_u64 end; /* the instance's first position after this launch */
    rv_u64 slot; /* k mod 97 */
    rv_u64 c; /* c_k */
} RanmarLane;

/* How many of instance i's numbers have combined index < g (0 for i >= N). */
RNGVET_HD rv_u64 ranmar_count_before(RanmarKernelParams p, rv_u64 i, rv_u64 g)
{
    return rv_layout_count_before(p.instances, p.layout, p.block, i, g);
}

/* Combined index of instance i's t-th number. */
RNGVET_HD rv_u64 ranmar_combined_index(RanmarKernelParams p, rv_u64 i, rv_u64 t)
{
    return rv_layout_index(p.instances, p.layout, p.block, i, t);
}

/* Steps of 32 numbers that instance i needs in this launch. */
RNGVET_HD rv_u64 ranmar_steps(RanmarKernelParams p, rv_u64 i)
{
    const rv_u64 n = ranmar_count_before(p, i, p.g0 + p.len) - ranmar_count_before(p, i, p.g0);
    return (n + RNGVET_RANMAR_LANES - 1) / RNGVET_RANMAR_LANES;
}

/* Phase 1: the lane's registers for this launch. It reads state[RNGVET_RANMAR_C], which
 * the steps overwrite, so every lane calls it before the barrier that precedes the first step.
 * For i >= N (idle warps of the last block) the lane makes nothing and reads no state. */
RNGVET_HD RanmarLane ranmar_lane_begin(
    RanmarKernelParams p, RV_GLOBAL const rv_u64* state, rv_u64 i, unsigned lane)
{
    RanmarLane r;
    const rv_u64 start = ranmar_count_before(p, i, p.g0);
    const rv_u64 back = ((rv_u64)lane + 1) * p.cd % p.cm; /* (lane + 1) * cd < 2^54 */
    const rv_u64 c = i < p.instances ? state[RNGVET_RANMAR_C] : 0;
    r.k = start + lane;
    r.end = ranmar_count_before(p, i, p.g0 + p.len);
    r.slot = r.k % RNGVET_RANMAR_LAGS;
    r.c = c >= back ? c - back : c + p.cm - back;
    return r;
}

/* Phase 2: the lanes copy the instance's history into scratch (hist, 97 words). A barrier
 * must follow before any lane calls ranmar_lane_step. */
RNGVET_HD void ranmar_lane_load(RV_GLOBAL const rv_u64* state, RV_LOCAL rv_u64* hist, unsigned lane)
{
    for (unsigned w = lane; w < RNGVET_RANMAR_LAGS; w += RNGVET_RANMAR_LANES)
        hist[w] = state[w];
}

/* The lane's number of this step (only when r.k < r.end): makes X_k and output k, keeps X_k in
 * the history and, when k is the launch's last number of the instance, records its c in
 * state[RNGVET_RANMAR_C]. */
RNGVET_HD rv_u64 ranmar_lane_make(
    RanmarKernelParams p, RV_LOCAL rv_u64* hist, RV_GLOBAL rv_u64* state, RanmarLane r)
{
    rv_u64 short_slot = r.slot + (RNGVET_RANMAR_LAGS - 33);
    if (short_slot >= RNGVET_RANMAR_LAGS) short_slot -= RNGVET_RANMAR_LAGS;
    const rv_u64 x = (hist[r.slot] - hist[short_slot]) & p.mask;
    rv_u64 value = (x - r.c) & p.mask;
    hist[r.slot] = x;
    if (value == 0 && p.zero_smallest != 0) value = 1;
    if (r.k + 1 == r.end) state[RNGVET_RANMAR_C] = r.c;
    return value;
}

/* Moves the lane on by 32 positions. */
RNGVET_HD RanmarLane ranmar_lane_advance(RanmarKernelParams p, RanmarLane r)
{
    r.k += RNGVET_RANMAR_LANES;
    r.slot += RNGVET_RANMAR_LANES;
    if (r.slot >= RNGVET_RANMAR_LAGS) r.slot -= RNGVET_RANMAR_LAGS;
    r.c = r.c >= p.cd_step ? r.c - p.cd_step : r.c + p.cm - p.cd_step;
    return r;
}

/* Phase 3, once per step with a barrier after each: the lane makes X_k and output k (if k is
 * in this launch), writes it to out[g(i, k) - g0] and moves on by 32 positions. */
RNGVET_HD RanmarLane ranmar_lane_step(RanmarKernelParams p, RV_LOCAL rv_u64* hist,
    RV_GLOBAL rv_u64* state, RV_GLOBAL rv_u64* out, rv_u64 i, RanmarLane r)
{
    if (r.k < r.end) {
        const rv_u64 value = ranmar_lane_make(p, hist, state, r);
        const rv_u64 j = ranmar_combined_index(p, i, r.k) - p.g0;
        if (p.count_mode != 0)
            out[j] += 1;
        else
            out[j] = value;
    }
    return ranmar_lane_advance(p, r);
}

/* Tiled launch (the CUDA and OpenCL drivers' ranmar_generate_tiled, all layouts but single).
 * A block holds RNGVET_RANMAR_TILE instances (warps) first .. first + TILE - 1. In step s,
 * lane l of warp w makes instance first + w's number start[w] + 32*s + l into
 * tile[w * RNGVET_RANMAR_TILE_PITCH + l] instead of writing it to out; after a block-wide
 * barrier, every thread of the block writes one tile element to out (ranmar_tile_write), in
 * an order chosen so that neighbouring threads write neighbouring combined indices: under
 * interleave, instance-fast (out[i + N*t] for consecutive i is one run of TILE words), so the
 * stores coalesce where one warp's own numbers lie N words apart. Two tiles alternate, so one
 * barrier per step suffices: the tile a step fills was last read before the previous step's
 * barrier. start[w] and end[w] (block-shared) are the instance's first position in the launch
 * and its end (0 and 0 for w beyond N). The pitch of 33 words keeps the instance-fast reads
 * free of bank conflicts. */
#define RNGVET_RANMAR_TILE 16
#define RNGVET_RANMAR_TILE_PITCH 33

RNGVET_HD RanmarLane ranmar_lane_step_tile(RanmarKernelParams p, RV_LOCAL rv_u64* hist,
    RV_GLOBAL rv_u64* state, RV_LOCAL rv_u64* tile_row, RanmarLane r, unsigned lane)
{
    if (r.k < r.end) tile_row[lane] = ranmar_lane_make(p, hist, state, r);
    return ranmar_lane_advance(p, r);
}

/* Whether thread e of a tiled block writes instance-fast (e % TILE is the instance) or
 * lane-fast (e % 32 is the lane): instance-fast where neighbouring instances' numbers at the
 * same position are close in out (interleave; block:K with small K). */
RNGVET_HD int ranmar_tile_instance_fast(RanmarKernelParams p)
{
    return p.layout == RNGVET_LAYOUT_INTERLEAVE || (p.layout == RNGVET_LAYOUT_BLOCK && p.block < 8);
}

/* What thread e (0 <= e < TILE * 32) of a tiled block writes: element (w, l) of every step's
 * tile, i.e. number t = start[w] + 32*s + l of instance first + w in step s. Set once after
 * the barrier that publishes start and end; under interleave the out index then advances by
 * 32*N per step (no multiplications in the loop). */
typedef struct RanmarTileSlot {
    rv_u64 i; /* the instance whose numbers this thread writes */
    rv_u64 t; /* the number it writes in the coming step */
    rv_u64 end; /* the instance's end */
    rv_u64 j; /* under interleave: out index of t */
    rv_u64 j_step; /* under interleave: 32 * N */
    unsigned w, l; /* tile element */
} RanmarTileSlot;

RNGVET_HD RanmarTileSlot ranmar_tile_slot(RanmarKernelParams p, RV_LOCAL const rv_u64* start,
    RV_LOCAL const rv_u64* end, rv_u64 first, unsigned e)
{
    RanmarTileSlot q;
    const int fast = ranmar_tile_instance_fast(p);
    q.w = fast ? e % RNGVET_RANMAR_TILE : e / RNGVET_RANMAR_LANES;
    q.l = fast ? e / RNGVET_RANMAR_TILE : e % RNGVET_RANMAR_LANES;
    q.i = first + q.w;
    q.t = start[q.w] + q.l;
    q.end = end[q.w];
    q.j = q.j_step = 0;
    if (p.layout == RNGVET_LAYOUT_INTERLEAVE && q.t < q.end) {
        q.j = ranmar_combined_index(p, q.i, q.t) - p.g0;
        q.j_step = RNGVET_RANMAR_LANES * p.instances;
    }
    return q;
}

/* Writes the thread's element of this step's tile and moves on to the next step. */
RNGVET_HD RanmarTileSlot ranmar_tile_write(
    RanmarKernelParams p, RV_LOCAL const rv_u64* tile, RV_GLOBAL rv_u64* out, RanmarTileSlot q)
{
    if (q.t < q.end) {
        const rv_u64 j = p.layout == RNGVET_LAYOUT_INTERLEAVE
            ? q.j
            : ranmar_combined_index(p, q.i, q.t) - p.g0;
        if (p.count_mode != 0)
            out[j] += 1;
        else
            out[j] = tile[q.w * RNGVET_RANMAR_TILE_PITCH + q.l];
    }
    q.t += RNGVET_RANMAR_LANES;
    q.j += q.j_step;
    return q;
}

/* Phase 4, after the last step's barrier: the lanes copy the history back. */
RNGVET_HD void ranmar_lane_store(
    RV_GLOBAL rv_u64* state, RV_LOCAL const rv_u64* hist, unsigned lane)
{
    for (unsigned w = lane; w < RNGVET_RANMAR_LAGS; w += RNGVET_RANMAR_LANES)
        state[w] = hist[w];
}

#if defined(__cplusplus)
} /* namespace rngvet */
#endif

#endif
