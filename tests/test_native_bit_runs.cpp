// Exactness of the native tests of this family against TestU01's own function (native_support.hpp).
//
// Native sstring_Run, sstring_AutoCor and scomp_LempelZiv (batteries/native/bit_runs.hpp)
// against TestU01's functions on the same stream: the counts (runs by length, differing bits,
// phrases), the observations, every entry of sVal2/pVal2 (bitwise), and the numbers consumed.
// Then the battery rows: registered as bbattery.c writes them, with the p-values TestU01's
// functions give.
#include "batteries/native/bit_runs.hpp"
#include "batteries/native/families.hpp"
#include "native_support.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" {
#include <testu01/gofw.h>
#include <testu01/scomp.h>
#include <testu01/sres.h>
#include <testu01/sstring.h>
#include <testu01/statcoll.h>
}

namespace native = rngvet::native;
using rngvet_test::HarnessFeed;
using rngvet_test::same_bits;

namespace {

struct Res3Deleter {
    void operator()(sstring_Res3* r) const { sstring_DeleteRes3(r); }
};
using Res3Ptr = std::unique_ptr<sstring_Res3, Res3Deleter>;
struct BasicDeleter {
    void operator()(sres_Basic* r) const { sres_DeleteBasic(r); }
};
using BasicPtr = std::unique_ptr<sres_Basic, BasicDeleter>;

void expect_same_basic(const statcoll_Collector* sval1, const statcoll_Collector* pval1,
    const double* sval2, const double* pval2, const native::BitRunsBasic& nat,
    const std::string& what)
{
    ASSERT_EQ(sval1->NObs, static_cast<long>(nat.observations.size())) << what;
    for (long i = 1; i <= sval1->NObs; ++i)
        EXPECT_TRUE(same_bits(sval1->V[i], nat.observations[static_cast<std::size_t>(i - 1)]))
            << what << " observation " << i;
    ASSERT_EQ(pval1->NObs, static_cast<long>(nat.pvalues.size())) << what;
    for (long i = 1; i <= pval1->NObs; ++i)
        EXPECT_TRUE(same_bits(pval1->V[i], nat.pvalues[static_cast<std::size_t>(i - 1)]))
            << what << " p-value " << i;
    ASSERT_EQ(nat.sval2.size(), static_cast<std::size_t>(gofw_NTestTypes)) << what;
    ASSERT_EQ(nat.pval2.size(), static_cast<std::size_t>(gofw_NTestTypes)) << what;
    for (int k = 0; k < gofw_NTestTypes; ++k) {
        EXPECT_TRUE(same_bits(sval2[k], nat.sval2[static_cast<std::size_t>(k)]))
            << what << " sVal2[" << gofw_TestNames[k] << "]";
        EXPECT_TRUE(same_bits(pval2[k], nat.pval2[static_cast<std::size_t>(k)]))
            << what << " pVal2[" << gofw_TestNames[k] << "]";
    }
}

void expect_same_basic(
    const sres_Basic* t, const native::BitRunsBasic& nat, const std::string& what)
{
    expect_same_basic(t->sVal1, t->pVal1, t->sVal2, t->pVal2, nat, what);
}

// ---------------------------------------------------------------------------------------------
// The three tests, one parameter set against TestU01's function.

native::RunParams run_params(long N, long n, int r, int s)
{
    native::RunParams p;
    p.N = N;
    p.n = n;
    p.r = r;
    p.s = s;
    return p;
}

native::AutoCorParams autocor_params(long N, long n, int r, int s, int d)
{
    native::AutoCorParams p;
    p.N = N;
    p.n = n;
    p.r = r;
    p.s = s;
    p.d = d;
    return p;
}

native::LempelZivParams lz_params(long N, int t, int r, int s)
{
    native::LempelZivParams p;
    p.N = N;
    p.t = t;
    p.r = r;
    p.s = s;
    return p;
}

Res3Ptr testu01_run(HarnessFeed& feed, const native::RunParams& p)
{
    Res3Ptr res(sstring_CreateRes3());
    sstring_Run(feed.gen(), res.get(), p.N, p.n, p.r, p.s);
    return res;
}

BasicPtr testu01_autocor(HarnessFeed& feed, const native::AutoCorParams& p)
{
    BasicPtr res(sres_CreateBasic());
    sstring_AutoCor(feed.gen(), res.get(), p.N, p.n, p.r, p.s, p.d);
    return res;
}

BasicPtr testu01_lempel_ziv(HarnessFeed& feed, const native::LempelZivParams& p)
{
    BasicPtr res(sres_CreateBasic());
    scomp_LempelZiv(feed.gen(), res.get(), p.N, p.t, p.r, p.s);
    return res;
}

void expect_exact_run(const std::string& generator, const native::RunParams& p, int threads)
{
    HarnessFeed feed1(generator);
    const Res3Ptr t = testu01_run(feed1, p);
    HarnessFeed feed2(generator);
    native::RunResult nat;
    {
        native::Numbers in(feed2.feed());
        nat = native::run_of_bits(in, p, threads);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    const sres_Chi2* runs = t->NRuns;
    EXPECT_EQ(runs->jmax, nat.k);
    EXPECT_EQ(runs->degFree, nat.degrees_of_freedom);
    ASSERT_EQ(nat.expected.size(), static_cast<std::size_t>(nat.k));
    for (int j = 1; j <= nat.k; ++j)
        EXPECT_TRUE(same_bits(runs->NbExp[j], nat.expected[static_cast<std::size_t>(j - 1)]))
            << "NbExp[" << j << "]";
    if (nat.ran && !nat.interrupted) {
        ASSERT_EQ(nat.count0.size(), static_cast<std::size_t>(nat.k));
        for (int j = 1; j <= nat.k; ++j) {
            EXPECT_EQ(t->Count0[j], nat.count0[static_cast<std::size_t>(j - 1)]) << "Count0 " << j;
            EXPECT_EQ(t->Count1[j], nat.count1[static_cast<std::size_t>(j - 1)]) << "Count1 " << j;
        }
    }
    expect_same_basic(runs->sVal1, runs->pVal1, runs->sVal2, runs->pVal2, nat.runs, "NRuns");
    expect_same_basic(t->NBits, nat.bits, "NBits");
}

void expect_exact_autocor(const std::string& generator, const native::AutoCorParams& p, int threads)
{
    HarnessFeed feed1(generator);
    const BasicPtr t = testu01_autocor(feed1, p);
    HarnessFeed feed2(generator);
    native::AutoCorResult nat;
    {
        native::Numbers in(feed2.feed());
        nat = native::auto_cor(in, p, threads);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    EXPECT_EQ(nat.differing.size(), static_cast<std::size_t>(p.N));
    expect_same_basic(t.get(), nat.basic, "AutoCor");
}

void expect_exact_lempel_ziv(
    const std::string& generator, const native::LempelZivParams& p, int threads)
{
    HarnessFeed feed1(generator);
    const BasicPtr t = testu01_lempel_ziv(feed1, p);
    HarnessFeed feed2(generator);
    native::LempelZivResult nat;
    {
        native::Numbers in(feed2.feed());
        nat = native::lempel_ziv(in, p, threads);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    EXPECT_EQ(nat.phrases.size(), static_cast<std::size_t>(p.N));
    expect_same_basic(t.get(), nat.basic, "LempelZiv");
}

// ---------------------------------------------------------------------------------------------
// Forms: the batteries' (at a quick size; the battery's with RNGVET_NATIVE_FULL=1), edge cases,
// and deterministic draws within the valid ranges.

enum class Kind { run, auto_cor, lempel_ziv };

struct Form {
    std::string name;
    Kind kind;
    long N;
    long n; // LempelZiv: t
    int r;
    int s;
    int d;
    long full_n; // the battery's n (0: the same as n)
};

std::uint64_t draw_state = 0;
long draw(long lo, long hi)
{
    draw_state = draw_state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + static_cast<long>((draw_state >> 33) % static_cast<std::uint64_t>(hi - lo + 1));
}

std::vector<Form> forms()
{
    constexpr long billion = 1000000000L;
    std::vector<Form> f = {
        { "crush73", Kind::lempel_ziv, 10, 16, 0, 30, 0, 25 },
        { "crush91", Kind::run, 1, 300000, 0, 30, 0, billion },
        { "crush92", Kind::run, 1, 300000, 20, 10, 0, billion },
        { "crush93", Kind::auto_cor, 10, 1000030, 0, 30, 1, 30 + billion },
        { "crush94", Kind::auto_cor, 5, 1000001, 20, 10, 1, 1 + billion },
        { "crush95", Kind::auto_cor, 10, 1000031, 0, 30, 30, 31 + billion },
        { "crush96", Kind::auto_cor, 5, 1000011, 20, 10, 10, 11 + billion },
        { "bigcrush82", Kind::lempel_ziv, 10, 17, 0, 30, 0, 27 },
        { "bigcrush83", Kind::lempel_ziv, 10, 17, 15, 15, 0, 27 },
        { "bigcrush101", Kind::run, 1, 200000, 0, 3, 0, 2 * billion },
        { "bigcrush102", Kind::run, 1, 200000, 27, 3, 0, 2 * billion },
        { "bigcrush103", Kind::auto_cor, 10, 300030, 0, 3, 1, 30 + billion },
        { "bigcrush104", Kind::auto_cor, 10, 300030, 0, 3, 3, 30 + billion },
        { "bigcrush105", Kind::auto_cor, 10, 300030, 27, 3, 1, 30 + billion },
        { "bigcrush106", Kind::auto_cor, 10, 300030, 27, 3, 3, 30 + billion },
        // Rabbit's and Alphabit's forms (s = 32).
        { "run_s32", Kind::run, 1, 200000, 0, 32, 0, 0 },
        { "autocor_s32_d1", Kind::auto_cor, 1, 2000000, 0, 32, 1, 0 },
        { "autocor_s32_d2", Kind::auto_cor, 1, 2000000, 0, 32, 2, 0 },
        { "lempel_ziv_s32", Kind::lempel_ziv, 1, 20, 0, 32, 0, 0 },
        // Several replications; one bit per number; distances past a number.
        { "run_N3_s1", Kind::run, 3, 20000, 31, 1, 0, 0 },
        { "run_N4_s7", Kind::run, 4, 50000, 5, 7, 0, 0 },
        { "run_small_n", Kind::run, 2, 20, 0, 32, 0, 0 },
        { "autocor_d100_s7", Kind::auto_cor, 3, 100000, 2, 7, 100, 0 },
        { "autocor_s1", Kind::auto_cor, 2, 50000, 31, 1, 5, 0 },
        { "autocor_half", Kind::auto_cor, 1, 1000, 0, 13, 490, 0 },
        { "lempel_ziv_t3_s1", Kind::lempel_ziv, 3, 3, 31, 1, 0, 0 },
        { "lempel_ziv_s1", Kind::lempel_ziv, 3, 16, 31, 1, 0, 0 },
        { "lempel_ziv_t21_s7", Kind::lempel_ziv, 2, 21, 3, 7, 0, 0 },
        // The first bit of LCG words is always 1: LempelZiv on it, and Run interrupted by a run
        // of n bits (on the other generators, a short Run).
        { "lempel_ziv_ones", Kind::lempel_ziv, 2, 12, 31, 1, 0, 0 },
        { "run_one_bit", Kind::run, 2, 100, 31, 1, 0, 0 },
        // The chi-square without a degree of freedom: nothing read.
        { "run_no_freedom", Kind::run, 1, 19, 0, 32, 0, 0 },
    };
    draw_state = 0x9E3779B97F4A7C15ull;
    for (int k = 0; k < 8; ++k) {
        const int r = static_cast<int>(draw(0, 31));
        const int s = static_cast<int>(draw(1, 32 - r));
        f.push_back(
            { "run_draw" + std::to_string(k), Kind::run, draw(1, 3), draw(20, 60000), r, s, 0, 0 });
    }
    for (int k = 0; k < 8; ++k) {
        const int r = static_cast<int>(draw(0, 31));
        const int s = static_cast<int>(draw(1, 32 - r));
        const long n = draw(1000, 400000);
        f.push_back({ "autocor_draw" + std::to_string(k), Kind::auto_cor, draw(1, 3), n, r, s,
            static_cast<int>(draw(1, std::min(n / 2, 200L))), 0 });
    }
    for (int k = 0; k < 8; ++k) {
        const int r = static_cast<int>(draw(0, 31));
        const int s = static_cast<int>(draw(1, 32 - r));
        f.push_back({ "lempel_ziv_draw" + std::to_string(k), Kind::lempel_ziv, draw(1, 3),
            draw(3, 18), r, s, 0, 0 });
    }
    return f;
}

void expect_exact(const std::string& generator, const Form& f, long n, int threads)
{
    switch (f.kind) {
    case Kind::run:
        expect_exact_run(generator, run_params(f.N, n, f.r, f.s), threads);
        break;
    case Kind::auto_cor:
        expect_exact_autocor(generator, autocor_params(f.N, n, f.r, f.s, f.d), threads);
        break;
    case Kind::lempel_ziv:
        expect_exact_lempel_ziv(generator, lz_params(f.N, static_cast<int>(n), f.r, f.s), threads);
        break;
    }
}

struct Case {
    Form form;
    std::string generator;
};

std::vector<Case> cases()
{
    std::vector<Case> c;
    for (const Form& f : forms())
        for (const std::string& g : rngvet_test::harness_generators())
            c.push_back({ f, g });
    return c;
}

void PrintTo(const Case& c, std::ostream* o)
{
    *o << c.form.name << " on " << c.generator;
}

class BitRunsExact : public testing::TestWithParam<Case> { };

TEST_P(BitRunsExact, SameAsTestU01)
{
    const Form& f = GetParam().form;
    const long n = rngvet_test::native_full_size() && f.full_n > 0 ? f.full_n : f.n;
    SCOPED_TRACE("N=" + std::to_string(f.N) + " n=" + std::to_string(n)
        + " r=" + std::to_string(f.r) + " s=" + std::to_string(f.s) + " d=" + std::to_string(f.d));
    expect_exact(GetParam().generator, f, n, 2);
}

INSTANTIATE_TEST_SUITE_P(
    Forms, BitRunsExact, testing::ValuesIn(cases()), [](const testing::TestParamInfo<Case>& i) {
        return i.param.form.name + "_" + i.param.generator;
    });

// The thread count changes nothing.
TEST(BitRunsThreads, SameForAnyCount)
{
    for (const Form& f : forms()) {
        if (f.name != "crush91" && f.name != "bigcrush101" && f.name != "bigcrush104"
            && f.name != "bigcrush83" && f.name != "run_N4_s7")
            continue;
        for (int threads : { 1, 3 }) {
            SCOPED_TRACE(f.name + " threads=" + std::to_string(threads));
            expect_exact("mt19937", f, f.n, threads);
        }
    }
}

// The edge forms reach TestU01's early returns.
TEST(BitRunsForms, ReachEarlyReturns)
{
    {
        HarnessFeed feed("lcg");
        native::Numbers in(feed.feed());
        const native::RunResult r = native::run_of_bits(in, run_params(2, 100, 31, 1), 1);
        EXPECT_TRUE(r.ran);
        EXPECT_TRUE(r.interrupted);
    }
    {
        HarnessFeed feed("lcg");
        native::Numbers in(feed.feed());
        const native::RunResult r = native::run_of_bits(in, run_params(1, 19, 0, 32), 1);
        EXPECT_FALSE(r.ran);
        EXPECT_EQ(in.consumed(), 0u);
    }
}

TEST(BitRunsParams, RefusesInvalidParameters)
{
    HarnessFeed feed("mt19937");
    native::Numbers in(feed.feed());
    EXPECT_THROW(native::run_of_bits(in, run_params(1, 1000, 10, 23)), std::invalid_argument);
    EXPECT_THROW(native::run_of_bits(in, run_params(1, 9, 0, 32)), std::invalid_argument);
    EXPECT_THROW(native::auto_cor(in, autocor_params(1, 1000, 0, 32, 0)), std::invalid_argument);
    EXPECT_THROW(native::auto_cor(in, autocor_params(1, 1000, 0, 32, 501)), std::invalid_argument);
    EXPECT_THROW(native::auto_cor(in, autocor_params(1, 1000, 1, 32, 1)), std::invalid_argument);
    EXPECT_THROW(native::lempel_ziv(in, lz_params(1, 29, 0, 32)), std::invalid_argument);
    EXPECT_THROW(native::lempel_ziv(in, lz_params(1, 2, 0, 32)), std::invalid_argument);
    EXPECT_THROW(native::lempel_ziv(in, lz_params(1, 10, 16, 17)), std::invalid_argument);
    EXPECT_EQ(in.consumed(), 0u);
}

// ---------------------------------------------------------------------------------------------
// What bbattery.c writes for each of this family's tests (its own copy of bbattery.c's
// parameters and names, independent of the native table).

struct BatteryRow {
    const char* battery;
    int number;
    const char* name;
    native::BitRunsTest test;
    long N;
    long n; // LempelZiv: t
    int r;
    int s;
    int d;
    long quick_n;
};

const std::vector<BatteryRow>& battery_rows()
{
    using T = native::BitRunsTest;
    static const std::vector<BatteryRow> rows = {
        { "crush", 73, "LempelZiv", T::lempel_ziv, 10, 25, 0, 30, 0, 15 },
        { "crush", 91, "Run of bits, r = 0", T::run, 1, 1000000000, 0, 30, 0, 100000 },
        { "crush", 92, "Run of bits, r = 20", T::run, 1, 1000000000, 20, 10, 0, 100000 },
        { "crush", 93, "AutoCor, d = 1", T::auto_cor, 10, 1000000030, 0, 30, 1, 200030 },
        { "crush", 94, "AutoCor, d = 1", T::auto_cor, 5, 1000000001, 20, 10, 1, 200001 },
        { "crush", 95, "AutoCor, d = 30", T::auto_cor, 10, 1000000031, 0, 30, 30, 200031 },
        { "crush", 96, "AutoCor, d = 10", T::auto_cor, 5, 1000000011, 20, 10, 10, 200011 },
        { "bigcrush", 82, "LempelZiv, r = 0", T::lempel_ziv, 10, 27, 0, 30, 0, 15 },
        { "bigcrush", 83, "LempelZiv, r = 15", T::lempel_ziv, 10, 27, 15, 15, 0, 15 },
        { "bigcrush", 101, "Run of bits, r = 0", T::run, 1, 2000000000, 0, 3, 0, 100000 },
        { "bigcrush", 102, "Run of bits, r = 27", T::run, 1, 2000000000, 27, 3, 0, 100000 },
        { "bigcrush", 103, "AutoCor, d=1, r=0", T::auto_cor, 10, 1000000030, 0, 3, 1, 100030 },
        { "bigcrush", 104, "AutoCor, d=3, r=0", T::auto_cor, 10, 1000000030, 0, 3, 3, 100030 },
        { "bigcrush", 105, "AutoCor, d=1, r=27", T::auto_cor, 10, 1000000030, 27, 3, 1, 100030 },
        { "bigcrush", 106, "AutoCor, d=3, r=27", T::auto_cor, 10, 1000000030, 27, 3, 3, 100030 },
    };
    return rows;
}

// The p-values bbattery.c writes for row b at n (LempelZiv: t), from TestU01's functions.
std::vector<double> testu01_pvalues(HarnessFeed& feed, const BatteryRow& b, long n)
{
    switch (b.test) {
    case native::BitRunsTest::run: {
        const Res3Ptr res = testu01_run(feed, run_params(b.N, n, b.r, b.s));
        return { res->NRuns->pVal2[gofw_Mean], res->NBits->pVal2[gofw_Mean] };
    }
    case native::BitRunsTest::auto_cor: {
        const BasicPtr res = testu01_autocor(feed, autocor_params(b.N, n, b.r, b.s, b.d));
        return { res->pVal2[gofw_Sum] };
    }
    case native::BitRunsTest::lempel_ziv: {
        const BasicPtr res
            = testu01_lempel_ziv(feed, lz_params(b.N, static_cast<int>(n), b.r, b.s));
        return { res->pVal2[gofw_Sum] };
    }
    }
    return {};
}

TEST(BitRunsBattery, RowsAreBbatterysRows)
{
    const std::vector<native::NativeTest> tests = native::bit_runs_tests();
    const std::vector<native::BitRunsRow>& rows = native::bit_runs_rows();
    ASSERT_EQ(tests.size(), battery_rows().size());
    ASSERT_EQ(rows.size(), battery_rows().size());
    for (std::size_t i = 0; i < tests.size(); ++i) {
        const BatteryRow& b = battery_rows()[i];
        EXPECT_STREQ(tests[i].battery, b.battery);
        EXPECT_EQ(tests[i].number, b.number);
        EXPECT_STREQ(rows[i].battery, b.battery);
        EXPECT_EQ(rows[i].number, b.number);
        EXPECT_STREQ(rows[i].name, b.name);
        EXPECT_EQ(rows[i].test, b.test);
        EXPECT_EQ(rows[i].N, b.N);
        EXPECT_EQ(rows[i].n, b.n);
        EXPECT_EQ(rows[i].r, b.r);
        EXPECT_EQ(rows[i].s, b.s);
        EXPECT_EQ(rows[i].d, b.d);
    }
}

class BitRunsRow : public testing::TestWithParam<std::tuple<std::size_t, std::string>> { };

// Each registered row against TestU01's functions with bbattery.c's parameters: the row's own
// run at the battery's n with RNGVET_NATIVE_FULL=1, the same row at a quick n otherwise.
TEST_P(BitRunsRow, PValuesAsBbatteryWritesThem)
{
    const std::size_t i = std::get<0>(GetParam());
    const std::string generator = std::get<1>(GetParam());
    const BatteryRow& b = battery_rows()[i];
    const std::vector<native::NativeTest> tests = native::bit_runs_tests();
    ASSERT_LT(i, tests.size());
    const bool whole = rngvet_test::native_full_size();
    const long n = whole ? b.n : b.quick_n;

    HarnessFeed feed1(generator);
    const std::vector<double> expected = testu01_pvalues(feed1, b, n);

    HarnessFeed feed2(generator);
    std::vector<native::NativeStatistic> got;
    {
        native::Numbers in(feed2.feed());
        got = whole ? tests[i].run(in)
                    : native::run_bit_runs_row(in, native::bit_runs_rows()[i], n);
    }
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
        EXPECT_EQ(got[k].name, b.name);
        EXPECT_TRUE(same_bits(expected[k], got[k].pvalue)) << "p-value " << k;
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
}

INSTANTIATE_TEST_SUITE_P(Batteries, BitRunsRow,
    testing::Combine(
        testing::Range<std::size_t>(0, 15), testing::ValuesIn(rngvet_test::harness_generators())),
    [](const testing::TestParamInfo<std::tuple<std::size_t, std::string>>& i) {
        const BatteryRow& b = battery_rows()[std::get<0>(i.param)];
        return std::string(b.battery) + std::to_string(b.number) + "_" + std::get<1>(i.param);
    });

// Timing (not an assertion): RNGVET_NATIVE_TIMING=1 prints TestU01's time and the native time
// with 1 and 2 threads for a Crush form of each test at a reduced size.
TEST(BitRunsTiming, CrushForms)
{
    const char* v = std::getenv("RNGVET_NATIVE_TIMING");
    if (v == nullptr || std::string(v) != "1") GTEST_SKIP() << "RNGVET_NATIVE_TIMING=1 to time";
    using clock = std::chrono::steady_clock;
    const std::vector<Form> timed = {
        { "Run r=0 s=30 n=3e7", Kind::run, 1, 30000000, 0, 30, 0, 0 },
        { "Run r=0 s=3 n=1e7", Kind::run, 1, 10000000, 0, 3, 0, 0 },
        { "AutoCor r=0 s=30 d=1 n=1e8", Kind::auto_cor, 1, 100000030, 0, 30, 1, 0 },
        { "AutoCor r=0 s=3 d=3 n=3e7", Kind::auto_cor, 1, 30000030, 0, 3, 3, 0 },
        { "LempelZiv N=2 t=25 s=30", Kind::lempel_ziv, 2, 25, 0, 30, 0, 0 },
    };
    for (const Form& f : timed) {
        double tu = 0, t1 = 0, t2 = 0;
        {
            HarnessFeed feed("mt19937");
            const auto a = clock::now();
            switch (f.kind) {
            case Kind::run:
                testu01_run(feed, run_params(f.N, f.n, f.r, f.s));
                break;
            case Kind::auto_cor:
                testu01_autocor(feed, autocor_params(f.N, f.n, f.r, f.s, f.d));
                break;
            case Kind::lempel_ziv:
                testu01_lempel_ziv(feed, lz_params(f.N, static_cast<int>(f.n), f.r, f.s));
                break;
            }
            tu = std::chrono::duration<double>(clock::now() - a).count();
        }
        for (int threads : { 1, 2 }) {
            HarnessFeed feed("mt19937");
            native::Numbers in(feed.feed());
            const auto a = clock::now();
            switch (f.kind) {
            case Kind::run:
                native::run_of_bits(in, run_params(f.N, f.n, f.r, f.s), threads);
                break;
            case Kind::auto_cor:
                native::auto_cor(in, autocor_params(f.N, f.n, f.r, f.s, f.d), threads);
                break;
            case Kind::lempel_ziv:
                native::lempel_ziv(in, lz_params(f.N, static_cast<int>(f.n), f.r, f.s), threads);
                break;
            }
            (threads == 1 ? t1 : t2) = std::chrono::duration<double>(clock::now() - a).count();
        }
        std::printf("%s: TestU01 %.3f s, native 1 thread %.3f s, 2 threads %.3f s\n",
            f.name.c_str(), tu, t1, t2);
    }
}

} // namespace
