// The device paths of smarsa_MatrixRank and sknuth_CouponCollector end to end through the
// families: device_matrix_counts.hpp's algorithms are compiled here by g++ for Thrust's OpenMP
// system and stand in for device_matrix.hpp's functions (this executable defines them, so
// matrix_rank.cpp and gap.cpp call these instead of the ones a build without CUDA links), and
// each family is run twice on the same words:
// once on a host stream (its CPU path, which the family's own test holds equal to TestU01) and
// once on a source that writes its words into the system's memory (the device path). Every field
// of the result must be equal (doubles as bits), the same count of numbers read, and the device
// path must have been taken.
//
// Every battery row's form (r, s, L, k) runs with a smaller n, beside forms of its own (a row of
// one short chunk, s = 32, 64 and 65 columns, rectangular, L > 64 with one-word rows), on the
// harness's five generators, a grid of few values (rank-deficient matrices) and 60-bit words.
// The device's buffers are kept small, so that fills begin and end inside matrices and batches
// inside replications.
//
// CouponCollector: every battery row's (r, d) with a smaller n, d = 2 and d = 20, several
// replications, on the same streams; blocks of about a thousand words cut into sub-blocks of 64
// to 100, so that segments cross sub-blocks and blocks, and the grid's streams of equal values
// (segments of 61 numbers that never join a sub-block's scan) take the one-by-one path.
#include "batteries/native/device_matrix.hpp"
#include "batteries/native/device_matrix_counts.hpp"
#include "batteries/native/gap.hpp"
#include "batteries/native/matrix_rank.hpp"
#include "native_support.hpp"

#include <memory>
#include <stdexcept>

extern "C" {
#include <testu01/gofs.h>
#include <testu01/sres.h>
}

static_assert(THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP,
    "test_native_device_matrix runs the device algorithms on Thrust's OpenMP system");

namespace {
// Words of the device's buffers (device_matrix_counts.hpp's max_words) for the case running, and
// CouponCollector's sub-blocks.
std::size_t max_words = 4099;
std::size_t sub_words = 64;
// CouponCollector's device path: blocks scanned by it.
long coupon_blocks = 0;
} // namespace

namespace rngvet::native {

std::optional<std::vector<long>> device_matrix_rank_counts(
    Numbers& in, long N, long n, int r, int s, int l, int k)
{
    return device_counts::matrix_rank_counts(in, N, n, r, s, l, k, max_words);
}

namespace {

class HostCouponScan : public DeviceCouponScan {
public:
    HostCouponScan(Numbers& in, int r, int d)
        : scan_(in, r, d, ::max_words, sub_words)
    {
    }
    std::size_t max_words() const override { return scan_.max_words(); }
    bool scan(std::size_t size, long& reads, std::uint64_t& seen, int& distinct,
        std::vector<long>& by_class) override
    {
        ++coupon_blocks;
        return scan_.scan(size, reads, seen, distinct, by_class);
    }

private:
    device_counts::CouponScan scan_;
};

} // namespace

std::unique_ptr<DeviceCouponScan> device_coupon_scan(Numbers& in, int r, int d)
{
    if (!in.fill_device(nullptr, 0)) return nullptr;
    return std::make_unique<HostCouponScan>(in, r, d);
}

} // namespace rngvet::native

namespace {

namespace native = rngvet::native;
using namespace rngvet_test;

// gofs_MinExpected for one scope (matrix_rank reads it).
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
void expect_same_result(const sres_Chi2& a, const sres_Chi2& b)
{
    ASSERT_EQ(a.jmax, b.jmax);
    EXPECT_EQ(a.jmin, b.jmin);
    EXPECT_EQ(a.degFree, b.degFree);
    for (long j = 0; j <= a.jmax; ++j) {
        EXPECT_TRUE(same_bits(a.NbExp[j], b.NbExp[j])) << "NbExp[" << j << "]";
        EXPECT_EQ(a.Loc[j], b.Loc[j]) << "Loc[" << j << "]";
        EXPECT_EQ(a.Count[j], b.Count[j]) << "Count[" << j << "]";
    }
    ASSERT_EQ(a.sVal1->NObs, b.sVal1->NObs);
    for (long i = 1; i <= a.sVal1->NObs; ++i)
        EXPECT_TRUE(same_bits(a.sVal1->V[i], b.sVal1->V[i])) << "sVal1[" << i << "]";
    for (int i = 0; i < gofw_NTestTypes; ++i) {
        EXPECT_TRUE(same_bits(a.sVal2[i], b.sVal2[i])) << "sVal2[" << i << "]";
        EXPECT_TRUE(same_bits(a.pVal2[i], b.pVal2[i])) << "pVal2[" << i << "]";
    }
}

struct Case {
    std::string name;
    long N, n;
    int r, s, l, k;
    double min_expected; // gofs_MinExpected (TestU01's default is 10)
    std::size_t words; // the device's buffers
};

std::ostream& operator<<(std::ostream& o, const Case& c)
{
    return o << c.name;
}

std::vector<Case> cases()
{
    std::vector<Case> v;
    for (const native::MatrixRankRow& row : native::matrix_rank_rows()) {
        const std::string name = std::string(row.battery) + std::to_string(row.number);
        const long N = std::min(row.N, 3L);
        // gofs_MinExpected lowered for the larger forms, so that a few matrices make two classes.
        if (row.l <= 64) // several batches per replication, batches across replications
            v.push_back({ name, N, 301, row.r, row.s, row.l, row.k, 10, 4099 });
        else if (row.l <= 300)
            v.push_back({ name, N, 6, row.r, row.s, row.l, row.k, 0.5, 4099 });
        else if (row.l <= 1200) // batches of one or two matrices, fills of a few rows
            v.push_back({ name, 1, 3, row.r, row.s, row.l, row.k, 0.5, std::size_t(1) << 15 });
        else // 5000 x 5000: a batch per matrix
            v.push_back({ name, 1, 3, row.r, row.s, row.l, row.k, 0.5, std::size_t(1) << 19 });
    }
    v.push_back({ "k5_s10", 2, 500, 3, 10, 5, 5, 10, 4099 });
    v.push_back({ "one_by_one", 2, 40, 7, 3, 1, 1, 10, 97 });
    v.push_back({ "s32_k64", 2, 300, 0, 32, 64, 64, 10, 4099 });
    v.push_back({ "s32_k96", 1, 100, 0, 32, 96, 96, 10, 4099 });
    v.push_back({ "k64_s7", 1, 300, 11, 7, 64, 64, 10, 4099 });
    v.push_back({ "k65_s13", 1, 200, 4, 13, 65, 65, 10, 4099 });
    v.push_back({ "l61_k59", 1, 300, 2, 9, 61, 59, 10, 4099 });
    v.push_back({ "l130_k131", 2, 40, 1, 17, 130, 131, 2, 4099 });
    // One-word rows, more than 64 of them (the column-by-column scheme).
    v.push_back({ "l66_k64", 2, 60, 5, 16, 66, 64, 1, 4099 });
    // Whole matrices per fill and per batch (the GPU's default buffers).
    v.push_back(
        { "l60_default_buffers", 3, 200, 20, 10, 60, 60, 10, native::device_counts::chunk_words });
    v.push_back(
        { "l300_default_buffers", 2, 5, 0, 30, 300, 300, 1, native::device_counts::chunk_words });
    return v;
}

using Param = std::tuple<Case, std::string>;

class DeviceMatrixRank : public testing::TestWithParam<Param> { };

TEST_P(DeviceMatrixRank, SameResultAsCpuPath)
{
    const Case& c = std::get<0>(GetParam());
    const std::string& stream = std::get<1>(GetParam());
    // 5000 x 5000 on three streams only (up to 5 million numbers and 10^9 word operations a run).
    if (c.l >= 5000 && stream != "mt19937" && stream != "grid" && stream != "wide60")
        GTEST_SKIP() << "5000 x 5000 runs on mt19937, grid and wide60";
    MinExpected min_expected(c.min_expected);
    max_words = c.words;
    auto host_stream = device_case_stream(stream), device_stream = device_case_stream(stream);
    rngvet::TestU01Generator host(*host_stream, stream), device(*device_stream, stream);
    HostSystemSource source(device);
    Chi2 a = new_chi2(), b = new_chi2();
    {
        native::Numbers in(host);
        native::matrix_rank(in, a.get(), c.N, c.n, c.r, c.s, c.l, c.k, 2);
    }
    {
        const OneThread one;
        native::Numbers in(source);
        native::matrix_rank(in, b.get(), c.N, c.n, c.r, c.s, c.l, c.k, 2);
    }
    ASSERT_GE(a->degFree, 1) << "the case must read numbers";
    EXPECT_GT(source.filled, 0);
    EXPECT_EQ(host.consumed(), device.consumed());
    const long per_row = c.k / c.s + (c.k % c.s > 0 ? 1 : 0);
    EXPECT_EQ(device.consumed(), static_cast<std::uint64_t>(c.N * c.n * c.l * per_row));
    expect_same_result(*a, *b);
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceMatrixRank,
    testing::Combine(testing::ValuesIn(cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

// --- sknuth_CouponCollector ------------------------------------------------------------------

struct CouponCase {
    std::string name;
    long N, n;
    int r, d;
    std::size_t words, sub; // the device's blocks and sub-blocks
};

std::ostream& operator<<(std::ostream& o, const CouponCase& c)
{
    return o << c.name;
}

std::vector<CouponCase> coupon_cases()
{
    std::vector<CouponCase> v;
    for (const native::GapRow& row : native::gap_rows())
        if (row.test == native::GapRow::coupon_collector)
            v.push_back({ std::string(row.battery) + std::to_string(row.number), 1,
                std::min(row.n, 30000L / row.d), row.r, row.d, 1009, 64 });
    v.push_back({ "N3_d5", 3, 4000, 2, 5, 1000, 100 });
    v.push_back({ "d2", 2, 5000, 0, 2, 997, 64 });
    v.push_back({ "d20", 1, 3000, 0, 20, 1031, 70 }); // most segments end at their 61st number
    v.push_back({ "d8_one_block", 2, 500, 3, 8, 1 << 16, 64 });
    v.push_back({ "d8_default_blocks", 2, 20000, 0, 8, native::device_counts::chunk_words, 1024 });
    return v;
}

using CouponParam = std::tuple<CouponCase, std::string>;

class DeviceCouponCollector : public testing::TestWithParam<CouponParam> { };

TEST_P(DeviceCouponCollector, SameResultAsCpuPath)
{
    const CouponCase& c = std::get<0>(GetParam());
    const std::string& stream = std::get<1>(GetParam());
    max_words = c.words;
    sub_words = c.sub;
    auto host_stream = device_case_stream(stream), device_stream = device_case_stream(stream);
    rngvet::TestU01Generator host(*host_stream, stream), device(*device_stream, stream);
    HostSystemSource source(device);
    native::Chi2Outcome a, b;
    {
        native::Numbers in(host);
        a = native::coupon_collector_test(in, c.N, c.n, c.r, c.d);
    }
    coupon_blocks = 0;
    {
        const OneThread one;
        native::Numbers in(source);
        b = native::coupon_collector_test(in, c.N, c.n, c.r, c.d);
    }
    ASSERT_GE(a.degrees_of_freedom, 1) << "the case must read numbers";
    EXPECT_GT(source.filled, 0);
    EXPECT_GT(coupon_blocks, 0);
    EXPECT_EQ(host.consumed(), device.consumed());
    EXPECT_EQ(a.counts, b.counts);
    ASSERT_EQ(a.sval1.size(), b.sval1.size());
    for (std::size_t i = 0; i < a.sval1.size(); ++i)
        EXPECT_TRUE(same_bits(a.sval1[i], b.sval1[i])) << "sVal1[" << i << "]";
    for (int i = 0; i < gofw_NTestTypes; ++i) {
        EXPECT_TRUE(
            same_bits(a.sval2[static_cast<std::size_t>(i)], b.sval2[static_cast<std::size_t>(i)]))
            << "sVal2[" << i << "]";
        EXPECT_TRUE(
            same_bits(a.pval2[static_cast<std::size_t>(i)], b.pval2[static_cast<std::size_t>(i)]))
            << "pVal2[" << i << "]";
    }
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceCouponCollector,
    testing::Combine(testing::ValuesIn(coupon_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

// The block scan against a plain walk of the same cells (NRepet's rule, one number after the
// other): counts by class and the open segment after each block, from a segment open before the
// first; on a stream of equal cells (the grid with r = 27: every segment 61 numbers, no sub-block
// joins its scan) and a random one.
TEST(DeviceCouponCollectorForms, BlockScanEqualsAPlainWalk)
{
    for (const char* stream : { "grid", "mt19937", "wide60" }) {
        for (const int r : { 0, 27 }) {
            SCOPED_TRACE(std::string(stream) + " r" + std::to_string(r));
            const int d = 8;
            auto s1 = device_case_stream(stream), s2 = device_case_stream(stream);
            rngvet::TestU01Generator host(*s1, stream), device(*s2, stream);
            HostSystemSource source(device);
            native::Numbers din(source), hin(host);
            const OneThread one;
            native::device_counts::CouponScan scan(din, r, d, 3000, 64);
            long reads = 0, wreads = 0;
            std::uint64_t seen = 0, wseen = 0;
            int distinct = 0, wdistinct = 0;
            for (const std::size_t size : { 5, 200, 3000, 2999, 64, 128, 1000 }) {
                std::vector<long> by_class(63, -1), expected(63, 0);
                ASSERT_TRUE(scan.scan(size, reads, seen, distinct, by_class));
                for (std::size_t i = 0; i < size; ++i) {
                    const std::uint64_t bit = std::uint64_t(1) << hin.strip_l(hin.next(), r, d);
                    if (!(wseen & bit)) ++wdistinct;
                    wseen |= bit;
                    ++wreads;
                    if (wdistinct == d || wreads == 61) {
                        ++expected[static_cast<std::size_t>(wdistinct == d ? wreads : 62)];
                        wreads = 0;
                        wseen = 0;
                        wdistinct = 0;
                    }
                }
                EXPECT_EQ(by_class, expected) << size;
                EXPECT_EQ(reads, wreads) << size;
                EXPECT_EQ(seen, wseen) << size;
                EXPECT_EQ(distinct, wdistinct) << size;
            }
            EXPECT_EQ(din.consumed(), hin.consumed());
        }
    }
}

// The ranks themselves, against the family's gf2_rank on the same words: full and deficient ranks
// (the grid's words have 5 significant bits: with r = 0 and s = 10 a row has rank at most 5 per
// chunk, with r = 5 every row is zero).
TEST(DeviceMatrixRankForms, RanksEqualGf2Rank)
{
    struct Shape {
        int r, s, l, k;
    };
    for (const Shape sh : { Shape{ 0, 10, 60, 60 }, Shape{ 5, 10, 60, 60 }, Shape{ 0, 30, 90, 70 },
             Shape{ 3, 7, 70, 200 }, Shape{ 0, 10, 30, 12 } }) {
        for (const char* stream : { "grid", "mt19937" }) {
            SCOPED_TRACE(std::string(stream) + " r" + std::to_string(sh.r) + " s"
                + std::to_string(sh.s) + " " + std::to_string(sh.l) + "x" + std::to_string(sh.k));
            const long n = 37;
            auto s1 = device_case_stream(stream), s2 = device_case_stream(stream);
            rngvet::TestU01Generator host(*s1, stream), device(*s2, stream);
            HostSystemSource source(device);
            native::Numbers din(source);
            const OneThread one;
            const auto counts = native::device_counts::matrix_rank_counts(
                din, 1, n, sh.r, sh.s, sh.l, sh.k, 1000);
            ASSERT_TRUE(counts.has_value());
            native::Numbers hin(host);
            const int per_row = sh.k / sh.s + (sh.k % sh.s > 0 ? 1 : 0);
            const int words = (sh.k + 63) / 64;
            std::vector<long> expected(static_cast<std::size_t>(std::min(sh.l, sh.k)) + 1, 0L);
            for (long m = 0; m < n; ++m) {
                std::vector<std::uint64_t> rows(static_cast<std::size_t>(sh.l) * words, 0);
                for (int i = 0; i < sh.l; ++i) {
                    int pos = 0;
                    for (int q = 0; q < per_row; ++q) {
                        const int nb = q < sh.k / sh.s ? sh.s : sh.k % sh.s;
                        const std::uint64_t v = hin.strip_b(hin.next(), sh.r, nb);
                        for (int bit = 0; bit < nb; ++bit, ++pos)
                            if ((v >> bit) & 1)
                                rows[static_cast<std::size_t>(i) * words + pos / 64]
                                    |= std::uint64_t(1) << (pos % 64);
                    }
                }
                ++expected[static_cast<std::size_t>(native::gf2_rank(rows.data(), sh.l, sh.k))];
            }
            EXPECT_EQ(*counts, expected);
            EXPECT_EQ(din.consumed(), hin.consumed());
            if (std::string(stream) == "grid" && sh.r == 5) {
                EXPECT_EQ(expected[0], n);
            }
        }
    }
}

// A stream that cannot write device memory: nullopt, nothing read. One that stops writing after
// its first fill: an error, not a silent switch.
TEST(DeviceMatrixRankForms, NoDeviceReadsNothingAndAFailedFillThrows)
{
    auto s1 = device_case_stream("mt19937"), s2 = device_case_stream("mt19937");
    rngvet::TestU01Generator g1(*s1, "mt19937"), g2(*s2, "mt19937");
    {
        const OneThread one;
        HostSystemSource none(g1, 0);
        native::Numbers in(none);
        EXPECT_FALSE(native::device_counts::matrix_rank_counts(in, 1, 50, 0, 30, 60, 60, 4099));
        EXPECT_EQ(in.consumed(), 0u);
    }
    {
        HostSystemSource once(g2, 1);
        native::Numbers in(once);
        EXPECT_THROW(native::device_counts::matrix_rank_counts(in, 1, 50, 0, 30, 60, 60, 4099),
            std::runtime_error);
    }
}

} // namespace
