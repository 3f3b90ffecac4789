// Exactness of the native tests of this family against TestU01's own function (native_support.hpp).
//
// Native sstring_HammingIndep (batteries/native/hamming_indep.hpp) against TestU01's
// sstring_HammingIndep on the same stream: the counters, the chi-square observations, every
// entry of sVal2/pVal2 (bitwise), the diagonal blocks, and the numbers consumed. Then the battery
// rows: registered as bbattery.c writes them, with the p-value TestU01's function gives.
#include "batteries/native/families.hpp"
#include "batteries/native/hamming_indep.hpp"
#include "native_support.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

extern "C" {
#include <testu01/gofs.h>
#include <testu01/gofw.h>
#include <testu01/sres.h>
#include <testu01/sstring.h>
#include <testu01/statcoll.h>
}

namespace native = rngvet::native;
using rngvet_test::HarnessFeed;
using rngvet_test::same_bits;

namespace {

struct ResDeleter {
    void operator()(sstring_Res* r) const { sstring_DeleteRes(r); }
};
using ResPtr = std::unique_ptr<sstring_Res, ResDeleter>;

ResPtr run_testu01(HarnessFeed& feed, const native::HammingIndepParams& p)
{
    ResPtr res(sstring_CreateRes());
    sstring_HammingIndep(feed.gen(), res.get(), p.N, p.n, p.r, p.s, p.L, p.d);
    return res;
}

void expect_same_basic(
    const sres_Basic* t, const native::HammingIndepBasic& nat, const std::string& what)
{
    ASSERT_EQ(t->sVal1->NObs, static_cast<long>(nat.observations.size())) << what;
    for (long i = 1; i <= t->sVal1->NObs; ++i)
        EXPECT_TRUE(same_bits(t->sVal1->V[i], nat.observations[static_cast<std::size_t>(i - 1)]))
            << what << " observation " << i;
    ASSERT_EQ(nat.sval2.size(), static_cast<std::size_t>(gofw_NTestTypes)) << what;
    ASSERT_EQ(nat.pval2.size(), static_cast<std::size_t>(gofw_NTestTypes)) << what;
    for (int k = 0; k < gofw_NTestTypes; ++k) {
        EXPECT_TRUE(same_bits(t->sVal2[k], nat.sval2[static_cast<std::size_t>(k)]))
            << what << " sVal2[" << gofw_TestNames[k] << "]";
        EXPECT_TRUE(same_bits(t->pVal2[k], nat.pval2[static_cast<std::size_t>(k)]))
            << what << " pVal2[" << gofw_TestNames[k] << "]";
    }
}

// TestU01's function on one feed, the native one on another of the same generator: equal in
// every statistic, p-value and count.
void expect_exact(const std::string& generator, const native::HammingIndepParams& p, int threads)
{
    HarnessFeed feed1(generator);
    const ResPtr t = run_testu01(feed1, p);

    HarnessFeed feed2(generator);
    native::HammingIndepResult nat;
    {
        native::Numbers in(feed2.feed());
        nat = native::hamming_indep(in, p, threads);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    if (static_cast<double>(p.n) < 2.0 * gofs_MinExpected) {
        EXPECT_FALSE(nat.ran);
        EXPECT_EQ(feed2.consumed(), 0u);
        return;
    }
    ASSERT_TRUE(nat.ran);
    const std::size_t row = static_cast<std::size_t>(p.L) + 1;
    ASSERT_EQ(nat.counters.size(), row * row);
    for (int i = 0; i <= p.L; ++i)
        for (int j = 0; j <= p.L; ++j)
            ASSERT_EQ(t->Counters[i][j],
                nat.counters[static_cast<std::size_t>(i) * row + static_cast<std::size_t>(j)])
                << "Counters[" << i << "][" << j << "]";
    expect_same_basic(t->Bas, nat.main, "Bas");
    ASSERT_EQ(nat.blocks.size(), static_cast<std::size_t>(std::max(p.d, 0)));
    for (int k = 1; k <= p.d; ++k) {
        EXPECT_EQ(t->XD[k][0], nat.xd[static_cast<std::size_t>(k - 1)][0]) << "XD " << k;
        EXPECT_EQ(t->XD[k][1], nat.xd[static_cast<std::size_t>(k - 1)][1]) << "XD " << k;
        expect_same_basic(t->Block[k], nat.blocks[static_cast<std::size_t>(k - 1)],
            "Block[" + std::to_string(k) + "]");
    }
}

struct Form {
    std::string name;
    native::HammingIndepParams p; // n: the quick size
    long full_n; // the battery's n (0: the same as p.n)
};

native::HammingIndepParams P(long N, long n, int r, int s, int L, int d = 0)
{
    native::HammingIndepParams p;
    p.N = N;
    p.n = n;
    p.r = r;
    p.s = s;
    p.L = L;
    p.d = d;
    return p;
}

std::vector<Form> forms()
{
    std::vector<Form> f = {
        // The batteries' forms (bbattery.c), at a quick n; the battery's n with
        // RNGVET_NATIVE_FULL=1 (SmallCrush's row runs at its own n below in any case).
        { "smallcrush9", P(1, 50000, 20, 10, 300), 500000 },
        { "crush85", P(1, 1000000, 0, 30, 30), 300000000 },
        { "crush86", P(1, 500000, 20, 10, 30), 100000000 },
        { "crush87", P(1, 100000, 0, 30, 300), 30000000 },
        { "crush88", P(1, 50000, 20, 10, 300), 10000000 },
        { "crush89", P(1, 50000, 0, 30, 1200), 10000000 },
        { "crush90", P(1, 10000, 20, 10, 1200), 1000000 },
        { "bigcrush95", P(10, 30000, 0, 3, 30), 30000000 },
        { "bigcrush96", P(10, 30000, 27, 3, 30), 30000000 },
        { "bigcrush97", P(1, 20000, 0, 4, 300), 30000000 },
        { "bigcrush98", P(1, 20000, 26, 4, 300), 30000000 },
        { "bigcrush99", P(1, 10000, 0, 5, 1200), 10000000 },
        { "bigcrush100", P(1, 30000, 25, 5, 1200), 10000000 },
        // Rabbit's and Alphabit's forms (L <= s: numbers cut into blocks).
        { "rabbit_L16", P(1, 200000, 0, 32, 16), 0 },
        { "rabbit_L32", P(1, 200000, 0, 32, 32), 0 },
        { "rabbit_L64", P(1, 100000, 0, 32, 64), 0 },
        // Short blocks with s % L > 0, an odd number of blocks per number, and n such that
        // the last number gives only some of its blocks.
        { "short_s32_L3", P(2, 100001, 0, 32, 3), 0 },
        { "short_s30_L7", P(1, 100003, 2, 30, 7, 3), 0 },
        { "short_s31_L5_r1", P(3, 50001, 1, 31, 5, 2), 0 },
        { "short_s32_L10", P(1, 150001, 0, 32, 10, 5), 0 },
        { "short_s12_L1", P(1, 100001, 20, 12, 1, 1), 0 },
        // Long blocks with a partial last number, diagonal blocks, L odd and even.
        { "long_L31_s8_d8", P(2, 60000, 3, 8, 31, 8), 0 },
        { "long_L40_s13_d4", P(1, 60000, 19, 13, 40, 4), 0 },
        { "long_L2_s1_d1", P(2, 100000, 31, 1, 2, 1), 0 },
        { "long_L3_s1_d2", P(1, 100000, 5, 1, 3, 2), 0 },
        // Two classes only (every cell expected below 10), and the smallest n that runs.
        { "two_classes", P(2, 200, 0, 32, 200), 0 },
        { "n20", P(3, 20, 0, 32, 8, 1), 0 },
        { "n19_not_run", P(1, 19, 0, 32, 8), 0 },
    };
    // Deterministic draws within the valid ranges (r + s <= 32, d <= min(8, (L + 1) / 2)),
    // about a million numbers or fewer each.
    std::uint64_t x = 0x9E3779B97F4A7C15ull;
    auto draw = [&x](long lo, long hi) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return lo + static_cast<long>((x >> 33) % static_cast<std::uint64_t>(hi - lo + 1));
    };
    for (int k = 0; k < 10; ++k) {
        const int r = static_cast<int>(draw(0, 31));
        const int s = static_cast<int>(draw(1, 32 - r));
        const int L = static_cast<int>(k % 2 == 0 ? draw(1, 2 * s + 40) : draw(1, 64));
        const int d = static_cast<int>(draw(0, std::min(8, (L + 1) / 2)));
        const long N = draw(1, 3);
        const long words_per_pair = L >= s ? 2 * (L / s + (L % s > 0)) : 1;
        const long n = draw(20, std::max(40L, 600000 / (N * words_per_pair)));
        f.push_back({ "draw" + std::to_string(k), P(N, n, r, s, L, d), 0 });
    }
    return f;
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

class HammingIndepExact : public testing::TestWithParam<Case> { };

TEST_P(HammingIndepExact, SameAsTestU01)
{
    native::HammingIndepParams p = GetParam().form.p;
    if (rngvet_test::native_full_size() && GetParam().form.full_n > 0) p.n = GetParam().form.full_n;
    SCOPED_TRACE("N=" + std::to_string(p.N) + " n=" + std::to_string(p.n)
        + " r=" + std::to_string(p.r) + " s=" + std::to_string(p.s) + " L=" + std::to_string(p.L)
        + " d=" + std::to_string(p.d));
    expect_exact(GetParam().generator, p, 2);
}

INSTANTIATE_TEST_SUITE_P(Forms, HammingIndepExact, testing::ValuesIn(cases()),
    [](const testing::TestParamInfo<Case>& i) {
        return i.param.form.name + "_" + i.param.generator;
    });

// The thread count changes nothing.
TEST(HammingIndepThreads, SameForAnyCount)
{
    for (const Form& f : forms()) {
        if (f.name != "smallcrush9" && f.name != "short_s30_L7" && f.name != "bigcrush95"
            && f.name != "crush90")
            continue;
        native::HammingIndepParams p = f.p;
        p.n = std::min(p.n, 40000L);
        for (int threads : { 1, 3, 4 }) {
            SCOPED_TRACE(f.name + " threads=" + std::to_string(threads));
            expect_exact("mt19937", p, threads);
        }
    }
}

// The forms above reach both ways sstring_HammingIndep builds its classes: cells of expected
// count >= 10 with the rest merged, and (every cell below 10) two classes split at L / 2.
TEST(HammingIndepForms, ReachBothClassings)
{
    int two = 0, many = 0;
    for (const Form& f : forms()) {
        HarnessFeed feed("mt19937");
        native::Numbers in(feed.feed());
        const native::HammingIndepResult r = native::hamming_indep(in, f.p, 1);
        if (!r.ran) continue;
        // The largest expected count: n Prob[L / 2]^2, Prob[L / 2] = C(L, L / 2) 2^-L.
        const int L = f.p.L;
        const double top = std::exp(std::lgamma(L + 1.0) - std::lgamma(L / 2 + 1.0)
            - std::lgamma(L - L / 2 + 1.0) - L * std::log(2.0));
        const double most = static_cast<double>(f.p.n) * top * top;
        if (most < gofs_MinExpected) {
            EXPECT_EQ(r.liber, 1) << f.name;
            ++two;
        } else if (most > 2 * gofs_MinExpected) {
            EXPECT_GT(r.liber, 1) << f.name;
            ++many;
        }
    }
    EXPECT_GE(two, 2);
    EXPECT_GE(many, 10);
}

TEST(HammingIndepParams, RefusesInvalidParameters)
{
    HarnessFeed feed("mt19937");
    native::Numbers in(feed.feed());
    EXPECT_THROW(native::hamming_indep(in, P(1, 1000, 10, 23, 30)), std::invalid_argument);
    EXPECT_THROW(native::hamming_indep(in, P(1, 1000, 0, 32, 30, 9)), std::invalid_argument);
    EXPECT_THROW(native::hamming_indep(in, P(1, 1000, 0, 32, 5, 4)), std::invalid_argument);
    EXPECT_THROW(native::hamming_indep(in, P(0, 1000, 0, 32, 30)), std::invalid_argument);
    EXPECT_EQ(in.consumed(), 0u);
}

// What bbattery.c writes for each of this family's tests (its own copy of bbattery.c's
// parameters and names, independent of the native table).
struct BatteryRow {
    const char* battery;
    int number;
    const char* name;
    native::HammingIndepParams p;
    bool sum; // pVal2[gofw_Sum], else pVal2[gofw_Mean]
    long quick_n;
};

const std::vector<BatteryRow>& battery_rows()
{
    static const std::vector<BatteryRow> rows = {
        { "smallcrush", 9, "HammingIndep", P(1, 500000, 20, 10, 300), false, 500000 },
        { "crush", 85, "HammingIndep, L = 30", P(1, 300000000, 0, 30, 30), false, 400000 },
        { "crush", 86, "HammingIndep, L = 30", P(1, 100000000, 20, 10, 30), false, 200000 },
        { "crush", 87, "HammingIndep, L = 300", P(1, 30000000, 0, 30, 300), false, 50000 },
        { "crush", 88, "HammingIndep, L = 300", P(1, 10000000, 20, 10, 300), false, 20000 },
        { "crush", 89, "HammingIndep, L = 1200", P(1, 10000000, 0, 30, 1200), false, 5000 },
        { "crush", 90, "HammingIndep, L = 1200", P(1, 1000000, 20, 10, 1200), false, 5000 },
        { "bigcrush", 95, "HammingIndep, L=30, r=0", P(10, 30000000, 0, 3, 30), true, 5000 },
        { "bigcrush", 96, "HammingIndep, L=30, r=27", P(10, 30000000, 27, 3, 30), true, 5000 },
        { "bigcrush", 97, "HammingIndep, L=300, r=0", P(1, 30000000, 0, 4, 300), false, 10000 },
        { "bigcrush", 98, "HammingIndep, L=300, r=26", P(1, 30000000, 26, 4, 300), false, 10000 },
        { "bigcrush", 99, "HammingIndep, L=1200, r=0", P(1, 10000000, 0, 5, 1200), false, 5000 },
        { "bigcrush", 100, "HammingIndep, L=1200, r=25", P(1, 10000000, 25, 5, 1200), false, 5000 },
    };
    return rows;
}

double testu01_pvalue(HarnessFeed& feed, const BatteryRow& b, long n)
{
    native::HammingIndepParams p = b.p;
    p.n = n;
    const ResPtr res = run_testu01(feed, p);
    return res->Bas->pVal2[b.sum ? gofw_Sum : gofw_Mean];
}

TEST(HammingIndepBattery, RowsAreBbatterysRows)
{
    const std::vector<native::NativeTest> tests = native::hamming_indep_tests();
    const std::vector<native::HammingIndepRow>& rows = native::hamming_indep_rows();
    ASSERT_EQ(tests.size(), battery_rows().size());
    ASSERT_EQ(rows.size(), battery_rows().size());
    for (std::size_t i = 0; i < tests.size(); ++i) {
        const BatteryRow& b = battery_rows()[i];
        EXPECT_STREQ(tests[i].battery, b.battery);
        EXPECT_EQ(tests[i].number, b.number);
        EXPECT_STREQ(rows[i].battery, b.battery);
        EXPECT_EQ(rows[i].number, b.number);
        EXPECT_STREQ(rows[i].name, b.name);
        EXPECT_EQ(rows[i].sum, b.sum);
        EXPECT_EQ(rows[i].params.N, b.p.N);
        EXPECT_EQ(rows[i].params.n, b.p.n);
        EXPECT_EQ(rows[i].params.r, b.p.r);
        EXPECT_EQ(rows[i].params.s, b.p.s);
        EXPECT_EQ(rows[i].params.L, b.p.L);
        EXPECT_EQ(rows[i].params.d, b.p.d);
    }
}

class HammingIndepRow : public testing::TestWithParam<std::tuple<std::size_t, std::string>> { };

// Each registered row against TestU01's function with bbattery.c's parameters: the row's own
// run at the battery's n for SmallCrush (and for every row with RNGVET_NATIVE_FULL=1), the same
// row at a quick n otherwise.
TEST_P(HammingIndepRow, PValueAsBbatteryWritesIt)
{
    const std::size_t i = std::get<0>(GetParam());
    const std::string generator = std::get<1>(GetParam());
    const BatteryRow& b = battery_rows()[i];
    const std::vector<native::NativeTest> tests = native::hamming_indep_tests();
    ASSERT_LT(i, tests.size());
    const bool whole = rngvet_test::native_full_size() || std::string(b.battery) == "smallcrush";
    const long n = whole ? b.p.n : b.quick_n;

    HarnessFeed feed1(generator);
    const double expected = testu01_pvalue(feed1, b, n);

    HarnessFeed feed2(generator);
    std::vector<native::NativeStatistic> got;
    {
        native::Numbers in(feed2.feed());
        got = whole ? tests[i].run(in)
                    : native::run_hamming_indep_row(in, native::hamming_indep_rows()[i], n);
    }
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].name, b.name);
    EXPECT_TRUE(same_bits(expected, got[0].pvalue));
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
}

INSTANTIATE_TEST_SUITE_P(Batteries, HammingIndepRow,
    testing::Combine(
        testing::Range<std::size_t>(0, 13), testing::ValuesIn(rngvet_test::harness_generators())),
    [](const testing::TestParamInfo<std::tuple<std::size_t, std::string>>& i) {
        const BatteryRow& b = battery_rows()[std::get<0>(i.param)];
        return std::string(b.battery) + std::to_string(b.number) + "_" + std::get<1>(i.param);
    });

// Timing of the SmallCrush form (not an assertion): RNGVET_NATIVE_TIMING=1 prints TestU01's
// time and the native time with 1 and 2 threads.
TEST(HammingIndepTiming, SmallCrushForm)
{
    const char* v = std::getenv("RNGVET_NATIVE_TIMING");
    if (v == nullptr || std::string(v) != "1") GTEST_SKIP() << "RNGVET_NATIVE_TIMING=1 to time";
    const native::HammingIndepParams p = P(1, 500000, 20, 10, 300);
    using clock = std::chrono::steady_clock;
    for (const std::string g : { "mt19937", "ranmar24" }) {
        double tu = 1e9, t1 = 1e9, t2 = 1e9;
        for (int rep = 0; rep < 3; ++rep) {
            HarnessFeed f0(g);
            auto a = clock::now();
            run_testu01(f0, p);
            tu = std::min(tu, std::chrono::duration<double>(clock::now() - a).count());
            for (int threads : { 1, 2 }) {
                HarnessFeed f(g);
                native::Numbers in(f.feed());
                a = clock::now();
                native::hamming_indep(in, p, threads);
                const double t = std::chrono::duration<double>(clock::now() - a).count();
                (threads == 1 ? t1 : t2) = std::min(threads == 1 ? t1 : t2, t);
            }
        }
        // The stream alone: the numbers the test reads, read and dropped.
        double tr = 1e9;
        for (int rep = 0; rep < 3; ++rep) {
            HarnessFeed f(g);
            native::Numbers in(f.feed());
            std::vector<std::uint64_t> buf(std::size_t(1) << 20);
            const auto a = clock::now();
            for (std::size_t left = 30000000; left > 0;) {
                const std::size_t k = std::min(left, buf.size());
                in.read(buf.data(), k);
                left -= k;
            }
            tr = std::min(tr, std::chrono::duration<double>(clock::now() - a).count());
        }
        std::printf("%s SmallCrush HammingIndep: TestU01 %.3f s, native 1 thread %.3f s, "
                    "2 threads %.3f s (reading the numbers alone %.3f s)\n",
            g.c_str(), tu, t1, t2, tr);
    }
}

} // namespace
