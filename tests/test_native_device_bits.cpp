// The device paths of sstring_AutoCor, sstring_HammingIndep, sstring_HammingCorr and
// sstring_HammingWeight2, end to end through the families, as test_native_device_groups checks
// the group families: device_bits_counts.hpp's algorithms are compiled here by g++ for Thrust's
// OpenMP system and stand in for device_bits.hpp's functions (this executable defines all of
// them, so the families call these instead of the ones a build without CUDA links), and each
// family is run twice on the same words: once on a host stream (its CPU path, which the family's
// own test holds equal to TestU01) and once on a source that writes its words into the system's
// memory (the device path). Every statistic and p-value must be equal as bits, the counts and
// tables equal, the same count of numbers read, and the device path must have been taken.
//
// The chunks are small here (a few thousand numbers), so that a replication spans many of them:
// AutoCor's bits d places further, HammingCorr's pairs and HammingWeight2's blocks cross the
// chunks' ends. The cases: every Crush and BigCrush row's parameters (N, r, s, d, L) with a
// smaller n, and forms no row has (r + s = 32, s = 1 or 32, blocks shorter than s, a last number
// of which only some blocks count). The streams: the harness's five generators, a grid of few
// values (long runs of equal numbers) and 60-bit words (GetBits's top 32 of a wider word).
#include "batteries/native/bit_runs.hpp"
#include "batteries/native/device_bits.hpp"
#include "batteries/native/device_bits_counts.hpp"
#include "batteries/native/hamming_indep.hpp"
#include "batteries/native/sstring_bits.hpp"
#include "native_support.hpp"

#include <memory>

extern "C" {
#include <testu01/sres.h>
}

static_assert(THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP,
    "test_native_device_bits runs the device algorithms on Thrust's OpenMP system");

namespace rngvet::native {
namespace device = device_counts;

std::optional<std::vector<std::uint64_t>> device_auto_cor_differing(
    Numbers& in, long N, long K, int r, int s, int d)
{
    return device::auto_cor_counts(in, N, K, r, s, d, 4099);
}

bool device_hamming_indep_tables(
    Numbers& in, long N, long n, int r, int s, int L, const BitTableDone& done)
{
    return device::hamming_indep_counts(in, N, n, r, s, L, done, 5003);
}

bool device_hamming_corr_tables(
    Numbers& in, long N, long n, int r, int s, int L, const BitTableDone& done)
{
    return device::hamming_corr_counts(in, N, n, r, s, L, done, 4099);
}

bool device_hamming_weights(
    Numbers& in, long N, long n, int r, int s, long L, const BlockWeightsDone& done)
{
    return device::hamming_weight_blocks(in, N, n, r, s, L, done, 3001);
}

} // namespace rngvet::native

namespace {

namespace native = rngvet::native;
using namespace rngvet_test;

struct Case {
    std::string name;
    long N, n;
    int r, s;
    long L; // HammingIndep, HammingCorr, HammingWeight2 (AutoCor: d)
    int d = 0; // HammingIndep's diagonal blocks
};

std::ostream& operator<<(std::ostream& o, const Case& c)
{
    return o << c.name;
}

using Param = std::tuple<Case, std::string>;

// Numbers a row's case reads at most, about (its n made smaller).
constexpr long small_numbers = 200000;

// Numbers a block of L bits takes (L >= s), or 1.
long words_per_block(int s, long L)
{
    return L >= s ? L / s + (L % s > 0 ? 1 : 0) : 1;
}

// --- sstring_AutoCor -------------------------------------------------------------------------

std::vector<Case> auto_cor_cases()
{
    std::vector<Case> cases;
    for (const native::BitRunsRow& row : native::bit_runs_rows())
        if (row.test == native::BitRunsTest::auto_cor) {
            // n bits, of which (n - d) % s are dropped: not a multiple of the chunk's numbers.
            const long n = std::min(row.n, small_numbers / row.N * row.s + 7);
            cases.push_back({ row_name(row.battery, row.number), row.N, n, row.r, row.s, row.d });
        }
    cases.push_back({ "r2_s30_d45", 3, 300011, 2, 30, 45 }); // r + s = 32, d / s = 1
    cases.push_back({ "s1_d7", 3, 100003, 5, 1, 7 }); // one bit a number, d / s = 7
    cases.push_back({ "s32_d64", 2, 640000, 0, 32, 64 }); // d a multiple of s: d % s = 0
    cases.push_back({ "one_chunk", 4, 30000, 3, 7, 13 }); // fewer numbers than a chunk
    return cases;
}

class DeviceAutoCor : public testing::TestWithParam<Param> { };

TEST_P(DeviceAutoCor, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()));
    native::AutoCorResult a, b;
    native::AutoCorParams p;
    p.N = c.N;
    p.n = c.n;
    p.r = c.r;
    p.s = c.s;
    p.d = static_cast<int>(c.L);
    runs.both([&](native::Numbers& in, int i) { (i == 0 ? a : b) = native::auto_cor(in, p, 2); });
    EXPECT_EQ(a.differing, b.differing);
    expect_same(a.basic.observations, b.basic.observations, "sVal1");
    expect_same(a.basic.pvalues, b.basic.pvalues, "pVal1");
    expect_same(a.basic.sval2, b.basic.sval2, "sVal2");
    expect_same(a.basic.pval2, b.basic.pval2, "pVal2");
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceAutoCor,
    testing::Combine(testing::ValuesIn(auto_cor_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

// --- sstring_HammingIndep --------------------------------------------------------------------

std::vector<Case> hamming_indep_cases()
{
    std::vector<Case> cases;
    for (const native::HammingIndepRow& row : native::hamming_indep_rows()) {
        const native::HammingIndepParams& p = row.params;
        // n pairs; at least 2 gofs_MinExpected (below, TestU01 reads nothing).
        const long n = std::max(
            25L, std::min(p.n, small_numbers / (p.N * 2 * words_per_block(p.s, p.L)) + 3));
        cases.push_back({ row_name(row.battery, row.number), p.N, n, p.r, p.s, p.L, p.d });
    }
    cases.push_back({ "r2_s30_L31_d3", 3, 2001, 2, 30, 31, 3 }); // a block of 1 + 1 numbers
    cases.push_back({ "short_L4_s30", 3, 10001, 2, 30, 4, 2 }); // 7 blocks a number, 2n % 7 > 0
    cases.push_back({ "short_L3_s32", 2, 8000, 0, 32, 3, 0 }); // 10 blocks a number
    cases.push_back({ "s1_L5", 2, 3001, 31, 1, 5, 1 }); // one bit a number
    return cases;
}

class DeviceHammingIndep : public testing::TestWithParam<Param> { };

TEST_P(DeviceHammingIndep, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()));
    native::HammingIndepResult a, b;
    native::HammingIndepParams p;
    p.N = c.N;
    p.n = c.n;
    p.r = c.r;
    p.s = c.s;
    p.L = static_cast<int>(c.L);
    p.d = c.d;
    runs.both(
        [&](native::Numbers& in, int i) { (i == 0 ? a : b) = native::hamming_indep(in, p, 2); });
    ASSERT_TRUE(a.ran);
    EXPECT_EQ(a.ran, b.ran);
    EXPECT_EQ(a.liber, b.liber);
    EXPECT_EQ(a.counters, b.counters);
    EXPECT_EQ(a.xd, b.xd);
    expect_same(a.main.observations, b.main.observations, "sVal1");
    expect_same(a.main.sval2, b.main.sval2, "sVal2");
    expect_same(a.main.pval2, b.main.pval2, "pVal2");
    ASSERT_EQ(a.blocks.size(), b.blocks.size());
    for (std::size_t k = 0; k < a.blocks.size(); ++k) {
        expect_same(a.blocks[k].observations, b.blocks[k].observations, "Block sVal1");
        expect_same(a.blocks[k].pval2, b.blocks[k].pval2, "Block pVal2");
    }
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceHammingIndep,
    testing::Combine(
        testing::ValuesIn(hamming_indep_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

// --- sstring_HammingCorr and sstring_HammingWeight2 ------------------------------------------

std::vector<Case> sstring_cases(native::SstringBitsTest test)
{
    std::vector<Case> cases;
    for (const native::SstringBitsRow& row : native::sstring_bits_rows()) {
        if (row.test != test) continue;
        if (test == native::SstringBitsTest::HammingCorr) {
            // n blocks.
            const long n
                = std::min(row.n, small_numbers / (row.N * words_per_block(row.s, row.L)) + 5);
            cases.push_back({ row_name(row.battery, row.number), row.N, n, row.r, row.s, row.L });
        } else {
            // n bits, L = 10^6: two blocks and part of a third (not read) in each of at most
            // three replications.
            cases.push_back({ row_name(row.battery, row.number), std::min(row.N, 3L),
                2 * row.L + 12345, row.r, row.s, row.L });
        }
    }
    if (test == native::SstringBitsTest::HammingCorr) {
        cases.push_back({ "N3_r2_s30_L45", 3, 20001, 2, 30, 45 }); // r + s = 32, a part number
        cases.push_back({ "short_L7_s32", 2, 10003, 0, 32, 7 }); // 4 blocks a number, 3 more
        cases.push_back({ "short_L5_s17", 3, 30002, 15, 17, 5 }); // r + s = 32, 3 a number
        cases.push_back({ "s1_L1", 2, 20000, 4, 1, 1 }); // one bit a block
    } else {
        cases.push_back({ "N3_L1000_s3_r29", 3, 100000, 29, 3, 1000 }); // blocks cross chunks
        cases.push_back({ "L64_s30", 4, 300000, 0, 30, 64 }); // 2 numbers and 4 bits a block
        cases.push_back({ "short_L3_s10", 3, 100001, 5, 10, 3 }); // 3 blocks a number, all summed
        cases.push_back({ "short_L2_s32", 2, 100001, 0, 32, 2 }); // 16 blocks a number
        cases.push_back({ "L5000_s1", 2, 60000, 31, 1, 5000 }); // one bit a number
    }
    return cases;
}

class DeviceHammingCorr : public testing::TestWithParam<Param> { };

TEST_P(DeviceHammingCorr, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()));
    Basic a = new_basic(), b = new_basic();
    std::vector<long> ca, cb;
    runs.both([&](native::Numbers& in, int i) {
        native::hamming_corr(in, (i == 0 ? a : b).get(), i == 0 ? &ca : &cb, c.N, c.n, c.r, c.s,
            static_cast<int>(c.L), 2);
    });
    EXPECT_EQ(ca, cb);
    expect_same_values(a.get(), b.get());
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceHammingCorr,
    testing::Combine(testing::ValuesIn(sstring_cases(native::SstringBitsTest::HammingCorr)),
        testing::ValuesIn(device_case_streams())),
    CaseName());

class DeviceHammingWeight2 : public testing::TestWithParam<Param> { };

TEST_P(DeviceHammingWeight2, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    TwoRuns runs(std::get<1>(GetParam()));
    Basic a = new_basic(), b = new_basic();
    runs.both([&](native::Numbers& in, int i) {
        native::hamming_weight2(in, (i == 0 ? a : b).get(), c.N, c.n, c.r, c.s, c.L, 2);
    });
    expect_same_values(a.get(), b.get());
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceHammingWeight2,
    testing::Combine(testing::ValuesIn(sstring_cases(native::SstringBitsTest::HammingWeight2)),
        testing::ValuesIn(device_case_streams())),
    CaseName());

} // namespace
