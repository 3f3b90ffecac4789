/* Mersenne Twister kernel body (DC parameter sets and MT19937), shared by the CUDA, OpenCL and
 * OpenMP backends (C subset, generators/portable.hpp). One thread runs one instance; the
 * arithmetic is generators/mt_step.hpp's (mt_twist, mt_temper_word), which the reference
 * mt_next calls too (LOCKED), on a state laid out word-major across instances:
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
#include "generators/layout_index.hpp"
#include "generators/mt_step.hpp"
#include "generators/portable.hpp"
#include "kernels/grid.hpp"
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
    /* Jump-parallel generation (mt_segments_body; 0 without): units per instance, numbers per
     * chunk, the combined index the chunks are counted from, words per jump polynomial. */
    rv_u64 segments, seg_length, start, jump_words;
} MtKernelParams;

/* The tempering of a new word into the output (mt_temper_word with the launch's shifts). */
RNGVET_HD rv_u32 mt_temper(MtKernelParams p, rv_u32 y, rv_u32 mask_b, rv_u32 mask_c)
{
    return mt_temper_word(y, (rv_u32)p.shift0, (rv_u32)p.shift_b, (rv_u32)p.shift_c,
        (rv_u32)p.shift1, mask_b, mask_c);
}

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
        const rv_u32 w = mt_twist(
            st[k * p.stride + i], st[k1 * p.stride + i], st[km * p.stride + i], umask, lmask, aaa);
        st[k * p.stride + i] = w;
        k = k1;
        const rv_u32 y = mt_temper(p, w, mask_b, mask_c);
        const rv_u64 j = rv_layout_index(p.instances, p.layout, p.block, i, t) - p.g0;
        if (p.count_mode != 0)
            out[j] += 1;
        else
            out[j] = y;
    }
    pos[i] = (rv_u32)k;
}

/* Lane kernels (CUDA and OpenCL drivers, mt_generate_lanes): RNGVET_MT_LANES threads per
 * instance, for instance counts too small to fill a GPU with one thread each. Words
 * x_n .. x_{n+L-1} of the recurrence x_n = f(x_{n-nn}, x_{n-nn+1}, x_{n-nn+mm}) depend only on
 * older words when L <= nn - mm, so lane j makes x_{n+j}: in a step every active lane first
 * reads its three words and computes (mt_lane_compute), then, after a barrier, writes its word,
 * tempers and stores its output (mt_lane_commit), and a barrier follows (the next step reads
 * what this one wrote).
 *
 * A team of RNGVET_MT_TEAM instances is 32 threads (one warp): thread e is lane e % L of the
 * team's instance e / L, so the barriers only span one warp (__syncwarp on CUDA; on OpenCL a
 * work-group is one team). The team's states live in local (shared) memory during the
 * launch, instance c's word w at sh[c * RNGVET_MT_LANE_PITCH + w]; the pitch is 8 modulo the
 * 32 banks, so the 4 x 8 words a step reads are in distinct banks (but where a lane's words
 * wrap around nn). Outputs: under interleave a warp's store is 8 runs of 4 consecutive
 * instances (whole 32-byte sectors of 64-bit words); under block:K each instance's 8 numbers
 * are consecutive. Output indices advance by a constant per step under interleave (no
 * multiplications in the loop). Used when nn - mm >= RNGVET_MT_LANES and
 * nn <= RNGVET_MT_LANE_MAX_NN, mt_lanes_fit (DC sets of 521 <= p < 2048: MT521, MT607, ...);
 * others (MT19937's 624 words) run mt_generate_instance. */
#define RNGVET_MT_LANES 8
#define RNGVET_MT_TEAM 4
#define RNGVET_MT_LANE_MAX_NN 64
#define RNGVET_MT_LANE_PITCH 72

/* Whether the sets' nn and mm allow the lane kernels. */
RNGVET_HD int mt_lanes_fit(MtKernelParams p)
{
    return p.nn - p.mm >= RNGVET_MT_LANES && p.nn <= RNGVET_MT_LANE_MAX_NN;
}

typedef struct MtLane {
    rv_u64 i; /* instance */
    rv_u64 first; /* the instance's first number in this launch */
    rv_u64 t; /* the number this lane makes next */
    rv_u64 end; /* the instance's first number after this launch (0 for i >= N) */
    rv_u64 j; /* under interleave: out index of number t */
    rv_u64 j_step; /* under interleave: L * N */
    rv_u32 col; /* the instance's place in its team: its row of the local state */
    rv_u32 pos0; /* the instance's position at the start of the launch */
    rv_u32 k; /* the state word this lane replaces next */
    rv_u32 aaa, mask_b, mask_c, y;
} MtLane;

/* Every lane calls this before the first barrier (lane 0 rewrites pos at the end). */
RNGVET_HD MtLane mt_lane_begin(MtKernelParams p, RV_GLOBAL const rv_u32* pos,
    RV_GLOBAL const rv_u32* consts, rv_u64 i, unsigned col, unsigned lane)
{
    MtLane r;
    r.i = i;
    r.col = col;
    r.y = 0;
    r.j = r.j_step = 0;
    if (i >= p.instances) {
        r.first = r.t = r.end = 0;
        r.pos0 = r.k = 0;
        r.aaa = r.mask_b = r.mask_c = 0;
        return r;
    }
    r.first = rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0);
    r.end = rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0 + p.len);
    r.t = r.first + lane;
    r.pos0 = pos[i];
    r.k = r.pos0 + lane;
    if (r.k >= p.nn) r.k -= (rv_u32)p.nn;
    r.aaa = consts[i];
    r.mask_b = consts[p.stride + i];
    r.mask_c = consts[2 * p.stride + i];
    if (p.layout == RNGVET_LAYOUT_INTERLEAVE) {
        r.j = rv_layout_index(p.instances, p.layout, p.block, i, r.t) - p.g0;
        r.j_step = RNGVET_MT_LANES * p.instances;
    }
    return r;
}

/* Steps of the busiest instance of the team that starts at instance `first`. */
RNGVET_HD rv_u64 mt_lanes_steps(MtKernelParams p, rv_u64 first)
{
    rv_u64 steps = 0;
    for (rv_u64 w = 0; w < RNGVET_MT_TEAM; ++w) {
        const rv_u64 i = first + w;
        if (i >= p.instances) break;
        const rv_u64 n = rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0 + p.len)
            - rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0);
        const rv_u64 s = (n + RNGVET_MT_LANES - 1) / RNGVET_MT_LANES;
        if (s > steps) steps = s;
    }
    return steps;
}

/* The lanes copy their instance's state between st and the team's local copy sh (lane j:
 * words j, j + L, ...); a barrier must follow the load. Not for i >= N. */
RNGVET_HD void mt_lane_load(
    MtKernelParams p, RV_GLOBAL const rv_u32* st, RV_LOCAL rv_u32* sh, MtLane r, unsigned lane)
{
    for (rv_u64 w = lane; w < p.nn; w += RNGVET_MT_LANES)
        sh[r.col * RNGVET_MT_LANE_PITCH + w] = st[w * p.stride + r.i];
}

RNGVET_HD void mt_lane_store(
    MtKernelParams p, RV_GLOBAL rv_u32* st, RV_LOCAL const rv_u32* sh, MtLane r, unsigned lane)
{
    for (rv_u64 w = lane; w < p.nn; w += RNGVET_MT_LANES)
        st[w * p.stride + r.i] = sh[r.col * RNGVET_MT_LANE_PITCH + w];
}

/* Read half of a step: the lane's new word, from words no lane writes in this step. */
RNGVET_HD MtLane mt_lane_compute(MtKernelParams p, RV_LOCAL const rv_u32* sh, MtLane r)
{
    if (r.t < r.end) {
        const rv_u32 nn = (rv_u32)p.nn;
        const rv_u32 k1 = r.k + 1 == nn ? 0 : r.k + 1;
        const rv_u32 km = r.k + (rv_u32)p.mm >= nn ? r.k + (rv_u32)p.mm - nn : r.k + (rv_u32)p.mm;
        RV_LOCAL const rv_u32* row = sh + r.col * RNGVET_MT_LANE_PITCH;
        r.y = mt_twist(row[r.k], row[k1], row[km], (rv_u32)p.umask, (rv_u32)p.lmask, r.aaa);
    }
    return r;
}

/* Write half of a step: stores the word and the tempered output, moves on by L positions. */
RNGVET_HD MtLane mt_lane_commit(
    MtKernelParams p, RV_LOCAL rv_u32* sh, RV_GLOBAL rv_u64* out, MtLane r)
{
    if (r.t < r.end) {
        sh[r.col * RNGVET_MT_LANE_PITCH + r.k] = r.y;
        const rv_u32 y = mt_temper(p, r.y, r.mask_b, r.mask_c);
        const rv_u64 j = p.layout == RNGVET_LAYOUT_INTERLEAVE
            ? r.j
            : rv_layout_index(p.instances, p.layout, p.block, r.i, r.t) - p.g0;
        if (p.count_mode != 0)
            out[j] += 1;
        else
            out[j] = y;
    }
    r.t += RNGVET_MT_LANES;
    r.j += r.j_step;
    r.k += RNGVET_MT_LANES;
    if (r.k >= p.nn) r.k -= (rv_u32)p.nn;
    return r;
}

/* After the last step: lane 0 records the instance's new position. */
RNGVET_HD void mt_lane_end(MtKernelParams p, RV_GLOBAL rv_u32* pos, MtLane r, unsigned lane)
{
    if (lane != 0 || r.end <= r.first) return;
    rv_u64 k = r.pos0 + (r.end - r.first) % p.nn;
    if (k >= p.nn) k -= p.nn;
    pos[r.i] = (rv_u32)k;
}

/* --- Jump-parallel generation (few instances) ------------------------------------------
 *
 * The scheme of ranmar_kernel.hpp ("Jump-parallel generation"), for the Mersenne Twisters:
 * instance i's stream, counted from its position at combined index p.start, is cut into chunks
 * of L = p.seg_length numbers, and unit u = i * S + s (S = p.segments) makes chunks s, s + S,
 * s + 2S, ... . A unit's state sits at the first number of its chunks at or after the next
 * launch's start (or inside the chunk a launch ended in). Whenever a unit finishes a chunk it
 * jumps over the other units' S - 1 chunks: the state after n = (S - 1) L steps is g(T) x with
 * g(t) = t^n mod phi(t) (generators/jump.hpp), the same for every chunk and launch, computed
 * once per instance on the host; the unit evaluates it by Horner's rule as mt_jump does (an
 * accumulator at position 0 steps once per coefficient, from the highest down, and where the
 * coefficient is 1 the state is added word by word in logical order, word j being
 * x[(k + j) mod nn]).
 *
 * One warp per unit, RNGVET_MT_SEG_WARPS units per block. The chunk's numbers are made
 * min(32, nn - mm) at a time, as the lane kernels make them (a step's words depend only on older
 * words): every lane reads and computes its word, a barrier, every lane writes it and stores its
 * output, a barrier. Lane 0 makes the accumulator's steps of the jump (the recurrence is
 * sequential); the nn-word additions of the jump, about p/2 of them (10^4 of 624 words for
 * MT19937), are shared by the 32 lanes, between two barriers. Every lane keeps the positions
 * (k, the accumulator's) itself. Barriers span a
 * warp; a warp whose unit has nothing to make in a launch leaves at once, as a whole. Buffers:
 *     ust[u * nn + w]    word w of unit u's state      upos[u]  its position k
 *     acc[u * nn + w]    the unit's accumulator of the jump (scratch)
 *     jump[i * p.jump_words + q]  bit b of word q: coefficient 32 q + b of instance i's g
 *     jdeg[i]            degree of g
 * Unit-major: a unit's words stay in a few cache lines of its warp's SM. */
#define RNGVET_MT_SEG_WARPS 4

/* Unit x (state words x, position k) moved on by its instance's jump polynomial g of degree
 * `degree`; acc is the unit's nn words of scratch. Called by the 32 lanes of the unit's warp;
 * returns the new position. */
RV_BODY rv_u32 mt_segment_jump(MtKernelParams p, RV_GLOBAL rv_u32* x, rv_u32 k,
    RV_GLOBAL rv_u32* acc, RV_GLOBAL const rv_u32* g, rv_u32 degree, rv_u32 aaa, unsigned lane)
{
    const rv_u32 nn = (rv_u32)p.nn;
    const rv_u32 mm = (rv_u32)p.mm;
    for (rv_u32 w = lane; w < nn; w += 32)
        acc[w] = 0;
    RV_SYNC_WARP();
    rv_u32 ak = 0;
    for (rv_u32 e = degree + 1; e-- > 0;) {
        const rv_u32 k1 = ak + 1 == nn ? 0 : ak + 1;
        if (lane == 0) {
            const rv_u32 km = ak + mm >= nn ? ak + mm - nn : ak + mm;
            acc[ak] = mt_twist(acc[ak], acc[k1], acc[km], (rv_u32)p.umask, (rv_u32)p.lmask, aaa);
        }
        ak = k1;
        if (((g[e / 32] >> (e % 32)) & 1u) == 0) continue;
        RV_SYNC_WARP(); /* the step before the addition */
        for (rv_u32 j = lane; j < nn; j += 32) {
            const rv_u32 a = ak + j >= nn ? ak + j - nn : ak + j;
            const rv_u32 b = k + j >= nn ? k + j - nn : k + j;
            acc[a] ^= x[b];
        }
        RV_SYNC_WARP(); /* the addition before the next step */
    }
    RV_SYNC_WARP(); /* lane 0's last steps before the copy */
    for (rv_u32 w = lane; w < nn; w += 32)
        x[w] = acc[w];
    RV_SYNC_WARP();
    return ak;
}

/* Unit `unit` over the launch [p.g0, p.g0 + p.len), by the lanes of its warp: its chunks'
 * numbers in place, a jump after each chunk it finishes (the chunk arithmetic of
 * ranmar_segment_begin). */
RV_BODY void mt_segment_unit(MtKernelParams p, RV_GLOBAL rv_u32* ust, RV_GLOBAL rv_u32* upos,
    RV_GLOBAL rv_u32* acc, RV_GLOBAL const rv_u32* consts, RV_GLOBAL const rv_u32* jump,
    RV_GLOBAL const rv_u32* jdeg, RV_GLOBAL rv_u64* out, rv_u64 unit, unsigned lane)
{
    const rv_u64 segments = p.segments;
    const rv_u64 length = p.seg_length;
    if (unit >= p.instances * segments) return;
    const rv_u64 i = unit / segments;
    const rv_u64 s = unit % segments;
    const rv_u64 origin = rv_layout_count_before(p.instances, p.layout, p.block, i, p.start);
    const rv_u64 a = rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0);
    const rv_u64 end = rv_layout_count_before(p.instances, p.layout, p.block, i, p.g0 + p.len);
    rv_u64 chunk = (a - origin) / length;
    const rv_u64 owner = chunk % segments;
    rv_u64 pos = a;
    if (owner != s) {
        chunk += (s + segments - owner) % segments;
        pos = origin + chunk * length;
    }
    if (pos >= end) return;
    rv_u64 chunk_end = origin + (chunk + 1) * length;
    const rv_u32 aaa = consts[i];
    const rv_u32 mask_b = consts[p.stride + i];
    const rv_u32 mask_c = consts[2 * p.stride + i];
    const rv_u32 umask = (rv_u32)p.umask;
    const rv_u32 lmask = (rv_u32)p.lmask;
    const rv_u32 nn = (rv_u32)p.nn;
    const rv_u32 mm = (rv_u32)p.mm;
    RV_GLOBAL rv_u32* const x = ust + unit * p.nn;
    rv_u32 k = upos[unit];
    /* Output indices by increments (no division per number): the instance's numbers lie `step`
     * apart, in runs of `run` (block:K: K; request:R: its share; else unbounded) separated by
     * `gap` more. */
    const rv_u64 run = p.layout == RNGVET_LAYOUT_BLOCK ? p.block
        : p.layout == RNGVET_LAYOUT_REQUEST            ? rv_request_share(p.instances, p.block, i)
                                                       : 0;
    const rv_u64 gap = p.layout == RNGVET_LAYOUT_BLOCK ? (p.instances - 1) * p.block
        : p.layout == RNGVET_LAYOUT_REQUEST            ? p.block - run
                                                       : 0;
    const rv_u64 step = p.layout == RNGVET_LAYOUT_INTERLEAVE ? p.instances : 1;
    const rv_u32 lanes = nn - mm < 32 ? nn - mm : 32;
    rv_u64 j = 0, in_run = 0;
    while (pos < end) {
        const rv_u64 piece_end = chunk_end < end ? chunk_end : end;
        /* `lanes` lanes make words x_t .. x_{t+lanes-1} at a time, each from older words only
         * (lanes <= nn - mm): all read and compute, a barrier, all write and store. */
        if (lane < lanes && pos + lane < piece_end) {
            const rv_u64 t = pos + lane;
            j = rv_layout_index(p.instances, p.layout, p.block, i, t) - p.g0;
            in_run = run != 0 ? t % run : 0;
        }
        rv_u32 w0 = k + lane >= nn ? k + lane - nn : k + lane;
        for (rv_u64 t = pos; t < piece_end; t += lanes) {
            const int live = lane < lanes && t + lane < piece_end;
            rv_u32 y = 0;
            if (live) {
                const rv_u32 w1 = w0 + 1 >= nn ? w0 + 1 - nn : w0 + 1;
                const rv_u32 wm = w0 + mm >= nn ? w0 + mm - nn : w0 + mm;
                y = mt_twist(x[w0], x[w1], x[wm], umask, lmask, aaa);
            }
            RV_SYNC_WARP(); /* every read of this step before its writes */
            if (live) {
                x[w0] = y;
                if (p.count_mode != 0)
                    out[j] += 1;
                else
                    out[j] = mt_temper(p, y, mask_b, mask_c);
                j += step * lanes;
                if (run != 0) {
                    in_run += lanes;
                    while (in_run >= run) {
                        in_run -= run;
                        j += gap;
                    }
                }
            }
            w0 = w0 + lanes >= nn ? w0 + lanes - nn : w0 + lanes;
            RV_SYNC_WARP(); /* this step's words before the next step reads them */
        }
        k = (rv_u32)((k + (piece_end - pos) % nn) % nn);
        if (piece_end != chunk_end) break;
        k = mt_segment_jump(
            p, x, k, acc + unit * p.nn, jump + i * p.jump_words, jdeg[i], aaa, lane);
        pos = chunk_end + (segments - 1) * length;
        chunk_end = pos + length;
    }
    if (lane == 0) upos[unit] = k;
}

/* --- The grids: one body each, a function of (block, thread) (grid.hpp) ---------------- */

/* One thread per instance: thread t of block b runs instance b * RNGVET_MT_THREADS_PER_BLOCK + t.
 * No barriers. */
RV_BODY void mt_words_body(MtKernelParams p, RV_GLOBAL rv_u32* st, RV_GLOBAL rv_u32* pos,
    RV_GLOBAL const rv_u32* consts, RV_GLOBAL rv_u64* out, rv_u64 block, unsigned thread)
{
    mt_generate_instance(p, st, pos, consts, out, block * RNGVET_MT_THREADS_PER_BLOCK + thread);
}

/* The lane grid ("Lane kernels" above): `teams` warps per block, warp w of block b the team of
 * instances (b * teams + w) * RNGVET_MT_TEAM onwards. Barriers span a warp (a team); sh is
 * teams * RNGVET_MT_TEAM * RNGVET_MT_LANE_PITCH words of block-shared scratch. */
RV_BODY void mt_lanes_body(MtKernelParams p, RV_GLOBAL rv_u32* st, RV_GLOBAL rv_u32* pos,
    RV_GLOBAL const rv_u32* consts, RV_GLOBAL rv_u64* out, RV_LOCAL rv_u32* sh, rv_u64 block,
    unsigned thread, unsigned teams)
{
    const unsigned team = thread / 32;
    const unsigned col = thread % 32 / RNGVET_MT_LANES;
    const unsigned lane = thread % RNGVET_MT_LANES;
    const rv_u64 first = (block * teams + team) * RNGVET_MT_TEAM;
    const int active = first + col < p.instances;
    RV_LOCAL rv_u32* s = sh + team * (RNGVET_MT_TEAM * RNGVET_MT_LANE_PITCH);
    MtLane r = mt_lane_begin(p, pos, consts, first + col, col, lane);
    if (active) mt_lane_load(p, st, s, r, lane);
    const rv_u64 steps = mt_lanes_steps(p, first);
    RV_SYNC_WARP();
    for (rv_u64 k = 0; k < steps; ++k) {
        r = mt_lane_compute(p, s, r);
        RV_SYNC_WARP();
        r = mt_lane_commit(p, s, out, r);
        RV_SYNC_WARP();
    }
    if (active) mt_lane_store(p, st, s, r, lane);
    mt_lane_end(p, pos, r, lane);
}

/* The jump-parallel grid ("Jump-parallel generation" above): warp w of block b runs unit
 * b * RNGVET_MT_SEG_WARPS + w. Barriers span a warp. */
RV_BODY void mt_segments_body(MtKernelParams p, RV_GLOBAL rv_u32* ust, RV_GLOBAL rv_u32* upos,
    RV_GLOBAL rv_u32* acc, RV_GLOBAL const rv_u32* consts, RV_GLOBAL const rv_u32* jump,
    RV_GLOBAL const rv_u32* jdeg, RV_GLOBAL rv_u64* out, rv_u64 block, unsigned thread)
{
    mt_segment_unit(p, ust, upos, acc, consts, jump, jdeg, out,
        block * RNGVET_MT_SEG_WARPS + thread / 32, thread % 32);
}

#if defined(__cplusplus)
} /* namespace rngvet */
#endif

#endif
