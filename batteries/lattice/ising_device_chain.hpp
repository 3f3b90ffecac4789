// The checkerboard Metropolis chain of ising_device.hpp written once with Thrust, for whichever
// device system it is compiled with: CUDA in ising_device_cuda.cu (nvcc), the host's OpenMP in
// tests/test_lattice_device.cpp (g++ with THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP).
//
// The words of whole sweeps are written into the system's memory by Numbers::fill_device, at
// most max_words at a time (at least one sweep's). Within a colour the sites are independent (an
// even L: a site's four neighbours have the other colour), so one thread per site of a colour
// gives the host's sequential sweep: the site's spin, its neighbour sum, and the number the host
// chain hands that site (the q-th of the sweep's numbers, or number_of[q] with lanes), converted
// as the host converts it (word * 2^-bits, exact) and compared by metropolis_accepts with the
// host's table. The bond sum is counted from the spins when measuring starts; in a measured
// sweep each colour's pass also sums, exactly, the flips and the change of the bond sum, -2 s h
// per flip, as the host chain does.
//
// wolff_chain (ising_device.hpp's device_wolff): the own-lanes Wolff replicas, one thread per
// replica running own_lanes.hpp's machine on its lane of each block (word k M + r of the block is
// replica r's k-th number, read as the host converts it); the replicas' states, lattices and
// stacks stay in the system's memory between blocks, and after each block the counts and bond
// sums of the measured steps finished in it are copied back for the host's statistics.
#pragma once

#include "batteries/lattice/ising_device.hpp"
#include "batteries/lattice/metropolis.hpp"
#include "batteries/lattice/own_lanes.hpp"
#include "generators/portable.hpp" // RNGVET_HD

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>
#include <vector>

namespace rngvet::lattice::device_chain {

using Word = std::uint64_t;

// Words written into device memory at a time by default (256 MiB), whole sweeps.
constexpr std::size_t chunk_words = std::size_t(1) << 25;

// Flips and the bond sum's change, summed over the sites of a pass.
struct Tally {
    std::int64_t flips;
    std::int64_t change;
};

struct AddTally {
    RNGVET_HD Tally operator()(const Tally& a, const Tally& b) const
    {
        return { a.flips + b.flips, a.change + b.change };
    }
};

// The update of the k-th site of one colour in one sweep.
struct Update {
    std::int8_t* spins;
    const Word* words; // the sweep's numbers
    const std::uint32_t* number_of; // null: the q-th site takes number q
    Checkerboard board;
    int colour;
    std::uint32_t first; // q of the colour's first site
    double scale; // 2^-bits
    double table[3];

    RNGVET_HD Tally operator()(std::uint32_t k) const
    {
        const int L = board.L;
        int x = 0, y = 0;
        board.place(colour, static_cast<int>(k), x, y);
        const int row = y * L, i = row + x;
        const int h = spins[row + (x + 1 == L ? 0 : x + 1)] + spins[row + (x == 0 ? L - 1 : x - 1)]
            + spins[(y + 1 == L ? 0 : row + L) + x] + spins[(y == 0 ? (L - 1) * L : row - L) + x];
        const int s = spins[i];
        const int sh = s * h;
        const std::uint32_t q = first + k;
        const double u = static_cast<double>(words[number_of ? number_of[q] : q]) * scale;
        if (!metropolis_accepts(u, sh, table)) return { 0, 0 };
        spins[i] = static_cast<std::int8_t>(-s);
        return { 1, -2 * sh };
    }
};

// s_i (s_right + s_down) of site i: the bond sum is their sum over the sites.
struct SiteBonds {
    const std::int8_t* spins;
    int L;

    RNGVET_HD std::int64_t operator()(std::uint32_t i) const
    {
        const int y = static_cast<int>(i) / L, x = static_cast<int>(i) - y * L;
        const int right = y * L + (x + 1 == L ? 0 : x + 1), down = (y + 1 == L ? 0 : y + 1) * L + x;
        return spins[i] * (spins[right] + spins[down]);
    }
};

// Waits for the device's work before its buffer is written again by fill_device (which
// launches on a stream of its own). Nothing to wait for on the host systems.
inline void wait_for_device()
{
#if defined(__CUDACC__) && THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
    const cudaError_t rc = cudaDeviceSynchronize();
    if (rc != cudaSuccess)
        throw std::runtime_error(std::string("ising on CUDA: ") + cudaGetErrorString(rc));
#endif
}

// The replica `run` on the words of `in`; nullopt, with nothing read, where `in` cannot write
// device memory. Throws what the system throws (std::bad_alloc when its memory is short) and
// std::runtime_error when a fill fails after the first.
inline std::optional<DeviceMetropolisResult> metropolis_chain(
    native::Numbers& in, const DeviceMetropolis& run, std::size_t max_words = chunk_words)
{
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    const Checkerboard board{ run.L };
    const std::size_t n = static_cast<std::size_t>(run.L) * static_cast<std::size_t>(run.L);
    const std::uint64_t block = run.sweep_numbers;
    const std::uint64_t sweeps = run.thermalisation + run.measured;
    const std::uint64_t per_fill
        = std::max<std::uint64_t>(1, std::min<std::uint64_t>(max_words / block, sweeps));

    thrust::device_vector<Word> words(static_cast<std::size_t>(per_fill * block));
    thrust::device_vector<std::int8_t> spins(n, std::int8_t(1));
    thrust::device_vector<std::uint32_t> number_of(run.number_of.begin(), run.number_of.end());
    Update update{ thrust::raw_pointer_cast(spins.data()), nullptr,
        run.number_of.empty() ? nullptr : thrust::raw_pointer_cast(number_of.data()), board, 0, 0,
        1.0 / static_cast<double>(std::uint64_t(1) << in.bits()),
        { run.table[0], run.table[1], run.table[2] } };

    DeviceMetropolisResult result;
    // The bond sum, counted from the spins when measuring starts (the host chain keeps it by its
    // changes, equal to the count), then kept by the measured sweeps' changes.
    std::int64_t bond_sum = 0;
    const thrust::counting_iterator<std::uint32_t> k(0);
    for (std::uint64_t done = 0; done < sweeps;) {
        const std::uint64_t count = std::min(per_fill, sweeps - done);
        wait_for_device();
        if (!in.fill_device(thrust::raw_pointer_cast(words.data()), count * block)) {
            if (done == 0) return std::nullopt;
            throw std::runtime_error("ising: the stream stopped writing its numbers into device "
                                     "memory in the middle of a replica");
        }
        for (std::uint64_t s = 0; s < count; ++s) {
            const bool measured = done + s >= run.thermalisation;
            if (done + s == run.thermalisation)
                bond_sum = thrust::transform_reduce(k, k + static_cast<std::uint32_t>(n),
                    SiteBonds{ update.spins, run.L }, std::int64_t(0),
                    thrust::plus<std::int64_t>());
            update.words = thrust::raw_pointer_cast(words.data()) + s * block;
            for (int c = 0; c < 2; ++c) {
                update.colour = c;
                update.first = c == 0 ? 0 : static_cast<std::uint32_t>(board.sites(0));
                const std::uint32_t sites = static_cast<std::uint32_t>(board.sites(c));
                if (!measured) {
                    thrust::for_each(k, k + sites, update);
                    continue;
                }
                const Tally t
                    = thrust::transform_reduce(k, k + sites, update, Tally{ 0, 0 }, AddTally{});
                result.flips += static_cast<std::uint64_t>(t.flips);
                bond_sum += t.change;
            }
            if (!measured) continue;
            ++result.measured;
            if (run.bond_sum) run.bond_sum(bond_sum);
        }
        done += count;
    }
    // The bond sum kept by the measured passes against the spins' count: tallies that do not
    // match the flips made (a neighbour read while it was updated) would part them.
    if (run.measured > 0
        && bond_sum
            != thrust::transform_reduce(k, k + static_cast<std::uint32_t>(n),
                SiteBonds{ update.spins, run.L }, std::int64_t(0), thrust::plus<std::int64_t>()))
        throw std::runtime_error(
            "ising: the device chain's bond sum differs from its spins' count");
    wait_for_device();
    return result;
}

// Replica r's numbers in a block: word k M + r, as u = word * 2^-bits.
struct Lane {
    const Word* first; // the block's word r
    std::uint64_t lanes; // M
    double scale;

    RNGVET_HD double operator()(std::uint32_t k) const
    {
        return static_cast<double>(first[static_cast<std::uint64_t>(k) * lanes]) * scale;
    }
};

// 1 for a replica with steps left.
struct Unfinished {
    std::uint64_t total;

    RNGVET_HD std::uint32_t operator()(const own_lanes::State& s) const
    {
        return s.steps < total ? 1u : 0u;
    }
};

// 1 for a replica with steps left that did not take the whole of every block read (a machine
// stops only where its block runs out).
struct Stalled {
    std::uint64_t total;
    std::uint64_t numbers; // blocks read so far x rounds per block

    RNGVET_HD std::uint32_t operator()(const own_lanes::State& s) const
    {
        return s.steps < total && s.numbers != numbers ? 1u : 0u;
    }
};

// One block of replica r's Wolff machine.
struct WolffBlock {
    own_lanes::State* states;
    std::int8_t* spins; // N per replica
    std::int32_t* stacks; // N per replica
    const Word* words; // the block: block_rounds rounds of M
    std::int32_t* sums; // block_rounds per replica
    std::uint32_t* measured;
    own_lanes::Plan plan;
    std::uint64_t lanes;
    std::uint32_t rounds;
    double scale;

    RNGVET_HD void operator()(std::uint32_t r) const
    {
        own_lanes::State s = states[r];
        std::uint32_t m = 0;
        if (s.steps < plan.total) {
            const std::size_t n = static_cast<std::size_t>(plan.L) * plan.L;
            own_lanes::wolff(s, plan, spins + r * n, stacks + r * n,
                Lane{ words + r, lanes, scale }, rounds,
                sums + static_cast<std::size_t>(r) * rounds, m);
            states[r] = s;
        }
        measured[r] = m;
    }
};

#if defined(__CUDACC__) && THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
template <class Each> __global__ void each_replica(Each each, std::uint32_t count)
{
    const std::uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < count) each(r);
}
#endif

// `each` for replicas 0 .. count - 1. On CUDA in blocks of 32 threads, so that 16384 replicas
// (512 blocks) spread over every multiprocessor (Thrust's blocks of 256 would fill 64); each
// thread runs long and waits on memory, and the spread is what hides it.
inline void for_each_replica(const WolffBlock& each, std::uint32_t count)
{
#if defined(__CUDACC__) && THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
    constexpr std::uint32_t threads = 32;
    each_replica<<<(count + threads - 1) / threads, threads>>>(each, count);
    const cudaError_t rc = cudaGetLastError();
    if (rc != cudaSuccess)
        throw std::runtime_error(std::string("ising Wolff on CUDA: ") + cudaGetErrorString(rc));
#else
    const thrust::counting_iterator<std::uint32_t> r(0);
    thrust::for_each(r, r + count, each);
#endif
}

// The run on the words of `in`; nullopt, with nothing read, where `in` cannot write device
// memory. Throws as metropolis_chain does.
inline std::optional<DeviceWolffResult> wolff_chain(native::Numbers& in, const DeviceWolff& run)
{
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    if (run.replicas < 1 || run.replicas > run.lanes || run.block_rounds == 0)
        throw std::invalid_argument("ising: a device Wolff run needs 1 to M replicas, rounds > 0");
    const std::size_t n = static_cast<std::size_t>(run.plan.L) * run.plan.L;
    const std::size_t R = static_cast<std::size_t>(run.replicas);
    const std::uint64_t M = static_cast<std::uint64_t>(run.lanes);
    const std::size_t block_words = static_cast<std::size_t>(run.block_rounds * M);

    std::vector<own_lanes::State> first(R);
    for (own_lanes::State& s : first)
        own_lanes::start(s, run.plan);
    thrust::device_vector<own_lanes::State> states(first.begin(), first.end());
    thrust::device_vector<Word> words(block_words);
    thrust::device_vector<std::int8_t> spins(R * n, std::int8_t(1));
    thrust::device_vector<std::int32_t> stacks(R * n);
    thrust::device_vector<std::int32_t> sums(R * run.block_rounds);
    thrust::device_vector<std::uint32_t> measured(R);
    thrust::host_vector<std::int32_t> host_sums;
    thrust::host_vector<std::uint32_t> host_measured;
    const WolffBlock block{ thrust::raw_pointer_cast(states.data()),
        thrust::raw_pointer_cast(spins.data()), thrust::raw_pointer_cast(stacks.data()),
        thrust::raw_pointer_cast(words.data()), thrust::raw_pointer_cast(sums.data()),
        thrust::raw_pointer_cast(measured.data()), run.plan, M, run.block_rounds,
        1.0 / static_cast<double>(std::uint64_t(1) << in.bits()) };

    DeviceWolffResult result;
    const std::uint32_t count = static_cast<std::uint32_t>(R);
    // Until every replica has made its steps (each one with steps left took its whole block).
    while (result.blocks == 0
        || thrust::transform_reduce(states.begin(), states.end(), Unfinished{ run.plan.total },
               std::uint32_t(0), thrust::plus<std::uint32_t>())
            > 0) {
        wait_for_device();
        if (!in.fill_device(thrust::raw_pointer_cast(words.data()), block_words)) {
            if (result.blocks == 0) return std::nullopt;
            throw std::runtime_error("ising: the stream stopped writing its numbers into device "
                                     "memory in the middle of a run");
        }
        for_each_replica(block, count);
        ++result.blocks;
        if (thrust::transform_reduce(states.begin(), states.end(),
                Stalled{ run.plan.total, result.blocks * run.block_rounds }, std::uint32_t(0),
                thrust::plus<std::uint32_t>())
            > 0)
            throw std::runtime_error("ising: a device Wolff replica with steps left did not take "
                                     "its whole block of numbers");
        if (run.block) {
            host_measured = measured;
            host_sums = sums;
            run.block(host_measured.data(), host_sums.data());
        }
    }
    result.states.resize(R);
    thrust::copy(states.begin(), states.end(), result.states.begin());
    wait_for_device();
    return result;
}

} // namespace rngvet::lattice::device_chain
