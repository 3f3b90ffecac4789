// The references `rngvet bench` sets beside the configurations' throughputs (bench.hpp), all in
// one run on one machine: cuRAND's generators and the device's limits on CUDA, the host's limits
// with the OpenMP threads. A library of its own (rngvet_bench_references), linked by the rngvet
// binary and not by the kernels or librngvet.
#pragma once

#include "kernels/bench.hpp"

#include <cstddef>
#include <vector>

namespace rngvet {

// CUDA references measured on the device (empty when CUDA is not built or no device is there):
// cuRAND MTGP32, MT19937 and Philox4_32_10 writing 32-bit numbers to device memory, the device
// memory write bandwidth (a plain store kernel) and the pinned device-to-host copy bandwidth.
// cuRAND is loaded at run time; where libcurand cannot be loaded its rows are left out and the
// reason goes to standard error.
std::vector<Throughput> cuda_references(std::size_t bytes);

// The OpenMP backend's limit, measured with its threads (empty when OpenMP is not built): every
// thread stores to its part of a buffer of `bytes`, pass after pass, as the OpenMP launches
// store to their output buffer ("memory write, M MiB buffer", backend openmp).
std::vector<Throughput> openmp_references(std::size_t bytes, double min_seconds);

// The OpenMP threads' arithmetic alone (empty when OpenMP is not built): every thread runs four
// xorshift64 chains in registers ("integer arithmetic, registers only", placement
// "registers"). Its rate on T threads over its rate on one is the most any code that scales
// perfectly gets from T threads on this machine (shared cores, a busy host, clocks).
std::vector<Throughput> openmp_compute_reference(double min_seconds);

} // namespace rngvet
