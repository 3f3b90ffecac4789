/* OpenCL driver of the Mersenne Twister kernel body (kernels/mt_kernel.hpp), embedded with it
 * into the same program as ranmar.cl. Work-item w of group b runs instance
 * b*RNGVET_MT_THREADS_PER_BLOCK + w, as on CUDA and OpenMP. */

__kernel __attribute__((reqd_work_group_size(RNGVET_MT_THREADS_PER_BLOCK, 1, 1)))
void mt_generate(MtKernelParams p, __global uint* st, __global uint* pos,
                 __global const uint* consts, __global ulong* out, ulong offset)
{
    mt_generate_instance(p, st, pos, consts, out + offset, (ulong)get_global_id(0));
}
