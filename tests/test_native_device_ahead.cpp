// The device path of sknuth_Gap that reads ahead (batteries/native/device_ahead.hpp), end to end
// through the family: device_ahead_counts.hpp's algorithm is compiled here by g++ for Thrust's
// OpenMP system and stands in for device_gap_ahead (this executable defines it, so gap.cpp calls
// it instead of the one a build without CUDA links), and Gap is run twice on the same words: once
// on a host stream (its CPU path, which test_native_gap holds equal to TestU01) and once on a
// source that writes its words into the system's memory and takes words back. Every statistic
// and p-value must be equal as bits, the same count of numbers consumed, the numbers read AFTER
// the test the same (through the native reader and through TestU01's GetU01), and the path that
// reads ahead must have been taken.
//
// Small blocks in device memory (a few words to 2^16), so that the test's stops (its n-th gap, a
// gap of length n or more) fall at every place of a block and words are carried from one
// replication to the next. The streams: the harness's five generators, a grid of few values, 60-bit
// words, and planted streams whose gaps are chosen (a gap of exactly n, or longer, first in a
// block or after other gaps, in a later replication).
#include "batteries/native/device.hpp"
#include "batteries/native/device_ahead.hpp"
#include "batteries/native/device_ahead_counts.hpp"
#include "batteries/native/device_matrix.hpp"
#include "batteries/native/gap.hpp"
#include "native_support.hpp"

#include <cstring>
#include <memory>
#include <ostream>
#include <stdexcept>

extern "C" {
#include <testu01/unif01.h>
}

static_assert(THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP,
    "test_native_device_ahead runs the device algorithm on Thrust's OpenMP system");

namespace rngvet::native {

// Words in device memory at a time, set by each case.
std::size_t ahead_words = 4099;
// How many times Gap took the path that reads ahead.
long aheads_made = 0;

namespace {

class HostGapAhead : public DeviceGapAhead {
public:
    HostGapAhead(Numbers& in, int r, double alpha, double beta, long t, long n)
        : scan_(in, r, alpha, beta, t, n, ahead_words)
    {
    }
    bool scan(long reads, long need, GapAheadPart& part) override
    {
        return scan_.scan(reads, need, part);
    }
    void give_back() override { scan_.give_back(); }

private:
    device_ahead::GapAhead scan_;
};

} // namespace

std::unique_ptr<DeviceGapAhead> device_gap_ahead(
    Numbers& in, int r, double alpha, double beta, long t, long n)
{
    if (!in.fill_device(nullptr, 0) || !in.give_back(nullptr, 0)) return nullptr;
    ++aheads_made;
    return std::make_unique<HostGapAhead>(in, r, alpha, beta, t, n);
}

// The bounded scan (device.hpp) is test_native_device_groups's: here Gap on a source that cannot
// take words back runs its CPU path. SimpPoker and CouponCollector (gap.cpp) keep theirs.
std::unique_ptr<DeviceGapScan> device_gap_scan(Numbers&, int, double, double, long)
{
    return nullptr;
}

std::optional<std::vector<std::vector<std::uint64_t>>> device_poker_histograms(
    Numbers&, long, long, int, int, int)
{
    return std::nullopt;
}

std::unique_ptr<DeviceCouponScan> device_coupon_scan(Numbers&, int, int)
{
    return nullptr;
}

} // namespace rngvet::native

namespace {

namespace native = rngvet::native;
using namespace rngvet_test;

// 32-bit words whose gaps for [1/2, 3/4) (r = 0) are chosen: gap g has g mod 8 numbers outside
// (below 1/2 or from 3/4 on, drawn from an LCG), then one inside, except the planted gap, which
// has `planted_length` numbers outside.
class PlantedStream : public rngvet::Stream {
public:
    PlantedStream(long planted_gap, long planted_length)
        : planted_gap_(planted_gap)
        , planted_length_(planted_length)
    {
        start_gap();
    }
    int bits() const override { return 32; }
    void fill(std::uint64_t* out, std::size_t n) override
    {
        for (std::size_t i = 0; i < n; ++i) {
            x_ = x_ * 6364136223846793005ull + 1442695040888963407ull;
            const std::uint64_t y = x_ >> 34; // 30 bits
            if (left_ > 0) {
                --left_;
                out[i] = (x_ >> 63) != 0 ? y : 0xC0000000u + y; // [0, 1/4) or [3/4, 1)
            } else {
                out[i] = 0x80000000u + y; // [1/2, 3/4)
                ++gap_;
                start_gap();
            }
        }
    }
    std::string name() const override
    {
        return "planted" + std::to_string(planted_length_) + "at" + std::to_string(planted_gap_);
    }

private:
    void start_gap() { left_ = gap_ == planted_gap_ ? planted_length_ : gap_ % 8; }

    long planted_gap_, planted_length_;
    long gap_ = 0, left_ = 0;
    std::uint64_t x_ = 4242;
};

struct Case {
    std::string name;
    long N, n;
    int r;
    double alpha, beta;
    std::size_t words; // in device memory at a time
    long planted_gap = -1, planted_length = 0; // a PlantedStream's, for the stream "planted"
    int interrupted = -1; // 1 or 0: whether the test must stop at a gap of length n or more
};

std::ostream& operator<<(std::ostream& o, const Case& c)
{
    return o << c.name;
}

constexpr long small_numbers = 200000;
constexpr int after = 7; // numbers compared after the test

struct Outcome {
    native::Chi2Outcome o;
    std::uint64_t next[after] = {};
    double u01[after] = {};
};

// Gap on the host (`path` 0) or with its scans reading ahead (1); then the numbers after it, as
// the native reader and as TestU01's GetU01 read them.
void run_case(const Case& c, rngvet::TestU01Generator& feed, HostSystemSource* source, Outcome& out)
{
    {
        native::Numbers in(source ? static_cast<native::WordSource&>(*source)
                                  : static_cast<native::WordSource&>(feed));
        out.o = native::gap_test(in, c.N, c.n, c.r, c.alpha, c.beta);
        for (int i = 0; i < after; ++i)
            out.next[i] = in.next();
    }
    for (int i = 0; i < after; ++i)
        out.u01[i] = unif01_StripD(feed.get(), 0);
}

void expect_same_outcome(const Outcome& a, const Outcome& b)
{
    EXPECT_EQ(a.o.interrupted, b.o.interrupted);
    ASSERT_EQ(a.o.sval1.size(), b.o.sval1.size());
    expect_same(a.o.sval1.data(), b.o.sval1.data(), static_cast<long>(a.o.sval1.size()), "sVal1");
    expect_same(a.o.sval2.data(), b.o.sval2.data(), gofw_NTestTypes, "sVal2");
    expect_same(a.o.pval2.data(), b.o.pval2.data(), gofw_NTestTypes, "pVal2");
    EXPECT_EQ(a.o.counts, b.o.counts);
    for (int i = 0; i < after; ++i)
        EXPECT_EQ(a.next[i], b.next[i]) << "number " << i << " after the test";
    expect_same(a.u01, b.u01, after, "GetU01 after the test");
}

std::unique_ptr<rngvet::Stream> case_stream(const Case& c, const std::string& name)
{
    if (name == "planted") return std::make_unique<PlantedStream>(c.planted_gap, c.planted_length);
    return device_case_stream(name);
}

// Both paths on the case's stream: equal outcomes, numbers consumed and numbers after.
void check_case(const Case& c, const std::string& stream)
{
    native::ahead_words = c.words;
    auto host_stream = case_stream(c, stream), device_stream = case_stream(c, stream);
    rngvet::TestU01Generator host(*host_stream, stream), device(*device_stream, stream);
    HostSystemSource source(device);
    Outcome a, b;
    run_case(c, host, nullptr, a);
    const long made = native::aheads_made;
    {
        const OneThread one;
        run_case(c, device, &source, b);
    }
    ASSERT_GE(a.o.degrees_of_freedom, 1) << "the case must read numbers";
    EXPECT_EQ(native::aheads_made, made + 1) << "the path that reads ahead was not taken";
    EXPECT_GT(source.filled, 0);
    EXPECT_EQ(host.consumed(), device.consumed());
    if (c.interrupted >= 0) {
        EXPECT_EQ(a.o.interrupted, c.interrupted == 1);
    }
    expect_same_outcome(a, b);
}

using Param = std::tuple<Case, std::string>;

// Every battery row's form at a smaller n, in blocks of several sizes; N > 1; a case between the
// grid's values (multiples of 1/32), where a gap longer than n interrupts the test.
std::vector<Case> row_cases()
{
    std::vector<Case> cases;
    const std::size_t sizes[] = { 4099, 64, std::size_t(1) << 16 };
    int i = 0;
    for (const native::GapRow& row : native::gap_rows())
        if (row.test == native::GapRow::gap) {
            const double p = row.beta - row.alpha;
            const long n = std::min(
                row.n, std::max(static_cast<long>(20.0 / p), static_cast<long>(small_numbers * p)));
            const std::size_t words = sizes[i++ % 3];
            cases.push_back({ row_name(row.battery, row.number) + "_" + std::to_string(words), 1, n,
                row.r, row.alpha, row.beta, words });
        }
    cases.push_back({ "N3_half", 3, 20000, 1, 0.25, 0.75, 997 });
    cases.push_back({ "N4_p256", 4, 4000, 0, 0.0, 1.0 / 256, 5003 });
    cases.push_back({ "N2_p8_large", 2, 30000, 5, 0.0, 0.125, std::size_t(1) << 20 });
    cases.push_back({ "between_grid_values", 2, 2000, 0, 0.5 + 1.0 / 128, 0.5 + 2.0 / 128, 97 });
    return cases;
}

class DeviceGapAheadForms : public testing::TestWithParam<Param> { };

TEST_P(DeviceGapAheadForms, SameResultAsCpuPath)
{
    check_case(std::get<0>(GetParam()), std::get<1>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Rows, DeviceGapAheadForms,
    testing::Combine(testing::ValuesIn(row_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

// Planted gaps for n = 300 (p = 1/4): a gap of exactly n numbers outside, or n + 1 or more, ends
// the test ("one gap of length > n"), one of n - 1 does not; the gap first in the test, later,
// or in the second or third replication; each in blocks of several sizes, so that the stop falls
// at the start of a block, inside it or at its end.
std::vector<Case> planted_cases()
{
    std::vector<Case> cases;
    const long n = 300;
    struct Plant {
        const char* name;
        long N, gap, length;
        int interrupted;
    };
    const Plant plants[] = {
        { "first_n", 1, 0, n, 1 },
        { "first_over", 1, 0, n + 5, 1 },
        { "first_under", 1, 0, n - 1, 0 },
        { "later_n", 1, 37, n, 1 },
        { "later_n_plus_1", 1, 37, n + 1, 1 },
        { "later_under", 1, 37, n - 1, 0 },
        { "last_n", 1, n - 1, n, 1 },
        { "after_last", 1, n, 3 * n, 0 },
        { "second_replication_n", 3, n + 10, n, 1 },
        { "third_replication_first_over", 3, 2 * n, 2 * n, 1 },
        { "second_replication_under", 3, n + 10, n - 1, 0 },
    };
    const std::size_t sizes[] = { 5, 61, 301, 4099 };
    for (const Plant& p : plants)
        for (std::size_t words : sizes) {
            Case c{ std::string(p.name) + "_" + std::to_string(words), p.N, n, 0, 0.5, 0.75,
                words };
            c.planted_gap = p.gap;
            c.planted_length = p.length;
            c.interrupted = p.interrupted;
            cases.push_back(c);
        }
    return cases;
}

class DeviceGapAheadPlanted : public testing::TestWithParam<Case> { };

TEST_P(DeviceGapAheadPlanted, SameResultAsCpuPath)
{
    check_case(GetParam(), "planted");
}

INSTANTIATE_TEST_SUITE_P(Gaps, DeviceGapAheadPlanted, testing::ValuesIn(planted_cases()),
    [](const testing::TestParamInfo<Case>& p) { return p.param.name; });

// A source that cannot take words back: Gap does not read ahead (here it runs its CPU path),
// with the same result.
TEST(DeviceGapAheadSource, NoGiveBackNoReadingAhead)
{
    const Case c{ "ranmar48", 1, 5000, 0, 0.0, 0.125, 4099 };
    auto host_stream = case_stream(c, "ranmar48"), device_stream = case_stream(c, "ranmar48");
    rngvet::TestU01Generator host(*host_stream, "ranmar48"), device(*device_stream, "ranmar48");
    HostSystemSource source(device);
    source.giving_back = false;
    Outcome a, b;
    const long made = native::aheads_made;
    run_case(c, host, nullptr, a);
    run_case(c, device, &source, b);
    EXPECT_EQ(native::aheads_made, made);
    EXPECT_EQ(source.filled, 0);
    EXPECT_EQ(host.consumed(), device.consumed());
    expect_same_outcome(a, b);
}

// A source that stops writing device memory after its first fill, in the middle of the test:
// an error, not a silent switch to the host (words were read).
TEST(DeviceGapAheadSource, AFillThatFailsLaterIsAnError)
{
    native::ahead_words = 4099;
    auto stream = case_stream(Case{}, "ranmar48");
    rngvet::TestU01Generator feed(*stream, "ranmar48");
    HostSystemSource source(feed, 1);
    native::Numbers in(source);
    EXPECT_THROW(native::gap_test(in, 1, 5000, 0, 0.0, 0.125), std::runtime_error);
    EXPECT_EQ(source.filled, 1);
}

// The words read ahead were given back (the test reads fewer than a block) and the feed counts
// only those consumed.
TEST(DeviceGapAheadSource, GivesBackWhatItDidNotConsume)
{
    const Case c{ "ranmar24", 1, 1000, 0, 0.0, 0.125, std::size_t(1) << 20 };
    native::ahead_words = c.words;
    auto host_stream = case_stream(c, "ranmar24"), device_stream = case_stream(c, "ranmar24");
    rngvet::TestU01Generator host(*host_stream, "ranmar24"), device(*device_stream, "ranmar24");
    HostSystemSource source(device);
    Outcome a, b;
    run_case(c, host, nullptr, a);
    run_case(c, device, &source, b);
    EXPECT_GT(source.given_back, 0);
    EXPECT_EQ(host.consumed(), device.consumed());
    EXPECT_LT(device.consumed(), c.words);
    expect_same_outcome(a, b);
}

// TestU01Generator::give_back: the words given back are the next read, in order, then the rest
// of the stream; consumed() no longer counts them. Numbers::give_back refuses while a host block
// is partly read (the words would not be the last read).
TEST(FeedGiveBack, WordsComeBackInOrder)
{
    auto s1 = harness_stream("ranmar48"), s2 = harness_stream("ranmar48");
    rngvet::TestU01Generator a(*s1, "a"), b(*s2, "b");
    std::vector<std::uint64_t> want(500), got(100);
    {
        native::Numbers in(b);
        in.read(want.data(), want.size());
    }
    for (std::size_t k = 0; k < got.size();) {
        const rngvet::Stream::View v = a.peek(got.size() - k);
        std::memcpy(got.data() + k, v.data, v.size * sizeof got[0]);
        a.advance(v.size);
        k += v.size;
    }
    EXPECT_FALSE(a.give_back(got.data(), 101)) << "more than were read";
    ASSERT_TRUE(a.give_back(got.data() + 70, 30));
    EXPECT_EQ(a.consumed(), 70u);
    {
        native::Numbers in(a);
        EXPECT_EQ(in.next(), want[70]);
        EXPECT_FALSE(in.give_back(want.data() + 70, 1)) << "a host block is partly read";
        EXPECT_EQ(in.consumed(), 1u);
    }
    EXPECT_EQ(a.consumed(), 71u);
    native::Numbers in(a);
    for (std::size_t i = 71; i < want.size(); ++i)
        ASSERT_EQ(in.next(), want[i]) << i;
}

} // namespace
