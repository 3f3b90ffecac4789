// ising_device.hpp on CUDA: ising_device_chain.hpp's algorithm compiled by nvcc for Thrust's
// CUDA system, with the native device parts' options (--fmad=false; the chain's only floating
// operation, word * 2^-bits, is exact anyway).
//
// As the native engine's device parts (batteries/native/device_calls.cuh): memory is taken on the
// calling thread's current device, the stream's own; where it or the device is not to be had
// before a word was read, the replica runs on the host; once words were read, a failure is an
// error.
#include "batteries/lattice/ising_device.hpp"
#include "batteries/lattice/ising_device_chain.hpp"
#include "batteries/native/device_calls.cuh"

#include <cstdlib>
#include <string>

namespace rngvet::lattice {

namespace {

// Smaller lattices stay on the host, nothing read: a sweep on the device costs two launches
// (several microseconds, and a fill's synchronisations shared among its sweeps), more than the
// host chain's sweep of a small lattice (about 3e7 sites a second on a core). A choice, not a
// limit: both paths give the same statistics.
constexpr long long smallest_device_lattice = 4096; // L = 64

} // namespace

std::optional<DeviceMetropolisResult> device_metropolis(
    native::Numbers& in, const DeviceMetropolis& run)
{
    if (static_cast<long long>(run.L) * run.L < smallest_device_lattice) return std::nullopt;
    device_chain::ChainOptions options;
    // One buffer of numbers, each fill after the passes before it: on an H200 this chain ran at
    // 1.09e11 spin updates/s at L = 4096, and with the fills beside the passes at 1.05e8
    // (docs/benchmarks.md, part 9; the cause is not found). RNGVET_ISING_OVERLAP_FILLS=1 asks
    // for the two buffers and the overlap, to measure it again.
    const char* overlap = std::getenv("RNGVET_ISING_OVERLAP_FILLS");
    options.overlap = overlap != nullptr && std::string(overlap) == "1";
    return native::device_calls::on_device(
        in, "ising Metropolis", [&] { return device_chain::metropolis_chain(in, run, options); });
}

std::optional<DeviceWolffResult> device_wolff(native::Numbers& in, const DeviceWolff& run)
{
    return native::device_calls::on_device(
        in, "ising Wolff", [&] { return device_chain::wolff_chain(in, run); });
}

} // namespace rngvet::lattice
