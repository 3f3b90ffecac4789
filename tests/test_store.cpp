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
#include <set>
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
    EXPECT_STREQ(to_text(verdict(0.5)), "pass");
    EXPECT_STREQ(to_text(verdict(0.0005)), "suspect");
    EXPECT_STREQ(to_text(verdict(1e-11)), "fail");
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
        EXPECT_EQ(rows[i][0], to_text(verdict(stats[i].pvalue))) << stats[i].pvalue;
        EXPECT_EQ(rows[i][0], rows[i][1]) << stats[i].pvalue;
    }
}

// --- the schema each version shipped --------------------------------------------------------

// The SQL of the migrations to versions 1 to 6 as they shipped, the view's verdict written out
// as the store writes it (the upper bounds `1 - level`, the same doubles as migration 1's):
// the store builds its tables from its column lists, and they must be these.
const char* const shipped_migrations[] = {
    R"sql(
CREATE TABLE runs (
    run_id          INTEGER PRIMARY KEY,
    generator       TEXT NOT NULL,
    config          TEXT NOT NULL,
    seed            TEXT NOT NULL,
    backend         TEXT NOT NULL,
    battery         TEXT NOT NULL,
    mode            TEXT NOT NULL,
    status          TEXT NOT NULL CHECK (status IN ('running', 'complete', 'interrupted', 'failed')),
    resolution_bits INTEGER NOT NULL,
    params_sha256   TEXT NOT NULL DEFAULT '',
    testu01_version TEXT NOT NULL,
    rngvet_version  TEXT NOT NULL,
    host            TEXT NOT NULL,
    command_line    TEXT NOT NULL,
    started_at      TEXT NOT NULL,
    finished_at     TEXT,
    numbers_used    INTEGER NOT NULL DEFAULT 0,
    cpu_seconds     REAL NOT NULL DEFAULT 0
);
CREATE TABLE statistics (
    run_id      INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    stat_index  INTEGER NOT NULL,
    test_number INTEGER NOT NULL,
    test_name   TEXT NOT NULL,
    pvalue      REAL NOT NULL,
    PRIMARY KEY (run_id, stat_index)
);
CREATE VIEW pvalues AS
SELECT r.run_id, r.generator, r.config, r.seed, r.backend, r.battery,
       s.test_number, s.stat_index, s.test_name, s.pvalue,
       CASE WHEN s.pvalue < 1e-10 OR s.pvalue > 1 - 1e-10 THEN 'fail'
            WHEN s.pvalue < 0.001 OR s.pvalue > 1 - 0.001 THEN 'suspect'
            ELSE 'pass' END AS verdict
FROM statistics AS s JOIN runs AS r USING (run_id);
)sql",
    R"sql(
CREATE TABLE tests (
    run_id        INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    test_number   INTEGER NOT NULL,
    start_offset  INTEGER NOT NULL,
    numbers_used  INTEGER NOT NULL,
    cpu_seconds   REAL NOT NULL,
    worker        TEXT NOT NULL,
    refills       INTEGER NOT NULL DEFAULT 0,
    refill_waits  INTEGER NOT NULL DEFAULT 0,
    started_at    TEXT NOT NULL,
    finished_at   TEXT NOT NULL,
    PRIMARY KEY (run_id, test_number)
);
CREATE TABLE bench (
    bench_id           INTEGER PRIMARY KEY,
    config             TEXT NOT NULL,
    backend            TEXT NOT NULL,
    device             TEXT NOT NULL,
    placement          TEXT NOT NULL,
    numbers_per_second REAL NOT NULL,
    bytes_per_second   REAL NOT NULL,
    measured_at        TEXT NOT NULL,
    command_line       TEXT NOT NULL
);
ALTER TABLE runs ADD COLUMN jobs INTEGER NOT NULL DEFAULT 1;
ALTER TABLE runs ADD COLUMN cpu_model TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN gpu_model TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN options TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN tests_selected TEXT NOT NULL DEFAULT '';
)sql",
    R"sql(
CREATE TABLE campaign_stamp (
    campaign_id   TEXT NOT NULL,
    task_id       INTEGER NOT NULL,
    configuration TEXT NOT NULL,
    seed          TEXT NOT NULL,
    tests         TEXT NOT NULL,
    PRIMARY KEY (campaign_id, task_id)
);
CREATE TABLE campaign_runs (
    run_id        INTEGER PRIMARY KEY REFERENCES runs (run_id) ON DELETE CASCADE,
    campaign_id   TEXT NOT NULL,
    configuration TEXT NOT NULL,
    seed          TEXT NOT NULL,
    UNIQUE (campaign_id, configuration, seed)
);
CREATE TABLE campaign_tasks (
    campaign_id   TEXT NOT NULL,
    task_id       INTEGER NOT NULL,
    task_run_id   INTEGER NOT NULL,
    run_id        INTEGER NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
    status        TEXT NOT NULL,
    host          TEXT NOT NULL,
    command_line  TEXT NOT NULL,
    merged_at     TEXT NOT NULL,
    PRIMARY KEY (campaign_id, task_id, task_run_id)
);
)sql",
    R"sql(
ALTER TABLE runs ADD COLUMN input_sha256 TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN params_check TEXT NOT NULL DEFAULT '';
)sql",
    R"sql(
ALTER TABLE runs ADD COLUMN engine TEXT NOT NULL DEFAULT 'testu01';
ALTER TABLE tests ADD COLUMN engine TEXT NOT NULL DEFAULT 'testu01';
ALTER TABLE tests ADD COLUMN wall_seconds REAL NOT NULL DEFAULT 0;
)sql",
    R"sql(
CREATE TABLE start_checks (
    check_id        INTEGER PRIMARY KEY,
    config          TEXT NOT NULL,
    bits            INTEGER NOT NULL,
    pairs           INTEGER NOT NULL,
    steps           INTEGER NOT NULL,
    agreement       REAL NOT NULL,
    z               REAL NOT NULL,
    p               REAL NOT NULL,
    worst_pair      INTEGER NOT NULL,
    worst_agreement REAL NOT NULL,
    worst_p         REAL NOT NULL,
    passed          INTEGER NOT NULL CHECK (passed IN (0, 1)),
    checked_at      TEXT NOT NULL,
    rngvet_version  TEXT NOT NULL,
    host            TEXT NOT NULL,
    command_line    TEXT NOT NULL
);
)sql",
};

// A table's or view's SQL with its spacing made uniform: the shipped migrations lined their
// columns up, the column lists do not.
std::string normalised(std::string sql)
{
    std::string out;
    for (const char c : sql) {
        const bool space = c == ' ' || c == '\n' || c == '\t';
        if (space && (out.empty() || out.back() == ' ' || out.back() == '(')) continue;
        if ((c == ')' || c == ',') && !out.empty() && out.back() == ' ') out.pop_back();
        out += space ? ' ' : c;
    }
    return out;
}

std::vector<std::vector<std::string>> schema_of(const std::string& path)
{
    std::vector<std::vector<std::string>> rows
        = query(path, "SELECT type, name, sql FROM sqlite_master ORDER BY type, name");
    for (auto& row : rows)
        row[2] = normalised(row[2]);
    return rows;
}

void write_shipped(const std::string& path, int version)
{
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    for (int v = 0; v < version; ++v)
        ASSERT_EQ(sqlite3_exec(db, shipped_migrations[v], nullptr, nullptr, nullptr), SQLITE_OK)
            << sqlite3_errmsg(db);
    const std::string set = "PRAGMA user_version = " + std::to_string(version);
    ASSERT_EQ(sqlite3_exec(db, set.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
}

// A new store's tables, and those of a store of each shipped version upgraded on open, are the
// tables the shipped migrations build: every column's name, type, constraints and place.
TEST(Store, ItsColumnListsBuildTheTablesEveryVersionShipped)
{
    ASSERT_EQ(sizeof shipped_migrations / sizeof shipped_migrations[0],
        static_cast<std::size_t>(store_schema_version));
    const std::string reference = rngvet_test::fresh("store_shipped.sqlite");
    write_shipped(reference, store_schema_version);
    const auto shipped = schema_of(reference);
    ASSERT_GE(shipped.size(), 8u);

    const std::string created = rngvet_test::fresh("store_created.sqlite");
    {
        Store s(created);
    }
    EXPECT_EQ(schema_of(created), shipped);
    for (int version = 1; version < store_schema_version; ++version) {
        SCOPED_TRACE(version);
        const std::string old = rngvet_test::fresh("store_old.sqlite");
        write_shipped(old, version);
        {
            Store s(old);
            EXPECT_EQ(s.schema_version(), store_schema_version);
        }
        EXPECT_EQ(schema_of(old), shipped);
    }
}

// A store written as the current schema shipped (its SQL, not the store's code) reads back
// field for field, and rows the store writes land in the columns of those names.
TEST(Store, ReadsAStoreOfTheShippedSchemaFieldForField)
{
    const std::string path = rngvet_test::fresh("store_shipped_rows.sqlite");
    write_shipped(path, store_schema_version);
    query(path,
        "INSERT INTO runs (run_id, generator, config, seed, backend, battery, mode, status, "
        "resolution_bits, params_sha256, testu01_version, rngvet_version, host, command_line, "
        "started_at, finished_at, numbers_used, cpu_seconds, jobs, cpu_model, gpu_model, "
        "options, tests_selected, input_sha256, params_check, engine) VALUES (7, 'g', 'c', 's', "
        "'openmp', 'smallcrush', 'sharded', 'interrupted', 32, 'ph', 'tv', 'rv', 'h', 'cl', "
        "'t0', NULL, 99, 1.5, 3, 'cpu', 'gpu', 'o', '1,2', 'ih', 'verified (cached)', 'native')");
    query(path,
        "INSERT INTO tests (run_id, test_number, start_offset, numbers_used, cpu_seconds, "
        "worker, refills, refill_waits, started_at, finished_at, engine, wall_seconds) VALUES "
        "(7, 2, 11, 12, 0.25, 'w', 3, 4, 'a', 'b', 'native', 0.5)");
    query(path,
        "INSERT INTO statistics (run_id, stat_index, test_number, test_name, pvalue) VALUES "
        "(7, 3, 2, 'Collision', 0.125)");
    Store s(path);
    const auto r = s.run(7);
    ASSERT_TRUE(r);
    EXPECT_EQ(
        r->generator + r->config + r->seed + r->backend + r->battery + rngvet::to_text(r->mode),
        "gcsopenmpsmallcrushsharded");
    EXPECT_EQ(r->status, rngvet::RunStatus::interrupted);
    EXPECT_EQ(r->resolution_bits, 32);
    EXPECT_EQ(r->params_sha256 + r->testu01_version + r->rngvet_version + r->host + r->command_line,
        "phtvrvhcl");
    EXPECT_EQ(r->started_at, "t0");
    EXPECT_EQ(r->finished_at, "");
    EXPECT_EQ(r->numbers_used, 99u);
    EXPECT_EQ(r->cpu_seconds, 1.5);
    EXPECT_EQ(r->jobs, 3);
    EXPECT_EQ(r->cpu_model + r->gpu_model + r->options + r->tests_selected, "cpugpuo1,2");
    EXPECT_EQ(r->input_sha256, "ih");
    EXPECT_EQ(r->params_check, "verified (cached)");
    EXPECT_EQ(r->engine, "native");
    const auto tests = s.tests(7);
    ASSERT_EQ(tests.size(), 1u);
    EXPECT_EQ(tests[0].test_number, 2);
    EXPECT_EQ(tests[0].start_offset, 11u);
    EXPECT_EQ(tests[0].numbers_used, 12u);
    EXPECT_EQ(tests[0].cpu_seconds, 0.25);
    EXPECT_EQ(tests[0].worker, "w");
    EXPECT_EQ(tests[0].refills, 3u);
    EXPECT_EQ(tests[0].refill_waits, 4u);
    EXPECT_EQ(tests[0].started_at + tests[0].finished_at, "ab");
    EXPECT_EQ(tests[0].engine, "native");
    EXPECT_EQ(tests[0].wall_seconds, 0.5);
    const auto stats = s.statistics(7);
    ASSERT_EQ(stats.size(), 1u);
    EXPECT_EQ(stats[0].stat_index, 3);
    EXPECT_EQ(stats[0].test_number, 2);
    EXPECT_EQ(stats[0].test_name, "Collision");
    EXPECT_EQ(stats[0].pvalue, 0.125);

    // Written by the store, read as the shipped columns name them.
    RunRecord w = sample_run();
    w.params_check = "verified";
    w.input_sha256 = "abc";
    const auto id = s.create_run(w);
    s.insert_test(id, TestRecord{ 4, 5, 6, 0.75, "x", 0, 0, "c", "d", "native", 0.125 }, {});
    const auto row = query(path,
        "SELECT params_check, input_sha256, finished_at, status FROM runs WHERE run_id = "
            + std::to_string(id));
    ASSERT_EQ(row.size(), 1u);
    EXPECT_EQ(row[0],
        (std::vector<std::string>{ "verified", "abc", "2026-11-22T00:00:10Z", "complete" }));
    EXPECT_EQ(query(path, "SELECT start_offset, engine FROM tests WHERE test_number = 4")[0],
        (std::vector<std::string>{ "5", "native" }));
}

// Each status is stored as the word the store has always written, and reads back as itself; a
// stored word that is none of them (the CHECK bypassed) is refused naming the run and the column.
TEST(Store, EveryRunStatusIsStoredAsItsWordAndReadsBack)
{
    const std::string path = rngvet_test::fresh("store_statuses.sqlite");
    Store s(path);
    const std::pair<RunStatus, std::string> words[]
        = { { RunStatus::running, "running" }, { RunStatus::complete, "complete" },
              { RunStatus::interrupted, "interrupted" }, { RunStatus::failed, "failed" } };
    for (const auto& [status, word] : words) {
        RunRecord r = sample_run();
        r.status = status;
        const auto id = s.create_run(r);
        EXPECT_EQ(query(path, "SELECT status FROM runs WHERE run_id = " + std::to_string(id))[0][0],
            word);
        EXPECT_EQ(s.run(id)->status, status);
        s.finish_run(id, RunStatus::running, "");
        s.finish_run(id, status, "t");
        EXPECT_EQ(query(path, "SELECT status FROM runs WHERE run_id = " + std::to_string(id))[0][0],
            word);
        EXPECT_EQ(run_status_from_text(word), status);
    }
    EXPECT_EQ(run_status_from_text("Complete"), std::nullopt);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db,
                  "PRAGMA ignore_check_constraints = ON; UPDATE runs SET status = 'paused' "
                  "WHERE run_id = 2",
                  nullptr, nullptr, nullptr),
        SQLITE_OK);
    sqlite3_close(db);
    EXPECT_EQ(s.run(1)->status, RunStatus::running);
    for (int pass = 0; pass < 2; ++pass) {
        try {
            if (pass == 0)
                (void)s.run(2);
            else
                (void)s.runs();
            ADD_FAILURE() << "read a run whose status is 'paused'";
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()),
                "run 2 cannot be read: its stored status 'paused' is damaged (not running, "
                "complete, interrupted or failed)");
        }
    }
}

// Each mode is stored as the word the store has always written and reads back as itself; a
// stored word that is none of them is refused naming the run and the column, as a status is.
TEST(Store, EveryRunModeIsStoredAsItsWordAndReadsBack)
{
    const std::string path = rngvet_test::fresh("store_modes.sqlite");
    Store s(path);
    const std::pair<RunMode, std::string> words[]
        = { { RunMode::serial, "serial" }, { RunMode::sharded, "sharded" } };
    for (const auto& [mode, word] : words) {
        RunRecord r = sample_run();
        r.mode = mode;
        const auto id = s.create_run(r);
        EXPECT_EQ(
            query(path, "SELECT mode FROM runs WHERE run_id = " + std::to_string(id))[0][0], word);
        EXPECT_EQ(s.run(id)->mode, mode);
    }
    query(path, "UPDATE runs SET mode = 'Serial' WHERE run_id = 2");
    EXPECT_EQ(s.run(1)->mode, RunMode::serial);
    try {
        (void)s.runs();
        ADD_FAILURE() << "read a run whose mode is 'Serial'";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()),
            "run 2 cannot be read: its stored mode 'Serial' is damaged (not serial or sharded)");
    }
}

// Every typed word: each value has one text, the text parses back to it and to nothing else
// (case counts), and the texts are those the store and the command line have always used.
template <class E, std::size_t N>
void expect_vocabulary(const Term<E> (&terms)[N], const std::vector<std::string>& texts)
{
    ASSERT_EQ(N, texts.size());
    std::set<std::string> seen;
    for (std::size_t i = 0; i < N; ++i) {
        SCOPED_TRACE(texts[i]);
        EXPECT_EQ(terms[i].text, texts[i]);
        EXPECT_TRUE(seen.insert(terms[i].text).second) << "a text named twice";
        EXPECT_EQ(std::string(term_text(terms, terms[i].value)), texts[i]);
        EXPECT_EQ(term_value(terms, texts[i]), terms[i].value);
        std::string upper = texts[i];
        upper[0] = static_cast<char>(upper[0] - 'a' + 'A');
        EXPECT_EQ(term_value(terms, upper), std::nullopt);
        EXPECT_EQ(term_value(terms, texts[i] + " "), std::nullopt);
    }
    EXPECT_EQ(term_value(terms, ""), std::nullopt);
}

TEST(Store, EachTypedWordHasOneTextThatParsesBack)
{
    expect_vocabulary(run_status_terms, { "running", "complete", "interrupted", "failed" });
    expect_vocabulary(run_mode_terms, { "serial", "sharded" });
    expect_vocabulary(pvalue_verdict_terms, { "pass", "suspect", "fail" });
    EXPECT_EQ(term_alternatives(run_status_terms), "running, complete, interrupted or failed");
    EXPECT_EQ(to_text(verdict(0.5)), std::string("pass"));
    EXPECT_EQ(to_text(verdict(0.0001)), std::string("suspect"));
    EXPECT_EQ(to_text(verdict(1e-11)), std::string("fail"));
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
