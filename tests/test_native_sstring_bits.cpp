// Exactness of the native tests of this family against TestU01's own functions
// (native_support.hpp): sstring_LongestHeadRun, sstring_PeriodsInStrings, sstring_HammingWeight2
// and sstring_HammingCorr (batteries/native/sstring_bits.hpp) on the same stream as TestU01's,
// every field of their result records compared (doubles as bits) and the numbers consumed
// counted. Then the battery rows of Crush and BigCrush: bbattery.c's parameters and names, and
// the p-values TestU01's function gives, at a quick size (the rows' own size with
// RNGVET_NATIVE_FULL=1).
#include "batteries/native/families.hpp"
#include "batteries/native/sstring_bits.hpp"
#include "native_support.hpp"

#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

extern "C" {
#include <testu01/gofw.h>
#include <testu01/sres.h>
#include <testu01/sstring.h>
#include <testu01/statcoll.h>
}

namespace native = rngvet::native;
using rngvet_test::same_bits;

namespace {

// A stream of mostly all-ones words: runs of ones that cover whole sequences and blocks, the
// extreme weights, and the joining of runs across sequences and replications.
class MostlyOnes : public rngvet::Stream {
public:
    int bits() const override { return 32; }
    void fill(std::uint64_t* out, std::size_t n) override
    {
        for (std::size_t i = 0; i < n; ++i) {
            x_ = 6364136223846793005ull * x_ + 1442695040888963407ull;
            const std::uint32_t hi = static_cast<std::uint32_t>(x_ >> 32);
            out[i] = (hi & 0x3Fu) == 0 ? hi : 0xFFFFFFFFu;
        }
    }
    std::string name() const override { return "ones"; }

private:
    std::uint64_t x_ = 12345;
};

// A feed on a harness generator, or on MostlyOnes for "ones".
class Feed {
public:
    explicit Feed(const std::string& generator)
    {
        if (generator == "ones")
            stream_ = std::make_unique<MostlyOnes>();
        else
            stream_ = rngvet_test::harness_stream(generator);
        feed_ = std::make_unique<rngvet::TestU01Generator>(*stream_, generator);
        swrite_Basic = FALSE;
    }
    unif01_Gen* gen() { return feed_->get(); }
    rngvet::TestU01Generator& feed() { return *feed_; }
    std::uint64_t consumed() const { return feed_->consumed(); }

private:
    std::unique_ptr<rngvet::Stream> stream_;
    std::unique_ptr<rngvet::TestU01Generator> feed_;
};

std::vector<std::string> generators()
{
    std::vector<std::string> g = rngvet_test::harness_generators();
    g.push_back("ones");
    return g;
}

void expect_same_collector(
    const statcoll_Collector* t, const statcoll_Collector* n, const std::string& what)
{
    ASSERT_EQ(t->NObs, n->NObs) << what;
    for (long i = 1; i <= t->NObs; ++i)
        EXPECT_TRUE(same_bits(t->V[i], n->V[i])) << what << " observation " << i;
}

void expect_same_tests(
    const double* ts, const double* tp, const double* ns, const double* np, const std::string& what)
{
    for (int k = 0; k < gofw_NTestTypes; ++k) {
        EXPECT_TRUE(same_bits(ts[k], ns[k])) << what << " sVal2[" << gofw_TestNames[k] << "]";
        EXPECT_TRUE(same_bits(tp[k], np[k])) << what << " pVal2[" << gofw_TestNames[k] << "]";
    }
}

void expect_same_basic(const sres_Basic* t, const sres_Basic* n, const std::string& what)
{
    expect_same_collector(t->sVal1, n->sVal1, what + " sVal1");
    EXPECT_EQ(t->pVal1->NObs, n->pVal1->NObs) << what;
    expect_same_tests(t->sVal2, t->pVal2, n->sVal2, n->pVal2, what);
}

void expect_same_chi2(const sres_Chi2* t, const sres_Chi2* n, const std::string& what)
{
    EXPECT_EQ(t->degFree, n->degFree) << what;
    if (t->degFree < 1) return;
    ASSERT_EQ(t->jmin, n->jmin) << what;
    ASSERT_EQ(t->jmax, n->jmax) << what;
    for (long j = t->jmin; j <= t->jmax; ++j) {
        EXPECT_TRUE(same_bits(t->NbExp[j], n->NbExp[j])) << what << " NbExp[" << j << "]";
        EXPECT_EQ(t->Loc[j], n->Loc[j]) << what << " Loc[" << j << "]";
        EXPECT_EQ(t->Count[j], n->Count[j]) << what << " Count[" << j << "]";
    }
    expect_same_collector(t->sVal1, n->sVal1, what + " sVal1");
    EXPECT_EQ(t->pVal1->NObs, n->pVal1->NObs) << what;
    expect_same_tests(t->sVal2, t->pVal2, n->sVal2, n->pVal2, what);
}

// ---------------------------------------------------------------- one test on one stream

struct Params {
    native::SstringBitsTest test;
    long N, n;
    int r, s;
    long L;
};

std::string describe(const Params& p)
{
    static const char* names[]
        = { "LongestHeadRun", "PeriodsInStrings", "HammingWeight2", "HammingCorr" };
    return std::string(names[static_cast<int>(p.test)]) + " N=" + std::to_string(p.N)
        + " n=" + std::to_string(p.n) + " r=" + std::to_string(p.r) + " s=" + std::to_string(p.s)
        + " L=" + std::to_string(p.L);
}

// TestU01's function on one feed, the native one on another of the same generator: equal in
// every field and in the numbers consumed.
void expect_exact(const std::string& generator, const Params& p, int threads)
{
    SCOPED_TRACE(describe(p) + " on " + generator + ", threads " + std::to_string(threads));
    Feed f1(generator), f2(generator);
    switch (p.test) {
    case native::SstringBitsTest::LongestHeadRun: {
        sstring_Res2* t = sstring_CreateRes2();
        sstring_Res2* n = sstring_CreateRes2();
        sstring_LongestHeadRun(f1.gen(), t, p.N, p.n, p.r, p.s, p.L);
        {
            native::Numbers in(f2.feed());
            native::longest_head_run(in, n, p.N, p.n, p.r, p.s, p.L, threads);
        }
        expect_same_chi2(t->Chi, n->Chi, "Chi");
        if (t->Chi->degFree > 0) {
            expect_same_collector(t->Disc->sVal1, n->Disc->sVal1, "Disc sVal1");
            EXPECT_TRUE(same_bits(t->Disc->sVal2, n->Disc->sVal2)) << "Disc sVal2";
            EXPECT_TRUE(same_bits(t->Disc->pLeft, n->Disc->pLeft)) << "Disc pLeft";
            EXPECT_TRUE(same_bits(t->Disc->pRight, n->Disc->pRight)) << "Disc pRight";
            EXPECT_TRUE(same_bits(t->Disc->pVal2, n->Disc->pVal2)) << "Disc pVal2";
        }
        sstring_DeleteRes2(t);
        sstring_DeleteRes2(n);
        break;
    }
    case native::SstringBitsTest::PeriodsInStrings: {
        sres_Chi2* t = sres_CreateChi2();
        sres_Chi2* n = sres_CreateChi2();
        sstring_PeriodsInStrings(f1.gen(), t, p.N, p.n, p.r, p.s);
        {
            native::Numbers in(f2.feed());
            native::periods_in_strings(in, n, p.N, p.n, p.r, p.s, threads);
        }
        expect_same_chi2(t, n, "Chi2");
        sres_DeleteChi2(t);
        sres_DeleteChi2(n);
        break;
    }
    case native::SstringBitsTest::HammingWeight2: {
        sres_Basic* t = sres_CreateBasic();
        sres_Basic* n = sres_CreateBasic();
        sstring_HammingWeight2(f1.gen(), t, p.N, p.n, p.r, p.s, p.L);
        {
            native::Numbers in(f2.feed());
            native::hamming_weight2(in, n, p.N, p.n, p.r, p.s, p.L, threads);
        }
        expect_same_basic(t, n, "Basic");
        sres_DeleteBasic(t);
        sres_DeleteBasic(n);
        break;
    }
    case native::SstringBitsTest::HammingCorr: {
        sstring_Res* t = sstring_CreateRes();
        sres_Basic* n = sres_CreateBasic();
        std::vector<long> counters;
        const int L = static_cast<int>(p.L);
        sstring_HammingCorr(f1.gen(), t, p.N, p.n, p.r, p.s, L);
        {
            native::Numbers in(f2.feed());
            native::hamming_corr(in, n, &counters, p.N, p.n, p.r, p.s, L, threads);
        }
        const std::size_t row = static_cast<std::size_t>(L) + 1;
        ASSERT_EQ(counters.size(), row * row);
        for (int i = 0; i <= L; ++i)
            for (int j = 0; j <= L; ++j)
                ASSERT_EQ(t->Counters[i][j],
                    counters[static_cast<std::size_t>(i) * row + static_cast<std::size_t>(j)])
                    << "Counters[" << i << "][" << j << "]";
        expect_same_basic(t->Bas, n, "Bas");
        sstring_DeleteRes(t);
        sres_DeleteBasic(n);
        break;
    }
    }
    EXPECT_EQ(f1.consumed(), f2.consumed());
}

// ---------------------------------------------------------------- forms

struct Form {
    std::string name;
    Params p;
};

std::vector<Form> forms()
{
    using T = native::SstringBitsTest;
    std::vector<Form> f = {
        // The batteries' forms at a quick size: LongestHeadRun with fewer and shorter
        // sequences, the others with a smaller n.
        { "lhr_crush76", { T::LongestHeadRun, 1, 300, 0, 30, 3000 } },
        { "lhr_crush77", { T::LongestHeadRun, 1, 300, 20, 10, 3000 } },
        { "lhr_bigcrush86", { T::LongestHeadRun, 1, 200, 0, 3, 6000 } },
        { "lhr_bigcrush87", { T::LongestHeadRun, 1, 200, 27, 3, 6000 } },
        // Several replications (runs joined across them), L not a multiple of s, s = 32 and 1,
        // too few sequences for two classes (nothing read).
        { "lhr_N3", { T::LongestHeadRun, 3, 150, 2, 29, 1030 } },
        { "lhr_s32", { T::LongestHeadRun, 2, 200, 0, 32, 1024 } },
        { "lhr_s1", { T::LongestHeadRun, 1, 100, 31, 1, 1500 } },
        { "lhr_s7_long", { T::LongestHeadRun, 2, 15, 5, 7, 70000 } },
        { "lhr_one_class", { T::LongestHeadRun, 1, 5, 0, 30, 1020 } },

        { "pis_crush78", { T::PeriodsInStrings, 1, 100000, 0, 30, 0 } },
        { "pis_crush79", { T::PeriodsInStrings, 1, 100000, 15, 15, 0 } },
        { "pis_bigcrush88", { T::PeriodsInStrings, 3, 40000, 0, 10, 0 } },
        { "pis_bigcrush89", { T::PeriodsInStrings, 3, 40000, 20, 10, 0 } },
        { "pis_s31", { T::PeriodsInStrings, 1, 100000, 0, 31, 0 } },
        { "pis_s2", { T::PeriodsInStrings, 2, 1000, 29, 2, 0 } },
        { "pis_s21", { T::PeriodsInStrings, 2, 25000, 3, 21, 0 } },
        { "pis_s20", { T::PeriodsInStrings, 1, 25000, 11, 20, 0 } },
        { "pis_small_n", { T::PeriodsInStrings, 2, 50, 0, 12, 0 } },

        { "hw2_crush80", { T::HammingWeight2, 5, 300000, 0, 30, 10000 } },
        { "hw2_crush81", { T::HammingWeight2, 4, 100000, 20, 10, 10000 } },
        { "hw2_bigcrush90", { T::HammingWeight2, 3, 150000, 0, 3, 10000 } },
        { "hw2_bigcrush91", { T::HammingWeight2, 3, 150000, 27, 3, 10000 } },
        // L = s, L < s with s % L > 0 and K % (s / L) > 0 (blocks past n / L summed), L = 2.
        { "hw2_L_eq_s", { T::HammingWeight2, 2, 200000, 0, 32, 32 } },
        { "hw2_short", { T::HammingWeight2, 3, 100003, 1, 31, 7 } },
        { "hw2_L2", { T::HammingWeight2, 2, 100001, 0, 32, 2 } },
        { "hw2_block_spans_chunks", { T::HammingWeight2, 1, 1100000, 0, 1, 1050000 } },
        { "hw2_rest", { T::HammingWeight2, 2, 200000, 4, 13, 1003 } },

        { "hc_crush82", { T::HammingCorr, 1, 150000, 0, 30, 30 } },
        { "hc_crush83", { T::HammingCorr, 1, 15000, 0, 30, 300 } },
        { "hc_crush84", { T::HammingCorr, 1, 2000, 0, 30, 1200 } },
        { "hc_bigcrush92", { T::HammingCorr, 1, 50000, 10, 10, 30 } },
        { "hc_bigcrush93", { T::HammingCorr, 1, 5000, 10, 10, 300 } },
        { "hc_bigcrush94", { T::HammingCorr, 1, 600, 10, 10, 1200 } },
        // Several replications, L < s with a last partial number, L = 1, two blocks (one pair).
        { "hc_N3_short", { T::HammingCorr, 3, 100001, 0, 32, 3 } },
        { "hc_short_s30_L7", { T::HammingCorr, 2, 60002, 2, 30, 7 } },
        { "hc_L1", { T::HammingCorr, 1, 100001, 0, 32, 1 } },
        { "hc_two_blocks", { T::HammingCorr, 2, 2, 0, 32, 64 } },
        { "hc_rest", { T::HammingCorr, 2, 10000, 3, 11, 45 } },
    };
    // Deterministic draws within the valid ranges, about a million numbers or fewer each.
    std::uint64_t x = 0x2545F4914F6CDD1Dull;
    auto draw = [&x](long lo, long hi) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        return lo + static_cast<long>((x >> 33) % static_cast<std::uint64_t>(hi - lo + 1));
    };
    for (int k = 0; k < 4; ++k) {
        const int r = static_cast<int>(draw(0, 31));
        const int s = static_cast<int>(draw(1, 32 - r));
        const long L = draw(1032, 20000);
        const long N = draw(1, 3);
        const long n = draw(100, std::max(101L, 60000 / (N * (L / s))));
        f.push_back({ "lhr_draw" + std::to_string(k), { T::LongestHeadRun, N, n, r, s, L } });
    }
    for (int k = 0; k < 4; ++k) {
        const int r = static_cast<int>(draw(0, 29));
        const int s = static_cast<int>(draw(2, 31 - r));
        const long N = draw(1, 3);
        f.push_back({ "pis_draw" + std::to_string(k),
            { T::PeriodsInStrings, N, draw(100, 100000 / N), r, s, 0 } });
    }
    for (int k = 0; k < 4; ++k) {
        const int r = static_cast<int>(draw(0, 31));
        const int s = static_cast<int>(draw(1, 32 - r));
        const long L = k % 2 == 0 ? draw(2, 64) : draw(2, 5000);
        const long N = draw(1, 4);
        const long n = draw(L, std::max(L, 80000L * std::min<long>(s, L) / N));
        f.push_back({ "hw2_draw" + std::to_string(k), { T::HammingWeight2, N, n, r, s, L } });
    }
    for (int k = 0; k < 4; ++k) {
        const int r = static_cast<int>(draw(0, 31));
        const int s = static_cast<int>(draw(1, 32 - r));
        const long L = k % 2 == 0 ? draw(1, 40) : draw(1, 400);
        const long N = draw(1, 3);
        const long words_per_block = L >= s ? L / s + 1 : 1;
        const long n = draw(2, std::max(3L, 80000 / (N * words_per_block)));
        f.push_back({ "hc_draw" + std::to_string(k), { T::HammingCorr, N, n, r, s, L } });
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
        for (const std::string& g : generators())
            c.push_back({ f, g });
    return c;
}

void PrintTo(const Case& c, std::ostream* o)
{
    *o << c.form.name << " on " << c.generator;
}

class SstringBitsExact : public testing::TestWithParam<Case> { };

TEST_P(SstringBitsExact, SameAsTestU01)
{
    expect_exact(GetParam().generator, GetParam().form.p, 2);
}

INSTANTIATE_TEST_SUITE_P(
    Forms, SstringBitsExact, testing::ValuesIn(cases()), [](const testing::TestParamInfo<Case>& i) {
        return i.param.form.name + "_" + i.param.generator;
    });

// The thread count changes nothing.
TEST(SstringBitsThreads, SameForAnyCount)
{
    for (const Form& f : forms()) {
        if (f.name != "lhr_crush77" && f.name != "pis_crush78" && f.name != "hw2_crush80"
            && f.name != "hw2_short" && f.name != "hc_crush83" && f.name != "hc_N3_short")
            continue;
        for (int threads : { 1, 3 })
            expect_exact("mt19937", f.p, threads);
    }
}

// Forms of more than a million numbers (the native reader's chunk): sequences, blocks and pairs
// of successive blocks that cross from one chunk to the next.
TEST(SstringBitsChunks, AcrossChunks)
{
    using T = native::SstringBitsTest;
    const std::vector<Params> across = {
        { T::LongestHeadRun, 1, 110, 0, 30, 300000 },
        { T::LongestHeadRun, 2, 55, 3, 7, 70001 },
        { T::PeriodsInStrings, 1, 1100000, 0, 30, 0 },
        { T::HammingCorr, 1, 1100000, 0, 30, 30 },
        { T::HammingCorr, 1, 110000, 2, 30, 300 },
        { T::HammingCorr, 1, 11000003, 0, 32, 3 },
    };
    for (const Params& p : across)
        expect_exact("mt19937", p, 2);
}

// CreateCorr's list, as built natively, holds every correlation of s-bit strings once with the
// number of strings that have it: checked by enumerating all strings of up to 8 bits. (Its
// order is TestU01's: the forms above compare the classes built from it.)
TEST(SstringBitsPeriods, CorrelationListCountsEveryString)
{
    for (int s = 2; s <= 8; ++s) {
        std::map<std::uint32_t, long> seen;
        for (std::uint32_t v = 0; v < (std::uint32_t(1) << s); ++v) {
            std::uint32_t c = 1;
            for (int k = 1; k < s; ++k) {
                const std::uint32_t low = (std::uint32_t(1) << (s - k)) - 1;
                if ((v & low) == (v >> k)) c |= std::uint32_t(1) << k;
            }
            ++seen[c];
        }
        // Fraction 1 gives the populations themselves as NbExp of a run with n = 2^s; the
        // classes are read back from a PeriodsInStrings result with no merging needed.
        long total = 0;
        for (const auto& e : seen)
            total += e.second;
        EXPECT_EQ(total, 1L << s);
        sres_Chi2* res = sres_CreateChi2();
        Feed feed("mt19937");
        native::Numbers in(feed.feed());
        // n = 2^s * 10 * 2^s: every class expects at least 10, none merged.
        const long n = (1L << s) * 10 * (1L << s);
        native::periods_in_strings(in, res, 1, n, 0, s, 2);
        ASSERT_EQ(res->jmax - res->jmin + 1, static_cast<long>(seen.size())) << "s=" << s;
        std::map<long, long> pops, expected;
        for (long j = res->jmin; j <= res->jmax; ++j)
            ++pops[static_cast<long>(res->NbExp[j] / (static_cast<double>(n) / (1L << s)))];
        for (const auto& e : seen)
            ++expected[e.second];
        EXPECT_EQ(pops, expected) << "s=" << s;
        sres_DeleteChi2(res);
    }
}

TEST(SstringBitsParams, RefusesInvalidParameters)
{
    Feed feed("mt19937");
    native::Numbers in(feed.feed());
    sstring_Res2* r2 = sstring_CreateRes2();
    EXPECT_THROW(native::longest_head_run(in, r2, 1, 100, 0, 30, 999), std::invalid_argument);
    EXPECT_THROW(native::longest_head_run(in, r2, 1, 100, 3, 30, 2000), std::invalid_argument);
    sstring_DeleteRes2(r2);
    sres_Chi2* c = sres_CreateChi2();
    EXPECT_THROW(native::periods_in_strings(in, c, 1, 1000, 0, 32), std::invalid_argument);
    EXPECT_THROW(native::periods_in_strings(in, c, 1, 1000, 0, 1), std::invalid_argument);
    sres_DeleteChi2(c);
    sres_Basic* b = sres_CreateBasic();
    EXPECT_THROW(native::hamming_weight2(in, b, 1, 100, 0, 32, 101), std::invalid_argument);
    EXPECT_THROW(native::hamming_weight2(in, b, 1, 100, 0, 32, 1), std::invalid_argument);
    EXPECT_THROW(native::hamming_corr(in, b, nullptr, 1, 100, 5, 30, 30), std::invalid_argument);
    EXPECT_THROW(native::hamming_corr(in, b, nullptr, 1, 100, 0, 30, 0), std::invalid_argument);
    sres_DeleteBasic(b);
    EXPECT_EQ(in.consumed(), 0u);
}

// ---------------------------------------------------------------- battery rows

// bbattery.c's calls, its own copy here (independent of the native table).
struct BatteryRow {
    const char* battery;
    int number;
    native::SstringBitsTest test;
    long N, n;
    int r, s;
    long L;
    const char* name;
    int pick;
    long quick_n, quick_L; // quick_L: LongestHeadRun's and HammingWeight2's L at the quick size
};

const std::vector<BatteryRow>& battery_rows()
{
    using T = native::SstringBitsTest;
    static const std::vector<BatteryRow> rows = {
        { "crush", 76, T::LongestHeadRun, 1, 1000, 0, 30, 20 + 10000000, "LongestHeadRun, r = 0",
            gofw_Mean, 200, 2000 },
        { "crush", 77, T::LongestHeadRun, 1, 300, 20, 10, 20 + 10000000, "LongestHeadRun, r = 20",
            gofw_Mean, 200, 2000 },
        { "crush", 78, T::PeriodsInStrings, 1, 300000000, 0, 30, 0, "PeriodsInStrings, r = 0",
            gofw_Mean, 100000, 0 },
        { "crush", 79, T::PeriodsInStrings, 1, 300000000, 15, 15, 0, "PeriodsInStrings, r = 15",
            gofw_Mean, 100000, 0 },
        { "crush", 80, T::HammingWeight2, 100, 100000000, 0, 30, 1000000, "HammingWeight2, r = 0",
            gofw_Sum, 20000, 10000 },
        { "crush", 81, T::HammingWeight2, 30, 100000000, 20, 10, 1000000, "HammingWeight2, r = 20",
            gofw_Sum, 20000, 10000 },
        { "crush", 82, T::HammingCorr, 1, 500000000, 0, 30, 30, "HammingCorr, L = 30", gofw_Mean,
            100000, 0 },
        { "crush", 83, T::HammingCorr, 1, 50000000, 0, 30, 300, "HammingCorr, L = 300", gofw_Mean,
            10000, 0 },
        { "crush", 84, T::HammingCorr, 1, 10000000, 0, 30, 1200, "HammingCorr, L = 1200", gofw_Mean,
            3000, 0 },
        { "bigcrush", 86, T::LongestHeadRun, 1, 1000, 0, 3, 20 + 10000000, "LongestHeadRun, r = 0",
            gofw_Mean, 200, 2000 },
        { "bigcrush", 87, T::LongestHeadRun, 1, 1000, 27, 3, 20 + 10000000,
            "LongestHeadRun, r = 27", gofw_Mean, 200, 2000 },
        { "bigcrush", 88, T::PeriodsInStrings, 10, 500000000, 0, 10, 0, "PeriodsInStrings, r = 0",
            gofw_Sum, 5000, 0 },
        { "bigcrush", 89, T::PeriodsInStrings, 10, 500000000, 20, 10, 0, "PeriodsInStrings, r = 20",
            gofw_Sum, 5000, 0 },
        { "bigcrush", 90, T::HammingWeight2, 10, 1000000000, 0, 3, 1000000, "HammingWeight2, r = 0",
            gofw_Sum, 20000, 10000 },
        { "bigcrush", 91, T::HammingWeight2, 10, 1000000000, 27, 3, 1000000,
            "HammingWeight2, r = 27", gofw_Sum, 20000, 10000 },
        { "bigcrush", 92, T::HammingCorr, 1, 1000000000, 10, 10, 30, "HammingCorr, L = 30",
            gofw_Mean, 30000, 0 },
        { "bigcrush", 93, T::HammingCorr, 1, 100000000, 10, 10, 300, "HammingCorr, L = 300",
            gofw_Mean, 3000, 0 },
        { "bigcrush", 94, T::HammingCorr, 1, 100000000, 10, 10, 1200, "HammingCorr, L = 1200",
            gofw_Mean, 1000, 0 },
    };
    return rows;
}

// The p-values bbattery.c writes for a row, from TestU01's function, at n (and L).
std::vector<double> testu01_pvalues(Feed& feed, const BatteryRow& b, long n, long L)
{
    switch (b.test) {
    case native::SstringBitsTest::LongestHeadRun: {
        sstring_Res2* res = sstring_CreateRes2();
        sstring_LongestHeadRun(feed.gen(), res, b.N, n, b.r, b.s, L);
        std::vector<double> p{ res->Chi->pVal2[b.pick], res->Disc->pVal2 };
        sstring_DeleteRes2(res);
        return p;
    }
    case native::SstringBitsTest::PeriodsInStrings: {
        sres_Chi2* res = sres_CreateChi2();
        sstring_PeriodsInStrings(feed.gen(), res, b.N, n, b.r, b.s);
        std::vector<double> p{ res->pVal2[b.pick] };
        sres_DeleteChi2(res);
        return p;
    }
    case native::SstringBitsTest::HammingWeight2: {
        sres_Basic* res = sres_CreateBasic();
        sstring_HammingWeight2(feed.gen(), res, b.N, n, b.r, b.s, L);
        std::vector<double> p{ res->pVal2[b.pick] };
        sres_DeleteBasic(res);
        return p;
    }
    case native::SstringBitsTest::HammingCorr: {
        sstring_Res* res = sstring_CreateRes();
        sstring_HammingCorr(feed.gen(), res, b.N, n, b.r, b.s, static_cast<int>(L));
        std::vector<double> p{ res->Bas->pVal2[b.pick] };
        sstring_DeleteRes(res);
        return p;
    }
    }
    return {};
}

TEST(SstringBitsBattery, RowsAreBbatterysRows)
{
    const std::vector<native::NativeTest> tests = native::sstring_bits_tests();
    const std::vector<native::SstringBitsRow>& rows = native::sstring_bits_rows();
    ASSERT_EQ(tests.size(), battery_rows().size());
    ASSERT_EQ(rows.size(), battery_rows().size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const BatteryRow& b = battery_rows()[i];
        EXPECT_STREQ(tests[i].battery, b.battery);
        EXPECT_EQ(tests[i].number, b.number);
        EXPECT_STREQ(rows[i].battery, b.battery);
        EXPECT_EQ(rows[i].number, b.number);
        EXPECT_TRUE(rows[i].test == b.test) << b.number;
        EXPECT_EQ(rows[i].N, b.N) << b.number;
        EXPECT_EQ(rows[i].n, b.n) << b.number;
        EXPECT_EQ(rows[i].r, b.r) << b.number;
        EXPECT_EQ(rows[i].s, b.s) << b.number;
        EXPECT_EQ(rows[i].L, b.L) << b.number;
        EXPECT_STREQ(rows[i].name, b.name);
        EXPECT_EQ(rows[i].pick, b.pick) << b.number;
    }
}

class SstringBitsRow : public testing::TestWithParam<std::tuple<std::size_t, std::string>> { };

// Each registered row against TestU01's function with bbattery.c's parameters: the row's own
// run with RNGVET_NATIVE_FULL=1, the same row at a quick size otherwise.
TEST_P(SstringBitsRow, PValuesAsBbatteryWritesThem)
{
    const std::size_t i = std::get<0>(GetParam());
    const std::string generator = std::get<1>(GetParam());
    const BatteryRow& b = battery_rows()[i];
    const std::vector<native::NativeTest> tests = native::sstring_bits_tests();
    ASSERT_LT(i, tests.size());
    const bool whole = rngvet_test::native_full_size();
    const long n = whole ? b.n : b.quick_n;
    const long L = whole || b.quick_L == 0 ? b.L : b.quick_L;

    Feed f1(generator);
    const std::vector<double> expected = testu01_pvalues(f1, b, n, L);

    Feed f2(generator);
    std::vector<native::NativeStatistic> got;
    {
        native::Numbers in(f2.feed());
        got = whole
            ? tests[i].run(in)
            : native::sstring_bits_statistics(in, native::sstring_bits_rows()[i], n, b.quick_L, 2);
    }
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t k = 0; k < got.size(); ++k) {
        EXPECT_EQ(got[k].name, b.name);
        EXPECT_TRUE(same_bits(expected[k], got[k].pvalue)) << "p-value " << k;
    }
    EXPECT_EQ(f1.consumed(), f2.consumed());
}

INSTANTIATE_TEST_SUITE_P(Batteries, SstringBitsRow,
    testing::Combine(
        testing::Range<std::size_t>(0, 18), testing::ValuesIn(rngvet_test::harness_generators())),
    [](const testing::TestParamInfo<std::tuple<std::size_t, std::string>>& i) {
        const BatteryRow& b = battery_rows()[std::get<0>(i.param)];
        return std::string(b.battery) + std::to_string(b.number) + "_" + std::get<1>(i.param);
    });

// Timing of one form per test (not an assertion): RNGVET_NATIVE_TIMING=1 prints TestU01's time
// and the native time with 1 and 2 threads on mt19937.
TEST(SstringBitsTiming, QuickForms)
{
    const char* v = std::getenv("RNGVET_NATIVE_TIMING");
    if (v == nullptr || std::string(v) != "1") GTEST_SKIP() << "RNGVET_NATIVE_TIMING=1 to time";
    using T = native::SstringBitsTest;
    using clock = std::chrono::steady_clock;
    const std::vector<std::pair<std::string, Params>> timed = {
        { "LongestHeadRun crush76, n = 30", { T::LongestHeadRun, 1, 30, 0, 30, 10000020 } },
        { "LongestHeadRun crush77, n = 30", { T::LongestHeadRun, 1, 30, 20, 10, 10000020 } },
        { "PeriodsInStrings crush78, n = 1e7", { T::PeriodsInStrings, 1, 10000000, 0, 30, 0 } },
        { "PeriodsInStrings bigcrush88, N = 1, n = 1e7",
            { T::PeriodsInStrings, 1, 10000000, 0, 10, 0 } },
        { "HammingWeight2 crush80, N = 3", { T::HammingWeight2, 3, 100000000, 0, 30, 1000000 } },
        { "HammingWeight2 bigcrush90, N = 1, n = 3e7",
            { T::HammingWeight2, 1, 30000000, 0, 3, 1000000 } },
        { "HammingCorr crush82, n = 1e7", { T::HammingCorr, 1, 10000000, 0, 30, 30 } },
        { "HammingCorr bigcrush94, n = 1e6", { T::HammingCorr, 1, 1000000, 10, 10, 1200 } },
    };
    for (const auto& [label, p] : timed) {
        double seconds[3];
        for (int k = 0; k < 3; ++k) {
            Feed f("mt19937");
            const auto a = clock::now();
            if (k == 0) {
                switch (p.test) {
                case T::LongestHeadRun: {
                    sstring_Res2* res = sstring_CreateRes2();
                    sstring_LongestHeadRun(f.gen(), res, p.N, p.n, p.r, p.s, p.L);
                    sstring_DeleteRes2(res);
                    break;
                }
                case T::PeriodsInStrings: {
                    sres_Chi2* res = sres_CreateChi2();
                    sstring_PeriodsInStrings(f.gen(), res, p.N, p.n, p.r, p.s);
                    sres_DeleteChi2(res);
                    break;
                }
                case T::HammingWeight2: {
                    sres_Basic* res = sres_CreateBasic();
                    sstring_HammingWeight2(f.gen(), res, p.N, p.n, p.r, p.s, p.L);
                    sres_DeleteBasic(res);
                    break;
                }
                case T::HammingCorr: {
                    sstring_Res* res = sstring_CreateRes();
                    sstring_HammingCorr(f.gen(), res, p.N, p.n, p.r, p.s, static_cast<int>(p.L));
                    sstring_DeleteRes(res);
                    break;
                }
                }
            } else {
                native::Numbers in(f.feed());
                const int threads = k;
                switch (p.test) {
                case T::LongestHeadRun: {
                    sstring_Res2* res = sstring_CreateRes2();
                    native::longest_head_run(in, res, p.N, p.n, p.r, p.s, p.L, threads);
                    sstring_DeleteRes2(res);
                    break;
                }
                case T::PeriodsInStrings: {
                    sres_Chi2* res = sres_CreateChi2();
                    native::periods_in_strings(in, res, p.N, p.n, p.r, p.s, threads);
                    sres_DeleteChi2(res);
                    break;
                }
                case T::HammingWeight2: {
                    sres_Basic* res = sres_CreateBasic();
                    native::hamming_weight2(in, res, p.N, p.n, p.r, p.s, p.L, threads);
                    sres_DeleteBasic(res);
                    break;
                }
                case T::HammingCorr: {
                    sres_Basic* res = sres_CreateBasic();
                    native::hamming_corr(
                        in, res, nullptr, p.N, p.n, p.r, p.s, static_cast<int>(p.L), threads);
                    sres_DeleteBasic(res);
                    break;
                }
                }
            }
            seconds[k] = std::chrono::duration<double>(clock::now() - a).count();
        }
        std::printf("%s: TestU01 %.3f s, native 1 thread %.3f s, 2 threads %.3f s\n", label.c_str(),
            seconds[0], seconds[1], seconds[2]);
    }
}

} // namespace
