// The lattice battery's physics core (batteries/lattice): Kaufman's exact finite-lattice answers
// against brute-force enumeration and the published L = 16 values, the R250 generator, the
// Wolff, Swendsen-Wang and Metropolis chains, and the power test of A. M. Ferrenberg, D. P. Landau
// and Y. J. Wong, Phys. Rev. Lett. 69, 3382 (1992): Wolff clusters at L = 16, K_c driven by R250
// put the energy and the specific heat many standard errors below the exact values.
#include "batteries/lattice/ising.hpp"
#include "batteries/lattice/kaufman.hpp"
#include "generators/configuration.hpp"
#include "generators/r250.hpp"
#include "lattice_support.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <gtest/gtest.h>
#include <iomanip>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

using rngvet::lattice::critical_coupling;
using rngvet::lattice::IsingExact;
using rngvet::lattice::kaufman_exact;

// Counts of the states of the periodic L x L lattice by bond sum b = sum s_i s_j over the 2N
// bonds: count[b + 2N]. All 2^N states, so L = 4 at most.
std::vector<std::uint64_t> bond_sum_counts(int L)
{
    const int n = L * L;
    std::vector<std::uint64_t> count(static_cast<std::size_t>(4 * n + 1), 0);
    for (std::uint32_t state = 0; state < (std::uint32_t(1) << n); ++state) {
        int b = 0;
        for (int y = 0; y < L; ++y)
            for (int x = 0; x < L; ++x) {
                const int s = (state >> (y * L + x)) & 1u ? 1 : -1;
                const int right = (state >> (y * L + (x + 1) % L)) & 1u ? 1 : -1;
                const int down = (state >> (((y + 1) % L) * L + x)) & 1u ? 1 : -1;
                b += s * right + s * down;
            }
        ++count[static_cast<std::size_t>(b + 2 * n)];
    }
    return count;
}

// ln Z, E and C from the counts, in long double, moments about the mean.
IsingExact enumerated(int L, double K, const std::vector<std::uint64_t>& count)
{
    const int n = L * L;
    const long double k = K;
    long double z = 0, mean = 0;
    for (std::size_t i = 0; i < count.size(); ++i) {
        const long double b = static_cast<long double>(i) - 2 * n;
        const long double w = static_cast<long double>(count[i]) * std::exp(k * (b - 2 * n));
        z += w;
        mean += w * b;
    }
    mean /= z;
    long double variance = 0;
    for (std::size_t i = 0; i < count.size(); ++i) {
        const long double b = static_cast<long double>(i) - 2 * n;
        const long double w = static_cast<long double>(count[i]) * std::exp(k * (b - 2 * n));
        variance += w * (b - mean) * (b - mean);
    }
    variance /= z;
    IsingExact e;
    e.L = L;
    e.K = K;
    e.log_z = static_cast<double>(std::log(z) + k * 2 * n);
    e.energy = static_cast<double>(-mean / n);
    e.specific_heat = static_cast<double>(k * k * variance / n);
    return e;
}

double relative(double a, double b)
{
    return std::fabs(a - b) / std::fabs(b);
}

TEST(Kaufman, CriticalCoupling)
{
    // ln(1 + sqrt 2)/2 = 0.440686793509771512616...; the nearest double (the expression in double
    // arithmetic rounds to the one below it).
    EXPECT_EQ(critical_coupling(), 0x1.c34366179d427p-2);
}

TEST(Kaufman, MatchesEnumerationAtL4)
{
    const auto count = bond_sum_counts(4);
    for (double K :
        { 0.05, 0.1, 0.2, 0.3, 0.4, critical_coupling(), 0.4406868, 0.5, 0.7, 1.0, 1.5 }) {
        const IsingExact exact = kaufman_exact(4, K);
        const IsingExact brute = enumerated(4, K, count);
        EXPECT_EQ(exact.K, K);
        EXPECT_LT(relative(exact.log_z, brute.log_z), 1e-13) << "K = " << K;
        EXPECT_LT(relative(exact.energy, brute.energy), 1e-13)
            << "K = " << K << ": " << exact.energy << " vs " << brute.energy;
        EXPECT_LT(relative(exact.specific_heat, brute.specific_heat), 1e-13)
            << "K = " << K << ": " << exact.specific_heat << " vs " << brute.specific_heat;
    }
}

TEST(Kaufman, MatchesEnumerationAtL2)
{
    // L = 2: each neighbour pair is joined by two bonds; 16 states, by hand-checkable counts.
    const auto count = bond_sum_counts(2);
    for (double K : { 0.1, critical_coupling(), 1.0 }) {
        const IsingExact exact = kaufman_exact(2, K);
        const IsingExact brute = enumerated(2, K, count);
        EXPECT_LT(relative(exact.energy, brute.energy), 1e-13) << "K = " << K;
        EXPECT_LT(relative(exact.specific_heat, brute.specific_heat), 1e-13) << "K = " << K;
    }
}

// Published exact values for L = 16 at K_c = ln(1 + sqrt 2)/2, to 17 significant digits.
constexpr double published_energy_16 = -1.4530648528134771;
constexpr double published_specific_heat_16 = 1.4987049594000261;

TEST(Kaufman, PublishedL16AtCriticalCoupling)
{
    const IsingExact exact = kaufman_exact(16, critical_coupling());
    EXPECT_LT(relative(exact.energy, published_energy_16), 1e-13)
        << std::setprecision(17) << exact.energy;
    EXPECT_LT(relative(exact.specific_heat, published_specific_heat_16), 1e-13)
        << std::setprecision(17) << exact.specific_heat;
}

TEST(Kaufman, OftenQuotedValuesAreAtKEquals0_4406868)
{
    // E = -1.4530649029, C = 1.4987048885 (10 digits) are the answers at K = 0.4406868, the
    // critical coupling rounded to 7 decimals, not at K_c.
    const IsingExact rounded = kaufman_exact(16, 0.4406868);
    EXPECT_NEAR(rounded.energy, -1.4530649029, 0.5e-10) << std::setprecision(17) << rounded.energy;
    EXPECT_NEAR(rounded.specific_heat, 1.4987048885, 0.5e-10)
        << std::setprecision(17) << rounded.specific_heat;
    const IsingExact critical = kaufman_exact(16, critical_coupling());
    EXPECT_GT(std::fabs(critical.energy - -1.4530649029), 1e-8);
    EXPECT_GT(std::fabs(critical.specific_heat - 1.4987048885), 1e-8);
    // And the 16-digit values are not those of K = 0.4406868.
    EXPECT_GT(std::fabs(rounded.energy - published_energy_16), 1e-8);
    EXPECT_GT(std::fabs(rounded.specific_heat - published_specific_heat_16), 1e-8);
}

TEST(Kaufman, OffByOneLatticeSizeFails)
{
    for (int L : { 14, 18 }) {
        const IsingExact wrong = kaufman_exact(L, critical_coupling());
        EXPECT_GT(std::fabs(wrong.energy - published_energy_16), 1e-4) << "L = " << L;
        EXPECT_GT(std::fabs(wrong.specific_heat - published_specific_heat_16), 1e-3) << "L = " << L;
    }
}

TEST(Kaufman, LimitsAndErrors)
{
    // Deep in the ordered phase E -> -2, C -> 0; at high temperature E ~ -2K, C ~ 2K^2.
    const IsingExact cold = kaufman_exact(8, 3.0);
    EXPECT_NEAR(cold.energy, -2.0, 1e-9);
    EXPECT_NEAR(cold.specific_heat, 0.0, 1e-7);
    const IsingExact hot = kaufman_exact(8, 1e-3);
    EXPECT_NEAR(hot.energy, -2e-3, 1e-8);
    EXPECT_NEAR(hot.specific_heat, 2e-6, 1e-10);
    // Large lattices stay finite (the factors are scaled).
    const IsingExact big = kaufman_exact(512, critical_coupling());
    EXPECT_TRUE(std::isfinite(big.specific_heat));
    EXPECT_NEAR(big.energy, -std::sqrt(2.0), 1e-2);
    EXPECT_THROW(kaufman_exact(15, 0.4), std::invalid_argument);
    EXPECT_THROW(kaufman_exact(16, 0.0), std::invalid_argument);
}

// R250's outputs by a plain loop over a growing vector, from the seeding as r250.hpp states it
// (lag 103, or 147 for the gsl tap order).
std::vector<std::uint32_t> r250_plain(std::uint32_t seed, std::size_t count, std::size_t lag = 103)
{
    std::vector<std::uint32_t> x;
    std::uint32_t s = seed == 0 ? 1 : seed;
    for (int i = 0; i < 250; ++i) {
        s = static_cast<std::uint32_t>(69069ull * s % 4294967296ull);
        x.push_back(s);
    }
    for (int j = 0; j < 32; ++j) {
        const std::uint32_t bit = std::uint32_t(1) << (31 - j);
        const std::size_t k = static_cast<std::size_t>(7 * j + 3);
        x[k] = (x[k] & (bit | (bit - 1))) | bit;
    }
    for (std::size_t n = 0; n < count; ++n)
        x.push_back(x[x.size() - lag] ^ x[x.size() - 250]);
    return std::vector<std::uint32_t>(x.begin() + 250, x.end());
}

TEST(R250, KnownAnswerFromPlainLoop)
{
    // The first outputs for seeds 1 and 12345 (also computed by an independent script).
    const std::vector<std::uint32_t> seed1
        = { 0x14c3451c, 0xda4f9a74, 0x627a4cac, 0xeab9d674, 0xf3c04b7c, 0xd80fa594 };
    const std::vector<std::uint32_t> seed12345
        = { 0x3e3be42c, 0x727cef94, 0xc11a6b9c, 0x9adb14b4, 0xaaf42cec, 0x5c646334 };
    for (std::uint32_t seed : { 1u, 12345u, 0u, 4294967295u }) {
        const auto expected = r250_plain(seed, 5000);
        rngvet::R250Stream r(seed);
        std::vector<std::uint64_t> out(expected.size());
        r.fill(out.data(), out.size());
        for (std::size_t n = 0; n < out.size(); ++n)
            ASSERT_EQ(out[n], expected[n]) << "seed " << seed << " output " << n;
        const auto& fixed = seed == 12345u ? seed12345
            : seed == 1u || seed == 0u     ? seed1
                                           : expected;
        for (std::size_t n = 0; n < fixed.size(); ++n)
            EXPECT_EQ(out[n], fixed[n]) << n;
    }
}

TEST(R250, GslTapOrderMatchesGsl)
{
    // GSL's own test (rng/test.c): gsl_rng_r250 from seed 1, the 10000th output is 1100653588.
    rngvet::R250Stream gsl(1, rngvet::R250Taps::gsl);
    EXPECT_EQ(gsl.short_lag(), 147);
    EXPECT_EQ(gsl.name(), "r250gsl/1");
    std::vector<std::uint64_t> out(10000);
    gsl.fill(out.data(), out.size());
    EXPECT_EQ(out.back(), 1100653588u);
    const auto expected = r250_plain(1, out.size(), 147);
    for (std::size_t n = 0; n < out.size(); ++n)
        ASSERT_EQ(out[n], expected[n]) << n;
    // The stated order gives other words from the same seeding.
    rngvet::R250Stream stated(1);
    std::vector<std::uint64_t> other(10000);
    stated.fill(other.data(), other.size());
    EXPECT_EQ(other.back(), 1897560276u);
}

TEST(R250, RecurrenceHoldsOverAMillionOutputs)
{
    rngvet::R250Stream r(20261126);
    std::vector<std::uint32_t> x(250);
    r.register_words(x.data());
    const std::size_t count = 1000000;
    std::vector<std::uint64_t> out(count);
    r.fill(out.data(), count);
    for (auto v : out) {
        ASSERT_LT(v, std::uint64_t(1) << 32);
        x.push_back(static_cast<std::uint32_t>(v));
    }
    for (std::size_t n = 250; n < x.size(); ++n)
        ASSERT_EQ(x[n], x[n - 103] ^ x[n - 250]) << "n = " << n;
    // All 32 bit columns vary.
    std::uint32_t ones = 0, zeros = 0;
    for (std::size_t n = 250; n < x.size(); ++n) {
        ones |= x[n];
        zeros |= ~x[n];
    }
    EXPECT_EQ(ones, 0xFFFFFFFFu);
    EXPECT_EQ(zeros, 0xFFFFFFFFu);
}

TEST(R250, SeedingIsReproducibleAndHasIndependentBitColumns)
{
    rngvet::R250Stream a(7), b(7), c(8);
    std::vector<std::uint64_t> va(1000), vb(1000), vc(1000);
    a.fill(va.data(), va.size());
    b.fill(vb.data(), vb.size());
    c.fill(vc.data(), vc.size());
    EXPECT_EQ(va, vb);
    EXPECT_NE(va, vc);
    EXPECT_EQ(a.name(), "r250/7");
    EXPECT_EQ(a.bits(), 32);
    // The 250 seeding words span GF(2)^32 (the diagonal words alone do): rank 32.
    rngvet::R250Stream fresh(7);
    std::uint32_t words[250];
    fresh.register_words(words);
    std::uint32_t basis[32] = {};
    int rank = 0;
    for (std::uint32_t w : words) {
        for (int bit = 31; bit >= 0 && w != 0; --bit) {
            if (!((w >> bit) & 1u)) continue;
            if (basis[bit] == 0) {
                basis[bit] = w;
                ++rank;
                w = 0;
            } else
                w ^= basis[bit];
        }
    }
    EXPECT_EQ(rank, 32);
    for (int j = 0; j < 32; ++j) {
        const std::uint32_t diagonal = std::uint32_t(1) << (31 - j);
        EXPECT_EQ(words[7 * j + 3] & ~(diagonal | (diagonal - 1)), 0u) << j;
        EXPECT_NE(words[7 * j + 3] & diagonal, 0u) << j;
    }
}

// ---- The chains ----

using rngvet::lattice::deviation;
using rngvet::lattice::IsingAlgorithm;
using rngvet::lattice::IsingChain;
using rngvet::lattice::IsingRunConfig;
using rngvet::lattice::IsingRunResult;
using rngvet::lattice::ReplicaResult;
using rngvet::lattice::run_ising;

using rngvet_test::make_generator;

// The chains written plainly, from the rules in ising.hpp, one word at a time from the stream,
// or in the per-site mode one word at a time from the stream of the lane's own instance (lanes:
// one stream per lane, site or bond i drawing from lanes[i mod M]).
class PlainChain {
public:
    PlainChain(int L, double K, IsingAlgorithm algorithm, rngvet::Stream& stream)
        : L_(L)
        , K_(K)
        , algorithm_(algorithm)
        , stream_(stream)
        , spins_(static_cast<std::size_t>(L * L), 1)
    {
    }
    PlainChain(int L, double K, IsingAlgorithm algorithm, std::vector<rngvet::Stream*> lanes)
        : PlainChain(L, K, algorithm, *lanes.at(0))
    {
        lanes_ = std::move(lanes);
        lane_used_.assign(lanes_.size(), 0);
    }
    void step()
    {
        if (algorithm_ == IsingAlgorithm::wolff) wolff();
        if (algorithm_ == IsingAlgorithm::swendsen_wang) swendsen_wang();
        if (algorithm_ == IsingAlgorithm::metropolis) metropolis();
    }
    const std::vector<int>& spins() const { return spins_; }
    // One stream: the words read. Lanes: M times the most words one lane's stream gave.
    std::uint64_t used() const
    {
        if (lanes_.empty()) return used_;
        return lanes_.size() * *std::max_element(lane_used_.begin(), lane_used_.end());
    }

private:
    // The number for site or bond `index`.
    double u(int index)
    {
        rngvet::Stream& s = lanes_.empty() ? stream_ : *lanes_[index % lanes_.size()];
        std::uint64_t w;
        s.fill(&w, 1);
        ++used_;
        if (!lanes_.empty()) ++lane_used_[index % lanes_.size()];
        return static_cast<double>(w) / std::ldexp(1.0, s.bits());
    }
    std::vector<int> neighbours(int i) const
    {
        const int x = i % L_, y = i / L_;
        return { y * L_ + (x + 1) % L_, y * L_ + (x + L_ - 1) % L_, ((y + 1) % L_) * L_ + x,
            ((y + L_ - 1) % L_) * L_ + x };
    }
    void wolff()
    {
        const double p = 1 - std::exp(-2 * K_);
        const int n = L_ * L_;
        const int seed = static_cast<int>(u(0) * n);
        const int sigma = spins_[seed];
        spins_[seed] = -sigma;
        std::vector<int> stack{ seed };
        while (!stack.empty()) {
            const int i = stack.back();
            stack.pop_back();
            for (int j : neighbours(i))
                if (spins_[j] == sigma && u(j) < p) {
                    spins_[j] = -sigma;
                    stack.push_back(j);
                }
        }
    }
    void swendsen_wang()
    {
        const double p = 1 - std::exp(-2 * K_);
        const int n = L_ * L_;
        std::vector<std::vector<int>> bonds(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)
            for (int d = 0; d < 2; ++d) {
                const int j = neighbours(i)[2 * d]; // right, then down: bond 2 i + d
                if (u(2 * i + d) < p && spins_[i] == spins_[j]) {
                    bonds[i].push_back(j);
                    bonds[j].push_back(i);
                }
            }
        // Clusters by flood fill from their smallest site, in row-major order.
        std::vector<int> label(static_cast<std::size_t>(n), -1);
        for (int i = 0; i < n; ++i) {
            if (label[i] >= 0) continue;
            const bool flip = u(i) < 0.5;
            std::vector<int> frontier{ i };
            label[i] = i;
            while (!frontier.empty()) {
                const int a = frontier.back();
                frontier.pop_back();
                if (flip) spins_[a] = -spins_[a];
                for (int b : bonds[a])
                    if (label[b] < 0) {
                        label[b] = i;
                        frontier.push_back(b);
                    }
            }
        }
    }
    void metropolis()
    {
        for (int parity = 0; parity < 2; ++parity)
            for (int i = 0; i < L_ * L_; ++i) {
                if ((i % L_ + i / L_) % 2 != parity) continue;
                int h = 0;
                for (int j : neighbours(i))
                    h += spins_[j];
                const double r = u(i);
                if (r < std::min(1.0, std::exp(-2 * K_ * spins_[i] * h))) spins_[i] = -spins_[i];
            }
    }

    int L_;
    double K_;
    IsingAlgorithm algorithm_;
    rngvet::Stream& stream_;
    std::vector<int> spins_;
    std::uint64_t used_ = 0;
    std::vector<rngvet::Stream*> lanes_;
    std::vector<std::uint64_t> lane_used_;
};

std::vector<int> spins_of(const rngvet::lattice::IsingLattice& lattice)
{
    std::vector<int> s;
    for (int i = 0; i < lattice.sites(); ++i)
        s.push_back(lattice.spin(i));
    return s;
}

TEST(IsingChain, EachAlgorithmMatchesItsPlainStatementBitForBit)
{
    for (auto algorithm :
        { IsingAlgorithm::wolff, IsingAlgorithm::swendsen_wang, IsingAlgorithm::metropolis }) {
        for (double K : { 0.3, rngvet::lattice::critical_coupling(), 0.6 }) {
            for (int L : { 2, 6, 16 }) {
                rngvet::R250Stream fast_stream(99), plain_stream(99);
                IsingChain chain(L, K, algorithm, fast_stream);
                PlainChain plain(L, K, algorithm, plain_stream);
                for (int step = 0; step < 300; ++step) {
                    chain.step();
                    plain.step();
                    ASSERT_EQ(spins_of(chain.lattice()), plain.spins())
                        << to_string(algorithm) << " L = " << L << " K = " << K << " step " << step;
                    ASSERT_EQ(chain.numbers_used(), plain.used()) << to_string(algorithm);
                    ASSERT_EQ(chain.lattice().bond_sum(), chain.lattice().count_bond_sum())
                        << to_string(algorithm);
                }
            }
        }
    }
}

TEST(IsingChain, NumbersPerStep)
{
    const int L = 8, n = L * L;
    rngvet::R250Stream a(5), b(5), c(5);
    IsingChain metropolis(L, 0.4, IsingAlgorithm::metropolis, a);
    metropolis.step();
    metropolis.step();
    EXPECT_EQ(metropolis.numbers_used(), std::uint64_t(2 * n));
    // Swendsen-Wang: 2N bond numbers and one per cluster. At K -> infinity with all spins up
    // every bond is occupied: one cluster.
    IsingChain frozen(L, 40.0, IsingAlgorithm::swendsen_wang, b);
    frozen.step();
    EXPECT_EQ(frozen.numbers_used(), std::uint64_t(2 * n + 1));
    // Wolff at K -> infinity from all up: the seed number, then one number per test of a
    // neighbour with the original spin: every site but the seed is added from exactly one
    // neighbour, so N - 1 tests succeed and none fail.
    IsingChain wolff(L, 40.0, IsingAlgorithm::wolff, c);
    EXPECT_EQ(wolff.step(), std::uint64_t(n));
    EXPECT_EQ(wolff.numbers_used(), std::uint64_t(1 + (n - 1)));
}

// The per-site mode: the chain with M lanes reading the interleaved stream of M RANMAR
// instances equals the plain chain reading each site's or bond's number from its own instance's
// stream (instance_configuration: the instance on its own), spins and numbers used, every step.
TEST(IsingLanes, EachAlgorithmMatchesItsPlainPerInstanceStatementBitForBit)
{
    for (auto algorithm :
        { IsingAlgorithm::wolff, IsingAlgorithm::swendsen_wang, IsingAlgorithm::metropolis }) {
        for (double K : { 0.3, rngvet::lattice::critical_coupling() }) {
            for (const auto& [L, M] : std::vector<std::pair<int, int>>{
                     { 4, 2 }, { 6, 5 }, { 8, 64 }, { 16, 7 }, { 16, 256 }, { 16, 1000 } }) {
                rngvet::ConfigurationText t;
                t.generator = "ranmar48";
                t.seed = "1802,9373";
                t.instances = M;
                t.layout = "interleave";
                const rngvet::Configuration config = rngvet::resolve_configuration(t);
                const auto combined = rngvet::make_stream(config);
                std::vector<std::unique_ptr<rngvet::Stream>> own;
                std::vector<rngvet::Stream*> lanes;
                for (int k = 0; k < M; ++k) {
                    own.push_back(rngvet::make_stream(rngvet::instance_configuration(config, k)));
                    lanes.push_back(own.back().get());
                }
                IsingChain chain(L, K, algorithm, *combined, M);
                PlainChain plain(L, K, algorithm, lanes);
                const std::string what = to_string(algorithm) + " L = " + std::to_string(L)
                    + " M = " + std::to_string(M) + " K = " + std::to_string(K);
                for (int step = 0; step < 200; ++step) {
                    chain.step();
                    plain.step();
                    ASSERT_EQ(spins_of(chain.lattice()), plain.spins()) << what << " step " << step;
                    ASSERT_EQ(chain.numbers_used(), plain.used()) << what << " step " << step;
                    ASSERT_EQ(chain.lattice().bond_sum(), chain.lattice().count_bond_sum()) << what;
                }
            }
        }
    }
}

// Lanes over a counting source: lane k's j-th number is number j M + k, whatever the order of
// the draws and however far one lane runs ahead of the others (past the buffer's compaction).
TEST(IsingLanes, LaneKHandsOutNumbersJMPlusK)
{
    struct Counter {
        std::uint64_t next = 0;
    } counter;
    rngvet::lattice::UniformSource source(
        [](void* c) { return static_cast<double>(static_cast<Counter*>(c)->next++); }, &counter);
    const int M = 37;
    rngvet::lattice::LaneSource lanes(source, M);
    std::vector<std::uint64_t> handed(M, 0);
    std::uint64_t state = 12345;
    for (int draw = 0; draw < 400000; ++draw) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        // Lane 3 draws far more often than the others: it runs ahead by thousands of rounds.
        const int lane = (state >> 60) < 6 ? 3 : static_cast<int>((state >> 33) % M);
        const double u = lanes.next(lane);
        ASSERT_EQ(u, static_cast<double>(handed[lane] * M + lane)) << "draw " << draw;
        ++handed[lane];
        ASSERT_EQ(lanes.rounds(), *std::max_element(handed.begin(), handed.end()));
    }
    EXPECT_EQ(source.used(), lanes.rounds() * M);
    EXPECT_GT(handed[3], 2 * handed[4] + 10000);
    EXPECT_THROW(rngvet::lattice::LaneSource(source, 0), std::invalid_argument);
    EXPECT_THROW(rngvet::lattice::LaneSource(source, 65537), std::invalid_argument);
}

TEST(IsingLanes, NumbersPerStep)
{
    const int L = 8, n = L * L;
    // Metropolis with M dividing N: N per sweep; with M = 3, lane 0 serves 22 sites of 64, so
    // 3 x 22 = 66 per sweep.
    for (const auto& [M, per_sweep] : std::vector<std::pair<int, int>>{ { 16, n }, { 3, 66 } }) {
        rngvet::R250Stream a(5);
        IsingChain metropolis(L, 0.4, IsingAlgorithm::metropolis, a, M);
        metropolis.step();
        metropolis.step();
        EXPECT_EQ(metropolis.numbers_used(), std::uint64_t(2 * per_sweep)) << M;
    }
    // Swendsen-Wang frozen (one cluster, root 0) with 5 lanes: bonds 0..127 give lanes 0..2
    // 26 numbers and lanes 3, 4 25; the cluster's number is lane 0's 27th: 5 x 27.
    rngvet::R250Stream b(5);
    IsingChain frozen(L, 40.0, IsingAlgorithm::swendsen_wang, b, 5);
    frozen.step();
    EXPECT_EQ(frozen.numbers_used(), std::uint64_t(5 * 27));
    // Wolff frozen: lane 0 gives the seed's number, then every site but the seed is added once,
    // from its own lane.
    for (int M : { 2, 7, 64 }) {
        rngvet::R250Stream c(5);
        IsingChain wolff(L, 40.0, IsingAlgorithm::wolff, c, M);
        const int seed = [&] {
            rngvet::R250Stream copy(5);
            std::uint64_t w;
            copy.fill(&w, 1);
            return static_cast<int>(static_cast<double>(w) / std::ldexp(1.0, copy.bits()) * n);
        }();
        EXPECT_EQ(wolff.step(), std::uint64_t(n));
        std::vector<std::uint64_t> per_lane(static_cast<std::size_t>(M), 0);
        per_lane[0] = 1;
        for (int j = 0; j < n; ++j)
            if (j != seed) ++per_lane[static_cast<std::size_t>(j % M)];
        EXPECT_EQ(wolff.numbers_used(),
            std::uint64_t(M) * *std::max_element(per_lane.begin(), per_lane.end()))
            << M;
    }
}

IsingRunResult run_with(
    const IsingRunConfig& config, const std::vector<std::unique_ptr<rngvet::Stream>>& streams)
{
    std::vector<rngvet::Stream*> raw;
    for (const auto& s : streams)
        raw.push_back(s.get());
    return run_ising(config, raw);
}

std::vector<std::unique_ptr<rngvet::Stream>> mt_streams(int count, int first_seed)
{
    std::vector<std::unique_ptr<rngvet::Stream>> v;
    for (int k = 0; k < count; ++k)
        v.push_back(make_generator("mt19937", std::to_string(first_seed + k)));
    return v;
}

std::string describe(const char* what, const rngvet::lattice::Deviation& d)
{
    char line[200];
    std::snprintf(line, sizeof line, "%s %.8f +- %.8f (exact %.10f): %+.2f sigma, p = %.3g", what,
        d.estimate, d.error, d.exact, d.sigmas, d.p_value);
    return line;
}

// The per-site mode with a sound generator still gives Kaufman's values: each replica an
// interleaved ranmar48 configuration of M instances, one lane per instance.
TEST(IsingLanes, AllAlgorithmsAgreeWithKaufmanAtL8)
{
    for (auto algorithm :
        { IsingAlgorithm::wolff, IsingAlgorithm::swendsen_wang, IsingAlgorithm::metropolis }) {
        IsingRunConfig config;
        config.L = 8;
        config.K = 0.4;
        config.algorithm = algorithm;
        config.thermalisation_steps = 1000;
        config.measurement_steps = 1 << 14;
        config.lanes = 16;
        std::vector<std::unique_ptr<rngvet::Stream>> streams;
        std::vector<rngvet::Stream*> raw;
        for (int k = 0; k < 8; ++k) {
            rngvet::ConfigurationText t;
            t.generator = "ranmar48";
            t.seed = std::to_string(1802 + 100 * k) + ",9373";
            t.instances = 16;
            streams.push_back(rngvet::make_stream(rngvet::resolve_configuration(t)));
            raw.push_back(streams.back().get());
        }
        const IsingRunResult r = run_ising(config, raw);
        std::printf("%s L = 8, K = 0.4, 16 lanes, 8 x %llu steps: %.2f s\n  %s\n  %s\n",
            to_string(algorithm).c_str(), static_cast<unsigned long long>(config.measurement_steps),
            r.seconds, describe("E", r.energy).c_str(), describe("C", r.specific_heat).c_str());
        EXPECT_LT(std::fabs(r.energy.sigmas), 5) << to_string(algorithm);
        EXPECT_LT(std::fabs(r.specific_heat.sigmas), 5) << to_string(algorithm);
        for (const ReplicaResult& replica : r.replicas) {
            EXPECT_LT(
                std::fabs(deviation(replica.energy, replica.energy_error, r.exact.energy).sigmas),
                4);
            EXPECT_LT(std::fabs(deviation(
                          replica.specific_heat, replica.specific_heat_error, r.exact.specific_heat)
                                    .sigmas),
                4);
        }
    }
}

TEST(IsingRun, AllAlgorithmsAgreeWithKaufmanAtL8)
{
    // A good generator: each algorithm's E and C within 4 standard errors of the exact values
    // per replica (64 blocks, close to normal), and within 5 across 8 replicas (their spread:
    // Student t with 7 degrees of freedom, P(|t| > 5) = 0.0016).
    for (auto algorithm :
        { IsingAlgorithm::wolff, IsingAlgorithm::swendsen_wang, IsingAlgorithm::metropolis }) {
        IsingRunConfig config;
        config.L = 8;
        config.K = 0.4;
        config.algorithm = algorithm;
        config.thermalisation_steps = 1000;
        config.measurement_steps = 1 << 15;
        const auto streams = mt_streams(8, 4357);
        const IsingRunResult r = run_with(config, streams);
        std::printf("%s L = 8, K = 0.4, 8 x %llu steps: %.2f s\n  %s\n  %s\n",
            to_string(algorithm).c_str(), static_cast<unsigned long long>(config.measurement_steps),
            r.seconds, describe("E", r.energy).c_str(), describe("C", r.specific_heat).c_str());
        EXPECT_LT(std::fabs(r.energy.sigmas), 5) << to_string(algorithm);
        EXPECT_LT(std::fabs(r.specific_heat.sigmas), 5) << to_string(algorithm);
        for (const ReplicaResult& replica : r.replicas) {
            EXPECT_LT(
                std::fabs(deviation(replica.energy, replica.energy_error, r.exact.energy).sigmas),
                4);
            EXPECT_LT(std::fabs(deviation(
                          replica.specific_heat, replica.specific_heat_error, r.exact.specific_heat)
                                    .sigmas),
                4);
        }
    }
}

TEST(IsingRun, ResultsDoNotDependOnThreadsAndRejectBadConfigs)
{
    IsingRunConfig config;
    config.L = 6;
    config.K = 0.3;
    config.algorithm = IsingAlgorithm::wolff;
    config.thermalisation_steps = 10;
    config.measurement_steps = 4096;
    const auto together = run_with(config, mt_streams(3, 1));
    for (int k = 0; k < 3; ++k) {
        auto alone = make_generator("mt19937", std::to_string(1 + k));
        const ReplicaResult r = rngvet::lattice::run_ising_replica(config, *alone);
        EXPECT_EQ(r.energy, together.replicas[k].energy);
        EXPECT_EQ(r.specific_heat, together.replicas[k].specific_heat);
        EXPECT_EQ(r.numbers, together.replicas[k].numbers);
    }
    rngvet::R250Stream s(1);
    config.measurement_steps = 1000;
    EXPECT_THROW(rngvet::lattice::run_ising_replica(config, s), std::invalid_argument);
    config.measurement_steps = 1024;
    config.L = 7;
    EXPECT_THROW(rngvet::lattice::run_ising_replica(config, s), std::invalid_argument);
}

// ---- The power test (Ferrenberg, Landau and Wong 1992) ----

struct Replica {
    std::string name;
    std::unique_ptr<rngvet::Stream> stream;
};

// Wolff at L = 16, K_c, 10^4 clusters of thermalisation, `clusters` measured, one replica per
// stream; prints each replica's deviations and the binning analysis.
IsingRunResult wolff_at_critical_point(std::vector<Replica>& replicas, std::uint64_t clusters)
{
    IsingRunConfig config;
    config.L = 16;
    config.K = rngvet::lattice::critical_coupling();
    config.algorithm = IsingAlgorithm::wolff;
    config.thermalisation_steps = 10000;
    config.measurement_steps = clusters;
    std::vector<rngvet::Stream*> raw;
    for (auto& r : replicas)
        raw.push_back(r.stream.get());
    const IsingRunResult result = run_ising(config, raw);
    std::printf("Wolff L = 16, K_c, %llu clusters per replica, %.1f s\n",
        static_cast<unsigned long long>(clusters), result.seconds);
    for (std::size_t k = 0; k < replicas.size(); ++k) {
        const ReplicaResult& r = result.replicas[k];
        std::printf("  %-12s %s\n  %-12s %s\n  %-12s tau = %.2f clusters; binning (bin size: "
                    "error of E):",
            replicas[k].name.c_str(),
            describe("E", deviation(r.energy, r.energy_error, result.exact.energy)).c_str(), "",
            describe(
                "C", deviation(r.specific_heat, r.specific_heat_error, result.exact.specific_heat))
                .c_str(),
            "", r.energy_tau);
        for (const auto& level : r.binning)
            std::printf(
                " %llu: %.3g", static_cast<unsigned long long>(level.bin_size), level.energy_error);
        std::printf("; naive %.3g\n", r.naive_energy_error);
    }
    return result;
}

std::vector<Replica> power_test_replicas(
    const std::vector<std::uint32_t>& r250_seeds, const std::vector<std::uint32_t>& gsl_seeds)
{
    std::vector<Replica> v;
    for (std::uint32_t seed : r250_seeds)
        v.push_back({ "r250/" + std::to_string(seed), std::make_unique<rngvet::R250Stream>(seed) });
    for (std::uint32_t seed : gsl_seeds)
        v.push_back({ "r250gsl/" + std::to_string(seed),
            std::make_unique<rngvet::R250Stream>(seed, rngvet::R250Taps::gsl) });
    v.push_back({ "mt19937", make_generator("mt19937", "19650218") });
    v.push_back({ "ranmar48", make_generator("ranmar48", "1802,9373") });
    return v;
}

// Checks the binning analysis of one replica: the error of E has reached its plateau by bins of
// 1/1024 of the run (every level of 64 bins or more, whose error estimates carry <= 9% noise,
// within 25% of the 64-block error; the largest bins, 16 of them, within the 0.1%..99.9% band of
// a chi distribution with 15 degrees of freedom, 0.48..1.58), and the blocks are far longer than
// the integrated autocorrelation time.
void expect_bins_past_autocorrelation(const ReplicaResult& r, const std::string& name)
{
    double blocks_error = 0;
    std::uint64_t block_size = 0;
    for (const auto& level : r.binning)
        if (level.bins == rngvet::lattice::ising_blocks) {
            blocks_error = level.energy_error;
            block_size = level.bin_size;
        }
    ASSERT_GT(blocks_error, 0) << name;
    for (const auto& level : r.binning) {
        const double ratio = level.energy_error / blocks_error;
        if (level.bins >= rngvet::lattice::ising_blocks) {
            EXPECT_GT(ratio, 0.75) << name << ", bins of " << level.bin_size;
            EXPECT_LT(ratio, 1.25) << name << ", bins of " << level.bin_size;
        }
    }
    const auto& largest = r.binning.back();
    EXPECT_EQ(largest.bins, 16) << name;
    EXPECT_GT(largest.energy_error / blocks_error, 0.48) << name;
    EXPECT_LT(largest.energy_error / blocks_error, 1.58) << name;
    EXPECT_GT(static_cast<double>(r.binning.front().bin_size), 50 * r.energy_tau) << name;
    EXPECT_GT(static_cast<double>(block_size), 1000 * r.energy_tau) << name;
    EXPECT_GT(r.energy_tau, 0.5) << name; // correlated: the naive error is too small
}

// Stouffer's combination of independent z values: sum z / sqrt(count).
double combined_sigmas(const std::vector<double>& z)
{
    double sum = 0;
    for (double v : z)
        sum += v;
    return sum / std::sqrt(static_cast<double>(z.size()));
}

TEST(FerrenbergLandauWong, R250FailsWolffAtL16WhileMt19937AndRanmar48Pass)
{
    // 2^18 clusters per replica. R250 (seeds 1, 2, 3) puts C 7-10 standard errors low (published:
    // 32-41 at 10^7 clusters; the deviation grows as sqrt(clusters)) and E 1.5-2.5 low (11-13 at
    // 10^7). mt19937 and ranmar48 stay within 3 standard errors. R250 in GSL's tap order (seed 1)
    // is shown too.
    std::vector<Replica> replicas = power_test_replicas({ 1, 2, 3 }, { 1 });
    const IsingRunResult result = wolff_at_critical_point(replicas, 1 << 18);
    std::vector<double> r250_energy_sigmas;
    for (std::size_t k = 0; k < replicas.size(); ++k) {
        const ReplicaResult& r = result.replicas[k];
        const auto e = deviation(r.energy, r.energy_error, result.exact.energy);
        const auto c
            = deviation(r.specific_heat, r.specific_heat_error, result.exact.specific_heat);
        expect_bins_past_autocorrelation(r, replicas[k].name);
        if (replicas[k].name.rfind("r250gsl", 0) == 0) {
            // GSL's tap order (lag 147) fails by fewer standard errors: 4.5 for seed 1 here.
            EXPECT_LT(c.sigmas, -3) << replicas[k].name;
        } else if (replicas[k].name.rfind("r250", 0) == 0) {
            EXPECT_LT(c.sigmas, -5) << replicas[k].name;
            EXPECT_LT(e.sigmas, 0) << replicas[k].name;
            r250_energy_sigmas.push_back(e.sigmas);
        } else {
            EXPECT_LT(std::fabs(e.sigmas), 3) << replicas[k].name;
            EXPECT_LT(std::fabs(c.sigmas), 3) << replicas[k].name;
        }
    }
    const double r250_energy = combined_sigmas(r250_energy_sigmas);
    std::printf("  r250 E over its seeds (Stouffer): %+.2f sigma\n", r250_energy);
    EXPECT_LT(r250_energy, -3);
}

// The published size: 10^7 clusters per seed (here 9765 x 1024), 4 R250 seeds in each tap order.
// About 7 CPU minutes. RNGVET_LATTICE_FULL=1 runs it with the default tests;
// --gtest_also_run_disabled_tests too. Its figures on this code: R250 (lag 103) seeds 1-4 put C
// 45.6-49.6 and E 15.1-18.3 standard errors low; GSL's tap order (lag 147) seeds 1-4 put C
// 30.8-41.0 and E 11.6-16.5 low (published: 32-41 and 11-13); mt19937 -1.82 (C) and -0.59 (E),
// ranmar48 +0.37 and +0.12.
void full_power_test()
{
    std::vector<Replica> replicas = power_test_replicas({ 1, 2, 3, 4 }, { 1, 2, 3, 4 });
    const IsingRunResult result = wolff_at_critical_point(replicas, 9765ull * 1024);
    for (std::size_t k = 0; k < replicas.size(); ++k) {
        const ReplicaResult& r = result.replicas[k];
        const auto e = deviation(r.energy, r.energy_error, result.exact.energy);
        const auto c
            = deviation(r.specific_heat, r.specific_heat_error, result.exact.specific_heat);
        expect_bins_past_autocorrelation(r, replicas[k].name);
        if (replicas[k].name.rfind("r250", 0) == 0) {
            EXPECT_LT(c.sigmas, -20) << replicas[k].name;
            EXPECT_LT(e.sigmas, -5) << replicas[k].name;
        } else {
            EXPECT_LT(std::fabs(e.sigmas), 3.5) << replicas[k].name;
            EXPECT_LT(std::fabs(c.sigmas), 3.5) << replicas[k].name;
        }
    }
}

TEST(FerrenbergLandauWong, FullSizeWhenAsked)
{
    const char* full = std::getenv("RNGVET_LATTICE_FULL");
    if (full == nullptr || std::string(full) != "1")
        GTEST_SKIP() << "RNGVET_LATTICE_FULL=1 runs it";
    full_power_test();
}

TEST(FerrenbergLandauWong, DISABLED_FullSize)
{
    full_power_test();
}

// ---- Speed ----

TEST(IsingSpeed, DISABLED_FlipsPerSecond)
{
    // One replica per core; flips per second of wall time per replica and in all.
    for (auto algorithm :
        { IsingAlgorithm::wolff, IsingAlgorithm::swendsen_wang, IsingAlgorithm::metropolis }) {
        for (int L : { 16, 64, 256 }) {
            for (const std::string generator : { "r250", "mt19937" }) {
                IsingRunConfig config;
                config.L = L;
                config.K = rngvet::lattice::critical_coupling();
                config.algorithm = algorithm;
                const std::uint64_t spins = static_cast<std::uint64_t>(L) * L;
                // About 5 * 10^7 spin updates (Wolff: cluster spins, ~L^1.75 per cluster at K_c).
                const double per_step = algorithm == IsingAlgorithm::wolff
                    ? std::pow(L, 1.75)
                    : static_cast<double>(spins);
                config.measurement_steps
                    = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(5e7 / per_step / 1024))
                    * 1024;
                config.thermalisation_steps = config.measurement_steps / 8;
                std::vector<std::unique_ptr<rngvet::Stream>> streams;
                for (int k = 0; k < 2; ++k)
                    streams.push_back(generator == "r250"
                            ? std::unique_ptr<rngvet::Stream>(
                                std::make_unique<rngvet::R250Stream>(k + 1))
                            : make_generator("mt19937", std::to_string(k + 1)));
                const IsingRunResult r = run_with(config, streams);
                double flips = 0, numbers = 0, cpu_seconds = 0;
                for (const auto& replica : r.replicas) {
                    flips += static_cast<double>(replica.flips);
                    numbers += static_cast<double>(replica.numbers);
                    cpu_seconds += replica.cpu_seconds;
                }
                // Per CPU second (what one core does when it is not shared) and per wall second
                // of the run (both replicas, the machine as it was shared at the time).
                std::printf("%-13s L = %3d %-8s %8llu steps x 2: %.3g flips/s per core (CPU "
                            "time), %.3g flips/s wall, %.3g numbers/s per core (%.1f s)\n",
                    to_string(algorithm).c_str(), L, generator.c_str(),
                    static_cast<unsigned long long>(config.measurement_steps), flips / cpu_seconds,
                    flips / r.seconds, numbers / cpu_seconds, r.seconds);
            }
        }
    }
}

} // namespace
