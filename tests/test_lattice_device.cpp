// The ising battery's Metropolis chain on the device, checked without a GPU:
// ising_device_chain.hpp's algorithm is compiled here by g++ for Thrust's OpenMP system and
// stands in for ising_device.hpp's function (this executable defines it, so the lattice library
// calls this one instead of the CUDA build's or the one of a build without CUDA), and each
// replica is run twice on the same words: on a host stream (the host chain, which test_lattice
// holds equal to its plain statement) and on a stream that writes its words into the system's
// memory (the device path). Every stored statistic must be equal as bits, the same numbers
// consumed, the streams left at the same place, and the device path taken where its plan applies.
//
// The device side reads a few sweeps at a time (max_words below), so replicas span many fills.
//
// The own-lanes mode (ising.hpp): the Wolff replicas of the device chain (one system thread per
// replica) and the host's own-lanes run of every algorithm against the one-lane host chain run
// on each instance's own stream (instance_configuration), as bits, with blocks of a few rounds
// so that every replica stops and goes on in the middle of its clusters many times.
#include "batteries/catalogue.hpp"
#include "batteries/lattice/ising.hpp"
#include "batteries/lattice/ising_battery.hpp"
#include "batteries/lattice/ising_device.hpp"
#include "batteries/lattice/ising_device_chain.hpp"
#include "batteries/lattice/metropolis.hpp"
#include "batteries/lattice/own_lanes.hpp"
#include "batteries/native/source.hpp"
#include "batteries/testu01_gen.hpp"
#include "generators/configuration.hpp"
#include "generators/error.hpp"
#include "generators/r250.hpp"
#include "lattice_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <gtest/gtest.h>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

static_assert(THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP,
    "test_lattice_device runs the device chain on Thrust's OpenMP system");

namespace {
// Words the device side holds at a time (set by each case; whole sweeps, at least one).
std::size_t device_words = 1000;
// The fault the device chain is run with (none but in the case that plants them).
rngvet::lattice::device_chain::PlantedFault device_fault
    = rngvet::lattice::device_chain::PlantedFault::none;
// Whether the device chain fills one buffer while the passes on the other run.
bool device_overlap = true;
// What the last run of the device chain did.
rngvet::lattice::device_chain::ChainCounts device_counts;
// Calls of the device function that ran the chain.
long device_runs = 0;
// Calls of the device Wolff function that ran the replicas.
long wolff_runs = 0;
} // namespace

namespace rngvet::lattice {

std::optional<DeviceMetropolisResult> device_metropolis(
    native::Numbers& in, const DeviceMetropolis& run)
{
    device_chain::ChainOptions options;
    options.max_words = device_words;
    options.counts = &device_counts;
    options.fault = device_fault;
    options.overlap = device_overlap;
    auto r = device_chain::metropolis_chain(in, run, options);
    if (r) ++device_runs;
    return r;
}

std::optional<DeviceWolffResult> device_wolff(native::Numbers& in, const DeviceWolff& run)
{
    auto r = device_chain::wolff_chain(in, run);
    if (r) ++wolff_runs;
    return r;
}

} // namespace rngvet::lattice

namespace {

using rngvet::lattice::IsingAlgorithm;
using rngvet::lattice::IsingRunConfig;
using rngvet::lattice::ReplicaResult;

using rngvet_test::make_generator;

// A stream whose fill_device writes host memory, the "device" memory of Thrust's OpenMP system
// (nullptr: the words are skipped); `on` false: it has no device, as a stream on the host.
class HostSystemStream : public rngvet::Stream {
public:
    HostSystemStream(std::unique_ptr<rngvet::Stream> inner, bool on)
        : inner_(std::move(inner))
        , on_(on)
    {
    }
    int bits() const override { return inner_->bits(); }
    void fill(std::uint64_t* out, std::size_t n) override { inner_->fill(out, n); }
    bool fill_device(void* out, std::size_t n, rngvet::DeviceFormat format) override
    {
        if (!on_ || format != rngvet::DeviceFormat::u64) return false;
        if (out == nullptr)
            inner_->discard(n);
        else
            inner_->fill(static_cast<std::uint64_t*>(out), n);
        if (n > 0) ++fills;
        return true;
    }
    std::string name() const override { return inner_->name(); }
    long fills = 0;

private:
    std::unique_ptr<rngvet::Stream> inner_;
    bool on_;
};

bool same_bits(double a, double b)
{
    return std::memcmp(&a, &b, sizeof a) == 0;
}

// Every stored field of two replicas but the times, as bits.
void expect_same(const ReplicaResult& a, const ReplicaResult& b, const std::string& what)
{
    EXPECT_TRUE(same_bits(a.energy, b.energy)) << what << " " << a.energy << " " << b.energy;
    EXPECT_TRUE(same_bits(a.energy_error, b.energy_error)) << what;
    EXPECT_TRUE(same_bits(a.specific_heat, b.specific_heat)) << what;
    EXPECT_TRUE(same_bits(a.specific_heat_error, b.specific_heat_error)) << what;
    EXPECT_TRUE(same_bits(a.naive_energy_error, b.naive_energy_error)) << what;
    EXPECT_TRUE(same_bits(a.energy_tau, b.energy_tau)) << what;
    ASSERT_EQ(a.binning.size(), b.binning.size()) << what;
    for (std::size_t k = 0; k < a.binning.size(); ++k) {
        EXPECT_EQ(a.binning[k].bin_size, b.binning[k].bin_size) << what;
        EXPECT_EQ(a.binning[k].bins, b.binning[k].bins) << what;
        EXPECT_TRUE(same_bits(a.binning[k].energy_error, b.binning[k].energy_error)) << what;
    }
    EXPECT_EQ(a.flips, b.flips) << what;
    EXPECT_EQ(a.numbers, b.numbers) << what;
}

struct Source {
    const char* generator;
    const char* seed;
};
const Source sources[] = { { "ranmar48", "1802,9373" }, { "ranmar48", "17,4242" },
    { "mt19937", "5489" }, { "mt19937", "271828" } };

IsingRunConfig metropolis(int L, double K, int lanes, std::uint64_t therm, std::uint64_t steps)
{
    IsingRunConfig c;
    c.L = L;
    c.K = K;
    c.algorithm = IsingAlgorithm::metropolis;
    c.thermalisation_steps = therm;
    c.measurement_steps = steps;
    c.lanes = lanes;
    return c;
}

// One replica on the host and on the "device" from the same seed; `device` says whether the
// device path is expected.
void compare(const IsingRunConfig& config, const Source& source, bool device)
{
    const std::string what = std::string(source.generator) + "/" + source.seed + " L "
        + std::to_string(config.L) + " K " + std::to_string(config.K) + " lanes "
        + std::to_string(config.lanes);
    HostSystemStream host(make_generator(source.generator, source.seed), false);
    HostSystemStream dev(make_generator(source.generator, source.seed), true);
    const long runs = device_runs;
    const ReplicaResult a = rngvet::lattice::run_ising_replica(config, host);
    const ReplicaResult b = rngvet::lattice::run_ising_replica(config, dev);
    EXPECT_EQ(device_runs - runs, device ? 1 : 0) << what;
    EXPECT_EQ(dev.fills > 0, device) << what;
    expect_same(a, b, what);
    // The streams end at the same place (the host chain's blocks of 4096).
    std::uint64_t x = 0, y = 0;
    host.fill(&x, 1);
    dev.fill(&y, 1);
    EXPECT_EQ(x, y) << what;
}

TEST(IsingDevice, CheckerboardIsTheSweepOfIsingHpp)
{
    // ising.hpp: the black sites ((x + y) even) in row-major order, then the white ones; odd L
    // included (the host chain allows it).
    for (int L = 2; L <= 11; ++L) {
        const rngvet::lattice::Checkerboard board{ L };
        std::vector<int> stated, shared;
        for (int parity = 0; parity < 2; ++parity)
            for (int i = 0; i < L * L; ++i)
                if ((i % L + i / L) % 2 == parity) stated.push_back(i);
        for (int c = 0; c < 2; ++c)
            for (int k = 0; k < board.sites(c); ++k)
                shared.push_back(board.site(c, k));
        EXPECT_EQ(stated, shared) << "L " << L;
    }
}

TEST(IsingDevice, MetropolisReplicasEqualTheHostsAsBits)
{
    const double Kc = rngvet::lattice::critical_coupling();
    for (int L : { 2, 4, 16, 64 })
        for (double K : { 0.2, Kc, 0.7 })
            for (const Source& s : sources) {
                // Four seeds at K_c, two (ranmar48, mt19937) at the other couplings.
                if (K != Kc && &s != &sources[0] && &s != &sources[2]) continue;
                // A few sweeps per fill; one sweep for the large lattice.
                device_words = static_cast<std::size_t>(3 * L * L + 5);
                const std::uint64_t steps = 1024;
                compare(metropolis(L, K, 1, L == 64 ? 20 : 64, steps), s, true);
            }
}

TEST(IsingDevice, LanesWhereEachSweepTakesOneBlock)
{
    // M dividing N and M >= N: the device path; other M: the host chain, nothing read by the
    // device.
    struct Case {
        int L, lanes;
        bool device;
    };
    const Case cases[] = { { 4, 2, true }, { 4, 4, true }, { 4, 16, true }, { 4, 40, true },
        { 4, 3, false }, { 16, 8, true }, { 16, 64, true }, { 16, 256, true }, { 16, 1000, true },
        { 16, 7, false }, { 16, 96, false }, { 64, 128, true } };
    for (const Case& c : cases)
        for (const Source& s : { sources[0], sources[2] }) {
            device_words = static_cast<std::size_t>(7 * c.L * c.L);
            compare(metropolis(c.L, 0.44, c.lanes, 30, 1024), s, c.device);
        }
}

TEST(IsingDevice, OtherAlgorithmsAndOddLStayOnTheHost)
{
    for (IsingAlgorithm a : { IsingAlgorithm::wolff, IsingAlgorithm::swendsen_wang }) {
        IsingRunConfig c = metropolis(8, 0.44, 1, 10, 1024);
        c.algorithm = a;
        compare(c, sources[0], false);
    }
    // Odd L: no run takes it, on either path.
    HostSystemStream dev(make_generator("mt19937", "1"), true);
    EXPECT_THROW(rngvet::lattice::run_ising_replica(metropolis(3, 0.4, 1, 0, 1024), dev),
        std::invalid_argument);
    EXPECT_EQ(dev.fills, 0);
}

TEST(IsingDevice, AWrongDeviceChainIsSeen)
{
    // The test's teeth: the device chain with a fault (each sweep's numbers taken one place
    // further on, the acceptance table of another K) must give other bond sums.
    for (int fault = 0; fault < 2; ++fault) {
        const IsingRunConfig config = metropolis(8, 0.44, 1, 0, 1024);
        auto host_stream = make_generator("mt19937", "99");
        rngvet::lattice::IsingChain chain(8, 0.44, IsingAlgorithm::metropolis, *host_stream);
        HostSystemStream dev(make_generator("mt19937", "99"), true);
        rngvet::TestU01Generator feed(dev, "x");
        rngvet::native::Numbers in(feed);
        rngvet::lattice::DeviceMetropolis run;
        run.L = 8;
        rngvet::lattice::metropolis_table(fault == 1 ? 0.45 : 0.44, run.table);
        run.measured = config.measurement_steps;
        run.sweep_numbers = 64;
        if (fault == 0)
            for (std::uint32_t q = 0; q < 64; ++q)
                run.number_of.push_back((q + 1) % 64);
        std::vector<std::int64_t> bond_sums;
        run.bond_sum = [&bond_sums](std::int64_t b) { bond_sums.push_back(b); };
        rngvet::lattice::device_chain::ChainOptions options;
        options.max_words = 640;
        const auto r = rngvet::lattice::device_chain::metropolis_chain(in, run, options);
        ASSERT_TRUE(r.has_value());
        ASSERT_EQ(bond_sums.size(), config.measurement_steps);
        int differ = 0;
        for (std::uint64_t s = 0; s < config.measurement_steps; ++s) {
            chain.step();
            differ += chain.lattice().bond_sum() != bond_sums[s];
        }
        EXPECT_GT(differ, 100) << "fault " << fault;
    }
}

TEST(IsingDevice, ColourPassRowsHoldTheSweepsOrder)
{
    // ColourPass's site j of row y (the lanes' view) is the sweep's k-th site of its colour,
    // k = y L/2 + j, and takes the sweep's number first + k: read through load() itself, on
    // words that are their own indices.
    using rngvet::lattice::device_chain::ColourPass;
    for (int L = 2; L <= 12; L += 2) {
        const rngvet::lattice::Checkerboard board{ L };
        std::vector<std::int8_t> spins(static_cast<std::size_t>(L * L), 1);
        std::vector<std::uint64_t> words(static_cast<std::size_t>(L * L));
        for (std::size_t q = 0; q < words.size(); ++q)
            words[q] = 1000 + q;
        for (int c = 0; c < 2; ++c) {
            const std::uint32_t first = c == 0 ? 0 : static_cast<std::uint32_t>(board.sites(0));
            const ColourPass pass{ spins.data(), words.data(), nullptr, nullptr, L, c, first, 1.0,
                { 1, 1, 1 } };
            std::vector<int> lanes, sweep;
            for (int y = 0; y < L; ++y)
                for (int j = 0; j < L / 2; ++j) {
                    const auto site = pass.load(y, j);
                    lanes.push_back(site.i);
                    EXPECT_EQ(site.word, 1000u + first + static_cast<std::uint64_t>(y * L / 2 + j))
                        << "L " << L << " c " << c << " y " << y << " j " << j;
                    EXPECT_EQ(site.sh, 4);
                }
            for (int k = 0; k < board.sites(c); ++k)
                sweep.push_back(board.site(c, k));
            EXPECT_EQ(lanes, sweep) << "L " << L << " c " << c;
        }
    }
}

TEST(IsingDevice, OneTallyCopyPerFillAndNoAllocationPerSweep)
{
    // The chain waits for the device once per fill where it measures (the tallies' copy), not
    // per sweep, and its storage (the numbers, Thrust's temporaries) is allocated once per
    // replica, however many fills: the same count for 1 sweep per fill as for 3 (with one buffer
    // of numbers or two, the fill of one beside the passes on the other).
    const IsingRunConfig config = metropolis(16, 0.44, 1, 10, 1024);
    const std::uint64_t sweeps = 10 + 1024, n = 256;
    for (const bool overlap : { false, true }) {
        device_overlap = overlap;
        std::vector<rngvet::lattice::device_chain::ChainCounts> seen;
        for (const std::uint64_t per_fill : { std::uint64_t(1), std::uint64_t(3), sweeps }) {
            device_words = static_cast<std::size_t>(per_fill * n);
            compare(config, sources[0], true);
            const auto& c = device_counts;
            const std::uint64_t fills = (sweeps + per_fill - 1) / per_fill;
            EXPECT_EQ(c.fills, fills) << per_fill;
            // Fills holding a measured sweep: all but those that end at or before sweep 10.
            EXPECT_EQ(c.tally_copies, fills - 10 / per_fill) << per_fill;
            EXPECT_GE(c.storage_requests, 2u) << per_fill; // the numbers and the reductions'
            EXPECT_LE(c.storage_allocations, c.storage_requests) << per_fill;
            seen.push_back(c);
        }
        EXPECT_EQ(seen[0].storage_allocations, seen[1].storage_allocations);
        // All sweeps in one fill: one buffer of numbers, with or without the overlap.
        EXPECT_EQ(seen[2].storage_allocations + (overlap ? 1 : 0), seen[0].storage_allocations);
        EXPECT_LE(seen[0].storage_allocations, 4u);
    }
    device_overlap = true;
}

TEST(IsingDevice, APlantedTallyFaultIsSeen)
{
    // The test's teeth for the tallies kept on the system: a fill's tallies not cleared, or each
    // sweep handed the sweep before's, give other bond sums than the host chain (and the chain's
    // own check against its spins throws); unfaulted, the same ones.
    using rngvet::lattice::device_chain::PlantedFault;
    for (const PlantedFault fault :
        { PlantedFault::none, PlantedFault::tallies_not_cleared, PlantedFault::tallies_one_late }) {
        const int L = 16;
        const std::uint64_t therm = 5, steps = 1024;
        auto host_stream = make_generator("ranmar48", "1802,9373");
        rngvet::lattice::IsingChain chain(L, 0.44, IsingAlgorithm::metropolis, *host_stream);
        HostSystemStream dev(make_generator("ranmar48", "1802,9373"), true);
        rngvet::TestU01Generator feed(dev, "x");
        rngvet::native::Numbers in(feed);
        rngvet::lattice::DeviceMetropolis run;
        run.L = L;
        rngvet::lattice::metropolis_table(0.44, run.table);
        run.thermalisation = therm;
        run.measured = steps;
        run.sweep_numbers = L * L;
        std::vector<std::int64_t> bond_sums;
        run.bond_sum = [&bond_sums](std::int64_t b) { bond_sums.push_back(b); };
        rngvet::lattice::device_chain::ChainOptions options;
        options.max_words = 4 * L * L;
        options.fault = fault;
        bool threw = false;
        try {
            rngvet::lattice::device_chain::metropolis_chain(in, run, options);
        } catch (const std::runtime_error&) {
            threw = true;
        }
        EXPECT_EQ(threw, fault != PlantedFault::none);
        ASSERT_EQ(bond_sums.size(), steps);
        for (std::uint64_t s = 0; s < therm; ++s)
            chain.step();
        int differ = 0;
        for (std::uint64_t s = 0; s < steps; ++s) {
            chain.step();
            differ += chain.lattice().bond_sum() != bond_sums[s];
        }
        if (fault == PlantedFault::none)
            EXPECT_EQ(differ, 0);
        else
            EXPECT_GT(differ, 100) << static_cast<int>(fault);
    }
}

TEST(IsingDevice, BatteryReplicasOnTheFeedEqualTheHosts)
{
    // The battery's Metropolis test on a feed whose stream writes the "device": the replicas
    // read exactly their numbers there, as GetU01 reads them on the host.
    for (const char* name : { "ising(L=8,K=0.44,therm=40,steps=1024,reps=3)",
             "ising(L=8,K=0.44,therm=40,steps=1024,reps=3,lanes=4)" }) {
        const rngvet::BatteryCatalogue& b = rngvet::catalogue_for(name);
        HostSystemStream host(make_generator("ranmar48", "1802,9373"), false);
        HostSystemStream dev(make_generator("ranmar48", "1802,9373"), true);
        rngvet::TestU01Generator host_feed(host, "host"), dev_feed(dev, "dev");
        device_words = 5000;
        const long runs = device_runs;
        const auto a = rngvet::ising_replicas(host_feed.get(), b, 2);
        const auto d = rngvet::ising_replicas(dev_feed.get(), b, 2);
        EXPECT_EQ(device_runs - runs, 3);
        ASSERT_EQ(a.size(), d.size());
        for (std::size_t k = 0; k < a.size(); ++k)
            expect_same(a[k], d[k], "battery replica " + std::to_string(k));
        EXPECT_EQ(host_feed.consumed(), dev_feed.consumed());
        EXPECT_EQ(dev_feed.consumed(), 3u * (40 + 1024) * 64);
    }
}

TEST(IsingDevice, RunsDoNotDependOnTheThreadCount)
{
    // Replicas run on native::threads() threads, each on its own stream.
    IsingRunConfig c = metropolis(16, 0.44, 1, 50, 1024);
    for (IsingAlgorithm a :
        { IsingAlgorithm::wolff, IsingAlgorithm::swendsen_wang, IsingAlgorithm::metropolis }) {
        c.algorithm = a;
        std::vector<rngvet::lattice::IsingRunResult> results;
        for (int threads : { 1, 4 }) {
            rngvet::native::set_threads(threads);
            std::vector<std::unique_ptr<rngvet::Stream>> own;
            std::vector<rngvet::Stream*> raw;
            for (int k = 0; k < 6; ++k) {
                own.push_back(std::make_unique<rngvet::R250Stream>(100 + k));
                raw.push_back(own.back().get());
            }
            results.push_back(rngvet::lattice::run_ising(c, raw));
        }
        rngvet::native::set_threads(0);
        for (std::size_t k = 0; k < 6; ++k)
            expect_same(results[0].replicas[k], results[1].replicas[k],
                to_string(a) + " replica " + std::to_string(k));
        EXPECT_TRUE(same_bits(results[0].energy.estimate, results[1].energy.estimate));
        EXPECT_TRUE(same_bits(results[0].energy.error, results[1].energy.error));
    }
}

// The own-lanes mode.

rngvet::Configuration interleaved(const char* generator, const char* seed, int instances)
{
    rngvet::ConfigurationText t;
    t.generator = generator;
    t.seed = seed;
    t.instances = instances;
    t.layout = "interleave";
    return rngvet::resolve_configuration(t);
}

IsingRunConfig own_config(
    IsingAlgorithm algorithm, int L, double K, int lanes, std::uint64_t therm, std::uint64_t steps)
{
    IsingRunConfig c = metropolis(L, K, lanes, therm, steps);
    c.algorithm = algorithm;
    c.own_lanes = true;
    return c;
}

// Replica r of the instance's own stream: the one-lane host chain, nothing shared.
std::vector<ReplicaResult> per_instance(
    const IsingRunConfig& own, const rngvet::Configuration& config, int replicas)
{
    IsingRunConfig one = own;
    one.lanes = 1;
    one.own_lanes = false;
    std::vector<ReplicaResult> out;
    for (int r = 0; r < replicas; ++r) {
        const auto stream = rngvet::make_stream(rngvet::instance_configuration(config, r));
        out.push_back(rngvet::lattice::run_ising_replica(one, *stream));
    }
    return out;
}

// Words an own-lanes run reads: whole blocks of B rounds of M until its hungriest replica is done.
std::uint64_t own_words(
    const std::vector<ReplicaResult>& replicas, std::uint64_t B, std::uint64_t M)
{
    std::uint64_t most = 0;
    for (const ReplicaResult& r : replicas)
        most = std::max(most, r.numbers);
    return (most + B - 1) / B * B * M;
}

TEST(IsingOwnLanes, DeviceWolffReplicasEqualEachInstancesHostChainAsBits)
{
    struct Case {
        int L;
        double K;
        int replicas, lanes;
        std::uint32_t block;
    };
    const double Kc = rngvet::lattice::critical_coupling();
    const Case cases[] = { { 4, 0.3, 3, 3, 1 }, { 4, Kc, 5, 7, 3 }, { 8, Kc, 4, 4, 16 },
        { 8, 0.6, 6, 9, 5 }, { 16, 0.3, 3, 5, 64 }, { 16, Kc, 8, 8, 37 }, { 16, 0.6, 2, 2, 1000 },
        { 32, Kc, 3, 4, 256 } };
    for (const Case& c : cases)
        for (const auto& [generator, seed] :
            { std::pair{ "ranmar48", "1802,9373" }, std::pair{ "mt19937", "5489" } }) {
            const std::string what = std::string(generator) + " L " + std::to_string(c.L) + " K "
                + std::to_string(c.K) + " R " + std::to_string(c.replicas) + " M "
                + std::to_string(c.lanes) + " B " + std::to_string(c.block);
            const rngvet::Configuration config = interleaved(generator, seed, c.lanes);
            const IsingRunConfig own
                = own_config(IsingAlgorithm::wolff, c.L, c.K, c.lanes, 20, 1024);
            const auto expected = per_instance(own, config, c.replicas);

            HostSystemStream dev(rngvet::make_stream(config), true);
            rngvet::TestU01Generator feed(dev, "dev");
            const long runs = wolff_runs;
            std::optional<std::vector<ReplicaResult>> got;
            {
                rngvet::native::Numbers in(feed);
                got = rngvet::lattice::run_ising_own_lanes_on_device(own, c.replicas, in, c.block);
            }
            ASSERT_TRUE(got.has_value()) << what;
            EXPECT_EQ(wolff_runs - runs, 1) << what;
            ASSERT_EQ(got->size(), expected.size()) << what;
            for (std::size_t r = 0; r < expected.size(); ++r)
                expect_same((*got)[r], expected[r], what + " replica " + std::to_string(r));
            EXPECT_EQ(feed.consumed(), own_words(expected, c.block, c.lanes)) << what;
            // Many stops in the middle of a cluster: far more numbers than one block.
            EXPECT_GT(expected[0].numbers, 20u * c.block) << what;

            // The host's own-lanes run on the same numbers.
            const auto combined = rngvet::make_stream(config);
            rngvet::lattice::UniformSource source(*combined);
            const auto host
                = rngvet::lattice::run_ising_own_lanes(own, c.replicas, source, c.block);
            for (std::size_t r = 0; r < expected.size(); ++r)
                expect_same(host[r], expected[r], what + " host replica " + std::to_string(r));
            EXPECT_EQ(source.used(), own_words(expected, c.block, c.lanes)) << what;
        }
}

TEST(IsingOwnLanes, HostRunsOfEveryAlgorithmEqualEachInstancesChain)
{
    const double Kc = rngvet::lattice::critical_coupling();
    for (IsingAlgorithm a :
        { IsingAlgorithm::metropolis, IsingAlgorithm::swendsen_wang, IsingAlgorithm::wolff })
        for (const auto& [L, R, M, B] : std::vector<std::tuple<int, int, int, std::uint32_t>>{
                 { 4, 2, 3, 1 }, { 8, 3, 3, 7 }, { 16, 4, 6, 100 }, { 6, 2, 2, 4096 } }) {
            const std::string what = to_string(a) + " L " + std::to_string(L) + " R "
                + std::to_string(R) + " M " + std::to_string(M) + " B " + std::to_string(B);
            const rngvet::Configuration config = interleaved("ranmar48", "17,4242", M);
            const IsingRunConfig own = own_config(a, L, Kc, M, 10, 1024);
            const auto expected = per_instance(own, config, R);
            const auto combined = rngvet::make_stream(config);
            rngvet::lattice::UniformSource source(*combined);
            const auto host = rngvet::lattice::run_ising_own_lanes(own, R, source, B);
            for (std::size_t r = 0; r < expected.size(); ++r)
                expect_same(host[r], expected[r], what + " replica " + std::to_string(r));
            EXPECT_EQ(source.used(), own_words(expected, B, M)) << what;
            // Only Wolff runs on the device: the others are not taken, nothing read.
            if (a != IsingAlgorithm::wolff) {
                HostSystemStream dev(rngvet::make_stream(config), true);
                rngvet::TestU01Generator feed(dev, "dev");
                rngvet::native::Numbers in(feed);
                EXPECT_FALSE(rngvet::lattice::run_ising_own_lanes_on_device(own, R, in, B)) << what;
                EXPECT_EQ(dev.fills, 0) << what;
            }
        }
}

// own_lanes::wolff on lane r of a host buffer of words, block after block, with a planted
// fault: `skip` numbers of each block after the first passed over (a carry off by `skip`), or the
// window said one shorter than it is (`short_window`).
std::vector<std::vector<std::int32_t>> machine_bond_sums(const std::vector<std::uint64_t>& words,
    double scale, int L, double K, int R, int M, std::uint32_t B, std::uint64_t steps, int skip,
    bool short_window)
{
    rngvet::lattice::own_lanes::Plan plan{};
    plan.L = L;
    plan.p_add = -std::expm1(-2.0 * K);
    plan.total = steps;
    const std::size_t n = static_cast<std::size_t>(L) * L;
    std::vector<rngvet::lattice::own_lanes::State> states(R);
    for (auto& s : states)
        rngvet::lattice::own_lanes::start(s, plan);
    std::vector<std::int8_t> spins(R * n, 1);
    std::vector<std::int32_t> stack(R * n), out(B);
    std::vector<std::vector<std::int32_t>> sums(R);
    for (std::size_t block = 0;; ++block) {
        bool left = false;
        for (int r = 0; r < R; ++r) {
            auto& s = states[r];
            if (s.steps >= plan.total) continue;
            left = true;
            const std::size_t base = block * B * M;
            const int shift = block > 0 ? skip : 0;
            auto number = [&](std::uint32_t k) {
                const std::size_t at = base + (k + shift) * static_cast<std::size_t>(M) + r;
                return static_cast<double>(words.at(at)) * scale;
            };
            std::uint32_t m = 0;
            rngvet::lattice::own_lanes::wolff(s, plan, spins.data() + r * n, stack.data() + r * n,
                number, B - shift - (short_window ? 1 : 0), out.data(), m);
            sums[r].insert(sums[r].end(), out.begin(), out.begin() + m);
        }
        if (!left) break;
    }
    return sums;
}

TEST(IsingOwnLanes, APlantedFaultInTheCarryIsSeen)
{
    // The test's teeth: the machine as the device runs it, but with each block's first number
    // passed over, or with the last number of each block left unread, gives other bond sums than
    // each instance's host chain; unfaulted, the same ones.
    const int L = 8, R = 3, M = 4;
    const std::uint32_t B = 16;
    const std::uint64_t steps = 400;
    const double K = 0.44;
    const rngvet::Configuration config = interleaved("ranmar48", "1802,9373", M);
    std::vector<std::uint64_t> words(std::size_t(1) << 22);
    const auto combined = rngvet::make_stream(config);
    combined->fill(words.data(), words.size());
    const double scale = std::ldexp(1.0, -combined->bits());
    std::vector<std::vector<std::int32_t>> expected(R);
    for (int r = 0; r < R; ++r) {
        const auto stream = rngvet::make_stream(rngvet::instance_configuration(config, r));
        rngvet::lattice::IsingChain chain(L, K, IsingAlgorithm::wolff, *stream);
        for (std::uint64_t s = 0; s < steps; ++s) {
            chain.step();
            expected[r].push_back(static_cast<std::int32_t>(chain.lattice().bond_sum()));
        }
    }
    EXPECT_EQ(machine_bond_sums(words, scale, L, K, R, M, B, steps, 0, false), expected);
    for (const auto& [skip, short_window] : { std::pair{ 1, false }, std::pair{ 0, true } }) {
        const auto faulty
            = machine_bond_sums(words, scale, L, K, R, M, B, steps, skip, short_window);
        for (int r = 0; r < R; ++r) {
            int differ = 0;
            for (std::uint64_t s = 0; s < steps; ++s)
                differ += faulty[r][s] != expected[r][s];
            EXPECT_GT(differ, 100) << "skip " << skip << " short " << short_window << " r " << r;
        }
    }
}

TEST(IsingOwnLanes, BatteryReplicasOnTheFeedEqualTheHostsAndEachInstance)
{
    // own=1: test 1 (Wolff) on the "device", tests 2 and 3 on the host, the same numbers read
    // as GetU01 reads them on the host; replica r is instance r's own chain.
    const int M = 5;
    const rngvet::BatteryCatalogue& b
        = rngvet::catalogue_for("ising(L=8,K=0.44,therm=40,steps=1024,reps=4,lanes=5,own=1)");
    EXPECT_EQ(b.name, "ising(L=8,K=0.44,therm=40,steps=1024,reps=4,lanes=5,own=1)");
    const rngvet::Configuration config = interleaved("ranmar48", "1802,9373", M);
    HostSystemStream host(rngvet::make_stream(config), false);
    HostSystemStream dev(rngvet::make_stream(config), true);
    rngvet::TestU01Generator host_feed(host, "host"), dev_feed(dev, "dev");
    for (int test : { 1, 2, 3 }) {
        const long runs = wolff_runs;
        const auto a = rngvet::ising_replicas(host_feed.get(), b, test);
        const auto d = rngvet::ising_replicas(dev_feed.get(), b, test);
        EXPECT_EQ(wolff_runs - runs, test == 1 ? 1 : 0);
        ASSERT_EQ(a.size(), 4u);
        ASSERT_EQ(d.size(), 4u);
        for (std::size_t k = 0; k < a.size(); ++k)
            expect_same(a[k], d[k], "battery replica " + std::to_string(k));
        EXPECT_EQ(host_feed.consumed(), dev_feed.consumed());
        if (test == 1) {
            IsingRunConfig c = own_config(IsingAlgorithm::wolff, 8, 0.44, M, 40, 1024);
            const auto expected = per_instance(c, config, 4);
            for (std::size_t k = 0; k < a.size(); ++k)
                expect_same(a[k], expected[k], "instance " + std::to_string(k));
            EXPECT_EQ(host_feed.consumed(),
                own_words(expected, rngvet::lattice::ising_own_block_rounds, M));
        }
    }
    const auto sa = rngvet::ising_statistics(
        rngvet::ising_replicas(host_feed.get(), b, 1), rngvet::lattice::kaufman_exact(8, 0.44));
    EXPECT_EQ(sa.pvalues.size(), 4u + 2 * 4);
}

TEST(IsingOwnLanes, TheCatalogueKeepsDefaultNamesAndRefusesBadOwnRuns)
{
    // own=0 is the default: not written, the names stored before it unchanged.
    const std::string plain = rngvet::catalogue_for("ising").name;
    EXPECT_EQ(plain.find("own"), std::string::npos);
    EXPECT_EQ(rngvet::catalogue_for("ising(own=0)").name, plain);
    EXPECT_EQ(rngvet::catalogue_for("ising(own=0,lanes=4)").name,
        plain.substr(0, plain.size() - 1) + ",lanes=4)");
    const auto& big = rngvet::catalogue_for("ising(steps=16384,reps=16384,lanes=16384,own=1)");
    EXPECT_TRUE(big.own);
    EXPECT_EQ(big.tests[0].statistics, 4 + 2 * 16384);
    for (const char* bad :
        { "ising(own=2)", "ising(own=yes)", "ising(reps=8,lanes=4,own=1)", "ising(reps=8,own=1)",
            "ising(reps=65537,lanes=65536,own=1)", "ising(reps=65,lanes=64)",
            "ising(reps=1,lanes=4,own=1)", "ising(reps=65536,lanes=65536,own=1)" })
        EXPECT_THROW(rngvet::catalogue_for(bad), rngvet::InputError) << bad;
}

} // namespace
