// Exactness of the native tests of this family against TestU01's own functions
// (native_support.hpp): smarsa_SerialOver, smarsa_Savir2 and smarsa_GCD, every field of their
// result records, and the battery rows of Crush and BigCrush that use them.
//
// RNGVET_NATIVE_FULL=1 runs every row at its full size too (minutes each in TestU01); otherwise
// the rows run with a smaller n (and at most 3 replications) and their parameters are compared
// with bbattery.c's.
//
// The timing of one row at its full size on mt19937 (TestU01, native on 1 and 2 threads, reading
// alone; RNGVET_TIMING_NATIVE_ONLY=1 for the native side alone):
//   ./tests/test_native_smarsa_more --gtest_also_run_disabled_tests
//       --gtest_filter='DISABLED_Timing/RowTiming.FullSize/crush63'
#include "batteries/native/families.hpp"
#include "batteries/native/smarsa_more.hpp"
#include "native_support.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
#include <testu01/gofw.h>
#include <testu01/smarsa.h>
#include <testu01/sres.h>
#include <testu01/statcoll.h>
}

namespace {

using rngvet_test::clean;
using rngvet_test::expect_same_statistics;
using rngvet_test::harness_generators;
using rngvet_test::same_bits;
using rngvet_test::WideStream;

// A harness generator's stream or "wide60", with a feed on it.
class Feed {
public:
    explicit Feed(const std::string& generator)
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

std::vector<std::string> form_generators()
{
    std::vector<std::string> g = harness_generators();
    g.push_back("wide60");
    return g;
}

// 1, 2 or 3 threads for the native side, fixed per case.
int case_threads(const std::string& label, const std::string& generator)
{
    return 1 + static_cast<int>(std::hash<std::string>()(label + "/" + generator) % 3);
}

// Deterministic pseudo-random draws in [lo, hi].
struct Draw {
    std::uint64_t x;
    long operator()(long lo, long hi)
    {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        return lo + static_cast<long>(x % static_cast<std::uint64_t>(hi - lo + 1));
    }
};

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
            EXPECT_EQ(a->Loc[j], b->Loc[j]) << what << " Loc[" << j << "]";
            EXPECT_TRUE(same_bits(a->NbExp[j], b->NbExp[j])) << what << " NbExp[" << j << "]";
        }
    }
    expect_same_collector(a->sVal1, b->sVal1, what + " sVal1");
    expect_same_collector(a->pVal1, b->pVal1, what + " pVal1");
    expect_same_arrays(a->sVal2, b->sVal2, what + " sVal2");
    expect_same_arrays(a->pVal2, b->pVal2, what + " pVal2");
}

// ---------------------------------------------------------------------------------------------
// smarsa_SerialOver

struct SerialCase {
    std::string label;
    std::string generator;
    long N, n;
    int r;
    long d;
    int t;
};

void PrintTo(const SerialCase& c, std::ostream* os)
{
    *os << c.label << "_" << c.generator;
}

class SerialOverExact : public testing::TestWithParam<SerialCase> { };

TEST_P(SerialOverExact, SameRecordAndCount)
{
    const SerialCase& c = GetParam();
    Feed feed1(c.generator), feed2(c.generator);
    sres_Basic* tu = sres_CreateBasic();
    sres_Basic* nat = sres_CreateBasic();
    smarsa_SerialOver(feed1.gen(), tu, c.N, c.n, c.r, c.d, c.t);
    {
        rngvet::native::Numbers in(feed2.feed());
        const int threads = case_threads(c.label, c.generator);
        SCOPED_TRACE("threads " + std::to_string(threads));
        rngvet::native::serial_over(in, nat, c.N, c.n, c.r, c.d, c.t, threads);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    EXPECT_EQ(feed1.consumed(), static_cast<std::uint64_t>(c.N * c.n));
    expect_same_collector(tu->sVal1, nat->sVal1, "sVal1");
    expect_same_collector(tu->pVal1, nat->pVal1, "pVal1");
    expect_same_arrays(tu->sVal2, nat->sVal2, "sVal2");
    expect_same_arrays(tu->pVal2, nat->pVal2, "pVal2");
    sres_DeleteBasic(tu);
    sres_DeleteBasic(nat);
}

std::vector<SerialCase> serial_cases()
{
    std::vector<SerialCase> cases;
    for (const std::string& g : form_generators()) {
        // The rows' forms (t = 2, 3, 4; r = 0 and 22) with fewer cells and numbers; the rows
        // themselves (2^24 cells) run below.
        cases.push_back({ "t2_d512", g, 1, 300000, 0, 512, 2 });
        cases.push_back({ "t4_d16_N2", g, 2, 80000, 0, 16, 4 });
        cases.push_back({ "t3_d32_r22", g, 1, 200000, 22, 32, 3 });
        // Several r, d not a power of 2, without CalcTabFj's table (6 n / k > k), N > 1.
        for (int r : { 5, 17 })
            cases.push_back({ "t3_d64_N2_r" + std::to_string(r), g, 2, 150000, r, 64, 3 });
        cases.push_back({ "t3_d10_r3", g, 1, 50000, 3, 10, 3 });
        cases.push_back({ "no_table_t2_d4_N4", g, 4, 1000, 1, 4, 2 });
        cases.push_back({ "least_n_t5_d2", g, 1, 5, 0, 2, 5 });
        // More numbers than one block of the native reader (2^22): tuples across blocks.
        if (g == "ranmar24") cases.push_back({ "blocks_t4_d8", g, 1, 4500000, 2, 8, 4 });
        Draw draw{ 0x9E3779B97F4A7C15ull ^ std::hash<std::string>()(g) };
        for (int i = 0; i < 3; ++i) {
            const long N = draw(1, 4);
            const int t = static_cast<int>(draw(2, 5));
            const long d = draw(2, t == 2 ? 700 : t == 3 ? 60 : 12);
            long k = 1;
            for (int j = 0; j < t; ++j)
                k *= d;
            const long n = std::max<long>(t + 5, k - k / d + draw(0, 60000));
            const int r = static_cast<int>(draw(0, 25));
            cases.push_back({ "draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                    + std::to_string(n) + "_r" + std::to_string(r) + "_d" + std::to_string(d) + "_t"
                    + std::to_string(t),
                g, N, n, r, d, t });
        }
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Forms, SerialOverExact, testing::ValuesIn(serial_cases()),
    [](const testing::TestParamInfo<SerialCase>& i) {
        return clean(i.param.label + "_" + i.param.generator);
    });

// The sparse (hashing) case is refused before anything is read.
TEST(SerialOverRefused, HashingCaseReadsNothing)
{
    Feed feed("mt19937");
    sres_Basic* res = sres_CreateBasic();
    {
        rngvet::native::Numbers in(feed.feed());
        EXPECT_THROW(
            rngvet::native::serial_over(in, res, 1, 100000, 0, 2048, 2, 2), std::invalid_argument);
    }
    EXPECT_EQ(feed.consumed(), 0u);
    sres_DeleteBasic(res);
}

// ---------------------------------------------------------------------------------------------
// smarsa_Savir2

struct Savir2Case {
    std::string label;
    std::string generator;
    long N, n;
    int r;
    long m;
    int t;
};

void PrintTo(const Savir2Case& c, std::ostream* os)
{
    *os << c.label << "_" << c.generator;
}

class Savir2Exact : public testing::TestWithParam<Savir2Case> { };

TEST_P(Savir2Exact, SameRecordAndCount)
{
    const Savir2Case& c = GetParam();
    Feed feed1(c.generator), feed2(c.generator);
    sres_Chi2* tu = sres_CreateChi2();
    sres_Chi2* nat = sres_CreateChi2();
    smarsa_Savir2(feed1.gen(), tu, c.N, c.n, c.r, c.m, c.t);
    {
        rngvet::native::Numbers in(feed2.feed());
        const int threads = case_threads(c.label, c.generator);
        SCOPED_TRACE("threads " + std::to_string(threads));
        rngvet::native::savir2(in, nat, c.N, c.n, c.r, c.m, c.t, threads);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    expect_same_chi2(tu, nat, "Savir2");
    sres_DeleteChi2(tu);
    sres_DeleteChi2(nat);
}

std::vector<Savir2Case> savir2_cases()
{
    std::vector<Savir2Case> cases;
    for (const std::string& g : form_generators()) {
        // Crush's and BigCrush's forms (t = 30) with m = 2^16 (the rows below have their
        // m = 2^20) and n = 10000 and 5000, and the form
        // bbattery.c's other batteries use (m = 90000, t = 18).
        cases.push_back({ "crush_m2_16_r0", g, 1, 10000, 0, 65536, 30 });
        cases.push_back({ "bigcrush_m2_16_N3_r10", g, 3, 5000, 10, 65536, 30 });
        cases.push_back({ "m90000_t18", g, 1, 30000, 0, 90000, 18 });
        // One class (nothing read), few classes, t = 1.
        cases.push_back({ "one_class", g, 2, 1000, 0, 1, 1 });
        cases.push_back({ "m10_t3_r20", g, 2, 5000, 20, 10, 3 });
        cases.push_back({ "t1", g, 1, 10000, 4, 100, 1 });
        // More words than one block of the native reader (2^22).
        if (g == "mt19937") cases.push_back({ "blocks_m1000_t30", g, 1, 150000, 0, 1000, 30 });
        Draw draw{ 0xD1B54A32D192ED03ull ^ std::hash<std::string>()(g) };
        for (int i = 0; i < 3; ++i) {
            const long N = draw(1, 4);
            const long n = draw(20, 20000);
            const int r = static_cast<int>(draw(0, 28));
            const long m = draw(1, 300000);
            const int t = static_cast<int>(draw(1, 40));
            cases.push_back({ "draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                    + std::to_string(n) + "_r" + std::to_string(r) + "_m" + std::to_string(m) + "_t"
                    + std::to_string(t),
                g, N, n, r, m, t });
        }
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Forms, Savir2Exact, testing::ValuesIn(savir2_cases()),
    [](const testing::TestParamInfo<Savir2Case>& i) {
        return clean(i.param.label + "_" + i.param.generator);
    });

// ---------------------------------------------------------------------------------------------
// smarsa_GCD

struct GcdCase {
    std::string label;
    std::string generator;
    long N, n;
    int r, s;
};

void PrintTo(const GcdCase& c, std::ostream* os)
{
    *os << c.label << "_" << c.generator;
}

class GcdExact : public testing::TestWithParam<GcdCase> { };

TEST_P(GcdExact, SameRecordsAndCount)
{
    const GcdCase& c = GetParam();
    Feed feed1(c.generator), feed2(c.generator);
    smarsa_Res2* tu = smarsa_CreateRes2();
    smarsa_Res2* nat = smarsa_CreateRes2();
    smarsa_GCD(feed1.gen(), tu, c.N, c.n, c.r, c.s);
    {
        rngvet::native::Numbers in(feed2.feed());
        const int threads = case_threads(c.label, c.generator);
        SCOPED_TRACE("threads " + std::to_string(threads));
        rngvet::native::gcd(in, nat, c.N, c.n, c.r, c.s, threads);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    expect_same_chi2(tu->GCD, nat->GCD, "GCD");
    expect_same_chi2(tu->NumIter, nat->NumIter, "NumIter");
    smarsa_DeleteRes2(tu);
    smarsa_DeleteRes2(nat);
}

std::vector<GcdCase> gcd_cases()
{
    std::vector<GcdCase> cases;
    for (const std::string& g : form_generators()) {
        // Crush's and BigCrush's forms with n = 50000.
        cases.push_back({ "crush_r0_s30", g, 1, 50000, 0, 30 });
        cases.push_back({ "crush_r10_s20", g, 1, 50000, 10, 20 });
        cases.push_back({ "bigcrush_N3_s30", g, 3, 50000, 0, 30 });
        // Zeros often drawn (pairs drawn again), all 32 bits, n too small or too large (nothing
        // read).
        cases.push_back({ "s8_zeros", g, 2, 4000, 3, 8 });
        cases.push_back({ "s32", g, 1, 50000, 0, 32 });
        // More pairs than one block of the native reader (2^21 pairs), pairs with a zero among
        // them.
        if (g == "mt19937") cases.push_back({ "blocks_s15", g, 1, 2200000, 3, 15 });
        cases.push_back({ "n_below_30", g, 1, 29, 0, 30 });
        cases.push_back({ "n_above_2_1_5s", g, 1, 5000, 0, 8 });
        Draw draw{ 0x94D049BB133111EBull ^ std::hash<std::string>()(g) };
        for (int i = 0; i < 3; ++i) {
            const long N = draw(1, 4);
            const int s = static_cast<int>(draw(6, 32));
            const int r = static_cast<int>(draw(0, 32 - s));
            const long n = draw(30, std::min<long>(40000, 1L << (3 * s / 2)));
            cases.push_back({ "draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                    + std::to_string(n) + "_r" + std::to_string(r) + "_s" + std::to_string(s),
                g, N, n, r, s });
        }
    }
    return cases;
}

INSTANTIATE_TEST_SUITE_P(
    Forms, GcdExact, testing::ValuesIn(gcd_cases()), [](const testing::TestParamInfo<GcdCase>& i) {
        return clean(i.param.label + "_" + i.param.generator);
    });

// ---------------------------------------------------------------------------------------------
// The battery rows, against bbattery.c's calls and names (written out here from bbattery.c,
// independently of smarsa_more.cpp's table).

enum class Kind { serial_over, savir2, gcd };

struct BatteryRow {
    std::string battery;
    int number;
    std::string name;
    Kind kind;
    long N, n;
    int r;
    long d_or_m; // SerialOver's d, Savir2's m
    int t_or_s; // SerialOver's and Savir2's t, GCD's s
    int pick;
};

const std::vector<BatteryRow>& battery_rows()
{
    static const std::vector<BatteryRow> rows = {
        { "crush", 1, "SerialOver, t = 2", Kind::serial_over, 1, 500000000, 0, 4096, 2, gofw_Mean },
        { "crush", 2, "SerialOver, t = 4", Kind::serial_over, 1, 300000000, 0, 64, 4, gofw_Mean },
        { "crush", 62, "Savir2", Kind::savir2, 1, 20000000, 0, 1048576, 30, gofw_Mean },
        { "crush", 63, "GCD, r = 0", Kind::gcd, 1, 100000000, 0, 0, 30, gofw_Mean },
        { "crush", 64, "GCD, r = 10", Kind::gcd, 1, 40000000, 10, 0, 20, gofw_Mean },
        { "bigcrush", 1, "SerialOver, r = 0", Kind::serial_over, 1, 1000000000, 0, 256, 3,
            gofw_Mean },
        { "bigcrush", 2, "SerialOver, r = 22", Kind::serial_over, 1, 1000000000, 22, 256, 3,
            gofw_Mean },
        { "bigcrush", 72, "Savir2", Kind::savir2, 10, 10000000, 10, 1048576, 30, gofw_Sum },
        { "bigcrush", 73, "GCD", Kind::gcd, 10, 50000000, 0, 0, 30, gofw_Sum },
    };
    return rows;
}

// TestU01's function with the row's parameters (N replications of n) and the battery's p-value.
std::vector<rngvet::native::NativeStatistic> testu01_row(
    unif01_Gen* gen, const BatteryRow& row, long N, long n)
{
    double p = -1.0;
    if (row.kind == Kind::serial_over) {
        sres_Basic* res = sres_CreateBasic();
        smarsa_SerialOver(gen, res, N, n, row.r, row.d_or_m, row.t_or_s);
        p = res->pVal2[row.pick];
        sres_DeleteBasic(res);
    } else if (row.kind == Kind::savir2) {
        sres_Chi2* res = sres_CreateChi2();
        smarsa_Savir2(gen, res, N, n, row.r, row.d_or_m, row.t_or_s);
        p = res->pVal2[row.pick];
        sres_DeleteChi2(res);
    } else {
        smarsa_Res2* res = smarsa_CreateRes2();
        smarsa_GCD(gen, res, N, n, row.r, row.t_or_s);
        p = res->GCD->pVal2[row.pick];
        smarsa_DeleteRes2(res);
    }
    return { { row.name, p } };
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
    static const std::vector<rngvet::native::NativeTest> rows = rngvet::native::smarsa_more_tests();
    return rngvet_test::find_row(rows, battery, number);
}

class BatteryRowExact : public testing::TestWithParam<RowCase> { };

TEST_P(BatteryRowExact, RowAsBbatteryWritesIt)
{
    const RowCase& c = GetParam();
    const rngvet::native::NativeTest* found = family_row(c.row.battery, c.row.number);
    ASSERT_NE(found, nullptr) << "not registered";

    if (rngvet_test::native_full_size()) {
        Feed feed1(c.generator), feed2(c.generator);
        const auto tu = testu01_row(feed1.gen(), c.row, c.row.N, c.row.n);
        std::vector<rngvet::native::NativeStatistic> nat;
        {
            rngvet::native::Numbers in(feed2.feed());
            nat = found->run(in);
        }
        EXPECT_EQ(feed1.consumed(), feed2.consumed());
        expect_same_statistics(tu, nat);
    }

    // The row's table entry on a smaller scale, at most 3 replications: Savir2 with 10000 groups,
    // GCD with 50000 pairs, SerialOver with 200000 numbers and d such that d^t is 2^15 or 2^16
    // (the rows' 2^24 cells would take the sparse case of smultin_MultinomialOver below about
    // 2^24 numbers). The parameters themselves are compared with bbattery.c's in
    // BatteryRows.TablesAreBbatteryCalls.
    BatteryRow small = c.row;
    small.N = std::min<long>(c.row.N, 3);
    small.n = c.row.kind == Kind::savir2 ? 10000 : c.row.kind == Kind::gcd ? 50000 : 200000;
    if (c.row.kind == Kind::serial_over)
        small.d_or_m = c.row.t_or_s == 2 ? 256 : c.row.t_or_s == 3 ? 32 : 16;
    const long small_N = small.N;
    const long small_n = small.n;
    Feed feed1(c.generator), feed2(c.generator);
    const auto tu = testu01_row(feed1.gen(), small, small_N, small_n);
    std::vector<rngvet::native::NativeStatistic> nat;
    {
        rngvet::native::Numbers in(feed2.feed());
        for (auto r : rngvet::native::smarsa_more_rows())
            if (c.row.battery == r.battery && c.row.number == r.number) {
                r.N = small_N;
                r.d = small.d_or_m;
                nat = rngvet::native::smarsa_more_statistics(in, r, small_n, 2);
            }
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    expect_same_statistics(tu, nat);
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
TEST(BatteryRows, TablesAreBbatteryCalls)
{
    for (const BatteryRow& row : battery_rows()) {
        const std::string where = row.battery + " " + std::to_string(row.number);
        int found = 0;
        for (const auto& r : rngvet::native::smarsa_more_rows()) {
            if (row.battery != r.battery || row.number != r.number) continue;
            ++found;
            EXPECT_EQ(std::string(r.name), row.name) << where;
            EXPECT_EQ(static_cast<int>(r.test), static_cast<int>(row.kind)) << where;
            EXPECT_EQ(r.N, row.N) << where;
            EXPECT_EQ(r.n, row.n) << where;
            EXPECT_EQ(r.r, row.r) << where;
            if (row.kind != Kind::gcd) {
                EXPECT_EQ(r.d, row.d_or_m) << where;
            }
            EXPECT_EQ(r.t, row.t_or_s) << where;
            EXPECT_EQ(r.pick, row.pick) << where;
        }
        EXPECT_EQ(found, 1) << where;
    }
    EXPECT_EQ(rngvet::native::smarsa_more_rows().size(), battery_rows().size());
}

TEST(BatteryRows, EveryRegisteredRowIsABbatteryRow)
{
    const auto tests = rngvet::native::smarsa_more_tests();
    EXPECT_EQ(tests.size(), battery_rows().size());
    for (const rngvet::native::NativeTest& t : tests) {
        int known = 0;
        for (const BatteryRow& row : battery_rows())
            known += row.battery == t.battery && row.number == t.number;
        EXPECT_EQ(known, 1) << t.battery << " " << t.number;
    }
}

// Timing of the rows at their full size (run with --gtest_also_run_disabled_tests, one row by
// --gtest_filter='DISABLED_Timing/RowTiming.*/crush63*'): TestU01's function, the native one on
// 1 and 2 threads, and reading as many words alone. Nothing is asserted about the times.
class RowTiming : public testing::TestWithParam<BatteryRow> { };

void PrintTo(const BatteryRow& row, std::ostream* os)
{
    *os << row.battery << row.number;
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Processor time of the process (all its threads) since c0, in seconds: on a shared machine a
// fairer measure than the elapsed time for one thread.
double cpu_since(std::clock_t c0)
{
    return static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
}

TEST_P(RowTiming, FullSize)
{
    const BatteryRow& row = GetParam();
    const std::string g = "mt19937";
    // RNGVET_TIMING_NATIVE_ONLY=1: the native side alone (for profiling), nothing compared.
    const char* only = std::getenv("RNGVET_TIMING_NATIVE_ONLY");
    const bool native_only = only != nullptr && std::string(only) == "1";
    Feed feed(g);
    auto t0 = std::chrono::steady_clock::now();
    std::clock_t c0 = std::clock();
    const auto tu = native_only ? std::vector<rngvet::native::NativeStatistic>()
                                : testu01_row(feed.gen(), row, row.N, row.n);
    const double t_tu = seconds_since(t0);
    const double c_tu = cpu_since(c0);
    double t_nat[2], c_nat[2];
    for (int threads : { 1, 2 }) {
        Feed f(g);
        std::vector<rngvet::native::NativeStatistic> nat;
        t0 = std::chrono::steady_clock::now();
        c0 = std::clock();
        {
            rngvet::native::Numbers in(f.feed());
            for (const auto& r : rngvet::native::smarsa_more_rows())
                if (row.battery == r.battery && row.number == r.number)
                    nat = rngvet::native::smarsa_more_statistics(in, r, r.n, threads);
        }
        t_nat[threads - 1] = seconds_since(t0);
        c_nat[threads - 1] = cpu_since(c0);
        if (native_only) {
            std::printf("native %d thread(s): %.3f s (processor %.3f s), %llu words\n", threads,
                t_nat[threads - 1], c_nat[threads - 1],
                static_cast<unsigned long long>(f.consumed()));
            if (threads == 2) return;
            continue;
        }
        EXPECT_EQ(feed.consumed(), f.consumed());
        expect_same_statistics(tu, nat);
    }
    double t_read, c_read;
    {
        Feed f(g);
        rngvet::native::Numbers in(f.feed());
        std::vector<std::uint64_t> buffer(std::size_t(1) << 21);
        std::uint64_t left = feed.consumed(), sum = 0;
        t0 = std::chrono::steady_clock::now();
        c0 = std::clock();
        while (left > 0) {
            const std::size_t k
                = static_cast<std::size_t>(std::min<std::uint64_t>(left, buffer.size()));
            in.read(buffer.data(), k);
            sum += buffer[k - 1];
            left -= k;
        }
        t_read = seconds_since(t0);
        c_read = cpu_since(c0);
        EXPECT_NE(sum, 1u); // keeps the reads
    }
    std::printf("%s %s test %d: elapsed (processor) seconds: TestU01 %.3f (%.3f), native 1 "
                "thread %.3f (%.3f), 2 threads %.3f (%.3f); reading its %llu words alone %.3f "
                "(%.3f)\n",
        g.c_str(), row.battery.c_str(), row.number, t_tu, c_tu, t_nat[0], c_nat[0], t_nat[1],
        c_nat[1], static_cast<unsigned long long>(feed.consumed()), t_read, c_read);
}

INSTANTIATE_TEST_SUITE_P(DISABLED_Timing, RowTiming, testing::ValuesIn(battery_rows()),
    [](const testing::TestParamInfo<BatteryRow>& i) {
        return clean(i.param.battery + std::to_string(i.param.number));
    });

} // namespace
