#include "store.hpp"

#include "batteries/catalogue.hpp"
#include "generators/error.hpp"
#include "verdict.hpp"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <sqlite3.h>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <thread>

namespace rngvet {
namespace {

// The view's verdict column, from the thresholds of verdict.hpp. The text is laid out as
// migration 1 shipped it; only the upper bounds are now written `1 - level`, the same doubles.
std::string verdict_case_sql()
{
    return "CASE WHEN " + sql_is_failure("s.pvalue") + " THEN 'fail'\n            WHEN "
        + sql_is_suspect("s.pvalue") + " THEN 'suspect'\n            ELSE 'pass' END";
}

// Migrations, applied in order; migration i brings the schema to version i + 1.
// Never change what a shipped migration does: add a new one.
const std::string migrations[] = {
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
       )sql"
        + verdict_case_sql() + R"sql( AS verdict
FROM statistics AS s JOIN runs AS r USING (run_id);
)sql",
    // 2: per-test provenance (sharded runs, resume) and benchmark results.
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
    // 3: campaigns (rngvet campaign, docs/campaigns.md). A task database holds one stamp
    // naming the campaign task it belongs to; a campaign database folds the tasks' runs into
    // one run per (campaign, configuration, seed) and records every task run merged.
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
    // 4: what else defines a run's stream: the SHA-256 of a file: generator's input (resume
    // refuses a changed file), and how the parameter sets were checked before use.
    R"sql(
ALTER TABLE runs ADD COLUMN input_sha256 TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN params_check TEXT NOT NULL DEFAULT '';
)sql",
    // 5: the engine that computed each test's statistics (TestU01's function or rngvet's
    // native form of it), and the engine a run asked for (testu01, native or auto; resume keeps
    // it). Runs stored before were TestU01's. Each test's wall time (0 before).
    R"sql(
ALTER TABLE runs ADD COLUMN engine TEXT NOT NULL DEFAULT 'testu01';
ALTER TABLE tests ADD COLUMN engine TEXT NOT NULL DEFAULT 'testu01';
ALTER TABLE tests ADD COLUMN wall_seconds REAL NOT NULL DEFAULT 0;
)sql",
    // 6: the start check of rngvet validate (validators/checks.hpp, docs/reports.md): how
    // strongly neighbouring instances of a configuration agree at the start of their streams,
    // stored by `rngvet validate --db` so that the report can show it beside the runs.
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
constexpr int migration_count = sizeof(migrations) / sizeof(migrations[0]);
static_assert(migration_count == store_schema_version, "one migration per schema version");

// A prepared statement that finalises itself.
class Statement {
public:
    Statement(sqlite3* db, const char* sql)
        : db_(db)
    {
        if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
            throw InputError(std::string("database error: ") + sqlite3_errmsg(db));
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    Statement& bind(int i, const std::string& v)
    {
        check(sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT));
        return *this;
    }
    Statement& bind(int i, std::int64_t v)
    {
        check(sqlite3_bind_int64(stmt_, i, v));
        return *this;
    }
    Statement& bind(int i, double v)
    {
        check(sqlite3_bind_double(stmt_, i, v));
        return *this;
    }
    Statement& bind_null(int i)
    {
        check(sqlite3_bind_null(stmt_, i));
        return *this;
    }

    void reset()
    {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }
    // Returns true while a row is available.
    bool step()
    {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        // A full disk or an I/O error is a fault of the machine, not of the input.
        if (rc == SQLITE_FULL || rc == SQLITE_IOERR)
            throw std::runtime_error(std::string("database error: ") + sqlite3_errmsg(db_));
        throw InputError(std::string("database error: ") + sqlite3_errmsg(db_));
    }
    std::string text(int col)
    {
        const auto* p = sqlite3_column_text(stmt_, col);
        return p ? reinterpret_cast<const char*>(p) : "";
    }
    std::int64_t integer(int col) { return sqlite3_column_int64(stmt_, col); }
    double real(int col) { return sqlite3_column_double(stmt_, col); }

private:
    void check(int rc)
    {
        if (rc != SQLITE_OK)
            throw InputError(std::string("database error: ") + sqlite3_errmsg(db_));
    }
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

// The file: URI of a path, every byte but the unreserved ones and '/' percent-encoded, so that
// no path reads as a URI's query or fragment; `read_only` adds mode=ro, which opens nothing
// for writing (a task database on a read-only copy of a campaign).
std::string sqlite_uri(const std::string& path, bool read_only)
{
    std::string uri = path.empty() || path[0] != '/' ? "file:" : "file://";
    for (const char ch : path) {
        const auto c = static_cast<unsigned char>(ch);
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
            uri += ch;
        } else {
            char hex[4];
            std::snprintf(hex, sizeof hex, "%%%02X", c);
            uri += hex;
        }
    }
    return read_only ? uri + "?mode=ro" : uri;
}

// How long a connection waits for another one's lock before it gives up.
constexpr int busy_timeout_ms = 30000;

void exec(sqlite3* db, const char* sql)
{
    char* message = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        std::string m = message ? message : sqlite3_errmsg(db);
        sqlite3_free(message);
        if (rc == SQLITE_FULL || rc == SQLITE_IOERR)
            throw std::runtime_error("database error: " + m);
        throw InputError("database error: " + m);
    }
}

// Write-ahead logging while the store is written: readers never block the workers' commits,
// and concurrent writers wait on the busy timeout instead of failing. Switching a file to it
// needs the file to itself, and SQLite answers SQLITE_BUSY at once, without the busy handler,
// while another connection holds a write lock in rollback mode: another process creating the
// same new store, or the last writer switching back in its destructor. So this waits here, as
// long as the busy timeout.
void use_write_ahead_log(sqlite3* db)
{
    const auto give_up
        = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_timeout_ms);
    int rc;
    while ((rc = sqlite3_exec(db, "PRAGMA journal_mode = WAL", nullptr, nullptr, nullptr))
            == SQLITE_BUSY
        && std::chrono::steady_clock::now() < give_up)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (rc != SQLITE_OK) exec(db, "PRAGMA journal_mode = WAL"); // says why
}

// Rolls back unless committed.
class Transaction {
public:
    explicit Transaction(sqlite3* db)
        : db_(db)
    {
        exec(db_, "BEGIN IMMEDIATE");
    }
    ~Transaction()
    {
        if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    void commit()
    {
        exec(db_, "COMMIT");
        done_ = true;
    }

private:
    sqlite3* db_;
    bool done_ = false;
};

RunRecord read_run(Statement& q)
{
    RunRecord r;
    r.run_id = q.integer(0);
    r.generator = q.text(1);
    r.config = q.text(2);
    r.seed = q.text(3);
    r.backend = q.text(4);
    r.battery = q.text(5);
    r.mode = q.text(6);
    r.status = q.text(7);
    r.resolution_bits = static_cast<int>(q.integer(8));
    r.params_sha256 = q.text(9);
    r.testu01_version = q.text(10);
    r.rngvet_version = q.text(11);
    r.host = q.text(12);
    r.command_line = q.text(13);
    r.started_at = q.text(14);
    r.finished_at = q.text(15);
    r.numbers_used = static_cast<std::uint64_t>(q.integer(16));
    r.cpu_seconds = q.real(17);
    r.jobs = static_cast<int>(q.integer(18));
    r.cpu_model = q.text(19);
    r.gpu_model = q.text(20);
    r.options = q.text(21);
    r.tests_selected = q.text(22);
    r.input_sha256 = q.text(23);
    r.params_check = q.text(24);
    r.engine = q.text(25);
    return r;
}

const char* const run_columns
    = "run_id, generator, config, seed, backend, battery, mode, status, resolution_bits, "
      "params_sha256, testu01_version, rngvet_version, host, command_line, started_at, "
      "finished_at, numbers_used, cpu_seconds, jobs, cpu_model, gpu_model, options, "
      "tests_selected, input_sha256, params_check, engine";

} // namespace

const char* verdict(double p)
{
    if (is_failure(p)) return "fail";
    if (is_suspect(p)) return "suspect";
    return "pass";
}

void check_store_path(const std::string& path)
{
    // SQLite reads these names as databases that vanish when the process ends.
    if (path.empty() || path == ":memory:")
        throw InputError("--db must name a file ('" + path + "' would keep nothing)");
    struct stat st { };
    if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw InputError("'" + path + "' is not a regular file and cannot hold a store");
}

int store_file_schema_version(const std::string& path)
{
    struct stat st { };
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return -1;
    sqlite3* db = nullptr;
    int version = -1;
    if (sqlite3_open_v2(
            sqlite_uri(path, true).c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr)
        == SQLITE_OK) {
        sqlite3_busy_timeout(db, busy_timeout_ms);
        sqlite3_stmt* q = nullptr;
        if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &q, nullptr) == SQLITE_OK
            && sqlite3_step(q) == SQLITE_ROW)
            version = sqlite3_column_int(q, 0);
        sqlite3_finalize(q);
    }
    sqlite3_close(db);
    return version;
}

Store::Store(const std::string& path, Access access)
    : path_(path)
    , access_(access)
{
    check_store_path(path);
    // Opened by URI, as every path is, so that ATTACH takes one too (merge_campaign_task).
    const int flags = SQLITE_OPEN_URI
        | (access == Access::read_only ? SQLITE_OPEN_READONLY
                                       : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
    const int rc = sqlite3_open_v2(
        sqlite_uri(path, access == Access::read_only).c_str(), &db_, flags, nullptr);
    if (rc != SQLITE_OK) {
        const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close(db_);
        db_ = nullptr;
        throw InputError("cannot open database '" + path + "': " + why);
    }
    sqlite3_busy_timeout(db_, busy_timeout_ms);
    try {
        if (access == Access::read_only) {
            check_readable_schema();
        } else {
            exec(db_, "PRAGMA foreign_keys = ON");
            // Migrated in the file's own journal mode first: a migration that is refused
            // rolls back and leaves the file as it was, byte for byte.
            migrate();
            // The destructor returns the file to a rollback journal (see there).
            use_write_ahead_log(db_);
        }
    } catch (const InputError& e) {
        sqlite3_close(db_);
        db_ = nullptr;
        throw InputError("cannot use database '" + path
            + "': " + std::string(e.what()).substr(std::string("database error: ").size()));
    }
}

Store::~Store()
{
    close();
}

void Store::close()
{
    if (!db_) return;
    // A WAL file can only be read by a process that may write its -shm file beside it. The
    // last writer to close therefore switches back to a rollback journal, so a finished store
    // reads on a read-only copy or file system. While another connection is open the switch
    // fails at once (busy) and that connection's close makes it instead.
    if (access_ == Access::read_write) {
        sqlite3_busy_timeout(db_, 0);
        sqlite3_exec(db_, "PRAGMA journal_mode = DELETE", nullptr, nullptr, nullptr);
    }
    sqlite3_close(db_);
    db_ = nullptr;
}

void Store::check_readable_schema()
{
    const int current = schema_version();
    if (current == 0) {
        Statement q(db_, "SELECT count(*) FROM sqlite_master");
        q.step();
        throw InputError(q.integer(0) ? "database error: the file holds tables but is not an "
                                        "rngvet store"
                                      : "database error: the file is not an rngvet store");
    }
    if (current > store_schema_version)
        throw InputError("database error: schema version " + std::to_string(current)
            + " is newer than this rngvet understands (" + std::to_string(store_schema_version)
            + ")");
    if (current < store_schema_version)
        throw InputError("database error: schema version " + std::to_string(current)
            + " needs an upgrade; open it once with a command that writes (rngvet run --resume, "
              "campaign merge) or from a writable copy");
}

int Store::schema_version()
{
    Statement q(db_, "PRAGMA user_version");
    q.step();
    return static_cast<int>(q.integer(0));
}

void Store::migrate()
{
    // BEGIN IMMEDIATE takes the write lock, so this also proves the file is writable.
    Transaction t(db_);
    const int current = schema_version();
    if (current > store_schema_version)
        throw InputError("database error: schema version " + std::to_string(current)
            + " is newer than this rngvet understands (" + std::to_string(store_schema_version)
            + ")");
    if (current == 0) {
        Statement q(db_, "SELECT count(*) FROM sqlite_master");
        q.step();
        if (q.integer(0) != 0)
            throw InputError("database error: the file holds tables but is not an rngvet store");
    }
    for (int v = current; v < store_schema_version; ++v) {
        try {
            exec(db_, migrations[v].c_str());
        } catch (const InputError& e) {
            // A file whose tables are not those its version number says (a version number
            // set by hand, a store copied together from two): say that, not SQLite's words
            // about the step that failed ("duplicate column name").
            throw InputError("database error: the file says schema version "
                + std::to_string(current) + ", but its tables are not those of version "
                + std::to_string(current) + " (upgrading to version " + std::to_string(v + 1)
                + " failed: " + std::string(e.what()).substr(16) + "); nothing was changed");
        }
        exec(db_, ("PRAGMA user_version = " + std::to_string(v + 1)).c_str());
    }
    t.commit();
}

namespace {

std::int64_t insert_run_row(sqlite3* db, const RunRecord& r)
{
    Statement q(db,
        "INSERT INTO runs (generator, config, seed, backend, battery, mode, status, "
        "resolution_bits, params_sha256, testu01_version, rngvet_version, host, "
        "command_line, started_at, finished_at, numbers_used, cpu_seconds, jobs, "
        "cpu_model, gpu_model, options, tests_selected, input_sha256, params_check, engine) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, "
        "?19, ?20, ?21, ?22, ?23, ?24, ?25)");
    q.bind(1, r.generator).bind(2, r.config).bind(3, r.seed).bind(4, r.backend).bind(5, r.battery);
    q.bind(6, r.mode).bind(7, r.status).bind(8, std::int64_t{ r.resolution_bits });
    q.bind(9, r.params_sha256).bind(10, r.testu01_version).bind(11, r.rngvet_version);
    q.bind(12, r.host).bind(13, r.command_line).bind(14, r.started_at);
    if (r.finished_at.empty())
        q.bind_null(15);
    else
        q.bind(15, r.finished_at);
    q.bind(16, static_cast<std::int64_t>(r.numbers_used)).bind(17, r.cpu_seconds);
    q.bind(18, std::int64_t{ r.jobs }).bind(19, r.cpu_model).bind(20, r.gpu_model);
    q.bind(21, r.options).bind(22, r.tests_selected).bind(23, r.input_sha256);
    q.bind(24, r.params_check).bind(25, r.engine);
    q.step();
    return sqlite3_last_insert_rowid(db);
}

void insert_statistics(sqlite3* db, std::int64_t id, const std::vector<StatisticRecord>& stats)
{
    Statement s(db,
        "INSERT INTO statistics (run_id, stat_index, test_number, test_name, "
        "pvalue) VALUES (?1, ?2, ?3, ?4, ?5)");
    for (const StatisticRecord& st : stats) {
        s.reset();
        s.bind(1, id)
            .bind(2, std::int64_t{ st.stat_index })
            .bind(3, std::int64_t{ st.test_number });
        s.bind(4, st.test_name).bind(5, st.pvalue);
        s.step();
    }
}

} // namespace

std::int64_t Store::insert_run(const RunRecord& r, const std::vector<StatisticRecord>& stats)
{
    Transaction t(db_);
    const std::int64_t id = insert_run_row(db_, r);
    insert_statistics(db_, id, stats);
    t.commit();
    return id;
}

std::int64_t Store::create_run(const RunRecord& r)
{
    Transaction t(db_);
    const std::int64_t id = insert_run_row(db_, r);
    t.commit();
    return id;
}

void Store::insert_test(
    std::int64_t run_id, const TestRecord& test, const std::vector<StatisticRecord>& stats)
{
    Transaction t(db_);
    Statement q(db_,
        "INSERT INTO tests (run_id, test_number, start_offset, numbers_used, "
        "cpu_seconds, worker, refills, refill_waits, started_at, finished_at, engine, "
        "wall_seconds) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)");
    q.bind(1, run_id).bind(2, std::int64_t{ test.test_number });
    q.bind(3, static_cast<std::int64_t>(test.start_offset));
    q.bind(4, static_cast<std::int64_t>(test.numbers_used)).bind(5, test.cpu_seconds);
    q.bind(6, test.worker).bind(7, static_cast<std::int64_t>(test.refills));
    q.bind(8, static_cast<std::int64_t>(test.refill_waits)).bind(9, test.started_at);
    q.bind(10, test.finished_at).bind(11, test.engine).bind(12, test.wall_seconds);
    q.step();
    insert_statistics(db_, run_id, stats);
    Statement u(db_,
        "UPDATE runs SET numbers_used = numbers_used + ?2, cpu_seconds = cpu_seconds + ?3 "
        "WHERE run_id = ?1");
    u.bind(1, run_id)
        .bind(2, static_cast<std::int64_t>(test.numbers_used))
        .bind(3, test.cpu_seconds);
    u.step();
    t.commit();
}

void Store::finish_run(
    std::int64_t run_id, const std::string& status, const std::string& finished_at)
{
    Transaction t(db_);
    Statement q(db_, "UPDATE runs SET status = ?2, finished_at = ?3 WHERE run_id = ?1");
    q.bind(1, run_id).bind(2, status).bind(3, finished_at);
    q.step();
    t.commit();
}

void Store::set_testu01_version(std::int64_t run_id, const std::string& version)
{
    Statement q(
        db_, "UPDATE runs SET testu01_version = ?2 WHERE run_id = ?1 AND testu01_version = ''");
    q.bind(1, run_id).bind(2, version);
    q.step();
}

std::vector<TestRecord> Store::tests(std::int64_t run_id)
{
    Statement q(db_,
        "SELECT test_number, start_offset, numbers_used, cpu_seconds, worker, refills, "
        "refill_waits, started_at, finished_at, engine, wall_seconds FROM tests "
        "WHERE run_id = ?1 "
        "ORDER BY test_number");
    q.bind(1, run_id);
    std::vector<TestRecord> out;
    while (q.step()) {
        TestRecord t;
        t.test_number = static_cast<int>(q.integer(0));
        t.start_offset = static_cast<std::uint64_t>(q.integer(1));
        t.numbers_used = static_cast<std::uint64_t>(q.integer(2));
        t.cpu_seconds = q.real(3);
        t.worker = q.text(4);
        t.refills = static_cast<std::uint64_t>(q.integer(5));
        t.refill_waits = static_cast<std::uint64_t>(q.integer(6));
        t.started_at = q.text(7);
        t.finished_at = q.text(8);
        t.engine = q.text(9);
        t.wall_seconds = q.real(10);
        out.push_back(t);
    }
    return out;
}

std::int64_t Store::insert_bench(const BenchRecord& b)
{
    Transaction t(db_);
    Statement q(db_,
        "INSERT INTO bench (config, backend, device, placement, numbers_per_second, "
        "bytes_per_second, measured_at, command_line) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
        "?7, ?8)");
    q.bind(1, b.config).bind(2, b.backend).bind(3, b.device).bind(4, b.placement);
    q.bind(5, b.numbers_per_second).bind(6, b.bytes_per_second).bind(7, b.measured_at);
    q.bind(8, b.command_line);
    q.step();
    const std::int64_t id = sqlite3_last_insert_rowid(db_);
    t.commit();
    return id;
}

std::vector<BenchRecord> Store::bench()
{
    Statement q(db_,
        "SELECT bench_id, config, backend, device, placement, numbers_per_second, "
        "bytes_per_second, measured_at, command_line FROM bench ORDER BY bench_id");
    std::vector<BenchRecord> out;
    while (q.step())
        out.push_back({ q.integer(0), q.text(1), q.text(2), q.text(3), q.text(4), q.real(5),
            q.real(6), q.text(7), q.text(8) });
    return out;
}

std::int64_t Store::insert_start_check(const StartCheckRecord& c)
{
    Transaction t(db_);
    Statement q(db_,
        "INSERT INTO start_checks (config, bits, pairs, steps, agreement, z, p, worst_pair, "
        "worst_agreement, worst_p, passed, checked_at, rngvet_version, host, command_line) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)");
    q.bind(1, c.config).bind(2, std::int64_t{ c.bits }).bind(3, std::int64_t{ c.pairs });
    q.bind(4, std::int64_t{ c.steps }).bind(5, c.agreement).bind(6, c.z).bind(7, c.p);
    q.bind(8, std::int64_t{ c.worst_pair }).bind(9, c.worst_agreement).bind(10, c.worst_p);
    q.bind(11, std::int64_t{ c.passed ? 1 : 0 }).bind(12, c.checked_at).bind(13, c.rngvet_version);
    q.bind(14, c.host).bind(15, c.command_line);
    q.step();
    const std::int64_t id = sqlite3_last_insert_rowid(db_);
    t.commit();
    return id;
}

std::vector<StartCheckRecord> Store::start_checks()
{
    Statement q(db_,
        "SELECT check_id, config, bits, pairs, steps, agreement, z, p, worst_pair, "
        "worst_agreement, worst_p, passed, checked_at, rngvet_version, host, command_line "
        "FROM start_checks ORDER BY check_id");
    std::vector<StartCheckRecord> out;
    while (q.step()) {
        StartCheckRecord c;
        c.check_id = q.integer(0);
        c.config = q.text(1);
        c.bits = static_cast<int>(q.integer(2));
        c.pairs = static_cast<int>(q.integer(3));
        c.steps = static_cast<int>(q.integer(4));
        c.agreement = q.real(5);
        c.z = q.real(6);
        c.p = q.real(7);
        c.worst_pair = static_cast<int>(q.integer(8));
        c.worst_agreement = q.real(9);
        c.worst_p = q.real(10);
        c.passed = q.integer(11) != 0;
        c.checked_at = q.text(12);
        c.rngvet_version = q.text(13);
        c.host = q.text(14);
        c.command_line = q.text(15);
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<RunRecord> Store::runs()
{
    Statement q(db_, (std::string("SELECT ") + run_columns + " FROM runs ORDER BY run_id").c_str());
    std::vector<RunRecord> out;
    while (q.step())
        out.push_back(read_run(q));
    return out;
}

std::optional<RunRecord> Store::run(std::int64_t run_id)
{
    Statement q(
        db_, (std::string("SELECT ") + run_columns + " FROM runs WHERE run_id = ?1").c_str());
    q.bind(1, run_id);
    if (!q.step()) return std::nullopt;
    return read_run(q);
}

std::vector<StatisticRecord> Store::statistics(std::int64_t run_id)
{
    Statement q(db_,
        "SELECT stat_index, test_number, test_name, pvalue FROM statistics "
        "WHERE run_id = ?1 ORDER BY stat_index");
    q.bind(1, run_id);
    std::vector<StatisticRecord> out;
    while (q.step())
        out.push_back({ static_cast<int>(q.integer(0)), static_cast<int>(q.integer(1)), q.text(2),
            q.real(3) });
    return out;
}

std::string Store::impossible_pvalue(std::int64_t run_id)
{
    Statement q(db_,
        "SELECT stat_index, quote(pvalue) FROM statistics WHERE run_id = ?1 AND "
        "(typeof(pvalue) NOT IN ('real', 'integer') OR pvalue < 0 OR pvalue > 1) "
        "ORDER BY stat_index LIMIT 1");
    q.bind(1, run_id);
    if (!q.step()) return "";
    return "statistic " + std::to_string(q.integer(0)) + ": p-value " + q.text(1);
}

std::vector<std::string> Store::campaign_ids()
{
    std::vector<std::string> ids;
    Statement q(
        db_, "SELECT campaign_id FROM campaign_runs UNION SELECT campaign_id FROM campaign_tasks");
    while (q.step())
        ids.push_back(q.text(0));
    return ids;
}

std::map<std::int64_t, std::string> Store::campaign_labels()
{
    std::map<std::int64_t, std::string> labels;
    Statement q(db_, "SELECT run_id, configuration FROM campaign_runs");
    while (q.step())
        labels[q.integer(0)] = q.text(1);
    return labels;
}

std::optional<CampaignStamp> Store::campaign_stamp()
{
    Statement q(db_, "SELECT campaign_id, task_id, configuration, seed, tests FROM campaign_stamp");
    if (!q.step()) return std::nullopt;
    CampaignStamp s{ q.text(0), static_cast<int>(q.integer(1)), q.text(2), q.text(3), q.text(4) };
    if (q.step()) throw InputError("database '" + path_ + "' holds more than one campaign stamp");
    return s;
}

namespace {

std::string describe(const CampaignStamp& s)
{
    return "campaign " + s.campaign_id + " task " + std::to_string(s.task_id) + " ("
        + s.configuration + ", seed " + s.seed + ", tests " + s.tests + ")";
}

bool same(const CampaignStamp& a, const CampaignStamp& b)
{
    return a.campaign_id == b.campaign_id && a.task_id == b.task_id
        && a.configuration == b.configuration && a.seed == b.seed && a.tests == b.tests;
}

} // namespace

void Store::stamp_campaign_task(const CampaignStamp& stamp)
{
    Transaction t(db_);
    if (const auto held = campaign_stamp()) {
        if (!same(*held, stamp))
            throw InputError(
                "'" + path_ + "' belongs to " + describe(*held) + ", not to " + describe(stamp));
        return;
    }
    Statement runs(db_, "SELECT count(*) FROM runs");
    runs.step();
    if (runs.integer(0) != 0)
        throw InputError("'" + path_
            + "' holds runs but no campaign stamp; it is not a task "
              "database of campaign "
            + stamp.campaign_id);
    Statement q(db_,
        "INSERT INTO campaign_stamp (campaign_id, task_id, configuration, seed, tests) "
        "VALUES (?1, ?2, ?3, ?4, ?5)");
    q.bind(1, stamp.campaign_id)
        .bind(2, std::int64_t{ stamp.task_id })
        .bind(3, stamp.configuration);
    q.bind(4, stamp.seed).bind(5, stamp.tests);
    q.step();
    t.commit();
}

namespace {

// ATTACH cannot run inside a transaction; this detaches after the transaction has ended,
// whether it committed or rolled back.
class Attached {
public:
    Attached(sqlite3* db, const std::string& path)
        : db_(db)
    {
        Statement q(db, "ATTACH DATABASE ?1 AS task");
        q.bind(1, sqlite_uri(path, true));
        q.step();
    }
    ~Attached() { sqlite3_exec(db_, "DETACH DATABASE task", nullptr, nullptr, nullptr); }
    Attached(const Attached&) = delete;
    Attached& operator=(const Attached&) = delete;

private:
    sqlite3* db_;
};

std::int64_t single_integer(sqlite3* db, const char* sql, std::int64_t a = 0, std::int64_t b = 0)
{
    Statement q(db, sql);
    if (a) q.bind(1, a);
    if (b) q.bind(2, b);
    q.step();
    return q.integer(0);
}

// "1,2,5" as a set; "" (the whole battery) as the empty set. The stamp was written by
// rngvet and is compared with the campaign's table before this is read.
std::set<int> test_list(const std::string& text)
{
    std::set<int> tests;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
        tests.insert(std::atoi(item.c_str()));
    return tests;
}

// The first word of a statistic's name: "ClosePairs" of "ClosePairs mNP, t = 2". Every
// statistic of a test shares its test's first word (battery_tables.cpp lists the patterns).
std::string first_word(const std::string& name)
{
    return name.substr(0, name.find_first_of(" ,"));
}

// The statistics of task run `run` are exactly those of the tests in `finished`, each at the
// position the catalogue gives it in the whole battery (Statistic::stat_index), with its test's
// number, the catalogue's name on the test's first statistic and the test's first word on the
// others. Anything else (a statistic added, moved, renamed or missing) is an InputError.
void check_statistic_positions(sqlite3* db, std::int64_t run, const BatteryCatalogue& battery,
    const std::set<int>& finished, const std::string& which)
{
    struct Position {
        int test;
        int within; // 0 for the test's first statistic
    };
    std::map<std::int64_t, Position> expected;
    std::int64_t index = 0;
    for (const TestEntry& t : battery.tests)
        for (int k = 0; k < t.statistics; ++k) {
            ++index;
            if (finished.count(t.number)) expected[index] = { t.number, k };
        }
    Statement q(db,
        "SELECT stat_index, test_number, test_name FROM task.statistics WHERE run_id = ?1 "
        "ORDER BY stat_index");
    q.bind(1, run);
    std::size_t seen = 0;
    while (q.step()) {
        const std::int64_t at = q.integer(0);
        const std::int64_t test = q.integer(1);
        const std::string name = q.text(2);
        const auto want = expected.find(at);
        const std::string statistic = which + " holds statistic " + std::to_string(at) + " ('"
            + name + "', test " + std::to_string(test) + ")";
        if (want == expected.end())
            throw InputError(statistic + ", which no finished test of " + battery.name + " has");
        const TestEntry& entry = battery.test(want->second.test);
        if (test != entry.number)
            throw InputError(statistic + " where " + battery.name + " has a statistic of test "
                + std::to_string(entry.number));
        const bool first = want->second.within == 0;
        if (first ? name != entry.name : first_word(name) != first_word(entry.name))
            throw InputError(statistic + " where " + battery.name + " names it '" + entry.name
                + (first ? "'" : " ...'"));
        ++seen;
    }
    if (seen != expected.size()) {
        for (const TestEntry& t : battery.tests) {
            if (!finished.count(t.number)) continue;
            Statement c(db,
                "SELECT count(*) FROM task.statistics WHERE run_id = ?1 AND "
                "test_number = ?2");
            c.bind(1, run).bind(2, std::int64_t{ t.number });
            c.step();
            if (c.integer(0) != t.statistics)
                throw InputError(which + " holds " + std::to_string(c.integer(0))
                    + " statistics of test " + std::to_string(t.number) + " where " + battery.name
                    + " has " + std::to_string(t.statistics));
        }
    }
}

} // namespace

CampaignMerge Store::merge_campaign_task(
    const std::string& task_db, const CampaignTaskSpec& spec, const std::string& merged_at)
{
    // ATTACH would create a missing file.
    if (std::FILE* f = std::fopen(task_db.c_str(), "rb"))
        std::fclose(f);
    else
        throw InputError("no task database at '" + task_db + "'");
    const std::string refused = "task database '" + task_db + "' refused: ";
    CampaignMerge result;
    try {
        Attached attached(db_, task_db);
        Transaction t(db_);

        // Everything is checked before anything is written.
        Statement master(db_, "SELECT count(*) FROM task.sqlite_master");
        master.step();
        const std::int64_t version = single_integer(db_, "PRAGMA task.user_version");
        if (version < 3 || version > store_schema_version)
            throw InputError(
                "not an rngvet task database (schema version " + std::to_string(version) + ")");
        Statement check(db_, "PRAGMA task.quick_check");
        check.step();
        if (check.text(0) != "ok") throw InputError("damaged: " + check.text(0));

        Statement stamp_q(db_,
            "SELECT campaign_id, task_id, configuration, seed, tests "
            "FROM task.campaign_stamp");
        if (!stamp_q.step()) throw InputError("it has no campaign stamp");
        const CampaignStamp stamp{ stamp_q.text(0), static_cast<int>(stamp_q.integer(1)),
            stamp_q.text(2), stamp_q.text(3), stamp_q.text(4) };
        if (stamp_q.step()) throw InputError("it holds more than one campaign stamp");
        if (!same(stamp, spec.stamp))
            throw InputError(
                "it belongs to " + describe(stamp) + ", not to " + describe(spec.stamp));

        struct TaskRun {
            std::int64_t id;
            std::string status, started_at, finished_at, host, command_line;
        };
        std::vector<TaskRun> task_runs;
        Statement runs_q(db_,
            "SELECT run_id, config, seed, battery, mode, tests_selected, status, "
            "started_at, coalesce(finished_at, ''), host, command_line "
            "FROM task.runs ORDER BY run_id");
        while (runs_q.step()) {
            if (runs_q.text(1) != spec.config || runs_q.text(2) != spec.stamp.seed
                || runs_q.text(3) != spec.battery || runs_q.text(4) != "sharded"
                || runs_q.text(5) != spec.stamp.tests)
                throw InputError("its run " + std::to_string(runs_q.integer(0)) + " is "
                    + runs_q.text(3) + " " + runs_q.text(4) + " tests '" + runs_q.text(5) + "' of "
                    + runs_q.text(1) + ", not sharded " + spec.battery + " tests '"
                    + spec.stamp.tests + "' of " + spec.config);
            task_runs.push_back({ runs_q.integer(0), runs_q.text(6), runs_q.text(7), runs_q.text(8),
                runs_q.text(9), runs_q.text(10) });
        }
        if (task_runs.empty()) return result; // nothing to fold yet

        // What is copied must be what a run stores: every p-value a number in [0, 1] (SQLite
        // keeps a NaN as NULL), and each finished test of the task's selection with exactly the
        // statistics the battery's catalogue gives it, at their positions, under its name.
        const BatteryCatalogue& battery = catalogue_for(spec.battery);
        const std::set<int> selected = test_list(spec.stamp.tests);
        for (const TaskRun& run : task_runs) {
            const std::string which = "its run " + std::to_string(run.id);
            Statement bad(db_,
                "SELECT stat_index, test_number, quote(pvalue) FROM task.statistics "
                "WHERE run_id = ?1 AND (pvalue IS NULL OR typeof(pvalue) NOT IN ('real', "
                "'integer') OR pvalue < 0 OR pvalue > 1 OR test_name IS NULL) LIMIT 1");
            bad.bind(1, run.id);
            if (bad.step())
                throw InputError(which + " holds statistic " + bad.text(0) + " (test " + bad.text(1)
                    + ") with p-value " + bad.text(2) + ", which is not a number in [0, 1]");
            std::set<int> finished;
            Statement tests_q(db_, "SELECT test_number FROM task.tests WHERE run_id = ?1");
            tests_q.bind(1, run.id);
            while (tests_q.step()) {
                const std::int64_t test = tests_q.integer(0);
                if (test < 1 || test > static_cast<std::int64_t>(battery.tests.size()))
                    throw InputError(which + " holds test " + std::to_string(test) + ", which "
                        + battery.name + " does not have");
                if (!selected.empty() && !selected.count(static_cast<int>(test)))
                    throw InputError(which + " holds test " + std::to_string(test)
                        + ", which is not among its tests " + spec.stamp.tests);
                finished.insert(static_cast<int>(test));
            }
            check_statistic_positions(db_, run.id, battery, finished, which);
        }

        Statement find(db_,
            "SELECT run_id FROM campaign_runs WHERE campaign_id = ?1 AND "
            "configuration = ?2 AND seed = ?3");
        find.bind(1, spec.stamp.campaign_id)
            .bind(2, spec.stamp.configuration)
            .bind(3, spec.stamp.seed);
        if (find.step()) {
            result.run_id = find.integer(0);
        } else {
            // The folded run takes its description from the first task run; the sums and the
            // status are recomputed below from what it holds.
            // Schema 4 added the input's hash and the parameter check (empty before).
            const bool checked = version >= 4;
            const bool engines = version >= 5; // schema 5 added the engines
            const std::string insert
                = std::string("INSERT INTO runs (generator, config, seed, backend, battery, mode, "
                              "status, resolution_bits, params_sha256, testu01_version, "
                              "rngvet_version, host, command_line, started_at, finished_at, jobs, "
                              "cpu_model, gpu_model, options, tests_selected, input_sha256, "
                              "params_check, engine) "
                              "SELECT generator, config, seed, backend, battery, mode, 'running', "
                              "resolution_bits, params_sha256, testu01_version, rngvet_version, "
                              "host, command_line, started_at, NULL, jobs, cpu_model, gpu_model, "
                              "options, ?2, ")
                + (checked ? "input_sha256, params_check, " : "'', '', ")
                + (engines ? "engine" : "'testu01'") + " FROM task.runs WHERE run_id = ?1";
            Statement add(db_, insert.c_str());
            add.bind(1, task_runs.front().id).bind(2, spec.tests_selected);
            add.step();
            result.run_id = sqlite3_last_insert_rowid(db_);
            Statement link(db_,
                "INSERT INTO campaign_runs (run_id, campaign_id, configuration, "
                "seed) VALUES (?1, ?2, ?3, ?4)");
            link.bind(1, result.run_id).bind(2, spec.stamp.campaign_id);
            link.bind(3, spec.stamp.configuration).bind(4, spec.stamp.seed);
            link.step();
        }

        for (const TaskRun& run : task_runs) {
            // Schema 5 added each test's engine (TestU01's before) and wall time (0 before).
            const std::string copy_tests
                = std::string("INSERT OR IGNORE INTO tests (run_id, test_number, start_offset, "
                              "numbers_used, cpu_seconds, worker, refills, refill_waits, "
                              "started_at, finished_at, engine, wall_seconds) SELECT ?1, "
                              "test_number, start_offset, numbers_used, cpu_seconds, worker, "
                              "refills, refill_waits, started_at, finished_at, ")
                + (version >= 5 ? "engine, wall_seconds" : "'testu01', 0")
                + " FROM task.tests WHERE run_id = ?2";
            Statement tests(db_, copy_tests.c_str());
            tests.bind(1, result.run_id).bind(2, run.id);
            tests.step();
            result.tests_added += sqlite3_changes(db_);
            Statement stats(db_,
                "INSERT OR IGNORE INTO statistics (run_id, stat_index, "
                "test_number, test_name, pvalue) SELECT ?1, stat_index, "
                "test_number, test_name, pvalue FROM task.statistics "
                "WHERE run_id = ?2");
            stats.bind(1, result.run_id).bind(2, run.id);
            stats.step();
            result.statistics_added += sqlite3_changes(db_);
            result.task_tests += static_cast<std::size_t>(
                single_integer(db_, "SELECT count(*) FROM task.tests WHERE run_id = ?1", run.id));

            // Written only when something changed, so that merging again changes nothing.
            Statement seen(db_,
                "SELECT status FROM campaign_tasks WHERE campaign_id = ?1 AND "
                "task_id = ?2 AND task_run_id = ?3");
            seen.bind(1, spec.stamp.campaign_id).bind(2, std::int64_t{ spec.stamp.task_id });
            seen.bind(3, run.id);
            const bool known = seen.step();
            if (!known || seen.text(0) != run.status) {
                Statement rec(db_,
                    "INSERT INTO campaign_tasks (campaign_id, task_id, task_run_id, "
                    "run_id, status, host, command_line, merged_at) VALUES (?1, ?2, "
                    "?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (campaign_id, task_id, "
                    "task_run_id) DO UPDATE SET status = excluded.status, "
                    "merged_at = excluded.merged_at");
                rec.bind(1, spec.stamp.campaign_id).bind(2, std::int64_t{ spec.stamp.task_id });
                rec.bind(3, run.id).bind(4, result.run_id).bind(5, run.status).bind(6, run.host);
                rec.bind(7, run.command_line).bind(8, merged_at);
                rec.step();
            }
            result.task_status = run.status;
        }

        // The folded run: sums over its tests, the earliest start, and complete once every test
        // of the selection is there (finished when the last of them finished).
        const std::int64_t have
            = single_integer(db_, "SELECT count(*) FROM tests WHERE run_id = ?1", result.run_id);
        const bool any_running = single_integer(db_,
                                     "SELECT count(*) FROM campaign_tasks WHERE "
                                     "run_id = ?1 AND status = 'running'",
                                     result.run_id)
            != 0;
        const char* status = have >= spec.battery_tests ? "complete"
            : any_running                               ? "running"
                                                        : "interrupted";
        Statement fold(db_,
            "UPDATE runs SET status = ?2, "
            "numbers_used = (SELECT coalesce(sum(numbers_used), 0) FROM tests WHERE run_id = ?1), "
            "cpu_seconds = (SELECT coalesce(sum(cpu_seconds), 0) FROM tests WHERE run_id = ?1), "
            "started_at = min(started_at, coalesce((SELECT min(started_at) FROM tests WHERE run_id "
            "= ?1), started_at)), "
            "finished_at = CASE WHEN ?2 = 'complete' THEN (SELECT max(finished_at) FROM tests "
            "WHERE run_id = ?1) END, "
            "testu01_version = CASE WHEN testu01_version = '' THEN "
            "(SELECT testu01_version FROM task.runs WHERE run_id = ?3) ELSE testu01_version END "
            "WHERE run_id = ?1");
        fold.bind(1, result.run_id).bind(2, std::string(status)).bind(3, task_runs.back().id);
        fold.step();
        t.commit();
    } catch (const InputError& e) {
        std::string why = e.what();
        const std::string prefix = "database error: ";
        if (why.rfind(prefix, 0) == 0) why = why.substr(prefix.size());
        throw InputError(refused + why);
    }
    return result;
}

} // namespace rngvet
