// Exactness of the native tests of this family against TestU01's own function (native_support.hpp).
//
// smarsa_MatrixRank and its native form (batteries/native/matrix_rank.hpp) run on two feeds of
// one generator: every field of the result (expected numbers, classes, counts, the statistic of
// each replication, the p-values) must have the same bits, and both must consume the same
// numbers. The battery rows are checked against bbattery.c's calls and names; by default the
// Crush and BigCrush rows run with a smaller n (RNGVET_NATIVE_FULL=1 runs them as the
// batteries do).
#include "batteries/native/families.hpp"
#include "batteries/native/matrix_rank.hpp"
#include "native_support.hpp"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include <testu01/gofs.h>
#include <testu01/smarsa.h>
}

namespace {

using rngvet::native::MatrixRankRow;
using rngvet_test::harness_generators;
using rngvet_test::HarnessFeed;
using rngvet_test::same_bits;

struct Chi2Deleter {
    void operator()(sres_Chi2* p) const { sres_DeleteChi2(p); }
};
using Chi2 = std::unique_ptr<sres_Chi2, Chi2Deleter>;

// smarsa_MatrixRank's parameters.
struct Params {
    long N;
    long n;
    int r;
    int s;
    int l;
    int k;
};

std::string describe(const Params& p)
{
    return "N" + std::to_string(p.N) + "_n" + std::to_string(p.n) + "_r" + std::to_string(p.r)
        + "_s" + std::to_string(p.s) + "_L" + std::to_string(p.l) + "_k" + std::to_string(p.k);
}

// gofs_MinExpected for one scope (both functions read it).
class MinExpected {
public:
    explicit MinExpected(double v)
        : saved_(gofs_MinExpected)
    {
        gofs_MinExpected = v;
    }
    ~MinExpected() { gofs_MinExpected = saved_; }
    MinExpected(const MinExpected&) = delete;
    MinExpected& operator=(const MinExpected&) = delete;

private:
    double saved_;
};

// Every field of two smarsa_MatrixRank results, doubles as bits.
void expect_same_result(const sres_Chi2& t, const sres_Chi2& n, long N)
{
    ASSERT_EQ(t.jmax, n.jmax);
    EXPECT_EQ(t.jmin, n.jmin);
    EXPECT_EQ(t.degFree, n.degFree);
    const long top = t.jmax;
    // Before merging, the arrays cover 0..min(L, k); merging leaves jmax at or below it.
    for (long j = 0; j <= top; ++j) {
        EXPECT_TRUE(same_bits(t.NbExp[j], n.NbExp[j])) << "NbExp[" << j << "]";
        EXPECT_EQ(t.Loc[j], n.Loc[j]) << "Loc[" << j << "]";
        EXPECT_EQ(t.Count[j], n.Count[j]) << "Count[" << j << "]";
    }
    ASSERT_EQ(t.sVal1->NObs, n.sVal1->NObs);
    EXPECT_EQ(t.pVal1->NObs, n.pVal1->NObs);
    if (t.degFree >= 1) {
        EXPECT_EQ(t.sVal1->NObs, N);
    }
    for (long i = 1; i <= t.sVal1->NObs; ++i) {
        EXPECT_TRUE(same_bits(t.sVal1->V[i], n.sVal1->V[i])) << "sVal1[" << i << "]";
    }
    for (long i = 1; i <= t.pVal1->NObs; ++i) {
        EXPECT_TRUE(same_bits(t.pVal1->V[i], n.pVal1->V[i])) << "pVal1[" << i << "]";
    }
    for (int i = 0; i < gofw_NTestTypes; ++i) {
        EXPECT_TRUE(same_bits(t.sVal2[i], n.sVal2[i])) << "sVal2[" << i << "]";
        EXPECT_TRUE(same_bits(t.pVal2[i], n.pVal2[i])) << "pVal2[" << i << "]";
    }
}

// TestU01's function and the native one on the same stream: equal results and consumption.
void compare(const std::string& generator, const Params& p, int threads, bool one_class = false)
{
    HarnessFeed tu(generator), nat(generator);
    Chi2 t(sres_CreateChi2()), n(sres_CreateChi2());
    smarsa_MatrixRank(tu.gen(), t.get(), p.N, p.n, p.r, p.s, p.l, p.k);
    {
        rngvet::native::Numbers in(nat.feed());
        rngvet::native::matrix_rank(in, n.get(), p.N, p.n, p.r, p.s, p.l, p.k, threads);
        in.sync();
        EXPECT_EQ(in.consumed(), nat.consumed());
    }
    expect_same_result(*t, *n, p.N);
    EXPECT_EQ(tu.consumed(), nat.consumed());
    // Not a vacuous comparison: TestU01 ran its test (or, where meant, returned at once).
    if (one_class) {
        EXPECT_EQ(tu.consumed(), 0u);
    } else {
        EXPECT_GE(t->degFree, 1);
        EXPECT_GT(tu.consumed(), 0u);
    }
}

// ---------------------------------------------------------------------------------------------
// The native function on chosen and drawn parameters.

struct Case {
    std::string name;
    Params p;
    double min_expected; // gofs_MinExpected for the case (TestU01's default is 10)
};

// GoogleTest names a failing case by its name.
void PrintTo(const Case& c, std::ostream* os)
{
    *os << c.name;
}

std::vector<Case> fixed_cases()
{
    return {
        // SmallCrush's and Crush's 60 x 60 forms, smaller n.
        { "sc60_r20_s10", { 1, 3000, 20, 10, 60, 60 }, 10 },
        { "cr60_r0_s30", { 1, 3000, 0, 30, 60, 60 }, 10 },
        // BigCrush's 30 x 30 forms: several replications (the first over more than one batch
        // of numbers, a replication across two batches).
        { "bc30_r0_s5", { 3, 9000, 0, 5, 30, 30 }, 10 },
        { "bc30_r25_s5", { 3, 2000, 25, 5, 30, 30 }, 10 },
        // k < s: one short chunk per row.
        { "k5_s10", { 2, 500, 3, 10, 5, 5 }, 10 },
        // 1 x 1.
        { "one_by_one", { 2, 40, 7, 3, 1, 1 }, 10 },
        // s = 32: TestU01 shifts whole words.
        { "s32_64", { 1, 500, 0, 32, 64, 64 }, 10 },
        { "s32_96", { 1, 200, 0, 32, 96, 96 }, 10 },
        // The largest single-word matrix and one past it.
        { "k64_s7", { 1, 500, 11, 7, 64, 64 }, 10 },
        { "k65_s13", { 1, 500, 4, 13, 65, 65 }, 10 },
        // Rectangular.
        { "l61_k59", { 1, 500, 2, 9, 61, 59 }, 10 },
        { "l130_k131", { 1, 300, 1, 17, 130, 131 }, 10 },
        // Few classes: one class only (TestU01 returns before reading).
        { "one_class", { 1, 20, 0, 16, 2, 64 }, 10 },
        // Large matrices with a short last chunk per row.
        { "l700_s15_r15", { 1, 8, 15, 15, 700, 700 }, 2 },
        { "l517_s30_r0", { 2, 8, 0, 30, 517, 517 }, 2 },
        // Fewer matrices than classes would need, with gofs_MinExpected lowered.
        { "l250_low_min", { 2, 4, 3, 21, 250, 250 }, 1 },
    };
}

// A fixed sequence of draws (splitmix64), the same on every platform.
struct Draws {
    std::uint64_t x;
    std::uint64_t next()
    {
        std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    int in(int lo, int hi) { return lo + static_cast<int>(next() % std::uint64_t(hi - lo + 1)); }
};

std::vector<Case> drawn_cases()
{
    std::vector<Case> cases;
    Draws d{ 20260611 };
    for (int i = 0; i < 10; ++i) {
        Params p;
        p.s = d.in(1, 32);
        p.r = d.in(0, 32 - p.s);
        p.k = d.in(1, 160);
        // Square or nearly: other shapes are of full rank with certainty (one class).
        p.l = std::max(1, p.k + d.in(-3, 3));
        p.N = d.in(1, 3);
        const long per_matrix = long(p.l) * (p.k / p.s + 1) + long(p.l) * p.l * (p.k / 64 + 1) / 8;
        p.n = std::max(20L, std::min(3000L, 400000L / per_matrix));
        cases.push_back({ "draw" + std::to_string(i) + "_" + describe(p), p, 10 });
    }
    return cases;
}

std::vector<Case> all_cases()
{
    std::vector<Case> c = fixed_cases();
    for (const Case& x : drawn_cases())
        c.push_back(x);
    return c;
}

class MatrixRankExact : public testing::TestWithParam<std::tuple<Case, std::string, int>> { };

TEST_P(MatrixRankExact, SameAsTestU01)
{
    const Case& c = std::get<0>(GetParam());
    MinExpected guard(c.min_expected);
    compare(std::get<1>(GetParam()), c.p, std::get<2>(GetParam()), c.name == "one_class");
}

INSTANTIATE_TEST_SUITE_P(Cases, MatrixRankExact,
    testing::Combine(testing::ValuesIn(all_cases()), testing::ValuesIn(harness_generators()),
        testing::Values(2)),
    [](const testing::TestParamInfo<MatrixRankExact::ParamType>& p) {
        return std::get<0>(p.param).name + "_" + std::get<1>(p.param);
    });

// One thread: the same (a sample of the cases).
INSTANTIATE_TEST_SUITE_P(OneThread, MatrixRankExact,
    testing::Combine(testing::Values(fixed_cases()[0], fixed_cases()[2], fixed_cases()[13]),
        testing::Values(std::string("mt19937"), std::string("lcg")), testing::Values(1)),
    [](const testing::TestParamInfo<MatrixRankExact::ParamType>& p) {
        return std::get<0>(p.param).name + "_" + std::get<1>(p.param);
    });

// Five threads (more than the matrices of a batch in l700): the same.
INSTANTIATE_TEST_SUITE_P(FiveThreads, MatrixRankExact,
    testing::Combine(testing::Values(fixed_cases()[0], fixed_cases()[2], fixed_cases()[13]),
        testing::Values(std::string("ranmar48")), testing::Values(5)),
    [](const testing::TestParamInfo<MatrixRankExact::ParamType>& p) {
        return std::get<0>(p.param).name + "_" + std::get<1>(p.param);
    });

// ---------------------------------------------------------------------------------------------
// GF(2) ranks against a plain elimination on bit arrays.

int reference_rank(std::vector<std::vector<int>> m, int k)
{
    int rank = 0;
    const int l = static_cast<int>(m.size());
    for (int col = 0; col < k && rank < l; ++col) {
        int p = rank;
        while (p < l && m[p][col] == 0)
            ++p;
        if (p == l) continue;
        std::swap(m[p], m[rank]);
        for (int i = 0; i < l; ++i)
            if (i != rank && m[i][col])
                for (int j = 0; j < k; ++j)
                    m[i][j] ^= m[rank][j];
        ++rank;
    }
    return rank;
}

TEST(MatrixRankGf2, MatchesPlainElimination)
{
    Draws d{ 77 };
    for (int trial = 0; trial < 300; ++trial) {
        // Mostly up to 150 x 150, now and then up to 600 (several column blocks per word).
        const int top = trial % 10 == 0 ? 600 : 150;
        const int l = d.in(1, top), k = d.in(1, top);
        const int words = (k + 63) / 64;
        std::vector<std::uint64_t> packed(std::size_t(l) * words, 0);
        std::vector<std::vector<int>> bits(l, std::vector<int>(k));
        // Sparse or dependent rows now and then, so that every rank is reached.
        const int density = d.in(1, 4);
        for (int i = 0; i < l; ++i)
            for (int j = 0; j < k; ++j) {
                const int b = (d.next() % 4) < std::uint64_t(density) ? 1 : 0;
                bits[i][j] = b;
                if (b) packed[std::size_t(i) * words + j / 64] |= std::uint64_t(1) << (j % 64);
            }
        if (l > 2 && trial % 3 == 0) { // row 0 = row 1 ^ row 2
            for (int j = 0; j < k; ++j)
                bits[0][j] = bits[1][j] ^ bits[2][j];
            for (int w = 0; w < words; ++w)
                packed[w] = packed[std::size_t(words) + w] ^ packed[std::size_t(2) * words + w];
        }
        EXPECT_EQ(rngvet::native::gf2_rank(packed.data(), l, k), reference_rank(bits, k))
            << "l " << l << " k " << k;
    }
}

// ---------------------------------------------------------------------------------------------
// The battery rows.

// bbattery.c's calls of smarsa_MatrixRank and the names it gives their p-values.
const MatrixRankRow expected_rows[] = {
    { "smallcrush", 8, "MatrixRank", 1, 20000, 20, 10, 60, 60, false },
    { "crush", 56, "MatrixRank, 60 x 60", 1, 1000000, 0, 30, 60, 60, false },
    { "crush", 57, "MatrixRank, 60 x 60", 1, 1000000, 20, 10, 60, 60, false },
    { "crush", 58, "MatrixRank, 300 x 300", 1, 50000, 0, 30, 300, 300, false },
    { "crush", 59, "MatrixRank, 300 x 300", 1, 50000, 20, 10, 300, 300, false },
    { "crush", 60, "MatrixRank, 1200 x 1200", 1, 2000, 0, 30, 1200, 1200, false },
    { "crush", 61, "MatrixRank, 1200 x 1200", 1, 2000, 20, 10, 1200, 1200, false },
    { "bigcrush", 66, "MatrixRank, L=30, r=0", 10, 1000000, 0, 5, 30, 30, true },
    { "bigcrush", 67, "MatrixRank, L=30, r=26", 10, 1000000, 25, 5, 30, 30, true },
    { "bigcrush", 68, "MatrixRank, L=1000, r=0", 1, 5000, 0, 4, 1000, 1000, false },
    { "bigcrush", 69, "MatrixRank, L=1000, r=26", 1, 5000, 26, 4, 1000, 1000, false },
    { "bigcrush", 70, "MatrixRank, L=5000", 1, 80, 15, 15, 5000, 5000, false },
    { "bigcrush", 71, "MatrixRank, L=5000", 1, 80, 0, 30, 5000, 5000, false },
};
constexpr int expected_row_count = sizeof expected_rows / sizeof expected_rows[0];

TEST(MatrixRankRows, AsBbatteryCallsThem)
{
    const std::vector<rngvet::native::NativeTest> tests = rngvet::native::matrix_rank_tests();
    const std::vector<MatrixRankRow>& rows = rngvet::native::matrix_rank_rows();
    ASSERT_EQ(tests.size(), std::size_t(expected_row_count));
    ASSERT_EQ(rows.size(), std::size_t(expected_row_count));
    for (int i = 0; i < expected_row_count; ++i) {
        const MatrixRankRow& e = expected_rows[i];
        EXPECT_EQ(std::string(tests[i].battery), e.battery);
        EXPECT_EQ(tests[i].number, e.number);
        EXPECT_EQ(std::string(rows[i].battery), e.battery);
        EXPECT_EQ(rows[i].number, e.number);
        EXPECT_EQ(std::string(rows[i].name), e.name);
        EXPECT_EQ(rows[i].N, e.N);
        EXPECT_EQ(rows[i].n, e.n);
        EXPECT_EQ(rows[i].r, e.r);
        EXPECT_EQ(rows[i].s, e.s);
        EXPECT_EQ(rows[i].l, e.l);
        EXPECT_EQ(rows[i].k, e.k);
        EXPECT_EQ(rows[i].sum, e.sum);
    }
}

// The size a row runs at by default: SmallCrush's as the battery runs it, the others with
// fewer matrices (and replications), so that TestU01 takes well under a second.
struct Size {
    long N;
    long n;
    double min_expected;
};

Size default_size(const MatrixRankRow& row)
{
    if (rngvet_test::native_full_size() || std::string(row.battery) == "smallcrush")
        return { row.N, row.n, 10 };
    if (row.l <= 60) return { std::min(row.N, 3L), 3000, 10 };
    if (row.l <= 300) return { row.N, 60, 10 };
    // Large matrices: eight, two classes or three with gofs_MinExpected 2.
    if (row.l <= 1200) return { row.N, 8, 2 };
    // 5000 x 5000: one matrix, two classes (rank 5000, rank below) with gofs_MinExpected 0.25.
    return { row.N, 1, 0.25 };
}

// The 5000 x 5000 rows take TestU01 over a second a matrix: by default each runs on two of
// the generators, RNGVET_NATIVE_FULL=1 runs all.
bool runs_by_default(const MatrixRankRow& row, const std::string& generator)
{
    if (rngvet_test::native_full_size() || row.l < 5000) return true;
    return row.number == 70 ? (generator == "mt19937" || generator == "lcg")
                            : (generator == "ranmar24" || generator == "mtdc");
}

class MatrixRankRowExact : public testing::TestWithParam<std::tuple<int, std::string>> { };

TEST_P(MatrixRankRowExact, SameAsBbattery)
{
    const int i = std::get<0>(GetParam());
    const std::string& generator = std::get<1>(GetParam());
    const MatrixRankRow& row = rngvet::native::matrix_rank_rows()[i];
    const rngvet::native::NativeTest test = rngvet::native::matrix_rank_tests()[i];
    if (!runs_by_default(row, generator)) GTEST_SKIP() << "RNGVET_NATIVE_FULL=1 runs it";
    const Size size = default_size(row);
    const bool whole = size.N == row.N && size.n == row.n;
    MinExpected guard(size.min_expected);

    HarnessFeed tu(generator), nat(generator), nat2(generator);
    Chi2 t(sres_CreateChi2());
    smarsa_MatrixRank(tu.gen(), t.get(), size.N, size.n, row.r, row.s, row.l, row.k);
    const double expected = t->pVal2[row.N > 1 ? gofw_Sum : gofw_Mean];

    // The row as registered (the battery's size), or its function at the smaller size.
    std::vector<rngvet::native::NativeStatistic> got;
    {
        rngvet::native::Numbers in(nat.feed());
        got = whole ? test.run(in) : rngvet::native::run_matrix_rank_row(row, in, size.N, size.n);
    }
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].name, expected_rows[i].name);
    EXPECT_TRUE(same_bits(expected, got[0].pvalue));
    EXPECT_EQ(tu.consumed(), nat.consumed());

    // And every field of the result at that size.
    Chi2 n(sres_CreateChi2());
    {
        rngvet::native::Numbers in(nat2.feed());
        rngvet::native::matrix_rank(in, n.get(), size.N, size.n, row.r, row.s, row.l, row.k);
    }
    expect_same_result(*t, *n, size.N);
    EXPECT_EQ(tu.consumed(), nat2.consumed());
    EXPECT_GE(t->degFree, 1);
    EXPECT_EQ(tu.consumed(),
        std::uint64_t(size.N) * size.n * row.l * (row.k / row.s + (row.k % row.s > 0 ? 1 : 0)));
}

INSTANTIATE_TEST_SUITE_P(Rows, MatrixRankRowExact,
    testing::Combine(
        testing::Range(0, expected_row_count), testing::ValuesIn(harness_generators())),
    [](const testing::TestParamInfo<MatrixRankRowExact::ParamType>& p) {
        const MatrixRankRow& row = expected_rows[std::get<0>(p.param)];
        return std::string(row.battery) + std::to_string(row.number) + "_" + std::get<1>(p.param);
    });

// ---------------------------------------------------------------------------------------------
// Speed (not run by default: --gtest_also_run_disabled_tests): TestU01 and the native form on
// a row's parameters (RNGVET_MATRIX_RANK_ROW, default 0: SmallCrush's), 1 and 2 threads.

TEST(MatrixRankSpeed, DISABLED_Row)
{
    const char* env = std::getenv("RNGVET_MATRIX_RANK_ROW");
    const int i = env ? std::atoi(env) : 0;
    const MatrixRankRow& row = rngvet::native::matrix_rank_rows().at(i);
    const char* nenv = std::getenv("RNGVET_MATRIX_RANK_N");
    const long n = nenv ? std::atol(nenv) : row.n;
    const char* menv = std::getenv("RNGVET_MATRIX_RANK_MIN_EXPECTED");
    MinExpected guard(menv ? std::atof(menv) : 10.0);
    using clock = std::chrono::steady_clock;
    auto seconds = [](clock::time_point a) {
        return std::chrono::duration<double>(clock::now() - a).count();
    };
    // Processor time as well: the machine may be shared.
    auto cpu = [](std::clock_t a) { return double(std::clock() - a) / CLOCKS_PER_SEC; };
    HarnessFeed tu("mt19937");
    Chi2 t(sres_CreateChi2());
    auto start = clock::now();
    std::clock_t cstart = std::clock();
    smarsa_MatrixRank(tu.gen(), t.get(), row.N, n, row.r, row.s, row.l, row.k);
    const double tu_s = seconds(start), tu_c = cpu(cstart);
    std::printf("%s %d (N = %ld, n = %ld): TestU01 %.3f s (processor %.3f s)\n", row.battery,
        row.number, row.N, n, tu_s, tu_c);
    for (int threads : { 1, 2 }) {
        HarnessFeed nat("mt19937");
        Chi2 r(sres_CreateChi2());
        start = clock::now();
        cstart = std::clock();
        {
            rngvet::native::Numbers in(nat.feed());
            rngvet::native::matrix_rank(in, r.get(), row.N, n, row.r, row.s, row.l, row.k, threads);
        }
        const double s = seconds(start), sc = cpu(cstart);
        std::printf("  native, %d thread(s): %.3f s (%.1fx), processor %.3f s (%.1fx)\n", threads,
            s, tu_s / s, sc, tu_c / sc);
        expect_same_result(*t, *r, row.N);
        EXPECT_GE(t->degFree, 1);
    }
}

} // namespace
