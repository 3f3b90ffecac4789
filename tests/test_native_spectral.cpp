// Exactness of the native tests of this family against TestU01's own function (native_support.hpp):
// native sspectral_Fourier3 (batteries/native/spectral.hpp), every field of its result record,
// and the battery rows of Crush and BigCrush that use it.
//
// RNGVET_NATIVE_FULL=1 runs every row at its full size (TestU01 takes about 20 s per Crush row
// and 47 s per BigCrush row); otherwise the rows' table entries run with N = 40 replications
// and their parameters are compared with bbattery.c's.
//
// The timing of the rows at full size (TestU01, then native on 1 and 2 threads):
//   ./tests/test_native_spectral --gtest_filter='DISABLED_Timing*' --gtest_also_run_disabled_tests
#include "batteries/native/families.hpp"
#include "batteries/native/spectral.hpp"
#include "native_support.hpp"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

extern "C" {
#include <testu01/gofw.h>
#include <testu01/sres.h>
#include <testu01/sspectral.h>
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

struct SpectralRes {
    sspectral_Res* res = sspectral_CreateRes();
    SpectralRes() = default;
    SpectralRes(const SpectralRes&) = delete;
    SpectralRes& operator=(const SpectralRes&) = delete;
    ~SpectralRes() { sspectral_DeleteRes(res); }
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

// Every field: the n/4 standardized sums, the tests on them, and the last replication's
// transform (with the bits past n that TestU01 writes after it).
void expect_same_records(const sspectral_Res* a, const sspectral_Res* b, long bits)
{
    EXPECT_EQ(a->jmin, b->jmin);
    ASSERT_EQ(a->jmax, b->jmax);
    expect_same_collector(a->Bas->sVal1, b->Bas->sVal1, "sVal1");
    expect_same_collector(a->Bas->pVal1, b->Bas->pVal1, "pVal1");
    expect_same_arrays(a->Bas->sVal2, b->Bas->sVal2, "sVal2");
    expect_same_arrays(a->Bas->pVal2, b->Bas->pVal2, "pVal2");
    int shown = 0;
    for (long j = 0; j < bits; ++j) {
        const auto same = same_bits(a->Coef[j], b->Coef[j]);
        if (!same && ++shown <= 5) ADD_FAILURE() << "Coef[" << j << "] " << same.message();
    }
    EXPECT_EQ(shown, 0) << "Coef values differing";
}

// ---------------------------------------------------------------------------------------------
// sspectral_Fourier3

struct Case {
    std::string label;
    std::string generator;
    long N;
    int t, r, s;
};

void PrintTo(const Case& c, std::ostream* os)
{
    *os << c.label << "_" << c.generator;
}

int case_threads(const std::string& label, const std::string& generator)
{
    return 1 + static_cast<int>(std::hash<std::string>()(label + "/" + generator) % 3);
}

class Fourier3Exact : public testing::TestWithParam<Case> { };

TEST_P(Fourier3Exact, SameRecordsAndCount)
{
    const Case& c = GetParam();
    HarnessFeed feed1(c.generator), feed2(c.generator);
    SpectralRes tu, nat;
    sspectral_Fourier3(feed1.gen(), tu.res, c.N, c.t, c.r, c.s);
    {
        rngvet::native::Numbers in(feed2.feed());
        const int threads = case_threads(c.label, c.generator);
        SCOPED_TRACE("threads " + std::to_string(threads));
        rngvet::native::fourier3(in, nat.res, c.N, c.t, c.r, c.s, threads);
    }
    const long KALL = (1L << c.t) / c.s + 1;
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    EXPECT_EQ(feed1.consumed(), static_cast<std::uint64_t>(c.N * KALL));
    expect_same_records(tu.res, nat.res, KALL * c.s);
}

std::vector<Case> cases()
{
    std::vector<Case> out;
    for (const std::string& g : harness_generators()) {
        // The battery rows' forms (t = 14) with fewer replications.
        out.push_back({ "crush_r0_s30", g, 12, 14, 0, 30 });
        out.push_back({ "crush_r20_s10", g, 12, 14, 20, 10 });
        out.push_back({ "bigcrush_r0_s3", g, 12, 14, 0, 3 });
        out.push_back({ "bigcrush_r27_s3", g, 12, 14, 27, 3 });
        // Every transform length from the least (t = 2: no L-shaped stage of more than one
        // butterfly) to 2^16, odd and even t (rbitrev's two table sizes).
        for (int t = 2; t <= 16; ++t)
            out.push_back({ "t" + std::to_string(t), g, t <= 12 ? 30 : 3, t, 1, 7 });
        // Several chunks of replications (128 at a time for t = 14, s = 1), the last one
        // partial and not a whole number of vector lanes.
        out.push_back({ "chunks_N301_s1", g, 301, 14, 2, 1 });
        // BigCrush's s = 3 over two chunks (380 replications at a time): the second read while
        // the first is transformed.
        out.push_back({ "chunks_N401_s3", g, 401, 14, 0, 3 });
        // One replication, one bit per number, all 32 bits.
        out.push_back({ "N1_s1", g, 1, 12, 31, 1 });
        out.push_back({ "N2_s32", g, 2, 13, 0, 32 });
        // Deterministic pseudo-random draws within the valid ranges.
        std::uint64_t x = 0x9E3779B97F4A7C15ull ^ std::hash<std::string>()(g);
        auto draw = [&x](long lo, long hi) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            return lo + static_cast<long>(x % static_cast<std::uint64_t>(hi - lo + 1));
        };
        for (int i = 0; i < 3; ++i) {
            const int t = static_cast<int>(draw(2, 13));
            const long N = draw(1, 40);
            const int s = static_cast<int>(draw(1, 32));
            const int r = static_cast<int>(draw(0, 32 - s));
            out.push_back({ "draw" + std::to_string(i) + "_N" + std::to_string(N) + "_t"
                    + std::to_string(t) + "_r" + std::to_string(r) + "_s" + std::to_string(s),
                g, N, t, r, s });
        }
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(
    Forms, Fourier3Exact, testing::ValuesIn(cases()), [](const testing::TestParamInfo<Case>& i) {
        return clean(i.param.label + "_" + i.param.generator);
    });

// ---------------------------------------------------------------------------------------------
// The battery rows, against bbattery.c's calls and names (written out here from bbattery.c,
// independently of spectral.cpp's table).

struct BatteryRow {
    std::string battery;
    int number;
    long N;
    int t, r, s;
    std::string name;
};

const std::vector<BatteryRow>& battery_rows()
{
    static const std::vector<BatteryRow> rows = {
        { "crush", 74, 50000, 14, 0, 30, "Fourier3, r = 0" },
        { "crush", 75, 50000, 14, 20, 10, "Fourier3, r = 20" },
        { "bigcrush", 84, 100000, 14, 0, 3, "Fourier3, r = 0" },
        { "bigcrush", 85, 100000, 14, 27, 3, "Fourier3, r = 27" },
    };
    return rows;
}

// TestU01's function with the row's parameters (N replications) and the battery's p-value.
std::vector<rngvet::native::NativeStatistic> testu01_row(
    unif01_Gen* gen, const BatteryRow& row, long N)
{
    SpectralRes r;
    sspectral_Fourier3(gen, r.res, N, row.t, row.r, row.s);
    return { { row.name, r.res->Bas->pVal2[gofw_AD] } };
}

// The family's registered row for a battery's test, or nullptr.
const rngvet::native::NativeTest* family_row(const std::string& battery, int number)
{
    static const std::vector<rngvet::native::NativeTest> rows = rngvet::native::spectral_tests();
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
        const auto tu = testu01_row(feed1.gen(), c.row, c.row.N);
        std::vector<rngvet::native::NativeStatistic> nat;
        {
            rngvet::native::Numbers in(feed2.feed());
            nat = found->run(in);
        }
        EXPECT_EQ(feed1.consumed(), feed2.consumed());
        expect_same_statistics(tu, nat);
    }

    // The row's table entry with N = 40 (the parameters themselves are compared with
    // bbattery.c's in BatteryRows.TablesAreBbatteryCalls).
    const long N = 40;
    HarnessFeed feed1(c.generator), feed2(c.generator);
    const auto tu = testu01_row(feed1.gen(), c.row, N);
    std::vector<rngvet::native::NativeStatistic> nat;
    {
        rngvet::native::Numbers in(feed2.feed());
        for (const auto& r : rngvet::native::fourier3_rows())
            if (c.row.battery == r.battery && c.row.number == r.number)
                nat = rngvet::native::fourier3_statistics(in, r, N, 2);
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
        for (const auto& r : rngvet::native::fourier3_rows()) {
            if (row.battery != r.battery || row.number != r.number) continue;
            ++found;
            EXPECT_EQ(r.N, row.N) << where;
            EXPECT_EQ(r.t, row.t) << where;
            EXPECT_EQ(r.r, row.r) << where;
            EXPECT_EQ(r.s, row.s) << where;
            EXPECT_EQ(std::string(r.name), row.name) << where;
        }
        EXPECT_EQ(found, 1) << where;
    }
    EXPECT_EQ(rngvet::native::fourier3_rows().size(), battery_rows().size());
}

TEST(BatteryRows, EveryRegisteredRowIsABbatteryRow)
{
    const auto tests = rngvet::native::spectral_tests();
    EXPECT_EQ(tests.size(), battery_rows().size());
    for (const rngvet::native::NativeTest& t : tests) {
        int known = 0;
        for (const BatteryRow& row : battery_rows())
            known += row.battery == t.battery && row.number == t.number;
        EXPECT_EQ(known, 1) << t.battery << " " << t.number;
    }
}

// Timing of the rows at full size (run with --gtest_also_run_disabled_tests): TestU01's
// function, then the native one on 1 and 2 threads. Nothing is asserted about the times.
TEST(DISABLED_Timing, Rows)
{
    for (const BatteryRow& row : battery_rows()) {
        HarnessFeed feed("ranmar48");
        auto t0 = std::chrono::steady_clock::now();
        const auto tu = testu01_row(feed.gen(), row, row.N);
        const double t_tu = seconds_since(t0);
        double t_nat[2];
        for (int threads : { 1, 2 }) {
            rngvet::native::set_threads(threads);
            HarnessFeed f("ranmar48");
            t0 = std::chrono::steady_clock::now();
            std::vector<rngvet::native::NativeStatistic> nat;
            {
                rngvet::native::Numbers in(f.feed());
                nat = family_row(row.battery, row.number)->run(in);
            }
            t_nat[threads - 1] = seconds_since(t0);
            expect_same_statistics(tu, nat);
            EXPECT_EQ(feed.consumed(), f.consumed());
        }
        std::printf(
            "ranmar48 %s test %d: TestU01 %.3f s, native 1 thread %.3f s, 2 threads %.3f s\n",
            row.battery.c_str(), row.number, t_tu, t_nat[0], t_nat[1]);
    }
    rngvet::native::set_threads(2);
}

} // namespace
