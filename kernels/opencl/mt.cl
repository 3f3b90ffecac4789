/* OpenCL driver of the Mersenne Twister kernel body (kernels/mt_kernel.hpp), embedded with it
 * into the same program as ranmar.cl. Work-item w of group b runs instance
 * b*RNGVET_MT_THREADS_PER_BLOCK + w, as on CUDA and OpenMP. */

__kernel __attribute__((reqd_work_group_size(RNGVET_MT_THREADS_PER_BLOCK, 1, 1)))
void mt_generate(MtKernelParams p, __global uint* st, __global uint* pos,
                 __global const uint* consts, __global ulong* out, ulong offset)
{
    mt_generate_instance(p, st, pos, consts, out + offset, (ulong)get_global_id(0));
}

/* The lane kernel (mt_kernel.hpp, "Lane kernels"): RNGVET_MT_LANES work-items per instance,
 * one team of RNGVET_MT_TEAM instances (32 work-items) per work-group, so that a barrier spans
 * one warp on NVIDIA's driver (on CUDA a block holds several independent teams). */
__kernel __attribute__((reqd_work_group_size(RNGVET_MT_LANES * RNGVET_MT_TEAM, 1, 1)))
void mt_generate_lanes(MtKernelParams p, __global uint* st, __global uint* pos,
                       __global const uint* consts, __global ulong* out, ulong offset)
{
    __local uint sh[RNGVET_MT_TEAM * RNGVET_MT_LANE_PITCH];
    const uint lid = (uint)get_local_id(0);
    const uint col = lid / RNGVET_MT_LANES;
    const uint lane = lid % RNGVET_MT_LANES;
    const ulong first = (ulong)get_group_id(0) * RNGVET_MT_TEAM;
    const int active = first + col < p.instances;
    MtLane r = mt_lane_begin(p, pos, consts, first + col, col, lane);
    if (active) mt_lane_load(p, st, sh, r, lane);
    const ulong steps = mt_lanes_steps(p, first);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (ulong s = 0; s < steps; ++s) {
        r = mt_lane_compute(p, sh, r);
        barrier(CLK_LOCAL_MEM_FENCE);
        r = mt_lane_commit(p, sh, out + offset, r);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (active) mt_lane_store(p, st, sh, r, lane);
    mt_lane_end(p, pos, r, lane);
}
