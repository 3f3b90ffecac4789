// The device paths of svaria_WeightDistrib, sknuth_SimpPoker, sknuth_Permutation,
// sknuth_CollisionPermut, sknuth_MaxOft, svaria_SampleProd and sknuth_Gap, end to end through the
// families: device_counts.hpp's algorithms are compiled here by g++ for Thrust's OpenMP system and
// stand in for device.hpp's functions (this executable defines all of them, so the families call
// these instead of the ones a build without CUDA links), and each family is run twice on the same
// words: once on a host stream (its CPU path, which the family's own test holds equal to TestU01)
// and once on a source that writes its words into the system's memory (the device path). Every
// statistic and p-value must be equal as bits, the same count of numbers read, and the device path
// must have been taken.
//
// The streams: the harness's five generators, a grid of few values (ties, equal values, the ends
// of the intervals) and 60-bit words (StripD's steps round).
#include "batteries/native/device.hpp"
#include "batteries/native/device_ahead.hpp"
#include "batteries/native/device_counts.hpp"
#include "batteries/native/device_matrix.hpp"
#include "batteries/native/device_tables.hpp"
#include "batteries/native/gap.hpp"
#include "batteries/native/max_oft.hpp"
#include "batteries/native/sknuth_order.hpp"
#include "batteries/native/svaria_more.hpp"
#include "native_support.hpp"

#include <cstring>
#include <memory>

extern "C" {
#include <testu01/sknuth.h>
#include <testu01/sres.h>
#include <testu01/svaria.h>
}

static_assert(THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP,
    "test_native_device_groups runs the device algorithms on Thrust's OpenMP system");

namespace rngvet::native {
namespace device = device_counts;

std::optional<std::vector<long>> device_birthday_collisions(
    Numbers& in, const BirthdaySpacingsParams& p)
{
    return device::birthday_spacings_counts(in, p);
}

std::optional<std::vector<std::uint64_t>> device_collision_over_distinct(
    Numbers& in, long N, long n, int r, long d, int t)
{
    return device::collision_over_counts(in, N, n, r, d, t);
}

std::optional<std::vector<std::vector<std::uint64_t>>> device_weight_histograms(
    Numbers& in, long N, long n, int r, long k, double alpha, double beta)
{
    return device::group_histograms(in, N, n, k, static_cast<std::uint64_t>(k) + 1,
        device::WeightCell{
            device::strip_d_for(in, r), alpha, beta, static_cast<device::Index>(k) });
}

std::optional<std::vector<std::vector<std::uint64_t>>> device_poker_histograms(
    Numbers& in, long N, long n, int r, int d, int k)
{
    return device::group_histograms(in, N, n, k, static_cast<std::uint64_t>(k) + 1,
        device::PokerCell{ device::strip_for(in, r, d), static_cast<device::Index>(k) });
}

std::optional<std::vector<std::vector<std::uint64_t>>> device_permutation_histograms(
    Numbers& in, long N, long n, int r, int t)
{
    // Smaller chunks than on a GPU, so that a replication spans several fills.
    return device::group_histograms(in, N, n, t, device::factorial(t),
        device::PermutationCell{ device::strip_d_for(in, r), t }, std::size_t(1) << 16);
}

std::optional<std::vector<std::uint64_t>> device_permutation_distinct(
    Numbers& in, long N, long n, int r, int t)
{
    return device::group_distinct(
        in, N, n, t, device::PermutationCell{ device::strip_d_for(in, r), t }, 5003);
}

bool device_maxima(Numbers& in, long N, long n, int r, int t, const GroupValuesDone& done)
{
    return device::group_values(
        in, N, n, t, device::MaxCell{ device::strip_d_for(in, r), t }, done, std::size_t(1) << 16);
}

// MaxOft's sorted maxima (device_tables.hpp) are test_native_device_tables's: here MaxOft takes
// device_maxima's, in stream order.
bool device_sorted_maxima(Numbers&, long, long, int, int, const SortedValuesDone&)
{
    return false;
}

bool device_products(Numbers& in, long N, long n, int r, int t, const GroupValuesDone& done)
{
    return device::group_values(in, N, n, t, device::ProductCell{ device::strip_d_for(in, r), t },
        done, std::size_t(1) << 16);
}

namespace {

class HostGapScan : public DeviceGapScan {
public:
    HostGapScan(Numbers& in, int r, double alpha, double beta, long t)
        : scan_(in, r, alpha, beta, t, 4099)
    {
    }
    std::size_t max_words() const override { return scan_.max_words(); }
    bool scan(std::size_t size, long& first, long& visits, long& trailing,
        std::vector<long>& counts) override
    {
        return scan_.scan(size, first, visits, trailing, counts);
    }

private:
    device::GapScan scan_;
};

} // namespace

// Blocks of at most 4099 words, so that a replication spans many.
std::unique_ptr<DeviceGapScan> device_gap_scan(
    Numbers& in, int r, double alpha, double beta, long t)
{
    if (!in.fill_device(nullptr, 0)) return nullptr;
    return std::make_unique<HostGapScan>(in, r, alpha, beta, t);
}

// Gap takes the bounded scan above here: its scan that reads ahead is
// test_native_device_ahead's.
std::unique_ptr<DeviceGapAhead> device_gap_ahead(Numbers&, int, double, double, long, long)
{
    return nullptr;
}

// CouponCollector (gap.cpp) keeps its CPU path here: its device path is
// test_native_device_matrix's.
std::unique_ptr<DeviceCouponScan> device_coupon_scan(Numbers&, int, int)
{
    return nullptr;
}

} // namespace rngvet::native

namespace {

namespace native = rngvet::native;
using namespace rngvet_test;

struct Case {
    std::string name;
    long N, n;
    int r;
    long k; // WeightDistrib's k, SimpPoker's k, Permutation's and CollisionPermut's t
    int d; // SimpPoker
    double alpha, beta; // WeightDistrib
};

std::ostream& operator<<(std::ostream& o, const Case& c)
{
    return o << c.name;
}

using Param = std::tuple<Case, std::string>;

constexpr long small_numbers = 200000;

long smaller(long N, long n, long group)
{
    return std::max(5L, std::min(n, small_numbers / (N * group)));
}

// --- svaria_WeightDistrib --------------------------------------------------------------------

std::vector<Case> weight_cases()
{
    std::vector<Case> cases;
    for (const native::WeightDistribRow& row : native::weight_distrib_rows())
        cases.push_back({ row_name(row.battery, row.number), row.N, smaller(row.N, row.n, row.k),
            row.r, row.k, 0, row.alpha, row.beta });
    cases.push_back({ "N3_k16_quarter", 3, 4000, 3, 16, 0, 0.25, 0.5 });
    return cases;
}

class DeviceWeightDistrib : public testing::TestWithParam<Param> { };

TEST_P(DeviceWeightDistrib, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()));
    const Chi2 a = new_chi2(), b = new_chi2();
    runs.both([&](native::Numbers& in, int i) {
        native::weight_distrib(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, c.k, c.alpha, c.beta, 2);
    });
    expect_same_chi2(a.get(), b.get());
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceWeightDistrib,
    testing::Combine(testing::ValuesIn(weight_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

// --- sknuth_SimpPoker ------------------------------------------------------------------------

std::vector<Case> poker_cases()
{
    std::vector<Case> cases;
    for (const native::GapRow& row : native::gap_rows())
        if (row.test == native::GapRow::simp_poker)
            cases.push_back({ row_name(row.battery, row.number), 1, smaller(1, row.n, row.k), row.r,
                row.k, row.d, 0, 0 });
    cases.push_back({ "N4_d5_k9", 4, 3000, 2, 9, 5, 0, 0 });
    cases.push_back({ "d127_k127", 1, 2000, 0, 127, 127, 0, 0 });
    return cases;
}

class DeviceSimpPoker : public testing::TestWithParam<Param> { };

TEST_P(DeviceSimpPoker, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()));
    native::Chi2Outcome a, b;
    const int k = static_cast<int>(c.k);
    runs.both([&](native::Numbers& in, int i) {
        (i == 0 ? a : b) = native::simp_poker_test(in, c.N, c.n, c.r, c.d, k);
    });
    ASSERT_EQ(a.sval1.size(), b.sval1.size());
    expect_same(a.sval1.data(), b.sval1.data(), static_cast<int>(a.sval1.size()), "sVal1");
    expect_same(a.sval2.data(), b.sval2.data(), gofw_NTestTypes, "sVal2");
    expect_same(a.pval2.data(), b.pval2.data(), gofw_NTestTypes, "pVal2");
    EXPECT_EQ(a.counts, b.counts);
    EXPECT_EQ(a.degrees_of_freedom, b.degrees_of_freedom);
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceSimpPoker,
    testing::Combine(testing::ValuesIn(poker_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

// --- sknuth_Permutation and sknuth_CollisionPermut -------------------------------------------

std::vector<Case> order_cases(native::OrderRow::Test test)
{
    std::vector<Case> cases;
    for (const native::OrderRow& row : native::order_rows())
        if (row.test == test) {
            long n = smaller(row.N, row.n, row.t);
            // Permutation counts on the device where it counts a table (n >= t!, not hashing).
            if (test == native::OrderRow::permutation)
                n = std::max<long>(n, static_cast<long>(native::device_counts::factorial(row.t)));
            cases.push_back({ row_name(row.battery, row.number), row.N, n, row.r, row.t, 0, 0, 0 });
        }
    if (test == native::OrderRow::permutation) {
        cases.push_back({ "N3_t4", 3, 20000, 1, 4, 0, 0, 0 });
        cases.push_back({ "t7_few_per_cell", 1, 30000, 0, 7, 0, 0, 0 });
    } else {
        cases.push_back({ "N2_t6", 2, 3000, 0, 6, 0, 0, 0 });
        cases.push_back({ "t12", 1, 40000, 5, 12, 0, 0, 0 });
    }
    return cases;
}

class DevicePermutation : public testing::TestWithParam<Param> { };

TEST_P(DevicePermutation, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    // t = 10 counts 10! cells over as many groups (36 million numbers): on three streams only.
    const std::string& stream = std::get<1>(GetParam());
    if (c.k >= 10 && stream != "ranmar48" && stream != "grid" && stream != "wide60")
        GTEST_SKIP() << "t = 10 runs on ranmar48, grid and wide60";
    TwoRuns runs(std::get<1>(GetParam()));
    const Chi2 a = new_chi2(), b = new_chi2();
    const int t = static_cast<int>(c.k);
    runs.both([&](native::Numbers& in, int i) {
        native::permutation_test(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, t, 2);
    });
    expect_same_chi2(a.get(), b.get());
}

INSTANTIATE_TEST_SUITE_P(Forms, DevicePermutation,
    testing::Combine(testing::ValuesIn(order_cases(native::OrderRow::permutation)),
        testing::ValuesIn(device_case_streams())),
    CaseName());

class DeviceCollisionPermut : public testing::TestWithParam<Param> { };

TEST_P(DeviceCollisionPermut, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()));
    const auto a = owned(sknuth_CreateRes2, sknuth_DeleteRes2),
               b = owned(sknuth_CreateRes2, sknuth_DeleteRes2);
    const int t = static_cast<int>(c.k);
    runs.both([&](native::Numbers& in, int i) {
        native::collision_permut_test(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, t, 2);
    });
    EXPECT_TRUE(same_bits(a->Pois->sVal2, b->Pois->sVal2)) << "collisions";
    EXPECT_TRUE(same_bits(a->Pois->pVal2, b->Pois->pVal2)) << "Pois pVal2";
    EXPECT_TRUE(same_bits(a->Pois->pLeft, b->Pois->pLeft)) << "pLeft";
    EXPECT_TRUE(same_bits(a->Pois->pRight, b->Pois->pRight)) << "pRight";
    expect_same(a->Bas->sVal2, b->Bas->sVal2, gofw_NTestTypes, "sVal2");
    expect_same(a->Bas->pVal2, b->Bas->pVal2, gofw_NTestTypes, "pVal2");
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceCollisionPermut,
    testing::Combine(testing::ValuesIn(order_cases(native::OrderRow::collision_permut)),
        testing::ValuesIn(device_case_streams())),
    CaseName());

// --- sknuth_MaxOft and svaria_SampleProd -----------------------------------------------------

std::vector<Case> max_oft_cases()
{
    std::vector<Case> cases;
    for (const native::MaxOftRow& row : native::max_oft_rows()) {
        const long N = std::min(row.N, 3L);
        const long n = smaller(N, row.n, row.t);
        // d lowered with n: sknuth_MaxOft needs n / d >= gofs_MinExpected (10).
        cases.push_back({ row_name(row.battery, row.number), N, n, row.r, row.t,
            static_cast<int>(std::min<long>(row.d, n / 16)), 0, 0 });
    }
    cases.push_back({ "N2_t3_d10", 2, 400, 0, 3, 10, 0, 0 });
    return cases;
}

class DeviceMaxOft : public testing::TestWithParam<Param> { };

TEST_P(DeviceMaxOft, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()));
    const auto a = owned(sknuth_CreateRes1, sknuth_DeleteRes1),
               b = owned(sknuth_CreateRes1, sknuth_DeleteRes1);
    const int t = static_cast<int>(c.k);
    runs.both([&](native::Numbers& in, int i) {
        native::max_oft(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, c.d, t, 2);
    });
    expect_same_chi2(a->Chi, b->Chi);
    expect_same_values(a->Bas, b->Bas, "Bas ");
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceMaxOft,
    testing::Combine(testing::ValuesIn(max_oft_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

std::vector<Case> sample_prod_cases()
{
    std::vector<Case> cases;
    for (const native::SvariaRow& row : native::svaria_more_rows())
        if (row.test == native::SvariaTest::SampleProd)
            cases.push_back({ row_name(row.battery, row.number), row.N,
                smaller(row.N, row.n, row.t), row.r, row.t, 0, 0, 0 });
    cases.push_back({ "N3_t2", 3, 5000, 3, 2, 0, 0, 0 });
    cases.push_back({ "n1_t4", 2, 1, 0, 4, 0, 0, 0 });
    return cases;
}

class DeviceSampleProd : public testing::TestWithParam<Param> { };

TEST_P(DeviceSampleProd, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()));
    const Basic a = new_basic(), b = new_basic();
    const int t = static_cast<int>(c.k);
    runs.both([&](native::Numbers& in, int i) {
        native::sample_prod(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, t, 2);
    });
    expect_same_values(a.get(), b.get());
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceSampleProd,
    testing::Combine(
        testing::ValuesIn(sample_prod_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

// --- sknuth_Gap ------------------------------------------------------------------------------

std::vector<Case> gap_cases()
{
    std::vector<Case> cases;
    for (const native::GapRow& row : native::gap_rows())
        if (row.test == native::GapRow::gap) {
            // Enough gaps for classes (sknuth_Gap stops before reading where n p is small).
            const double p = row.beta - row.alpha;
            const long n = std::min(
                row.n, std::max(static_cast<long>(20.0 / p), static_cast<long>(small_numbers * p)));
            cases.push_back(
                { row_name(row.battery, row.number), 1, n, row.r, 0, 0, row.alpha, row.beta });
        }
    cases.push_back({ "N3_half", 3, 20000, 1, 0, 0, 0.25, 0.75 });
    // Between two values of the grid's (multiples of 1/32): a gap longer than n interrupts the
    // test there.
    cases.push_back({ "between_grid_values", 1, 2000, 0, 0, 0, 0.5 + 1.0 / 128, 0.5 + 2.0 / 128 });
    return cases;
}

class DeviceGap : public testing::TestWithParam<Param> { };

TEST_P(DeviceGap, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()));
    native::Chi2Outcome a, b;
    runs.both([&](native::Numbers& in, int i) {
        (i == 0 ? a : b) = native::gap_test(in, c.N, c.n, c.r, c.alpha, c.beta);
    });
    EXPECT_EQ(a.interrupted, b.interrupted);
    ASSERT_EQ(a.sval1.size(), b.sval1.size());
    expect_same(a.sval1.data(), b.sval1.data(), static_cast<int>(a.sval1.size()), "sVal1");
    expect_same(a.sval2.data(), b.sval2.data(), gofw_NTestTypes, "sVal2");
    expect_same(a.pval2.data(), b.pval2.data(), gofw_NTestTypes, "pVal2");
    EXPECT_EQ(a.counts, b.counts);
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceGap,
    testing::Combine(testing::ValuesIn(gap_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

// The case between the grid's values is interrupted (a gap longer than n) on the grid.
TEST(DeviceGapForms, BetweenGridValuesInterrupts)
{
    TwoRuns runs("grid");
    native::Numbers in(runs.source);
    EXPECT_TRUE(native::gap_test(in, 1, 2000, 0, 0.5 + 1.0 / 128, 0.5 + 2.0 / 128).interrupted);
    EXPECT_GT(runs.source.filled, 0);
}

} // namespace
