// The device paths of sstring_PeriodsInStrings, sknuth_Run, sstring_LongestHeadRun and
// sstring_Run, end to end through the families: device_runs_counts.hpp's algorithms are compiled
// here by g++ for Thrust's OpenMP system and stand in for device_runs.hpp's functions (this
// executable defines all of them, so the families call these instead of the ones a build without
// CUDA links), and each family is run twice on the same words: once on a host stream (its CPU
// path, which the family's own test holds equal to TestU01) and once on a source that writes its
// words into the system's memory (the device path). Every statistic and p-value must be equal as
// bits, the same count of numbers read, and the device path must have been taken.
//
// The device side reads in small chunks and blocks here (a few thousand numbers, down to one
// number for Run), so that replications, sequences and runs span many of them. The streams: the
// harness's five generators, a grid of few values (ties: equal successive values), 60-bit words
// (StripD's steps round, GetBits saturates) and "blocks", stretches of equal words (all ones, all
// zeros) between stretches of random ones (sequences of ones only, long runs of bits, ties).
#include "batteries/native/bit_runs.hpp"
#include "batteries/native/device_runs.hpp"
#include "batteries/native/device_runs_counts.hpp"
#include "batteries/native/sknuth_order.hpp"
#include "batteries/native/sstring_bits.hpp"
#include "native_support.hpp"

#include <memory>

extern "C" {
#include <testu01/sres.h>
#include <testu01/sstring.h>
}

static_assert(THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP,
    "test_native_device_runs runs the device algorithms on Thrust's OpenMP system");

namespace {
// The device side's chunk of sknuth_Run (set by each case).
std::size_t run_chunk = 1009;
} // namespace

namespace rngvet::native {
namespace device = device_runs_counts;

std::optional<std::vector<std::vector<std::uint64_t>>> device_period_histograms(
    Numbers& in, long N, long n, int r, int s, const std::vector<std::uint32_t>& correlations)
{
    return device::period_histograms(in, N, n, r, s, correlations, 4099);
}

std::optional<std::vector<std::vector<OnesRuns>>> device_head_runs(
    Numbers& in, long N, long n, int r, int s, long K)
{
    return device::head_runs(in, N, n, r, s, K, 1031);
}

bool device_run_chunks(Numbers& in, long N, long n, int r, bool up, const RunChunkDone& chunk)
{
    return device::run_chunks(in, N, n, r, up, chunk, run_chunk);
}

namespace {

class HostBitRunScan : public DeviceBitRunScan {
public:
    HostBitRunScan(Numbers& in, int r, int s, int k)
        : scan_(in, r, s, k, 4099)
    {
    }
    std::size_t max_words() const override { return scan_.max_words(); }
    bool scan(std::size_t size, int prev, BitRunBlock& out) override
    {
        return scan_.scan(size, prev, out);
    }

private:
    device::BitRunScan scan_;
};

} // namespace

// Blocks of at most 4099 bits, so that a replication spans many.
std::unique_ptr<DeviceBitRunScan> device_bit_run_scan(Numbers& in, int r, int s, int k)
{
    if (!in.fill_device(nullptr, 0)) return nullptr;
    return std::make_unique<HostBitRunScan>(in, r, s, k);
}

} // namespace rngvet::native

namespace {

namespace native = rngvet::native;
using namespace rngvet_test;

// Stretches of 1 to 3000 equal words (all ones, or all zeros) between stretches of random words,
// 32 bits.
class BlockStream : public rngvet::Stream {
public:
    int bits() const override { return 32; }
    void fill(std::uint64_t* out, std::size_t n) override
    {
        for (std::size_t i = 0; i < n; ++i) {
            if (left_ == 0) {
                kind_ = (kind_ + 1) % 3;
                left_ = 1 + step() % 3000;
            }
            --left_;
            out[i] = kind_ == 0 ? 0xFFFFFFFFull : kind_ == 1 ? step() >> 32 : 0;
        }
    }
    std::string name() const override { return "blocks"; }

private:
    std::uint64_t step()
    {
        x_ = x_ * 6364136223846793005ull + 1442695040888963407ull;
        return x_;
    }
    std::uint64_t x_ = 42;
    std::uint64_t left_ = 0;
    int kind_ = 0;
};

std::unique_ptr<rngvet::Stream> make_stream(const std::string& name)
{
    if (name == "blocks") return std::make_unique<BlockStream>();
    return rngvet_test::device_case_stream(name);
}

struct Case {
    std::string name;
    long N, n;
    int r, s; // s: the bits of PeriodsInStrings, LongestHeadRun and sstring_Run
    long L; // LongestHeadRun
    bool up; // sknuth_Run
    std::size_t chunk; // sknuth_Run's device chunk
};

std::ostream& operator<<(std::ostream& o, const Case& c)
{
    return o << c.name;
}

using Param = std::tuple<Case, std::string>;

// --- sstring_PeriodsInStrings ----------------------------------------------------------------

std::vector<Case> period_cases()
{
    std::vector<Case> cases;
    for (const native::SstringBitsRow& row : native::sstring_bits_rows())
        if (row.test == native::SstringBitsTest::PeriodsInStrings)
            cases.push_back({ row_name(row.battery, row.number), std::min(row.N, 3L),
                60000 / std::min(row.N, 3L), row.r, row.s, 0, false, 0 });
    cases.push_back({ "s31", 1, 30000, 0, 31, 0, false, 0 });
    cases.push_back({ "N4_s2", 4, 1000, 29, 2, 0, false, 0 });
    cases.push_back({ "s21", 2, 20000, 3, 21, 0, false, 0 });
    return cases;
}

class DevicePeriodsInStrings : public testing::TestWithParam<Param> { };

TEST_P(DevicePeriodsInStrings, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()), make_stream);
    const Chi2 a = new_chi2(), b = new_chi2();
    runs.both([&](native::Numbers& in, int i) {
        native::periods_in_strings(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, c.s, 2);
    });
    expect_same_chi2(a.get(), b.get());
}

INSTANTIATE_TEST_SUITE_P(Forms, DevicePeriodsInStrings,
    testing::Combine(
        testing::ValuesIn(period_cases()), testing::ValuesIn(device_case_streams_and("blocks"))),
    CaseName());

// --- sknuth_Run ------------------------------------------------------------------------------

std::vector<Case> run_cases()
{
    std::vector<Case> cases;
    for (const native::OrderRow& row : native::order_rows())
        if (row.test == native::OrderRow::run)
            cases.push_back({ row_name(row.battery, row.number), std::min(row.N, 4L),
                40000 / std::min(row.N, 4L), row.r, 0, 0, row.up, 1009 });
    // Chunks of one value, of fewer values than the longest run counted, and of a replication
    // whole; n = 600, the least sknuth_Run takes.
    cases.push_back({ "chunk1_up", 2, 1000, 0, 0, 0, true, 1 });
    cases.push_back({ "chunk5_down", 3, 1000, 3, 0, 0, false, 5 });
    cases.push_back({ "chunk7_up", 2, 2001, 0, 0, 0, true, 7 });
    cases.push_back({ "whole_down", 3, 20000, 1, 0, 0, false, 20000 });
    cases.push_back({ "n600_up", 5, 600, 0, 0, 0, true, 64 });
    return cases;
}

class DeviceRun : public testing::TestWithParam<Param> { };

TEST_P(DeviceRun, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()), make_stream);
    run_chunk = c.chunk;
    const Chi2 a = new_chi2(), b = new_chi2();
    runs.both([&](native::Numbers& in, int i) {
        native::run_test(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, c.up, 2);
    });
    expect_same_chi2(a.get(), b.get());
    for (int j = 1; j <= 6; ++j)
        EXPECT_EQ(a->Count[j], b->Count[j]) << "Count[" << j << "]";
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceRun,
    testing::Combine(
        testing::ValuesIn(run_cases()), testing::ValuesIn(device_case_streams_and("blocks"))),
    CaseName());

// --- sstring_LongestHeadRun ------------------------------------------------------------------

std::vector<Case> head_run_cases()
{
    std::vector<Case> cases;
    // Fewer and shorter sequences than the rows' (n sequences of 10^7 bits).
    for (const native::SstringBitsRow& row : native::sstring_bits_rows())
        if (row.test == native::SstringBitsTest::LongestHeadRun)
            cases.push_back({ row_name(row.battery, row.number), row.N, 200, row.r, row.s,
                row.s >= 10 ? 6000 : 3000, false, 0 });
    // Several replications (runs joined across them), L not a multiple of s, sequences longer
    // than a chunk, s = 32 and 1.
    cases.push_back({ "N3_s29", 3, 150, 2, 29, 1030, false, 0 });
    cases.push_back({ "long_sequences", 2, 60, 5, 7, 30000, false, 0 });
    cases.push_back({ "s32", 2, 200, 0, 32, 1024, false, 0 });
    cases.push_back({ "s1", 1, 100, 31, 1, 1500, false, 0 });
    return cases;
}

class DeviceLongestHeadRun : public testing::TestWithParam<Param> { };

TEST_P(DeviceLongestHeadRun, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()), make_stream);
    const auto a = owned(sstring_CreateRes2, sstring_DeleteRes2),
               b = owned(sstring_CreateRes2, sstring_DeleteRes2);
    runs.both([&](native::Numbers& in, int i) {
        native::longest_head_run(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, c.s, c.L, 2);
    });
    expect_same_chi2(a->Chi, b->Chi);
    ASSERT_EQ(a->Disc->sVal1->NObs, b->Disc->sVal1->NObs);
    expect_same(a->Disc->sVal1->V + 1, b->Disc->sVal1->V + 1,
        static_cast<int>(a->Disc->sVal1->NObs), "Disc sVal1");
    EXPECT_TRUE(same_bits(a->Disc->sVal2, b->Disc->sVal2)) << "Disc sVal2";
    EXPECT_TRUE(same_bits(a->Disc->pLeft, b->Disc->pLeft)) << "Disc pLeft";
    EXPECT_TRUE(same_bits(a->Disc->pRight, b->Disc->pRight)) << "Disc pRight";
    EXPECT_TRUE(same_bits(a->Disc->pVal2, b->Disc->pVal2)) << "Disc pVal2";
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceLongestHeadRun,
    testing::Combine(
        testing::ValuesIn(head_run_cases()), testing::ValuesIn(device_case_streams_and("blocks"))),
    CaseName());

// --- sstring_Run -----------------------------------------------------------------------------

std::vector<Case> bit_run_cases()
{
    std::vector<Case> cases;
    for (const native::BitRunsRow& row : native::bit_runs_rows())
        if (row.test == native::BitRunsTest::run)
            cases.push_back(
                { row_name(row.battery, row.number), row.N, 100000, row.r, row.s, 0, false, 0 });
    cases.push_back({ "N3_s1", 3, 20000, 31, 1, 0, false, 0 });
    cases.push_back({ "N4_s7", 4, 50000, 5, 7, 0, false, 0 });
    cases.push_back({ "s32", 1, 100000, 0, 32, 0, false, 0 });
    return cases;
}

void expect_same_basic(const native::BitRunsBasic& a, const native::BitRunsBasic& b)
{
    expect_same(a.observations, b.observations, "observations");
    expect_same(a.pvalues, b.pvalues, "pvalues");
    expect_same(a.sval2, b.sval2, "sval2");
    expect_same(a.pval2, b.pval2, "pval2");
}

class DeviceBitRun : public testing::TestWithParam<Param> { };

TEST_P(DeviceBitRun, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()), make_stream);
    native::RunParams p;
    p.N = c.N;
    p.n = c.n;
    p.r = c.r;
    p.s = c.s;
    native::RunResult a, b;
    runs.both(
        [&](native::Numbers& in, int i) { (i == 0 ? a : b) = native::run_of_bits(in, p, 2); });
    EXPECT_EQ(a.ran, b.ran);
    EXPECT_EQ(a.interrupted, b.interrupted);
    expect_same_basic(a.runs, b.runs);
    expect_same_basic(a.bits, b.bits);
    EXPECT_EQ(a.count0, b.count0);
    EXPECT_EQ(a.count1, b.count1);
    EXPECT_TRUE(same_bits(a.bits_read, b.bits_read));
    EXPECT_EQ(a.runs_of_ones, b.runs_of_ones);
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceBitRun,
    testing::Combine(
        testing::ValuesIn(bit_run_cases()), testing::ValuesIn(device_case_streams_and("blocks"))),
    CaseName());

// The grid's words have 5 bits: with r = 20 every bit is 0, and the test is interrupted by a run
// of n bits, on the device path too.
TEST(DeviceBitRunForms, GridInterrupts)
{
    TwoRuns runs("grid");
    native::Numbers in(runs.source);
    native::RunParams p;
    p.N = 1;
    p.n = 100000;
    p.r = 20;
    p.s = 10;
    EXPECT_TRUE(native::run_of_bits(in, p, 2).interrupted);
    EXPECT_GT(runs.source.filled, 0);
}

} // namespace
