// Rabbit and Alphabit: the catalogue follows nb (and Alphabit's s) exactly as TestU01 1.2.3
// leaves tests out, every test run alone writes the statistics the catalogue lists, a serial
// run through rngvet equals TestU01's own bbattery_Rabbit / bbattery_Alphabit on its RANMAR,
// a sharded run stores every statistic, and bad parameters are refused with one line.
// nb = 2^20 keeps every run here to a few seconds.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

extern "C" {
#include <testu01/bbattery.h>
#include <testu01/ugfsr.h>
#include <testu01/umarsa.h>
}

#include "batteries/battery.hpp"
#include "batteries/bits_read.hpp"
#include "generators/error.hpp"
#include "reports/store.hpp"
#include "tests/support.hpp"

namespace {

using rngvet::alphabit_catalogue;
using rngvet::BatteryCatalogue;
using rngvet::catalogue_for;
using rngvet::rabbit_catalogue;

constexpr double nb20 = 1048576; // 2^20

using rngvet_test::fresh;
using rngvet_test::run_rngvet;
using rngvet_test::slurp;
using Result = rngvet_test::CliResult;

std::vector<int> counts(const BatteryCatalogue& c)
{
    std::vector<int> v;
    for (const auto& t : c.tests)
        v.push_back(t.statistics);
    return v;
}

// A TestU01 battery on one of TestU01's own generators, its report sent to /dev/null; returns
// bbattery_pVal.
template <class Run> std::vector<double> native(unif01_Gen* gen, Run run)
{
    std::fflush(stdout);
    const int saved = dup(STDOUT_FILENO);
    EXPECT_NE(std::freopen("/dev/null", "w", stdout), nullptr);
    run(gen);
    std::fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    return std::vector<double>(bbattery_pVal, bbattery_pVal + bbattery_NTests);
}

// stat_index -> p-value of run 1 of a database.
std::map<int, double> stored(const std::string& db)
{
    rngvet::Store store(db);
    std::map<int, double> out;
    for (const auto& s : store.statistics(1))
        EXPECT_TRUE(out.emplace(s.stat_index, s.pvalue).second) << s.stat_index;
    return out;
}

TEST(BitBatteries, RabbitLeavesOutTestsBelowTheirMinimumNb)
{
    // Statistics per test, 1..26, as TestU01 1.2.3 writes them run alone (catalogue.cpp).
    const std::vector<int> at_2_25
        = { 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 0, 5, 5, 5 };
    EXPECT_EQ(counts(rabbit_catalogue()), at_2_25);
    EXPECT_EQ(rabbit_catalogue().total_statistics(), 39);
    EXPECT_EQ(rabbit_catalogue().name, "rabbit(nb=33554432)");
    // 2^20: MatrixRank 320 x 320 (22) needs 5120000 bits, 1024 x 1024 (23) 52428800.
    EXPECT_EQ(rabbit_catalogue(nb20).test(22).statistics, 0);
    EXPECT_EQ(rabbit_catalogue(nb20).total_statistics(), 38);
    EXPECT_EQ(rabbit_catalogue(52428800).test(23).statistics, 1);
    EXPECT_EQ(rabbit_catalogue(52428768).test(23).statistics, 0);
    // The smallest nb: no LongestHeadRun, PeriodsInStrings, HammingWeight, HammingIndep,
    // MatrixRank or random walk.
    const std::vector<int> at_512
        = { 1, 1, 1, 1, 2, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 2, 0, 0, 0, 0, 0, 0 };
    EXPECT_EQ(counts(rabbit_catalogue(512)), at_512);
    EXPECT_EQ(rabbit_catalogue(960).test(24).statistics, 5);
    EXPECT_EQ(rabbit_catalogue(300448).test(26).statistics, 0);
    EXPECT_EQ(rabbit_catalogue(300480).test(26).statistics, 5);
    // A skipped test costs nothing; costs grow with nb.
    EXPECT_EQ(rabbit_catalogue().test(23).cost, 0.0);
    EXPECT_GT(rabbit_catalogue(nb20 * 64).test(2).cost, rabbit_catalogue(nb20).test(2).cost);
}

TEST(BitBatteries, AlphabitCountsDependOnNbAndS)
{
    EXPECT_EQ(counts(alphabit_catalogue()), (std::vector<int>{ 1, 1, 1, 1, 1, 1, 1, 5, 5 }));
    EXPECT_EQ(alphabit_catalogue().name, "alphabit(nb=33554432,r=0,s=32)");
    // HammingIndep L = 16 and 32 need 20 and 40 numbers of s bits.
    EXPECT_EQ(
        counts(alphabit_catalogue(1248, 0, 32)), (std::vector<int>{ 1, 1, 1, 0, 1, 0, 1, 0, 0 }));
    EXPECT_EQ(
        counts(alphabit_catalogue(1248, 0, 31)), (std::vector<int>{ 1, 1, 1, 0, 1, 1, 1, 0, 0 }));
    EXPECT_EQ(alphabit_catalogue(64992, 0, 32).test(4).statistics, 0);
    EXPECT_EQ(alphabit_catalogue(65024, 0, 32).test(4).statistics, 1);
}

// Each test run alone through TestU01 (bbattery_RepeatRabbit / RepeatAlphabit, rep[k] = 1)
// writes exactly the catalogue's statistics under the catalogue's name. run_battery refuses a
// count that differs; the names come from bbattery_TestNames.
void expect_catalogue_matches_testu01(const BatteryCatalogue& c)
{
    SCOPED_TRACE(c.name);
    for (const auto& t : c.tests) {
        unif01_Gen* gen = umarsa_CreateRANMAR(12, 34, 56, 78);
        rngvet::BatteryResult r;
        EXPECT_NO_THROW(r = rngvet::run_battery(gen, c, { t.number }, "")) << t.number;
        umarsa_DeleteGen(gen);
        EXPECT_EQ(static_cast<int>(r.statistics.size()), t.statistics) << "test " << t.number;
        if (!r.statistics.empty()) {
            EXPECT_EQ(r.statistics[0].test_name, t.name);
        }
    }
}

TEST(BitBatteries, EveryTestRunAloneWritesTheCataloguesStatistics)
{
    expect_catalogue_matches_testu01(rabbit_catalogue(nb20));
    expect_catalogue_matches_testu01(rabbit_catalogue(31200)); // LongestHeadRun's first nb
    expect_catalogue_matches_testu01(rabbit_catalogue(512));
    expect_catalogue_matches_testu01(alphabit_catalogue(nb20, 3, 7));
    expect_catalogue_matches_testu01(alphabit_catalogue(1248, 0, 31));
    expect_catalogue_matches_testu01(alphabit_catalogue(512, 0, 32));
}

TEST(BitBatteries, SerialRabbitOnRanmar24EqualsTestU01sOwnRabbit)
{
    const std::string db = fresh("bits_rabbit.sqlite");
    const Result r = run_rngvet("run --generator ranmar24 --seed 1802,9373 --battery rabbit "
                                "--nb 2^20 --mode serial --db "
        + db);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto ours = stored(db);
    unif01_Gen* ranmar = umarsa_CreateRANMAR(12, 34, 56, 78);
    const auto theirs = native(ranmar, [](unif01_Gen* g) { bbattery_Rabbit(g, nb20); });
    umarsa_DeleteGen(ranmar);
    ASSERT_EQ(theirs.size(), 38u);
    ASSERT_EQ(ours.size(), theirs.size());
    for (std::size_t i = 0; i < theirs.size(); ++i)
        EXPECT_EQ(ours.at(static_cast<int>(i) + 1), theirs[i]) << "statistic " << i + 1;

    rngvet::Store store(db);
    EXPECT_EQ(store.run(1)->battery, "rabbit(nb=1048576)");
    EXPECT_EQ(store.tests(1).size(), 26u); // the two left out are recorded, with no statistic
    // The stored name reads back: a resume finds every test there.
    const Result again = run_rngvet("run --resume 1 --db " + db);
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_NE(again.out.find("every test already"), std::string::npos) << again.out;
    // Reports name the battery with its parameters; bits read: Rabbit reads 32 bits a number.
    const std::string md = fresh("bits_report.md");
    ASSERT_EQ(run_rngvet("report --db " + db + " --out " + md).status, 0);
    EXPECT_NE(slurp(md).find("Rabbit (nb = 1048576)"), std::string::npos);
    EXPECT_EQ(rngvet::bits_read("rabbit(nb=1048576)", 1).highest_bit, 32);
    EXPECT_EQ(rngvet::bits_read("rabbit(nb=1048576)", 10).highest_bit, 31);
}

// RANMAR with 24 bits fails most of Rabbit (it reads all 32 bits of each number), so most
// p-values above are 0 or 1 whatever the stream. Here a 32-bit stream that passes: TestU01's
// own MT19937 (ugfsr_CreateMT19937_98) written to a file of words and read back by rngvet's
// file generator gives the very same p-values as bbattery_Rabbit on that generator itself.
TEST(BitBatteries, SerialRabbitOnAFileOfTestU01sMt19937EqualsTestU01sOwnRabbit)
{
    const std::string words = fresh("bits_mt19937.u32");
    {
        unif01_Gen* gen = ugfsr_CreateMT19937_98(4357);
        std::ofstream out(words, std::ios::binary);
        for (int i = 0; i < (1 << 20); ++i) {
            const std::uint32_t w
                = static_cast<std::uint32_t>(gen->GetBits(gen->param, gen->state));
            const unsigned char bytes[4]
                = { static_cast<unsigned char>(w), static_cast<unsigned char>(w >> 8),
                      static_cast<unsigned char>(w >> 16), static_cast<unsigned char>(w >> 24) };
            out.write(reinterpret_cast<const char*>(bytes), 4);
        }
        ugfsr_DeleteGen(gen);
    }
    const std::string db = fresh("bits_rabbit_mt.sqlite");
    const Result r = run_rngvet(
        "run --generator file:" + words + " --battery rabbit --nb 2^20 --mode serial --db " + db);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto ours = stored(db);
    std::vector<double> theirs;
    {
        unif01_Gen* gen = ugfsr_CreateMT19937_98(4357);
        theirs = native(gen, [](unif01_Gen* g) { bbattery_Rabbit(g, nb20); });
        ugfsr_DeleteGen(gen);
    }
    ASSERT_EQ(theirs.size(), 38u);
    ASSERT_EQ(ours.size(), theirs.size());
    int inside = 0;
    for (std::size_t i = 0; i < theirs.size(); ++i) {
        EXPECT_EQ(ours.at(static_cast<int>(i) + 1), theirs[i]) << "statistic " << i + 1;
        inside += theirs[i] > 1e-3 && theirs[i] < 1 - 1e-3;
    }
    EXPECT_GE(inside, 30); // MT19937 passes Rabbit: the comparison is between real p-values
}

TEST(BitBatteries, SerialAlphabitEqualsTestU01sOwnAndShardedStoresEveryStatistic)
{
    const std::string db = fresh("bits_alphabit.sqlite");
    const std::string config = "--generator ranmar24 --seed 1802,9373 --battery alphabit "
                               "--nb 1048576 --alphabit-r 4 --alphabit-s 16 ";
    ASSERT_EQ(run_rngvet("run " + config + "--mode serial --db " + db).status, 0);
    const auto ours = stored(db);
    unif01_Gen* ranmar = umarsa_CreateRANMAR(12, 34, 56, 78);
    const auto theirs = native(ranmar, [](unif01_Gen* g) { bbattery_Alphabit(g, nb20, 4, 16); });
    umarsa_DeleteGen(ranmar);
    ASSERT_EQ(theirs.size(), 17u);
    ASSERT_EQ(ours.size(), theirs.size());
    for (std::size_t i = 0; i < theirs.size(); ++i)
        EXPECT_EQ(ours.at(static_cast<int>(i) + 1), theirs[i]) << "statistic " << i + 1;
    EXPECT_EQ(rngvet::bits_read("alphabit(nb=1048576,r=4,s=16)", 8).first_bit, 5);
    EXPECT_EQ(rngvet::bits_read("alphabit(nb=1048576,r=4,s=16)", 8).highest_bit, 20);

    const std::string sharded = fresh("bits_alphabit_sharded.sqlite");
    const Result r = run_rngvet("run " + config + "--jobs 2 --db " + sharded);
    ASSERT_EQ(r.status, 0) << r.err;
    rngvet::Store store(sharded);
    EXPECT_EQ(store.run(1)->mode, rngvet::RunMode::sharded);
    EXPECT_EQ(store.run(1)->battery, "alphabit(nb=1048576,r=4,s=16)");
    const auto stats = store.statistics(1);
    ASSERT_EQ(stats.size(), 17u);
    // Positions as in the whole battery: each test's statistics in turn, the first under the
    // catalogue's name.
    const BatteryCatalogue& c = catalogue_for("alphabit(nb=1048576,r=4,s=16)");
    std::size_t at = 0;
    for (const auto& t : c.tests)
        for (int k = 0; k < t.statistics; ++k, ++at) {
            ASSERT_LT(at, stats.size());
            EXPECT_EQ(stats[at].stat_index, static_cast<int>(at) + 1);
            EXPECT_EQ(stats[at].test_number, t.number);
            if (k == 0) {
                EXPECT_EQ(stats[at].test_name, t.name);
            }
        }
    EXPECT_EQ(at, stats.size());
}

TEST(BitBatteries, NamesWithParametersReadBackAndBadOnesAreRefused)
{
    EXPECT_EQ(&catalogue_for("rabbit"), &rabbit_catalogue());
    EXPECT_EQ(&catalogue_for("rabbit(nb=2^20)"), &rabbit_catalogue(nb20));
    EXPECT_EQ(catalogue_for("alphabit(s=8)").name, "alphabit(nb=33554432,r=0,s=8)");
    EXPECT_EQ(
        rngvet::battery_title("alphabit(nb=1024,r=0,s=8)"), "Alphabit (nb = 1024, r = 0, s = 8)");
    for (const char* bad : { "rabbit(nb=1000)", "rabbit(nb=256)", "rabbit(r=1)", "rabbit(nb=)",
             "alphabit(nb=1024,s=0)", "alphabit(r=16,s=17)", "alphabit(r=-1)", "rabbit[nb=512]",
             "rabbit(nb=2^41)" })
        EXPECT_THROW(catalogue_for(bad), rngvet::InputError) << bad;
}

// Each bad parameter: exit 2, exactly one line on stderr starting "rngvet: error:", no run.
TEST(BitBatteries, BadParametersAreRefusedWithOneLineAndNothingStored)
{
    const std::string db = fresh("bits_bad.sqlite");
    rngvet::Store{ db };
    const std::string run = "run --generator ranmar24 --seed 1802,9373 --db " + db + " ";
    const std::vector<std::pair<std::string, std::string>> cases = {
        { "--battery rabbit --nb 256", "at least 512" },
        { "--battery rabbit --nb 1000", "multiple of 32" },
        { "--battery rabbit --nb 2^41", "at most 2^40" },
        { "--battery rabbit --nb lots", "'lots'" },
        { "--battery alphabit --alphabit-s 0", "at least 1" },
        { "--battery alphabit --alphabit-r 20 --alphabit-s 16", "r + s" },
        { "--battery alphabit --alphabit-r -1", "at least 0" },
        { "--battery smallcrush --nb 2^20", "rabbit and alphabit" },
        { "--battery rabbit --alphabit-s 8", "applies to alphabit, not to rabbit" },
        { "--battery 'rabbit(nb=2^20)' --nb 2^20", "not both" },
    };
    for (const auto& [args, mention] : cases) {
        const Result r = run_rngvet(run + args);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
        EXPECT_EQ(r.err.rfind("rngvet: error: ", 0), 0u) << r.err;
        EXPECT_NE(r.err.find(mention), std::string::npos) << args << ": " << r.err;
    }
    EXPECT_TRUE(rngvet::Store(db).runs().empty());
}

} // namespace
