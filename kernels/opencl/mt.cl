/* OpenCL wrappers of the Mersenne Twister grids (kernels/mt_kernel.hpp), embedded with the
 * RANMAR wrappers into one program (ranmar.cl says how). */

/* One work-item per instance, RNGVET_MT_THREADS_PER_BLOCK per group, as on CUDA and OpenMP. */
__kernel __attribute__((reqd_work_group_size(RNGVET_MT_THREADS_PER_BLOCK, 1, 1)))
void mt_generate(MtKernelParams p, __global uint* st, __global uint* pos,
                 __global const uint* consts, __global ulong* out, ulong offset)
{
    mt_words_body(p, st, pos, consts, out + offset, get_group_id(0), (uint)get_local_id(0));
}

/* The lane grid ("Lane kernels"): one team of RNGVET_MT_TEAM instances (32 work-items) per
 * work-group, so that a barrier spans one warp on NVIDIA's driver (on CUDA a block holds
 * several independent teams). */
__kernel __attribute__((reqd_work_group_size(RNGVET_MT_LANES * RNGVET_MT_TEAM, 1, 1)))
void mt_generate_lanes(MtKernelParams p, __global uint* st, __global uint* pos,
                       __global const uint* consts, __global ulong* out, ulong offset)
{
    __local uint sh[RNGVET_MT_TEAM * RNGVET_MT_LANE_PITCH];
    mt_lanes_body(p, st, pos, consts, out + offset, sh, get_group_id(0), (uint)get_local_id(0), 1);
}
