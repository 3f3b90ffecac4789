// The TestU01 adapter and battery runner: the adapter serves exactly the stream's bits, and a
// battery run through it equals the same battery run on TestU01's own RANMAR.
#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <set>

extern "C" {
#include <testu01/bbattery.h>
#include <testu01/umarsa.h>
}

#include "batteries/battery.hpp"
#include "batteries/bits_read.hpp"
#include "batteries/engine.hpp"
#include "batteries/native/costs.hpp"
#include "batteries/registry.hpp"
#include "batteries/runner.hpp"
#include "batteries/testu01_gen.hpp"
#include "generators/configuration.hpp"
#include "generators/error.hpp"
#include "tests/support.hpp"

namespace rngvet {
namespace {

Configuration ranmar(const std::string& g)
{
    Configuration c;
    c.generator = g;
    c.seed = { 1802, 9373 };
    return c;
}

TEST(Catalogue, StatisticCountsMatchTestU01Guide)
{
    EXPECT_EQ(smallcrush_catalogue().tests.size(), 10u);
    EXPECT_EQ(smallcrush_catalogue().total_statistics(), 15);
    EXPECT_EQ(crush_catalogue().tests.size(), 96u);
    EXPECT_EQ(crush_catalogue().total_statistics(), 144);
    EXPECT_EQ(bigcrush_catalogue().tests.size(), 106u);
    EXPECT_EQ(bigcrush_catalogue().total_statistics(), 160);
}

// Every row of the battery registry is whole: its name reads back as its own catalogue and
// title, its table has a row (and bits read) for every test, each option sets one of its keys, it
// has exactly one runner, and a battery run natively by default has a native form for every
// test. Names outside the registry are refused naming the valid ones.
TEST(Registry, EveryRowIsWholeAndConsistent)
{
    std::set<std::string> names;
    for (const BatteryFamily& f : battery_registry()) {
        SCOPED_TRACE(f.name);
        EXPECT_TRUE(names.insert(f.name).second) << "one row per family";
        const BatteryCatalogue& c = catalogue_for(f.name);
        EXPECT_EQ(c.family(), f.name);
        EXPECT_EQ(battery_title(c.name).rfind(f.title, 0), 0u) << battery_title(c.name);
        EXPECT_EQ(c.tests.size(), f.tests.size());
        for (const TestEntry& t : c.tests)
            EXPECT_NO_THROW((void)bits_read(c.name, t.number)) << "test " << t.number;
        EXPECT_EQ(f.keys.empty(), c.name == f.name) << c.name;
        EXPECT_EQ(f.keys.empty(), f.options.empty());
        for (const BatteryOption& o : f.options)
            EXPECT_NE(std::find(f.keys.begin(), f.keys.end(), o.key), f.keys.end()) << o.option;
        EXPECT_NE(f.testu01 == nullptr, f.own == nullptr) << "exactly one runner";
        if (f.native_by_default) {
            EXPECT_EQ(native_tests_text(c), "1-" + std::to_string(c.tests.size()));
            EXPECT_EQ(default_engine(c), Engine::automatic);
        } else {
            EXPECT_EQ(default_engine(c), Engine::testu01);
        }
        EXPECT_THROW(catalogue_for(f.name + std::string("(x=1)")), InputError);
    }
    EXPECT_EQ(names,
        (std::set<std::string>{
            "smallcrush", "crush", "bigcrush", "rabbit", "alphabit", "mcpi", "ising" }));
    EXPECT_TRUE(battery_family_row("smallcrush").native_by_default);
    EXPECT_TRUE(battery_family_row("crush").native_by_default);
    EXPECT_TRUE(battery_family_row("bigcrush").native_by_default);
    try {
        (void)catalogue_for("smallcrush(n=1)");
        ADD_FAILURE() << "parameters accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("takes no parameters"), std::string::npos);
    }
    try {
        (void)catalogue_for("tinycrush");
        ADD_FAILURE() << "unknown battery accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(battery_names()), std::string::npos) << e.what();
    }
}

TEST(Adapter, GetU01CarriesAll48BitsAndGetBitsTheTop32)
{
    auto reference = make_stream(ranmar("ranmar48"));
    auto served = make_stream(ranmar("ranmar48"));
    FeedOptions feed;
    feed.block = 1000; // small blocks: exercises refills
    TestU01Generator gen(*served, "t", feed);
    unif01_Gen* g = gen.get();
    for (int n = 0; n < 5000; ++n) {
        std::uint64_t x = 0;
        reference->fill(&x, 1);
        if (n % 2 == 0) {
            const double u = g->GetU01(g->param, g->state);
            ASSERT_EQ(std::ldexp(u, 48), static_cast<double>(x)) << "n = " << n;
        } else {
            ASSERT_EQ(g->GetBits(g->param, g->state), x >> 16) << "n = " << n;
        }
    }
    EXPECT_EQ(gen.consumed(), 5000u);
    EXPECT_EQ(gen.refills(), 5u);
}

TEST(Adapter, PrefetchingServesTheSameNumbers)
{
    auto plain_stream = make_stream(ranmar("ranmar48x"));
    auto fed_stream = make_stream(ranmar("ranmar48x"));
    FeedOptions plain_feed, fed_feed;
    plain_feed.block = fed_feed.block = 777;
    fed_feed.prefetch = true;
    TestU01Generator plain(*plain_stream, "plain", plain_feed);
    TestU01Generator fed(*fed_stream, "fed", fed_feed);
    for (int n = 0; n < 100000; ++n)
        ASSERT_EQ(plain.get()->GetBits(nullptr, plain.get()->state),
            fed.get()->GetBits(nullptr, fed.get()->state))
            << "n = " << n;
    EXPECT_EQ(fed.refills(), plain.refills());
    EXPECT_LE(fed.refill_waits(), fed.refills());
}

TEST(Battery, SmallCrushOnRanmar24EqualsTestU01sOwnRanmar)
{
    auto stream = make_stream(ranmar("ranmar24"));
    TestU01Generator ours(*stream, "ranmar24");
    const BatteryResult mine = run_battery(ours.get(), smallcrush_catalogue(), {}, "");
    ASSERT_EQ(mine.statistics.size(), 15u);
    EXPECT_NE(mine.testu01_version.find("TestU01"), std::string::npos) << mine.testu01_version;

    unif01_Gen* theirs = umarsa_CreateRANMAR(12, 34, 56, 78);
    const BatteryResult native = run_battery(theirs, smallcrush_catalogue(), {}, "");
    umarsa_DeleteGen(theirs);

    ASSERT_EQ(native.statistics.size(), 15u);
    for (std::size_t i = 0; i < 15; ++i) {
        EXPECT_EQ(mine.statistics[i].pvalue, native.statistics[i].pvalue)
            << mine.statistics[i].test_name;
        EXPECT_EQ(mine.statistics[i].test_name, native.statistics[i].test_name);
        EXPECT_EQ(mine.statistics[i].stat_index, static_cast<int>(i) + 1);
    }
    // SmallCrush's test numbers: MaxOft (6) gives two statistics, RandomWalk1 (10) five.
    EXPECT_EQ(mine.statistics[5].test_number, 6);
    EXPECT_EQ(mine.statistics[6].test_number, 6);
    EXPECT_EQ(mine.statistics[14].test_number, 10);
}

TEST(Battery, ASubsetKeepsTheBatterysNumbering)
{
    auto stream = make_stream(ranmar("ranmar48"));
    TestU01Generator gen(*stream, "ranmar48");
    const BatteryResult r = run_battery(gen.get(), smallcrush_catalogue(), { 6, 8 }, "");
    ASSERT_EQ(r.statistics.size(), 3u);
    EXPECT_EQ(r.statistics[0].stat_index, 6);
    EXPECT_EQ(r.statistics[1].stat_index, 7);
    EXPECT_EQ(r.statistics[2].stat_index, 9);
    EXPECT_EQ(r.statistics[2].test_number, 8);
    EXPECT_EQ(r.statistics[2].test_name, "MatrixRank");
}

// RNGVET_SHARD_THREADS: unset or empty, 0 (the runner's rule); a count from 1 to 4096 is taken;
// anything else is refused in one line naming the variable.
TEST(ShardThreads, TheEnvironmentGivesACountOrIsRefused)
{
    {
        const rngvet_test::ScopedEnv unset("RNGVET_SHARD_THREADS", "");
        EXPECT_EQ(shard_threads(), 0);
    }
    const std::vector<std::pair<std::string, int>> good{ { "1", 1 }, { "16", 16 },
        { "4096", 4096 } };
    for (const auto& [text, n] : good) {
        const rngvet_test::ScopedEnv env("RNGVET_SHARD_THREADS", text);
        EXPECT_EQ(shard_threads(), n);
    }
    for (const char* bad : { "0", "-2", "4097", "8x", "x" }) {
        const rngvet_test::ScopedEnv env("RNGVET_SHARD_THREADS", bad);
        try {
            (void)shard_threads();
            ADD_FAILURE() << bad << " was taken";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("RNGVET_SHARD_THREADS='" + std::string(bad) + "'"),
                std::string::npos);
        }
    }
}

} // namespace
// The sharded runner's order: longest first by the native forms' measured times where the tests
// run natively, by TestU01's costs otherwise; always a permutation of the tests asked for.
TEST(ShardedOrder, LongestFirstByTheTimesOfTheEngineThatRunsEachTest)
{
    const BatteryCatalogue& big = bigcrush_catalogue();
    const std::vector<int> all = big.selected({});
    auto sorted = [](std::vector<int> v) {
        std::sort(v.begin(), v.end());
        return v;
    };
    for (bool on_device : { true, false }) {
        const std::vector<int> native = sharded_order(big, all, Engine::native, on_device);
        ASSERT_EQ(sorted(native), all);
        for (std::size_t i = 1; i < native.size(); ++i) {
            const double before = native::measured_seconds("bigcrush", native[i - 1], on_device);
            const double here = native::measured_seconds("bigcrush", native[i], on_device);
            ASSERT_GE(before, 0) << native[i - 1];
            EXPECT_GE(before, here) << native[i - 1] << " before " << native[i];
        }
        const int longest = *std::max_element(all.begin(), all.end(), [&](int a, int b) {
            return native::measured_seconds("bigcrush", a, on_device)
                < native::measured_seconds("bigcrush", b, on_device);
        });
        EXPECT_EQ(native.front(), longest);
    }
    EXPECT_NE(sharded_order(big, all, Engine::native, true),
        sharded_order(big, all, Engine::native, false));

    const std::vector<int> testu01 = sharded_order(big, all, Engine::testu01, true);
    ASSERT_EQ(sorted(testu01), all);
    for (std::size_t i = 1; i < testu01.size(); ++i)
        EXPECT_GE(big.test(testu01[i - 1]).cost, big.test(testu01[i]).cost);
    EXPECT_NE(testu01, sharded_order(big, all, Engine::native, true));

    // No measured times for Crush on host cores nor for SmallCrush: TestU01's costs.
    const BatteryCatalogue& crush = crush_catalogue();
    EXPECT_EQ(sharded_order(crush, crush.selected({}), Engine::native, false),
        sharded_order(crush, crush.selected({}), Engine::testu01, false));
    const BatteryCatalogue& small = smallcrush_catalogue();
    EXPECT_EQ(sharded_order(small, small.selected({}), Engine::native, true),
        sharded_order(small, small.selected({}), Engine::testu01, true));
}

} // namespace rngvet
