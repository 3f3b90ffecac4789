// Throughput measurements of the configurations on each backend (`rngvet bench`, and the choice
// of --backend auto, auto_backend.hpp). The references beside them (cuRAND, the hardware limits)
// are in references.hpp, a library of their own.
#pragma once

#include "generators/configuration.hpp"
#include "kernels/backend.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace rngvet {

// The most numbers the native engine asks a stream for in one launch (Numbers::fill_device with
// batteries/native/device_counts.hpp's chunk_words): `rngvet bench` measures few instances on a
// GPU at this length too.
inline constexpr std::size_t native_engine_launch = std::size_t(1) << 25;

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

} // namespace rngvet
