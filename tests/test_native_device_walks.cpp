// The device paths of swalk_RandomWalk1 and smarsa_SerialOver end to end through the families:
// device_walks_counts.hpp's algorithms are compiled here by g++ for Thrust's OpenMP system and
// stand in for device_walks.hpp's functions (this executable defines them, so random_walk.cpp and
// smarsa_more.cpp call these instead of the ones a build without CUDA links), and each family is
// run twice on the same words: once on a host stream (its CPU path, which the family's own test
// holds equal to TestU01) and once on a source that writes its words into the system's memory
// (the device path). Every field of the result must be equal (doubles as bits), or both paths
// must refuse the words with the same error; the same count of numbers read; and the device path
// must have been taken.
//
// RandomWalk1: every Crush and BigCrush row's form (r, s, L) and SmallCrush's with a smaller n,
// and forms of their own (s = 1 and 32, a last number of a few bits, L0 < L1, which stays on the
// host), several replications; fills of a few thousand words, of one walk, and the default size.
// The device walks each walk with swalk.c's own rules (C from the signs at odd times), the CPU
// path counts 8 steps at a time through tables (C at zeros): equal counts hold the two equal.
//
// SerialOver: the rows' forms (t = 2, 3, 4; r = 0 and 22) with fewer cells, as
// test_native_smarsa_more does (the rows' 2^24 cells need about 2^24 numbers for the dense case),
// one row's own d^t on one stream, d not a power of 2, several replications, the least n, and
// fills shorter than a tuple, so that tuples span several fills.
//
// The streams: the harness's five generators, a grid of few values and 60-bit words.
#include "batteries/native/device_walks.hpp"
#include "batteries/native/device_walks_counts.hpp"
#include "batteries/native/random_walk.hpp"
#include "batteries/native/smarsa_more.hpp"
#include "native_support.hpp"

#include <functional>
#include <memory>
#include <omp.h>
#include <stdexcept>
#include <string>

extern "C" {
#include <testu01/gofw.h>
#include <testu01/sres.h>
}

static_assert(THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP,
    "test_native_device_walks runs the device algorithms on Thrust's OpenMP system");

namespace {
// Words of the device's fills for the case running, and the calls of the device functions that
// counted (the device path taken).
std::size_t max_words = 4099;
long walk_calls = 0;
long serial_calls = 0;
} // namespace

namespace rngvet::native {

std::optional<std::vector<long>> device_random_walk_counts(
    Numbers& in, long N, long n, int r, int s, long L)
{
    auto counts = device_counts::random_walk_counts(in, N, n, r, s, L, max_words);
    if (counts) ++walk_calls;
    return counts;
}

std::optional<std::vector<std::uint64_t>> device_serial_over_counts(
    Numbers& in, long n, int r, long d, int t)
{
    auto counts = device_counts::serial_over_counts(in, n, r, d, t, max_words);
    if (counts) ++serial_calls;
    return counts;
}

} // namespace rngvet::native

namespace {

namespace native = rngvet::native;
using namespace rngvet_test;

// Runs `run` on the host stream (CPU path), then on the device source; both on the same words.
// Returns the error each path threw ("" where none).
struct Paths {
    explicit Paths(const std::string& stream)
        : host_stream(device_case_stream(stream))
        , device_stream(device_case_stream(stream))
        , host(*host_stream, stream)
        , device(*device_stream, stream)
        , source(device)
    {
    }
    void both(const std::function<void(native::Numbers&, int)>& run)
    {
        auto guarded = [&](native::Numbers& in, int side, std::string& error) {
            try {
                run(in, side);
            } catch (const std::exception& e) {
                error = e.what();
            }
        };
        {
            native::Numbers in(host);
            guarded(in, 0, host_error);
        }
        {
            native::Numbers in(source);
            guarded(in, 1, device_error);
        }
        EXPECT_EQ(host_error, device_error);
        EXPECT_EQ(host.consumed(), device.consumed());
    }
    std::unique_ptr<rngvet::Stream> host_stream, device_stream;
    rngvet::TestU01Generator host, device;
    HostSystemSource source;
    std::string host_error, device_error;
};

// --- swalk_RandomWalk1 -----------------------------------------------------------------------

struct WalkCase {
    std::string name;
    native::RandomWalkParams p;
    std::size_t words; // the device's fills
};

std::ostream& operator<<(std::ostream& o, const WalkCase& c)
{
    return o << c.name;
}

std::vector<WalkCase> walk_cases()
{
    std::vector<WalkCase> v;
    for (const native::RandomWalkRow& row : native::random_walk_rows()) {
        native::RandomWalkParams p = row.params;
        p.N = 2;
        // About 10^6 steps a replication, at least 400 walks.
        p.n = std::max(400L, std::min(p.n, 1000000L / p.L1));
        v.push_back({ std::string(row.battery) + std::to_string(row.number), p, 4099 });
    }
    v.push_back({ "s1_r31_L20", { 3, 3000, 31, 1, 20, 20 }, 4099 });
    v.push_back({ "s32_L64", { 2, 3000, 0, 32, 64, 64 }, 4099 });
    v.push_back({ "s7_L30_last2", { 2, 3000, 5, 7, 30, 30 }, 97 });
    v.push_back({ "s13_L200_r19", { 1, 3000, 19, 13, 200, 200 }, 4099 });
    // Fills of one walk (667 numbers a walk, fills of at most 500).
    v.push_back({ "one_walk_fills", { 1, 600, 15, 15, 10000, 10000 }, 500 });
    v.push_back(
        { "default_fills", { 3, 20000, 0, 30, 90, 90 }, native::device_counts::chunk_words });
    // Several lengths: the CPU path on both sides.
    v.push_back({ "L0_below_L1", { 2, 2000, 0, 10, 40, 60 }, 4099 });
    return v;
}

void expect_same_walks(const native::RandomWalkResult& a, const native::RandomWalkResult& b)
{
    ASSERT_EQ(a.done, b.done);
    ASSERT_EQ(a.lengths.size(), b.lengths.size());
    for (std::size_t k = 0; k < a.lengths.size(); ++k) {
        EXPECT_EQ(a.lengths[k].L, b.lengths[k].L);
        for (int m = 0; m < native::walk_statistics; ++m) {
            SCOPED_TRACE("L " + std::to_string(a.lengths[k].L) + " statistic " + std::to_string(m));
            const native::RandomWalkChi2& x = a.lengths[k].stat[static_cast<std::size_t>(m)];
            const native::RandomWalkChi2& y = b.lengths[k].stat[static_cast<std::size_t>(m)];
            EXPECT_EQ(x.deg_free, y.deg_free);
            EXPECT_EQ(x.jmin, y.jmin);
            EXPECT_EQ(x.jmax, y.jmax);
            EXPECT_EQ(x.count, y.count);
            ASSERT_EQ(x.nb_exp.size(), y.nb_exp.size());
            for (std::size_t i = 0; i < x.nb_exp.size(); ++i)
                EXPECT_TRUE(same_bits(x.nb_exp[i], y.nb_exp[i])) << "NbExp[" << i << "]";
            ASSERT_EQ(x.values.size(), y.values.size());
            for (std::size_t i = 0; i < x.values.size(); ++i)
                EXPECT_TRUE(same_bits(x.values[i], y.values[i])) << "sVal1[" << i << "]";
            for (std::size_t i = 0; i < x.sval2.size(); ++i) {
                EXPECT_TRUE(same_bits(x.sval2[i], y.sval2[i])) << "sVal2[" << i << "]";
                EXPECT_TRUE(same_bits(x.pval2[i], y.pval2[i])) << "pVal2[" << i << "]";
            }
        }
    }
}

using WalkParam = std::tuple<WalkCase, std::string>;

class DeviceRandomWalk : public testing::TestWithParam<WalkParam> { };

TEST_P(DeviceRandomWalk, SameResultAsCpuPath)
{
    const WalkCase& c = std::get<0>(GetParam());
    const std::string& stream = std::get<1>(GetParam());
    max_words = c.words;
    Paths paths(stream);
    native::RandomWalkResult a, b;
    walk_calls = 0;
    paths.both([&](native::Numbers& in, int side) {
        (side == 0 ? a : b) = native::random_walk1(in, c.p, 2);
    });
    const long words = c.p.L1 / c.p.s + (c.p.L1 % c.p.s > 0 ? 1 : 0);
    if (paths.host_error.empty()) {
        EXPECT_EQ(paths.device.consumed(), static_cast<std::uint64_t>(c.p.N * c.p.n * words));
        expect_same_walks(a, b);
    }
    if (c.p.L0 == c.p.L1) {
        // Both paths counted: neither refused the walks before reading.
        EXPECT_EQ(paths.device.consumed(), static_cast<std::uint64_t>(c.p.N * c.p.n * words));
        EXPECT_GT(paths.source.filled, 0);
        EXPECT_EQ(walk_calls, 1);
    } else {
        EXPECT_EQ(paths.source.filled, 0);
        EXPECT_EQ(walk_calls, 0);
    }
    // The harness's generators give walks TestU01 counts (no count in an empty class).
    if (stream != "grid") {
        EXPECT_EQ(paths.host_error, "");
    }
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceRandomWalk,
    testing::Combine(testing::ValuesIn(walk_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

// The histograms themselves against walks counted here one step at a time with the definitions
// (C: S(t) and S(t - 2) of opposite signs at odd t > 1), on the grid's words and random ones.
TEST(DeviceRandomWalkForms, HistogramsEqualPlainWalks)
{
    struct Form {
        int r, s;
        long L;
    };
    for (const Form f :
        { Form{ 0, 5, 50 }, Form{ 3, 7, 30 }, Form{ 0, 32, 64 }, Form{ 31, 1, 8 } }) {
        for (const char* stream : { "grid", "mt19937" }) {
            SCOPED_TRACE(std::string(stream) + " r" + std::to_string(f.r) + " s"
                + std::to_string(f.s) + " L" + std::to_string(f.L));
            const long N = 2, n = 500;
            auto s1 = device_case_stream(stream), s2 = device_case_stream(stream);
            rngvet::TestU01Generator host(*s1, stream), device(*s2, stream);
            HostSystemSource source(device);
            native::Numbers din(source), hin(host);
            const auto hist
                = native::device_counts::random_walk_counts(din, N, n, f.r, f.s, f.L, 333);
            ASSERT_TRUE(hist.has_value());
            const std::size_t stride = static_cast<std::size_t>(f.L + 1);
            std::vector<long> expected(static_cast<std::size_t>(N) * 5 * stride, 0L);
            for (long rep = 0; rep < N; ++rep)
                for (long w = 0; w < n; ++w) {
                    std::vector<int> steps;
                    while (static_cast<long>(steps.size()) < f.L) {
                        const int bits = static_cast<int>(
                            std::min<long>(f.s, f.L - static_cast<long>(steps.size())));
                        const unsigned long z = hin.strip_b(hin.next(), f.r, bits);
                        for (int b = bits - 1; b >= 0; --b)
                            steps.push_back((z >> b) & 1u ? 1 : -1);
                    }
                    std::vector<long> S(static_cast<std::size_t>(f.L) + 1, 0);
                    long M = 0, R = 0, J = 0, C = 0;
                    for (long t = 1; t <= f.L; ++t) {
                        S[static_cast<std::size_t>(t)] = S[static_cast<std::size_t>(t) - 1]
                            + steps[static_cast<std::size_t>(t) - 1];
                        const long st = S[static_cast<std::size_t>(t)];
                        M = std::max(M, st);
                        R += st == 0;
                        if (t % 2 == 1) {
                            J += st > 0;
                            if (t > 1) C += st * S[static_cast<std::size_t>(t) - 2] < 0;
                        }
                    }
                    long* h = expected.data() + static_cast<std::size_t>(rep) * 5 * stride;
                    ++h[static_cast<std::size_t>((f.L + S.back()) / 2)];
                    ++h[stride + static_cast<std::size_t>(M)];
                    ++h[2 * stride + static_cast<std::size_t>(2 * J)];
                    ++h[3 * stride + static_cast<std::size_t>(R)];
                    ++h[4 * stride + static_cast<std::size_t>(C)];
                }
            EXPECT_EQ(*hist, expected);
            EXPECT_EQ(din.consumed(), hin.consumed());
        }
    }
}

// --- smarsa_SerialOver -----------------------------------------------------------------------

struct SerialCase {
    std::string name;
    long N, n;
    int r;
    long d;
    int t;
    std::size_t words; // the device's fills
};

std::ostream& operator<<(std::ostream& o, const SerialCase& c)
{
    return o << c.name;
}

std::vector<SerialCase> serial_cases()
{
    std::vector<SerialCase> v;
    for (const native::SmarsaMoreRow& row : native::smarsa_more_rows())
        if (row.test == native::SmarsaMoreTest::serial_over) {
            // The row's t and r, d such that d^t is 2^15 or 2^16.
            const long d = row.t == 2 ? 256 : row.t == 3 ? 32 : 16;
            v.push_back({ std::string(row.battery) + std::to_string(row.number), 2, 40000, row.r, d,
                row.t, 4099 });
        }
    v.push_back({ "t3_d10_r3", 2, 30000, 3, 10, 3, 1000 });
    v.push_back({ "no_table_t2_d4_N4", 4, 1000, 1, 4, 2, 97 });
    v.push_back({ "least_n_t5_d2", 2, 5, 0, 2, 5, 2 });
    // Fills shorter than a tuple's t - 1 values: tuples across several fills.
    v.push_back({ "t6_d5_fills3", 1, 4000, 7, 5, 6, 3 });
    v.push_back({ "t2_d700_r25", 1, 400000, 25, 700, 2, 1 << 16 });
    v.push_back({ "default_fills", 1, 70000, 0, 64, 2, native::device_counts::chunk_words });
    return v;
}

using SerialParam = std::tuple<SerialCase, std::string>;

void run_serial(const SerialCase& c, const std::string& stream)
{
    max_words = c.words;
    Paths paths(stream);
    Basic a = new_basic(), b = new_basic();
    serial_calls = 0;
    paths.both([&](native::Numbers& in, int side) {
        native::serial_over(in, side == 0 ? a.get() : b.get(), c.N, c.n, c.r, c.d, c.t, 2);
    });
    EXPECT_GT(paths.source.filled, 0);
    if (paths.device_error.empty()) {
        EXPECT_EQ(serial_calls, c.N);
    }
    if (!paths.host_error.empty()) return;
    EXPECT_EQ(paths.device.consumed(), static_cast<std::uint64_t>(c.N * c.n));
    ASSERT_EQ(a->sVal1->NObs, c.N);
    expect_same_values(a.get(), b.get());
}

class DeviceSerialOver : public testing::TestWithParam<SerialParam> { };

TEST_P(DeviceSerialOver, SameResultAsCpuPath)
{
    run_serial(std::get<0>(GetParam()), std::get<1>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceSerialOver,
    testing::Combine(testing::ValuesIn(serial_cases()), testing::ValuesIn(device_case_streams())),
    CaseName());

// Crush's first row's own 2^24 cells (4096^2) in the dense case (about 2^24 numbers), on one
// stream, over several fills.
TEST(DeviceSerialOverForms, CrushRowCells)
{
    run_serial({ "crush1_cells", 1, 17000000, 0, 4096, 2, std::size_t(1) << 22 }, "ranmar48");
}

// The cell counts themselves against tuples counted here one by one (circular), on a grid of
// few values and on random words.
TEST(DeviceSerialOverForms, CountsEqualPlainTuples)
{
    for (const char* stream : { "grid", "mt19937" }) {
        for (const int t : { 2, 3, 5 }) {
            SCOPED_TRACE(std::string(stream) + " t" + std::to_string(t));
            const long n = 3000, d = 6;
            const int r = 1;
            auto s1 = device_case_stream(stream), s2 = device_case_stream(stream);
            rngvet::TestU01Generator host(*s1, stream), device(*s2, stream);
            HostSystemSource source(device);
            native::Numbers din(source), hin(host);
            const auto count = native::device_counts::serial_over_counts(din, n, r, d, t, 101);
            ASSERT_TRUE(count.has_value());
            std::vector<long> x(static_cast<std::size_t>(n));
            for (long& v : x)
                v = hin.strip_l(hin.next(), r, d);
            std::uint64_t k = 1;
            for (int i = 0; i < t; ++i)
                k *= static_cast<std::uint64_t>(d);
            std::vector<std::uint64_t> expected(k, 0);
            for (long i = 0; i < n; ++i) {
                std::uint64_t key = 0;
                for (int j = 0; j < t; ++j)
                    key = key * static_cast<std::uint64_t>(d)
                        + static_cast<std::uint64_t>(x[static_cast<std::size_t>((i + j) % n)]);
                ++expected[key];
            }
            EXPECT_EQ(*count, expected);
            EXPECT_EQ(din.consumed(), hin.consumed());
        }
    }
}

// A stream that cannot write device memory: nullopt, nothing read. One that stops writing after
// its first fill: an error, not a silent switch.
TEST(DeviceWalksForms, NoDeviceReadsNothingAndAFailedFillThrows)
{
    auto s1 = device_case_stream("mt19937"), s2 = device_case_stream("mt19937"),
         s3 = device_case_stream("mt19937"), s4 = device_case_stream("mt19937");
    rngvet::TestU01Generator g1(*s1, "mt19937"), g2(*s2, "mt19937"), g3(*s3, "mt19937"),
        g4(*s4, "mt19937");
    {
        HostSystemSource none(g1, 0);
        native::Numbers in(none);
        EXPECT_FALSE(native::device_counts::random_walk_counts(in, 1, 100, 0, 10, 50, 100));
        EXPECT_FALSE(native::device_counts::serial_over_counts(in, 1000, 0, 8, 3, 100));
        EXPECT_EQ(in.consumed(), 0u);
    }
    {
        HostSystemSource once(g2, 1);
        native::Numbers in(once);
        EXPECT_THROW(native::device_counts::random_walk_counts(in, 1, 100, 0, 10, 50, 100),
            std::runtime_error);
    }
    {
        HostSystemSource once(g3, 1);
        native::Numbers in(once);
        EXPECT_THROW(
            native::device_counts::serial_over_counts(in, 1000, 0, 8, 3, 100), std::runtime_error);
    }
    {
        // Through the family: the CPU path runs where the stream cannot write device memory.
        HostSystemSource none(g4, 0);
        native::Numbers in(none);
        walk_calls = 0;
        const native::RandomWalkResult res
            = native::random_walk1(in, { 1, 1000, 0, 10, 50, 50 }, 2);
        EXPECT_TRUE(res.done);
        EXPECT_EQ(walk_calls, 0);
        EXPECT_EQ(in.consumed(), 5000u);
    }
}

} // namespace
