#include "kernels/device.hpp"

#include "process/memory.hpp"

#include <algorithm>
#include <stdexcept>

namespace rngvet {

void KernelDevice::launch_to_host(std::uint64_t, std::uint64_t, int)
{
    throw std::logic_error("KernelDevice::launch_to_host: the device has no host staging");
}

const std::uint64_t* KernelDevice::host_words(int)
{
    throw std::logic_error("KernelDevice::host_words: the device has no host staging");
}

void check_host_memory(std::size_t count, std::size_t size, const std::string& what)
{
    const std::uint64_t physical = physical_memory();
    if (fits_in_memory(count, size, physical)) return;
    throw InputError("out of host memory: " + what + " needs "
        + (count > ~std::uint64_t(0) / size / 2
                ? std::string("more than 2^63 bytes")
                : std::to_string((static_cast<std::uint64_t>(count) * size) >> 20) + " MiB")
        + " but this machine has " + std::to_string(physical >> 20) + " MiB");
}

SegmentPlan plan_segments(std::uint64_t instances, std::uint64_t launch, std::uint64_t target,
    std::uint64_t min_length, std::uint64_t forced_segments, std::uint64_t forced_length)
{
    SegmentPlan plan;
    if (instances < 1) instances = 1;
    const std::uint64_t share = std::max<std::uint64_t>(launch / instances, 1);
    const std::uint64_t want = (target + instances - 1) / instances;
    if (forced_segments == 0 && 2 * instances >= target) return plan;
    plan.length = forced_length != 0
        ? forced_length
        : std::max(min_length, forced_segments != 0 ? share / forced_segments : share / want);
    // Chunks of at most 2^30 numbers and instances' rounds of chunks of at most 2^40 (what
    // ranmar_setup accepts) however long the launches.
    if (forced_length == 0) plan.length = std::min(plan.length, std::uint64_t(1) << 30);
    plan.segments = forced_segments != 0
        ? forced_segments
        : std::min({ want, std::max<std::uint64_t>(share / plan.length, 1),
            (std::uint64_t(1) << 40) / plan.length });
    if (plan.segments <= 1) plan = SegmentPlan{};
    return plan;
}

namespace {

constexpr int gpu_segment_limit = 256;
constexpr std::uint64_t gpu_plan_launch = std::uint64_t(1) << 22;

} // namespace

SegmentPlan segment_plan(const Configuration& c, const BackendOptions& options,
    std::uint64_t openmp_min_length, std::uint64_t gpu_min_length, std::uint64_t gpu_launch)
{
    const bool cpu_threads = c.backend == Backend::openmp;
    if (!cpu_threads && gpu_min_length == 0) return {};
    // GPUs: from 256 instances on, the one-warp-per-instance kernels (the tiled one under
    // interleave, whose stores coalesce) stay: 1024 RANMAR instances made 1.19e11 numbers/s
    // there in run 6's sweep (docs/benchmarks.md), far above what the feed copies to the host.
    if (!cpu_threads && c.instances >= gpu_segment_limit && options.segments == 0) return {};
    const std::uint64_t target
        = cpu_threads ? 2 * static_cast<std::uint64_t>(std::max(openmp_threads(), 1)) : 4096;
    const std::uint64_t min_length = cpu_threads ? openmp_min_length : gpu_min_length;
    // GPUs: planned for launches of at most gpu_plan_launch numbers, so that a stream of the
    // feed's default launches and a longer launch of the same plan run the same units (the
    // native engine asks a stream for up to 2^25 numbers in one launch, whatever its launch
    // length): a longer launch makes several chunks per unit (docs/benchmarks.md, "Few
    // instances").
    const std::uint64_t launch = cpu_threads ? options.launch_numbers
        : gpu_launch != 0                    ? gpu_launch
                          : std::min<std::uint64_t>(options.launch_numbers, gpu_plan_launch);
    return plan_segments(static_cast<std::uint64_t>(c.instances), launch, target, min_length,
        options.segments, options.segment_length);
}

} // namespace rngvet
