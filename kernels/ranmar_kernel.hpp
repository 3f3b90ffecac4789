/* RANMAR kernel body, shared by the CUDA, OpenCL and OpenMP backends (C subset, see
 * generators/portable.hpp). The arithmetic is that of generators/ranmar_step.hpp, which the
 * reference ranmar_next calls too (LOCKED); this file only reorganises it so that 32 lanes
 * compute one instance together.
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
 * Layouts: generators/layout_index.hpp; output goes straight into the configuration's layout.
 *
 * Jump-parallel generation (p.segments = S > 1): each instance's own stream is cut into chunks
 * of L = p.seg_length numbers, counted from the instance's position at the setup's start
 * (combined index p.start), and unit (i, s), s < S, makes the chunks s, s + S, s + 2S, ... of
 * instance i: one warp per unit instead of one per instance, so that one instance (or a few)
 * fills a device. A unit's state (the same RNGVET_RANMAR_STRIDE words) always sits at the first
 * position of its chunks at or after the next launch's first number; a launch makes the unit's
 * numbers in [count_before(g0), count_before(g0 + len)), chunk by chunk, and whenever the unit
 * finishes a chunk it jumps over the other units' S - 1 chunks, (S - 1) * L numbers, with one
 * polynomial computed once per configuration (generators/jump.hpp, RanmarJump): the window at
 * the chunk's end e and the next 96 values of the recurrence (193 values) give the window at
 * e + (S - 1) L by 97 dot products, one per slot. Launches of any length continue one another
 * exactly, as without segments. The warp keeps the history in registers, not in a table
 * (ranmar_segments_body); under interleave CUDA runs the same units with a block's warps on the
 * same unit of neighbouring instances, so that their stores coalesce (ranmar_interleaved_body);
 * the OpenMP backend runs a unit number by number (ranmar_segment_run), or for one instance in
 * order by the host's block fill (ranmar_fill_window, generators/ranmar.hpp), and the jump's
 * phases lane by lane (ranmar_jump_window, _extend, _apply).
 */
#ifndef RNGVET_RANMAR_KERNEL_HPP
#define RNGVET_RANMAR_KERNEL_HPP

#if !defined(RNGVET_OPENCL_C)
#include "generators/layout_index.hpp"
#include "generators/portable.hpp"
#include "generators/ranmar_step.hpp"
#include "kernels/grid.hpp"
#endif

#define RNGVET_RANMAR_LANES 32
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
    rv_u64 segments; /* S: units per instance (1: one warp per instance, no jumps) */
    rv_u64 seg_length; /* L: numbers per chunk (S > 1) */
    rv_u64 start; /* combined index where the instances' chunks are counted from */
    rv_u64 jump_c; /* (S - 1) * L * cd mod cm: how far c moves back in a jump */
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
    r.c = ranmar_c_back(c, back, p.cm);
    return r;
}

/* Phase 2: the lanes copy the instance's history into scratch (hist, 97 words). A barrier
 * must follow before any lane calls ranmar_lane_step. */
RNGVET_HD void ranmar_lane_load(RV_GLOBAL const rv_u64* state, RV_LOCAL rv_u64* hist, unsigned lane)
{
    for (unsigned w = lane; w < RNGVET_RANMAR_LAGS; w += RNGVET_RANMAR_LANES)
        hist[w] = state[w];
}

/* The lane's number of this step (only when r.k < r.end): makes X_k and output k and keeps X_k
 * in the history. ranmar_lane_make also records, when k is the launch's last number of the
 * instance, its c in state[RNGVET_RANMAR_C]. */
RNGVET_HD rv_u64 ranmar_lane_value(RanmarKernelParams p, RV_LOCAL rv_u64* hist, RanmarLane r)
{
    rv_u64 short_slot = r.slot + (RNGVET_RANMAR_LAGS - RNGVET_RANMAR_SHORT_LAG);
    if (short_slot >= RNGVET_RANMAR_LAGS) short_slot -= RNGVET_RANMAR_LAGS;
    const rv_u64 x = ranmar_lag_step(hist[r.slot], hist[short_slot], p.mask);
    hist[r.slot] = x;
    return ranmar_output(x, r.c, p.mask, p.zero_smallest);
}

RNGVET_HD rv_u64 ranmar_lane_make(
    RanmarKernelParams p, RV_LOCAL rv_u64* hist, RV_GLOBAL rv_u64* state, RanmarLane r)
{
    const rv_u64 value = ranmar_lane_value(p, hist, r);
    if (r.k + 1 == r.end) state[RNGVET_RANMAR_C] = r.c;
    return value;
}

/* Moves the lane on by 32 positions. */
RNGVET_HD RanmarLane ranmar_lane_advance(RanmarKernelParams p, RanmarLane r)
{
    r.k += RNGVET_RANMAR_LANES;
    r.slot += RNGVET_RANMAR_LANES;
    if (r.slot >= RNGVET_RANMAR_LAGS) r.slot -= RNGVET_RANMAR_LAGS;
    r.c = ranmar_c_back(r.c, p.cd_step, p.cm);
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
 * barrier, every thread of the block writes one tile element to out (ranmar_tile_write*), in
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

/* Writes the thread's element of this step's tile to out[j] (when t is in the launch) and moves
 * on to the next step: ranmar_tile_write_interleave where the index only advances (interleave),
 * ranmar_tile_write for the other layouts. */
RNGVET_HD void ranmar_tile_store(RanmarKernelParams p, RV_LOCAL const rv_u64* tile,
    RV_GLOBAL rv_u64* out, RanmarTileSlot q, rv_u64 j)
{
    if (p.count_mode != 0)
        out[j] += 1;
    else
        out[j] = tile[q.w * RNGVET_RANMAR_TILE_PITCH + q.l];
}

RNGVET_HD RanmarTileSlot ranmar_tile_write_interleave(
    RanmarKernelParams p, RV_LOCAL const rv_u64* tile, RV_GLOBAL rv_u64* out, RanmarTileSlot q)
{
    if (q.t < q.end) ranmar_tile_store(p, tile, out, q, q.j);
    q.t += RNGVET_RANMAR_LANES;
    q.j += q.j_step;
    return q;
}

RNGVET_HD RanmarTileSlot ranmar_tile_write(
    RanmarKernelParams p, RV_LOCAL const rv_u64* tile, RV_GLOBAL rv_u64* out, RanmarTileSlot q)
{
    if (q.t < q.end) ranmar_tile_store(p, tile, out, q, ranmar_combined_index(p, q.i, q.t) - p.g0);
    q.t += RNGVET_RANMAR_LANES;
    return q;
}

/* Phase 4, after the last step's barrier: the lanes copy the history back. */
RNGVET_HD void ranmar_lane_store(
    RV_GLOBAL rv_u64* state, RV_LOCAL const rv_u64* hist, unsigned lane)
{
    for (unsigned w = lane; w < RNGVET_RANMAR_LAGS; w += RNGVET_RANMAR_LANES)
        state[w] = hist[w];
}

/* --- Jump-parallel generation (see the head of this file) ------------------------------- */

/* Scratch of one unit: the history (97 words) and c (word RNGVET_RANMAR_C), then ext. */
#define RNGVET_RANMAR_SEG_HIST 98
#define RNGVET_RANMAR_EXT (2 * RNGVET_RANMAR_LAGS - 1)

/* What unit (i, s) does in this launch: its next position, the end of the chunk that holds it
 * and the instance's end in the launch (nothing when pos >= end). */
typedef struct RanmarSegment {
    rv_u64 pos;
    rv_u64 chunk_end;
    rv_u64 end;
} RanmarSegment;

RNGVET_HD RanmarSegment ranmar_segment_begin(RanmarKernelParams p, rv_u64 i, rv_u64 s)
{
    RanmarSegment g;
    const rv_u64 origin = ranmar_count_before(p, i, p.start);
    const rv_u64 a = ranmar_count_before(p, i, p.g0);
    rv_u64 k = (a - origin) / p.seg_length;
    const rv_u64 owner = k % p.segments;
    g.pos = a;
    if (owner != s) {
        k += (s + p.segments - owner) % p.segments;
        g.pos = origin + k * p.seg_length;
    }
    g.chunk_end = origin + (k + 1) * p.seg_length;
    g.end = ranmar_count_before(p, i, p.g0 + p.len);
    if (i >= p.instances) g.pos = g.end = 0;
    return g;
}

/* End of the piece the unit makes next: its chunk's end or the launch's, whichever is first. */
RNGVET_HD rv_u64 ranmar_segment_piece_end(RanmarSegment g)
{
    return g.chunk_end < g.end ? g.chunk_end : g.end;
}

/* Steps of 32 numbers in the next piece. */
RNGVET_HD rv_u64 ranmar_segment_steps(RanmarSegment g)
{
    return (ranmar_segment_piece_end(g) - g.pos + RNGVET_RANMAR_LANES - 1) / RNGVET_RANMAR_LANES;
}

/* The unit's state into scratch: history and c. A barrier must follow. */
RNGVET_HD void ranmar_segment_load(
    RV_GLOBAL const rv_u64* state, RV_LOCAL rv_u64* hist, unsigned lane)
{
    for (unsigned w = lane; w < RNGVET_RANMAR_SEG_HIST; w += RNGVET_RANMAR_LANES)
        hist[w] = state[w];
}

RNGVET_HD void ranmar_segment_store(
    RV_GLOBAL rv_u64* state, RV_LOCAL const rv_u64* hist, unsigned lane)
{
    for (unsigned w = lane; w < RNGVET_RANMAR_SEG_HIST; w += RNGVET_RANMAR_LANES)
        state[w] = hist[w];
}

/* The next piece made number by number by one thread (the OpenMP backend, where 32 lanes
 * would only be a loop): the arithmetic of ranmar_lane_value, c advanced by cd per number
 * (c_k = c_{k-1} - cd) instead of 32 cd per lane step. */
RNGVET_HD void ranmar_segment_run(
    RanmarKernelParams p, RV_LOCAL rv_u64* hist, RV_GLOBAL rv_u64* out, rv_u64 i, RanmarSegment g)
{
    const rv_u64 e = ranmar_segment_piece_end(g);
    rv_u64 c = hist[RNGVET_RANMAR_C];
    rv_u64 slot = g.pos % RNGVET_RANMAR_LAGS;
    rv_u64 short_slot = slot + (RNGVET_RANMAR_LAGS - RNGVET_RANMAR_SHORT_LAG);
    if (short_slot >= RNGVET_RANMAR_LAGS) short_slot -= RNGVET_RANMAR_LAGS;
    const int contiguous = p.layout == RNGVET_LAYOUT_SINGLE && p.count_mode == 0;
    for (rv_u64 k = g.pos; k < e; ++k) {
        const rv_u64 x = ranmar_lag_step(hist[slot], hist[short_slot], p.mask);
        hist[slot] = x;
        c = ranmar_c_back(c, p.cd, p.cm);
        const rv_u64 value = ranmar_output(x, c, p.mask, p.zero_smallest);
        if (contiguous) {
            out[k - p.g0] = value;
        } else {
            const rv_u64 j = ranmar_combined_index(p, i, k) - p.g0;
            if (p.count_mode != 0)
                out[j] += 1;
            else
                out[j] = value;
        }
        if (++slot == RNGVET_RANMAR_LAGS) slot = 0;
        if (++short_slot == RNGVET_RANMAR_LAGS) short_slot = 0;
    }
    hist[RNGVET_RANMAR_C] = c;
}

/* Whether the piece just made ended the unit's chunk, so that it jumps to its next one. */
RNGVET_HD int ranmar_segment_jumps(RanmarSegment g)
{
    return ranmar_segment_piece_end(g) == g.chunk_end;
}

/* Jump, phase 1 (after the piece's last barrier): ext[m] = X_{e-97+m}, m < 97, from the
 * history (X_k in slot k mod 97). A barrier follows. */
RNGVET_HD void ranmar_jump_window(
    RV_LOCAL const rv_u64* hist, RV_LOCAL rv_u64* ext, RanmarSegment g, unsigned lane)
{
    for (unsigned m = lane; m < RNGVET_RANMAR_LAGS; m += RNGVET_RANMAR_LANES)
        ext[m] = hist[(g.chunk_end + m) % RNGVET_RANMAR_LAGS];
}

/* Jump, phase 2, for q = 0, 1, 2 with a barrier after each: ext[97 + t] = X_{e+t} for
 * t = 32q + lane < 96 (its inputs ext[t] and ext[t + 64] are older by 33 or more). */
RNGVET_HD void ranmar_jump_extend(
    RanmarKernelParams p, RV_LOCAL rv_u64* ext, unsigned q, unsigned lane)
{
    const unsigned t = q * RNGVET_RANMAR_LANES + lane;
    if (t < RNGVET_RANMAR_LAGS - 1)
        ext[RNGVET_RANMAR_LAGS + t] = ranmar_lag_step(
            ext[t], ext[t + RNGVET_RANMAR_LAGS - RNGVET_RANMAR_SHORT_LAG], p.mask);
}

/* Jump, phase 3, a barrier after it: the window at e + n, n = (S - 1) L, into the history
 * (X_{e+n-97+w} = sum_m poly[m] X_{e-97+w+m}), and c moved back by n cd. */
RNGVET_HD void ranmar_jump_apply(RanmarKernelParams p, RV_LOCAL rv_u64* hist,
    RV_LOCAL const rv_u64* ext, RV_GLOBAL const rv_u64* poly, RanmarSegment g, unsigned lane)
{
    const rv_u64 to = g.chunk_end + (p.segments - 1) * p.seg_length;
    for (unsigned w = lane; w < RNGVET_RANMAR_LAGS; w += RNGVET_RANMAR_LANES) {
        rv_u64 acc = 0;
        for (unsigned m = 0; m < RNGVET_RANMAR_LAGS; ++m)
            acc += poly[m] * ext[w + m];
        hist[(to + w) % RNGVET_RANMAR_LAGS] = acc & p.mask;
    }
    if (lane == 0) {
        const rv_u64 c = hist[RNGVET_RANMAR_C];
        hist[RNGVET_RANMAR_C] = ranmar_c_back(c, p.jump_c, p.cm);
    }
}

/* The unit after its piece (and its jump, when ranmar_segment_jumps said so). */
RNGVET_HD RanmarSegment ranmar_segment_next(RanmarKernelParams p, RanmarSegment g)
{
    if (ranmar_segment_jumps(g)) {
        g.pos = g.chunk_end + (p.segments - 1) * p.seg_length;
        g.chunk_end = g.pos + p.seg_length;
    } else {
        g.pos = g.end;
    }
    return g;
}

/* --- The grids: one body each, a function of (block, thread) (grid.hpp) ---------------- */

/* One warp per instance (every layout; CUDA and OpenCL run it for layout single): warp w of
 * block b runs instance b * warps + w. Barriers span a warp and a warp past the instances
 * leaves at once, so warps run independently; hist is warps * RNGVET_RANMAR_LAGS words of
 * block-shared scratch. */
RV_BODY void ranmar_warps_body(RanmarKernelParams p, RV_GLOBAL rv_u64* state, RV_GLOBAL rv_u64* out,
    RV_LOCAL rv_u64* hist, rv_u64 block, unsigned thread, unsigned warps)
{
    const unsigned warp = thread / RNGVET_RANMAR_LANES;
    const unsigned lane = thread % RNGVET_RANMAR_LANES;
    const rv_u64 i = block * warps + warp;
    if (i >= p.instances) return; /* the whole warp */
    RV_GLOBAL rv_u64* st = state + i * RNGVET_RANMAR_STRIDE;
    RV_LOCAL rv_u64* h = hist + warp * RNGVET_RANMAR_LAGS;
    RanmarLane r = ranmar_lane_begin(p, st, i, lane);
    ranmar_lane_load(st, h, lane);
    RV_SYNC_WARP();
    const rv_u64 steps = ranmar_steps(p, i);
    for (rv_u64 s = 0; s < steps; ++s) {
        r = ranmar_lane_step(p, h, st, out, i, r);
        RV_SYNC_WARP();
    }
    ranmar_lane_store(st, h, lane);
}

/* The tiled grid ("Tiled launch" above; all layouts but single): RNGVET_RANMAR_TILE warps per
 * block, block-wide barriers. Scratch: hist RNGVET_RANMAR_TILE * RNGVET_RANMAR_LAGS words,
 * tile 2 * RNGVET_RANMAR_TILE * RNGVET_RANMAR_TILE_PITCH, start and end RNGVET_RANMAR_TILE. */
#define RNGVET_RANMAR_TILED_THREADS (RNGVET_RANMAR_TILE * RNGVET_RANMAR_LANES)

RV_BODY void ranmar_tiled_body(RanmarKernelParams p, RV_GLOBAL rv_u64* state, RV_GLOBAL rv_u64* out,
    RV_LOCAL rv_u64* hist, RV_LOCAL rv_u64* tile, RV_LOCAL rv_u64* start, RV_LOCAL rv_u64* end,
    rv_u64 block, unsigned thread)
{
    const unsigned warp = thread / RNGVET_RANMAR_LANES;
    const unsigned lane = thread % RNGVET_RANMAR_LANES;
    const rv_u64 first = block * RNGVET_RANMAR_TILE;
    const rv_u64 i = first + warp;
    const int active = i < p.instances;
    RV_GLOBAL rv_u64* st = state + (active ? i : 0) * RNGVET_RANMAR_STRIDE;
    RV_LOCAL rv_u64* h = hist + warp * RNGVET_RANMAR_LAGS;

    RanmarLane r = ranmar_lane_begin(p, st, i, lane);
    if (active) ranmar_lane_load(st, h, lane);
    if (lane == 0) {
        start[warp] = active ? r.k : 0;
        end[warp] = active ? r.end : 0;
    }
    RV_SYNC_BLOCK();
    rv_u64 steps = 0;
    for (unsigned w = 0; w < RNGVET_RANMAR_TILE; ++w) {
        const rv_u64 s = (end[w] - start[w] + RNGVET_RANMAR_LANES - 1) / RNGVET_RANMAR_LANES;
        if (end[w] > start[w] && s > steps) steps = s;
    }
    RanmarTileSlot q = ranmar_tile_slot(p, start, end, first, thread);
    /* The loop twice, so that interleave's (where a thread's out index only advances) carries
     * none of the other layouts' index arithmetic: with request:R's divisions in one loop the
     * kernel took 56 registers and made 2.2e11 numbers/s on the H100, unswitched 48 and 2.7e11
     * (docs/benchmarks.md, run 10). */
    if (p.layout == RNGVET_LAYOUT_INTERLEAVE) {
        for (rv_u64 s = 0; s < steps; ++s) {
            RV_LOCAL rv_u64* t = tile + (s & 1) * (RNGVET_RANMAR_TILE * RNGVET_RANMAR_TILE_PITCH);
            r = ranmar_lane_step_tile(p, h, st, t + warp * RNGVET_RANMAR_TILE_PITCH, r, lane);
            RV_SYNC_BLOCK();
            q = ranmar_tile_write_interleave(p, t, out, q);
        }
    } else {
        for (rv_u64 s = 0; s < steps; ++s) {
            RV_LOCAL rv_u64* t = tile + (s & 1) * (RNGVET_RANMAR_TILE * RNGVET_RANMAR_TILE_PITCH);
            r = ranmar_lane_step_tile(p, h, st, t + warp * RNGVET_RANMAR_TILE_PITCH, r, lane);
            RV_SYNC_BLOCK();
            q = ranmar_tile_write(p, t, out, q);
        }
    }
    if (active) ranmar_lane_store(st, h, lane);
}

/* Jump-parallel generation (the head of this file; every layout, p.segments > 1): one warp per
 * unit, warp w of block b runs unit u = b * warps + w, every S-th chunk of instance u / S.
 * Barriers span a warp and a warp with nothing to do leaves at once.
 *
 * The history in registers. For a piece that starts at position a write R_s[l] = X_{a+32s+l-1};
 * in step s lane l makes X_{a+32s+l} = R_{s-3}[l] - R_{s-1}[l] (lags 97 = 3*32 + 1 and 33 =
 * 32 + 1), so each lane keeps R_{s-1}, R_{s-2} and R_{s-3} in registers (RanmarRegs), and R_s is
 * the step's values moved up one lane (ranmar_shuffle from lane l - 1), lane 0 taking lane 31's
 * value of the step before (carry). A step meets the other lanes only in that one shuffle: on
 * CUDA no table in shared memory and no barrier in the loop. Every value made also goes into the
 * warp's ring (RNGVET_RANMAR_RING words, X_k in ring[k mod 256]) in a piece's last 7 steps,
 * which hold every value the end of the piece reads: the state at the end of the launch, and
 * the jump's 193 values X_{e-97} .. X_{e+95} (e the chunk's end: its last 97 values and 3 more
 * steps of the recurrence), copied in order to ext before the jump's 97 dot products
 * (ranmar_jump_regs); these give the next chunk's R_{-3}, R_{-2} and R_{-1} (w = l, 32 + l,
 * 64 + l) and X_{a-1} (w = 96, summed over the lanes) in the lanes that need them. Scratch:
 * RNGVET_RANMAR_SEG_SCRATCH words per warp (ring, then ext), and xch warps *
 * RNGVET_RANMAR_LANES words (ranmar_shuffle where there is no warp shuffle). */
#define RNGVET_RANMAR_RING 256
#define RNGVET_RANMAR_SEG_SCRATCH (RNGVET_RANMAR_RING + RNGVET_RANMAR_EXT)
/* Steps at the end of a piece that write the ring: 224 values, the 193 of the jump and up to 31
 * past them. */
#define RNGVET_RANMAR_RING_STEPS 7

#if defined(__CUDA_ARCH__)
#define RV_UNROLL_BY(n) _Pragma(#n)
#else
#define RV_UNROLL_BY(n)
#endif

/* Lane src's v in every lane; all 32 lanes call it, in the same order. A warp shuffle on CUDA;
 * elsewhere through xch, the warp's 32 words of scratch, between two barriers. */
RV_BODY rv_u64 ranmar_shuffle(rv_u64 v, unsigned src, RV_LOCAL rv_u64* xch, unsigned lane)
{
#if defined(__CUDA_ARCH__)
    (void)xch;
    (void)lane;
    return __shfl_sync(0xffffffffu, (unsigned long long)v, (int)src);
#else
    rv_u64 r;
    xch[lane] = v;
    RV_SYNC_WARP();
    r = xch[src];
    RV_SYNC_WARP();
    return r;
#endif
}

/* A lane's history for a piece that starts at position a (see above), before step s. */
typedef struct RanmarRegs {
    rv_u64 r3; /* R_{s-3}[l] = X_{a+32s+l-97} */
    rv_u64 r2; /* R_{s-2}[l] = X_{a+32s+l-65} */
    rv_u64 r1; /* R_{s-1}[l] = X_{a+32s+l-33} */
    rv_u64 carry; /* lane 0: X_{a+32s-1}, its R_s */
} RanmarRegs;

/* From the unit's state, whose history slot k mod 97 holds X_k, at position a. */
RV_BODY RanmarRegs ranmar_regs_load(RV_GLOBAL const rv_u64* st, rv_u64 a, unsigned lane)
{
    RanmarRegs q;
    const rv_u64 slot = (a + lane) % RNGVET_RANMAR_LAGS; /* X_{a-97+l} */
    q.r3 = st[slot];
    q.r2 = st[(slot + RNGVET_RANMAR_LANES) % RNGVET_RANMAR_LAGS];
    q.r1 = st[(slot + 2 * RNGVET_RANMAR_LANES) % RNGVET_RANMAR_LAGS];
    q.carry = st[(a + RNGVET_RANMAR_LAGS - 1) % RNGVET_RANMAR_LAGS];
    return q;
}

/* The window X_{a-97} .. X_{a-1} of the registers into the ring. */
RV_BODY void ranmar_regs_to_ring(RanmarRegs q, RV_LOCAL rv_u64* ring, rv_u64 a, unsigned lane)
{
    const rv_u64 k = a - RNGVET_RANMAR_LAGS + lane;
    ring[k % RNGVET_RANMAR_RING] = q.r3;
    ring[(k + RNGVET_RANMAR_LANES) % RNGVET_RANMAR_RING] = q.r2;
    ring[(k + 2 * RNGVET_RANMAR_LANES) % RNGVET_RANMAR_RING] = q.r1;
    if (lane == 0) ring[(a - 1) % RNGVET_RANMAR_RING] = q.carry;
}

/* One step: the lane's X_k (returned), the registers moved on to the next step. */
RV_BODY rv_u64 ranmar_regs_step(
    RanmarKernelParams p, RanmarRegs* q, RV_LOCAL rv_u64* xch, unsigned lane)
{
    const rv_u64 x = ranmar_lag_step(q->r3, q->r1, p.mask);
    const rv_u64 up
        = ranmar_shuffle(x, (lane + RNGVET_RANMAR_LANES - 1) % RNGVET_RANMAR_LANES, xch, lane);
    q->r3 = q->r2;
    q->r2 = q->r1;
    q->r1 = lane == 0 ? q->carry : up;
    q->carry = up;
    return x;
}

/* The jump, after the barrier that completes ext (ext[m] = X_{e-97+m}, m < 193, e the chunk's
 * end): the registers at to = e + (S - 1) L, X_{to-97+w} = sum_m poly[m] ext[w + m]. Lane l
 * makes w = l, 32 + l and 64 + l, three sums that share each poly[m], and its terms
 * m = l, l + 32, l + 64 (and 96 in lane 0) of w = 96, which the lanes then add up. */
RV_BODY RanmarRegs ranmar_jump_regs(RanmarKernelParams p, RV_LOCAL const rv_u64* ext,
    RV_GLOBAL const rv_u64* RV_RESTRICT poly, RV_LOCAL rv_u64* xch, unsigned lane)
{
    RV_LOCAL const rv_u64* e = ext + lane;
    rv_u64 a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    RanmarRegs q;
    unsigned m, d;
    RV_UNROLL_BY(unroll 8)
    for (m = 0; m < RNGVET_RANMAR_LAGS; ++m) {
        const rv_u64 r = poly[m];
        a0 += r * e[m];
        a1 += r * e[RNGVET_RANMAR_LANES + m];
        a2 += r * e[2 * RNGVET_RANMAR_LANES + m];
    }
    for (m = lane; m < RNGVET_RANMAR_LAGS; m += RNGVET_RANMAR_LANES)
        a3 += poly[m] * ext[RNGVET_RANMAR_LAGS - 1 + m];
    for (d = RNGVET_RANMAR_LANES / 2; d >= 1; d /= 2)
        a3 += ranmar_shuffle(a3, lane ^ d, xch, lane);
    q.r3 = a0 & p.mask;
    q.r2 = a1 & p.mask;
    q.r1 = a2 & p.mask;
    q.carry = a3 & p.mask;
    return q;
}

RV_BODY void ranmar_segments_body(RanmarKernelParams p, RV_GLOBAL rv_u64* state,
    RV_GLOBAL const rv_u64* RV_RESTRICT poly, RV_GLOBAL rv_u64* out, RV_LOCAL rv_u64* scratch,
    RV_LOCAL rv_u64* xchs, rv_u64 block, unsigned thread, unsigned warps)
{
    const unsigned warp = thread / RNGVET_RANMAR_LANES;
    const unsigned lane = thread % RNGVET_RANMAR_LANES;
    const rv_u64 unit = block * warps + warp;
    const rv_u64 i = unit / p.segments;
    /* Single and interleave: output k of instance i goes to out[i + N k - g0]. */
    const int linear = p.layout == RNGVET_LAYOUT_SINGLE || p.layout == RNGVET_LAYOUT_INTERLEAVE;
    const rv_u64 back = ((rv_u64)lane + 1) * p.cd % p.cm;
    RanmarSegment g;
    RV_GLOBAL rv_u64* st;
    RV_LOCAL rv_u64* ring;
    RV_LOCAL rv_u64* ext;
    RV_LOCAL rv_u64* xch;
    RanmarRegs q;
    rv_u64 c;
    int jumped = 0;
    unsigned w;
    if (i >= p.instances) return; /* the whole warp */
    g = ranmar_segment_begin(p, i, unit % p.segments);
    if (g.pos >= g.end) return; /* the whole warp: no chunk of this unit in the launch */
    st = state + unit * RNGVET_RANMAR_STRIDE;
    ring = scratch + warp * RNGVET_RANMAR_SEG_SCRATCH;
    ext = ring + RNGVET_RANMAR_RING;
    xch = xchs + warp * RNGVET_RANMAR_LANES;
    c = st[RNGVET_RANMAR_C]; /* c of the number before the piece */
    q = ranmar_regs_load(st, g.pos, lane);
    while (g.pos < g.end) {
        /* At most 2^30 numbers (ranmar_setup's chunks): the step loop counts in 32 bits. */
        const rv_u64 piece_end = ranmar_segment_piece_end(g);
        const int jumps = ranmar_segment_jumps(g);
        const unsigned count = (unsigned)(piece_end - g.pos);
        /* Steps whose 32 numbers are all in the piece (full), then one with rem of them, then
         * with a jump 3 steps more: the jump's X_e .. X_{e+95} (no output). */
        const unsigned full = count / RNGVET_RANMAR_LANES;
        const unsigned rem = count % RNGVET_RANMAR_LANES;
        const unsigned steps
            = (count + RNGVET_RANMAR_LANES - 1) / RNGVET_RANMAR_LANES + (jumps ? 3 : 0);
        const unsigned last_step = (count - 1) / RNGVET_RANMAR_LANES; /* the last number's */
        const unsigned ring_from
            = steps > RNGVET_RANMAR_RING_STEPS ? steps - RNGVET_RANMAR_RING_STEPS : 0;
        unsigned slot = (unsigned)((g.pos + lane) % RNGVET_RANMAR_RING);
        rv_u64 k = g.pos + lane;
        rv_u64 j = linear ? i + p.instances * k - p.g0 : 0;
        const rv_u64 j_step = RNGVET_RANMAR_LANES * p.instances;
        rv_u64 ck = ranmar_c_back(c, back, p.cm);
        rv_u64 c_last = 0;
        unsigned s, fast;
        RanmarRegs next;
        ranmar_regs_to_ring(q, ring, g.pos, lane);
        /* First the steps before the ring's, whose numbers are all in the piece, where the
         * output goes to out[j] (single, interleave) and is the value (not count mode):
         * nothing to test but the loop's end. */
        /* (The loop is not inside a conditional: no barrier in one, for PoCL, see below.) */
        fast = linear && p.count_mode == 0 ? (full < ring_from ? full : ring_from) : 0;
        RV_UNROLL_BY(unroll 3)
        for (s = 0; s < fast; ++s) {
            const rv_u64 x = ranmar_regs_step(p, &q, xch, lane);
            out[j] = ranmar_output(x, ck, p.mask, p.zero_smallest);
            ck = ranmar_c_back(ck, p.cd_step, p.cm);
            j += j_step;
        }
        slot = (slot + fast * RNGVET_RANMAR_LANES) % RNGVET_RANMAR_RING;
        k += (rv_u64)fast * RNGVET_RANMAR_LANES;
        /* The rest: the piece's last number (fast < last_step), the ring's steps, any layout. */
        for (; s < steps; ++s) {
            const rv_u64 x = ranmar_regs_step(p, &q, xch, lane);
            if (s >= ring_from) ring[slot] = x;
            if (s < full || (s == full && lane < rem)) {
                const rv_u64 at = linear ? j : ranmar_combined_index(p, i, k) - p.g0;
                if (p.count_mode != 0)
                    out[at] += 1;
                else
                    out[at] = ranmar_output(x, ck, p.mask, p.zero_smallest);
            }
            if (s == last_step) c_last = ck;
            ck = ranmar_c_back(ck, p.cd_step, p.cm);
            slot = (slot + RNGVET_RANMAR_LANES) % RNGVET_RANMAR_RING;
            k += RNGVET_RANMAR_LANES;
            j += j_step;
        }
        c = ranmar_shuffle(c_last, (count - 1) % RNGVET_RANMAR_LANES, xch, lane);
        RV_SYNC_WARP(); /* the ring is complete */
        for (w = lane; w < RNGVET_RANMAR_EXT; w += RNGVET_RANMAR_LANES)
            ext[w] = ring[(g.chunk_end - RNGVET_RANMAR_LAGS + w) % RNGVET_RANMAR_RING];
        RV_SYNC_WARP(); /* ext is complete */
        /* The jump's sums run whether or not the piece jumps: no barrier in a conditional
         * (PoCL 5's kernel compiler aborted on such a form). */
        next = ranmar_jump_regs(p, ext, poly, xch, lane);
        if (jumps) {
            q = next;
            c = ranmar_c_back(c, p.jump_c, p.cm);
        }
        jumped = jumps;
        RV_SYNC_WARP(); /* the ring and ext are read before the next piece writes them */
        g = ranmar_segment_next(p, g);
    }
    /* The state at g.pos: after a jump the registers, else the ring's last 97 values. */
    if (jumped) ranmar_regs_to_ring(q, ring, g.pos, lane);
    RV_SYNC_WARP();
    for (w = lane; w < RNGVET_RANMAR_LAGS; w += RNGVET_RANMAR_LANES)
        st[(g.pos + w) % RNGVET_RANMAR_LAGS]
            = ring[(g.pos - RNGVET_RANMAR_LAGS + w) % RNGVET_RANMAR_RING];
    if (lane == 0) st[RNGVET_RANMAR_C] = c;
}

/* Jump-parallel generation under interleave with coalesced stores (CUDA's grid for p.segments > 1,
 * layout interleave, 2 or more instances). In ranmar_segments_body a warp makes one instance's
 * numbers, which lie N words apart under interleave, so its 32 stores of a step touch 32
 * sectors. Here a block holds the same unit s of T = min(N, RNGVET_RANMAR_ILV_TILE_CHOSEN)
 * neighbouring instances (or the T, at most RNGVET_RANMAR_ILV_TILE, that RNGVET_RANMAR_KERNEL
 * forces) (warp w: instance first + w, unit (first + w) * S + s, the states and jumps of
 * ranmar_segments_body), and its warps go through their chunks in step.
 *
 * Chunk k of every instance fills one run of combined indices. Instance i's position origin_i
 * (ranmar_count_before(p, i, p.start)) has combined index i + N origin_i, the first index at or
 * after p.start that is i mod N, so its chunk k, positions origin_i + kL + m (m < L), lies at
 * p.start + r_i + N (kL + m) with r_i = (i - p.start) mod N < N: the chunks k of the N
 * instances are together [B_k, B_k + N L), B_k = p.start + k N L. A block takes the chunks
 * k = s mod S and, in each, the part [lo, hi) in the launch; there instance i makes
 * count_before(p, i, hi) - count_before(p, i, lo) numbers (c_i; one of two neighbouring counts),
 * the first at lo + rho_i, rho_i = i + N pos_i - lo < N (pos_i = count_before(p, i, lo)),
 * the next N further on each. In step t of the piece lane l of warp w makes instance
 * first + w's number 32 t + l of the piece (the registers of ranmar_segments_body) into the
 * tile, row w, column l; after a block-wide barrier thread e writes element (e mod T, e / T) of
 * the tile to out: neighbouring threads write the same column of neighbouring instances, whose
 * combined indices are neighbours (one row of T words of the output, broken at most once where
 * rho wraps from N - 1 to 0), so a warp's 32 stores cover 32 / T runs of T words (for N = 8:
 * at T = 8, 32 consecutive words; at T = 4, 8 runs of 4 words, each one 32-byte sector). Two tiles
 * alternate, counted across pieces, so one barrier per step suffices (the tile a step fills was
 * last read before the previous step's barrier), and a thread stores what it loaded from the tile
 * only after the next step's values are made. Every warp makes as many steps as the block's longest
 * count (ceil(n / 32 N) for n = hi - lo, the counts differing by one at most), then 3 more where hi
 * > B_{k+1} - N (the instances' last numbers of the chunk lie in [B_{k+1} - N, B_{k+1}), so a
 * warp's piece may end its chunk: a warp jumps where its own piece ends at its chunk's end, as in
 * ranmar_segments_body, even where the launch ends before B_{k+1}), and only a piece's last
 * RNGVET_RANMAR_ILV_RING_STEPS steps write the ring: a warp may make up to 63 values past its own
 * end, and 8 steps (the whole ring) still hold the 193 values the jump reads and the 97 a launch's
 * end stores. A warp with no number in a piece (its numbers of the chunk all came before the
 * launch, or a launch shorter than N) runs the same steps and barriers on its registers and then
 * takes back the ones it had; its tile row and ring are not read. Every barrier is reached by every
 * thread of the block the same number of times (warps past N included). Scratch:
 * RNGVET_RANMAR_SEG_SCRATCH words per warp (ring, then ext), xch T * RNGVET_RANMAR_LANES words
 * (ranmar_shuffle where there is no warp shuffle), and the tiles, 2 * T *
 * ranmar_interleaved_pitch(T) words (at most RNGVET_RANMAR_ILV_TILE_WORDS). */
#define RNGVET_RANMAR_ILV_TILE 8
/* The tile taken unless RNGVET_RANMAR_KERNEL forces another: 4 instances a block ran faster than 8
 * for 8 interleaved instances on an H100 (2.06e11 against 1.99e11 numbers/s in one call), and
 * 2.01e11 on an H200 where 8 had given 1.95e11 in an earlier call (docs/benchmarks.md, part 10). */
#define RNGVET_RANMAR_ILV_TILE_CHOSEN 4
#define RNGVET_RANMAR_ILV_RING_STEPS 8
#define RNGVET_RANMAR_ILV_TILE_WORDS (2 * RNGVET_RANMAR_ILV_TILE * (RNGVET_RANMAR_LANES + 16))

/* Instances (warps) per block of ranmar_interleaved_body for N instances. */
RNGVET_HD unsigned ranmar_interleaved_tile(rv_u64 instances)
{
    return instances < RNGVET_RANMAR_ILV_TILE_CHOSEN ? (unsigned)instances
                                                     : RNGVET_RANMAR_ILV_TILE_CHOSEN;
}

/* Words per tile row: 32 + ceil(16 / T), so that the 16 threads of a half-warp, which read rows
 * (e mod T) and columns (e / T), and the lanes of a warp, which write one row, meet 16 different
 * 8-byte banks where T divides 16 (pitch 34 for T = 8). */
RNGVET_HD unsigned ranmar_interleaved_pitch(unsigned tile)
{
    return RNGVET_RANMAR_LANES + (16 + tile - 1) / tile;
}

RV_BODY void ranmar_interleaved_body(RanmarKernelParams p, RV_GLOBAL rv_u64* state,
    RV_GLOBAL const rv_u64* RV_RESTRICT poly, RV_GLOBAL rv_u64* out, RV_LOCAL rv_u64* scratch,
    RV_LOCAL rv_u64* xchs, RV_LOCAL rv_u64* tiles, rv_u64 block, unsigned thread, unsigned tile)
{
    const unsigned warp = thread / RNGVET_RANMAR_LANES;
    const unsigned lane = thread % RNGVET_RANMAR_LANES;
    const rv_u64 n_inst = p.instances;
    const rv_u64 s = block % p.segments;
    const rv_u64 first = block / p.segments * tile;
    const rv_u64 i = first + warp; /* the instance this warp makes */
    const int active = i < n_inst;
    const unsigned pitch = ranmar_interleaved_pitch(tile);
    const unsigned tile_words = tile * pitch;
    /* The tile element this thread writes to out: row rw (instance ri), column rl. */
    const unsigned rw = thread % tile;
    const unsigned rl = thread / tile;
    const rv_u64 ri = first + rw;
    const rv_u64 row = RNGVET_RANMAR_LANES * n_inst; /* combined indices per step */
    const rv_u64 span = n_inst * p.seg_length; /* combined indices per chunk of all instances */
    const rv_u64 launch_end = p.g0 + p.len;
    const rv_u64 back = ((rv_u64)lane + 1) * p.cd % p.cm;
    const rv_u64 k0 = (p.g0 - p.start) / span; /* the chunk that holds g0 */
    RV_GLOBAL rv_u64* st = state + (active ? i * p.segments + s : 0) * RNGVET_RANMAR_STRIDE;
    RV_LOCAL rv_u64* ring = scratch + warp * RNGVET_RANMAR_SEG_SCRATCH;
    RV_LOCAL rv_u64* ext = ring + RNGVET_RANMAR_RING;
    RV_LOCAL rv_u64* xch = xchs + warp * RNGVET_RANMAR_LANES;
    const RanmarSegment g = ranmar_segment_begin(p, i, s);
    RanmarRegs q;
    rv_u64 c = 0;
    rv_u64 at = g.pos; /* where the registers stand */
    rv_u64 k;
    rv_u64 phase = 0; /* output steps so far: the tile of the next one is phase & 1 */
    int made = 0, jumped = 0;
    unsigned w;
    q.r3 = q.r2 = q.r1 = q.carry = 0;
    if (g.pos < g.end) {
        c = st[RNGVET_RANMAR_C];
        q = ranmar_regs_load(st, g.pos, lane);
    }
    /* The block's chunks in the launch: k = s mod S from the one that holds g0 on. */
    for (k = k0 + (s + p.segments - k0 % p.segments) % p.segments; p.start + k * span < launch_end;
         k += p.segments) {
        const rv_u64 chunk_lo = p.start + k * span;
        const rv_u64 chunk_hi = chunk_lo + span;
        const rv_u64 lo = chunk_lo > p.g0 ? chunk_lo : p.g0;
        const rv_u64 hi = chunk_hi < launch_end ? chunk_hi : launch_end;
        /* Whether an instance's last number of the chunk may be in the piece, the same in
         * every warp: those numbers lie in [chunk_hi - N, chunk_hi). */
        const int tail = hi + n_inst > chunk_hi;
        /* Steps with output, the same in every warp: the longest count, ceil((hi - lo) / N),
         * in steps of 32 (chunks of at most 2^30 numbers: 32-bit counters). */
        const unsigned steps_out = (unsigned)((hi - lo + row - 1) / row);
        const unsigned steps = steps_out + (tail ? 3u : 0u);
        const unsigned ring_from
            = steps > RNGVET_RANMAR_ILV_RING_STEPS ? steps - RNGVET_RANMAR_ILV_RING_STEPS : 0;
        const rv_u64 pos = active ? ranmar_count_before(p, i, lo) : 0;
        const rv_u64 end = active ? ranmar_count_before(p, i, hi) : 0;
        const unsigned count = (unsigned)(end - pos);
        const int live = count > 0;
        /* The warp's piece ends its chunk: it jumps. */
        const int jumps = live && tail && end == ranmar_count_before(p, i, chunk_hi);
        const unsigned last_step = live ? (count - 1) / RNGVET_RANMAR_LANES : 0;
        /* The numbers of instance ri this thread writes: its rl-th of the piece, out index rj,
         * then every 32nd. */
        const rv_u64 rpos = ri < n_inst ? ranmar_count_before(p, ri, lo) : 0;
        const unsigned rcount = ri < n_inst ? (unsigned)(ranmar_count_before(p, ri, hi) - rpos) : 0;
        rv_u64 rj = ri < n_inst ? ri + n_inst * (rpos + rl) - p.g0 : 0;
        unsigned rt = rl;
        unsigned slot = (unsigned)((pos + lane) % RNGVET_RANMAR_RING);
        rv_u64 ck = ranmar_c_back(c, back, p.cm);
        rv_u64 c_last = 0;
        rv_u64 pj = 0, pv = 0;
        int pending = 0;
        const RanmarRegs kept = q;
        RanmarRegs next;
        unsigned t, fast;
        ranmar_regs_to_ring(q, ring, pos, lane);
        /* A step's number goes to out after the next step's values are made (the pending
         * store pj, pv), so that a thread waits for its load from the tile only then. First
         * the steps before the ring's (with output in every step, not count mode). */
        fast = p.count_mode == 0 ? (steps_out < ring_from ? steps_out : ring_from) : 0;
        RV_UNROLL_BY(unroll 3)
        for (t = 0; t < fast; ++t) {
            RV_LOCAL rv_u64* tl = tiles + (phase & 1) * tile_words;
            const rv_u64 x = ranmar_regs_step(p, &q, xch, lane);
            tl[warp * pitch + lane] = ranmar_output(x, ck, p.mask, p.zero_smallest);
            ck = ranmar_c_back(ck, p.cd_step, p.cm);
            if (pending) out[pj] = pv;
            RV_SYNC_BLOCK();
            pending = rt < rcount;
            pv = tl[rw * pitch + rl];
            pj = rj;
            rt += RNGVET_RANMAR_LANES;
            rj += row;
            ++phase;
        }
        slot = (slot + fast * RNGVET_RANMAR_LANES) % RNGVET_RANMAR_RING;
        /* The rest: the ring's steps, the piece's last numbers, the jump's 3 steps. */
        for (; t < steps; ++t) {
            RV_LOCAL rv_u64* tl = tiles + (phase & 1) * tile_words;
            const rv_u64 x = ranmar_regs_step(p, &q, xch, lane);
            if (t >= ring_from) ring[slot] = x;
            if (t == last_step) c_last = ck;
            if (t < steps_out)
                tl[warp * pitch + lane] = ranmar_output(x, ck, p.mask, p.zero_smallest);
            ck = ranmar_c_back(ck, p.cd_step, p.cm);
            slot = (slot + RNGVET_RANMAR_LANES) % RNGVET_RANMAR_RING;
            if (pending) {
                if (p.count_mode != 0)
                    out[pj] += 1;
                else
                    out[pj] = pv;
                pending = 0;
            }
            if (t < steps_out) { /* the same in every warp */
                RV_SYNC_BLOCK();
                pending = rt < rcount;
                pv = tl[rw * pitch + rl];
                pj = rj;
                rt += RNGVET_RANMAR_LANES;
                rj += row;
                ++phase;
            }
        }
        if (pending) { /* the last step's, where no step follows it in the piece */
            if (p.count_mode != 0)
                out[pj] += 1;
            else
                out[pj] = pv;
        }
        c_last = ranmar_shuffle(c_last, live ? (count - 1) % RNGVET_RANMAR_LANES : 0, xch, lane);
        next = q;
        if (tail) { /* the same in every warp */
            RV_SYNC_WARP(); /* the ring is complete */
            for (w = lane; w < RNGVET_RANMAR_EXT; w += RNGVET_RANMAR_LANES)
                ext[w] = ring[(end - RNGVET_RANMAR_LAGS + w) % RNGVET_RANMAR_RING];
            RV_SYNC_WARP(); /* ext is complete */
            next = ranmar_jump_regs(p, ext, poly, xch, lane);
            RV_SYNC_WARP(); /* the ring and ext are read before the next piece writes them */
        }
        if (live) {
            made = 1;
            jumped = jumps;
            q = jumps ? next : q;
            c = jumps ? ranmar_c_back(c_last, p.jump_c, p.cm) : c_last;
            at = jumps ? end + (p.segments - 1) * p.seg_length : end;
        } else {
            q = kept;
        }
    }
    /* The state at `at`: after a jump the registers, else the ring's last 97 values. */
    if (made && jumped) ranmar_regs_to_ring(q, ring, at, lane);
    RV_SYNC_WARP();
    if (made) {
        for (w = lane; w < RNGVET_RANMAR_LAGS; w += RNGVET_RANMAR_LANES)
            st[(at + w) % RNGVET_RANMAR_LAGS]
                = ring[(at - RNGVET_RANMAR_LAGS + w) % RNGVET_RANMAR_RING];
        if (lane == 0) st[RNGVET_RANMAR_C] = c;
    }
}

#if defined(__cplusplus)
} /* namespace rngvet */
#endif

#endif
