// Internal interface between kernels/backend.cpp and the launchers of each backend (openmp/,
// opencl/, cuda/). Tests use it to launch kernels directly (canary checks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rngvet {

// One generator configuration on one device: its copy of the instance states and an output
// buffer of 64-bit words. Errors (out of memory included) are InputError with one line.
class KernelDevice {
public:
    virtual ~KernelDevice() = default;
    // Makes the output buffer hold at least `words` words.
    virtual void reserve(std::size_t words) = 0;
    // Copies between host and the first `words` words of the output buffer.
    virtual void upload(const std::uint64_t* host, std::size_t words) = 0;
    virtual void download(std::uint64_t* host, std::size_t words) = 0;
    // Runs the kernel over the whole grid for combined indices [g0, g0 + len): output word j
    // goes to buffer[offset + j] (count_mode: buffer[offset + j] += 1 instead, for tests).
    // Launches must follow one another: the first starts at the setup's `start`, each next one
    // at the previous g0 + len.
    virtual void launch(std::uint64_t g0, std::uint64_t len, std::size_t offset, bool count_mode)
        = 0;
    // e.g. "opencl: NVIDIA CUDA / NVIDIA H200".
    virtual std::string description() const = 0;
};

// Per backend: whether it can run here (why not, if not) and its devices. Backends configured
// off compile stubs (kernels/*/stub.cpp) that say so.
bool openmp_usable(std::string& why);
bool opencl_usable(std::string& why);
bool cuda_usable(std::string& why);
std::vector<std::string> opencl_device_names();
std::vector<std::string> cuda_device_names();

} // namespace rngvet
