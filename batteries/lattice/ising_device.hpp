// The checkerboard Metropolis chain of ising.hpp on the CUDA device a stream runs on
// (ising_device_chain.hpp's algorithm, built into ising_device_cuda.cu): the stream's words are
// written into device memory by native::Numbers::fill_device (the native engine's mechanism,
// batteries/native/source.hpp), the lattice stays there, each colour of a sweep is one launch
// (a block per row, its threads the row's sites of that colour), and only the exact flips and
// bond sum changes of the measured sweeps come back, once per block of sweeps, handed to
// DeviceMetropolis's bond_sum in order; ising.cpp computes the replica's statistics from them with
// the host chain's code.
//
// device_metropolis decides at its start: nullopt, with nothing read, where the stream's words
// cannot be written into device memory (a stream on the host, a build without CUDA, no usable
// device, device memory short) or, in the CUDA build, for a lattice of fewer than 4096 sites
// (ising_device_cuda.cu): the replica then runs on the host. Once words were read, a
// failure throws std::runtime_error with a one-line message.
//
// device_wolff runs the Wolff replicas of the own-lanes mode (ising.hpp) on the device, one
// thread per replica, each the machine of own_lanes.hpp on its lane of blocks of rounds that
// Numbers::fill_device writes; after each block the bond sums of the measured steps the replicas
// finished in it come back (DeviceWolff's block). It decides at its start as device_metropolis
// does (nullopt, nothing read, where the words cannot be written into device memory), for any
// number of replicas.
#pragma once

#include "batteries/lattice/own_lanes.hpp"
#include "batteries/native/source.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace rngvet::lattice {

// One Metropolis replica as the host chain would run it (ising.cpp builds it from the chain).
struct DeviceMetropolis {
    int L = 0; // even
    double table[3] = {}; // metropolis_table(K), computed on the host
    std::uint64_t thermalisation = 0; // sweeps before measuring
    std::uint64_t measured = 0; // sweeps measured
    // The numbers one sweep takes (N with one lane), read as one block per sweep, and the index
    // in that block of the number of the sweep's q-th site (empty: q itself).
    std::uint64_t sweep_numbers = 0;
    std::vector<std::uint32_t> number_of;
    // Called on the host with the bond sum after each measured sweep, in order.
    std::function<void(std::int64_t)> bond_sum;
};

struct DeviceMetropolisResult {
    std::uint64_t measured = 0; // sweeps whose bond sum was handed to bond_sum
    std::uint64_t flips = 0; // spins flipped in the measured sweeps
};

std::optional<DeviceMetropolisResult> device_metropolis(
    native::Numbers& in, const DeviceMetropolis& run);

// The Wolff replicas of one own-lanes run (ising.cpp builds it from the run's config).
struct DeviceWolff {
    own_lanes::Plan plan;
    int lanes = 0; // M: rounds of M numbers, replica r on lane r
    int replicas = 0; // R <= M
    std::uint32_t block_rounds = 0; // rounds per block (per fill_device)
    // Called on the host after each block: replica r finished measured[r] measured steps in it,
    // their bond sums at sums[r * block_rounds], in order. Empty: nothing is copied back.
    std::function<void(const std::uint32_t* measured, const std::int32_t* sums)> block;
};

struct DeviceWolffResult {
    std::vector<own_lanes::State> states; // each replica's at its end (flips, numbers)
    std::uint64_t blocks = 0; // blocks read (block_rounds M words each)
};

std::optional<DeviceWolffResult> device_wolff(native::Numbers& in, const DeviceWolff& run);

} // namespace rngvet::lattice
