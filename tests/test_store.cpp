// The result store: schema versioning, round trips, the pvalues view, refusal of files that
// are not stores, and parameters that are bound rather than spliced into SQL.
#include "generators/error.hpp"
#include "reports/report.hpp"
#include "reports/store.hpp"
#include "tests/support.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <thread>

namespace rngvet {
namespace {

RunRecord sample_run()
{
    RunRecord r = rngvet_test::run_record(
        "ranmar48", "ranmar48/1/single/increment/1802,9373", "1802,9373", 48);
    r.command_line = "rngvet run --seed '1802,9373'; DROP TABLE runs; --";
    r.started_at = "2026-11-22T00:00:00Z";
    r.finished_at = "2026-11-22T00:00:10Z";
    r.numbers_used = 123;
    return r;
}

// Runs a query with sqlite3 directly, as a user of the view would.
std::vector<std::vector<std::string>> query(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db);
    std::vector<std::vector<std::string>> rows;
    while (sqlite3_step(st) == SQLITE_ROW) {
        std::vector<std::string> row;
        for (int i = 0; i < sqlite3_column_count(st); ++i) {
            const auto* t = sqlite3_column_text(st, i);
            row.push_back(t ? reinterpret_cast<const char*>(t) : "NULL");
        }
        rows.push_back(row);
    }
    sqlite3_finalize(st);
    sqlite3_close(db);
    return rows;
}

TEST(Store, CreatesTheSchemaAtTheCurrentVersionAndReopens)
{
    const std::string path = rngvet_test::fresh("store_version.sqlite");
    {
        Store s(path);
        EXPECT_EQ(s.schema_version(), store_schema_version);
    }
    {
        Store s(path);
        EXPECT_EQ(s.schema_version(), store_schema_version);
        EXPECT_TRUE(s.runs().empty());
    }
}

// Another connection holds a write lock in rollback mode on a new file, as another process
// creating the same store does: opening waits for it instead of failing with "database is
// locked" (SQLite does not call the busy handler when switching to write-ahead logging).
TEST(Store, OpeningWaitsForAnotherConnectionsWriteLockOnANewFile)
{
    const std::string path = rngvet_test::fresh("store_locked.sqlite");
    sqlite3* other = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &other), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(other, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr), SQLITE_OK);
    std::thread release([other] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        sqlite3_exec(other, "ROLLBACK", nullptr, nullptr, nullptr);
    });
    try {
        Store s(path);
        EXPECT_EQ(s.schema_version(), store_schema_version);
    } catch (const std::exception& e) {
        ADD_FAILURE() << e.what();
    }
    release.join();
    sqlite3_close(other);
}

TEST(Store, RoundTripsARunAndItsStatisticsThroughThePvaluesView)
{
    const std::string path = rngvet_test::fresh("store_roundtrip.sqlite");
    Store s(path);
    const std::vector<StatisticRecord> stats = { { 1, 1, "BirthdaySpacings", 0.5 },
        { 2, 2, "Collision", 1e-12 }, { 3, 3, "Gap", 0.9995 }, { 4, 4, "SimpPoker", 1.0 - 1e-11 } };
    const auto id = s.insert_run(sample_run(), stats);
    const auto back = s.statistics(id);
    ASSERT_EQ(back.size(), stats.size());
    for (std::size_t i = 0; i < stats.size(); ++i) {
        EXPECT_EQ(back[i].pvalue, stats[i].pvalue); // stored as REAL: exact
        EXPECT_EQ(back[i].test_name, stats[i].test_name);
    }
    EXPECT_EQ(s.run(id)->command_line, sample_run().command_line);
    const auto rows = query(path,
        "SELECT run_id, generator, config, seed, backend, battery, "
        "test_number, stat_index, test_name, verdict FROM pvalues "
        "ORDER BY stat_index");
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(rows[0][1], "ranmar48");
    EXPECT_EQ(rows[0][3], "1802,9373");
    EXPECT_EQ(rows[0][9], "pass");
    EXPECT_EQ(rows[1][9], "fail");
    EXPECT_EQ(rows[2][9], "suspect");
    EXPECT_EQ(rows[3][9], "fail");
    EXPECT_STREQ(verdict(0.5), "pass");
    EXPECT_STREQ(verdict(0.0005), "suspect");
    EXPECT_STREQ(verdict(1e-11), "fail");
}

// The view's verdict is generated from reports/verdict.hpp: at each threshold and the doubles
// beside it, it agrees with verdict() and with the CASE that schema version 1 shipped.
TEST(Store, ThePvaluesViewAgreesWithVerdictAtEveryThreshold)
{
    const std::string path = rngvet_test::fresh("store_thresholds.sqlite");
    Store s(path);
    std::vector<StatisticRecord> stats;
    for (double edge : { 1e-10, 0.001, 0.999, 1 - 1e-10, 0.0, 0.5, 1.0 })
        for (double p : { std::nextafter(edge, 0.0), edge, std::nextafter(edge, 1.0) }) {
            const int i = static_cast<int>(stats.size()) + 1;
            stats.push_back({ i, i, "T", p });
        }
    s.insert_run(sample_run(), stats);
    const auto rows = query(path,
        "SELECT verdict, CASE WHEN pvalue < 1e-10 OR pvalue > 1 - 1e-10 THEN 'fail' "
        "WHEN pvalue < 0.001 OR pvalue > 0.999 THEN 'suspect' ELSE 'pass' END "
        "FROM pvalues ORDER BY stat_index");
    ASSERT_EQ(rows.size(), stats.size());
    for (std::size_t i = 0; i < stats.size(); ++i) {
        EXPECT_EQ(rows[i][0], verdict(stats[i].pvalue)) << stats[i].pvalue;
        EXPECT_EQ(rows[i][0], rows[i][1]) << stats[i].pvalue;
    }
}

TEST(Store, RefusesAFileThatIsNotAStore)
{
    const std::string path = rngvet_test::fresh("not_a_store.sqlite");
    query(path, "CREATE TABLE other (x)");
    EXPECT_THROW(Store s(path), InputError);
    const std::string text = rngvet_test::fresh("text_file.sqlite");
    std::ofstream(text) << "this is not a database, just text that is long enough to matter\n";
    EXPECT_THROW(Store s(text), InputError);
}

TEST(Store, UnwritablePathIsAnInputError)
{
    try {
        Store s("/nonexistent-dir/x/rngvet.sqlite");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_NE(
            std::string(e.what()).find("/nonexistent-dir/x/rngvet.sqlite"), std::string::npos);
    }
}

TEST(Report, FormatsPvaluesTheWayTestU01Does)
{
    EXPECT_EQ(format_pvalue(1e-301), "eps");
    EXPECT_EQ(format_pvalue(1.0), "1 - eps1");
    EXPECT_EQ(format_pvalue(1.0 - 4.2e-5), "1 - 4.2e-05");
    EXPECT_EQ(format_pvalue(3.7e-5), "3.7e-05");
    EXPECT_EQ(format_pvalue(0.995), "0.9950");
    EXPECT_EQ(format_pvalue(0.42), "0.42");
}

TEST(Report, NamesEveryStatisticOutsideTheIntervalAndListsThemAll)
{
    const std::string path = rngvet_test::fresh("store_report.sqlite");
    Store s(path);
    s.insert_run(sample_run(),
        { { 1, 1, "BirthdaySpacings", 0.5 }, { 2, 2, "Collision", 1e-12 },
            { 3, 6, "MaxOft AD", 0.9995 } });
    const std::string md = render_report(s, "x.sqlite", {});
    EXPECT_NE(md.find("## Run 1: `ranmar48/1/single/increment/1802,9373`, SmallCrush"),
        std::string::npos);
    EXPECT_NE(md.find("| 2 | Collision | 1.0e-12 | fail |"), std::string::npos) << md;
    EXPECT_NE(md.find("| 6 | MaxOft AD | 0.9995 | suspect |"), std::string::npos) << md;
    EXPECT_NE(md.find("| 1 | 1 | BirthdaySpacings | 0.50 | pass |"), std::string::npos) << md;
    EXPECT_NE(md.find("| TestU01 | TestU01 1.2.3 |"), std::string::npos);
    EXPECT_EQ(md.find("\n| 1 | BirthdaySpacings | 0.50 | pass |"), std::string::npos)
        << "a passed statistic must not be in the summary table";
}

} // namespace
} // namespace rngvet
