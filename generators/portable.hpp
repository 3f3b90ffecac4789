/* The few words that differ between the compilers that build the portable headers of
 * generators/ (layout_index.hpp, ranmar_step.hpp, mt_step.hpp, u01.hpp) and the kernel bodies
 * of kernels/: C++ (CPU reference and OpenMP), CUDA, OpenCL C, and C (u01.hpp in
 * python/bitgen.c). Those headers are written in the subset of C that all of them accept, so
 * one text defines the arithmetic on every backend. The OpenCL program is this file, the
 * portable headers, the kernel bodies and the .cl drivers concatenated at build time
 * (cmake/embed.cmake), so this file uses include guards, not #pragma once, and the headers
 * guard their #include lines from the OpenCL compiler (RNGVET_OPENCL_C).
 *
 *   rv_u64      64-bit unsigned integer
 *   rv_u32      32-bit unsigned integer
 *   RNGVET_HD   function qualifier of every function these headers and the engines of generators/
 *               define: static inline in OpenCL C and C, __host__ __device__ __forceinline__
 *               in CUDA, inline in C++; defined here only
 *   RV_GLOBAL   address space of device buffers (__global in OpenCL C)
 *   RV_LOCAL    address space of the per-group scratch history (__local in OpenCL C)
 */
#ifndef RNGVET_PORTABLE_HPP
#define RNGVET_PORTABLE_HPP

/* OpenCL C compilers define __OPENCL_VERSION__ and __OPENCL_C_VERSION__ (plain clang only the
 * latter); RNGVET_OPENCL_C is the one test the portable headers use. */
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define RNGVET_OPENCL_C 1
#endif

#if defined(RNGVET_OPENCL_C)
typedef ulong rv_u64;
typedef uint rv_u32;
#define RNGVET_HD static inline
#define RV_GLOBAL __global
#define RV_LOCAL __local
#elif defined(__cplusplus)
#if defined(__CUDACC__)
#define RNGVET_HD __host__ __device__ __forceinline__
#else
#define RNGVET_HD inline
#endif

#include <cstdint>
typedef std::uint64_t rv_u64;
typedef std::uint32_t rv_u32;
#define RV_GLOBAL
#define RV_LOCAL
#else /* C (python/bitgen.c) */
#include <stdint.h>
typedef uint64_t rv_u64;
typedef uint32_t rv_u32;
#define RNGVET_HD static inline
#define RV_GLOBAL
#define RV_LOCAL
#endif

#endif
