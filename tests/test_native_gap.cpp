// Exactness of the native sknuth_Gap, sknuth_SimpPoker and sknuth_CouponCollector
// (batteries/native/gap.hpp) against TestU01's own functions (native_support.hpp): on the same
// stream, equal statistics, equal p-values as bit patterns, equal counts, and equally many
// numbers consumed. RNGVET_NATIVE_FULL=1 runs the battery parameters at their full n.
#include "batteries/native/families.hpp"
#include "batteries/native/gap.hpp"
#include "native_support.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include <testu01/gofs.h>
#include <testu01/sknuth.h>
#include <testu01/sres.h>
}

namespace {

using rngvet::native::Chi2Outcome;
using rngvet::native::GapRow;
using rngvet::native::Numbers;
using rngvet_test::HarnessFeed;
using rngvet_test::same_bits;

// A TestU01 result record, deleted on leaving.
struct Chi2Record {
    sres_Chi2* res = sres_CreateChi2();
    Chi2Record() = default;
    Chi2Record(const Chi2Record&) = delete;
    Chi2Record& operator=(const Chi2Record&) = delete;
    ~Chi2Record() { sres_DeleteChi2(res); }
};

void expect_same(const sres_Chi2* res, const Chi2Outcome& o)
{
    EXPECT_EQ(res->degFree, o.degrees_of_freedom);
    EXPECT_EQ(res->jmin, o.jmin);
    EXPECT_EQ(res->jmax, o.jmax);
    ASSERT_EQ(res->sVal1->NObs, static_cast<long>(o.sval1.size()));
    for (std::size_t i = 0; i < o.sval1.size(); ++i)
        EXPECT_TRUE(same_bits(res->sVal1->V[i + 1], o.sval1[i])) << "sVal1[" << i + 1 << "]";
    for (int j = 0; j < gofw_NTestTypes; ++j) {
        EXPECT_TRUE(same_bits(res->sVal2[j], o.sval2[static_cast<std::size_t>(j)]))
            << "sVal2 " << gofw_TestNames[j];
        EXPECT_TRUE(same_bits(res->pVal2[j], o.pval2[static_cast<std::size_t>(j)]))
            << "pVal2 " << gofw_TestNames[j];
    }
    ASSERT_EQ(static_cast<std::size_t>(res->jmax + 1), o.counts.size());
    for (long j = 0; j <= res->jmax; ++j)
        EXPECT_EQ(res->Count[j], o.counts[static_cast<std::size_t>(j)]) << "Count[" << j << "]";
}

// TestU01's function and the native one on two feeds of one generator, compared; the native
// one twice, with its integer conversions of the numbers and with TestU01's floating-point ones.
Chi2Outcome compare(const std::string& generator,
    const std::function<void(unif01_Gen*, sres_Chi2*)>& testu01,
    const std::function<Chi2Outcome(Numbers&)>& native)
{
    HarnessFeed a(generator);
    Chi2Record record;
    testu01(a.gen(), record.res);
    Chi2Outcome first;
    for (bool integer : { true, false }) {
        SCOPED_TRACE(integer ? "integer conversions" : "floating-point conversions");
        rngvet::native::set_integer_forms(integer);
        HarnessFeed b(generator);
        Chi2Outcome o;
        {
            Numbers in(b.feed());
            o = native(in);
            EXPECT_EQ(in.consumed(), a.consumed());
        }
        expect_same(record.res, o);
        EXPECT_EQ(a.consumed(), b.consumed());
        if (integer) first = o;
    }
    rngvet::native::set_integer_forms(true);
    return first;
}

// Deterministic parameter draws (splitmix64).
class Draws {
public:
    explicit Draws(std::uint64_t seed)
        : x_(seed)
    {
    }
    std::uint64_t next()
    {
        std::uint64_t z = (x_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    long range(long lo, long hi)
    {
        return lo + static_cast<long>(next() % static_cast<std::uint64_t>(hi - lo + 1));
    }
    // A multiple of 2^-16 in [lo, hi].
    double unit(double lo, double hi)
    {
        const double u = static_cast<double>(next() >> 48) / 65536.0;
        return lo + std::floor((hi - lo) * u * 65536.0) / 65536.0;
    }

private:
    std::uint64_t x_;
};

std::string label_name(std::string s)
{
    for (char& c : s)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return s;
}

// A parameterized test's name: the case's label and the generator.
template <class Case>
std::string case_name(const testing::TestParamInfo<std::tuple<Case, std::string>>& p)
{
    return label_name(std::get<0>(p.param).label + "_" + std::get<1>(p.param));
}

// ---------------------------------------------------------------------------------------------
// sknuth_Gap

struct GapCase {
    std::string label;
    long N;
    long n; // at RNGVET_NATIVE_FULL=1
    long n_small; // otherwise
    int r;
    double alpha;
    double beta;
};

std::vector<GapCase> gap_cases()
{
    std::vector<GapCase> c = {
        // The batteries' forms (bbattery.c).
        { "smallcrush3_r22_b256", 1, 200000, 5000, 22, 0.0, .00390625 },
        { "crush31_r0_b8", 1, 100000000, 100000, 0, 0.0, 0.125 },
        { "crush32_r27_b8", 1, 100000000, 100000, 27, 0.0, 0.125 },
        { "crush33_r0_b256", 1, 5000000, 5000, 0, 0.0, 1.0 / 256.0 },
        { "crush34_r22_b256", 1, 5000000, 5000, 22, 0.0, 1.0 / 256.0 },
        { "bigcrush34_r0_b16", 1, 500000000, 50000, 0, 0.0, 1.0 / 16.0 },
        { "bigcrush35_r25_b32", 1, 300000000, 30000, 25, 0.0, 1.0 / 32.0 },
        { "bigcrush36_r0_b128", 1, 100000000, 8000, 0, 0.0, 1.0 / 128.0 },
        { "bigcrush37_r20_b1024", 1, 10000000, 11000, 20, 0.0, 1.0 / 1024.0 },
        // Replications, an interval away from 0, the whole interval (no degree of freedom),
        // and intervals the LCG never visits (the test interrupted, after n + 1 numbers).
        { "N5_r3_a25_b50", 5, 3000, 3000, 3, 0.25, 0.5 },
        { "N3_r8_a50_b100", 3, 20000, 20000, 8, 0.5, 1.0 },
        { "whole_interval", 2, 1000, 1000, 0, 0.0, 1.0 },
        { "N3_r30_b25_n100", 3, 100, 100, 30, 0.0, 0.25 },
        { "r30_b25_n100000", 1, 100000, 100000, 30, 0.0, 0.25 },
    };
    Draws draw(0x6761701);
    for (int i = 0; i < 5; ++i) {
        const int r = static_cast<int>(draw.range(0, 30));
        const double p = draw.unit(0.01, 0.5);
        const double alpha = draw.unit(0.0, 1.0 - p);
        const long lo = static_cast<long>(20 / p) + 1, hi = static_cast<long>(300000 * p);
        const long n = draw.range(lo, std::max(lo, hi));
        const long N = draw.range(1, 3);
        c.push_back({ "draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                + std::to_string(n) + "_r" + std::to_string(r),
            N, n, n, r, alpha, alpha + p });
    }
    return c;
}

class GapExact : public testing::TestWithParam<std::tuple<GapCase, std::string>> { };

TEST_P(GapExact, SameAsTestU01)
{
    const GapCase& c = std::get<0>(GetParam());
    const long n = rngvet_test::native_full_size() ? c.n : c.n_small;
    const Chi2Outcome o = compare(
        std::get<1>(GetParam()),
        [&](unif01_Gen* gen, sres_Chi2* res) {
            sknuth_Gap(gen, res, c.N, n, c.r, c.alpha, c.beta);
        },
        [&](Numbers& in) { return rngvet::native::gap_test(in, c.N, n, c.r, c.alpha, c.beta); });
    if (c.label.rfind("r30_", 0) == 0 || c.label.find("_r30_") != std::string::npos) {
        EXPECT_EQ(o.interrupted, std::get<1>(GetParam()) == "lcg");
    }
}

INSTANTIATE_TEST_SUITE_P(Cases, GapExact,
    testing::Combine(
        testing::ValuesIn(gap_cases()), testing::ValuesIn(rngvet_test::harness_generators())),
    case_name<GapCase>);

// ---------------------------------------------------------------------------------------------
// sknuth_SimpPoker

struct PokerCase {
    std::string label;
    long N;
    long n;
    long n_small;
    int r;
    int d;
    int k;
};

std::vector<PokerCase> poker_cases()
{
    std::vector<PokerCase> c = {
        { "smallcrush4_r24_d64", 1, 400000, 20000, 24, 64, 64 },
        { "crush23_r0_d16", 1, 40000000, 50000, 0, 16, 16 },
        { "crush24_r26_d16", 1, 40000000, 50000, 26, 16, 16 },
        { "crush25_r0_d64", 1, 10000000, 20000, 0, 64, 64 },
        { "crush26_r24_d64", 1, 10000000, 20000, 24, 64, 64 },
        { "bigcrush26_r0_d8", 1, 400000000, 100000, 0, 8, 8 },
        { "bigcrush27_r27_d8", 1, 400000000, 100000, 27, 8, 8 },
        { "bigcrush28_r0_d32", 1, 100000000, 30000, 0, 32, 32 },
        { "bigcrush29_r25_d32", 1, 100000000, 30000, 25, 32, 32 },
        // Replications read in one block or in many, a replication in several blocks, d = k = 127,
        // and too few hands for two classes.
        { "N7_n1000_r5_d10_k5", 7, 1000, 1000, 5, 10, 5 },
        { "N5000_n200_r12_d3_k5", 5000, 200, 200, 12, 3, 5 },
        { "N2_n40000_r1_d4_k30", 2, 40000, 40000, 1, 4, 30 },
        { "d127_k127", 1, 4000, 4000, 3, 127, 127 },
        { "one_class", 1, 10, 10, 0, 2, 2 },
    };
    Draws draw(0x706f6b6572);
    for (int i = 0; i < 6; ++i) {
        const int r = static_cast<int>(draw.range(0, 30));
        const int d = static_cast<int>(draw.range(2, 127));
        const int k = static_cast<int>(draw.range(2, 127));
        const long n = draw.range(100, 300000 / k);
        const long N = draw.range(1, 4);
        c.push_back({ "draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                + std::to_string(n) + "_r" + std::to_string(r) + "_d" + std::to_string(d) + "_k"
                + std::to_string(k),
            N, n, n, r, d, k });
    }
    return c;
}

class SimpPokerExact : public testing::TestWithParam<std::tuple<PokerCase, std::string>> { };

TEST_P(SimpPokerExact, SameAsTestU01)
{
    const PokerCase& c = std::get<0>(GetParam());
    const long n = rngvet_test::native_full_size() ? c.n : c.n_small;
    compare(
        std::get<1>(GetParam()),
        [&](unif01_Gen* gen, sres_Chi2* res) { sknuth_SimpPoker(gen, res, c.N, n, c.r, c.d, c.k); },
        [&](Numbers& in) { return rngvet::native::simp_poker_test(in, c.N, n, c.r, c.d, c.k); });
}

INSTANTIATE_TEST_SUITE_P(Cases, SimpPokerExact,
    testing::Combine(
        testing::ValuesIn(poker_cases()), testing::ValuesIn(rngvet_test::harness_generators())),
    case_name<PokerCase>);

// ---------------------------------------------------------------------------------------------
// sknuth_CouponCollector

struct CouponCase {
    std::string label;
    long N;
    long n;
    long n_small;
    int r;
    int d;
};

std::vector<CouponCase> coupon_cases()
{
    std::vector<CouponCase> c = {
        { "smallcrush5_r26_d16", 1, 500000, 20000, 26, 16 },
        { "crush27_r0_d4", 1, 40000000, 100000, 0, 4 },
        { "crush28_r28_d4", 1, 40000000, 100000, 28, 4 },
        { "crush29_r0_d16", 1, 10000000, 20000, 0, 16 },
        { "crush30_r26_d16", 1, 10000000, 20000, 26, 16 },
        { "bigcrush30_r0_d8", 1, 200000000, 50000, 0, 8 },
        { "bigcrush31_r10_d8", 1, 200000000, 50000, 10, 8 },
        { "bigcrush32_r20_d8", 1, 200000000, 50000, 20, 8 },
        { "bigcrush33_r27_d8", 1, 200000000, 50000, 27, 8 },
        // Replications, d = 2, d = 61 (every segment stops at 61 numbers: one class, nothing read),
        // d = 20 (most segments stop there), too few segments.
        { "N4_n3000_r2_d5", 4, 3000, 3000, 2, 5 },
        { "d2", 2, 30000, 30000, 7, 2 },
        { "d61", 1, 5000, 5000, 0, 61 },
        { "d20", 1, 5000, 5000, 9, 20 },
        { "one_class", 1, 5, 5, 0, 3 },
    };
    Draws draw(0x636f75706f6e);
    for (int i = 0; i < 6; ++i) {
        const int r = static_cast<int>(draw.range(0, 30));
        const int d = static_cast<int>(draw.range(2, 61));
        const long n = draw.range(200, 8000);
        const long N = draw.range(1, 3);
        c.push_back({ "draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                + std::to_string(n) + "_r" + std::to_string(r) + "_d" + std::to_string(d),
            N, n, n, r, d });
    }
    return c;
}

class CouponCollectorExact : public testing::TestWithParam<std::tuple<CouponCase, std::string>> { };

TEST_P(CouponCollectorExact, SameAsTestU01)
{
    const CouponCase& c = std::get<0>(GetParam());
    const long n = rngvet_test::native_full_size() ? c.n : c.n_small;
    compare(
        std::get<1>(GetParam()),
        [&](unif01_Gen* gen, sres_Chi2* res) {
            sknuth_CouponCollector(gen, res, c.N, n, c.r, c.d);
        },
        [&](Numbers& in) { return rngvet::native::coupon_collector_test(in, c.N, n, c.r, c.d); });
}

INSTANTIATE_TEST_SUITE_P(Cases, CouponCollectorExact,
    testing::Combine(
        testing::ValuesIn(coupon_cases()), testing::ValuesIn(rngvet_test::harness_generators())),
    case_name<CouponCase>);

// The parallel parts (blocks of 2^18 numbers or more): the same results with 1, 2, 3 and 8 threads
// as TestU01's.
TEST(GapFamilyThreads, AnyThreadCount)
{
    for (int t : { 1, 2, 3, 8 }) {
        SCOPED_TRACE("threads " + std::to_string(t));
        rngvet::native::set_threads(t);
        compare(
            "mt19937",
            [](unif01_Gen* gen, sres_Chi2* res) { sknuth_Gap(gen, res, 2, 400000, 4, 0.1, 0.6); },
            [](Numbers& in) { return rngvet::native::gap_test(in, 2, 400000, 4, 0.1, 0.6); });
        compare(
            "ranmar48",
            [](unif01_Gen* gen, sres_Chi2* res) { sknuth_SimpPoker(gen, res, 3, 30000, 2, 9, 9); },
            [](Numbers& in) { return rngvet::native::simp_poker_test(in, 3, 30000, 2, 9, 9); });
        compare(
            "mtdc",
            [](unif01_Gen* gen, sres_Chi2* res) {
                sknuth_CouponCollector(gen, res, 1, 60000, 5, 6);
            },
            [](Numbers& in) { return rngvet::native::coupon_collector_test(in, 1, 60000, 5, 6); });
        compare(
            "lcg",
            [](unif01_Gen* gen, sres_Chi2* res) {
                sknuth_Gap(gen, res, 1, 300000, 29, 0.0, 0.125);
            },
            [](Numbers& in) { return rngvet::native::gap_test(in, 1, 300000, 29, 0.0, 0.125); });
    }
    rngvet::native::set_threads(2);
}

// ---------------------------------------------------------------------------------------------
// The battery rows

// bbattery.c's calls of the three tests (N = 1) and the names it writes for their p-values.
struct BatteryCall {
    const char* battery;
    int number;
    const char* name;
    std::function<void(unif01_Gen*, sres_Chi2*, long)> call; // with n
    long n;
    long n_small;
};

std::vector<BatteryCall> battery_calls()
{
    auto gap = [](int r, double beta) {
        return
            [=](unif01_Gen* g, sres_Chi2* res, long n) { sknuth_Gap(g, res, 1, n, r, 0.0, beta); };
    };
    auto poker = [](int r, int d, int k) {
        return
            [=](unif01_Gen* g, sres_Chi2* res, long n) { sknuth_SimpPoker(g, res, 1, n, r, d, k); };
    };
    auto coupon = [](int r, int d) {
        return [=](unif01_Gen* g, sres_Chi2* res, long n) {
            sknuth_CouponCollector(g, res, 1, n, r, d);
        };
    };
    const long M = 1000 * 1000;
    return {
        { "smallcrush", 3, "Gap", gap(22, .00390625), M / 5, 5000 },
        { "smallcrush", 4, "SimpPoker", poker(24, 64, 64), 2 * M / 5, 20000 },
        { "smallcrush", 5, "CouponCollector", coupon(26, 16), M / 2, 20000 },
        { "crush", 23, "SimpPoker, d = 16", poker(0, 16, 16), 40 * M, 50000 },
        { "crush", 24, "SimpPoker, d = 16", poker(26, 16, 16), 40 * M, 50000 },
        { "crush", 25, "SimpPoker, d = 64", poker(0, 64, 64), 10 * M, 20000 },
        { "crush", 26, "SimpPoker, d = 64", poker(24, 64, 64), 10 * M, 20000 },
        { "crush", 27, "CouponCollector, d = 4", coupon(0, 4), 40 * M, 100000 },
        { "crush", 28, "CouponCollector, d = 4", coupon(28, 4), 40 * M, 100000 },
        { "crush", 29, "CouponCollector, d = 16", coupon(0, 16), 10 * M, 20000 },
        { "crush", 30, "CouponCollector, d = 16", coupon(26, 16), 10 * M, 20000 },
        { "crush", 31, "Gap, r = 0", gap(0, 0.125), 100 * M, 100000 },
        { "crush", 32, "Gap, r = 27", gap(27, 0.125), 100 * M, 100000 },
        { "crush", 33, "Gap, r = 0", gap(0, 1.0 / 256.0), 5 * M, 5000 },
        { "crush", 34, "Gap, r = 22", gap(22, 1.0 / 256.0), 5 * M, 5000 },
        { "bigcrush", 26, "SimpPoker, r = 0", poker(0, 8, 8), 400 * M, 100000 },
        { "bigcrush", 27, "SimpPoker, r = 27", poker(27, 8, 8), 400 * M, 100000 },
        { "bigcrush", 28, "SimpPoker, r = 0", poker(0, 32, 32), 100 * M, 30000 },
        { "bigcrush", 29, "SimpPoker, r = 25", poker(25, 32, 32), 100 * M, 30000 },
        { "bigcrush", 30, "CouponCollector, r = 0", coupon(0, 8), 200 * M, 50000 },
        { "bigcrush", 31, "CouponCollector, r = 10", coupon(10, 8), 200 * M, 50000 },
        { "bigcrush", 32, "CouponCollector, r = 20", coupon(20, 8), 200 * M, 50000 },
        { "bigcrush", 33, "CouponCollector, r = 27", coupon(27, 8), 200 * M, 50000 },
        { "bigcrush", 34, "Gap, r = 0", gap(0, 1.0 / 16.0), 1000 * M / 2, 50000 },
        { "bigcrush", 35, "Gap, r = 25", gap(25, 1.0 / 32.0), 300 * M, 30000 },
        { "bigcrush", 36, "Gap, r = 0", gap(0, 1.0 / 128.0), 1000 * M / 10, 8000 },
        { "bigcrush", 37, "Gap, r = 20", gap(20, 1.0 / 1024.0), 10 * M, 11000 },
    };
}

const GapRow* find_row(const std::string& battery, int number)
{
    for (const GapRow& row : rngvet::native::gap_rows())
        if (battery == row.battery && number == row.number) return &row;
    return nullptr;
}

TEST(GapFamilyRows, RegisteredAsInTheBatteries)
{
    const std::vector<rngvet::native::NativeTest> tests = rngvet::native::gap_tests();
    const std::vector<BatteryCall> calls = battery_calls();
    ASSERT_EQ(tests.size(), calls.size());
    ASSERT_EQ(rngvet::native::gap_rows().size(), calls.size());
    for (std::size_t i = 0; i < calls.size(); ++i) {
        EXPECT_STREQ(tests[i].battery, calls[i].battery);
        EXPECT_EQ(tests[i].number, calls[i].number);
        const GapRow* row = find_row(calls[i].battery, calls[i].number);
        ASSERT_NE(row, nullptr) << calls[i].battery << " " << calls[i].number;
        EXPECT_STREQ(row->name, calls[i].name);
        EXPECT_EQ(row->n, calls[i].n);
    }
}

class BatteryRowExact : public testing::TestWithParam<std::tuple<std::size_t, std::string>> { };

// The row's test with the row's parameters at a small n, then (SmallCrush, or every row at
// RNGVET_NATIVE_FULL=1) the registered row itself at the battery's n.
TEST_P(BatteryRowExact, SameAsTestU01)
{
    const BatteryCall call = battery_calls()[std::get<0>(GetParam())];
    const std::string& generator = std::get<1>(GetParam());
    const GapRow* row = find_row(call.battery, call.number);
    ASSERT_NE(row, nullptr);
    auto check
        = [&](long n,
              const std::function<std::vector<rngvet::native::NativeStatistic>(Numbers&)>& run) {
              HarnessFeed a(generator), b(generator);
              Chi2Record record;
              call.call(a.gen(), record.res, n);
              std::vector<rngvet::native::NativeStatistic> stats;
              {
                  Numbers in(b.feed());
                  stats = run(in);
              }
              ASSERT_EQ(stats.size(), 1u);
              EXPECT_EQ(stats[0].name, call.name);
              EXPECT_TRUE(same_bits(record.res->pVal2[gofw_Mean], stats[0].pvalue));
              EXPECT_EQ(a.consumed(), b.consumed());
          };
    {
        SCOPED_TRACE("n = " + std::to_string(call.n_small));
        check(call.n_small,
            [&](Numbers& in) { return rngvet::native::run_row(*row, in, call.n_small); });
    }
    if (std::string(call.battery) == "smallcrush" || rngvet_test::native_full_size()) {
        SCOPED_TRACE("registered row, n = " + std::to_string(call.n));
        const std::vector<rngvet::native::NativeTest> tests = rngvet::native::gap_tests();
        const rngvet::native::NativeTest* test = nullptr;
        for (const rngvet::native::NativeTest& t : tests)
            if (call.battery == std::string(t.battery) && call.number == t.number) test = &t;
        ASSERT_NE(test, nullptr);
        const auto run = test->run;
        check(call.n, [&](Numbers& in) { return run(in); });
    }
}

std::string row_name(const testing::TestParamInfo<std::tuple<std::size_t, std::string>>& p)
{
    const BatteryCall c = battery_calls()[std::get<0>(p.param)];
    return label_name(
        std::string(c.battery) + std::to_string(c.number) + "_" + std::get<1>(p.param));
}

INSTANTIATE_TEST_SUITE_P(Rows, BatteryRowExact,
    testing::Combine(testing::Range<std::size_t>(0, 27),
        testing::Values(std::string("mt19937"), std::string("lcg"))),
    row_name);

// Timing of the SmallCrush forms (run with --gtest_also_run_disabled_tests): TestU01's function,
// reading the numbers alone, and the native test with 1 and 2 threads, on mt19937 and on the LCG
// (numbers almost free: the tests' own work).
TEST(GapFamilyTiming, DISABLED_SmallCrushForms)
{
    using clock = std::chrono::steady_clock;
    for (const std::string generator : { "mt19937", "lcg" })
        for (std::size_t i = 0; i < 3; ++i) {
            const BatteryCall call = battery_calls()[i];
            const GapRow* row = find_row(call.battery, call.number);
            ASSERT_NE(row, nullptr);
            HarnessFeed a(generator);
            Chi2Record record;
            auto t0 = clock::now();
            call.call(a.gen(), record.res, call.n);
            const double testu01 = std::chrono::duration<double>(clock::now() - t0).count();
            double read_only = 0;
            {
                HarnessFeed b(generator);
                Numbers in(b.feed());
                std::vector<std::uint64_t> buf(1 << 16);
                t0 = clock::now();
                for (std::uint64_t left = a.consumed(); left > 0;) {
                    const std::size_t k
                        = static_cast<std::size_t>(std::min<std::uint64_t>(left, buf.size()));
                    in.read(buf.data(), k);
                    left -= k;
                }
                read_only = std::chrono::duration<double>(clock::now() - t0).count();
            }
            double native[2] = {};
            for (int t : { 1, 2 }) {
                rngvet::native::set_threads(t);
                HarnessFeed b(generator);
                Numbers in(b.feed());
                t0 = clock::now();
                const auto stats = rngvet::native::run_row(*row, in, call.n);
                native[t - 1] = std::chrono::duration<double>(clock::now() - t0).count();
                EXPECT_TRUE(same_bits(record.res->pVal2[gofw_Mean], stats[0].pvalue));
            }
            rngvet::native::set_threads(2);
            std::printf(
                "%-8s %-16s numbers %10llu  TestU01 %.3f s  reading alone %.3f s  native 1 thread "
                "%.3f s  2 threads %.3f s\n",
                generator.c_str(), call.name, static_cast<unsigned long long>(a.consumed()),
                testu01, read_only, native[0], native[1]);
        }
}

} // namespace
