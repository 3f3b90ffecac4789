/* The conversions of a stream's integers that TestU01 and every consumer of a stream read, as
 * functions every backend compiles (portable.hpp): the CPU reference and the library (through
 * stream.hpp), CUDA's device-resident delivery, the OpenCL program (this file is part of its
 * text) and the Python module's numpy hooks (C). Nothing else restates them.
 *
 *   top32(x, bits)   TestU01's GetBits: the most significant 32 bits of a `bits`-bit integer,
 *                    left-aligned at bit 31 for resolutions below 32 (TestU01's rule for 24-bit
 *                    generators such as RANMAR); a value of exactly 2^bits (a transform view's
 *                    1.0, view.hpp) saturates at 0xFFFFFFFF.
 *   u01_scale(bits)  2^-bits, exact.
 *   to_u01(x, bits)  TestU01's GetU01: x * 2^-bits, exact for bits <= 53, in [0, 1).
 *
 * 1 <= bits <= 63. In OpenCL C the double functions exist where the device has cl_khr_fp64. */
#ifndef RNGVET_U01_HPP
#define RNGVET_U01_HPP

#if !defined(RNGVET_OPENCL_C)
#include "portable.hpp"
#endif

#if defined(__cplusplus)
namespace rngvet {
#endif

RNGVET_HD rv_u32 top32(rv_u64 x, int bits)
{
    if (bits >= 32) {
        const rv_u64 top = x >> (bits - 32);
        return top > 0xFFFFFFFFu ? 0xFFFFFFFFu : (rv_u32)top;
    }
    return (rv_u32)(x << (32 - bits));
}

#if defined(RNGVET_OPENCL_C) && defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#if !defined(RNGVET_OPENCL_C) || defined(cl_khr_fp64)
RNGVET_HD double u01_scale(int bits)
{
    return 1.0 / (double)((rv_u64)1 << bits);
}

RNGVET_HD double to_u01(rv_u64 x, int bits)
{
    return (double)x * u01_scale(bits);
}
#endif

#if defined(__cplusplus)
} /* namespace rngvet */
#endif

#endif
