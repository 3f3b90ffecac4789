// Exactness of the native tests of this family against TestU01's own functions
// (native_support.hpp): snpair_ClosePairs and snpair_ClosePairsBitMatch, every field of their
// result records that a statistic or p-value lives in, and the battery rows of Crush and
// BigCrush that use them.
//
// RNGVET_NATIVE_FULL=1 runs every row at its full size too (minutes each in TestU01, BigCrush's
// many minutes); otherwise the rows run with fewer points and replications and their parameters
// are compared with bbattery.c's.
//
// The timing of Crush's rows with 2 replications (TestU01, native on 1 and 2 threads):
//   ./tests/test_native_close_pairs --gtest_filter='DISABLED_Timing*'
//   --gtest_also_run_disabled_tests
#include "batteries/native/close_pairs.hpp"
#include "batteries/native/families.hpp"
#include "native_support.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <functional>
#include <memory>
#include <string>
#include <vector>

extern "C" {
#include <testu01/snpair.h>
#include <testu01/statcoll.h>
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
    if (generator == "grid6") return std::make_unique<GridStream>(32, 6);
    if (generator == "grid12") return std::make_unique<GridStream>(48, 12);
    return rngvet_test::harness_stream(generator);
}

// A stream with a feed on it: TestU01's functions read it through gen(), the native ones
// through feed(); consumed() counts both.
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

std::vector<std::string> form_generators()
{
    std::vector<std::string> g = harness_generators();
    g.push_back("grid12");
    g.push_back("wide60");
    return g;
}

// 1, 2 or 3 threads for the native side, fixed per case.
int case_threads(const std::string& label, const std::string& generator)
{
    return 1 + static_cast<int>(std::hash<std::string>()(label + "/" + generator) % 3);
}

void expect_same_collector(
    const statcoll_Collector* a, const std::vector<double>& b, const std::string& what)
{
    ASSERT_EQ(a->NObs + 1, static_cast<long>(b.size())) << what;
    for (long i = 1; i <= a->NObs; ++i)
        EXPECT_TRUE(same_bits(a->V[i], b[static_cast<std::size_t>(i)])) << what << " [" << i << "]";
}

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The process's CPU seconds (all its threads).
double cpu_seconds()
{
    return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

// ---------------------------------------------------------------------------------------------
// snpair_ClosePairs

struct ClosePairsCase {
    std::string label;
    std::string generator;
    long N, n;
    int r, t, p, m;
};

void PrintTo(const ClosePairsCase& c, std::ostream* os)
{
    *os << c.label << "_" << c.generator;
}

void run_close_pairs_case(const ClosePairsCase& c, int threads)
{
    Feed feed1(c.generator), feed2(c.generator);
    snpair_Res* tu = snpair_CreateRes();
    snpair_ClosePairs(feed1.gen(), tu, c.N, c.n, c.r, c.t, c.p, c.m);
    rngvet::native::ClosePairsOutcome nat;
    {
        rngvet::native::Numbers in(feed2.feed());
        nat = rngvet::native::close_pairs(in, c.N, c.n, c.r, c.t, c.p, c.m, threads);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    EXPECT_EQ(feed1.consumed(), static_cast<std::uint64_t>(c.N * c.n * c.t));
    // Every statistic, those the test leaves unset too (a fresh record's zeros).
    for (int i = 0; i < snpair_StatType_N; ++i) {
        EXPECT_TRUE(same_bits(tu->sVal[i], nat.sval[i])) << "sVal " << i;
        EXPECT_TRUE(same_bits(tu->pVal[i], nat.pval[i])) << "pVal " << i;
    }
    EXPECT_EQ(tu->NumClose, nat.num_close);
    ASSERT_EQ(nat.close_dist.size(), static_cast<std::size_t>(nat.num_close) + 1);
    for (int i = 1; i <= std::min(tu->NumClose, nat.num_close); ++i)
        EXPECT_TRUE(same_bits(tu->CloseDist[i], nat.close_dist[static_cast<std::size_t>(i)]))
            << "CloseDist [" << i << "]";
    expect_same_collector(tu->TheWn, nat.the_wn, "TheWn");
    if (c.m > 1) {
        expect_same_collector(tu->TheWni, nat.the_wni, "TheWni");
        expect_same_collector(tu->ThepValAD, nat.the_pval_ad, "ThepValAD");
        expect_same_collector(tu->Y, nat.y, "Y");
    }
    snpair_DeleteRes(tu);
}

class ClosePairsExact : public testing::TestWithParam<ClosePairsCase> { };

TEST_P(ClosePairsExact, SameRecordsAndCount)
{
    const ClosePairsCase& c = GetParam();
    const int threads = case_threads(c.label, c.generator);
    SCOPED_TRACE("threads " + std::to_string(threads));
    run_close_pairs_case(c, threads);
}

std::vector<ClosePairsCase> close_pairs_cases()
{
    std::vector<ClosePairsCase> cases;
    for (const std::string& g : form_generators()) {
        // The battery's forms (sup norm, m = 30) with fewer points and replications.
        cases.push_back({ "crush_t2", g, 3, 20000, 0, 2, 0, 30 });
        cases.push_back({ "crush_t3", g, 3, 20000, 0, 3, 0, 30 });
        cases.push_back({ "crush_t7_r4", g, 2, 10000, 4, 7, 0, 30 });
        cases.push_back({ "bigcrush_t5", g, 2, 10000, 0, 5, 0, 30 });
        cases.push_back({ "bigcrush_t9", g, 2, 5000, 0, 9, 0, 30 });
        cases.push_back({ "bigcrush_t16_r9", g, 2, 4000, 9, 16, 0, 30 });
        // Other norms (L1, L2 and L3), N = 1, m = 1, t = 1.
        cases.push_back({ "p1_t3", g, 2, 5000, 0, 3, 1, 20 });
        cases.push_back({ "p2_t2", g, 3, 5000, 2, 2, 2, 10 });
        cases.push_back({ "p3_t4", g, 2, 3000, 0, 4, 3, 15 });
        cases.push_back({ "N1_t3", g, 1, 8000, 0, 3, 0, 30 });
        cases.push_back({ "m1_p2_t3", g, 4, 4000, 0, 3, 2, 1 });
        cases.push_back({ "t1", g, 3, 3000, 0, 1, 0, 10 });
        // Deterministic pseudo-random draws within the valid ranges.
        std::uint64_t x = 0x9E3779B97F4A7C15ull ^ std::hash<std::string>()(g);
        auto draw = [&x](long lo, long hi) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            return lo + static_cast<long>(x % static_cast<std::uint64_t>(hi - lo + 1));
        };
        for (int i = 0; i < 3; ++i) {
            const long N = draw(1, 4);
            const long n = draw(100, 6000);
            const int r = static_cast<int>(draw(0, 20));
            // The L1 and L2 norms only in few dimensions (in many, the search's slices by one
            // coordinate leave nearly every pair to measure, in TestU01 as here).
            const int p = static_cast<int>(draw(0, 2));
            const int t = static_cast<int>(p == 0 ? draw(2, 14) : draw(2, 4));
            const int m = static_cast<int>(draw(1, 40));
            cases.push_back({ "draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                    + std::to_string(n) + "_r" + std::to_string(r) + "_t" + std::to_string(t) + "_p"
                    + std::to_string(p) + "_m" + std::to_string(m),
                g, N, n, r, t, p, m });
        }
    }
    // A grid of 64 values per coordinate: tens of thousands of pairs at distance 0, past the 50000
    // distances a replication records (which of them are kept depends on the search's order).
    cases.push_back({ "capped_t2", "grid6", 2, 20000, 0, 2, 0, 30 });
    // Tables past 8192 entries (sorted by radix passes) in the pre-filter's 16-bit form (t = 9),
    // with equal keys (24-bit numbers, a 12-bit grid: Hoare's steps kept in their ranges) and
    // without.
    for (const char* g : { "ranmar24", "ranmar48", "grid12" })
        cases.push_back({ "radix_t9", g, 2, 30000, 0, 9, 0, 30 });
    cases.push_back({ "ties_t3", "grid6", 2, 3000, 0, 3, 0, 30 });
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Forms, ClosePairsExact, testing::ValuesIn(close_pairs_cases()),
    [](const testing::TestParamInfo<ClosePairsCase>& i) {
        return clean(i.param.label + "_" + i.param.generator);
    });

// ---------------------------------------------------------------------------------------------
// snpair_ClosePairsBitMatch

struct BitMatchCase {
    std::string label;
    std::string generator;
    long N, n;
    int r, t;
};

void PrintTo(const BitMatchCase& c, std::ostream* os)
{
    *os << c.label << "_" << c.generator;
}

class BitMatchExact : public testing::TestWithParam<BitMatchCase> { };

TEST_P(BitMatchExact, SameRecordsAndCount)
{
    const BitMatchCase& c = GetParam();
    Feed feed1(c.generator), feed2(c.generator);
    snpair_Res* tu = snpair_CreateRes();
    snpair_ClosePairsBitMatch(feed1.gen(), tu, c.N, c.n, c.r, c.t);
    rngvet::native::BitMatchOutcome nat;
    {
        rngvet::native::Numbers in(feed2.feed());
        const int threads = case_threads(c.label, c.generator);
        SCOPED_TRACE("threads " + std::to_string(threads));
        nat = rngvet::native::close_pairs_bit_match(in, c.N, c.n, c.r, c.t, threads);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    EXPECT_EQ(feed1.consumed(), static_cast<std::uint64_t>(c.N * c.n * c.t));
    EXPECT_TRUE(same_bits(tu->sVal[snpair_BM], nat.sval));
    EXPECT_TRUE(same_bits(tu->pVal[snpair_BM], nat.pval));
    expect_same_collector(tu->BitMax, nat.bit_max, "BitMax");
    snpair_DeleteRes(tu);
}

std::vector<BitMatchCase> bit_match_cases()
{
    std::vector<BitMatchCase> cases;
    for (const std::string& g : form_generators()) {
        cases.push_back({ "crush_t2", g, 3, 40000, 0, 2 });
        cases.push_back({ "crush_t4", g, 2, 40000, 0, 4 });
        cases.push_back({ "t1_r7", g, 2, 5000, 7, 1 });
        cases.push_back({ "t13_r3", g, 2, 2000, 3, 13 });
        std::uint64_t x = 0xD1B54A32D192ED03ull ^ std::hash<std::string>()(g);
        auto draw = [&x](long lo, long hi) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            return lo + static_cast<long>(x % static_cast<std::uint64_t>(hi - lo + 1));
        };
        for (int i = 0; i < 3; ++i) {
            const long N = draw(1, 4);
            const long n = draw(2, 8000);
            const int r = static_cast<int>(draw(0, 25));
            const int t = static_cast<int>(draw(1, 8));
            cases.push_back({ "draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                    + std::to_string(n) + "_r" + std::to_string(r) + "_t" + std::to_string(t),
                g, N, n, r, t });
        }
    }
    // Equal points (all bits equal: the second group of bits, then 128).
    cases.push_back({ "equal_points_t2", "grid6", 2, 10000, 0, 2 });
    return cases;
}

INSTANTIATE_TEST_SUITE_P(Forms, BitMatchExact, testing::ValuesIn(bit_match_cases()),
    [](const testing::TestParamInfo<BitMatchCase>& i) {
        return clean(i.param.label + "_" + i.param.generator);
    });

// ---------------------------------------------------------------------------------------------
// The battery rows, against bbattery.c's calls and names (written out here from bbattery.c,
// independently of close_pairs.cpp's table).

struct BatteryRow {
    std::string battery;
    int number;
    bool bit_match; // else ClosePairs
    long N, n;
    int r, t, p, m;
    std::vector<std::string> names;
};

std::vector<std::string> cp_names(const std::string& suffix, bool mnp2s)
{
    std::vector<std::string> n;
    for (const char* s : { "NP", "mNP", "mNP1", "mNP2", "NJumps" })
        n.push_back(std::string("ClosePairs ") + s + suffix);
    if (mnp2s) n.push_back("ClosePairs mNP2S" + suffix);
    return n;
}

const std::vector<BatteryRow>& battery_rows()
{
    static const std::vector<BatteryRow> rows = {
        { "crush", 18, false, 10, 2000000, 0, 2, 0, 30, cp_names(", t = 2", false) },
        { "crush", 19, false, 10, 2000000, 0, 3, 0, 30, cp_names(", t = 3", true) },
        { "crush", 20, false, 5, 2000000, 0, 7, 0, 30, cp_names(", t = 7", true) },
        { "crush", 21, true, 4, 4000000, 0, 2, 0, 0, { "ClosePairsBitMatch, t = 2" } },
        { "crush", 22, true, 2, 4000000, 0, 4, 0, 0, { "ClosePairsBitMatch, t = 4" } },
        { "bigcrush", 22, false, 30, 6000000, 0, 3, 0, 30, cp_names(", t = 3", true) },
        { "bigcrush", 23, false, 20, 4000000, 0, 5, 0, 30, cp_names(", t = 5", true) },
        { "bigcrush", 24, false, 10, 3000000, 0, 9, 0, 30, cp_names(", t = 9", true) },
        { "bigcrush", 25, false, 5, 2000000, 0, 16, 0, 30, cp_names(", t = 16", true) },
    };
    return rows;
}

// TestU01's function with the row's parameters (N replications of n points) and the battery's
// p-values (bbattery.c's GetPVal_CPairs with its N argument above 1).
std::vector<rngvet::native::NativeStatistic> testu01_row(
    unif01_Gen* gen, const BatteryRow& row, long N, long n)
{
    std::vector<rngvet::native::NativeStatistic> out;
    snpair_Res* res = snpair_CreateRes();
    if (row.bit_match) {
        snpair_ClosePairsBitMatch(gen, res, N, n, row.r, row.t);
        out.push_back({ row.names[0], res->pVal[snpair_BM] });
    } else {
        snpair_ClosePairs(gen, res, N, n, row.r, row.t, row.p, row.m);
        const int picks[]
            = { snpair_NP, snpair_mNP, snpair_mNP1, snpair_mNP2, snpair_NJumps, snpair_mNP2S };
        for (std::size_t i = 0; i < row.names.size(); ++i)
            out.push_back({ row.names[i], res->pVal[picks[i]] });
    }
    snpair_DeleteRes(res);
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
    static const std::vector<rngvet::native::NativeTest> rows = rngvet::native::close_pairs_tests();
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

    // The row's table entry on a smaller scale: at most 3 replications (at least 2, as the
    // battery's names assume), 20000 points (ClosePairs, 3000 in 9 and 16 dimensions) or 50000
    // (ClosePairsBitMatch).
    const long N = std::min<long>(c.row.N, 3);
    const long n = c.row.bit_match ? 50000 : c.row.t > 7 ? 3000 : 20000;
    Feed feed1(c.generator), feed2(c.generator);
    const auto tu = testu01_row(feed1.gen(), c.row, N, n);
    std::vector<rngvet::native::NativeStatistic> nat;
    {
        rngvet::native::Numbers in(feed2.feed());
        if (c.row.bit_match) {
            for (const auto& r : rngvet::native::bit_match_rows())
                if (c.row.battery == r.battery && c.row.number == r.number)
                    nat = rngvet::native::bit_match_statistics(in, r, N, n, 2);
        } else {
            for (const auto& r : rngvet::native::close_pairs_rows())
                if (c.row.battery == r.battery && c.row.number == r.number)
                    nat = rngvet::native::close_pairs_statistics(in, r, N, n, 2);
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

// The native tables hold bbattery.c's parameters and names.
TEST(BatteryRows, TablesAreBbatteryCalls)
{
    std::size_t close_pairs = 0, bit_match = 0;
    for (const BatteryRow& row : battery_rows()) {
        const std::string where = row.battery + " " + std::to_string(row.number);
        int found = 0;
        if (row.bit_match) {
            ++bit_match;
            for (const auto& r : rngvet::native::bit_match_rows()) {
                if (row.battery != r.battery || row.number != r.number) continue;
                ++found;
                EXPECT_EQ(r.N, row.N) << where;
                EXPECT_EQ(r.n, row.n) << where;
                EXPECT_EQ(r.r, row.r) << where;
                EXPECT_EQ(r.t, row.t) << where;
                EXPECT_EQ(std::string(r.name), row.names[0]) << where;
            }
        } else {
            ++close_pairs;
            for (const auto& r : rngvet::native::close_pairs_rows()) {
                if (row.battery != r.battery || row.number != r.number) continue;
                ++found;
                EXPECT_EQ(r.N, row.N) << where;
                EXPECT_EQ(r.n, row.n) << where;
                EXPECT_EQ(r.r, row.r) << where;
                EXPECT_EQ(r.t, row.t) << where;
                EXPECT_EQ(r.p, row.p) << where;
                EXPECT_EQ(r.m, row.m) << where;
                EXPECT_EQ(cp_names(r.suffix, r.mnp2s), row.names) << where;
            }
        }
        EXPECT_EQ(found, 1) << where;
    }
    EXPECT_EQ(rngvet::native::close_pairs_rows().size(), close_pairs);
    EXPECT_EQ(rngvet::native::bit_match_rows().size(), bit_match);
}

TEST(BatteryRows, EveryRegisteredRowIsABbatteryRow)
{
    const auto tests = rngvet::native::close_pairs_tests();
    EXPECT_EQ(tests.size(), battery_rows().size());
    for (const rngvet::native::NativeTest& t : tests) {
        int known = 0;
        for (const BatteryRow& row : battery_rows())
            known += row.battery == t.battery && row.number == t.number;
        EXPECT_EQ(known, 1) << t.battery << " " << t.number;
    }
}

// Timing of Crush's rows with their n and 2 replications (run with
// --gtest_also_run_disabled_tests): TestU01's function, then the native one on 1 and 2 threads,
// wall and CPU seconds. Nothing is asserted about the times.
TEST(DISABLED_Timing, CrushRows)
{
    const long N = 2;
    for (const BatteryRow& row : battery_rows()) {
        if (row.battery != "crush") continue;
        Feed feed("mt19937");
        auto t0 = std::chrono::steady_clock::now();
        double c0 = cpu_seconds();
        const auto tu = testu01_row(feed.gen(), row, N, row.n);
        const double t_tu = seconds_since(t0), c_tu = cpu_seconds() - c0;
        double t_nat[2], c_nat[2];
        for (int threads : { 1, 2 }) {
            Feed f("mt19937");
            rngvet::native::Numbers in(f.feed());
            t0 = std::chrono::steady_clock::now();
            c0 = cpu_seconds();
            std::vector<rngvet::native::NativeStatistic> nat;
            if (row.bit_match) {
                for (const auto& r : rngvet::native::bit_match_rows())
                    if (r.number == row.number)
                        nat = rngvet::native::bit_match_statistics(in, r, N, row.n, threads);
            } else {
                for (const auto& r : rngvet::native::close_pairs_rows())
                    if (r.battery == row.battery && r.number == row.number)
                        nat = rngvet::native::close_pairs_statistics(in, r, N, row.n, threads);
            }
            t_nat[threads - 1] = seconds_since(t0);
            c_nat[threads - 1] = cpu_seconds() - c0;
            expect_same_statistics(tu, nat);
        }
        std::printf(
            "crush test %d (N = 2): TestU01 %.2f s (CPU %.2f s), native 1 thread %.2f s (CPU %.2f "
            "s), 2 threads %.2f s (CPU %.2f s)\n",
            row.number, t_tu, c_tu, t_nat[0], c_nat[0], t_nat[1], c_nat[1]);
    }
}

// Timing of the native BigCrush rows alone, with their n and one replication on one thread
// (run with --gtest_also_run_disabled_tests): wall and CPU seconds, and the p-values' bits, to
// compare two builds. Nothing is asserted about the times.
TEST(DISABLED_Timing, BigCrushRowsNative)
{
    for (const auto& r : rngvet::native::close_pairs_rows()) {
        if (std::string(r.battery) != "bigcrush") continue;
        Feed f("ranmar48");
        rngvet::native::Numbers in(f.feed());
        const auto t0 = std::chrono::steady_clock::now();
        const double c0 = cpu_seconds();
        const auto nat = rngvet::native::close_pairs_statistics(in, r, 1, r.n, 1);
        std::printf("bigcrush test %d (N = 1): native %.2f s (CPU %.2f s)", r.number,
            seconds_since(t0), cpu_seconds() - c0);
        for (const auto& s : nat)
            std::printf(" %a", s.pvalue);
        std::printf("\n");
    }
}

} // namespace
