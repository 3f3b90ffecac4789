// Exactness of the native tests of this family against TestU01's own function (native_support.hpp).
//
// smarsa_BirthdaySpacings (batteries/native/birthday_spacings.hpp): on the same stream, TestU01's
// function and the native one give the same collision counts, sum, Lambda and p-values (bit for
// bit) and read the same count of numbers, for the battery parameter sets of SmallCrush, Crush
// and BigCrush (BigCrush's and Crush's at a smaller n unless RNGVET_NATIVE_FULL=1), pseudo-random
// parameter draws, both cell builders (Order 1 and 2), several r, declined parameters, and with
// one and several threads (both the per-replication and the parallel sort paths).
#include "batteries/native/birthday_spacings.hpp"
#include "batteries/native/families.hpp"
#include "native_support.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

extern "C" {
#include <testu01/smarsa.h>
#include <testu01/sres.h>
}

namespace {

using rngvet::native::BirthdaySpacingsParams;
using rngvet::native::BirthdaySpacingsResult;
using rngvet::native::Numbers;
using rngvet_test::HarnessFeed;
using rngvet_test::same_bits;

struct Case {
    std::string name;
    BirthdaySpacingsParams p;
};

std::ostream& operator<<(std::ostream& o, const Case& c)
{
    return o << c.name << " (N=" << c.p.N << " n=" << c.p.n << " r=" << c.p.r << " d=" << c.p.d
             << " t=" << c.p.t << " Order=" << c.p.order << ")";
}

// TestU01's function on one feed.
struct TestU01Run {
    sres_Poisson* res = sres_CreatePoisson();
    std::uint64_t consumed = 0;
    ~TestU01Run() { sres_DeletePoisson(res); }
};

void run_testu01(const std::string& generator, const BirthdaySpacingsParams& p, TestU01Run& out)
{
    HarnessFeed feed(generator);
    smarsa_BirthdaySpacings(feed.gen(), out.res, p.N, p.n, p.r, p.d, p.t, p.order);
    out.consumed = feed.consumed();
}

struct NativeRun {
    BirthdaySpacingsResult res;
    std::uint64_t consumed = 0;
};

NativeRun run_native(const std::string& generator, const BirthdaySpacingsParams& p, int threads)
{
    HarnessFeed feed(generator);
    NativeRun out;
    {
        Numbers in(feed.feed());
        out.res = rngvet::native::birthday_spacings(in, p, threads);
    }
    out.consumed = feed.consumed();
    return out;
}

// Same statistics, p-values and count of numbers read.
void expect_same(const TestU01Run& t, const NativeRun& n, const BirthdaySpacingsParams& p)
{
    EXPECT_EQ(t.consumed, n.consumed);
    if (!n.res.done) {
        EXPECT_EQ(t.consumed, 0u); // TestU01 declined too: it read nothing
        EXPECT_TRUE(same_bits(0.0, t.res->pVal2)); // and left its fresh result as it was
        return;
    }
    ASSERT_EQ(t.res->sVal1->NObs, p.N);
    ASSERT_EQ(n.res.collisions.size(), static_cast<std::size_t>(p.N));
    for (long i = 0; i < p.N; ++i)
        EXPECT_TRUE(
            same_bits(t.res->sVal1->V[i + 1], n.res.collisions[static_cast<std::size_t>(i)]))
            << "replication " << i;
    EXPECT_TRUE(same_bits(t.res->Lambda, n.res.lambda)) << "Lambda";
    EXPECT_TRUE(same_bits(t.res->Mu, n.res.mu)) << "Mu";
    EXPECT_TRUE(same_bits(t.res->sVal2, n.res.sum)) << "sVal2";
    EXPECT_TRUE(same_bits(t.res->pLeft, n.res.p_left)) << "pLeft";
    EXPECT_TRUE(same_bits(t.res->pRight, n.res.p_right)) << "pRight";
    EXPECT_TRUE(same_bits(t.res->pVal2, n.res.p_value)) << "pVal2";
}

// ---------------------------------------------------------------------------------------------
// The parameter table.

// bbattery.c's parameter sets (USE_LONGLONG, 64-bit long), transcribed here on their own.
struct BatterySet {
    const char* battery;
    int number;
    const char* name;
    BirthdaySpacingsParams p;
};
const std::vector<BatterySet>& battery_sets()
{
    static const std::vector<BatterySet> sets = {
        { "smallcrush", 1, "BirthdaySpacings", { 1, 5000000, 0, 1073741824, 2, 1 } },
        { "crush", 11, "BirthdaySpacings, t = 2", { 5, 20000000, 0, 2147483648L, 2, 1 } },
        { "crush", 12, "BirthdaySpacings, t = 3", { 5, 20000000, 0, 2097152, 3, 1 } },
        { "crush", 13, "BirthdaySpacings, t = 4", { 5, 20000000, 0, 65536, 4, 1 } },
        { "crush", 14, "BirthdaySpacings, t = 7", { 3, 20000000, 0, 512, 7, 1 } },
        { "crush", 15, "BirthdaySpacings, t = 7", { 3, 20000000, 7, 512, 7, 1 } },
        { "crush", 16, "BirthdaySpacings, t = 8", { 3, 20000000, 14, 256, 8, 1 } },
        { "crush", 17, "BirthdaySpacings, t = 8", { 3, 20000000, 22, 256, 8, 1 } },
        { "bigcrush", 13, "BirthdaySpacings, t = 2", { 100, 10000000, 0, 2147483648L, 2, 1 } },
        { "bigcrush", 14, "BirthdaySpacings, t = 3", { 20, 20000000, 0, 2097152, 3, 1 } },
        { "bigcrush", 15, "BirthdaySpacings, t = 4", { 20, 30000000, 14, 65536, 4, 1 } },
        { "bigcrush", 16, "BirthdaySpacings, t = 7", { 20, 20000000, 0, 512, 7, 1 } },
        { "bigcrush", 17, "BirthdaySpacings, t = 7", { 20, 20000000, 7, 512, 7, 1 } },
        { "bigcrush", 18, "BirthdaySpacings, t = 8", { 20, 30000000, 14, 256, 8, 1 } },
        { "bigcrush", 19, "BirthdaySpacings, t = 8", { 20, 30000000, 22, 256, 8, 1 } },
        { "bigcrush", 20, "BirthdaySpacings, t = 16", { 20, 30000000, 0, 16, 16, 1 } },
        { "bigcrush", 21, "BirthdaySpacings, t = 16", { 20, 30000000, 26, 16, 16, 1 } },
    };
    return sets;
}

// Numbers of a battery set read at most this many (a fraction of a second in TestU01), unless
// RNGVET_NATIVE_FULL=1.
constexpr long small_numbers = 600000;

// Deterministic draws within the valid ranges: d^t from 2^16 to 2^64, Lambda about 0.5 to 10
// (n capped at 200000, so some Lambda are small), N within 8 N Lambda <= (d^t)^1/4.
std::vector<Case> drawn_cases(int count)
{
    std::mt19937_64 g(20261126);
    auto uniform = [&](long lo, long hi) { // [lo, hi]
        return lo + static_cast<long>(g() % static_cast<std::uint64_t>(hi - lo + 1));
    };
    std::vector<Case> cases;
    for (int i = 0; cases.size() < static_cast<std::size_t>(count); ++i) {
        BirthdaySpacingsParams p;
        p.t = static_cast<int>(uniform(1, 16));
        const double log2k = static_cast<double>(uniform(16, 64));
        double d = std::floor(std::exp2(log2k / p.t));
        if (uniform(0, 1) == 1)
            d = std::floor(d * (0.5 + 0.5 * static_cast<double>(uniform(0, 1000)) / 1000));
        if (d < 2) d = 2;
        p.d = static_cast<long>(d);
        const double k = std::pow(d, p.t);
        if (k > 18446744073709551616.0) continue;
        const double lambda = 0.5 + 9.5 * static_cast<double>(uniform(0, 1000)) / 1000;
        p.n = std::min(200000L, static_cast<long>(std::cbrt(4 * lambda * k)));
        if (p.n < 2) continue;
        const double nn = static_cast<double>(p.n);
        const double lam = nn * nn / k * (nn / 4.0);
        const long max_n = static_cast<long>(std::sqrt(std::sqrt(k)) / (8 * lam));
        p.N = std::min(uniform(1, 30), max_n);
        if (p.N < 1) continue;
        if (p.N * p.n * p.t > 1000000) continue;
        p.r = static_cast<int>(uniform(0, 30));
        p.order = static_cast<int>(uniform(1, 2));
        cases.push_back({ "draw" + std::to_string(cases.size()), p });
    }
    return cases;
}

std::vector<Case> table_cases()
{
    std::vector<Case> cases;
    for (const BatterySet& s : battery_sets()) {
        Case c{ std::string(s.battery) + std::to_string(s.number), s.p };
        const long numbers = c.p.N * c.p.n * c.p.t;
        if (!rngvet_test::native_full_size() && std::strcmp(s.battery, "smallcrush") != 0
            && numbers > small_numbers) {
            c.p.n = std::max(1000L, small_numbers / (c.p.N * c.p.t));
            c.name += "_n" + std::to_string(c.p.n);
        }
        cases.push_back(c);
    }
    // The battery forms at a smaller n with d lowered so that collisions happen (Lambda about 1.5),
    // with several r and both cell builders.
    const struct {
        const char* name;
        BirthdaySpacingsParams p;
    } more[] = {
        { "t2_r0", { 2, 142669, 0, 22000000, 2, 1 } }, // Lambda 1.5
        { "t2_r5_order2", { 2, 142669, 5, 22000000, 2, 2 } },
        { "t3_r0", { 2, 89038, 0, 49000, 3, 1 } },
        { "t3_r9_order2", { 2, 89038, 9, 49000, 3, 2 } },
        { "t4_r14", { 2, 119086, 14, 4096, 4, 1 } },
        { "t4_r14_order2", { 2, 119086, 14, 4096, 4, 2 } },
        { "t7_r7", { 1, 150000, 7, 128, 7, 1 } },
        { "t7_r0_order2", { 1, 150000, 0, 128, 7, 2 } },
        { "t8_r22", { 1, 119086, 22, 64, 8, 1 } },
        { "t8_r14_order2", { 1, 300000, 14, 64, 8, 2 } }, // Lambda 24: reads in 3 chunks
        { "t13_r20", { 1, 39148, 20, 10, 13, 1 } },
        { "t16_d6_r26", { 2, 25600, 26, 6, 16, 1 } },
        { "t16_r0_order2", { 1, 119086, 0, 8, 16, 2 } },
        { "t1_d2e12", { 10, 22894, 3, 2000000000000L, 1, 1 } },
        { "t16_d16_r26_order2", { 1, 50000, 26, 16, 16, 2 } }, // d^t = 2^64: kc is 0
        { "t2_large_N", { 40, 3000, 2, 100000, 2, 1 } }, // replications in parallel batches
        { "t2_n1", { 3, 1, 0, 1000, 2, 1 } },
        { "t2_n2", { 3, 2, 0, 100, 2, 2 } },
        // Declined by TestU01: nothing is read.
        { "declined_d1", { 2, 1000, 0, 1, 4, 1 } },
        { "declined_k", { 2, 1000, 0, 131072, 4, 1 } },
        { "declined_lambda", { 2, 1000000, 0, 1024, 2, 1 } },
    };
    for (const auto& m : more)
        cases.push_back({ m.name, m.p });
    for (const Case& c : drawn_cases(12))
        cases.push_back(c);
    return cases;
}

class BirthdaySpacingsExact : public testing::TestWithParam<std::tuple<Case, std::string>> { };

TEST_P(BirthdaySpacingsExact, SameAsTestU01)
{
    const Case& c = std::get<0>(GetParam());
    const std::string& generator = std::get<1>(GetParam());
    TestU01Run t;
    run_testu01(generator, c.p, t);
    // One thread, and three (an odd team: the parallel sort and the batched replications).
    for (int threads : { 1, 3 }) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        expect_same(t, run_native(generator, c.p, threads), c.p);
    }
}

INSTANTIATE_TEST_SUITE_P(Table, BirthdaySpacingsExact,
    testing::Combine(
        testing::ValuesIn(table_cases()), testing::ValuesIn(rngvet_test::harness_generators())),
    [](const testing::TestParamInfo<BirthdaySpacingsExact::ParamType>& param_info) {
        return std::get<0>(param_info.param).name + "_" + std::get<1>(param_info.param);
    });

// ---------------------------------------------------------------------------------------------
// The battery rows.

TEST(BirthdaySpacingsRows, ParametersAndNamesAreBbatterys)
{
    const auto& rows = rngvet::native::birthday_spacings_rows();
    const auto tests = rngvet::native::birthday_spacings_tests();
    const auto& sets = battery_sets();
    ASSERT_EQ(rows.size(), sets.size());
    ASSERT_EQ(tests.size(), sets.size());
    for (std::size_t i = 0; i < sets.size(); ++i) {
        SCOPED_TRACE(std::string(sets[i].battery) + " " + std::to_string(sets[i].number));
        EXPECT_STREQ(tests[i].battery, sets[i].battery);
        EXPECT_EQ(tests[i].number, sets[i].number);
        EXPECT_STREQ(rows[i].battery, sets[i].battery);
        EXPECT_EQ(rows[i].number, sets[i].number);
        EXPECT_STREQ(rows[i].name, sets[i].name);
        const BirthdaySpacingsParams &a = rows[i].params, &b = sets[i].p;
        EXPECT_EQ(a.N, b.N);
        EXPECT_EQ(a.n, b.n);
        EXPECT_EQ(a.r, b.r);
        EXPECT_EQ(a.d, b.d);
        EXPECT_EQ(a.t, b.t);
        EXPECT_EQ(a.order, b.order);
    }
}

class BirthdaySpacingsRow : public testing::TestWithParam<std::tuple<int, std::string>> { };

// row.run against TestU01's call with the row's parameters, at full size: SmallCrush's always,
// Crush's and BigCrush's with RNGVET_NATIVE_FULL=1.
TEST_P(BirthdaySpacingsRow, RunIsTestU01s)
{
    const std::size_t i = static_cast<std::size_t>(std::get<0>(GetParam()));
    const std::string& generator = std::get<1>(GetParam());
    const BatterySet& s = battery_sets()[i];
    if (std::strcmp(s.battery, "smallcrush") != 0 && !rngvet_test::native_full_size())
        GTEST_SKIP() << "full size with RNGVET_NATIVE_FULL=1";
    const auto tests = rngvet::native::birthday_spacings_tests();
    ASSERT_LT(i, tests.size());

    TestU01Run t;
    run_testu01(generator, s.p, t);
    HarnessFeed feed(generator);
    std::vector<rngvet::native::NativeStatistic> stats;
    {
        Numbers in(feed.feed());
        stats = tests[i].run(in);
    }
    EXPECT_EQ(t.consumed, feed.consumed());
    ASSERT_EQ(stats.size(), 1u);
    EXPECT_EQ(stats[0].name, s.name);
    EXPECT_TRUE(same_bits(t.res->pVal2, stats[0].pvalue));
}

INSTANTIATE_TEST_SUITE_P(Battery, BirthdaySpacingsRow,
    testing::Combine(testing::Range(0, 17), testing::ValuesIn(rngvet_test::harness_generators())),
    [](const testing::TestParamInfo<BirthdaySpacingsRow::ParamType>& param_info) {
        const BatterySet& s
            = battery_sets()[static_cast<std::size_t>(std::get<0>(param_info.param))];
        return std::string(s.battery) + std::to_string(s.number) + "_"
            + std::get<1>(param_info.param);
    });

// ---------------------------------------------------------------------------------------------
// Speed on SmallCrush's parameters (run with --gtest_also_run_disabled_tests; prints only).

TEST(BirthdaySpacingsSpeed, DISABLED_SmallCrushParameters)
{
    const BirthdaySpacingsParams p = battery_sets()[0].p;
    for (const std::string generator : { "mt19937", "ranmar48" }) {
        auto seconds = [](auto f) {
            const auto start = std::chrono::steady_clock::now();
            f();
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
        TestU01Run t;
        const double tu = seconds([&] { run_testu01(generator, p, t); });
        const double feed_only = seconds([&] {
            HarnessFeed feed(generator);
            Numbers in(feed.feed());
            std::vector<std::uint64_t> w(1 << 16);
            for (long k = 0; k < p.N * p.n * p.t; k += 1 << 16)
                in.read(w.data(), w.size());
        });
        std::printf("%s: TestU01 %.3f s, reading the numbers alone %.3f s", generator.c_str(), tu,
            feed_only);
        for (int threads : { 1, 2 }) {
            NativeRun n;
            const double s = seconds([&] { n = run_native(generator, p, threads); });
            expect_same(t, n, p);
            std::printf(
                ", native %d thread%s %.3f s (%.1fx)", threads, threads > 1 ? "s" : "", s, tu / s);
        }
        std::printf("\n");
    }
}

// The native function alone on a battery set's parameters, for profiling (prints only):
// RNGVET_NATIVE_SET (index in battery_sets(), default 0: SmallCrush's), RNGVET_NATIVE_THREADS
// (default 1), RNGVET_NATIVE_REPEAT (default 3).
TEST(BirthdaySpacingsSpeed, DISABLED_NativeOnly)
{
    auto env = [](const char* name, int fallback) {
        const char* v = std::getenv(name);
        return v != nullptr ? std::atoi(v) : fallback;
    };
    const BatterySet& s = battery_sets()[static_cast<std::size_t>(env("RNGVET_NATIVE_SET", 0))];
    const int threads = env("RNGVET_NATIVE_THREADS", 1);
    for (int i = 0; i < env("RNGVET_NATIVE_REPEAT", 3); ++i) {
        const auto start = std::chrono::steady_clock::now();
        const NativeRun n = run_native("mt19937", s.p, threads);
        std::printf("%s %d: native %d thread(s): %.3f s, p = %.6g\n", s.battery, s.number, threads,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
            n.res.p_value);
    }
}

} // namespace
