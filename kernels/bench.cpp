#include "bench.hpp"

#include "generators/error.hpp"
#include "generators/registry.hpp"
#include "kernels/device.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

namespace rngvet {

Throughput measure_stream(const Configuration& config, std::size_t launch,
    const std::string& placement, double min_seconds, std::uint64_t segments,
    std::uint64_t segment_length)
{
    BackendOptions options;
    options.launch_numbers = launch;
    options.segments = segments;
    options.segment_length = segment_length;
    auto stream = make_backend_stream(config, options);
    std::vector<std::uint64_t> host(placement == "host-copy" ? launch : 0);
    std::uint64_t sink = 0;
    auto once = [&](std::uint64_t n) {
        for (std::uint64_t done = 0; done < n; done += launch) {
            if (placement == "host-copy") {
                stream->fill(host.data(), launch);
            } else if (placement == "host") {
                for (std::size_t got = 0; got < launch;) {
                    const Stream::View v = stream->take(launch - got);
                    sink ^= v.data[0] ^ v.data[v.size - 1];
                    got += v.size;
                }
            } else {
                stream->discard(launch);
            }
        }
    };
    once(launch); // warm up: first launch, allocations, program builds
    Throughput t;
    t.what = canonical_name(config);
    t.backend = to_string(config.backend);
    t.placement = placement;
    t.plan = jump_parallel_plan(config, options);
    t.launch = launch;
    std::uint64_t n = launch;
    while (true) {
        const auto start = std::chrono::steady_clock::now();
        once(n);
        const double s
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (s >= min_seconds || n >= (1ull << 40)) {
            t.numbers = n;
            t.check = sink;
            t.seconds = s;
            return t;
        }
        n *= s > 0 ? std::max<std::uint64_t>(2, static_cast<std::uint64_t>(min_seconds / s) + 1)
                   : 16;
        n = (n + launch - 1) / launch * launch;
    }
}

} // namespace rngvet
