/* OpenCL driver of the RANMAR kernel body (kernels/ranmar_kernel.hpp). The program text is
 * kernel_portability.hpp + ranmar_kernel.hpp + this file, embedded at build time
 * (kernels/embed_text.cmake). Build options supply RNGVET_RANMAR_PER_BLOCK.
 *
 * A work-group holds RNGVET_RANMAR_PER_BLOCK instances of 32 work-items each, the same grid
 * as the CUDA and OpenMP backends: group b, work-item w*32 + l is lane l of instance
 * b*RNGVET_RANMAR_PER_BLOCK + w. Sub-groups are not assumed, so the barriers are group-wide
 * and every work-item runs as many steps as the busiest instance of its group. */

__kernel __attribute__((reqd_work_group_size(RNGVET_RANMAR_PER_BLOCK * RNGVET_RANMAR_LANES, 1, 1)))
void ranmar_generate(RanmarKernelParams p, __global ulong* state, __global ulong* out,
                     ulong offset)
{
    __local ulong hist[RNGVET_RANMAR_PER_BLOCK * RNGVET_RANMAR_LAGS];
    const uint lid = (uint)get_local_id(0);
    const uint warp = lid / RNGVET_RANMAR_LANES;
    const uint lane = lid % RNGVET_RANMAR_LANES;
    const ulong first = (ulong)get_group_id(0) * RNGVET_RANMAR_PER_BLOCK;
    const ulong i = first + warp;
    const int active = i < p.instances;
    __global ulong* st = state + (active ? i : 0) * RNGVET_RANMAR_STRIDE;
    __local ulong* h = hist + warp * RNGVET_RANMAR_LAGS;

    RanmarLane r = ranmar_lane_begin(p, st, i, lane);
    if (active) ranmar_lane_load(st, h, lane);
    ulong steps = 0;
    for (ulong w = 0; w < RNGVET_RANMAR_PER_BLOCK; ++w) {
        const ulong s = ranmar_steps(p, first + w);
        if (s > steps) steps = s;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (ulong s = 0; s < steps; ++s) {
        r = ranmar_lane_step(p, h, st, out + offset, i, r);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (active) ranmar_lane_store(st, h, lane);
}

/* The tiled kernel (ranmar_kernel.hpp, "Tiled launch"): RNGVET_RANMAR_TILE instances per
 * work-group, the same grid as ranmar_generate_tiled on CUDA; used for every layout but
 * single. Each step's numbers go through a local tile and are written to out by the whole
 * group in the layout's order (coalesced under interleave). */
__kernel __attribute__((reqd_work_group_size(RNGVET_RANMAR_TILE * RNGVET_RANMAR_LANES, 1, 1)))
void ranmar_generate_tiled(RanmarKernelParams p, __global ulong* state, __global ulong* out,
                           ulong offset)
{
    __local ulong hist[RNGVET_RANMAR_TILE * RNGVET_RANMAR_LAGS];
    __local ulong tile[2 * RNGVET_RANMAR_TILE * RNGVET_RANMAR_TILE_PITCH];
    __local ulong start[RNGVET_RANMAR_TILE];
    __local ulong end[RNGVET_RANMAR_TILE];
    const uint lid = (uint)get_local_id(0);
    const uint warp = lid / RNGVET_RANMAR_LANES;
    const uint lane = lid % RNGVET_RANMAR_LANES;
    const ulong first = (ulong)get_group_id(0) * RNGVET_RANMAR_TILE;
    const ulong i = first + warp;
    const int active = i < p.instances;
    __global ulong* st = state + (active ? i : 0) * RNGVET_RANMAR_STRIDE;
    __local ulong* h = hist + warp * RNGVET_RANMAR_LAGS;

    RanmarLane r = ranmar_lane_begin(p, st, i, lane);
    if (active) ranmar_lane_load(st, h, lane);
    if (lane == 0) {
        start[warp] = active ? r.k : 0;
        end[warp] = active ? r.end : 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    ulong steps = 0;
    for (uint w = 0; w < RNGVET_RANMAR_TILE; ++w) {
        const ulong s = (end[w] - start[w] + RNGVET_RANMAR_LANES - 1) / RNGVET_RANMAR_LANES;
        if (end[w] > start[w] && s > steps) steps = s;
    }
    RanmarTileSlot q = ranmar_tile_slot(p, start, end, first, lid);
    for (ulong s = 0; s < steps; ++s) {
        __local ulong* t = tile + (s & 1) * (RNGVET_RANMAR_TILE * RNGVET_RANMAR_TILE_PITCH);
        r = ranmar_lane_step_tile(p, h, st, t + warp * RNGVET_RANMAR_TILE_PITCH, r, lane);
        barrier(CLK_LOCAL_MEM_FENCE);
        q = ranmar_tile_write(p, t, out + offset, q);
    }
    if (active) ranmar_lane_store(st, h, lane);
}

/* Jump-parallel generation (ranmar_kernel.hpp): one unit per work-group of 32 work-items, so
 * that units that make different numbers of chunks never meet at a barrier; unit
 * u = i * S + s makes every S-th chunk of instance i. Every layout, when p.segments > 1. */
__kernel __attribute__((reqd_work_group_size(RNGVET_RANMAR_LANES, 1, 1)))
void ranmar_generate_segments(RanmarKernelParams p, __global ulong* state,
                              __global const ulong* poly, __global ulong* out, ulong offset)
{
    __local ulong hist[RNGVET_RANMAR_SEG_HIST];
    __local ulong ext[RNGVET_RANMAR_EXT];
    const uint lane = (uint)get_local_id(0);
    const ulong unit = (ulong)get_group_id(0);
    const ulong i = unit / p.segments;
    if (i >= p.instances) return; /* the whole group */
    RanmarSegment g = ranmar_segment_begin(p, i, unit % p.segments);
    if (g.pos >= g.end) return; /* the whole group: no chunk of this unit in the launch */
    __global ulong* st = state + unit * RNGVET_RANMAR_STRIDE;
    ranmar_segment_load(st, hist, lane);
    barrier(CLK_LOCAL_MEM_FENCE);
    while (g.pos < g.end) {
        RanmarLane r = ranmar_segment_lane(p, hist, g, lane);
        const ulong steps = ranmar_segment_steps(g);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (ulong s = 0; s < steps; ++s) {
            r = ranmar_segment_step(p, hist, out + offset, i, r);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (ranmar_segment_jumps(g)) {
            ranmar_jump_window(hist, ext, g, lane);
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint q = 0; q < 3; ++q) {
                ranmar_jump_extend(p, ext, q, lane);
                barrier(CLK_LOCAL_MEM_FENCE);
            }
            ranmar_jump_apply(p, hist, ext, poly, g, lane);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        g = ranmar_segment_next(p, g);
    }
    ranmar_segment_store(st, hist, lane);
}
