// Whole batteries on the native engine, through the rngvet binary: a run with --engine auto
// stores, test by test, the same p-values (as bits) and the same counts of numbers as a run with
// --engine testu01, serial and sharded; each test's engine is stored; engines a test lacks are
// refused before anything is stored; resume keeps the engine and refuses a damaged one; rngvet
// validate --engine native checks the contract on this machine.
#include "support.hpp"

#include <cstring>
#include <map>
#include <regex>
#include <sqlite3.h>

using namespace rngvet_test;

namespace {

// The tests of `battery` that rngvet list says have a native form ("1-10" -> 1..10).
std::set<int> listed_native_tests(const std::string& battery)
{
    const CliResult list = run_rngvet("list");
    EXPECT_EQ(list.status, 0) << list.err;
    const std::regex line("  " + battery + " \\([^)]*--engine native: tests ([0-9,-]+)\\)");
    std::smatch m;
    std::set<int> tests;
    if (!std::regex_search(list.out, m, line)) return tests;
    std::istringstream parts(m[1].str());
    for (std::string part; std::getline(parts, part, ',');) {
        const auto dash = part.find('-');
        const int first = std::stoi(part.substr(0, dash));
        const int last = dash == std::string::npos ? first : std::stoi(part.substr(dash + 1));
        for (int t = first; t <= last; ++t)
            tests.insert(t);
    }
    return tests;
}

std::uint64_t bits_of(double x)
{
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

struct StoredRun {
    rngvet::RunRecord run;
    std::vector<rngvet::StatisticRecord> statistics;
    std::vector<rngvet::TestRecord> tests;
};

StoredRun stored(const std::string& db, std::int64_t run_id)
{
    rngvet::Store store(db, rngvet::Store::Access::read_only);
    StoredRun s;
    s.run = *store.run(run_id);
    s.statistics = store.statistics(run_id);
    s.tests = store.tests(run_id);
    return s;
}

// Runs SmallCrush on ranmar48 with `engine` and `mode_args` into a fresh store; its run.
StoredRun smallcrush(const std::string& engine, const std::string& mode_args)
{
    // Named after the running test: the serial and sharded cases run at once.
    const std::string db = running_test_file("_" + engine + ".sqlite");
    std::filesystem::remove(db);
    const CliResult r = run_rngvet("run --generator ranmar48 --seed 1802,9373 --battery smallcrush "
        + mode_args + " --engine " + engine + " --db " + db);
    EXPECT_EQ(r.status, 0) << r.err;
    return stored(db, 1);
}

class NativeBattery : public testing::TestWithParam<std::string> { };

std::string mode_name(const testing::TestParamInfo<std::string>& mode)
{
    return mode.param.find("serial") != std::string::npos ? "serial" : "sharded";
}

} // namespace

TEST_P(NativeBattery, SmallCrushAutoStoresTestU01sPValuesAndCounts)
{
    const std::set<int> native = listed_native_tests("smallcrush");
    const StoredRun reference = smallcrush("testu01", GetParam());
    const StoredRun automatic = smallcrush("auto", GetParam());
    EXPECT_EQ(reference.run.engine, "testu01");
    EXPECT_EQ(automatic.run.engine, "auto");
    EXPECT_EQ(automatic.run.status, rngvet::RunStatus::complete);
    ASSERT_EQ(reference.statistics.size(), 15u);
    ASSERT_EQ(automatic.statistics.size(), reference.statistics.size());
    for (std::size_t i = 0; i < reference.statistics.size(); ++i) {
        const auto& r = reference.statistics[i];
        const auto& a = automatic.statistics[i];
        EXPECT_EQ(a.stat_index, r.stat_index);
        EXPECT_EQ(a.test_number, r.test_number);
        EXPECT_EQ(a.test_name, r.test_name);
        EXPECT_EQ(bits_of(a.pvalue), bits_of(r.pvalue))
            << r.test_name << ": auto " << a.pvalue << ", testu01 " << r.pvalue;
    }
    ASSERT_EQ(automatic.tests.size(), reference.tests.size());
    for (std::size_t i = 0; i < reference.tests.size(); ++i) {
        const auto& r = reference.tests[i];
        const auto& a = automatic.tests[i];
        EXPECT_EQ(r.engine, "testu01");
        EXPECT_EQ(a.engine, native.count(a.test_number) ? "native" : "testu01")
            << "test " << a.test_number;
        EXPECT_EQ(a.start_offset, r.start_offset) << "test " << a.test_number;
        EXPECT_EQ(a.numbers_used, r.numbers_used) << "test " << a.test_number;
    }
}

INSTANTIATE_TEST_SUITE_P(
    Modes, NativeBattery, testing::Values("--mode serial", "--mode sharded --jobs 2"), mode_name);

TEST(NativeEngine, ATestWithoutNativeFormIsRefusedBeforeAnythingIsStored)
{
    // Rabbit's test 1 (MultinomialBitsOver) has no native form.
    const std::string db = fresh("native_refused.sqlite");
    const CliResult r = run_rngvet("run --generator ranmar48 --seed 1802,9373 --battery "
                                   "'rabbit(nb=2^10)' --tests 1 --engine native --db "
        + db);
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("test 1 (MultinomialBitsOver) of rabbit(nb=1024) has no native form"),
        std::string::npos)
        << r.err;
    EXPECT_FALSE(std::filesystem::exists(db));
    // Batteries with no native test at all, and an engine that is none.
    for (const std::string& args : { std::string("--battery rabbit --nb 2^10 --engine native"),
             std::string("--engine gpu"), std::string("--engine ''") }) {
        const CliResult bad
            = run_rngvet("run --generator ranmar48 --seed 1802,9373 " + args + " --db " + db);
        EXPECT_EQ(bad.status, 2) << args;
        EXPECT_EQ(count_lines(bad.err), 1) << args << ": " << bad.err;
        EXPECT_FALSE(std::filesystem::exists(db)) << args;
    }
}

TEST(NativeEngine, ResumeKeepsTheEngineAndRefusesADamagedOne)
{
    const std::string db = fresh("native_resume.sqlite");
    const CliResult first = run_rngvet(
        "run --generator ranmar48 --seed 1802,9373 --tests 1,2 --engine auto --db " + db);
    ASSERT_EQ(first.status, 0) << first.err;
    const CliResult again = run_rngvet("run --resume 1 --engine testu01 --db " + db);
    EXPECT_EQ(again.status, 2);
    EXPECT_NE(again.err.find("--engine"), std::string::npos) << again.err;

    // A run whose test 2 is missing: resume runs it with the stored engine.
    {
        sqlite3* h = nullptr;
        ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(h,
                      "DELETE FROM statistics WHERE test_number = 2; DELETE FROM tests WHERE "
                      "test_number = 2; UPDATE runs SET status = 'interrupted'",
                      nullptr, nullptr, nullptr),
            SQLITE_OK);
        sqlite3_close(h);
    }
    const CliResult resumed = run_rngvet("run --resume 1 --db " + db);
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    const StoredRun after = stored(db, 1);
    EXPECT_EQ(after.run.engine, "auto");
    EXPECT_EQ(after.run.status, rngvet::RunStatus::complete);
    ASSERT_EQ(after.tests.size(), 2u);
    const std::set<int> native = listed_native_tests("smallcrush");
    EXPECT_EQ(after.tests[1].engine, native.count(2) ? "native" : "testu01");

    {
        sqlite3* h = nullptr;
        ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
        ASSERT_EQ(sqlite3_exec(h,
                      "DELETE FROM tests WHERE test_number = 2; UPDATE runs SET status = "
                      "'interrupted', engine = 'gpu'",
                      nullptr, nullptr, nullptr),
            SQLITE_OK);
        sqlite3_close(h);
    }
    const CliResult damaged = run_rngvet("run --resume 1 --db " + db);
    EXPECT_EQ(damaged.status, 2);
    EXPECT_EQ(count_lines(damaged.err), 1) << damaged.err;
    EXPECT_NE(damaged.err.find("stored engine 'gpu' is damaged"), std::string::npos) << damaged.err;
}

TEST(NativeEngine, StatusAndReportShowTheEngine)
{
    const std::string db = fresh("native_show.sqlite");
    ASSERT_EQ(
        run_rngvet("run --generator ranmar48 --seed 1802,9373 --tests 1 --engine auto --db " + db)
            .status,
        0);
    const CliResult status = run_rngvet("status --db " + db);
    EXPECT_NE(status.out.find(" auto "), std::string::npos) << status.out;
    const std::string md = fresh("native_show.md");
    ASSERT_EQ(run_rngvet("report --db " + db + " --out " + md).status, 0);
    EXPECT_NE(slurp(md).find("| Engine | auto"), std::string::npos);
}

// The default engine is the registry's: auto for SmallCrush (wholly native and proven by the
// tests above) and Crush (a test of its: 51), testu01 for Rabbit. --log of a native test says
// which engine computed it and gives the stored p-values.
TEST(NativeEngine, DefaultEngineIsAutoForSmallCrushAndCrushAndTestU01ForRabbit)
{
    const std::string db = fresh("native_default.sqlite");
    const std::string log = fresh("native_default.log");
    ASSERT_EQ(run_rngvet("run --generator ranmar48 --seed 1802,9373 --tests 1,2 --log " + log
                  + " --db " + db)
                  .status,
        0);
    const StoredRun small = stored(db, 1);
    EXPECT_EQ(small.run.engine, "auto");
    ASSERT_EQ(small.tests.size(), 2u);
    EXPECT_EQ(small.tests[0].engine, "native");
    // Test 2's log (FILE.test2, as TestU01's logs are named) names the engine and the p-value.
    const std::string text = slurp(log + ".test2");
    EXPECT_NE(text.find("rngvet native engine: smallcrush test 2 (Collision)"), std::string::npos)
        << text;
    char value[32];
    std::snprintf(value, sizeof value, "%.17g", small.statistics[1].pvalue);
    EXPECT_NE(text.find(std::string("Collision: p-value ") + value), std::string::npos) << text;

    // Run `run_id`, one test with the battery's default engine: the run's engine and the test's.
    auto engines = [&](const std::string& battery, int run_id) {
        EXPECT_EQ(run_rngvet("run --generator ranmar48 --seed 1802,9373 " + battery + " --db " + db)
                      .status,
            0);
        const StoredRun r = stored(db, run_id);
        return r.run.engine + " "
            + (r.tests.size() == 1 ? r.tests[0].engine
                                   : "(tests: " + std::to_string(r.tests.size()) + ")");
    };
    EXPECT_EQ(engines("--battery crush --tests 51", 2), "auto native");
    // A battery not wholly native and proven keeps TestU01's functions.
    EXPECT_EQ(engines("--battery rabbit --nb 2^20 --tests 1", 3), "testu01 testu01");
}

TEST(NativeEngine, ValidateChecksEveryNativeTestAgainstTestU01)
{
    const std::set<int> native = listed_native_tests("smallcrush");
    if (native.empty()) GTEST_SKIP() << "no SmallCrush test has a native form";
    const CliResult r
        = run_rngvet("validate --engine native --generator ranmar48 --seed 1802,9373");
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    int passed = 0;
    for (std::size_t at = r.out.find("PASS native smallcrush test"); at != std::string::npos;
         at = r.out.find("PASS native smallcrush test", at + 1))
        ++passed;
    EXPECT_EQ(passed, static_cast<int>(native.size())) << r.out;
    EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
}
