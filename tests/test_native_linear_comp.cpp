// Exactness of the native tests of this family against TestU01's own function (native_support.hpp):
// native scomp_LinearComp (batteries/native/linear_comp.hpp), every field of its result record,
// and the battery rows of Crush and BigCrush that use it.
//
// RNGVET_NATIVE_FULL=1 runs every row at its full size (TestU01 takes about 15 s per Crush row
// and 165 s per BigCrush row); otherwise the rows' table entries run with n = 10000 bits and
// their parameters are compared with bbattery.c's.
//
// The timing of the rows at full size (TestU01, then native):
//   ./tests/test_native_linear_comp --gtest_filter='DISABLED_Timing*'
//   --gtest_also_run_disabled_tests
#include "batteries/native/families.hpp"
#include "batteries/native/linear_comp.hpp"
#include "native_support.hpp"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

extern "C" {
#include <testu01/gofw.h>
#include <testu01/scomp.h>
#include <testu01/sres.h>
#include <testu01/statcoll.h>
}

namespace {

using rngvet_test::clean;
using rngvet_test::expect_same_statistics;
using rngvet_test::harness_generators;
using rngvet_test::HarnessFeed;
using rngvet_test::same_bits;

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct ScompRes {
    scomp_Res* res = scomp_CreateRes();
    ScompRes() = default;
    ScompRes(const ScompRes&) = delete;
    ScompRes& operator=(const ScompRes&) = delete;
    ~ScompRes() { scomp_DeleteRes(res); }
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

// Every field of a chi-square record, its classes 0..jmax whatever its degrees of freedom.
void expect_same_chi2(const sres_Chi2* a, const sres_Chi2* b, const std::string& what)
{
    EXPECT_EQ(a->degFree, b->degFree) << what;
    EXPECT_EQ(a->jmin, b->jmin) << what;
    ASSERT_EQ(a->jmax, b->jmax) << what;
    for (long j = 0; j <= a->jmax; ++j) {
        EXPECT_EQ(a->Count[j], b->Count[j]) << what << " Count[" << j << "]";
        EXPECT_TRUE(same_bits(a->NbExp[j], b->NbExp[j])) << what << " NbExp[" << j << "]";
        EXPECT_EQ(a->Loc[j], b->Loc[j]) << what << " Loc[" << j << "]";
    }
    expect_same_collector(a->sVal1, b->sVal1, what + " sVal1");
    expect_same_collector(a->pVal1, b->pVal1, what + " pVal1");
    expect_same_arrays(a->sVal2, b->sVal2, what + " sVal2");
    expect_same_arrays(a->pVal2, b->pVal2, what + " pVal2");
}

void expect_same_records(const scomp_Res* a, const scomp_Res* b)
{
    expect_same_collector(a->JumpNum->sVal1, b->JumpNum->sVal1, "JumpNum sVal1");
    expect_same_collector(a->JumpNum->pVal1, b->JumpNum->pVal1, "JumpNum pVal1");
    expect_same_arrays(a->JumpNum->sVal2, b->JumpNum->sVal2, "JumpNum sVal2");
    expect_same_arrays(a->JumpNum->pVal2, b->JumpNum->pVal2, "JumpNum pVal2");
    expect_same_chi2(a->JumpSize, b->JumpSize, "JumpSize");
    expect_same_chi2(a->LinComp, b->LinComp, "LinComp");
}

// ---------------------------------------------------------------------------------------------
// scomp_LinearComp

struct Case {
    std::string label;
    std::string generator;
    long N, n;
    int r, s;
};

void PrintTo(const Case& c, std::ostream* os)
{
    *os << c.label << "_" << c.generator;
}

class LinearCompExact : public testing::TestWithParam<Case> { };

TEST_P(LinearCompExact, SameRecordsAndCount)
{
    const Case& c = GetParam();
    HarnessFeed feed1(c.generator), feed2(c.generator);
    ScompRes tu, nat;
    scomp_LinearComp(feed1.gen(), tu.res, c.N, c.n, c.r, c.s);
    {
        rngvet::native::Numbers in(feed2.feed());
        rngvet::native::linear_comp(in, nat.res, c.N, c.n, c.r, c.s);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    EXPECT_EQ(feed1.consumed(), static_cast<std::uint64_t>(c.N * (c.n / c.s)));
    expect_same_records(tu.res, nat.res);
}

std::vector<Case> cases()
{
    std::vector<Case> out;
    for (const std::string& g : harness_generators()) {
        // The battery rows' form (N = 1, s = 1) with n smaller by 12 and 40, r = 0 and 29.
        for (int r : { 0, 29 })
            out.push_back({ "rows_n10000_r" + std::to_string(r), g, 1, 10000, r, 1 });
        // Replications: TestU01's polynomial arrays carry over from one to the next.
        out.push_back({ "N3_n3001_s1", g, 3, 3001, 5, 1 });
        out.push_back({ "N4_n2000_s3", g, 4, 2000, 17, 3 });
        // More than 2 gofs_MinExpected replications: the linear complexity's chi-square, odd
        // and even n.
        out.push_back({ "N25_n640_s32", g, 25, 640, 0, 32 });
        out.push_back({ "N30_n501_s1", g, 30, 501, 29, 1 });
        out.push_back({ "N21_n997_s7", g, 21, 997, 11, 7 });
        // Too few bits for the jumps' chi-square (one class), n not a multiple of s.
        out.push_back({ "N2_n100_s1", g, 2, 100, 0, 1 });
        out.push_back({ "N1_n45_s4", g, 1, 45, 3, 4 });
        // Deterministic pseudo-random draws within the valid ranges.
        std::uint64_t x = 0x9E3779B97F4A7C15ull ^ std::hash<std::string>()(g);
        auto draw = [&x](long lo, long hi) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            return lo + static_cast<long>(x % static_cast<std::uint64_t>(hi - lo + 1));
        };
        for (int i = 0; i < 3; ++i) {
            const long N = draw(1, 24);
            const int s = static_cast<int>(draw(1, 32));
            const int r = static_cast<int>(draw(0, 32 - s));
            const long n = draw(s, 2500);
            out.push_back({ "draw" + std::to_string(i) + "_N" + std::to_string(N) + "_n"
                    + std::to_string(n) + "_r" + std::to_string(r) + "_s" + std::to_string(s),
                g, N, n, r, s });
        }
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(
    Forms, LinearCompExact, testing::ValuesIn(cases()), [](const testing::TestParamInfo<Case>& i) {
        return clean(i.param.label + "_" + i.param.generator);
    });

// ---------------------------------------------------------------------------------------------
// The battery rows, against bbattery.c's calls and names (written out here from bbattery.c,
// independently of linear_comp.cpp's table).

struct BatteryRow {
    std::string battery;
    int number;
    long N, n;
    int r, s;
    std::vector<std::string> names;
};

const std::vector<BatteryRow>& battery_rows()
{
    static const std::vector<BatteryRow> rows = {
        { "crush", 71, 1, 120000, 0, 1, { "LinearComp, r = 0", "LinearComp, r = 0" } },
        { "crush", 72, 1, 120000, 29, 1, { "LinearComp, r = 29", "LinearComp, r = 29" } },
        { "bigcrush", 80, 1, 400020, 0, 1, { "LinearComp, r = 0", "LinearComp, r = 0" } },
        { "bigcrush", 81, 1, 400020, 29, 1, { "LinearComp, r = 29", "LinearComp, r = 0" } },
    };
    return rows;
}

// TestU01's function with the row's parameters (n bits) and the battery's p-values.
std::vector<rngvet::native::NativeStatistic> testu01_row(
    unif01_Gen* gen, const BatteryRow& row, long n)
{
    ScompRes r;
    scomp_LinearComp(gen, r.res, row.N, n, row.r, row.s);
    return { { row.names[0], r.res->JumpNum->pVal2[gofw_Mean] },
        { row.names[1], r.res->JumpSize->pVal2[gofw_Mean] } };
}

// The family's registered row for a battery's test, or nullptr.
const rngvet::native::NativeTest* family_row(const std::string& battery, int number)
{
    static const std::vector<rngvet::native::NativeTest> rows = rngvet::native::linear_comp_tests();
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
        const auto tu = testu01_row(feed1.gen(), c.row, c.row.n);
        std::vector<rngvet::native::NativeStatistic> nat;
        {
            rngvet::native::Numbers in(feed2.feed());
            nat = found->run(in);
        }
        EXPECT_EQ(feed1.consumed(), feed2.consumed());
        EXPECT_EQ(feed1.consumed(), static_cast<std::uint64_t>(c.row.n));
        expect_same_statistics(tu, nat);
    }

    // The row's table entry with n = 10000 bits (the parameters themselves are compared with
    // bbattery.c's in BatteryRows.TablesAreBbatteryCalls).
    const long n = 10000;
    HarnessFeed feed1(c.generator), feed2(c.generator);
    const auto tu = testu01_row(feed1.gen(), c.row, n);
    std::vector<rngvet::native::NativeStatistic> nat;
    {
        rngvet::native::Numbers in(feed2.feed());
        for (const auto& r : rngvet::native::linear_comp_rows())
            if (c.row.battery == r.battery && c.row.number == r.number)
                nat = rngvet::native::linear_comp_statistics(in, r, n);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    expect_same_statistics(tu, nat);
}

std::vector<RowCase> row_cases()
{
    std::vector<RowCase> out;
    for (const BatteryRow& row : battery_rows())
        for (const std::string& g : harness_generators())
            out.push_back({ row, g });
    return out;
}

INSTANTIATE_TEST_SUITE_P(Rows, BatteryRowExact, testing::ValuesIn(row_cases()),
    [](const testing::TestParamInfo<RowCase>& i) {
        return clean(
            i.param.row.battery + std::to_string(i.param.row.number) + "_" + i.param.generator);
    });

// The native table holds bbattery.c's parameters and names.
TEST(BatteryRows, TablesAreBbatteryCalls)
{
    for (const BatteryRow& row : battery_rows()) {
        const std::string where = row.battery + " " + std::to_string(row.number);
        int found = 0;
        for (const auto& r : rngvet::native::linear_comp_rows()) {
            if (row.battery != r.battery || row.number != r.number) continue;
            ++found;
            EXPECT_EQ(r.N, row.N) << where;
            EXPECT_EQ(r.n, row.n) << where;
            EXPECT_EQ(r.r, row.r) << where;
            EXPECT_EQ(r.s, row.s) << where;
            EXPECT_EQ(std::string(r.jump_count_name), row.names[0]) << where;
            EXPECT_EQ(std::string(r.jump_size_name), row.names[1]) << where;
        }
        EXPECT_EQ(found, 1) << where;
    }
    EXPECT_EQ(rngvet::native::linear_comp_rows().size(), battery_rows().size());
}

TEST(BatteryRows, EveryRegisteredRowIsABbatteryRow)
{
    const auto tests = rngvet::native::linear_comp_tests();
    EXPECT_EQ(tests.size(), battery_rows().size());
    for (const rngvet::native::NativeTest& t : tests) {
        int known = 0;
        for (const BatteryRow& row : battery_rows())
            known += row.battery == t.battery && row.number == t.number;
        EXPECT_EQ(known, 1) << t.battery << " " << t.number;
    }
}

// Timing of the rows at full size (run with --gtest_also_run_disabled_tests): TestU01's
// function, then the native one. Nothing is asserted about the times.
TEST(DISABLED_Timing, Rows)
{
    for (const BatteryRow& row : battery_rows()) {
        HarnessFeed feed1("ranmar48"), feed2("ranmar48");
        auto t0 = std::chrono::steady_clock::now();
        const auto tu = testu01_row(feed1.gen(), row, row.n);
        const double t_tu = seconds_since(t0);
        std::vector<rngvet::native::NativeStatistic> nat;
        t0 = std::chrono::steady_clock::now();
        {
            rngvet::native::Numbers in(feed2.feed());
            nat = family_row(row.battery, row.number)->run(in);
        }
        const double t_nat = seconds_since(t0);
        expect_same_statistics(tu, nat);
        EXPECT_EQ(feed1.consumed(), feed2.consumed());
        std::printf("ranmar48 %s test %d: TestU01 %.3f s, native %.3f s\n", row.battery.c_str(),
            row.number, t_tu, t_nat);
    }
}

} // namespace
