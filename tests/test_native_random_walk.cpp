// Exactness of the native tests of this family against TestU01's own function (native_support.hpp):
// native swalk_RandomWalk1 (batteries/native/random_walk.hpp) against TestU01's
// swalk_RandomWalk1, and the battery rows against what bbattery.c's GetPVal_Walk writes.
#include "batteries/native/families.hpp"
#include "batteries/native/random_walk.hpp"
#include "native_support.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <stdexcept>

extern "C" {
#include <testu01/gofs.h>
#include <testu01/gofw.h>
#include <testu01/swalk.h>
}

namespace {

using rngvet::native::Numbers;
using rngvet::native::RandomWalkParams;
using rngvet::native::RandomWalkResult;
using rngvet_test::HarnessFeed;
using rngvet_test::same_bits;

struct SwalkRes {
    swalk_Res* res = swalk_CreateRes();
    SwalkRes() = default;
    SwalkRes(const SwalkRes&) = delete;
    SwalkRes& operator=(const SwalkRes&) = delete;
    ~SwalkRes() { swalk_DeleteRes(res); }
};

// TestU01's record of statistic m (H, M, J, R, C) at walk length index k.
sres_Chi2* chi2_of(swalk_Res* res, long k, int m)
{
    switch (m) {
    case rngvet::native::walk_H:
        return res->H[k];
    case rngvet::native::walk_M:
        return res->M[k];
    case rngvet::native::walk_J:
        return res->J[k];
    case rngvet::native::walk_R:
        return res->R[k];
    default:
        return res->C[k];
    }
}

// Every field of TestU01's result against the native one, doubles as bits.
void expect_same(swalk_Res* res, const RandomWalkParams& p, const RandomWalkResult& nat)
{
    ASSERT_TRUE(nat.done);
    ASSERT_EQ(nat.lengths.size(), static_cast<std::size_t>((p.L1 - p.L0) / 2 + 1));
    for (std::size_t k = 0; k < nat.lengths.size(); ++k) {
        const long i = 2 * static_cast<long>(k);
        EXPECT_EQ(nat.lengths[k].L, p.L0 + i);
        for (int m = 0; m < rngvet::native::walk_statistics; ++m) {
            SCOPED_TRACE("L = " + std::to_string(p.L0 + i) + ", statistic " + "HMJRC"[m]);
            const sres_Chi2* q = chi2_of(res, i, m);
            const auto& s = nat.lengths[k].stat[static_cast<std::size_t>(m)];
            EXPECT_EQ(s.deg_free, q->degFree);
            ASSERT_EQ(s.jmin, q->jmin);
            ASSERT_EQ(s.jmax, q->jmax);
            for (long j = 0; j <= q->jmax; ++j) {
                EXPECT_TRUE(same_bits(q->NbExp[j], s.nb_exp[static_cast<std::size_t>(j)]))
                    << "NbExp[" << j << "]";
                EXPECT_EQ(q->Count[j], s.count[static_cast<std::size_t>(j)])
                    << "Count[" << j << "]";
            }
            ASSERT_EQ(static_cast<long>(s.values.size()), q->sVal1->NObs);
            for (long j = 0; j < q->sVal1->NObs; ++j)
                EXPECT_TRUE(same_bits(q->sVal1->V[j + 1], s.values[static_cast<std::size_t>(j)]))
                    << "sVal1[" << j + 1 << "]";
            for (int t = 0; t < gofw_NTestTypes; ++t) {
                EXPECT_TRUE(same_bits(q->sVal2[t], s.sval2[static_cast<std::size_t>(t)]))
                    << "sVal2[" << t << "]";
                EXPECT_TRUE(same_bits(q->pVal2[t], s.pval2[static_cast<std::size_t>(t)]))
                    << "pVal2[" << t << "]";
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// swalk_RandomWalk1 against the native function, parameter set by generator.

struct Case {
    std::string name;
    RandomWalkParams p;
    long full_n; // the battery's n (run when RNGVET_NATIVE_FULL=1), or 0
};

void PrintTo(const Case& c, std::ostream* os)
{
    *os << c.name << " (N = " << c.p.N << ", n = " << c.p.n << ", r = " << c.p.r
        << ", s = " << c.p.s << ", L0 = " << c.p.L0 << ", L1 = " << c.p.L1 << ")";
}

std::vector<Case> cases()
{
    const long million = 1000000;
    std::vector<Case> c = {
        // SmallCrush test 10, full size.
        { "smallcrush10", { 1, million, 0, 30, 150, 150 }, 0 },
        // Crush tests 65-70 (n reduced unless RNGVET_NATIVE_FULL=1).
        { "crush65", { 1, 100000, 0, 30, 90, 90 }, 50 * million },
        { "crush66", { 1, 100000, 20, 10, 90, 90 }, 10 * million },
        { "crush67", { 1, 10000, 0, 30, 1000, 1000 }, 5 * million },
        { "crush68", { 1, 10000, 20, 10, 1000, 1000 }, million },
        { "crush69", { 1, 1000, 0, 30, 10000, 10000 }, million / 2 },
        { "crush70", { 1, 1000, 20, 10, 10000, 10000 }, million / 10 },
        // BigCrush tests 74-79.
        { "bigcrush74", { 1, 200000, 0, 5, 50, 50 }, 100 * million },
        { "bigcrush75", { 1, 200000, 25, 5, 50, 50 }, 100 * million },
        { "bigcrush76", { 1, 10000, 0, 10, 1000, 1000 }, 10 * million },
        { "bigcrush77", { 1, 10000, 20, 10, 1000, 1000 }, 10 * million },
        { "bigcrush78", { 1, 1000, 0, 15, 10000, 10000 }, million },
        { "bigcrush79", { 1, 1000, 15, 15, 10000, 10000 }, million },
        // Other forms: replications (pVal2[gofw_Sum]), several lengths, one number per walk
        // (L < s), one bit per number, all 32 bits, r + s beyond 32, L not a multiple of s
        // or 8, TestU01's early return (n < 3 gofs_MinExpected).
        { "N3", { 3, 5000, 3, 12, 200, 200 }, 0 },
        { "N5_s32_L64", { 5, 2000, 0, 32, 64, 64 }, 0 },
        { "L50to60", { 1, 3000, 0, 30, 50, 60 }, 0 },
        { "N2_L10to30", { 2, 2000, 5, 7, 10, 30 }, 0 },
        { "L20_s32", { 1, 20000, 0, 32, 20, 20 }, 0 },
        { "s1", { 1, 5000, 7, 1, 40, 40 }, 0 },
        { "r25_s20", { 1, 5000, 25, 20, 100, 100 }, 0 },
        { "L1006_s9", { 1, 3000, 2, 9, 1006, 1006 }, 0 },
        { "n20", { 1, 20, 0, 30, 150, 150 }, 0 },
    };
    // Deterministic draws within the valid ranges.
    std::mt19937_64 draw(20261126);
    for (int d = 0; d < 6; ++d) {
        RandomWalkParams p;
        p.s = static_cast<int>(1 + draw() % 32);
        p.r = static_cast<int>(draw() % static_cast<unsigned>(33 - p.s));
        p.L0 = 2 * static_cast<long>(3 + draw() % 300);
        p.L1 = p.L0;
        p.N = d % 3 == 0 ? 2 : 1;
        p.n = std::max(1000L, static_cast<long>(2000000 / (p.L1 * p.N)));
        c.push_back({ "draw" + std::to_string(d) + "_r" + std::to_string(p.r) + "_s"
                + std::to_string(p.s) + "_L" + std::to_string(p.L1) + "_N" + std::to_string(p.N),
            p, 0 });
    }
    return c;
}

class RandomWalk1 : public testing::TestWithParam<std::tuple<Case, std::string>> { };

TEST_P(RandomWalk1, SameAsTestU01)
{
    const Case& c = std::get<0>(GetParam());
    const std::string& generator = std::get<1>(GetParam());
    RandomWalkParams p = c.p;
    if (rngvet_test::native_full_size() && c.full_n > 0) p.n = c.full_n;

    HarnessFeed tu(generator);
    SwalkRes res;
    swalk_RandomWalk1(tu.gen(), res.res, p.N, p.n, p.r, p.s, p.L0, p.L1);
    // One thread and three (walks split unevenly among them).
    for (int threads : { 1, 3 }) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        HarnessFeed nat(generator);
        RandomWalkResult r;
        {
            Numbers in(nat.feed());
            r = rngvet::native::random_walk1(in, p, threads);
        }
        EXPECT_EQ(tu.consumed(), nat.consumed());
        if (static_cast<double>(p.n) < 3.0 * gofs_MinExpected) {
            EXPECT_FALSE(r.done);
            EXPECT_EQ(nat.consumed(), 0u);
            continue;
        }
        expect_same(res.res, p, r);
    }
}

INSTANTIATE_TEST_SUITE_P(Native, RandomWalk1,
    testing::Combine(
        testing::ValuesIn(cases()), testing::ValuesIn(rngvet_test::harness_generators())),
    [](const testing::TestParamInfo<RandomWalk1::ParamType>& param_info) {
        return std::get<0>(param_info.param).name + "_" + std::get<1>(param_info.param);
    });

// Parameters TestU01 rejects are refused before anything is read.
TEST(RandomWalk1Native, RefusesInvalidParameters)
{
    HarnessFeed f("mt19937");
    Numbers in(f.feed());
    EXPECT_THROW(
        rngvet::native::random_walk1(in, { 1, 1000, 0, 30, 151, 151 }), std::invalid_argument);
    EXPECT_THROW(
        rngvet::native::random_walk1(in, { 1, 1000, 0, 30, 100, 90 }), std::invalid_argument);
    EXPECT_THROW(
        rngvet::native::random_walk1(in, { 1, 1000, 30, 30, 100, 100 }), std::invalid_argument);
    EXPECT_THROW(rngvet::native::random_walk1(in, { 1, 1000, 0, 30, 2, 2 }), std::domain_error);
    in.sync();
    EXPECT_EQ(f.consumed(), 0u);
}

// ---------------------------------------------------------------------------------------------
// The battery rows: bbattery.c's calls and GetPVal_Walk's names.

struct BatteryRow {
    const char* battery;
    int number;
    long n;
    int r;
    int s;
    long L;
    const char* mess; // GetPVal_Walk's suffix
    long reduced_n;
};

// bbattery.c: SmallCrush, Crush, BigCrush (r = 0 where the battery passes its r).
const std::vector<BatteryRow>& battery_rows()
{
    const long million = 1000000;
    static const std::vector<BatteryRow> rows = {
        { "smallcrush", 10, million, 0, 30, 150, "", million },
        { "crush", 65, 50 * million, 0, 30, 90, " (L = 90)", 100000 },
        { "crush", 66, 10 * million, 20, 10, 90, " (L = 90)", 100000 },
        { "crush", 67, 5 * million, 0, 30, 1000, " (L = 1000)", 10000 },
        { "crush", 68, million, 20, 10, 1000, " (L = 1000)", 10000 },
        { "crush", 69, million / 2, 0, 30, 10000, " (L = 10000)", 1000 },
        { "crush", 70, million / 10, 20, 10, 10000, " (L = 10000)", 1000 },
        { "bigcrush", 74, 100 * million, 0, 5, 50, " (L=50, r=0)", 100000 },
        { "bigcrush", 75, 100 * million, 25, 5, 50, " (L=50, r=25)", 100000 },
        { "bigcrush", 76, 10 * million, 0, 10, 1000, " (L=1000, r=0)", 10000 },
        { "bigcrush", 77, 10 * million, 20, 10, 1000, " (L=1000, r=20)", 10000 },
        { "bigcrush", 78, million, 0, 15, 10000, " (L=10000, r=0)", 1000 },
        { "bigcrush", 79, million, 15, 15, 10000, " (L=10000, r=15)", 1000 },
    };
    return rows;
}

// What GetPVal_Walk writes for a TestU01 result with N = 1.
std::vector<rngvet::native::NativeStatistic> get_pval_walk(swalk_Res* res, const char* mess)
{
    std::vector<rngvet::native::NativeStatistic> out;
    const char* letters = "HMJRC";
    for (int m = 0; m < 5; ++m)
        out.push_back({ std::string("RandomWalk1 ") + letters[m] + mess,
            chi2_of(res, 0, m)->pVal2[gofw_Mean] });
    return out;
}

void expect_same_statistics(const std::vector<rngvet::native::NativeStatistic>& testu01,
    const std::vector<rngvet::native::NativeStatistic>& native)
{
    ASSERT_EQ(testu01.size(), native.size());
    for (std::size_t i = 0; i < native.size(); ++i) {
        EXPECT_EQ(testu01[i].name, native[i].name);
        EXPECT_TRUE(same_bits(testu01[i].pvalue, native[i].pvalue)) << testu01[i].name;
    }
}

TEST(RandomWalkRows, RegisteredAsInBbattery)
{
    const std::vector<rngvet::native::NativeTest> tests = rngvet::native::random_walk_tests();
    const auto& rows = battery_rows();
    const auto& params = rngvet::native::random_walk_rows();
    ASSERT_EQ(tests.size(), rows.size());
    ASSERT_EQ(params.size(), rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        EXPECT_STREQ(tests[i].battery, rows[i].battery);
        EXPECT_EQ(tests[i].number, rows[i].number);
        EXPECT_STREQ(params[i].battery, rows[i].battery);
        EXPECT_EQ(params[i].number, rows[i].number);
        EXPECT_EQ(params[i].params.N, 1);
        EXPECT_EQ(params[i].params.n, rows[i].n);
        EXPECT_EQ(params[i].params.r, rows[i].r);
        EXPECT_EQ(params[i].params.s, rows[i].s);
        EXPECT_EQ(params[i].params.L0, rows[i].L);
        EXPECT_EQ(params[i].params.L1, rows[i].L);
        EXPECT_STREQ(params[i].suffix, rows[i].mess);
    }
}

class RandomWalkRow : public testing::TestWithParam<std::tuple<std::size_t, std::string>> { };

// Each row's run (at full size for SmallCrush, and for every row with RNGVET_NATIVE_FULL=1)
// against TestU01's call and GetPVal_Walk; otherwise the row's parameters at a smaller n,
// through the same p-value picking.
TEST_P(RandomWalkRow, SameAsBbattery)
{
    const BatteryRow& row = battery_rows()[std::get<0>(GetParam())];
    const std::string& generator = std::get<1>(GetParam());
    const bool whole = rngvet_test::native_full_size() || row.n == row.reduced_n;
    const long n = whole ? row.n : row.reduced_n;

    HarnessFeed tu(generator), nat(generator);
    SwalkRes res;
    swalk_RandomWalk1(tu.gen(), res.res, 1, n, row.r, row.s, row.L, row.L);
    const std::vector<rngvet::native::NativeStatistic> expected = get_pval_walk(res.res, row.mess);

    std::vector<rngvet::native::NativeStatistic> got;
    {
        Numbers in(nat.feed());
        if (whole) {
            const std::vector<rngvet::native::NativeTest> tests
                = rngvet::native::random_walk_tests();
            const rngvet::native::NativeTest* t = nullptr;
            for (const auto& x : tests)
                if (std::string(x.battery) == row.battery && x.number == row.number) t = &x;
            ASSERT_NE(t, nullptr);
            got = t->run(in);
        } else {
            const auto& params = rngvet::native::random_walk_rows()[std::get<0>(GetParam())];
            RandomWalkParams p = params.params;
            p.n = n;
            got = rngvet::native::walk_pvalues(
                rngvet::native::random_walk1(in, p), 1, params.suffix);
        }
    }
    EXPECT_EQ(tu.consumed(), nat.consumed());
    expect_same_statistics(expected, got);
}

INSTANTIATE_TEST_SUITE_P(Native, RandomWalkRow,
    testing::Combine(
        testing::Range<std::size_t>(0, 13), testing::ValuesIn(rngvet_test::harness_generators())),
    [](const testing::TestParamInfo<RandomWalkRow::ParamType>& param_info) {
        const BatteryRow& row = battery_rows()[std::get<0>(param_info.param)];
        return std::string(row.battery) + std::to_string(row.number) + "_"
            + std::get<1>(param_info.param);
    });

// Timings on SmallCrush's parameters (RNGVET_NATIVE_TIMING=1): TestU01, native with 1 and 2
// threads. Printed only; nothing is asserted on them.
TEST(RandomWalkTiming, SmallCrush)
{
    const char* v = std::getenv("RNGVET_NATIVE_TIMING");
    if (v == nullptr || std::string(v) != "1") GTEST_SKIP() << "RNGVET_NATIVE_TIMING=1 runs it";
    const RandomWalkParams p{ 1, 1000000, 0, 30, 150, 150 };
    using clock = std::chrono::steady_clock;
    // Wall seconds, and the process's CPU seconds (all threads) since c0.
    std::clock_t c0 = 0;
    auto seconds = [&c0](clock::time_point a) {
        const double cpu = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
        const double wall = std::chrono::duration<double>(clock::now() - a).count();
        std::printf("[cpu %.3f s] ", cpu);
        return wall;
    };
    for (const std::string generator : { "mt19937", "ranmar24" }) {
        {
            HarnessFeed f(generator);
            SwalkRes res;
            c0 = std::clock();
            const auto t0 = clock::now();
            swalk_RandomWalk1(f.gen(), res.res, p.N, p.n, p.r, p.s, p.L0, p.L1);
            std::printf("%s TestU01: %.3f s\n", generator.c_str(), seconds(t0));
        }
        {
            // The words alone: what reading costs without counting the walks.
            HarnessFeed f(generator);
            Numbers in(f.feed());
            std::vector<std::uint64_t> words(1u << 20);
            c0 = std::clock();
            const auto t0 = clock::now();
            for (long left = p.n * 5; left > 0;) {
                const long k = std::min<long>(left, static_cast<long>(words.size()));
                in.read(words.data(), static_cast<std::size_t>(k));
                left -= k;
            }
            std::printf("%s reading the words alone: %.3f s\n", generator.c_str(), seconds(t0));
        }
        for (int threads : { 1, 2 }) {
            HarnessFeed f(generator);
            Numbers in(f.feed());
            c0 = std::clock();
            const auto t0 = clock::now();
            rngvet::native::random_walk1(in, p, threads);
            std::printf(
                "%s native, %d thread(s): %.3f s\n", generator.c_str(), threads, seconds(t0));
        }
    }
}

} // namespace
