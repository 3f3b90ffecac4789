// Backends: where a configuration's stream is computed. "cpu" is the reference engine of
// generators/ (make_stream); "openmp", "opencl" and "cuda" run the kernels of kernels/ (the
// families of kernels/families.hpp, on the backends the registry's rows say: runs_on) and
// produce exactly the same numbers (bit for bit, tests/test_backends.cpp). External streams
// (stdin32, file:PATH) and plugins run on "cpu" only.
#pragma once

#include "generators/configuration.hpp"
#include "generators/stream.hpp"

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace rngvet {

struct BackendOptions {
    // Numbers of the combined stream generated per kernel launch (and copied to the host).
    std::size_t launch_numbers = std::size_t(1) << 22;
    // OpenCL: index into backend_devices(Backend::opencl); CUDA: device ordinal. -1: the default
    // (OpenCL: $RNGVET_OPENCL_DEVICE if set, else the first GPU, else the first device).
    int device = -1;
    // RANMAR's jump-parallel generation (kernels/ranmar_kernel.hpp): units per instance and
    // numbers per chunk. 0: chosen for the backend (jump_parallel_plan); segments 1: off.
    std::uint64_t segments = 0;
    std::uint64_t segment_length = 0;
};

// What the probe of this process found, once: the backends usable here (Backend::cpu first) and,
// for each of the others, why it is not (e.g. "no CUDA device found").
struct BackendProbe {
    std::vector<Backend> available{ Backend::cpu };
    std::map<Backend, std::string> unavailable; // each backend not available: why

    bool has(Backend b) const;
    const std::string& why(Backend b) const; // "" for cpu and automatic
    std::string available_list() const; // e.g. "cpu, openmp, opencl"
};
const BackendProbe& backend_probe();

// Backend::cpu first, then every backend compiled in and usable here: OpenMP always, OpenCL
// when a platform has a device, CUDA when a device is present. Probed once per process.
std::vector<Backend> available_backends();

// Why a backend is not available here, as the probe found it ("" when it is): e.g. "not built:
// configure with -DRNGVET_WITH_CUDA=ON (needs nvcc)", "no NVIDIA driver (libcuda.so.1: cannot
// open shared object file: No such file or directory)", "no CUDA device found".
std::string backend_unavailable_reason(Backend backend);

// parse_backend, for programs that run streams: a name that is no backend is an InputError that
// also names the backends available here ("unknown backend 'x' (valid: ...); available: cpu,
// openmp"). Probes the backends only then.
Backend parse_backend_here(const std::string& text);

// resolve_configuration on this machine, for the command line and campaign files: the
// generator states bounded against the memory here before anything is allocated (the message
// names "--instances N"), a name that is no backend refused as parse_backend_here refuses it,
// then the one mapping from the words. Throws InputError.
Configuration resolve_configuration_here(const ConfigurationText& text);

// The devices a backend can use, e.g. "Portable Computing Language / pthread-..." (none for
// Backend::automatic).
std::vector<std::string> backend_devices(Backend backend);

// The stream of a validated configuration (validate, configuration.hpp: it is not asked again)
// on c.backend. A backend not built or not usable here, or a
// device that runs out of memory, is an InputError with one line, for example
// "backend 'cuda' is not available (no CUDA device found); available: cpu, openmp, opencl".
// name() is canonical_name(c) and bits() the reference's. c.skip is jumped over on the host
// (generators/jump.hpp); discard() in mid-stream generates on the device without copying back.
std::unique_ptr<Stream> make_backend_stream(const Configuration& c);
// Backend "auto" is refused: resolve it first, once (resolve_auto_backend, auto_backend.hpp).
std::unique_ptr<Stream> make_backend_stream(const Configuration& c, const BackendOptions& options);

// The jump-parallel plan a RANMAR configuration runs with on its backend: none from 256
// instances on (GPUs: the one-warp-per-instance kernels) or from as many instances as threads
// (OpenMP); else units per instance up to 4096 warps (GPUs) or twice the threads (OpenMP), with
// chunks of at least 4096 numbers (GPUs) or 32768 (OpenMP) and one chunk per unit and launch
// (plan_segments). A "units x numbers" description for logs and `rngvet bench`, "" without.
std::string jump_parallel_plan(const Configuration& c, const BackendOptions& options);

// Checks that c builds on its backend (make_backend_stream) and returns the backend's devices
// (backend_devices), the errors being make_backend_stream's. For the GPU backends the check
// runs in a child process: a process that has initialised the CUDA driver (which NVIDIA's
// OpenCL uses too) cannot hand it to the processes it forks, and a sharded run forks one
// worker per test after this check.
std::vector<std::string> check_backend_stream(const Configuration& c);

} // namespace rngvet
