// Exactness of the native tests of this family against TestU01's own function (native_support.hpp):
// sknuth_MaxOft and svaria_WeightDistrib, every field of their result records, and the battery
// rows of SmallCrush, Crush and BigCrush that use them.
//
// SmallCrush's rows run at full size. RNGVET_NATIVE_FULL=1 runs every Crush and BigCrush row at
// its full size too (BigCrush's take many minutes each); otherwise their table entries run with
// n = 20000 (MaxOft: d = 1000 and at most 3 replications) and their parameters are compared
// with bbattery.c's.
//
// The timing of the SmallCrush rows (TestU01, native on 1 and 2 threads, reading alone):
//   ./tests/test_native_max_oft --gtest_filter='DISABLED_Timing*' --gtest_also_run_disabled_tests
#include "batteries/native/families.hpp"
#include "batteries/native/max_oft.hpp"
#include "native_support.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

extern "C" {
#include <testu01/bitset.h>
#include <testu01/gofw.h>
#include <testu01/sknuth.h>
#include <testu01/sres.h>
#include <testu01/statcoll.h>
#include <testu01/svaria.h>
}

namespace {

using rngvet_test::clean;
using rngvet_test::expect_same_statistics;
using rngvet_test::GridStream;
using rngvet_test::harness_generators;
using rngvet_test::same_bits;
using rngvet_test::WideStream;

std::unique_ptr<rngvet::Stream> make_stream(const std::string& generator)
{
    if (generator == "wide60") return std::make_unique<WideStream>();
    if (generator.rfind("grid", 0) == 0)
        return std::make_unique<GridStream>(std::stoi(generator.substr(4)));
    return rngvet_test::harness_stream(generator);
}

// A harness generator's stream (native_support.hpp), a grid ("grid32", "grid48") or "wide60"
// with a feed on it.
class Feed {
public:
    explicit Feed(const std::string& generator)
        : stream_(make_stream(generator))
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
using HarnessFeed = Feed;

// The harness's generators, the grids and the wide words.
std::vector<std::string> form_generators()
{
    std::vector<std::string> g = harness_generators();
    g.push_back("grid32");
    g.push_back("grid48");
    g.push_back("wide60");
    return g;
}

// 1, 2 or 3 threads for the native side, fixed per case.
int case_threads(const std::string& label, const std::string& generator)
{
    return 1 + static_cast<int>(std::hash<std::string>()(label + "/" + generator) % 3);
}

// Every field a p-value or a statistic lives in.
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

void expect_same_chi2(const sres_Chi2* a, const sres_Chi2* b, const std::string& what)
{
    EXPECT_EQ(a->degFree, b->degFree) << what;
    EXPECT_EQ(a->jmin, b->jmin) << what;
    EXPECT_EQ(a->jmax, b->jmax) << what;
    if (a->degFree >= 1) {
        for (long j = a->jmin; j <= a->jmax; ++j) {
            EXPECT_EQ(a->Count[j], b->Count[j]) << what << " Count[" << j << "]";
            EXPECT_TRUE(same_bits(a->NbExp[j], b->NbExp[j])) << what << " NbExp[" << j << "]";
        }
    }
    expect_same_collector(a->sVal1, b->sVal1, what + " sVal1");
    expect_same_collector(a->pVal1, b->pVal1, what + " pVal1");
    expect_same_arrays(a->sVal2, b->sVal2, what + " sVal2");
    expect_same_arrays(a->pVal2, b->pVal2, what + " pVal2");
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// ---------------------------------------------------------------------------------------------
// sknuth_MaxOft

struct MaxOftCase {
    std::string label;
    std::string generator;
    long N, n;
    int r, d, t;
};

void PrintTo(const MaxOftCase& c, std::ostream* os)
{
    *os << c.label << "_" << c.generator;
}

class MaxOftExact : public testing::TestWithParam<MaxOftCase> { };

TEST_P(MaxOftExact, SameRecordsAndCount)
{
    const MaxOftCase& c = GetParam();
    HarnessFeed feed1(c.generator), feed2(c.generator);
    sknuth_Res1* tu = sknuth_CreateRes1();
    sknuth_Res1* nat = sknuth_CreateRes1();
    sknuth_MaxOft(feed1.gen(), tu, c.N, c.n, c.r, c.d, c.t);
    {
        rngvet::native::Numbers in(feed2.feed());
        const int threads = case_threads(c.label, c.generator);
        SCOPED_TRACE("threads " + std::to_string(threads));
        rngvet::native::max_oft(in, nat, c.N, c.n, c.r, c.d, c.t, threads);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    EXPECT_EQ(feed1.consumed(), static_cast<std::uint64_t>(c.N * c.n * c.t));
    expect_same_chi2(tu->Chi, nat->Chi, "Chi");
    expect_same_collector(tu->Bas->sVal1, nat->Bas->sVal1, "Bas sVal1");
    expect_same_collector(tu->Bas->pVal1, nat->Bas->pVal1, "Bas pVal1");
    expect_same_arrays(tu->Bas->sVal2, nat->Bas->sVal2, "Bas sVal2");
    expect_same_arrays(tu->Bas->pVal2, nat->Bas->pVal2, "Bas pVal2");
    sknuth_DeleteRes1(tu);
    sknuth_DeleteRes1(nat);
}

std::vector<MaxOftCase> max_oft_cases()
{
    std::vector<MaxOftCase> cases;
    for (const std::string& g : form_generators()) {
        // SmallCrush's form (N = 1, t = 6) with n and d smaller by 20 (its full size runs
        // in the battery rows below), several r.
        for (int r : { 0, 5, 17 })
            cases.push_back({ "smallcrush_n100k_r" + std::to_string(r), g, 1, 100000, r, 5000, 6 });
        // Crush's and BigCrush's forms: N > 1 (Sum and AD of the replications) and N = 1 with
        // their t, n and d smaller by 500 and 100.
        cases.push_back({ "crush_t5", g, 10, 20000, 0, 1000, 5 });
        cases.push_back({ "crush_t30", g, 1, 20000, 0, 1000, 30 });
        cases.push_back({ "bigcrush_t8_r1", g, 4, 20000, 1, 1000, 8 });
        cases.push_back({ "bigcrush_t32_r3", g, 3, 20000, 3, 1000, 32 });
        // The least n (two classes, 10 expected in each).
        cases.push_back({ "d2_n20_t1", g, 2, 20, 0, 2, 1 });
        // Deterministic pseudo-random draws within the valid ranges.
        std::uint64_t x = 0x9E3779B97F4A7C15ull ^ std::hash<std::string>()(g);
        auto draw = [&x](long lo, long hi) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            return lo + static_cast<long>(x % static_cast<std::uint64_t>(hi - lo + 1));
        };
        for (int i = 0; i < 3; ++i) {
            const long N = draw(1, 5);
            const int d = static_cast<int>(draw(2, 400));
            const long n = d * 10 + draw(0, 20000);
            const int r = static_cast<int>(draw(0, 24));
            const int t = static_cast<int>(draw(1, 40));
            cases.push_back({ "draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                    + std::to_string(n) + "_r" + std::to_string(r) + "_d" + std::to_string(d) + "_t"
                    + std::to_string(t),
                g, N, n, r, d, t });
        }
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Forms, MaxOftExact, testing::ValuesIn(max_oft_cases()),
    [](const testing::TestParamInfo<MaxOftCase>& i) {
        return clean(i.param.label + "_" + i.param.generator);
    });

// Every goodness-of-fit test of gofw active (KS, Cramer-von Mises, Watson G and U too), as a
// program may set gofw_ActiveTests.
TEST(MaxOftAllActiveTests, SameRecords)
{
    const bitset_BitSet saved = gofw_ActiveTests;
    gofw_ActiveTests = 0;
    for (int i : { gofw_KSP, gofw_KSM, gofw_KS, gofw_AD, gofw_CM, gofw_WG, gofw_WU })
        gofw_ActiveTests |= bitset_maskUL[i];
    for (const std::string g : { "mt19937", "lcg" }) {
        SCOPED_TRACE(g);
        HarnessFeed feed1(g), feed2(g);
        sknuth_Res1* tu = sknuth_CreateRes1();
        sknuth_Res1* nat = sknuth_CreateRes1();
        sknuth_MaxOft(feed1.gen(), tu, 3, 20000, 0, 1000, 8);
        {
            rngvet::native::Numbers in(feed2.feed());
            rngvet::native::max_oft(in, nat, 3, 20000, 0, 1000, 8, 2);
        }
        EXPECT_EQ(feed1.consumed(), feed2.consumed());
        expect_same_chi2(tu->Chi, nat->Chi, "Chi");
        expect_same_collector(tu->Bas->sVal1, nat->Bas->sVal1, "Bas sVal1");
        expect_same_arrays(tu->Bas->sVal2, nat->Bas->sVal2, "Bas sVal2");
        expect_same_arrays(tu->Bas->pVal2, nat->Bas->pVal2, "Bas pVal2");
        sknuth_DeleteRes1(tu);
        sknuth_DeleteRes1(nat);
    }
    gofw_ActiveTests = saved;
}

// ---------------------------------------------------------------------------------------------
// svaria_WeightDistrib

struct WeightCase {
    std::string label;
    std::string generator;
    long N, n;
    int r;
    long k;
    double alpha, beta;
};

void PrintTo(const WeightCase& c, std::ostream* os)
{
    *os << c.label << "_" << c.generator;
}

class WeightDistribExact : public testing::TestWithParam<WeightCase> { };

TEST_P(WeightDistribExact, SameRecordAndCount)
{
    const WeightCase& c = GetParam();
    HarnessFeed feed1(c.generator), feed2(c.generator);
    sres_Chi2* tu = sres_CreateChi2();
    sres_Chi2* nat = sres_CreateChi2();
    svaria_WeightDistrib(feed1.gen(), tu, c.N, c.n, c.r, c.k, c.alpha, c.beta);
    {
        rngvet::native::Numbers in(feed2.feed());
        const int threads = case_threads(c.label, c.generator);
        SCOPED_TRACE("threads " + std::to_string(threads));
        rngvet::native::weight_distrib(in, nat, c.N, c.n, c.r, c.k, c.alpha, c.beta, threads);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    expect_same_chi2(tu, nat, "WeightDistrib");
    sres_DeleteChi2(tu);
    sres_DeleteChi2(nat);
}

std::vector<WeightCase> weight_cases()
{
    std::vector<WeightCase> cases;
    for (const std::string& g : form_generators()) {
        // SmallCrush's, Crush's and BigCrush's forms (k = 256, [0, beta)), n = 20000.
        cases.push_back({ "smallcrush_r27", g, 1, 20000, 27, 256, 0.0, 0.125 });
        for (int r : { 0, 8, 16, 24 })
            cases.push_back({ "crush_r" + std::to_string(r), g, 1, 20000, r, 256, 0.0, 0.125 });
        for (int r : { 0, 20, 28 })
            cases.push_back(
                { "bigcrush_quarter_r" + std::to_string(r), g, 1, 20000, r, 256, 0.0, 0.25 });
        for (int r : { 0, 10, 26 })
            cases.push_back(
                { "bigcrush_sixteenth_r" + std::to_string(r), g, 1, 20000, r, 256, 0.0, 0.0625 });
        // Replications, an interval inside (0, 1), the classes merging into one (nothing is
        // read), and one class too few after merging.
        cases.push_back({ "N3_mid", g, 3, 5000, 4, 64, 0.3, 0.55 });
        cases.push_back({ "merged_to_one", g, 2, 1000, 0, 2, 0.0, 0.001 });
        cases.push_back({ "whole_interval", g, 1, 1000, 0, 8, 0.0, 1.0 });
        // Deterministic pseudo-random draws within the valid ranges.
        std::uint64_t x = 0xD1B54A32D192ED03ull ^ std::hash<std::string>()(g);
        auto draw = [&x](long lo, long hi) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            return lo + static_cast<long>(x % static_cast<std::uint64_t>(hi - lo + 1));
        };
        for (int i = 0; i < 3; ++i) {
            const long N = draw(1, 4);
            const long n = draw(100, 8000);
            const int r = static_cast<int>(draw(0, 30));
            const long k = draw(1, 300);
            double a = static_cast<double>(draw(0, 1000)) / 1000.0;
            double b = static_cast<double>(draw(0, 1000)) / 1000.0;
            if (a > b) std::swap(a, b);
            cases.push_back({ "draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                    + std::to_string(n) + "_r" + std::to_string(r) + "_k" + std::to_string(k),
                g, N, n, r, k, a, b });
        }
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Forms, WeightDistribExact, testing::ValuesIn(weight_cases()),
    [](const testing::TestParamInfo<WeightCase>& i) {
        return clean(i.param.label + "_" + i.param.generator);
    });

// ---------------------------------------------------------------------------------------------
// The battery rows, against bbattery.c's calls and names (written out here from bbattery.c,
// independently of max_oft.cpp's table).

struct BatteryRow {
    std::string battery;
    int number;
    bool max_oft; // else WeightDistrib
    long N, n;
    int r;
    long d_or_k; // MaxOft's d, WeightDistrib's k
    int t; // MaxOft
    double beta; // WeightDistrib (alpha = 0)
    int chi_pick, ad_pick; // MaxOft's picks
    std::vector<std::string> names;
};

const std::vector<BatteryRow>& battery_rows()
{
    static const std::vector<BatteryRow> rows = {
        { "smallcrush", 6, true, 1, 2000000, 0, 100000, 6, 0, gofw_Mean, gofw_Mean,
            { "MaxOft", "MaxOft AD" } },
        { "smallcrush", 7, false, 1, 200000, 27, 256, 0, 0.125, 0, 0, { "WeightDistrib" } },
        { "crush", 41, true, 10, 10000000, 0, 100000, 5, 0, gofw_Sum, gofw_AD,
            { "MaxOft, t = 5", "MaxOft AD, t = 5" } },
        { "crush", 42, true, 5, 10000000, 0, 100000, 10, 0, gofw_Sum, gofw_AD,
            { "MaxOft, t = 10", "MaxOft AD, t = 10" } },
        { "crush", 43, true, 1, 10000000, 0, 100000, 20, 0, gofw_Mean, gofw_Mean,
            { "MaxOft, t = 20", "MaxOft AD, t = 20" } },
        { "crush", 44, true, 1, 10000000, 0, 100000, 30, 0, gofw_Mean, gofw_Mean,
            { "MaxOft, t = 30", "MaxOft AD, t = 30" } },
        { "crush", 51, false, 1, 2000000, 0, 256, 0, 0.125, 0, 0, { "WeightDistrib, r = 0" } },
        { "crush", 52, false, 1, 2000000, 8, 256, 0, 0.125, 0, 0, { "WeightDistrib, r = 8" } },
        { "crush", 53, false, 1, 2000000, 16, 256, 0, 0.125, 0, 0, { "WeightDistrib, r = 16" } },
        { "crush", 54, false, 1, 2000000, 24, 256, 0, 0.125, 0, 0, { "WeightDistrib, r = 24" } },
        { "bigcrush", 46, true, 40, 10000000, 0, 100000, 8, 0, gofw_Sum, gofw_AD,
            { "MaxOft, t = 8", "MaxOft AD, t = 8" } },
        { "bigcrush", 47, true, 30, 10000000, 0, 100000, 16, 0, gofw_Sum, gofw_AD,
            { "MaxOft, t = 16", "MaxOft AD, t = 16" } },
        { "bigcrush", 48, true, 20, 10000000, 0, 100000, 24, 0, gofw_Sum, gofw_AD,
            { "MaxOft, t = 24", "MaxOft AD, t = 24" } },
        { "bigcrush", 49, true, 20, 10000000, 0, 100000, 32, 0, gofw_Sum, gofw_AD,
            { "MaxOft, t = 32", "MaxOft AD, t = 32" } },
        { "bigcrush", 59, false, 1, 20000000, 0, 256, 0, 0.25, 0, 0, { "WeightDistrib, r = 0" } },
        { "bigcrush", 60, false, 1, 20000000, 20, 256, 0, 0.25, 0, 0, { "WeightDistrib, r = 20" } },
        { "bigcrush", 61, false, 1, 20000000, 28, 256, 0, 0.25, 0, 0, { "WeightDistrib, r = 28" } },
        { "bigcrush", 62, false, 1, 20000000, 0, 256, 0, 0.0625, 0, 0, { "WeightDistrib, r = 0" } },
        { "bigcrush", 63, false, 1, 20000000, 10, 256, 0, 0.0625, 0, 0,
            { "WeightDistrib, r = 10" } },
        { "bigcrush", 64, false, 1, 20000000, 26, 256, 0, 0.0625, 0, 0,
            { "WeightDistrib, r = 26" } },
    };
    return rows;
}

// TestU01's function with the row's parameters (n groups) and the battery's p-values.
std::vector<rngvet::native::NativeStatistic> testu01_row(
    unif01_Gen* gen, const BatteryRow& row, long n)
{
    std::vector<rngvet::native::NativeStatistic> out;
    if (row.max_oft) {
        sknuth_Res1* res = sknuth_CreateRes1();
        sknuth_MaxOft(gen, res, row.N, n, row.r, static_cast<int>(row.d_or_k), row.t);
        out.push_back({ row.names[0], res->Chi->pVal2[row.chi_pick] });
        out.push_back({ row.names[1], res->Bas->pVal2[row.ad_pick] });
        sknuth_DeleteRes1(res);
    } else {
        sres_Chi2* res = sres_CreateChi2();
        svaria_WeightDistrib(gen, res, row.N, n, row.r, row.d_or_k, 0.0, row.beta);
        out.push_back({ row.names[0], res->pVal2[gofw_Mean] });
        sres_DeleteChi2(res);
    }
    return out;
}

struct RowCase {
    BatteryRow row;
    std::string generator;
};

void PrintTo(const RowCase& c, std::ostream* os)
{
    *os << c.row.battery << c.row.number << "_" << c.generator;
}

// The family's registered row for a battery's test, or nullptr.
const rngvet::native::NativeTest* family_row(const std::string& battery, int number)
{
    static const std::vector<rngvet::native::NativeTest> rows = rngvet::native::max_oft_tests();
    return rngvet_test::find_row(rows, battery, number);
}

class BatteryRowExact : public testing::TestWithParam<RowCase> { };

TEST_P(BatteryRowExact, RowAsBbatteryWritesIt)
{
    const RowCase& c = GetParam();
    const rngvet::native::NativeTest* found = family_row(c.row.battery, c.row.number);
    ASSERT_NE(found, nullptr) << "not registered";

    // The full row: SmallCrush's always, the others with RNGVET_NATIVE_FULL=1.
    if (c.row.battery == "smallcrush" || rngvet_test::native_full_size()) {
        HarnessFeed feed1(c.generator), feed2(c.generator);
        const auto tu = testu01_row(feed1.gen(), c.row, c.row.n);
        std::vector<rngvet::native::NativeStatistic> nat;
        {
            rngvet::native::Numbers in(feed2.feed());
            nat = found->run(in);
        }
        EXPECT_EQ(feed1.consumed(), feed2.consumed());
        expect_same_statistics(tu, nat);
        if (c.row.battery == "smallcrush") return;
    }

    // The row's table entry on a smaller scale: MaxOft with n = 20000, d = 1000 and at most 3
    // replications, WeightDistrib with n = 20000 (the parameters themselves are compared with
    // bbattery.c's in BatteryRows.TablesAreBbatteryCalls).
    BatteryRow small = c.row;
    small.n = 20000;
    if (small.max_oft) {
        small.N = std::min<long>(small.N, 3);
        small.d_or_k = 1000;
    }
    HarnessFeed feed1(c.generator), feed2(c.generator);
    const auto tu = testu01_row(feed1.gen(), small, small.n);
    std::vector<rngvet::native::NativeStatistic> nat;
    {
        rngvet::native::Numbers in(feed2.feed());
        if (c.row.max_oft) {
            for (auto r : rngvet::native::max_oft_rows())
                if (c.row.battery == r.battery && c.row.number == r.number) {
                    r.N = small.N;
                    r.d = static_cast<int>(small.d_or_k);
                    nat = rngvet::native::max_oft_statistics(in, r, small.n, 2);
                }
        } else {
            for (const auto& r : rngvet::native::weight_distrib_rows())
                if (c.row.battery == r.battery && c.row.number == r.number)
                    nat = rngvet::native::weight_distrib_statistics(in, r, small.n, 2);
        }
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    expect_same_statistics(tu, nat);
}

std::vector<RowCase> row_cases()
{
    std::vector<RowCase> cases;
    for (const BatteryRow& row : battery_rows()) {
        for (const std::string& g : harness_generators())
            cases.push_back({ row, g });
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Rows, BatteryRowExact, testing::ValuesIn(row_cases()),
    [](const testing::TestParamInfo<RowCase>& i) {
        return clean(
            i.param.row.battery + std::to_string(i.param.row.number) + "_" + i.param.generator);
    });

// The native tables hold bbattery.c's parameters, p-value picks and names.
TEST(BatteryRows, TablesAreBbatteryCalls)
{
    std::size_t max_oft = 0, weight = 0;
    for (const BatteryRow& row : battery_rows()) {
        const std::string where = row.battery + " " + std::to_string(row.number);
        int found = 0;
        if (row.max_oft) {
            ++max_oft;
            for (const auto& r : rngvet::native::max_oft_rows()) {
                if (row.battery != r.battery || row.number != r.number) continue;
                ++found;
                EXPECT_EQ(r.N, row.N) << where;
                EXPECT_EQ(r.n, row.n) << where;
                EXPECT_EQ(r.r, row.r) << where;
                EXPECT_EQ(r.d, row.d_or_k) << where;
                EXPECT_EQ(r.t, row.t) << where;
                EXPECT_EQ(r.chi_pick, row.chi_pick) << where;
                EXPECT_EQ(r.ad_pick, row.ad_pick) << where;
                EXPECT_EQ(std::string("MaxOft") + r.suffix, row.names[0]) << where;
                EXPECT_EQ(std::string("MaxOft AD") + r.suffix, row.names[1]) << where;
            }
        } else {
            ++weight;
            for (const auto& r : rngvet::native::weight_distrib_rows()) {
                if (row.battery != r.battery || row.number != r.number) continue;
                ++found;
                EXPECT_EQ(r.N, row.N) << where;
                EXPECT_EQ(r.n, row.n) << where;
                EXPECT_EQ(r.r, row.r) << where;
                EXPECT_EQ(r.k, row.d_or_k) << where;
                EXPECT_TRUE(same_bits(r.alpha, 0.0)) << where;
                EXPECT_TRUE(same_bits(r.beta, row.beta)) << where;
                EXPECT_EQ(std::string(r.name), row.names[0]) << where;
            }
        }
        EXPECT_EQ(found, 1) << where;
    }
    EXPECT_EQ(rngvet::native::max_oft_rows().size(), max_oft);
    EXPECT_EQ(rngvet::native::weight_distrib_rows().size(), weight);
}

TEST(BatteryRows, EveryRegisteredRowIsABbatteryRow)
{
    const auto tests = rngvet::native::max_oft_tests();
    EXPECT_EQ(tests.size(), battery_rows().size());
    for (const rngvet::native::NativeTest& t : tests) {
        int known = 0;
        for (const BatteryRow& row : battery_rows())
            known += row.battery == t.battery && row.number == t.number;
        EXPECT_EQ(known, 1) << t.battery << " " << t.number;
    }
}

// Timing on SmallCrush's parameters (run with --gtest_also_run_disabled_tests): TestU01's
// function, then the native one on 1 and 2 threads. Nothing is asserted about the times.
TEST(DISABLED_Timing, SmallCrushParameters)
{
    for (const std::string g : { "mt19937", "ranmar48" }) {
        for (const BatteryRow& row : battery_rows()) {
            if (row.battery != "smallcrush") continue;
            HarnessFeed feed(g);
            auto t0 = std::chrono::steady_clock::now();
            const auto tu = testu01_row(feed.gen(), row, row.n);
            const double t_tu = seconds_since(t0);
            double t_nat[2];
            for (int threads : { 1, 2 }) {
                rngvet::native::set_threads(threads);
                HarnessFeed f(g);
                rngvet::native::Numbers in(f.feed());
                t0 = std::chrono::steady_clock::now();
                const auto nat = family_row(row.battery, row.number)->run(in);
                t_nat[threads - 1] = seconds_since(t0);
                expect_same_statistics(tu, nat);
            }
            // The floor: reading as many words from a fresh stream, nothing computed.
            double t_read;
            {
                HarnessFeed f(g);
                rngvet::native::Numbers in(f.feed());
                std::vector<std::uint64_t> buffer(std::size_t(1) << 21);
                std::uint64_t left = feed.consumed(), sum = 0;
                t0 = std::chrono::steady_clock::now();
                while (left > 0) {
                    const std::size_t k
                        = static_cast<std::size_t>(std::min<std::uint64_t>(left, buffer.size()));
                    in.read(buffer.data(), k);
                    sum += buffer[k - 1];
                    left -= k;
                }
                t_read = seconds_since(t0);
                EXPECT_NE(sum, 1u); // keeps the reads
            }
            std::printf("%s %s test %d: TestU01 %.3f s, native 1 thread %.3f s, 2 threads %.3f s "
                        "(reading its %llu words alone %.3f s)\n",
                g.c_str(), row.battery.c_str(), row.number, t_tu, t_nat[0], t_nat[1],
                static_cast<unsigned long long>(feed.consumed()), t_read);
        }
    }
    rngvet::native::set_threads(2);
}

} // namespace
