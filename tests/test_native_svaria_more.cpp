// Exactness of the native svaria_SampleProd, svaria_SampleMean, svaria_SampleCorr,
// svaria_AppearanceSpacings and svaria_SumCollector (batteries/native/svaria_more.hpp) against
// TestU01's own functions (native_support.hpp): on the same stream, every field of their result
// records equal (doubles as bit patterns), and equally many numbers consumed.
//
// The battery rows (Crush 45-50 and 55, BigCrush 50-58 and 65) are compared with bbattery.c's
// calls and run on a smaller scale (fewer numbers, fewer replications); RNGVET_NATIVE_FULL=1
// runs them at their full size too (minutes each in TestU01).
//
// The timing of smaller forms of the rows (TestU01, native on 1 and 2 threads):
//   ./tests/test_native_svaria_more --gtest_filter='*DISABLED_*' --gtest_also_run_disabled_tests
#include "batteries/native/families.hpp"
#include "batteries/native/svaria_more.hpp"
#include "native_support.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include <testu01/bitset.h>
#include <testu01/gofw.h>
#include <testu01/sres.h>
#include <testu01/statcoll.h>
#include <testu01/svaria.h>
#include <testu01/swrite.h>
}

namespace {

using rngvet::native::Numbers;
using rngvet::native::SvariaRow;
using rngvet::native::SvariaTest;
using rngvet_test::clean;
using rngvet_test::harness_generators;
using rngvet_test::same_bits;
using rngvet_test::WideStream;

// A harness generator's stream (native_support.hpp) or "wide60", with a feed on it.
class HarnessFeed {
public:
    explicit HarnessFeed(const std::string& generator)
        : stream_(generator == "wide60" ? std::make_unique<WideStream>()
                                        : rngvet_test::harness_stream(generator))
        , feed_(std::make_unique<rngvet::TestU01Generator>(*stream_, generator))
    {
        swrite_Basic = FALSE;
    }
    unif01_Gen* gen() { return feed_->get(); }
    rngvet::TestU01Generator& feed() { return *feed_; }
    std::uint64_t consumed() const { return feed_->consumed(); }

private:
    std::unique_ptr<rngvet::Stream> stream_;
    std::unique_ptr<rngvet::TestU01Generator> feed_;
};

// The harness's generators and the wide words.
std::vector<std::string> form_generators()
{
    std::vector<std::string> g = harness_generators();
    g.push_back("wide60");
    return g;
}

// 1, 2 or 3 threads for the native side, fixed per case.
int case_threads(const std::string& label)
{
    return 1 + static_cast<int>(std::hash<std::string>()(label) % 3);
}

void expect_same_collector(
    const statcoll_Collector* a, const statcoll_Collector* b, const std::string& what)
{
    ASSERT_EQ(a->NObs, b->NObs) << what;
    for (long i = 1; i <= a->NObs; ++i)
        EXPECT_TRUE(same_bits(a->V[i], b->V[i])) << what << " [" << i << "]";
}

void expect_same_arrays(const double* a, const double* b, const std::string& what)
{
    for (int i = 0; i < gofw_NTestTypes; ++i)
        EXPECT_TRUE(same_bits(a[i], b[i])) << what << " [" << gofw_TestNames[i] << "]";
}

void expect_same_basic(const sres_Basic* a, const sres_Basic* b)
{
    expect_same_collector(a->sVal1, b->sVal1, "sVal1");
    expect_same_collector(a->pVal1, b->pVal1, "pVal1");
    expect_same_arrays(a->sVal2, b->sVal2, "sVal2");
    expect_same_arrays(a->pVal2, b->pVal2, "pVal2");
    EXPECT_STREQ(a->name, b->name);
}

void expect_same_chi2(const sres_Chi2* a, const sres_Chi2* b)
{
    EXPECT_EQ(a->degFree, b->degFree);
    EXPECT_EQ(a->jmin, b->jmin);
    EXPECT_EQ(a->jmax, b->jmax);
    for (long j = 0; j <= 50; ++j) {
        EXPECT_TRUE(same_bits(a->NbExp[j], b->NbExp[j])) << "NbExp[" << j << "]";
        EXPECT_EQ(a->Loc[j], b->Loc[j]) << "Loc[" << j << "]";
    }
    if (a->degFree >= 1) {
        for (long j = a->jmin; j <= a->jmax; ++j)
            EXPECT_EQ(a->Count[j], b->Count[j]) << "Count[" << j << "]";
    }
    expect_same_collector(a->sVal1, b->sVal1, "sVal1");
    expect_same_collector(a->pVal1, b->pVal1, "pVal1");
    expect_same_arrays(a->sVal2, b->sVal2, "sVal2");
    expect_same_arrays(a->pVal2, b->pVal2, "pVal2");
    EXPECT_STREQ(a->sVal1->Desc, b->sVal1->Desc);
}

// One call of a test: which, and its parameters (SvariaRow's fields).
struct Form {
    std::string label;
    std::string generator;
    SvariaRow p;
};

void PrintTo(const Form& f, std::ostream* os)
{
    *os << f.label << "_" << f.generator;
}

// TestU01's function on `gen` into a fresh record of the right kind.
void run_testu01(unif01_Gen* gen, const SvariaRow& p, sres_Basic* basic, sres_Chi2* chi2)
{
    switch (p.test) {
    case SvariaTest::SampleProd:
        svaria_SampleProd(gen, basic, p.N, p.n, p.r, p.t);
        break;
    case SvariaTest::SampleMean:
        svaria_SampleMean(gen, basic, p.N, p.n, p.r);
        break;
    case SvariaTest::SampleCorr:
        svaria_SampleCorr(gen, basic, p.N, p.n, p.r, p.t);
        break;
    case SvariaTest::AppearanceSpacings:
        svaria_AppearanceSpacings(gen, basic, p.N, p.n, p.K, p.r, p.t, p.L);
        break;
    case SvariaTest::SumCollector:
        svaria_SumCollector(gen, chi2, p.N, p.n, p.r, p.g);
        break;
    }
}

void run_native(Numbers& in, const SvariaRow& p, sres_Basic* basic, sres_Chi2* chi2, int threads)
{
    switch (p.test) {
    case SvariaTest::SampleProd:
        rngvet::native::sample_prod(in, basic, p.N, p.n, p.r, p.t, threads);
        break;
    case SvariaTest::SampleMean:
        rngvet::native::sample_mean(in, basic, p.N, p.n, p.r, threads);
        break;
    case SvariaTest::SampleCorr:
        rngvet::native::sample_corr(in, basic, p.N, p.n, p.r, p.t, threads);
        break;
    case SvariaTest::AppearanceSpacings:
        rngvet::native::appearance_spacings(in, basic, p.N, p.n, p.K, p.r, p.t, p.L, threads);
        break;
    case SvariaTest::SumCollector:
        rngvet::native::sum_collector(in, chi2, p.N, p.n, p.r, p.g, threads);
        break;
    }
}

// Both on one generator's stream from its start: every field and the count consumed.
void compare_records(const std::string& generator, const SvariaRow& p, int threads)
{
    SCOPED_TRACE("threads " + std::to_string(threads));
    HarnessFeed feed1(generator), feed2(generator);
    sres_Basic* basic[2] = { sres_CreateBasic(), sres_CreateBasic() };
    sres_Chi2* chi2[2] = { sres_CreateChi2(), sres_CreateChi2() };
    run_testu01(feed1.gen(), p, basic[0], chi2[0]);
    {
        Numbers in(feed2.feed());
        run_native(in, p, basic[1], chi2[1], threads);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    if (p.test == SvariaTest::SumCollector)
        expect_same_chi2(chi2[0], chi2[1]);
    else
        expect_same_basic(basic[0], basic[1]);
    for (int i = 0; i < 2; ++i) {
        sres_DeleteBasic(basic[i]);
        sres_DeleteChi2(chi2[i]);
    }
}

SvariaRow params(SvariaTest test, long N, long n, long K, int r, int t, int L, double g)
{
    return { "", 0, test, N, n, K, r, t, L, g, gofw_Mean, "" };
}

class FormExact : public testing::TestWithParam<Form> { };

TEST_P(FormExact, SameRecordsAndCount)
{
    const Form& f = GetParam();
    compare_records(f.generator, f.p, case_threads(f.label + "/" + f.generator));
}

std::vector<Form> forms()
{
    std::vector<Form> out;
    using T = SvariaTest;
    for (const std::string& g : form_generators()) {
        auto add = [&](const std::string& label, const SvariaRow& p) {
            out.push_back({ label, g, p });
        };
        // SampleProd: one replication (the Mean p-value), several (the AD of the ADs), n = 1,
        // r > 0.
        add("prod_N1_t10", params(T::SampleProd, 1, 40000, 0, 0, 10, 0, 0));
        add("prod_N4_t8_r3", params(T::SampleProd, 4, 5000, 0, 3, 8, 0, 0));
        add("prod_N3_n1_t2", params(T::SampleProd, 3, 1, 0, 0, 2, 0, 0));
        add("prod_N2_t1_r20", params(T::SampleProd, 2, 3000, 0, 20, 1, 0, 0));
        // SampleMean: the exact law (n < 60), the normal approximation, N = 1, n = 2.
        add("mean_n20", params(T::SampleMean, 40000, 20, 0, 0, 0, 0, 0));
        add("mean_n30_r10", params(T::SampleMean, 20000, 30, 0, 10, 0, 0, 0));
        add("mean_n75_r5", params(T::SampleMean, 5000, 75, 0, 5, 0, 0, 0));
        add("mean_N1_n7", params(T::SampleMean, 1, 7, 0, 0, 0, 0, 0));
        add("mean_n2", params(T::SampleMean, 3000, 2, 0, 0, 0, 0, 0));
        // SampleCorr: lags 1, 2, 7, several replications across the reads.
        add("corr_k1", params(T::SampleCorr, 1, 1500000, 0, 0, 1, 0, 0));
        add("corr_k2_N3", params(T::SampleCorr, 3, 700001, 0, 4, 2, 0, 0));
        add("corr_k7_N5", params(T::SampleCorr, 5, 1000, 0, 0, 7, 0, 0));
        // AppearanceSpacings: s > L (s / L blocks per number), L >= s with and without a
        // remainder, small L (no Coron-Naccache factor), L > 16, Q = 1 (TestU01 warns of it).
        add("appear_s30_L15", params(T::AppearanceSpacings, 1, 327680, 400000, 0, 30, 15, 0));
        add("appear_s10_L15_r20", params(T::AppearanceSpacings, 2, 327680, 100000, 20, 10, 15, 0));
        add("appear_s3_L15_r27", params(T::AppearanceSpacings, 1, 327680, 100000, 27, 3, 15, 0));
        add("appear_s4_L8_N3", params(T::AppearanceSpacings, 3, 3000, 20000, 1, 4, 8, 0));
        add("appear_s6_L2", params(T::AppearanceSpacings, 2, 40, 5001, 2, 6, 2, 0));
        add("appear_s17_L17", params(T::AppearanceSpacings, 1, 1400000, 300000, 0, 17, 17, 0));
        add("appear_s12_L12_Q1", params(T::AppearanceSpacings, 2, 1, 30000, 3, 12, 12, 0));
        // SumCollector: g = 10 and others, r > 0, several replications, few sums.
        add("sum_g10", params(T::SumCollector, 1, 60000, 0, 0, 0, 0, 10.0));
        add("sum_g3_5_N3_r9", params(T::SumCollector, 3, 20000, 0, 9, 0, 0, 3.5));
        add("sum_g1_N2", params(T::SumCollector, 2, 5000, 0, 0, 0, 0, 1.0));
        add("sum_g7_3_n100", params(T::SumCollector, 4, 100, 0, 2, 0, 0, 7.3));
        // Deterministic pseudo-random draws within the valid ranges.
        std::uint64_t x = 0x9E3779B97F4A7C15ull ^ std::hash<std::string>()(g);
        auto draw = [&x](long lo, long hi) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            return lo + static_cast<long>(x % static_cast<std::uint64_t>(hi - lo + 1));
        };
        for (int i = 0; i < 2; ++i) {
            const std::string d = "draw" + std::to_string(i) + "_";
            add(d + "prod",
                params(T::SampleProd, draw(1, 4), draw(1, 4000), 0, static_cast<int>(draw(0, 25)),
                    static_cast<int>(draw(1, 40)), 0, 0));
            add(d + "mean",
                params(T::SampleMean, draw(1, 5000), draw(2, 80), 0, static_cast<int>(draw(0, 25)),
                    0, 0, 0));
            const long n = draw(3, 50000);
            add(d + "corr",
                params(T::SampleCorr, draw(1, 4), n, 0, static_cast<int>(draw(0, 25)),
                    static_cast<int>(draw(1, std::min<long>(n - 1, 20))), 0, 0));
            const int L = static_cast<int>(draw(1, 10));
            int s = static_cast<int>(draw(1, 31));
            if (s > L) s = s / L * L;
            add(d + "appear_s" + std::to_string(s) + "_L" + std::to_string(L),
                params(T::AppearanceSpacings, draw(1, 3), 10 * (1L << L) + draw(0, 5000),
                    draw(1, 30000), static_cast<int>(draw(0, 32 - s)), s, L, 0));
            add(d + "sum",
                params(T::SumCollector, draw(1, 3), draw(1, 20000), 0,
                    static_cast<int>(draw(0, 25)), 0, 0,
                    1.0 + static_cast<double>(draw(0, 900)) / 100.0));
        }
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(
    Forms, FormExact, testing::ValuesIn(forms()), [](const testing::TestParamInfo<Form>& i) {
        return clean(i.param.label + "_" + i.param.generator);
    });

// Every goodness-of-fit test of gofw active (KS, Cramer-von Mises, Watson G and U too), as a
// program may set gofw_ActiveTests: the replications' tests of SampleProd and SampleMean.
TEST(SvariaAllActiveTests, SameRecords)
{
    const bitset_BitSet saved = gofw_ActiveTests;
    gofw_ActiveTests = 0;
    for (int i : { gofw_KSP, gofw_KSM, gofw_KS, gofw_AD, gofw_CM, gofw_WG, gofw_WU })
        gofw_ActiveTests |= bitset_maskUL[i];
    for (const std::string g : { "mt19937", "lcg" }) {
        SCOPED_TRACE(g);
        compare_records(g, params(SvariaTest::SampleProd, 3, 50000, 0, 0, 8, 0, 0), 2);
        compare_records(g, params(SvariaTest::SampleMean, 50000, 30, 0, 0, 0, 0, 0), 2);
        compare_records(g, params(SvariaTest::SampleCorr, 5, 10000, 0, 0, 1, 0, 0), 2);
    }
    gofw_ActiveTests = saved;
}

// Threads 1 to 4 give the same records.
TEST(SvariaThreads, AnyThreadCount)
{
    for (int threads = 1; threads <= 4; ++threads) {
        compare_records(
            "mt19937", params(SvariaTest::SampleMean, 30000, 30, 0, 0, 0, 0, 0), threads);
        compare_records(
            "ranmar48", params(SvariaTest::SumCollector, 2, 30000, 0, 0, 0, 0, 10.0), threads);
        compare_records("mtdc",
            params(SvariaTest::AppearanceSpacings, 1, 327680, 200000, 0, 30, 15, 0), threads);
    }
}

// ---------------------------------------------------------------------------------------------
// The battery rows, against bbattery.c's calls and names (written out here from bbattery.c,
// independently of svaria_more.cpp's table).

struct BatteryRow {
    std::string battery;
    int number;
    SvariaTest test;
    long N, n, K;
    int r, t, L;
    double g;
    int pick;
    std::string name;
};

const std::vector<BatteryRow>& battery_rows()
{
    using T = SvariaTest;
    const long M = 1000000;
    static const std::vector<BatteryRow> rows = {
        { "crush", 45, T::SampleProd, 1, 10 * M, 0, 0, 10, 0, 0, gofw_Mean, "SampleProd, t = 10" },
        { "crush", 46, T::SampleProd, 1, 10 * M, 0, 0, 30, 0, 0, gofw_Mean, "SampleProd, t = 30" },
        { "crush", 47, T::SampleMean, 10 * M, 20, 0, 0, 0, 0, 0, gofw_AD, "SampleMean" },
        { "crush", 48, T::SampleCorr, 1, 500 * M, 0, 0, 1, 0, 0, gofw_Mean, "SampleCorr" },
        { "crush", 49, T::AppearanceSpacings, 1, 10 * M, 400 * M, 0, 30, 15, 0, gofw_Mean,
            "AppearanceSpacings, r = 0" },
        { "crush", 50, T::AppearanceSpacings, 1, 10 * M, 100 * M, 20, 10, 15, 0, gofw_Mean,
            "AppearanceSpacings, r = 20" },
        { "crush", 55, T::SumCollector, 1, 20 * M, 0, 0, 0, 0, 10.0, gofw_Mean, "SumCollector" },
        { "bigcrush", 50, T::SampleProd, 40, 10 * M, 0, 0, 8, 0, 0, gofw_AD, "SampleProd, t = 8" },
        { "bigcrush", 51, T::SampleProd, 20, 10 * M, 0, 0, 16, 0, 0, gofw_AD,
            "SampleProd, t = 16" },
        { "bigcrush", 52, T::SampleProd, 20, 10 * M, 0, 0, 24, 0, 0, gofw_AD,
            "SampleProd, t = 24" },
        { "bigcrush", 53, T::SampleMean, 20 * M, 30, 0, 0, 0, 0, 0, gofw_AD, "SampleMean, r = 0" },
        { "bigcrush", 54, T::SampleMean, 20 * M, 30, 0, 10, 0, 0, 0, gofw_AD,
            "SampleMean, r = 10" },
        { "bigcrush", 55, T::SampleCorr, 1, 2000 * M, 0, 0, 1, 0, 0, gofw_Mean,
            "SampleCorr, k = 1" },
        { "bigcrush", 56, T::SampleCorr, 1, 2000 * M, 0, 0, 2, 0, 0, gofw_Mean,
            "SampleCorr, k = 2" },
        { "bigcrush", 57, T::AppearanceSpacings, 1, 10 * M, 1000 * M, 0, 3, 15, 0, gofw_Mean,
            "AppearanceSpacings, r = 0" },
        { "bigcrush", 58, T::AppearanceSpacings, 1, 10 * M, 1000 * M, 27, 3, 15, 0, gofw_Mean,
            "AppearanceSpacings, r = 27" },
        { "bigcrush", 65, T::SumCollector, 1, 500 * M, 0, 0, 0, 0, 10.0, gofw_Mean,
            "SumCollector" },
    };
    return rows;
}

SvariaRow as_params(const BatteryRow& b)
{
    return { "", 0, b.test, b.N, b.n, b.K, b.r, b.t, b.L, b.g, b.pick, "" };
}

// A row on a smaller scale: at most 2 replications of SampleProd and 20000 products, 20000
// replications of SampleMean, a million numbers of SampleCorr, Q = 10 2^15 (the least without
// TestU01's warning) and K = 200000 blocks of AppearanceSpacings, 50000 sums of SumCollector.
BatteryRow smaller(BatteryRow b)
{
    switch (b.test) {
    case SvariaTest::SampleProd:
        b.N = std::min<long>(b.N, 2);
        b.n = 20000;
        break;
    case SvariaTest::SampleMean:
        b.N = 20000;
        break;
    case SvariaTest::SampleCorr:
        b.n = 1000000;
        break;
    case SvariaTest::AppearanceSpacings:
        b.n = 327680;
        b.K = 200000;
        break;
    case SvariaTest::SumCollector:
        b.n = 50000;
        break;
    }
    return b;
}

// TestU01's function with the row's parameters and the p-value the battery writes.
double testu01_pvalue(unif01_Gen* gen, const BatteryRow& b)
{
    sres_Basic* basic = sres_CreateBasic();
    sres_Chi2* chi2 = sres_CreateChi2();
    run_testu01(gen, as_params(b), basic, chi2);
    const double p
        = b.test == SvariaTest::SumCollector ? chi2->pVal2[b.pick] : basic->pVal2[b.pick];
    sres_DeleteBasic(basic);
    sres_DeleteChi2(chi2);
    return p;
}

// The family's registered row for a battery's test, or nullptr.
const rngvet::native::NativeTest* family_row(const std::string& battery, int number)
{
    static const std::vector<rngvet::native::NativeTest> rows = rngvet::native::svaria_more_tests();
    return rngvet_test::find_row(rows, battery, number);
}

struct RowCase {
    BatteryRow row;
    std::string generator;
};

void PrintTo(const RowCase& c, std::ostream* os)
{
    *os << c.row.battery << c.row.number << "_" << c.generator;
}

class BatteryRowExact : public testing::TestWithParam<RowCase> { };

TEST_P(BatteryRowExact, RowAsBbatteryWritesIt)
{
    const RowCase& c = GetParam();
    const rngvet::native::NativeTest* found = family_row(c.row.battery, c.row.number);
    ASSERT_NE(found, nullptr) << "not registered";

    if (rngvet_test::native_full_size()) {
        HarnessFeed feed1(c.generator), feed2(c.generator);
        const double tu = testu01_pvalue(feed1.gen(), c.row);
        std::vector<rngvet::native::NativeStatistic> nat;
        {
            Numbers in(feed2.feed());
            nat = found->run(in);
        }
        EXPECT_EQ(feed1.consumed(), feed2.consumed());
        ASSERT_EQ(nat.size(), 1u);
        EXPECT_EQ(nat[0].name, c.row.name);
        EXPECT_TRUE(same_bits(tu, nat[0].pvalue)) << c.row.name;
    }

    // The row's table entry on a smaller scale (its parameters are compared with bbattery.c's
    // in SvariaBatteryRows.TablesAreBbatteryCalls).
    const BatteryRow small = smaller(c.row);
    HarnessFeed feed1(c.generator), feed2(c.generator);
    const double tu = testu01_pvalue(feed1.gen(), small);
    std::vector<rngvet::native::NativeStatistic> nat;
    {
        Numbers in(feed2.feed());
        for (SvariaRow r : rngvet::native::svaria_more_rows())
            if (c.row.battery == r.battery && c.row.number == r.number) {
                r.N = small.N;
                r.n = small.n;
                r.K = small.K;
                nat = rngvet::native::svaria_more_statistics(in, r, 2);
            }
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    ASSERT_EQ(nat.size(), 1u);
    EXPECT_EQ(nat[0].name, c.row.name);
    EXPECT_TRUE(same_bits(tu, nat[0].pvalue)) << c.row.name;
}

std::vector<RowCase> row_cases()
{
    std::vector<RowCase> cases;
    for (const BatteryRow& row : battery_rows())
        for (const std::string& g : harness_generators())
            cases.push_back({ row, g });
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Rows, BatteryRowExact, testing::ValuesIn(row_cases()),
    [](const testing::TestParamInfo<RowCase>& i) {
        return clean(
            i.param.row.battery + std::to_string(i.param.row.number) + "_" + i.param.generator);
    });

// The native table holds bbattery.c's parameters, p-value picks and names.
TEST(SvariaBatteryRows, TablesAreBbatteryCalls)
{
    const std::vector<SvariaRow> table = rngvet::native::svaria_more_rows();
    EXPECT_EQ(table.size(), battery_rows().size());
    for (const BatteryRow& row : battery_rows()) {
        const std::string where = row.battery + " " + std::to_string(row.number);
        int found = 0;
        for (const SvariaRow& r : table) {
            if (row.battery != r.battery || row.number != r.number) continue;
            ++found;
            EXPECT_TRUE(r.test == row.test) << where;
            EXPECT_EQ(r.N, row.N) << where;
            EXPECT_EQ(r.n, row.n) << where;
            EXPECT_EQ(r.r, row.r) << where;
            EXPECT_EQ(r.pick, row.pick) << where;
            EXPECT_EQ(std::string(r.name), row.name) << where;
            if (row.test != SvariaTest::SampleMean && row.test != SvariaTest::SumCollector) {
                EXPECT_EQ(r.t, row.t) << where;
            }
            if (row.test == SvariaTest::AppearanceSpacings) {
                EXPECT_EQ(r.K, row.K) << where;
                EXPECT_EQ(r.L, row.L) << where;
            }
            if (row.test == SvariaTest::SumCollector) {
                EXPECT_TRUE(same_bits(r.g, row.g)) << where;
            }
        }
        EXPECT_EQ(found, 1) << where;
    }
}

TEST(SvariaBatteryRows, EveryRegisteredRowIsABbatteryRow)
{
    const auto tests = rngvet::native::svaria_more_tests();
    EXPECT_EQ(tests.size(), battery_rows().size());
    for (const rngvet::native::NativeTest& t : tests) {
        int known = 0;
        for (const BatteryRow& row : battery_rows())
            known += row.battery == t.battery && row.number == t.number;
        EXPECT_EQ(known, 1) << t.battery << " " << t.number;
    }
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Timing (run with --gtest_also_run_disabled_tests): each row with its number of numbers cut
// by `cut`, TestU01's function, then the native one on 1 and 2 threads. Nothing is asserted
// about the times.
TEST(SvariaTiming, DISABLED_RowsTenfoldSmaller)
{
    for (const BatteryRow& full : battery_rows()) {
        BatteryRow row = full;
        const long cut = full.battery == "bigcrush" ? 40 : 10;
        if (row.test == SvariaTest::SampleMean)
            row.N /= cut;
        else if (row.test == SvariaTest::SampleProd)
            row.N = std::max<long>(1, row.N / cut);
        else if (row.test == SvariaTest::AppearanceSpacings)
            row.K /= cut;
        else
            row.n /= cut;
        HarnessFeed feed("mt19937");
        auto t0 = std::chrono::steady_clock::now();
        const double tu = testu01_pvalue(feed.gen(), row);
        const double t_tu = seconds_since(t0);
        double t_nat[2];
        for (int threads : { 1, 2 }) {
            HarnessFeed f("mt19937");
            sres_Basic* basic = sres_CreateBasic();
            sres_Chi2* chi2 = sres_CreateChi2();
            t0 = std::chrono::steady_clock::now();
            {
                Numbers in(f.feed());
                run_native(in, as_params(row), basic, chi2, threads);
            }
            t_nat[threads - 1] = seconds_since(t0);
            const double p = row.test == SvariaTest::SumCollector ? chi2->pVal2[row.pick]
                                                                  : basic->pVal2[row.pick];
            EXPECT_TRUE(same_bits(tu, p)) << row.name;
            EXPECT_EQ(f.consumed(), feed.consumed());
            sres_DeleteBasic(basic);
            sres_DeleteChi2(chi2);
        }
        std::printf("%s %d (%s, 1/%ld of its numbers, %llu words): TestU01 %.3f s, native 1 "
                    "thread %.3f s, 2 threads %.3f s\n",
            row.battery.c_str(), row.number, row.name.c_str(), cut,
            static_cast<unsigned long long>(feed.consumed()), t_tu, t_nat[0], t_nat[1]);
    }
}

} // namespace

namespace {
// Profiling aid: one row's native form alone, at a tenth of its numbers.
TEST(SvariaTiming, DISABLED_NativeAlone)
{
    const char* which = std::getenv("SVARIA_ROW");
    for (const BatteryRow& full : battery_rows()) {
        if (which == nullptr || std::to_string(full.number) + full.battery != which) continue;
        BatteryRow row = full;
        HarnessFeed f("mt19937");
        sres_Basic* basic = sres_CreateBasic();
        sres_Chi2* chi2 = sres_CreateChi2();
        const auto t0 = std::chrono::steady_clock::now();
        {
            Numbers in(f.feed());
            run_native(in, as_params(row), basic, chi2, 2);
        }
        std::printf("%.3f s\n", seconds_since(t0));
        sres_DeleteBasic(basic);
        sres_DeleteChi2(chi2);
    }
}
} // namespace
