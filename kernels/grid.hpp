/* How a kernel body meets the backends that run it. Every grid (ranmar_kernel.hpp,
 * mt_kernel.hpp, mt_registers.hpp) is one body, a function of (block, thread) and of
 * block-shared scratch passed in as pointers, that meets the other threads of its block only at
 * the barriers below. Each backend supplies the rest:
 *
 *   CUDA     a thin __global__ trampoline (kernels/cuda/cuda_kernels.cu) that declares the
 *            __shared__ scratch and passes blockIdx.x, threadIdx.x;
 *   OpenCL   a thin __kernel wrapper (the .cl files of kernels/opencl) that declares the __local
 * scratch and passes get_group_id(0), get_local_id(0); host     host_launch (host_grid.hpp): every
 * block, its threads as cooperative fibers that meet at host_barrier(), so that the CPU runs every
 * body (tests/test_kernel_bodies).
 *
 * Barrier policy. RV_SYNC_WARP() orders the threads of one warp (32 threads) and
 * RV_SYNC_BLOCK() those of the block. A body that only calls RV_SYNC_WARP() shares scratch
 * within a warp and may leave early a whole warp at a time; an OpenCL wrapper runs such a body
 * with one warp per work-group, where the barrier is the group's. A body that calls
 * RV_SYNC_BLOCK() makes every thread of the block reach every barrier.
 *
 *   RV_BODY      qualifier of a kernel body (device-only on CUDA)
 *   RV_RESTRICT  a read-only buffer no other argument aliases
 */
#ifndef RNGVET_GRID_HPP
#define RNGVET_GRID_HPP

#if !defined(RNGVET_OPENCL_C)
#include "generators/portable.hpp"
#endif

#if defined(RNGVET_OPENCL_C)
#define RV_BODY static inline
#define RV_RESTRICT restrict
#define RV_SYNC_WARP() barrier(CLK_LOCAL_MEM_FENCE)
#define RV_SYNC_BLOCK() barrier(CLK_LOCAL_MEM_FENCE)
#elif defined(__CUDACC__)
#define RV_BODY __device__ __forceinline__
#define RV_RESTRICT __restrict__
#define RV_SYNC_WARP() __syncwarp()
#define RV_SYNC_BLOCK() __syncthreads()
#else
namespace rngvet {
/* The barrier of a body run by host_launch (host_grid.cpp). */
void host_barrier();
} /* namespace rngvet */
#define RV_BODY inline
#define RV_RESTRICT __restrict__
#define RV_SYNC_WARP() ::rngvet::host_barrier()
#define RV_SYNC_BLOCK() ::rngvet::host_barrier()
#endif

#endif
