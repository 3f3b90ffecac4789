// Exactness of the native tests of this family against TestU01's own function (native_support.hpp).
//
// Native sknuth_Collision and smarsa_CollisionOver (batteries/native/collision.hpp) against
// TestU01's functions on the same stream: every replication's statistic, the number of
// collisions, the Poisson record (Lambda, sVal2, pLeft, pRight, pVal2), every entry of the basic
// record's sVal2/pVal2, bitwise, and the numbers consumed. Then the battery rows: registered as
// bbattery.c writes them, with the p-value TestU01's function gives.
//
// Sizes: the SmallCrush form runs at full size; the Crush and BigCrush forms (tens of seconds to
// minutes each in TestU01) run with a smaller n unless RNGVET_NATIVE_FULL=1.
#include "batteries/native/collision.hpp"
#include "batteries/native/families.hpp"
#include "native_support.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
#include <testu01/gofw.h>
#include <testu01/sknuth.h>
#include <testu01/smarsa.h>
#include <testu01/smultin.h>
#include <testu01/sres.h>
#include <testu01/statcoll.h>
}

namespace native = rngvet::native;
using rngvet_test::HarnessFeed;
using rngvet_test::same_bits;

namespace {

// One TestU01 call: sknuth_Collision or smarsa_CollisionOver with its parameters.
struct Form {
    std::string name;
    bool over;
    long N;
    long n;
    int r;
    long d;
    int t;
};

std::string form_name(const std::string& prefix, const Form& f)
{
    return prefix + "_N" + std::to_string(f.N) + "_n" + std::to_string(f.n) + "_r"
        + std::to_string(f.r) + "_d" + std::to_string(f.d) + "_t" + std::to_string(f.t);
}

void expect_same_poisson(
    const sres_Poisson* pois, const sres_Basic* bas, const native::CollisionResult& nat, long N)
{
    EXPECT_TRUE(same_bits(pois->sVal2, nat.s_val2_poisson)) << "sVal2 (collisions or empty)";
    EXPECT_TRUE(same_bits(pois->Lambda, nat.mu)) << "Lambda (Mu)";
    EXPECT_TRUE(same_bits(pois->pLeft, nat.p_left)) << "pLeft";
    EXPECT_TRUE(same_bits(pois->pRight, nat.p_right)) << "pRight";
    EXPECT_TRUE(same_bits(pois->pVal2, nat.p_value)) << "pVal2";
    ASSERT_EQ(pois->sVal1->NObs, N);
    ASSERT_EQ(bas->sVal1->NObs, N);
    ASSERT_EQ(static_cast<long>(nat.values.size()), N);
    for (long i = 1; i <= N; ++i) {
        EXPECT_TRUE(same_bits(pois->sVal1->V[i], nat.values[static_cast<std::size_t>(i - 1)]))
            << "replication " << i;
        EXPECT_TRUE(same_bits(bas->sVal1->V[i], nat.values[static_cast<std::size_t>(i - 1)]))
            << "replication " << i;
    }
    ASSERT_EQ(nat.s_val2.size(), static_cast<std::size_t>(gofw_NTestTypes));
    ASSERT_EQ(nat.p_val2.size(), static_cast<std::size_t>(gofw_NTestTypes));
    for (int j = 0; j < gofw_NTestTypes; ++j) {
        const std::size_t u = static_cast<std::size_t>(j);
        EXPECT_TRUE(same_bits(bas->sVal2[j], nat.s_val2[u]))
            << "sVal2[" << gofw_TestNames[j] << "]";
        EXPECT_TRUE(same_bits(bas->pVal2[j], nat.p_val2[u]))
            << "pVal2[" << gofw_TestNames[j] << "]";
    }
}

// TestU01's function on one feed, the native one on another of the same generator.
native::CollisionResult expect_exact(const std::string& generator, const Form& f, int threads)
{
    HarnessFeed feed1(generator);
    HarnessFeed feed2(generator);
    native::CollisionResult nat;
    if (f.over) {
        smarsa_Res* res = smarsa_CreateRes();
        smarsa_CollisionOver(feed1.gen(), res, f.N, f.n, f.r, f.d, f.t);
        {
            native::Numbers in(feed2.feed());
            nat = native::collision_over(in, f.N, f.n, f.r, f.d, f.t, threads);
        }
        expect_same_poisson(res->Pois, res->Bas, nat, f.N);
        smarsa_DeleteRes(res);
    } else {
        sknuth_Res2* res = sknuth_CreateRes2();
        sknuth_Collision(feed1.gen(), res, f.N, f.n, f.r, f.d, f.t);
        {
            native::Numbers in(feed2.feed());
            nat = native::collision(in, f.N, f.n, f.r, f.d, f.t, threads);
        }
        expect_same_poisson(res->Pois, res->Bas, nat, f.N);
        sknuth_DeleteRes2(res);
    }
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
    return nat;
}

// ---- Forms: the batteries' own parameters, then deterministic draws -------------------------

// n for a CollisionOver draw of density (n - t + 1) / d^t about `density`.
long over_n(double density, std::uint64_t k, int t)
{
    return static_cast<long>(density * static_cast<double>(k)) + t - 1;
}

std::uint64_t power(long d, int t)
{
    std::uint64_t k = 1;
    for (int i = 0; i < t; ++i)
        k *= static_cast<std::uint64_t>(d);
    return k;
}

std::vector<Form> forms()
{
    std::vector<Form> v;
    const long small_over = rngvet_test::native_full_size() ? 0 : 50000; // 0: the battery's n
    // SmallCrush test 2 (at full size in the row test below), and smaller.
    v.push_back({ "smallcrush2", false, 1, rngvet_test::native_full_size() ? 5000000 : 1000000, 0,
        65536, 2 });
    v.push_back({ "", false, 1, 200000, 0, 65536, 2 });
    v.push_back({ "", false, 3, 100000, 0, 65536, 2 });
    // Crush tests 3-10 and BigCrush tests 3-12: their parameters (N and n smaller by default).
    for (const native::CollisionRow& row : native::collision_rows()) {
        if (!row.over) continue;
        const long N = rngvet_test::native_full_size() ? row.N : 2;
        v.push_back({ std::string(row.battery) + std::to_string(row.number), true, N,
            small_over ? small_over : row.n, row.r, row.d, row.t });
    }
    // Collision: hashing and table cases, exact / Poisson / normal distributions of the count,
    // powers of two and others for d, several r.
    std::mt19937_64 rng(20261126);
    auto uniform = [&rng](long lo, long hi) {
        return lo + static_cast<long>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
    };
    const long ds[] = { 2, 3, 4, 7, 10, 32, 100, 256, 1000, 4096, 65536, 100003, 1L << 20 };
    for (int i = 0; i < 14; ++i) {
        Form f{ "", false, 1, 0, 0, 0, 0 };
        double k = 0;
        for (;;) {
            f.d = ds[uniform(0, 12)];
            const int tmax = std::max(1, static_cast<int>(std::floor(40.0 / std::log2(f.d))));
            f.t = static_cast<int>(uniform(1, std::min(tmax, 6)));
            k = static_cast<double>(power(f.d, f.t));
            f.n = uniform(5, 100000); // exact distribution of the count
            if (i % 3 != 0) break;
            // Poisson or normal approximation; TestU01's normal one overflows for dense cases.
            f.n = uniform(100001, 250000);
            if (static_cast<double>(f.n) / k <= 3.0) break;
        }
        f.N = uniform(1, 3);
        if (static_cast<double>(f.n) / k > 8.0 || k <= 2) f.N = 1; // no mean for N > 1
        f.r = static_cast<int>(uniform(0, 32 - static_cast<long>(std::ceil(std::log2(f.d)))));
        v.push_back(f);
    }
    // CollisionOver: each approximation (sparse Poisson, normal, dense Poisson).
    const double densities[][2] = { { 1e-7, 0.0999 }, { 0.1, 1.0 }, { 2.0, 4.99 }, { 5.01, 11.9 } };
    for (int i = 0; i < 16; ++i) {
        const int a = i % 4;
        Form f{ "", true, 1, 0, 0, 0, 0 };
        std::uint64_t k = 0;
        for (;;) {
            f.d = ds[uniform(0, 12)];
            f.t = static_cast<int>(uniform(2, 12));
            if (std::log2(f.d) * f.t > 62) continue;
            k = power(f.d, f.t);
            const double lo = densities[a][0], hi = densities[a][1];
            const double density = lo + (hi - lo) * static_cast<double>(uniform(0, 1000)) / 1000;
            const double nn = density * static_cast<double>(k);
            if (nn < 10 || nn > 250000) continue;
            f.n = over_n(density, k, f.t);
            break;
        }
        f.N = uniform(1, 3);
        f.r = static_cast<int>(uniform(0, 32 - static_cast<long>(std::ceil(std::log2(f.d)))));
        v.push_back(f);
    }
    // Cells of more than 47 bits (64-bit low parts), d = 2^32, and a bucket too large for the
    // table (ranmar24 gives 0 for every cell with r = 28).
    v.push_back({ "wide", false, 1, 200000, 0, 1L << 20, 3 });
    v.push_back({ "wide", true, 2, 100000, 3, 1L << 20, 3 });
    v.push_back({ "wide", true, 1, 50000, 0, 1000003, 3 });
    v.push_back({ "", false, 1, 100000, 0, 1L << 32, 1 });
    v.push_back({ "degenerate", true, 1, 300000, 28, 4, 20 });
    // The OQSO and DNA forms (Marsaglia's variances in InitCollOver).
    v.push_back({ "oqso", true, 1, 2097152, 3, 32, 4 });
    v.push_back({ "dna", true, 1, 2097152, 5, 4, 10 });
    for (Form& f : v)
        f.name = form_name(f.name.empty() ? (f.over ? "over" : "collision") : f.name, f);
    return v;
}

class CollisionExact : public testing::TestWithParam<std::tuple<Form, std::string>> { };

TEST_P(CollisionExact, SameAsTestU01)
{
    const Form& f = std::get<0>(GetParam());
    expect_exact(std::get<1>(GetParam()), f, 2);
}

INSTANTIATE_TEST_SUITE_P(Forms, CollisionExact,
    testing::Combine(
        testing::ValuesIn(forms()), testing::ValuesIn(rngvet_test::harness_generators())),
    [](const testing::TestParamInfo<std::tuple<Form, std::string>>& p) {
        return std::get<0>(p.param).name + "_" + std::get<1>(p.param);
    });

// The counts do not depend on the number of threads.
TEST(CollisionThreads, SameForAnyThreadCount)
{
    const Form forms_[] = { { "c", false, 2, 300000, 3, 4096, 3 },
        { "o", true, 2, 300000, 0, 1024, 4 }, { "o", true, 1, 300000, 7, 1000, 2 } };
    for (const Form& f : forms_)
        for (int threads : { 1, 3, 4 }) {
            SCOPED_TRACE(form_name(f.name, f) + " threads=" + std::to_string(threads));
            expect_exact("mt19937", f, threads);
        }
}

// The distinct count on keys no generator of the harness gives: everything in one bucket (all
// equal, few values, more distinct values than the bucket tables take), and random keys.
TEST(CollisionDistinct, SameAsSortAndUnique)
{
    auto reference = [](std::vector<std::uint64_t> v) {
        std::sort(v.begin(), v.end());
        return static_cast<std::uint64_t>(std::unique(v.begin(), v.end()) - v.begin());
    };
    std::mt19937_64 rng(7);
    std::vector<std::vector<std::uint64_t>> sets;
    sets.push_back(std::vector<std::uint64_t>(400000, 12345)); // all equal
    std::vector<std::uint64_t> v;
    for (std::uint64_t i = 0; i < 2200000; ++i)
        v.push_back(i * 7 + (rng() % 4 == 0 ? 0 : 1)); // one bucket, over 2^21 distinct
    for (std::uint64_t i = 0; i < 100000; ++i)
        v.push_back(i * 7 + 1); // and repeats
    sets.push_back(v);
    v.clear();
    for (int i = 0; i < 500000; ++i)
        v.push_back(rng() % 1000); // few values in one bucket
    sets.push_back(v);
    v.clear();
    for (int i = 0; i < 500000; ++i)
        v.push_back(rng() >> 30); // 34-bit random keys
    for (int i = 0; i < 1000; ++i)
        v.push_back(v[static_cast<std::size_t>(i) * 13]);
    sets.push_back(v);
    const std::uint64_t ks[]
        = { std::uint64_t(1) << 63, std::uint64_t(1) << 40, std::uint64_t(1) << 34 };
    for (const std::vector<std::uint64_t>& keys : sets) {
        const std::uint64_t expected = reference(keys);
        const std::uint64_t top = *std::max_element(keys.begin(), keys.end());
        for (std::uint64_t k : ks) {
            if (top >= k) continue;
            for (int threads : { 1, 2 })
                EXPECT_EQ(native::distinct_count(keys, k, threads), expected)
                    << keys.size() << " keys below " << k << ", " << threads << " threads";
        }
    }
}

// Parameters TestU01 has no test for are refused before anything is read.
TEST(CollisionRefused, NothingRead)
{
    HarnessFeed feed("mt19937");
    native::Numbers in(feed.feed());
    // CollisionOver density 1.5: between the normal and sparse approximations.
    EXPECT_THROW(native::collision_over(in, 1, 1537, 0, 32, 2, 1), std::invalid_argument);
    EXPECT_THROW(native::collision_over(in, 1, 1000, 0, 2, 64, 1), std::invalid_argument);
    EXPECT_THROW(native::collision(in, 1, 4, 0, 2, 2, 1), std::invalid_argument);
    EXPECT_THROW(native::collision(in, 2, 1000, 0, 2, 2, 1), std::invalid_argument); // n/k > 8
    EXPECT_THROW(native::collision(in, 1, 1000, 0, 1L << 32, 2, 1), std::invalid_argument);
    in.sync();
    EXPECT_EQ(feed.consumed(), 0u);
}

// ---- Battery rows -----------------------------------------------------------------------------

// bbattery.c's calls and names, written out independently of the native table.
struct ExpectedRow {
    const char* battery;
    int number;
    const char* name;
    bool over;
    long N, n;
    int r;
    long d;
    int t;
};

const ExpectedRow expected_rows[] = {
    { "smallcrush", 2, "Collision", false, 1, 5000000, 0, 65536, 2 },
    { "crush", 3, "CollisionOver, t = 2", true, 10, 10000000, 0, 1048576, 2 },
    { "crush", 4, "CollisionOver, t = 2", true, 10, 10000000, 10, 1048576, 2 },
    { "crush", 5, "CollisionOver, t = 4", true, 10, 10000000, 0, 1024, 4 },
    { "crush", 6, "CollisionOver, t = 4", true, 10, 10000000, 20, 1024, 4 },
    { "crush", 7, "CollisionOver, t = 8", true, 10, 10000000, 0, 32, 8 },
    { "crush", 8, "CollisionOver, t = 8", true, 10, 10000000, 25, 32, 8 },
    { "crush", 9, "CollisionOver, t = 20", true, 10, 10000000, 0, 4, 20 },
    { "crush", 10, "CollisionOver, t = 20", true, 10, 10000000, 28, 4, 20 },
    { "bigcrush", 3, "CollisionOver, t = 2", true, 30, 20000000, 0, 2097152, 2 },
    { "bigcrush", 4, "CollisionOver, t = 2", true, 30, 20000000, 9, 2097152, 2 },
    { "bigcrush", 5, "CollisionOver, t = 3", true, 30, 20000000, 0, 16384, 3 },
    { "bigcrush", 6, "CollisionOver, t = 3", true, 30, 20000000, 16, 16384, 3 },
    { "bigcrush", 7, "CollisionOver, t = 7", true, 30, 20000000, 0, 64, 7 },
    { "bigcrush", 8, "CollisionOver, t = 7", true, 30, 20000000, 24, 64, 7 },
    { "bigcrush", 9, "CollisionOver, t = 14", true, 30, 20000000, 0, 8, 14 },
    { "bigcrush", 10, "CollisionOver, t = 14", true, 30, 20000000, 27, 8, 14 },
    { "bigcrush", 11, "CollisionOver, t = 21", true, 30, 20000000, 0, 4, 21 },
    { "bigcrush", 12, "CollisionOver, t = 21", true, 30, 20000000, 28, 4, 21 },
};

TEST(CollisionRows, RegisteredAsBbatteryWritesThem)
{
    const std::vector<native::NativeTest> tests = native::collision_tests();
    const std::vector<native::CollisionRow>& rows = native::collision_rows();
    const std::size_t count = sizeof expected_rows / sizeof expected_rows[0];
    ASSERT_EQ(tests.size(), count);
    ASSERT_EQ(rows.size(), count);
    for (std::size_t i = 0; i < count; ++i) {
        const ExpectedRow& e = expected_rows[i];
        SCOPED_TRACE(std::string(e.battery) + " " + std::to_string(e.number));
        EXPECT_EQ(std::string(tests[i].battery), e.battery);
        EXPECT_EQ(tests[i].number, e.number);
        EXPECT_EQ(std::string(rows[i].battery), e.battery);
        EXPECT_EQ(rows[i].number, e.number);
        EXPECT_EQ(std::string(rows[i].name), e.name);
        EXPECT_EQ(rows[i].over, e.over);
        EXPECT_EQ(rows[i].N, e.N);
        EXPECT_EQ(rows[i].n, e.n);
        EXPECT_EQ(rows[i].r, e.r);
        EXPECT_EQ(rows[i].d, e.d);
        EXPECT_EQ(rows[i].t, e.t);
    }
}

// Each row against TestU01's function with the row's parameters: the row's own run at full size
// for SmallCrush (and for all with RNGVET_NATIVE_FULL=1), else the row's parameters with a
// smaller n (and N = 2).
class CollisionRowExact : public testing::TestWithParam<std::tuple<std::size_t, std::string>> { };

TEST_P(CollisionRowExact, SameAsTestU01)
{
    const std::size_t i = std::get<0>(GetParam());
    const std::string& generator = std::get<1>(GetParam());
    const native::NativeTest test = native::collision_tests()[i];
    const ExpectedRow& e = expected_rows[i];
    const bool whole = rngvet_test::native_full_size() || std::string(e.battery) == "smallcrush";
    const long N = whole ? e.N : 2;
    const long n = whole ? e.n : 30000;

    HarnessFeed feed1(generator);
    HarnessFeed feed2(generator);
    double p = 0;
    if (e.over) {
        smarsa_Res* res = smarsa_CreateRes();
        smarsa_CollisionOver(feed1.gen(), res, N, n, e.r, e.d, e.t);
        p = res->Pois->pVal2;
        smarsa_DeleteRes(res);
    } else {
        sknuth_Res2* res = sknuth_CreateRes2();
        sknuth_Collision(feed1.gen(), res, N, n, e.r, e.d, e.t);
        p = res->Pois->pVal2;
        sknuth_DeleteRes2(res);
    }
    std::vector<native::NativeStatistic> got;
    {
        native::Numbers in(feed2.feed());
        if (whole) {
            got = test.run(in);
        } else {
            native::CollisionRow row = native::collision_rows()[i];
            row.N = N;
            got = native::run_collision_row(row, in, n, 2);
        }
    }
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].name, e.name);
    EXPECT_TRUE(same_bits(p, got[0].pvalue));
    EXPECT_EQ(feed1.consumed(), feed2.consumed());
}

std::vector<std::size_t> row_indices()
{
    std::vector<std::size_t> v;
    for (std::size_t i = 0; i < sizeof expected_rows / sizeof expected_rows[0]; ++i)
        v.push_back(i);
    return v;
}

INSTANTIATE_TEST_SUITE_P(Rows, CollisionRowExact,
    testing::Combine(
        testing::ValuesIn(row_indices()), testing::ValuesIn(rngvet_test::harness_generators())),
    [](const testing::TestParamInfo<std::tuple<std::size_t, std::string>>& p) {
        const ExpectedRow& e = expected_rows[std::get<0>(p.param)];
        return std::string(e.battery) + std::to_string(e.number) + "_" + std::get<1>(p.param);
    });

// ---- Timing (RNGVET_NATIVE_TIMING=1) ----------------------------------------------------------

double seconds_since(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<int> timing_threads()
{
    std::vector<int> v;
    const char* e = std::getenv("RNGVET_NATIVE_TIMING_THREADS");
    std::string list = e != nullptr ? e : "1,2";
    for (std::size_t pos = 0; pos < list.size();) {
        const std::size_t comma = std::min(list.find(',', pos), list.size());
        v.push_back(std::atoi(list.substr(pos, comma - pos).c_str()));
        pos = comma + 1;
    }
    return v;
}

// TestU01's function (unless native_only), the native one with each thread count of
// RNGVET_NATIVE_TIMING_THREADS (default 1,2), and reading the numbers alone; best of two.
void time_form(const Form& f, bool native_only)
{
    const std::vector<int> threads = timing_threads();
    std::vector<double> tn(threads.size(), 1e300);
    double tu = native_only ? 0 : 1e300, tr = 1e300;
    const std::size_t count = static_cast<std::size_t>(f.N * f.n * (f.over ? 1 : f.t));
    for (int rep = 0; rep < 2; ++rep) {
        if (!native_only) {
            HarnessFeed feed("mt19937");
            const auto t0 = std::chrono::steady_clock::now();
            if (f.over) {
                smarsa_Res* res = smarsa_CreateRes();
                smarsa_CollisionOver(feed.gen(), res, f.N, f.n, f.r, f.d, f.t);
                smarsa_DeleteRes(res);
            } else {
                sknuth_Res2* res = sknuth_CreateRes2();
                sknuth_Collision(feed.gen(), res, f.N, f.n, f.r, f.d, f.t);
                sknuth_DeleteRes2(res);
            }
            tu = std::min(tu, seconds_since(t0));
        }
        {
            HarnessFeed feed("mt19937");
            native::Numbers in(feed.feed());
            std::vector<std::uint64_t> buf(1 << 16);
            const auto t0 = std::chrono::steady_clock::now();
            for (std::size_t done = 0; done < count; done += buf.size())
                in.read(buf.data(), std::min(buf.size(), count - done));
            tr = std::min(tr, seconds_since(t0));
        }
        for (std::size_t i = 0; i < threads.size(); ++i) {
            HarnessFeed feed("mt19937");
            native::Numbers in(feed.feed());
            const auto t0 = std::chrono::steady_clock::now();
            if (f.over)
                native::collision_over(in, f.N, f.n, f.r, f.d, f.t, threads[i]);
            else
                native::collision(in, f.N, f.n, f.r, f.d, f.t, threads[i]);
            tn[i] = std::min(tn[i], seconds_since(t0));
        }
    }
    std::printf("%-38s TestU01 %.3f s, reading alone %.3f s, native:", form_name(f.name, f).c_str(),
        tu, tr);
    for (std::size_t i = 0; i < threads.size(); ++i)
        std::printf(" %d thread(s) %.3f s", threads[i], tn[i]);
    std::printf("\n");
}

TEST(CollisionTiming, SmallCrushAndCrushForms)
{
    const char* v = std::getenv("RNGVET_NATIVE_TIMING");
    if (v == nullptr || (std::string(v) != "1" && std::string(v) != "native"))
        GTEST_SKIP() << "RNGVET_NATIVE_TIMING=1 times them (=native: the native functions only)";
    const bool native_only = std::string(v) == "native";
    time_form({ "smallcrush2", false, 1, 5000000, 0, 65536, 2 }, native_only);
    time_form({ "crush3", true, 1, 10000000, 0, 1048576, 2 }, native_only);
    time_form({ "crush9", true, 1, 10000000, 0, 4, 20 }, native_only);
    time_form({ "bigcrush3", true, 1, 20000000, 0, 2097152, 2 }, native_only);
}

} // namespace
