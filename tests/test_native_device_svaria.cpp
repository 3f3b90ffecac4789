// The device paths of svaria_SumCollector, svaria_AppearanceSpacings and svaria_SampleMean end
// to end through the family: device_svaria_counts.hpp's algorithms are compiled here by g++ for
// Thrust's OpenMP system and stand in for device_svaria.hpp's functions (this executable defines
// them, so svaria_more.cpp calls these instead of the ones a build without CUDA links), and each
// test is run twice on the same words: once on a host stream (its CPU path, which the family's own
// test holds equal to TestU01) and once on a source that writes its words into the system's memory
// (the device path). Every field of the result must be equal (doubles as bits), the same count
// of numbers read, and the device path must have been taken.
//
// SumCollector: every battery row's g with a smaller n, other g (1, 3.5, 7.3), r > 0, several
// replications, on the harness's five generators, a grid of few values (sums of multiples of
// 1/32: exact sums that equal g, which do not end) and 60-bit words; blocks of at most a few
// thousand words cut into sub-blocks of 64 to 256, the chains' walks unlimited (every block
// counted along the meetings), limited to 8 sub-blocks (some blocks run in one sequence) and to
// one sub-block of 8 numbers (most blocks run in one sequence), both paths asserted taken.
//
// AppearanceSpacings: every battery row's (r, s, L) with smaller Q and K, other forms (s > L,
// L mod s > 0, several replications, Q = 0 and Q = 1), chunks of about two thousand words, so that
// chunks begin and end inside the table's filling, the tested blocks and replications.
//
// SampleMean: every battery row's (n, r) with a smaller N, the normal approximation (n = 75),
// n = 2 and N = 1, the sums in fills of about four thousand words.
#include "batteries/native/device_svaria.hpp"
#include "batteries/native/device_svaria_counts.hpp"
#include "batteries/native/svaria_more.hpp"
#include "native_support.hpp"

#include <algorithm>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

extern "C" {
#include <testu01/gofw.h>
#include <testu01/sres.h>
#include <testu01/statcoll.h>
}

static_assert(THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP,
    "test_native_device_svaria runs the device algorithms on Thrust's OpenMP system");

namespace {
// Words of the device's buffers for the case running, and SumCollector's sub-blocks.
std::size_t max_words = 4099;
std::size_t sub_words = 64;
std::size_t walk_limit = 0;
// What the device paths did: SumCollector's blocks (joined: all chains met; sequences: run in
// one sequence), AppearanceSpacings' chunks.
long sum_blocks = 0, sum_joined = 0, sum_sequences = 0, appearance_chunks = 0, mean_calls = 0;
} // namespace

namespace rngvet::native {

namespace {

class HostSumScan : public DeviceSumScan {
public:
    HostSumScan(Numbers& in, int r, double g, int cap)
        : scan_(in, r, g, cap, ::max_words, sub_words, walk_limit)
    {
    }
    ~HostSumScan() override
    {
        sum_joined += scan_.joined();
        sum_sequences += scan_.sequences();
    }
    std::size_t max_words() const override { return scan_.max_words(); }
    bool scan(std::size_t size, double& x, long& numbers, std::vector<long>& by_length,
        long& ends) override
    {
        ++sum_blocks;
        return scan_.scan(size, x, numbers, by_length, ends);
    }

private:
    device_counts::SumScan scan_;
};

class HostAppearanceScan : public DeviceAppearanceScan {
public:
    HostAppearanceScan(Numbers& in, long init, int r, int s, int L)
        : scan_(in, init, r, s, L, ::max_words)
    {
    }
    std::size_t max_words() const override { return scan_.max_words(); }
    bool scan(std::size_t size, bool start, std::vector<std::uint32_t>& distances) override
    {
        ++appearance_chunks;
        return scan_.scan(size, start, distances);
    }

private:
    device_counts::AppearanceScan scan_;
};

} // namespace

std::unique_ptr<DeviceSumScan> device_sum_scan(Numbers& in, int r, double g, int cap)
{
    if (!in.fill_device(nullptr, 0)) return nullptr;
    return std::make_unique<HostSumScan>(in, r, g, cap);
}

std::unique_ptr<DeviceAppearanceScan> device_appearance_scan(
    Numbers& in, long init, int r, int s, int L)
{
    if (!in.fill_device(nullptr, 0)) return nullptr;
    return std::make_unique<HostAppearanceScan>(in, init, r, s, L);
}

bool device_sample_sums(
    Numbers& in, long N, long n, int r, const std::function<void(const double*)>& done)
{
    ++mean_calls;
    return device_counts::group_values(
        in, 1, N, n,
        device_counts::MeanSum{
            device_counts::strip_d_for(in, r), static_cast<device_counts::Index>(n) },
        [&](long, const double* sums) { done(sums); }, ::max_words);
}

} // namespace rngvet::native

namespace {

namespace native = rngvet::native;
using namespace rngvet_test;
// --- svaria_SumCollector ---------------------------------------------------------------------

struct SumCase {
    std::string name;
    long N, n;
    int r;
    double g;
    std::size_t words, sub, limit; // the device's blocks, sub-blocks, walks (0: no limit)
};

std::ostream& operator<<(std::ostream& o, const SumCase& c)
{
    return o << c.name;
}

std::vector<SumCase> sum_cases()
{
    std::vector<SumCase> cases;
    for (const native::SvariaRow& row : native::svaria_more_rows())
        if (row.test == native::SvariaTest::SumCollector) {
            cases.push_back(
                { row_name(row.battery, row.number), row.N, 20000, row.r, row.g, 4099, 64, 0 });
            cases.push_back({ row_name(row.battery, row.number) + "_sub256", row.N, 20000, row.r,
                row.g, 20011, 256, 0 });
            // Walks of at most 8 sub-blocks: some blocks joined, some run in one sequence.
            cases.push_back({ row_name(row.battery, row.number) + "_sub64_limit8", row.N, 20000,
                row.r, row.g, 8191, 64, 8 });
            // Walks of one sub-block shorter than a sum: chains rarely meet, blocks run in one
            // sequence.
            cases.push_back({ row_name(row.battery, row.number) + "_sub8_limit1", row.N, 3000,
                row.r, row.g, 1000, 8, 1 });
        }
    // r = 3 (r = 5 or more would leave the grid's numbers all 0: sums that never end).
    cases.push_back({ "g3_5_N3_r3", 3, 8000, 3, 3.5, 3001, 100, 0 });
    cases.push_back({ "g1_N2", 2, 5000, 0, 1.0, 2048, 64, 0 });
    cases.push_back({ "g7_3_N4_n100_r2", 4, 100, 2, 7.3, 777, 70, 0 });
    return cases;
}

using SumParam = std::tuple<SumCase, std::string>;

class DeviceSumCollector : public testing::TestWithParam<SumParam> { };

TEST_P(DeviceSumCollector, SameResultAsCpuPath)
{
    const SumCase& c = std::get<0>(GetParam());
    max_words = c.words;
    sub_words = c.sub;
    walk_limit = c.limit;
    sum_blocks = sum_joined = sum_sequences = 0;
    TwoRuns runs(std::get<1>(GetParam()));
    const Chi2 a = new_chi2(), b = new_chi2();
    const OneThread one;
    runs.both([&](native::Numbers& in, int i) {
        native::sum_collector(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, c.g, 2);
    });
    EXPECT_GT(sum_blocks, 0);
    EXPECT_EQ(a->sVal1->NObs, c.N);
    expect_same_chi2(a.get(), b.get());
    // Which path the blocks took: without a limit, every block is counted along the meetings;
    // with walks of 8 sub-blocks of 64 some are and some are not (on ranmar48's numbers), with
    // walks of 8 numbers most are not.
    if (c.limit == 0) {
        EXPECT_GT(sum_joined, 0);
        EXPECT_EQ(sum_sequences, 0);
    }
    if (c.limit > 0 && std::get<1>(GetParam()) == "ranmar48") {
        EXPECT_GT(sum_sequences, 0);
        if (c.sub == 64) {
            EXPECT_GT(sum_joined, 0);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceSumCollector,
    testing::Combine(testing::ValuesIn(sum_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

// --- svaria_AppearanceSpacings ---------------------------------------------------------------

struct AppearanceCase {
    std::string name;
    long N, Q, K;
    int r, s, L;
};

std::ostream& operator<<(std::ostream& o, const AppearanceCase& c)
{
    return o << c.name;
}

std::vector<AppearanceCase> appearance_cases()
{
    std::vector<AppearanceCase> cases;
    for (const native::SvariaRow& row : native::svaria_more_rows())
        if (row.test == native::SvariaTest::AppearanceSpacings)
            cases.push_back(
                { row_name(row.battery, row.number), 1, 2L << row.L, 30000, row.r, row.t, row.L });
    cases.push_back({ "s4_L8_N3", 3, 3000, 20000, 1, 4, 8 });
    cases.push_back({ "s6_L2_N2", 2, 40, 15001, 2, 6, 2 });
    cases.push_back({ "s12_L12_Q1_N2", 2, 1, 30000, 3, 12, 12 });
    cases.push_back({ "s5_L7_Q0", 1, 0, 20000, 0, 5, 7 });
    cases.push_back({ "s30_L10_Q5", 1, 5, 30000, 1, 30, 10 });
    return cases;
}

using AppearanceParam = std::tuple<AppearanceCase, std::string>;

class DeviceAppearanceSpacings : public testing::TestWithParam<AppearanceParam> { };

TEST_P(DeviceAppearanceSpacings, SameResultAsCpuPath)
{
    const AppearanceCase& c = std::get<0>(GetParam());
    max_words = 2003;
    appearance_chunks = 0;
    TwoRuns runs(std::get<1>(GetParam()));
    const Basic a = new_basic(), b = new_basic();
    const OneThread one;
    runs.both([&](native::Numbers& in, int i) {
        native::appearance_spacings(in, (i == 0 ? a : b).get(), c.N, c.Q, c.K, c.r, c.s, c.L, 2);
    });
    EXPECT_GE(appearance_chunks, 2 * c.N);
    EXPECT_EQ(a->sVal1->NObs, c.N);
    expect_same_values(a.get(), b.get());
}

// --- svaria_SampleMean -----------------------------------------------------------------------

struct MeanCase {
    std::string name;
    long N, n;
    int r;
};

std::ostream& operator<<(std::ostream& o, const MeanCase& c)
{
    return o << c.name;
}

std::vector<MeanCase> mean_cases()
{
    std::vector<MeanCase> cases;
    for (const native::SvariaRow& row : native::svaria_more_rows())
        if (row.test == native::SvariaTest::SampleMean)
            cases.push_back({ row_name(row.battery, row.number), 20000, row.n, row.r });
    // The normal approximation (n >= 60), n = 2, N = 1.
    cases.push_back({ "n75_r5", 5000, 75, 5 });
    cases.push_back({ "n2", 3000, 2, 0 });
    cases.push_back({ "N1_n7", 1, 7, 0 });
    return cases;
}

using MeanParam = std::tuple<MeanCase, std::string>;

class DeviceSampleMean : public testing::TestWithParam<MeanParam> { };

TEST_P(DeviceSampleMean, SameResultAsCpuPath)
{
    const MeanCase& c = std::get<0>(GetParam());
    max_words = 4099; // the sums in several fills
    mean_calls = 0;
    TwoRuns runs(std::get<1>(GetParam()));
    const Basic a = new_basic(), b = new_basic();
    const OneThread one;
    runs.both([&](native::Numbers& in, int i) {
        native::sample_mean(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, 2);
    });
    EXPECT_EQ(mean_calls, 2);
    if (c.N * c.n > 4099) {
        EXPECT_GT(runs.source.filled, 1);
    }
    EXPECT_EQ(a->sVal1->NObs, c.N);
    expect_same_values(a.get(), b.get());
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceSampleMean,
    testing::Combine(testing::ValuesIn(mean_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

INSTANTIATE_TEST_SUITE_P(Forms, DeviceAppearanceSpacings,
    testing::Combine(
        testing::ValuesIn(appearance_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

} // namespace
