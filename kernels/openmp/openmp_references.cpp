// The OpenMP references of `rngvet bench` (references.hpp): the write bandwidth and the
// arithmetic rate of the host threads.
#include "generators/error.hpp"
#include "kernels/device.hpp"
#include "kernels/references.hpp"

#include <chrono>
#include <cstdint>
#include <new>
#include <omp.h>
#include <string>

namespace rngvet {
namespace {

constexpr std::size_t cache_line = 64;

// A buffer of 64-bit words on its own cache lines, checked against the machine's memory first
// (as the OpenMP backend's buffers are).
struct Buffer {
    explicit Buffer(std::size_t n)
        : size(n)
    {
        const std::string what = "write-bandwidth buffer";
        check_host_memory(n, sizeof(std::uint64_t), "the " + what + " of backend 'openmp'");
        try {
            data = static_cast<std::uint64_t*>(
                ::operator new(n * sizeof(std::uint64_t), std::align_val_t(cache_line)));
        } catch (const std::bad_alloc&) {
            throw InputError("backend 'openmp' ran out of host memory: the " + what + " needs "
                + std::to_string(n * sizeof(std::uint64_t) >> 20) + " MiB");
        }
    }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    ~Buffer() { ::operator delete(data, std::align_val_t(cache_line)); }
    std::uint64_t* data = nullptr;
    std::size_t size;
};

} // namespace

// Runs pass(1), pass(2), ... until min_seconds have gone by; sets t.seconds and returns the
// number of passes.
template <class Pass> std::uint64_t repeat_for(double min_seconds, Throughput& t, Pass pass)
{
    std::uint64_t passes = 0;
    const auto start = std::chrono::steady_clock::now();
    do {
        pass(++passes);
        t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } while (t.seconds < min_seconds);
    return passes;
}

std::vector<Throughput> openmp_references(std::size_t bytes, double min_seconds)
{
    Buffer buffer(bytes / sizeof(std::uint64_t));
    std::uint64_t* const words = buffer.data;
    const auto n = static_cast<std::int64_t>(buffer.size);
    auto pass = [&](std::uint64_t value) {
#pragma omp parallel for schedule(static)
        for (std::int64_t w = 0; w < n; ++w)
            words[w] = value + static_cast<std::uint64_t>(w);
    };
    pass(0); // first touch, by the threads that write the pages afterwards
    Throughput t;
    t.what = "memory write, " + std::to_string(bytes >> 20) + " MiB buffer";
    t.backend = "openmp";
    t.placement = "device";
    t.numbers = repeat_for(min_seconds, t, pass) * buffer.size;
    t.check = words[n - 1]; // the stores are observable
    return { t };
}

std::vector<Throughput> openmp_compute_reference(double min_seconds)
{
    constexpr std::uint64_t steps = std::uint64_t(1) << 20; // per thread and pass
    Throughput t;
    t.what = "integer arithmetic, registers only";
    t.backend = "openmp";
    t.placement = "registers";
    std::uint64_t threads = 0, sink = 0;
    const std::uint64_t passes = repeat_for(min_seconds, t, [&](std::uint64_t pass) {
#pragma omp parallel reduction(^ : sink)
        {
#pragma omp single
            threads = static_cast<std::uint64_t>(omp_get_num_threads());
            // Four independent xorshift64 chains (Marsaglia's 13, 7, 17), seeded per thread
            // and pass.
            std::uint64_t c[4];
            for (std::uint64_t k = 0; k < 4; ++k)
                c[k] = (pass << 32) + static_cast<std::uint64_t>(omp_get_thread_num()) * 4 + k + 1;
            for (std::uint64_t s = 0; s < steps; ++s)
                for (std::uint64_t& x : c) {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                }
            sink ^= c[0] ^ c[1] ^ c[2] ^ c[3];
        }
    });
    t.numbers = passes * threads * steps * 4;
    t.check = sink;
    return { t };
}

} // namespace rngvet
