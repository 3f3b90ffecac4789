// Exactness of the native tests of this family against TestU01's own functions
// (native_support.hpp): sknuth_Run, sknuth_Permutation and sknuth_CollisionPermut, every field of
// their result records, and the battery rows of Crush and BigCrush that use them.
//
// RNGVET_NATIVE_FULL=1 runs every battery row at its full size too (minutes each in TestU01);
// otherwise the rows' table entries run with a smaller n (and at most 2 or 3 replications) and
// their parameters are compared with bbattery.c's.
//
// The timing of Crush's rows (TestU01, native on 1 and 2 threads):
//   ./tests/test_native_sknuth_order --gtest_filter='DISABLED_Timing*'
//   --gtest_also_run_disabled_tests
#include "batteries/native/families.hpp"
#include "batteries/native/sknuth_order.hpp"
#include "native_support.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include <testu01/bitset.h>
#include <testu01/gofw.h>
#include <testu01/sknuth.h>
#include <testu01/smultin.h>
#include <testu01/sres.h>
#include <testu01/statcoll.h>
#include <testu01/unif01.h>
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
    // The top 5 bits: StripD's values are multiples of 1/32, so equal values (ties of the
    // orders, runs of equal values) are frequent.
    if (generator.rfind("grid", 0) == 0)
        return std::make_unique<GridStream>(std::stoi(generator.substr(4)), 5);
    return rngvet_test::harness_stream(generator);
}

// A harness generator's stream (native_support.hpp), a grid ("grid32", "grid48") or "wide60",
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

// Deterministic pseudo-random draws (xorshift) seeded by a string.
class Draws {
public:
    explicit Draws(const std::string& seed)
        : x_(0x9E3779B97F4A7C15ull ^ std::hash<std::string>()(seed))
    {
    }
    long operator()(long lo, long hi)
    {
        x_ ^= x_ << 13;
        x_ ^= x_ >> 7;
        x_ ^= x_ << 17;
        return lo + static_cast<long>(x_ % static_cast<std::uint64_t>(hi - lo + 1));
    }

private:
    std::uint64_t x_;
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
    ASSERT_EQ(a->jmax, b->jmax) << what;
    for (long j = a->jmin; j <= a->jmax; ++j) {
        EXPECT_EQ(a->Count[j], b->Count[j]) << what << " Count[" << j << "]";
        EXPECT_EQ(a->Loc[j], b->Loc[j]) << what << " Loc[" << j << "]";
        EXPECT_TRUE(same_bits(a->NbExp[j], b->NbExp[j])) << what << " NbExp[" << j << "]";
    }
    EXPECT_STREQ(a->name, b->name) << what;
    expect_same_collector(a->sVal1, b->sVal1, what + " sVal1");
    expect_same_collector(a->pVal1, b->pVal1, what + " pVal1");
    expect_same_arrays(a->sVal2, b->sVal2, what + " sVal2");
    expect_same_arrays(a->pVal2, b->pVal2, what + " pVal2");
}

void expect_same_res2(const sknuth_Res2* a, const sknuth_Res2* b)
{
    expect_same_collector(a->Bas->sVal1, b->Bas->sVal1, "Bas sVal1");
    expect_same_collector(a->Bas->pVal1, b->Bas->pVal1, "Bas pVal1");
    expect_same_arrays(a->Bas->sVal2, b->Bas->sVal2, "Bas sVal2");
    expect_same_arrays(a->Bas->pVal2, b->Bas->pVal2, "Bas pVal2");
    EXPECT_STREQ(a->Bas->name, b->Bas->name);
    expect_same_collector(a->Pois->sVal1, b->Pois->sVal1, "Pois sVal1");
    EXPECT_TRUE(same_bits(a->Pois->Lambda, b->Pois->Lambda)) << "Pois Lambda";
    EXPECT_TRUE(same_bits(a->Pois->Mu, b->Pois->Mu)) << "Pois Mu";
    EXPECT_TRUE(same_bits(a->Pois->sVal2, b->Pois->sVal2)) << "Pois sVal2";
    EXPECT_TRUE(same_bits(a->Pois->pLeft, b->Pois->pLeft)) << "Pois pLeft";
    EXPECT_TRUE(same_bits(a->Pois->pRight, b->Pois->pRight)) << "Pois pRight";
    EXPECT_TRUE(same_bits(a->Pois->pVal2, b->Pois->pVal2)) << "Pois pVal2";
    EXPECT_STREQ(a->Pois->name, b->Pois->name);
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// ---------------------------------------------------------------------------------------------
// The forms of the three tests: TestU01's function and the native one on the same stream.

enum class Which { run, permutation, collision_permut };

struct FormCase {
    std::string label;
    std::string generator;
    Which test;
    long N, n;
    int r;
    int t; // Permutation, CollisionPermut
    bool up; // Run
};

void PrintTo(const FormCase& c, std::ostream* os)
{
    *os << c.label << "_" << c.generator;
}

// Runs the case on both sides and compares every field and the numbers consumed.
void check_form(const FormCase& c, int threads)
{
    SCOPED_TRACE("threads " + std::to_string(threads));
    Feed feed1(c.generator), feed2(c.generator);
    if (c.test == Which::collision_permut) {
        sknuth_Res2* tu = sknuth_CreateRes2();
        sknuth_Res2* nat = sknuth_CreateRes2();
        sknuth_CollisionPermut(feed1.gen(), tu, c.N, c.n, c.r, c.t);
        {
            rngvet::native::Numbers in(feed2.feed());
            rngvet::native::collision_permut_test(in, nat, c.N, c.n, c.r, c.t, threads);
        }
        expect_same_res2(tu, nat);
        sknuth_DeleteRes2(tu);
        sknuth_DeleteRes2(nat);
    } else {
        sres_Chi2* tu = sres_CreateChi2();
        sres_Chi2* nat = sres_CreateChi2();
        if (c.test == Which::run) {
            sknuth_Run(feed1.gen(), tu, c.N, c.n, c.r, c.up ? TRUE : FALSE);
            rngvet::native::Numbers in(feed2.feed());
            rngvet::native::run_test(in, nat, c.N, c.n, c.r, c.up, threads);
        } else {
            sknuth_Permutation(feed1.gen(), tu, c.N, c.n, c.r, c.t);
            rngvet::native::Numbers in(feed2.feed());
            rngvet::native::permutation_test(in, nat, c.N, c.n, c.r, c.t, threads);
        }
        expect_same_chi2(tu, nat, "Chi2");
        sres_DeleteChi2(tu);
        sres_DeleteChi2(nat);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    const long per = c.test == Which::run ? (c.n < 600 ? 0 : c.n) : c.n * c.t;
    EXPECT_EQ(feed1.consumed(), static_cast<std::uint64_t>(c.N * per));
}

class FormExact : public testing::TestWithParam<FormCase> { };

TEST_P(FormExact, SameRecordsAndCount)
{
    const FormCase& c = GetParam();
    check_form(c, case_threads(c.label, c.generator));
}

std::vector<FormCase> form_cases()
{
    std::vector<FormCase> cases;
    for (const std::string& g : form_generators()) {
        // Run: Crush's and BigCrush's forms (r = 0 and 15, up and down), one replication longer
        // than a chunk of words (2^21), several replications, the least n, and n < 600 (nothing
        // is read).
        cases.push_back({ "run_up_r0", g, Which::run, 1, 2300000, 0, 0, true });
        cases.push_back({ "run_down_r15", g, Which::run, 1, 400000, 15, 0, false });
        cases.push_back({ "run_down_N5", g, Which::run, 5, 70000, 0, 0, false });
        cases.push_back({ "run_up_N10_r15", g, Which::run, 10, 40000, 15, 0, true });
        cases.push_back({ "run_n600", g, Which::run, 3, 600, 3, 0, true });
        cases.push_back({ "run_n599", g, Which::run, 2, 599, 0, 0, false });
        // Permutation: the dense forms of BigCrush (t = 3, 5, 7; no table of terms), t = 9 and
        // 8 (a table of terms, cell by cell), t = 9 with more cells than 9! on one generator
        // below, and t = 10 and 12 with fewer cells than k (TestU01 hashes), N > 1.
        cases.push_back({ "perm_t3_r5", g, Which::permutation, 1, 200000, 5, 3, false });
        cases.push_back({ "perm_t5_r5", g, Which::permutation, 1, 100000, 5, 5, false });
        cases.push_back({ "perm_t7_r5", g, Which::permutation, 1, 60000, 5, 7, false });
        cases.push_back({ "perm_t8_N3", g, Which::permutation, 3, 50000, 1, 8, false });
        cases.push_back({ "perm_t9_r15", g, Which::permutation, 1, 60000, 15, 9, false });
        cases.push_back({ "perm_t10_hashed", g, Which::permutation, 2, 40000, 0, 10, false });
        cases.push_back({ "perm_t12_hashed", g, Which::permutation, 1, 30000, 10, 12, false });
        // CollisionPermut: Crush's and BigCrush's t (13, 14), N = 1 (exact distribution or
        // normal approximation of the collisions) and N > 1 (Poisson), a small t with
        // many collisions.
        cases.push_back({ "cperm_t13_N3", g, Which::collision_permut, 3, 30000, 0, 13, false });
        cases.push_back({ "cperm_t14_r10", g, Which::collision_permut, 2, 20000, 10, 14, false });
        cases.push_back({ "cperm_t13_N1", g, Which::collision_permut, 1, 20000, 15, 13, false });
        cases.push_back({ "cperm_t6_N1", g, Which::collision_permut, 1, 2000, 2, 6, false });
        cases.push_back({ "cperm_t8_N4", g, Which::collision_permut, 4, 3000, 0, 8, false });
        // Draws within the valid ranges.
        Draws draw(g);
        for (int i = 0; i < 2; ++i) {
            const long N = draw(1, 4);
            const long n = draw(600, 60000);
            const int r = static_cast<int>(draw(0, 30));
            const bool up = draw(0, 1) == 1;
            cases.push_back({ "run_draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                    + std::to_string(n) + "_r" + std::to_string(r) + (up ? "_up" : "_down"),
                g, Which::run, N, n, r, 0, up });
        }
        for (int i = 0; i < 2; ++i) {
            const long N = draw(1, 3);
            const int t = static_cast<int>(draw(2, 11));
            const long n = draw(5, 40000 / t);
            const int r = static_cast<int>(draw(0, 30));
            cases.push_back({ "perm_draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                    + std::to_string(n) + "_r" + std::to_string(r) + "_t" + std::to_string(t),
                g, Which::permutation, N, n, r, t, false });
        }
        for (int i = 0; i < 2; ++i) {
            const long N = draw(1, 3);
            const int t = static_cast<int>(draw(7, 16)); // n / t! <= 8 (N > 1)
            const long n = draw(5, 40000 / t);
            const int r = static_cast<int>(draw(0, 30));
            cases.push_back({ "cperm_draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                    + std::to_string(n) + "_r" + std::to_string(r) + "_t" + std::to_string(t),
                g, Which::collision_permut, N, n, r, t, false });
        }
    }
    // More cells than t! (as Crush's and BigCrush's t = 10): counts in a table, terms from a
    // table of terms, cell by cell.
    cases.push_back({ "perm_t9_dense", "mt19937", Which::permutation, 1, 400000, 0, 9, false });
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Forms, FormExact, testing::ValuesIn(form_cases()),
    [](const testing::TestParamInfo<FormCase>& i) {
        return clean(i.param.label + "_" + i.param.generator);
    });

// Every goodness-of-fit test of gofw active, as a program may set gofw_ActiveTests.
TEST(AllActiveTests, SameRecords)
{
    const bitset_BitSet saved = gofw_ActiveTests;
    gofw_ActiveTests = 0;
    for (int i : { gofw_KSP, gofw_KSM, gofw_KS, gofw_AD, gofw_CM, gofw_WG, gofw_WU })
        gofw_ActiveTests |= bitset_maskUL[i];
    for (const FormCase& c : std::vector<FormCase>{
             { "run", "lcg", Which::run, 6, 20000, 0, 0, true },
             { "perm", "mt19937", Which::permutation, 4, 20000, 3, 6, false },
             { "cperm", "ranmar48", Which::collision_permut, 3, 10000, 0, 12, false },
         }) {
        SCOPED_TRACE(c.label);
        check_form(c, 2);
    }
    gofw_ActiveTests = saved;
}

// smultin_GenerCellPermut's cell on chosen values: TestU01's function on a generator giving
// them, and permutation_cell on their keys (ties take the first greatest).
TEST(PermutationCell, ChosenValues)
{
    const std::vector<std::vector<std::uint64_t>> sets = {
        { 1, 2 },
        { 2, 1 },
        { 3, 3 },
        { 5, 1, 4 },
        { 4, 4, 1 },
        { 1, 4, 4 },
        { 2, 2, 2, 2 },
        { 9, 3, 9, 1, 3, 7 },
        { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20 },
        { 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 },
        { 7, 7, 7, 1, 1, 1, 9, 9, 9, 2, 2, 2, 5, 5, 5, 3, 3, 3, 8, 8 },
    };
    for (const std::vector<std::uint64_t>& s : sets) {
        // A generator returning the values / 32 in order.
        static const std::vector<std::uint64_t>* values;
        static std::size_t next;
        values = &s;
        next = 0;
        unif01_Gen* gen = unif01_CreateExternGen01(const_cast<char*>("chosen"),
            [] { return static_cast<double>((*values)[next++]) / 32.0; });
        const std::uint64_t expected
            = smultin_GenerCellPermut(gen, 0, static_cast<int>(s.size()), 0);
        unif01_DeleteExternGen01(gen);
        EXPECT_EQ(rngvet::native::permutation_cell(s.data(), static_cast<int>(s.size())), expected)
            << s.size() << " values";
    }
}

// Random keys for every t, from a range of 4 values (ties nearly always: where the moves put the
// equal keys decides) to one of 2^20 (ties rare), against TestU01's function.
TEST(PermutationCell, RandomValuesWithAndWithoutTies)
{
    std::uint64_t x = 0x9e3779b97f4a7c15ull; // splitmix64's sequence, for the draws
    auto draw = [&x](std::uint64_t range) {
        std::uint64_t z = (x += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return (z ^ (z >> 31)) % range;
    };
    static std::vector<std::uint64_t> values;
    static std::size_t next;
    unif01_Gen* gen = unif01_CreateExternGen01(
        const_cast<char*>("drawn"), [] { return static_cast<double>(values[next++]) / 1048576.0; });
    int with_ties = 0, without = 0;
    for (int t = 2; t <= 20; ++t)
        for (const std::uint64_t range : { 4ull, 64ull, 1048576ull })
            for (int round = 0; round < 300; ++round) {
                values.resize(static_cast<std::size_t>(t));
                for (std::uint64_t& v : values)
                    v = draw(range);
                next = 0;
                const std::uint64_t expected = smultin_GenerCellPermut(gen, 0, t, 0);
                ASSERT_EQ(rngvet::native::permutation_cell(values.data(), t), expected)
                    << "t = " << t << ", range " << range << ", round " << round;
                std::vector<std::uint64_t> sorted = values;
                std::sort(sorted.begin(), sorted.end());
                (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end() ? with_ties
                                                                                  : without)++;
            }
    unif01_DeleteExternGen01(gen);
    EXPECT_GT(with_ties, 1000);
    EXPECT_GT(without, 1000);
}

// ---------------------------------------------------------------------------------------------
// The battery rows, against bbattery.c's calls and names (written out here from bbattery.c,
// independently of sknuth_order.cpp's table).

struct BatteryRow {
    std::string battery;
    int number;
    Which test;
    long N, n;
    int r;
    int t;
    bool up;
    int pick; // gofw_ index of pVal2 (Run, Permutation)
    std::string name;
};

const std::vector<BatteryRow>& battery_rows()
{
    const long million = 1000000, billion = 1000000000;
    static const std::vector<BatteryRow> rows = {
        { "crush", 35, Which::run, 1, 500 * million, 0, 0, true, gofw_Mean, "Run of U01, r = 0" },
        { "crush", 36, Which::run, 1, 500 * million, 15, 0, false, gofw_Mean,
            "Run of U01, r = 15" },
        { "crush", 37, Which::permutation, 1, 50 * million, 0, 10, false, gofw_Mean,
            "Permutation, r = 0" },
        { "crush", 38, Which::permutation, 1, 50 * million, 15, 10, false, gofw_Mean,
            "Permutation, r = 15" },
        { "crush", 39, Which::collision_permut, 5, 10 * million, 0, 13, false, 0,
            "CollisionPermut, r = 0" },
        { "crush", 40, Which::collision_permut, 5, 10 * million, 15, 13, false, 0,
            "CollisionPermut, r = 15" },
        { "bigcrush", 38, Which::run, 5, billion, 0, 0, false, gofw_Sum, "Run, r = 0" },
        { "bigcrush", 39, Which::run, 10, billion, 15, 0, true, gofw_Sum, "Run, r = 15" },
        { "bigcrush", 40, Which::permutation, 1, billion, 5, 3, false, gofw_Mean,
            "Permutation, t = 3" },
        { "bigcrush", 41, Which::permutation, 1, billion, 5, 5, false, gofw_Mean,
            "Permutation, t = 5" },
        { "bigcrush", 42, Which::permutation, 1, billion / 2, 5, 7, false, gofw_Mean,
            "Permutation, t = 7" },
        { "bigcrush", 43, Which::permutation, 1, billion / 2, 10, 10, false, gofw_Mean,
            "Permutation, t = 10" },
        { "bigcrush", 44, Which::collision_permut, 20, 20 * million, 0, 14, false, 0,
            "CollisionPermut, r = 0" },
        { "bigcrush", 45, Which::collision_permut, 20, 20 * million, 10, 14, false, 0,
            "CollisionPermut, r = 10" },
    };
    return rows;
}

// TestU01's function with the row's parameters (N replications of n) and the battery's p-value.
std::vector<rngvet::native::NativeStatistic> testu01_row(
    unif01_Gen* gen, const BatteryRow& row, long N, long n)
{
    double p = -1;
    if (row.test == Which::collision_permut) {
        sknuth_Res2* res = sknuth_CreateRes2();
        sknuth_CollisionPermut(gen, res, N, n, row.r, row.t);
        p = res->Pois->pVal2;
        sknuth_DeleteRes2(res);
    } else {
        sres_Chi2* res = sres_CreateChi2();
        if (row.test == Which::run)
            sknuth_Run(gen, res, N, n, row.r, row.up ? TRUE : FALSE);
        else
            sknuth_Permutation(gen, res, N, n, row.r, row.t);
        p = res->pVal2[row.pick];
        sres_DeleteChi2(res);
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
    static const std::vector<rngvet::native::NativeTest> rows
        = rngvet::native::sknuth_order_tests();
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

    // The row's table entry on a smaller scale: Run with n = 4 * 10^5 (replications longer
    // than a chunk of words are among the forms above) and at most 2 replications, Permutation with
    // n = 3 * 10^5 / t, CollisionPermut with n = 20000 and at most 3 replications (the parameters
    // themselves are compared with bbattery.c's in BatteryRows.TablesAreBbatteryCalls).
    long N = c.row.N, n = c.row.n;
    if (c.row.test == Which::run) {
        N = std::min<long>(N, 2);
        n = 400000;
    } else if (c.row.test == Which::permutation) {
        n = 300000 / c.row.t;
    } else {
        N = std::min<long>(N, 3);
        n = 20000;
    }
    Feed feed1(c.generator), feed2(c.generator);
    const auto tu = testu01_row(feed1.gen(), c.row, N, n);
    std::vector<rngvet::native::NativeStatistic> nat;
    {
        rngvet::native::Numbers in(feed2.feed());
        for (const auto& r : rngvet::native::order_rows())
            if (c.row.battery == r.battery && c.row.number == r.number)
                nat = rngvet::native::order_statistics(in, r, N, n, 2);
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
    const auto table = rngvet::native::order_rows();
    EXPECT_EQ(table.size(), battery_rows().size());
    for (const BatteryRow& row : battery_rows()) {
        const std::string where = row.battery + " " + std::to_string(row.number);
        int found = 0;
        for (const auto& r : table) {
            if (row.battery != r.battery || row.number != r.number) continue;
            ++found;
            const Which test = r.test == rngvet::native::OrderRow::run ? Which::run
                : r.test == rngvet::native::OrderRow::permutation      ? Which::permutation
                                                                       : Which::collision_permut;
            EXPECT_TRUE(test == row.test) << where;
            EXPECT_EQ(r.N, row.N) << where;
            EXPECT_EQ(r.n, row.n) << where;
            EXPECT_EQ(r.r, row.r) << where;
            if (row.test == Which::run) {
                EXPECT_EQ(r.up, row.up) << where;
            } else {
                EXPECT_EQ(r.t, row.t) << where;
            }
            if (row.test != Which::collision_permut) {
                EXPECT_EQ(r.pick, row.pick) << where;
            }
            EXPECT_EQ(std::string(r.name), row.name) << where;
        }
        EXPECT_EQ(found, 1) << where;
    }
}

TEST(BatteryRows, EveryRegisteredRowIsABbatteryRow)
{
    const auto tests = rngvet::native::sknuth_order_tests();
    EXPECT_EQ(tests.size(), battery_rows().size());
    for (const rngvet::native::NativeTest& t : tests) {
        int known = 0;
        for (const BatteryRow& row : battery_rows())
            known += row.battery == t.battery && row.number == t.number;
        EXPECT_EQ(known, 1) << t.battery << " " << t.number;
    }
}

// Timing on Crush's rows (run with --gtest_also_run_disabled_tests): TestU01's function, then
// the native one on 1 and 2 threads, wall and process CPU times; RNGVET_TIMING_SCALE=m divides
// the rows' n by m. Nothing is asserted about the times.
TEST(DISABLED_Timing, CrushRows)
{
    const char* scale_text = std::getenv("RNGVET_TIMING_SCALE");
    const long scale = scale_text != nullptr ? std::max(1, std::atoi(scale_text)) : 1;
    auto cpu_since
        = [](std::clock_t c0) { return static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC; };
    for (const std::string g : { "mt19937" }) {
        for (const BatteryRow& row : battery_rows()) {
            if (row.battery != "crush") continue;
            const long n = row.n / scale;
            Feed feed(g);
            auto t0 = std::chrono::steady_clock::now();
            std::clock_t c0 = std::clock();
            const auto tu = testu01_row(feed.gen(), row, row.N, n);
            const double t_tu = seconds_since(t0), cpu_tu = cpu_since(c0);
            double t_nat[2], cpu_nat[2];
            for (int threads : { 1, 2 }) {
                Feed f(g);
                rngvet::native::Numbers in(f.feed());
                t0 = std::chrono::steady_clock::now();
                c0 = std::clock();
                std::vector<rngvet::native::NativeStatistic> nat;
                for (const auto& r : rngvet::native::order_rows())
                    if (row.battery == r.battery && row.number == r.number)
                        nat = rngvet::native::order_statistics(in, r, row.N, n, threads);
                t_nat[threads - 1] = seconds_since(t0);
                cpu_nat[threads - 1] = cpu_since(c0);
                expect_same_statistics(tu, nat);
            }
            std::printf("%s %s test %d (n = %ld): TestU01 %.3f s (CPU %.3f s), native 1 thread "
                        "%.3f s (CPU %.3f s), 2 threads %.3f s (CPU %.3f s)\n",
                g.c_str(), row.battery.c_str(), row.number, n, t_tu, cpu_tu, t_nat[0], cpu_nat[0],
                t_nat[1], cpu_nat[1]);
        }
    }
}

// The native rows alone at full size on mt19937 (run with --gtest_also_run_disabled_tests;
// RNGVET_TIMING_ROWS="crush" or "bigcrush" picks a battery, RNGVET_TIMING_NUMBER one of its tests,
// RNGVET_TIMING_THREADS the threads),
// with the time of reading as many words alone. Nothing is asserted about the times.
TEST(DISABLED_Timing, NativeRows)
{
    const char* battery = std::getenv("RNGVET_TIMING_ROWS");
    const char* number = std::getenv("RNGVET_TIMING_NUMBER");
    const char* threads = std::getenv("RNGVET_TIMING_THREADS");
    rngvet::native::set_threads(threads != nullptr ? std::atoi(threads) : 0);
    for (const BatteryRow& row : battery_rows()) {
        if (battery != nullptr && row.battery != battery) continue;
        if (number != nullptr && row.number != std::atoi(number)) continue;
        Feed f("mt19937");
        double t_nat, cpu_nat;
        {
            rngvet::native::Numbers in(f.feed());
            const auto t0 = std::chrono::steady_clock::now();
            const std::clock_t c0 = std::clock();
            family_row(row.battery, row.number)->run(in);
            t_nat = seconds_since(t0);
            cpu_nat = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
        }
        double t_read, cpu_read;
        {
            Feed g("mt19937");
            rngvet::native::Numbers in(g.feed());
            std::vector<std::uint64_t> buffer(std::size_t(1) << 21);
            std::uint64_t left = f.consumed(), sum = 0;
            const auto t0 = std::chrono::steady_clock::now();
            const std::clock_t c0 = std::clock();
            while (left > 0) {
                const std::size_t k
                    = static_cast<std::size_t>(std::min<std::uint64_t>(left, buffer.size()));
                in.read(buffer.data(), k);
                sum += buffer[k - 1];
                left -= k;
            }
            t_read = seconds_since(t0);
            cpu_read = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
            EXPECT_NE(sum, 1u); // keeps the reads
        }
        std::printf("%s test %d: native %.3f s (CPU %.3f s); reading its %llu words alone %.3f s "
                    "(CPU %.3f s)\n",
            row.battery.c_str(), row.number, t_nat, cpu_nat,
            static_cast<unsigned long long>(f.consumed()), t_read, cpu_read);
    }
    rngvet::native::set_threads(0);
}

} // namespace
