// The device algorithms of the native engine (batteries/native/device_counts.hpp), compiled here
// by g++ for Thrust's OpenMP system (THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_OMP, Debian's
// libthrust-dev), so that a machine without a GPU or nvcc runs the very code that
// batteries/native/device_cuda.cu runs on CUDA.
//
// For each battery form of smarsa_BirthdaySpacings and smarsa_CollisionOver (a smaller n), and
// further forms (collisions likely, both cell orders, circular tuples, each approximation of
// CollisionOver), on the harness's five generators: the device algorithm, fed the stream's words
// through fill_device into the system's memory, gives exactly the CPU path's per-replication
// counts and reads as many numbers. The families compute their p-values from these counts with
// the same code on both paths, so equal counts are equal p-values.
//
// Also: a source that cannot write device memory leaves the test on its CPU path with nothing
// read, and one that stops after the first fill is an error.
#include "batteries/native/birthday_spacings.hpp"
#include "batteries/native/collision.hpp"
#include "batteries/native/device_counts.hpp"
#include "native_support.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>

extern "C" {
#include <testu01/smultin.h>
}

static_assert(THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP,
    "test_native_device runs the device algorithms on Thrust's OpenMP system");

namespace {

namespace native = rngvet::native;
namespace device = rngvet::native::device_counts;
using rngvet_test::HarnessFeed;
using rngvet_test::HostSystemSource;
using rngvet_test::same_bits;

// ---------------------------------------------------------------------------------------------
// smarsa_BirthdaySpacings.

struct BirthdayCase {
    std::string name;
    native::BirthdaySpacingsParams p;
};

std::ostream& operator<<(std::ostream& o, const BirthdayCase& c)
{
    return o << c.name;
}

// Numbers read per case at most (the battery rows at a smaller n).
constexpr long small_numbers = 600000;

std::vector<BirthdayCase> birthday_cases()
{
    std::vector<BirthdayCase> cases;
    for (const native::BirthdaySpacingsRow& row : native::birthday_spacings_rows()) {
        BirthdayCase c{ rngvet_test::row_name(row.battery, row.number), row.params };
        if (c.p.N * c.p.n * c.p.t > small_numbers) {
            c.p.n = std::max(1000L, small_numbers / (c.p.N * c.p.t));
            c.name += "_n" + std::to_string(c.p.n);
        }
        cases.push_back(c);
    }
    // d lowered so that collisions happen (Lambda about 1.5), several r, both cell orders,
    // d^t = 2^64 (kc = 0), t = 1, and n of 1 and 2.
    const BirthdayCase more[] = {
        { "t2_r0", { 2, 142669, 0, 22000000, 2, 1 } },
        { "t2_r5_order2", { 2, 142669, 5, 22000000, 2, 2 } },
        { "t3_r9_order2", { 2, 89038, 9, 49000, 3, 2 } },
        { "t4_r14", { 2, 119086, 14, 4096, 4, 1 } },
        { "t7_r7", { 1, 150000, 7, 128, 7, 1 } },
        { "t8_r22", { 1, 119086, 22, 64, 8, 1 } },
        { "t13_r20", { 1, 39148, 20, 10, 13, 1 } },
        { "t16_d6_r26", { 2, 25600, 26, 6, 16, 1 } },
        { "t16_d16_r26_order2", { 1, 50000, 26, 16, 16, 2 } },
        { "t1_d2e12", { 10, 22894, 3, 2000000000000L, 1, 1 } },
        { "t2_n1", { 3, 1, 0, 1000, 2, 1 } },
        { "t2_n2", { 3, 2, 0, 100, 2, 2 } },
    };
    cases.insert(cases.end(), std::begin(more), std::end(more));
    return cases;
}

class DeviceBirthdaySpacings
    : public testing::TestWithParam<std::tuple<BirthdayCase, std::string>> { };

TEST_P(DeviceBirthdaySpacings, SameCountsAsCpuPath)
{
    const native::BirthdaySpacingsParams& p = std::get<0>(GetParam()).p;
    const std::string& generator = std::get<1>(GetParam());

    HarnessFeed cpu_feed(generator);
    native::BirthdaySpacingsResult cpu;
    {
        native::Numbers in(cpu_feed.feed()); // a host stream: the CPU path
        cpu = native::birthday_spacings(in, p, 2);
    }
    ASSERT_TRUE(cpu.done);

    HarnessFeed device_feed(generator);
    HostSystemSource source(device_feed.feed());
    std::optional<std::vector<long>> y;
    {
        native::Numbers in(source);
        y = device::birthday_spacings_counts(in, p);
        ASSERT_TRUE(y.has_value());
        EXPECT_EQ(in.consumed(), device_feed.consumed());
    }
    EXPECT_EQ(cpu_feed.consumed(), device_feed.consumed());
    ASSERT_EQ(y->size(), cpu.collisions.size());
    for (std::size_t i = 0; i < y->size(); ++i)
        EXPECT_TRUE(same_bits(cpu.collisions[i], static_cast<double>((*y)[i])))
            << "replication " << i;
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceBirthdaySpacings,
    testing::Combine(
        testing::ValuesIn(birthday_cases()), testing::ValuesIn(rngvet_test::harness_generators())),
    rngvet_test::CaseName());

// ---------------------------------------------------------------------------------------------
// smarsa_CollisionOver.

struct OverCase {
    std::string name;
    long N, n;
    int r;
    long d;
    int t;
};

std::ostream& operator<<(std::ostream& o, const OverCase& c)
{
    return o << c.name;
}

std::vector<OverCase> over_cases()
{
    std::vector<OverCase> cases;
    for (const native::CollisionRow& row : native::collision_rows()) {
        if (!row.over) continue;
        cases.push_back({ rngvet_test::row_name(row.battery, row.number) + "_n50000", 2, 50000,
            row.r, row.d, row.t });
    }
    const OverCase more[] = {
        // Sparse Poisson with collisions; normal; dense Poisson.
        { "sparse_d1000_t2", 2, 40000, 3, 1000, 2 },
        { "normal_d8_t5", 2, 100000, 0, 8, 5 },
        { "normal_d4_t8_r5", 1, 200000, 5, 4, 8 },
        { "dense_d7_t5", 2, 100000, 1, 7, 5 },
        // Cells of 62 bits; d = 2^31; t = n (every tuple wraps around).
        { "wide_d2e31_t2", 1, 100000, 1, 1L << 31, 2 },
        { "t_equals_n", 3, 5, 0, 16, 5 },
        // ranmar24 gives 0 for every cell with r = 28.
        { "degenerate_r28", 1, 100000, 28, 4, 20 },
    };
    cases.insert(cases.end(), std::begin(more), std::end(more));
    return cases;
}

class DeviceCollisionOver : public testing::TestWithParam<std::tuple<OverCase, std::string>> { };

TEST_P(DeviceCollisionOver, SameCountsAsCpuPath)
{
    const OverCase& c = std::get<0>(GetParam());
    const std::string& generator = std::get<1>(GetParam());

    HarnessFeed cpu_feed(generator);
    native::CollisionResult cpu;
    {
        native::Numbers in(cpu_feed.feed());
        cpu = native::collision_over(in, c.N, c.n, c.r, c.d, c.t, 2);
    }

    HarnessFeed device_feed(generator);
    HostSystemSource source(device_feed.feed());
    std::optional<std::vector<std::uint64_t>> distinct;
    {
        native::Numbers in(source);
        distinct = device::collision_over_counts(in, c.N, c.n, c.r, c.d, c.t);
        ASSERT_TRUE(distinct.has_value());
        EXPECT_EQ(in.consumed(), device_feed.consumed());
    }
    EXPECT_EQ(cpu_feed.consumed(), device_feed.consumed());
    ASSERT_EQ(distinct->size(), static_cast<std::size_t>(c.N));
    ASSERT_EQ(cpu.values.size(), static_cast<std::size_t>(c.N));

    // The CPU path keeps X = n - distinct per replication as its statistic (sparse Poisson),
    // k + X - n (dense Poisson) or X standardized (normal); NbCollisions is the sum of the X.
    double k = 1;
    for (int i = 0; i < c.t; ++i)
        k *= static_cast<double>(c.d);
    double collisions = 0;
    for (std::size_t i = 0; i < distinct->size(); ++i) {
        const double x = static_cast<double>(static_cast<std::uint64_t>(c.n) - (*distinct)[i]);
        collisions += x;
        if (cpu.approximation == smultin_CollPoissonSparse) {
            EXPECT_TRUE(same_bits(cpu.values[i], x)) << "replication " << i;
        } else if (cpu.approximation == smultin_CollPoissonDense) {
            EXPECT_TRUE(same_bits(cpu.values[i], k + x - static_cast<double>(c.n)))
                << "replication " << i;
        }
    }
    EXPECT_TRUE(same_bits(cpu.collisions, collisions)) << "NbCollisions";
}

INSTANTIATE_TEST_SUITE_P(Forms, DeviceCollisionOver,
    testing::Combine(
        testing::ValuesIn(over_cases()), testing::ValuesIn(rngvet_test::harness_generators())),
    rngvet_test::CaseName());

// The battery rows of CollisionOver are all sparse, where the per-replication check above
// is complete; the further forms reach each approximation.
TEST(DeviceCollisionOverForms, EachApproximation)
{
    int seen[3] = { 0, 0, 0 };
    for (const OverCase& c : over_cases()) {
        HarnessFeed feed("mt19937");
        native::Numbers in(feed.feed());
        const int a = native::collision_over(in, 1, c.n, c.r, c.d, c.t, 2).approximation;
        if (a == smultin_CollPoissonSparse) ++seen[0];
        if (a == smultin_CollNormal) ++seen[1];
        if (a == smultin_CollPoissonDense) ++seen[2];
    }
    EXPECT_GT(seen[0], 0);
    EXPECT_GT(seen[1], 0);
    EXPECT_GT(seen[2], 0);
}

// ---------------------------------------------------------------------------------------------
// When the words cannot be had in device memory.

TEST(DeviceFallback, HostStreamReadsNothing)
{
    HarnessFeed feed("ranmar48"); // fill_device is false: a stream on the host
    native::Numbers in(feed.feed());
    EXPECT_FALSE(device::birthday_spacings_counts(in, { 2, 1000, 0, 1L << 30, 2, 1 }));
    EXPECT_FALSE(device::collision_over_counts(in, 2, 1000, 0, 1024, 2));
    EXPECT_EQ(in.consumed(), 0u);
    EXPECT_EQ(feed.consumed(), 0u);
}

TEST(DeviceFallback, FirstFillRefusedReadsNothing)
{
    HarnessFeed feed("mt19937");
    HostSystemSource source(feed.feed(), 0); // the probe passes, the first fill is refused
    native::Numbers in(source);
    EXPECT_FALSE(device::birthday_spacings_counts(in, { 2, 1000, 0, 1L << 30, 2, 1 }));
    EXPECT_FALSE(device::collision_over_counts(in, 2, 1000, 0, 1024, 2));
    EXPECT_EQ(feed.consumed(), 0u);
}

TEST(DeviceFallback, LaterFillRefusedThrows)
{
    {
        HarnessFeed feed("mt19937");
        HostSystemSource source(feed.feed(), 1);
        native::Numbers in(source);
        EXPECT_THROW(device::birthday_spacings_counts(in, { 2, 1000, 0, 1L << 30, 2, 1 }),
            std::runtime_error);
    }
    {
        HarnessFeed feed("mt19937");
        HostSystemSource source(feed.feed(), 1);
        native::Numbers in(source);
        EXPECT_THROW(device::collision_over_counts(in, 2, 1000, 0, 1024, 2), std::runtime_error);
    }
}

// A replication's words in several fills (chunks of whole cells, as a large n takes on the
// device): the same counts with chunks of a few words.
TEST(DeviceChunks, WordsOverSeveralFills)
{
    const native::BirthdaySpacingsParams p{ 3, 20000, 0, 4096, 4, 2 };
    const OverCase c{ "", 2, 30000, 0, 1024, 3 };
    for (const std::size_t words : { 1, 3, 1000, 4097 }) {
        SCOPED_TRACE("words " + std::to_string(words));
        std::vector<long> y[2];
        std::vector<std::uint64_t> distinct[2];
        for (int i = 0; i < 2; ++i) {
            HarnessFeed feed("mt19937");
            HostSystemSource source(feed.feed());
            native::Numbers in(source);
            y[i] = *device::birthday_spacings_counts(in, p, i == 0 ? device::chunk_words : words);
            distinct[i] = *device::collision_over_counts(
                in, c.N, c.n, c.r, c.d, c.t, i == 0 ? device::chunk_words : words);
            EXPECT_EQ(feed.consumed(), static_cast<std::uint64_t>(p.N * p.n * p.t + c.N * c.n));
        }
        EXPECT_EQ(y[0], y[1]);
        EXPECT_EQ(distinct[0], distinct[1]);
    }
}

} // namespace
