// Internal interface between kernels/backend.cpp (and bench.cpp: --backend auto), the generator
// families with kernels (families.hpp) and the launchers of each backend (openmp/, opencl/,
// cuda/). Tests use it to launch kernels directly (canary checks).
#pragma once

#include "generators/error.hpp"
#include "kernels/backend.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
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
    // Waits for every launch made so far. A launch may return before its kernel has run
    // (CUDA); download() waits by itself. Errors of such kernels surface here at the latest.
    virtual void finish() { }

    // Pipelined delivery to host memory (CUDA; the default has none). stage(words) prepares
    // two host staging slots for launches of up to `words` numbers and says whether the device
    // has them. launch_to_host(g0, len, slot) then makes a launch like launch(g0, len, 0,
    // false) whose output is copied into host slot 0 or 1, and returns without waiting;
    // host_words(slot) waits for that copy and returns the slot's memory, valid until the slot
    // is launched into again. Launches of every kind run in the order they were made, so the
    // next launch can generate while the previous one is being copied. launch() may overwrite
    // slot 0's device-side buffer only after that slot's copy is done (the device sees to it).
    virtual bool stage(std::size_t words)
    {
        (void)words;
        return false;
    }
    virtual void launch_to_host(std::uint64_t g0, std::uint64_t len, int slot);
    virtual const std::uint64_t* host_words(int slot);
    // Whether host_words(slot) would return without waiting; asynchronous_staging() whether a
    // staged launch runs while the host works (CUDA) rather than when its slot is asked for.
    virtual bool host_ready(int slot)
    {
        (void)slot;
        return true;
    }
    virtual bool asynchronous_staging() const { return false; }
    // Device-resident delivery (CUDA; the default has none): a launch like launch(g0, len, 0,
    // false) whose numbers land in the caller's device memory dst in `format` (DeviceFormat,
    // stream.hpp) for a stream of `bits` bits. Returns when the numbers are there.
    virtual bool launch_to_device(
        std::uint64_t g0, std::uint64_t len, void* dst, int format, int bits)
    {
        (void)g0;
        (void)len;
        (void)dst;
        (void)format;
        (void)bits;
        return false;
    }
    // e.g. "opencl: NVIDIA CUDA / NVIDIA H200".
    virtual std::string description() const = 0;
};

// Throws InputError ("... needs N MiB of host memory ...") when `count` items of `size` bytes
// exceed the memory bound of this machine (fits_in_memory, process/memory.hpp: half of its
// physical memory), before anything is allocated or touched: with overcommit, a huge allocation can
// succeed and the process be killed when its pages are first written.
void check_host_memory(std::size_t count, std::size_t size, const std::string& what);

// The host copy of `n` states of a configuration's instances, bounded by check_host_memory and
// allocated; both failures are InputError naming the instances.
template <class T> void allocate_states(std::vector<T>& v, std::size_t n, int instances)
{
    const std::string what = "the states of " + std::to_string(instances) + " instances";
    check_host_memory(n, sizeof(T), what);
    try {
        v.assign(n, T{});
    } catch (const std::bad_alloc&) {
        throw InputError("cannot allocate host memory for " + what);
    }
}

// How a family's kernels are written (families.hpp): as grids, bodies of (block, thread) that
// the launch plan (launch_plan.hpp) lays out and every backend runs; or as the reference
// engine's step run instance by instance, which OpenMP runs on host threads and the GPU
// backends refuse.
enum class KernelForm { grids, instance_loop };

// How many units per instance and numbers per chunk a configuration runs with on a backend,
// for launches of `launch` numbers: segments 1 (one unit per instance) where the instances
// alone fill the device; else chunks of at least `min_length` numbers, as many units per
// instance as bring the device's units to about `target`, but no more than one chunk per unit
// and launch (a jump is made once per chunk).
// forced_segments / forced_length, when not 0, replace the choice (tests, `rngvet bench`).
struct SegmentPlan {
    std::uint64_t segments = 1;
    std::uint64_t length = 0;
};
SegmentPlan plan_segments(std::uint64_t instances, std::uint64_t launch, std::uint64_t target,
    std::uint64_t min_length, std::uint64_t forced_segments = 0, std::uint64_t forced_length = 0);

// The jump-parallel plan of configuration c on its backend (backend.hpp, jump_parallel_plan), for
// a family whose chunks are at least `openmp_min_length` numbers on OpenMP and
// `gpu_min_length` on the GPUs (0: none there): none from 256 instances on (GPUs) or from as
// many instances as threads (OpenMP); else about twice the threads' units (OpenMP) or 4096
// (GPUs), GPUs planned for launches of at most 2^22 numbers, or of `gpu_launch` whatever the
// stream's launch length where it is not 0 (a shorter launch runs some of the units).
SegmentPlan segment_plan(const Configuration& c, const BackendOptions& options,
    std::uint64_t openmp_min_length, std::uint64_t gpu_min_length, std::uint64_t gpu_launch = 0);

// Every backend that runs kernels (RNGVET_FOR_EACH_KERNEL_BACKEND, generators/backend_list.hpp):
// its functions, declared here for each (RNGVET_BACKEND_FUNCTIONS) and defined in its folder, or by
// kernels/not_built.cpp, which says why, when its option is OFF: whether it can run here
// (name_usable, why not if not), its devices (name_device_names), and its one device template
// make_name_device<Family>, instantiated for every family of RNGVET_FOR_EACH_KERNEL_FAMILY
// (families.hpp; Family::Setup, the host-side setup; device: index into opencl_device_names()
// / CUDA ordinal, -1 chooses, unused by OpenMP).

#define RNGVET_BACKEND_FUNCTIONS(name, gpu)                                                        \
    bool name##_usable(std::string& why);                                                          \
    std::vector<std::string> name##_device_names();                                                \
    template <class Family>                                                                        \
    std::unique_ptr<KernelDevice> make_##name##_device(                                            \
        const typename Family::Setup& setup, int device);
RNGVET_FOR_EACH_KERNEL_BACKEND(RNGVET_BACKEND_FUNCTIONS)
#undef RNGVET_BACKEND_FUNCTIONS

// What one backend has beside them.
int openmp_threads(); // the threads an OpenMP launch runs on (1 when OpenMP is not built)
bool opencl_gpu_present(); // an OpenCL device of type GPU
// Creates this process's context on CUDA device `device` (cudaFree(0)), so that the first stream
// made on it later finds it ready; errors are left for that stream to report. Nothing where CUDA
// is not built. For a sharded run's workers, on a thread of their own (batteries/runner.hpp).
void warm_up_cuda(int device);

} // namespace rngvet
