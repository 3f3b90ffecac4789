// The device paths of smarsa_Savir2, smarsa_GCD and sknuth_MaxOft's sorted maxima, end to end
// through the families:
// device_tables_counts.hpp's algorithms are compiled here by g++ for Thrust's OpenMP system and
// stand in for device_tables.hpp's functions (this executable defines them, so the family calls
// these instead of the ones a build without CUDA links), and each test is run twice on the same
// words: once on a host stream (its CPU path, which test_native_smarsa_more holds equal to
// TestU01) and once on a source that writes its words into the system's memory (the device
// path). Every statistic, p-value and count must be equal as bits, the same count of numbers
// read, and the device path must have been taken.
//
// The device side reads in small chunks here (a few hundred to a few thousand groups or pairs),
// so that a replication spans many, and GCD's last blocks are bounded by the pairs still to be
// counted. The streams: the harness's five generators, a grid of few values, 60-bit words
// (StripD's steps round, GetBits saturates) and "zeros", words whose top bits are often all 0
// (GCD's pairs with a zero, read and dropped; Savir2's chains through U = 0; MaxOft's equal
// maxima).
#include "batteries/native/device_tables.hpp"
#include "batteries/native/device_tables_counts.hpp"
#include "batteries/native/max_oft.hpp"
#include "batteries/native/smarsa_more.hpp"
#include "native_support.hpp"

#include <memory>

extern "C" {
#include <testu01/sknuth.h>
#include <testu01/smarsa.h>
#include <testu01/sres.h>
}

static_assert(THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP,
    "test_native_device_tables runs the device algorithms on Thrust's OpenMP system");

namespace {
// The device side's words at a time (set by each case).
std::size_t chunk_words = 4099;
} // namespace

namespace rngvet::native {
namespace device = device_tables_counts;

std::optional<std::vector<std::vector<std::uint64_t>>> device_savir2_histograms(
    Numbers& in, long N, long n, int r, long m, int t, long msup)
{
    return device::savir2_histograms(in, N, n, r, m, t, msup, chunk_words);
}

std::optional<std::vector<std::vector<std::uint64_t>>> device_gcd_tables(
    Numbers& in, long N, long n, int r, int s, int jmax, int kmax)
{
    return device::gcd_tables(in, N, n, r, s, jmax, kmax, chunk_words);
}

bool device_sorted_maxima(Numbers& in, long N, long n, int r, int t, const SortedValuesDone& done)
{
    return device::sorted_maxima(in, N, n, r, t, done, chunk_words);
}

} // namespace rngvet::native

namespace {

namespace native = rngvet::native;
using namespace rngvet_test;

// 32-bit words whose top 12 bits are all 0 one time in about 40 (and the word 0 itself one time
// in about 200).
class ZerosStream : public rngvet::Stream {
public:
    int bits() const override { return 32; }
    void fill(std::uint64_t* out, std::size_t n) override
    {
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint64_t x = step();
            const std::uint64_t w = x >> 32;
            const unsigned pick = static_cast<unsigned>(x >> 8) % 200;
            out[i] = pick == 0 ? 0 : pick < 5 ? (w & 0xFFFFF) : w;
        }
    }
    std::string name() const override { return "zeros"; }

private:
    std::uint64_t step()
    {
        x_ = x_ * 6364136223846793005ull + 1442695040888963407ull;
        return x_;
    }
    std::uint64_t x_ = 7;
};

std::unique_ptr<rngvet::Stream> make_stream(const std::string& name)
{
    if (name == "zeros") return std::make_unique<ZerosStream>();
    return rngvet_test::device_case_stream(name);
}

struct Case {
    std::string name;
    long N, n;
    int r;
    long m; // Savir2's m
    int t; // Savir2's t, GCD's s
    std::size_t chunk; // the device side's words at a time
};

std::ostream& operator<<(std::ostream& o, const Case& c)
{
    return o << c.name;
}

using Param = std::tuple<Case, std::string>;

// --- smarsa_Savir2 ---------------------------------------------------------------------------

std::vector<Case> savir2_cases()
{
    std::vector<Case> cases;
    // The rows' forms (m = 2^20, t = 30) with fewer groups (10^5: classes enough for a
    // chi-square) and at most 2 replications.
    for (const native::SmarsaMoreRow& row : native::smarsa_more_rows())
        if (row.test == native::SmarsaMoreTest::savir2)
            cases.push_back({ row_name(row.battery, row.number), std::min(row.N, 2L), 100000, row.r,
                row.d, row.t, 30 * 997 });
    // Few classes, t = 1, a chunk of one group and a chunk of a replication whole.
    cases.push_back({ "m10_t3_r20", 2, 5000, 20, 10, 3, 3 * 101 });
    cases.push_back({ "t1", 1, 2000, 4, 100, 1, 1 });
    cases.push_back({ "m90000_t18_whole", 2, 8000, 0, 90000, 18, 18 * 8000 });
    return cases;
}

class DeviceSavir2 : public testing::TestWithParam<Param> { };

TEST_P(DeviceSavir2, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()), make_stream);
    chunk_words = c.chunk;
    const Chi2 a = new_chi2(), b = new_chi2();
    runs.both([&](native::Numbers& in, int i) {
        native::savir2(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, c.m, c.t, 2);
    });
    expect_same_chi2(a.get(), b.get());
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceSavir2,
    testing::Combine(
        testing::ValuesIn(savir2_cases()), testing::ValuesIn(device_case_streams_and("zeros"))),
    CaseName());

// --- smarsa_GCD ------------------------------------------------------------------------------

std::vector<Case> gcd_cases()
{
    std::vector<Case> cases;
    for (const native::SmarsaMoreRow& row : native::smarsa_more_rows())
        if (row.test == native::SmarsaMoreTest::gcd)
            cases.push_back({ row_name(row.battery, row.number), std::min(row.N, 3L), 40000, row.r,
                0, row.t, 2 * 997 });
    // Zeros often drawn, all 32 bits, blocks of one pair and of a replication whole (with its
    // pairs drawn again in later blocks).
    cases.push_back({ "s8_zeros", 2, 4000, 3, 0, 8, 2 * 61 });
    cases.push_back({ "s32", 1, 30000, 0, 0, 32, 2 * 4096 });
    cases.push_back({ "pair_blocks", 2, 300, 1, 0, 12, 2 });
    cases.push_back({ "whole", 3, 20000, 2, 0, 16, 2 * 20000 });
    return cases;
}

class DeviceGcd : public testing::TestWithParam<Param> { };

TEST_P(DeviceGcd, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    // The grid's words have 5 bits: past them every StripB value is 0, and GCD would draw
    // forever (TestU01 too).
    if (std::get<1>(GetParam()) == "grid" && c.r >= 5) GTEST_SKIP() << "no pair without a zero";
    TwoRuns runs(std::get<1>(GetParam()), make_stream);
    chunk_words = c.chunk;
    const auto a = owned(smarsa_CreateRes2, smarsa_DeleteRes2),
               b = owned(smarsa_CreateRes2, smarsa_DeleteRes2);
    runs.both([&](native::Numbers& in, int i) {
        native::gcd(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, c.t, 2);
    });
    expect_same_chi2(a->GCD, b->GCD);
    expect_same_chi2(a->NumIter, b->NumIter);
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceGcd,
    testing::Combine(
        testing::ValuesIn(gcd_cases()), testing::ValuesIn(device_case_streams_and("zeros"))),
    CaseName());

// --- sknuth_MaxOft ---------------------------------------------------------------------------

std::vector<Case> max_oft_cases()
{
    std::vector<Case> cases;
    // The rows' forms with fewer groups (n = 20000, d = n / 10: sknuth_MaxOft needs n / d >= 10)
    // and at most 3 replications; the maxima of a replication over many chunks.
    for (const native::MaxOftRow& row : native::max_oft_rows())
        cases.push_back({ row_name(row.battery, row.number), std::min(row.N, 3L), 20000, row.r,
            row.d, row.t, static_cast<std::size_t>(row.t) * 1009 });
    // Few classes, chunks of one group, two classes (n = 20, the fewest groups d = 2 takes), r > 0,
    // a replication in one chunk.
    cases.push_back({ "N2_t3_d10", 2, 400, 0, 10, 3, 1 });
    cases.push_back({ "n20_d2", 3, 20, 0, 2, 4, 4 });
    cases.push_back({ "r7_t2", 2, 5000, 7, 100, 2, 2 * 5000 });
    return cases;
}

class DeviceMaxOft : public testing::TestWithParam<Param> { };

TEST_P(DeviceMaxOft, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()), make_stream);
    chunk_words = c.chunk;
    const int d = static_cast<int>(std::min(c.m, std::max(1L, c.n / 10)));
    const auto a = owned(sknuth_CreateRes1, sknuth_DeleteRes1),
               b = owned(sknuth_CreateRes1, sknuth_DeleteRes1);
    runs.both([&](native::Numbers& in, int i) {
        native::max_oft(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, d, c.t, 2);
    });
    expect_same_chi2(a->Chi, b->Chi);
    expect_same_values(a->Bas, b->Bas, "Bas ");
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceMaxOft,
    testing::Combine(
        testing::ValuesIn(max_oft_cases()), testing::ValuesIn(device_case_streams_and("zeros"))),
    CaseName());

} // namespace
