// What every device part's CUDA file (device_cuda.cu, device_bits_cuda.cu, device_runs_cuda.cu,
// device_matrix_cuda.cu) does around a Thrust algorithm: device memory short or a device error
// before a word was read leaves the test to its CPU path (nullopt); after words were read it is
// an error of the test, one line naming it.
#pragma once

#include "source.hpp"

#include <cstdint>
#include <cuda_runtime.h>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <thrust/system_error.h>

namespace rngvet::native::device_calls {

inline std::string one_line(std::string s)
{
    for (char& c : s)
        if (c == '\n' || c == '\r') c = ' ';
    return s;
}

// Runs `count` (an algorithm that returns an optional, nullopt where it read nothing); nullopt
// too where it fails before reading a word of `in`.
template <class Count>
auto on_device(Numbers& in, const char* test, const Count& count) -> decltype(count())
{
    const std::uint64_t before = in.consumed();
    try {
        return count();
    } catch (const std::bad_alloc& e) {
        cudaGetLastError(); // an allocation failure is not sticky: clear it
        if (in.consumed() == before) return std::nullopt;
        throw std::runtime_error(
            std::string(test) + " on CUDA: device memory short: " + one_line(e.what()));
    } catch (const thrust::system_error& e) {
        cudaGetLastError();
        if (in.consumed() == before) return std::nullopt;
        throw std::runtime_error(std::string(test) + " on CUDA: " + one_line(e.what()));
    }
}

} // namespace rngvet::native::device_calls
