/* OpenCL wrappers of the RANMAR grids (kernels/ranmar_kernel.hpp; kernels/grid.hpp says how a
 * body meets its backends). The program text is generators/portable.hpp, the portable
 * arithmetic of generators/ (layout_index.hpp, ranmar_step.hpp, mt_step.hpp), the kernel bodies
 * and these wrappers, embedded at build time (cmake/embed.cmake). Each wrapper declares its
 * body's __local scratch and runs it for (get_group_id(0), get_local_id(0)). Bodies whose
 * barriers span a warp run with one warp (32 work-items) per work-group, so that the group's
 * barrier is the warp's and a group that leaves early leaves whole. */

/* One warp per instance (layout single). */
__kernel __attribute__((reqd_work_group_size(RNGVET_RANMAR_LANES, 1, 1)))
void ranmar_generate(RanmarKernelParams p, __global ulong* state, __global ulong* out,
                     ulong offset)
{
    __local ulong hist[RNGVET_RANMAR_LAGS];
    ranmar_warps_body(p, state, out + offset, hist, get_group_id(0), (uint)get_local_id(0), 1);
}

/* The tiled grid ("Tiled launch"): every layout but single. */
__kernel __attribute__((reqd_work_group_size(RNGVET_RANMAR_TILED_THREADS, 1, 1)))
void ranmar_generate_tiled(RanmarKernelParams p, __global ulong* state, __global ulong* out,
                           ulong offset)
{
    __local ulong hist[RNGVET_RANMAR_TILE * RNGVET_RANMAR_LAGS];
    __local ulong tile[2 * RNGVET_RANMAR_TILE * RNGVET_RANMAR_TILE_PITCH];
    __local ulong start[RNGVET_RANMAR_TILE];
    __local ulong end[RNGVET_RANMAR_TILE];
    ranmar_tiled_body(p, state, out + offset, hist, tile, start, end, get_group_id(0),
                      (uint)get_local_id(0));
}

/* Jump-parallel generation: one unit per work-group. Every layout, when p.segments > 1. */
__kernel __attribute__((reqd_work_group_size(RNGVET_RANMAR_LANES, 1, 1)))
void ranmar_generate_segments(RanmarKernelParams p, __global ulong* state,
                              __global const ulong* poly, __global ulong* out, ulong offset)
{
    __local ulong scratch[RNGVET_RANMAR_SEG_SCRATCH];
    __local ulong xch[RNGVET_RANMAR_LANES];
    ranmar_segments_body(p, state, poly, out + offset, scratch, xch, get_group_id(0),
                         (uint)get_local_id(0), 1);
}
