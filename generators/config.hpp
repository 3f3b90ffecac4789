// Single place that adapts engine code to the compiler that builds it.
// Engines in generators/ are plain structs plus inline step functions marked RNGVET_HD, so the
// CPU reference, the CUDA kernels and the OpenMP loops compile the very same text.
#pragma once

#if defined(__CUDACC__)
#define RNGVET_HD __host__ __device__ __forceinline__
#else
#define RNGVET_HD inline
#endif
