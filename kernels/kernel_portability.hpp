/* The few words that differ between the compilers that build kernels/: C++ (CPU reference and
 * OpenMP), CUDA and OpenCL C. Kernel bodies (ranmar_kernel.hpp) are written in the subset of
 * C that all three accept, so one text defines the arithmetic on every backend. The OpenCL
 * program is this file, the body headers and the .cl driver concatenated at build time
 * (embed_text.cmake), so this file uses include guards, not #pragma once, and guards its
 * #include lines from the OpenCL compiler (RNGVET_OPENCL_C).
 *
 *   rv_u64      64-bit unsigned integer
 *   rv_u32      32-bit unsigned integer
 *   RNGVET_HD   function qualifier (generators/config.hpp for C++/CUDA)
 *   RV_GLOBAL   address space of device buffers (__global in OpenCL C)
 *   RV_LOCAL    address space of the per-group scratch history (__local in OpenCL C)
 */
#ifndef RNGVET_KERNEL_PORTABILITY_HPP
#define RNGVET_KERNEL_PORTABILITY_HPP

/* OpenCL C compilers define __OPENCL_VERSION__ and __OPENCL_C_VERSION__ (plain clang only the
 * latter); RNGVET_OPENCL_C is the one test the kernel headers use. */
#if defined(__OPENCL_VERSION__) || defined(__OPENCL_C_VERSION__)
#define RNGVET_OPENCL_C 1
#endif

#if defined(RNGVET_OPENCL_C)
typedef ulong rv_u64;
typedef uint rv_u32;
#define RNGVET_HD static inline
#define RV_GLOBAL __global
#define RV_LOCAL __local
#else
#include "generators/config.hpp"

#include <cstdint>
typedef std::uint64_t rv_u64;
typedef std::uint32_t rv_u32;
#define RV_GLOBAL
#define RV_LOCAL
#endif

#endif
