// Throughput measurements for `rngvet bench`: the configurations on each backend, cuRAND's
// generators and the device's hardware limits, all in one run on one machine.
#pragma once

#include "generators/configuration.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rngvet {

struct Throughput {
    std::string what; // configuration name or reference ("curand MTGP32", "device write")
    std::string backend; // cpu, openmp, opencl, cuda
    std::string placement; // "device" (left in device memory), "host" (delivered to host
                           // memory, read in place), "host-copy" (copied into the caller's),
                           // "registers" (a reference that touches no memory)
    std::uint64_t numbers = 0;
    double seconds = 0;
    double bytes_per_number = 8;
    std::uint64_t check = 0; // host: an XOR of words read, so that reading them is not elided
    std::string plan; // RANMAR's jump-parallel plan ("S units x L numbers per instance"), or ""
    std::size_t launch = 0; // numbers per launch (0: not a stream)
    double numbers_per_second() const
    {
        return seconds > 0 ? static_cast<double>(numbers) / seconds : 0;
    }
    double bytes_per_second() const { return numbers_per_second() * bytes_per_number; }
};

// Generates at least min_seconds worth of numbers of the configuration on its backend, with
// `launch` numbers per launch. Device placement uses discard() (launches whose output stays on
// the device); host placement take() (the numbers as the stream delivers them to host memory:
// with CUDA, the pinned staging buffers, generation overlapped with the copies; the consumer
// reads two words of each view); host-copy placement fill() into the caller's own memory.
// segments / segment_length: BackendOptions's (0: the backend's own plan; segments 1: off).
Throughput measure_stream(const Configuration& config, std::size_t launch,
    const std::string& placement, double min_seconds, std::uint64_t segments = 0,
    std::uint64_t segment_length = 0);

// CUDA references measured on the device (empty when CUDA is not built or no device is there):
// cuRAND MTGP32, MT19937 and Philox4_32_10 writing 32-bit numbers to device memory, the device
// memory write bandwidth (a plain store kernel) and the pinned device-to-host copy bandwidth.
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
