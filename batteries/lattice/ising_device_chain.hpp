// The checkerboard Metropolis chain of ising_device.hpp written once with Thrust, for whichever
// device system it is compiled with: CUDA in ising_device_cuda.cu (nvcc), the host's OpenMP in
// tests/test_lattice_device.cpp (g++ with THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP).
//
// The words of whole sweeps are written into the system's memory by Numbers::fill_device, at
// most max_words at a time (at least one sweep's). Within a colour the sites are independent (an
// even L: a site's four neighbours have the other colour), so the sites of a colour may be
// updated in any order, in parallel, and give the host's sequential sweep: the site's spin, its
// neighbour sum, and the number the host chain hands that site (the q-th of the sweep's numbers,
// or number_of[q] with lanes), converted as the host converts it (word * 2^-bits) and compared by
// metropolis_accepts with the host's table. ColourPass holds the update, the same code for both
// systems: on CUDA one block per row and one thread per lane of it (colour_pass), on the host
// systems Thrust's for_each over the rows, each row's lanes in turn. The bond sum is counted from
// the spins when measuring starts; in a measured sweep each pass adds, exactly (integers, in
// any order), its flips and the change of the bond sum, -2 s h per flip, to the sweep's tally in
// the system's memory, and the tallies of a fill's sweeps come back in one copy, handed to the
// host in order: one wait for the device per fill rather than two per sweep. The passes run on a
// stream of their own (PassStream), so that with ChainOptions::overlap the next fill, on the
// generator's stream, runs beside them, into the other of two buffers. Thrust's temporary storage
// comes from a cache (StorageCache) that allocates only what it has not held before.
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
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <thrust/copy.h>
#include <thrust/device_free.h>
#include <thrust/device_malloc.h>
#include <thrust/device_ptr.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/fill.h>
#include <thrust/for_each.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/transform_reduce.h>
#include <vector>
#if defined(__CUDACC__) && THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
#include <cub/block/block_reduce.cuh>
#include <thrust/system/cuda/error.h>
#include <thrust/system_error.h>
#endif

namespace rngvet::lattice::device_chain {

using Word = std::uint64_t;

// Words written into device memory at a time by default (512 MiB), whole sweeps: 2^26, the
// launch length at which `rngvet bench --lattice` measures the stream's generation rate beside
// the chain's (4096 numbers per instance of its 16384), so that the chain's fills generate at the
// rate reported there.
constexpr std::size_t chunk_words = std::size_t(1) << 26;

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

// The system's memory the chain takes, kept until the chain ends: Thrust's temporary storage
// (handed to its algorithms through TemporaryStorage) and the chain's buffer of numbers. A block
// handed back is handed out again to any later request it covers, so that after the first
// requests nothing is allocated or freed (on CUDA each cudaMalloc and cudaFree would wait for the
// whole device). One per chain, used by the chain's thread alone.
class StorageCache {
public:
    StorageCache() = default;
    StorageCache(const StorageCache&) = delete;
    StorageCache& operator=(const StorageCache&) = delete;
    ~StorageCache()
    {
        for (const auto& [size, p] : free_)
            release(p);
        for (const auto& [p, size] : used_)
            release(p);
    }
    char* allocate(std::ptrdiff_t n)
    {
        ++requests_;
        n = std::max<std::ptrdiff_t>(n, 1); // a distinct block for every request
        char* p = nullptr;
        const auto it = free_.lower_bound(n);
        if (it != free_.end()) {
            n = it->first;
            p = it->second;
            free_.erase(it);
        } else {
            p = thrust::raw_pointer_cast(thrust::device_malloc<char>(static_cast<std::size_t>(n)));
            ++allocations_;
        }
        used_.emplace(p, n);
        return p;
    }
    void deallocate(char* p)
    {
        const auto it = used_.find(p);
        if (it == used_.end()) return;
        free_.emplace(it->second, p);
        used_.erase(it);
    }
    // Blocks asked for, and of them those the system allocated.
    std::uint64_t requests() const { return requests_; }
    std::uint64_t allocations() const { return allocations_; }

private:
    static void release(char* p) noexcept
    {
        try {
            thrust::device_free(thrust::device_ptr<char>(p));
        } catch (...) { // a device already in error: the memory goes with its context
        }
    }
    std::multimap<std::ptrdiff_t, char*> free_; // by size
    std::map<char*, std::ptrdiff_t> used_;
    std::uint64_t requests_ = 0;
    std::uint64_t allocations_ = 0;
};

// StorageCache as the allocator of an execution policy (Thrust's custom temporary allocation).
struct TemporaryStorage {
    using value_type = char;
    StorageCache* cache;
    char* allocate(std::ptrdiff_t n) { return cache->allocate(n); }
    void deallocate(char* p, std::size_t) { cache->deallocate(p); }
};

// The stream of a chain's passes and their Thrust algorithms, and an event per buffer of numbers
// that says when the passes enqueued on it are done. On CUDA a stream of the chain's own that
// waits for no other (cudaStreamNonBlocking): Numbers::fill_device launches on the generator's
// stream and waits for that stream alone, so the fill of one buffer runs beside the passes on
// the other. On the host systems nothing: a pass is done when it returns.
class PassStream {
public:
#if defined(__CUDACC__) && THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
    PassStream()
    {
        try {
            check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
            for (cudaEvent_t& e : done_)
                check(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
        } catch (...) {
            release();
            throw;
        }
    }
    ~PassStream()
    {
        release();
    }
    PassStream(const PassStream&) = delete;
    PassStream& operator=(const PassStream&) = delete;
    cudaStream_t get() const
    {
        return stream_;
    }
    // The passes enqueued so far are those of buffer b.
    void mark(int b)
    {
        check(cudaEventRecord(done_[b], stream_), "cudaEventRecord");
    }
    // Waits for the passes marked on buffer b (at once where none were).
    void wait(int b)
    {
        check(cudaEventSynchronize(done_[b]), "ising Metropolis on CUDA");
    }
    void finish()
    {
        check(cudaStreamSynchronize(stream_), "ising Metropolis on CUDA");
    }

private:
    void release() noexcept
    {
        if (stream_) cudaStreamSynchronize(stream_);
        for (cudaEvent_t e : done_)
            if (e) cudaEventDestroy(e);
        if (stream_) cudaStreamDestroy(stream_);
    }
    // A failure as Thrust reports its own (device_calls::on_device: the host path where nothing
    // was read yet, an error after).
    static void check(cudaError_t rc, const char* what)
    {
        if (rc != cudaSuccess) throw thrust::system_error(rc, thrust::cuda_category(), what);
    }
    cudaStream_t stream_ = nullptr;
    cudaEvent_t done_[2] = { nullptr, nullptr };
#else
    void mark(int) { }
    void wait(int) { }
    void finish() { }
#endif
};

// The policy of the chain's Thrust algorithms: the system's, with its temporary storage from the
// cache; on CUDA on the passes' stream, without the synchronisation Thrust's default policy
// makes after each algorithm (one that returns a value to the host still waits for it).
#if defined(__CUDACC__) && THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
inline auto system_policy(TemporaryStorage& storage, const PassStream& stream)
{
    return thrust::cuda::par_nosync(storage).on(stream.get());
}
#else
inline auto system_policy(TemporaryStorage& storage, const PassStream&)
{
    return thrust::device(storage);
}
#endif

// *to += v, atomically, in two's complement (exact, whatever the order of the additions).
RNGVET_HD void add_exact(std::uint64_t* to, std::int64_t v)
{
#if defined(__CUDA_ARCH__)
    atomicAdd(reinterpret_cast<unsigned long long*>(to), static_cast<unsigned long long>(v));
#else
    __atomic_fetch_add(to, static_cast<std::uint64_t>(v), __ATOMIC_RELAXED);
#endif
}

// The threads of a device block of a colour pass, which share one row: the lanes of a row.
constexpr int pass_threads = 256;

#if defined(__CUDA_ARCH__)
#define RNGVET_LATTICE_UNROLL _Pragma("unroll")
#else
#define RNGVET_LATTICE_UNROLL
#endif

// One site of a pass as read before the pass writes any of a lane's sites.
struct Site {
    int i; // row-major index
    int s; // spin
    int sh; // s h
    Word word; // its number
};

// The pass over the sites of one colour in one sweep. For even L the k-th site of colour c in
// the sweep's order (Checkerboard) is site j = k mod L/2 of row y = k div L/2, at column
// x = 2 j + ((y + c) mod 2): each row holds L/2 sites of each colour, left to right. A row is
// updated by pass_threads lanes (a device block), lane t taking the row's sites t, t + threads,
// ...: `ahead` of them read before any of them is written, so that their loads are in flight
// together. Within a colour no site is another's neighbour: the order of the updates and their
// reads does not change them.
struct ColourPass {
    std::int8_t* spins;
    const Word* words; // the sweep's numbers
    const std::uint32_t* number_of; // null: the q-th site takes number q
    std::uint64_t* tally; // the sweep's flips and bond sum change, added to; null: not measured
    int L; // even
    int colour;
    std::uint32_t first; // q of the colour's first site
    double scale; // 2^-bits
    double table[3];

    static constexpr int ahead = 4;

    RNGVET_HD Site load(int y, int j) const
    {
        const int x = 2 * j + ((y + colour) & 1);
        const int row = y * L, i = row + x;
        const int h = spins[row + (x + 1 == L ? 0 : x + 1)] + spins[row + (x == 0 ? L - 1 : x - 1)]
            + spins[(y + 1 == L ? 0 : row + L) + x] + spins[(y == 0 ? (L - 1) * L : row - L) + x];
        const int s = spins[i];
        const std::uint32_t q = first
            + static_cast<std::uint32_t>(y) * static_cast<std::uint32_t>(L / 2)
            + static_cast<std::uint32_t>(j);
        return { i, s, s * h, words[number_of ? number_of[q] : q] };
    }

    // The site's update as the host chain makes it, its flip and -2 s h counted in t.
    RNGVET_HD void apply(const Site& site, Tally& t) const
    {
        const double u = static_cast<double>(site.word) * scale; // as the host converts it
        if (!metropolis_accepts(u, site.sh, table)) return;
        spins[site.i] = static_cast<std::int8_t>(-site.s);
        t.flips += 1;
        t.change -= 2 * site.sh;
    }

    // Lane t of `threads` on row y.
    RNGVET_HD void lane(int y, int t, int threads, Tally& sum) const
    {
        const int half = L / 2;
        for (int j = t; j < half; j += ahead * threads) {
            Site site[ahead] = {};
            RNGVET_LATTICE_UNROLL
            for (int a = 0; a < ahead; ++a)
                if (j + a * threads < half) site[a] = load(y, j + a * threads);
            RNGVET_LATTICE_UNROLL
            for (int a = 0; a < ahead; ++a)
                if (j + a * threads < half) apply(site[a], sum);
        }
    }

    // Row y on a host system: its lanes one after another, the row's tally added to the sweep's.
    RNGVET_HD void operator()(std::uint32_t y) const
    {
        Tally t{ 0, 0 };
        for (int k = 0; k < pass_threads; ++k)
            lane(static_cast<int>(y), k, pass_threads, t);
        if (tally) {
            add_exact(tally, t.flips);
            add_exact(tally + 1, t.change);
        }
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

#if defined(__CUDACC__) && THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
// A pass on CUDA: block y is row y, thread t its lane t; a measured pass sums its threads'
// tallies in the block and adds the block's to the sweep's, two atomic additions per row.
template <class Pass> __global__ void __launch_bounds__(pass_threads) colour_pass(Pass pass)
{
    Tally t{ 0, 0 };
    pass.lane(static_cast<int>(blockIdx.x), static_cast<int>(threadIdx.x), pass_threads, t);
    if (pass.tally == nullptr) return; // the same for every thread of the block
    using Reduce = cub::BlockReduce<Tally, pass_threads>;
    __shared__ typename Reduce::TempStorage storage;
    const Tally sum = Reduce(storage).Reduce(t, AddTally{});
    if (threadIdx.x == 0) {
        add_exact(pass.tally, sum.flips);
        add_exact(pass.tally + 1, sum.change);
    }
}
#endif

// One colour pass: one launch of L blocks on CUDA, not waited for; Thrust's for_each over the
// rows on the host systems.
template <class Policy>
void run_pass(const Policy& policy, const PassStream& stream, const ColourPass& pass)
{
#if defined(__CUDACC__) && THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_CUDA
    (void)policy;
    colour_pass<ColourPass><<<static_cast<unsigned>(pass.L), pass_threads, 0, stream.get()>>>(pass);
    const cudaError_t rc = cudaGetLastError();
    if (rc != cudaSuccess)
        throw std::runtime_error(
            std::string("ising Metropolis on CUDA: ") + cudaGetErrorString(rc));
#else
    (void)stream;
    const thrust::counting_iterator<std::uint32_t> y(0);
    thrust::for_each(policy, y, y + static_cast<std::uint32_t>(pass.L), pass);
#endif
}

// What a chain did, for the tests: fills of numbers, copies of the tallies back to the host
// (each waits for the device), and its storage (StorageCache's counts).
struct ChainCounts {
    std::uint64_t fills = 0;
    std::uint64_t tally_copies = 0;
    std::uint64_t storage_requests = 0;
    std::uint64_t storage_allocations = 0;
};

// Faults the tests plant to see that they are seen; none outside them.
enum class PlantedFault {
    none,
    tallies_not_cleared, // each fill's tallies added to the last fill's
    tallies_one_late, // sweep s handed sweep s - 1's tally (the fill's first, its own)
};

struct ChainOptions {
    std::size_t max_words = chunk_words; // words written at a time (whole sweeps, at least one)
    ChainCounts* counts = nullptr; // filled at the end where given
    PlantedFault fault = PlantedFault::none;
    // Two buffers of numbers, the next filled while the passes on the other run; false (the
    // default on CUDA, device_metropolis): one, each fill after the passes before it.
    bool overlap = false;
};

// The bond sum of the spins, counted on the system (the result waited for).
template <class Policy>
std::int64_t count_bond_sum(const Policy& policy, const std::int8_t* spins, int L)
{
    const thrust::counting_iterator<std::uint32_t> i(0);
    return thrust::transform_reduce(policy, i,
        i + static_cast<std::uint32_t>(static_cast<std::size_t>(L) * static_cast<std::size_t>(L)),
        SiteBonds{ spins, L }, std::int64_t(0), thrust::plus<std::int64_t>());
}

// The replica `run` on the words of `in`; nullopt, with nothing read, where `in` cannot write
// device memory. Throws what the system throws (std::bad_alloc when its memory is short),
// std::invalid_argument for an odd L, and std::runtime_error when a fill fails after the first.
//
// Fill k of `count` sweeps goes into buffer k mod 2 (options.overlap; else always one buffer):
// it waits for the passes last enqueued on that buffer, then for its own numbers (the fill runs
// beside the passes of fill k - 1 on the other buffer); then fill k - 1's tallies come back in
// one copy (after its passes) and are handed to run.bond_sum in order, and fill k's passes are
// enqueued, two launches a sweep, not waited for, each measured sweep's tally kept in the
// system's memory. The bond sum is counted from the spins when measuring starts (once, waited
// for).
inline std::optional<DeviceMetropolisResult> metropolis_chain(
    native::Numbers& in, const DeviceMetropolis& run, const ChainOptions& options = {})
{
    if (!in.fill_device(nullptr, 0)) return std::nullopt;
    if (run.L < 2 || run.L % 2 != 0)
        throw std::invalid_argument("ising: the device chain needs an even L");
    const std::size_t n = static_cast<std::size_t>(run.L) * static_cast<std::size_t>(run.L);
    const std::uint64_t block = run.sweep_numbers;
    const std::uint64_t sweeps = run.thermalisation + run.measured;
    const std::uint64_t per_fill
        = std::max<std::uint64_t>(1, std::min<std::uint64_t>(options.max_words / block, sweeps));
    const int buffers = options.overlap && sweeps > per_fill ? 2 : 1;

    StorageCache cache;
    TemporaryStorage storage{ &cache };
    PassStream stream;
    const auto policy = system_policy(storage, stream);
    Word* words[2] = { nullptr, nullptr };
    for (int b = 0; b < buffers; ++b)
        words[b] = reinterpret_cast<Word*>(
            cache.allocate(static_cast<std::ptrdiff_t>(per_fill * block * sizeof(Word))));
    thrust::device_vector<std::int8_t> spins(n, std::int8_t(1));
    thrust::device_vector<std::uint32_t> number_of(run.number_of.begin(), run.number_of.end());
    thrust::device_vector<std::uint64_t> tallies(static_cast<std::size_t>(2 * per_fill), 0);
    thrust::host_vector<std::uint64_t> host_tallies(static_cast<std::size_t>(2 * per_fill));
    std::uint64_t* const tally = thrust::raw_pointer_cast(tallies.data());
    ColourPass pass{ thrust::raw_pointer_cast(spins.data()), nullptr,
        run.number_of.empty() ? nullptr : thrust::raw_pointer_cast(number_of.data()), nullptr,
        run.L, 0, 0, 1.0 / static_cast<double>(std::uint64_t(1) << in.bits()),
        { run.table[0], run.table[1], run.table[2] } };
    const std::uint32_t half = static_cast<std::uint32_t>(n / 2);
    // The vectors were written on Thrust's default stream, which the passes' does not wait for.
    wait_for_device();

    DeviceMetropolisResult result;
    ChainCounts counts;
    // The bond sum, counted from the spins when measuring starts (the host chain keeps it by its
    // changes, equal to the count), then kept by the measured sweeps' changes.
    std::int64_t bond_sum = 0;
    // The tallies of the sweeps [first, first + count) of the last fill, still on the system.
    std::uint64_t first = 0, pending = 0;
    const auto hand_over = [&] {
        if (pending == 0) return;
        stream.finish();
        thrust::copy(tallies.begin(), tallies.end(), host_tallies.begin());
        ++counts.tally_copies;
        for (std::uint64_t s = 0; s < pending; ++s) {
            if (first + s < run.thermalisation) continue;
            const std::uint64_t from
                = options.fault == PlantedFault::tallies_one_late && s > 0 ? s - 1 : s;
            result.flips += host_tallies[2 * from];
            bond_sum += static_cast<std::int64_t>(host_tallies[2 * from + 1]);
            ++result.measured;
            if (run.bond_sum) run.bond_sum(bond_sum);
        }
        pending = 0;
    };
    for (std::uint64_t done = 0, k = 0; done < sweeps; ++k) {
        const std::uint64_t count = std::min(per_fill, sweeps - done);
        const int b = static_cast<int>(k % static_cast<std::uint64_t>(buffers));
        stream.wait(b);
        if (!in.fill_device(words[b], static_cast<std::size_t>(count * block))) {
            if (done == 0) return std::nullopt;
            throw std::runtime_error("ising: the stream stopped writing its numbers into device "
                                     "memory in the middle of a replica");
        }
        ++counts.fills;
        hand_over();
        const bool measuring = done + count > run.thermalisation;
        if (measuring && options.fault != PlantedFault::tallies_not_cleared)
            thrust::fill(policy, tallies.begin(), tallies.end(), std::uint64_t(0));
        for (std::uint64_t s = 0; s < count; ++s) {
            if (done + s == run.thermalisation)
                bond_sum = count_bond_sum(policy, pass.spins, run.L);
            pass.words = words[b] + s * block;
            pass.tally = done + s >= run.thermalisation ? tally + 2 * s : nullptr;
            for (int c = 0; c < 2; ++c) {
                pass.colour = c;
                pass.first = c == 0 ? 0 : half;
                run_pass(policy, stream, pass);
            }
        }
        stream.mark(b);
        if (measuring) {
            first = done;
            pending = count;
        }
        done += count;
    }
    hand_over();
    // The bond sum kept by the measured passes against the spins' count: tallies that do not
    // match the flips made (a neighbour read while it was updated, a tally lost) would part them.
    if (run.measured > 0 && bond_sum != count_bond_sum(policy, pass.spins, run.L))
        throw std::runtime_error(
            "ising: the device chain's bond sum differs from its spins' count");
    stream.finish();
    wait_for_device();
    if (options.counts) {
        *options.counts = counts;
        options.counts->storage_requests = cache.requests();
        options.counts->storage_allocations = cache.allocations();
    }
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
