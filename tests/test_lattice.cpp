// The lattice battery's physics core (batteries/lattice): Kaufman's exact finite-lattice answers
// against brute-force enumeration and the published L = 16 values, the R250 generator, the
// Wolff, Swendsen-Wang and Metropolis chains, and the power test of A. M. Ferrenberg, D. P. Landau
// and Y. J. Wong, Phys. Rev. Lett. 69, 3382 (1992): Wolff clusters at L = 16, K_c driven by R250
// put the energy and the specific heat many standard errors below the exact values.
#include "batteries/lattice/kaufman.hpp"
#include "generators/r250.hpp"

#include <cmath>
#include <cstdint>
#include <gtest/gtest.h>
#include <iomanip>
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

// Published values for L = 16 at K_c = ln(1 + sqrt 2)/2 (Ferrenberg, Landau and Wong 1992 print
// them to 16 digits).
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

// R250's outputs by a plain loop over a growing vector, from the seeding as r250.hpp states it.
std::vector<std::uint32_t> r250_plain(std::uint32_t seed, std::size_t count)
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
        x.push_back(x[x.size() - 103] ^ x[x.size() - 250]);
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

} // namespace
